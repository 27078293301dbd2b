#include "errors.h"
#include "traj.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "bytes.h"
#include "levels.h"
#include "obskind.h"
#include "outfile.h"
#include "worldfile.h"

#define CHUNK_TAG "EPSD"
#define INDEX_TAG "INDX"
#define TASK_TAG "TASK"
#define RULES_TAG "RULE"
#define TRAILER_MAGIC "CRAFTEND"
#define INDEX_HEADER_BYTES 32
/* Raw bytes handed to deflate at a time.  Always whole stages, so the same
 * steps compress to the same bytes however they were recorded. */
#define STAGE_BYTES 65536
/* deflate cannot shrink data by more than about 1032:1; a header that
 * claims more is refused before anything is allocated for it. */
#define MAX_RATIO 1040
#define ALL_ACHIEVEMENTS ((1u << CRAFTER_ACHIEVEMENT_COUNT) - 1u)


static uint32_t crc_update(uint32_t crc, const uint8_t *data, size_t size) {
  return crafter_crc32_update(crc, data, size);
}

static uint32_t crc_of(const uint8_t *data, size_t size) { return crafter_crc32(data, size); }

static int host_is_little_endian(void) {
  uint16_t probe = 1;
  uint8_t first;
  memcpy(&first, &probe, 1);
  return first == 1;
}

/* Observations of float32 values (symbolic ones) are stored little-endian. */
static int float_kind(int obs_kind) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(obs_kind);
  return kind && kind->element == CRAFTER_OBS_ELEMENT_FLOAT32;
}

static void to_little_endian_floats(uint8_t *data, size_t size) {
  if (host_is_little_endian()) return;
  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint8_t swap = data[i];
    data[i] = data[i + 3];
    data[i + 3] = swap;
    swap = data[i + 1];
    data[i + 1] = data[i + 2];
    data[i + 2] = swap;
  }
}

/* ---- header ---- */

void crafter_traj_header_set_levels(crafter_traj_header *header,
                                    const crafter_level_set *levels, int order) {
  header->level_count = levels ? levels->count : 0;
  header->level_first = levels ? levels->first : 0;
  header->level_order = levels ? order : 0;
}

/* Whether observations of the kind are stored: of a fixed size, with a code. */
static int stored_kind(int obs_kind) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(obs_kind);
  return kind && kind->fixed && kind->traj_code >= 0;
}

uint32_t crafter_traj_obs_bytes(const crafter_params *params, int obs_kind, int players) {
  return stored_kind(obs_kind) ? (uint32_t)crafter_obs_kind_bytes(obs_kind, params, players) : 0;
}

uint32_t crafter_traj_textures_crc(const crafter_textures *textures) {
  uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    const crafter_image *image = &textures->images[i];
    uint8_t shape[12];
    crafter_put_u32(shape, (uint32_t)image->width);
    crafter_put_u32(shape + 4, (uint32_t)image->height);
    crafter_put_u32(shape + 8, (uint32_t)image->channels);
    crc = crc_update(crc, shape, sizeof(shape));
    if (image->pixels)
      crc = crc_update(crc, image->pixels,
                       (size_t)image->width * (size_t)image->height * (size_t)image->channels);
  }
  return crc;
}

void crafter_traj_header_init(crafter_traj_header *header, const crafter_params *params,
                              int obs_kind, const char *agent, const crafter_textures *textures) {
  memset(header, 0, sizeof(*header));
  header->version = CRAFTER_TRAJ_VERSION;
  header->params = *params;
  if (!stored_kind(obs_kind)) obs_kind = CRAFTER_OBS_NONE;
  header->obs_kind = obs_kind;
  header->obs_bytes = crafter_traj_obs_bytes(params, obs_kind, 1);
  header->players = 1;
  snprintf(header->agent, sizeof(header->agent), "%s", agent ? agent : "");
  if (crafter_obs_kind(obs_kind)->drawn && textures)
    header->textures_crc = crafter_traj_textures_crc(textures);
}

void crafter_traj_header_set_players(crafter_traj_header *header, int players) {
  header->players = players > 1 ? players : 1;
  header->obs_bytes = crafter_traj_obs_bytes(&header->params, header->obs_kind, header->players);
}

void crafter_traj_header_set_rules(crafter_traj_header *header, const char *config_text,
                                   size_t config_bytes, const crafter_config *config,
                                   const char *world_text, size_t world_bytes,
                                   const crafter_world_map *world) {
  header->config_text = config_text;
  header->config_bytes = config_text ? config_bytes : 0;
  header->config = config_text ? config : NULL;
  header->world_text = world_text;
  header->world_bytes = world_text ? world_bytes : 0;
  header->world = world_text ? world : NULL;
}

int32_t crafter_traj_item_max(const crafter_traj_header *header, int item) {
  return header->config ? header->config->items[item].max : crafter_config_builtin.items[item].max;
}

static void encode_header(const crafter_traj_header *header, uint32_t task_chunk_bytes,
                          uint32_t config_chunk_bytes, uint8_t out[CRAFTER_TRAJ_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_TRAJ_HEADER_BYTES);
  memcpy(out, CRAFTER_TRAJ_MAGIC, 8);
  crafter_put_u32(out + 8, header->players > 1   ? CRAFTER_TRAJ_VERSION_PLAYERS
                           : config_chunk_bytes ? CRAFTER_TRAJ_VERSION_RULES
                           : task_chunk_bytes   ? CRAFTER_TRAJ_VERSION_TASKS
                                                : CRAFTER_TRAJ_VERSION);
  crafter_put_u32(out + 12, CRAFTER_TRAJ_HEADER_BYTES);
  crafter_put_u16(out + 16, (uint16_t)crafter_obs_kind(header->obs_kind)->traj_code);
  if (header->players > 1) crafter_put_u16(out + 18, (uint16_t)header->players);
  crafter_put_u32(out + 20, header->obs_bytes);
  const crafter_params *params = &header->params;
  for (int axis = 0; axis < 2; axis++) {
    crafter_put_i32(out + 24 + 4 * axis, params->area[axis]);
    crafter_put_i32(out + 32 + 4 * axis, params->view[axis]);
    crafter_put_i32(out + 40 + 4 * axis, params->size[axis]);
  }
  crafter_put_u32(out + 48, params->reward ? 1u : 0u);
  crafter_put_u32(out + 52, CRAFTER_ACTION_COUNT);
  crafter_put_i64(out + 56, params->length);
  crafter_put_i64(out + 64, params->seed);
  crafter_put_u32(out + 72, CRAFTER_ACHIEVEMENT_COUNT);
  crafter_put_u32(out + 76, CRAFTER_TRAJ_STEP_BYTES);
  memcpy(out + 80, header->agent, strnlen(header->agent, CRAFTER_TRAJ_AGENT_BYTES));
  crafter_put_u32(out + 96, header->textures_crc);
  crafter_put_u32(out + 100, CRAFTER_ITEM_COUNT);
  crafter_put_u32(out + 104, task_chunk_bytes);
  if (header->level_count > 0) {
    crafter_put_u32(out + 108, (uint32_t)header->level_count);
    crafter_put_u32(out + 112, (uint32_t)header->level_first);
    crafter_put_u32(out + 116, (uint32_t)header->level_order);
  }
  crafter_put_u32(out + 120, config_chunk_bytes);
  crafter_put_u32(out + 124, crc_of(out, 124));
}

static int decode_header(const uint8_t *in, size_t size, crafter_traj_header *header,
                         uint32_t *task_chunk_bytes, uint32_t *config_chunk_bytes, char *error,
                         size_t error_size) {
  if (size < 8 || memcmp(in, CRAFTER_TRAJ_MAGIC, 8) != 0)
    return crafter_fail(error, error_size, "not a trajectory file (it does not start with %s)",
                 CRAFTER_TRAJ_MAGIC);
  if (size < 16)
    return crafter_fail(error, error_size, "the header is cut short: %zu of %d bytes", size,
                 CRAFTER_TRAJ_HEADER_BYTES);
  uint32_t version = crafter_get_u32(in + 8);
  if (version != CRAFTER_TRAJ_VERSION && version != CRAFTER_TRAJ_VERSION_TASKS &&
      version != CRAFTER_TRAJ_VERSION_RULES && version != CRAFTER_TRAJ_VERSION_PLAYERS)
    return crafter_fail(error, error_size,
                 "format version %u, but this program reads versions %d to %d (a newer toolkit "
                 "may)",
                 version, CRAFTER_TRAJ_VERSION, CRAFTER_TRAJ_VERSION_PLAYERS);
  if (crafter_get_u32(in + 12) != CRAFTER_TRAJ_HEADER_BYTES)
    return crafter_fail(error, error_size, "the header size is %u, not %d", crafter_get_u32(in + 12),
                 CRAFTER_TRAJ_HEADER_BYTES);
  if (size < CRAFTER_TRAJ_HEADER_BYTES)
    return crafter_fail(error, error_size, "the header is cut short: %zu of %d bytes", size,
                 CRAFTER_TRAJ_HEADER_BYTES);
  if (crafter_get_u32(in + 124) != crc_of(in, 124))
    return crafter_fail(error, error_size, "the header's checksum does not match (bytes 0-127 are damaged)");
  memset(header, 0, sizeof(*header));
  header->version = version;
  int obs_code = (int)crafter_get_u16(in + 16);
  /* Version 4 counts its players at 18; before, those bytes are zero. */
  header->players = (int)crafter_get_u16(in + 18);
  if (version == CRAFTER_TRAJ_VERSION_PLAYERS ? header->players < 2 ||
                                                    header->players > CRAFTER_PLAYERS_MAX
                                              : header->players != 0)
    return crafter_fail(error, error_size, "version %u with %d players", version, header->players);
  if (header->players == 0) header->players = 1;
  header->obs_bytes = crafter_get_u32(in + 20);
  crafter_params *params = &header->params;
  for (int axis = 0; axis < 2; axis++) {
    params->area[axis] = crafter_get_i32(in + 24 + 4 * axis);
    params->view[axis] = crafter_get_i32(in + 32 + 4 * axis);
    params->size[axis] = crafter_get_i32(in + 40 + 4 * axis);
  }
  params->reward = (int)crafter_get_u32(in + 48);
  params->length = (long)crafter_get_i64(in + 56);
  params->seed = crafter_get_i64(in + 64);
  memcpy(header->agent, in + 80, CRAFTER_TRAJ_AGENT_BYTES);
  header->agent[CRAFTER_TRAJ_AGENT_BYTES] = '\0';
  header->textures_crc = crafter_get_u32(in + 96);
  *task_chunk_bytes = crafter_get_u32(in + 104);
  uint32_t level_count = crafter_get_u32(in + 108), level_first = crafter_get_u32(in + 112),
           level_order = crafter_get_u32(in + 116);
  if (level_count == 0 ? level_first || level_order
                       : level_count > CRAFTER_LEVELS_MAX || level_first < 1 ||
                             level_first > (uint32_t)CRAFTER_EPISODE_MAX - (level_count - 1) ||
                             level_order > CRAFTER_LEVEL_ORDER_SEQUENTIAL)
    return crafter_fail(error, error_size, "the header's level set (%u levels from %u, order %u) is impossible",
                        level_count, level_first, level_order);
  header->level_count = (int32_t)level_count;
  header->level_first = level_first;
  header->level_order = (int)level_order;
  *config_chunk_bytes = crafter_get_u32(in + 120);
  int any_rules = version >= CRAFTER_TRAJ_VERSION_RULES;
  if ((!any_rules && (version == CRAFTER_TRAJ_VERSION) != (*task_chunk_bytes == 0)) ||
      (*task_chunk_bytes && *task_chunk_bytes <= CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES))
    return crafter_fail(error, error_size, "version %u with a task table of %u bytes", version,
                        *task_chunk_bytes);
  if ((version == CRAFTER_TRAJ_VERSION_RULES &&
       *config_chunk_bytes <= CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES) ||
      (version == CRAFTER_TRAJ_VERSION_PLAYERS && *config_chunk_bytes &&
       *config_chunk_bytes <= CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES) ||
      (!any_rules && *config_chunk_bytes))
    return crafter_fail(error, error_size, "version %u with rules of %u bytes", version,
                        *config_chunk_bytes);
  char problem[200];
  if (crafter_get_u32(in + 52) != CRAFTER_ACTION_COUNT || crafter_get_u32(in + 72) != CRAFTER_ACHIEVEMENT_COUNT ||
      crafter_get_u32(in + 100) != CRAFTER_ITEM_COUNT)
    return crafter_fail(error, error_size,
                 "the header counts %u actions, %u achievements and %u items, not %d, %d and %d",
                 crafter_get_u32(in + 52), crafter_get_u32(in + 72), crafter_get_u32(in + 100), CRAFTER_ACTION_COUNT,
                 CRAFTER_ACHIEVEMENT_COUNT, CRAFTER_ITEM_COUNT);
  if (crafter_get_u32(in + 76) != CRAFTER_TRAJ_STEP_BYTES)
    return crafter_fail(error, error_size, "steps of %u bytes, not %d", crafter_get_u32(in + 76),
                 CRAFTER_TRAJ_STEP_BYTES);
  if (params->reward != 0 && params->reward != 1)
    return crafter_fail(error, error_size, "the header's reward flag is %d, not 0 or 1", params->reward);
  if (crafter_get_i64(in + 56) < 0 || crafter_get_i64(in + 56) > 1000000000)
    return crafter_fail(error, error_size, "the header's length %lld is out of range",
                 (long long)crafter_get_i64(in + 56));
  if (crafter_params_check(params, problem, sizeof(problem)) < 0)
    return crafter_fail(error, error_size, "the header's parameters are impossible: %s", problem);
  header->obs_kind = crafter_obs_kind_from_traj_code(obs_code);
  if (!stored_kind(header->obs_kind))
    return crafter_fail(error, error_size, "unknown observation kind %d", obs_code);
  uint32_t expected = crafter_traj_obs_bytes(params, header->obs_kind, header->players);
  if (header->obs_bytes != expected)
    return crafter_fail(error, error_size, "observations of %u bytes, but %s ones are %u bytes",
                 header->obs_bytes, crafter_obs_kind_name(header->obs_kind), expected);
  for (int i = 0; i < CRAFTER_TRAJ_AGENT_BYTES && header->agent[i]; i++)
    if ((unsigned char)header->agent[i] < 0x20 || (unsigned char)header->agent[i] > 0x7e)
      return crafter_fail(error, error_size, "the agent's name is not printable text");
  return 0;
}

const char *crafter_traj_end_name(int end) {
  switch (end) {
    case CRAFTER_TRAJ_CUT: return "cut";
    case CRAFTER_TRAJ_TIME_LIMIT: return "time_limit";
    case CRAFTER_TRAJ_DIED: return "died";
    case CRAFTER_TRAJ_GOAL: return "goal";
    default: return "unknown";
  }
}

int crafter_traj_is_trajectory(const void *data, size_t size) {
  return size >= 8 && memcmp(data, CRAFTER_TRAJ_MAGIC, 8) == 0;
}

/* ---- chunk headers ---- */

/* Raw bytes of an episode of `steps` steps; 0 on overflow. */
static uint64_t raw_bytes_for(uint64_t steps, uint32_t obs_bytes) {
  uint64_t per_step = CRAFTER_TRAJ_STEP_BYTES + (uint64_t)obs_bytes;
  if (steps > (UINT64_MAX - obs_bytes) / per_step) return 0;
  return obs_bytes + steps * per_step;
}

static uint32_t unlocked_of(const int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT]) {
  uint32_t mask = 0;
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (achievements[i] > 0) mask |= 1u << i;
  return mask;
}

static void encode_chunk_header(const crafter_traj_episode *episode,
                                uint8_t out[CRAFTER_TRAJ_CHUNK_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  memcpy(out, CHUNK_TAG, 4);
  crafter_put_u32(out + 4, CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  crafter_put_u64(out + 8, episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  crafter_put_u64(out + 16, episode->raw_bytes);
  crafter_put_i64(out + 24, episode->seed);
  crafter_put_i64(out + 32, episode->episode);
  crafter_put_i64(out + 40, episode->world_seed);
  crafter_put_u32(out + 48, episode->steps);
  crafter_put_u32(out + 52, episode->unlocked);
  crafter_put_f64(out + 56, episode->reward);
  crafter_put_u32(out + 64, (uint32_t)episode->end);
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    crafter_put_i32(out + 72 + 4 * i, episode->achievements[i]);
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++) crafter_put_i32(out + 160 + 4 * i, episode->inventory[i]);
  if (episode->task >= 0) {
    crafter_put_u32(out + 224, (uint32_t)episode->task + 1);
    crafter_put_u32(out + 228, (uint32_t)episode->text);
  }
  crafter_put_u32(out + 232, episode->play);
  if (episode->player >= 0) crafter_put_u32(out + 236, (uint32_t)episode->player + 1);
  crafter_put_u32(out + 248, episode->payload_crc);
  crafter_put_u32(out + 252, crc_of(out, 252));
}

/* Decodes a chunk header at `offset` of a file of `file_bytes`; checks
 * everything that can be checked without the payload. */
static int decode_chunk_header(const uint8_t *in, uint64_t offset, uint64_t file_bytes,
                               const crafter_traj_header *header, crafter_traj_episode *episode,
                               char *error, size_t error_size) {
  uint32_t obs_bytes = header->obs_bytes;
  const crafter_task_set *tasks = header->tasks;
  if (memcmp(in, CHUNK_TAG, 4) != 0)
    return crafter_fail(error, error_size, "no episode chunk starts here");
  if (crafter_get_u32(in + 252) != crc_of(in, 252))
    return crafter_fail(error, error_size, "the episode chunk's header checksum does not match");
  if (crafter_get_u32(in + 4) != CRAFTER_TRAJ_CHUNK_HEADER_BYTES)
    return crafter_fail(error, error_size, "an episode chunk header of %u bytes, not %d", crafter_get_u32(in + 4),
                 CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  memset(episode, 0, sizeof(*episode));
  uint64_t payload = crafter_get_u64(in + 8);
  episode->offset = offset;
  episode->raw_bytes = crafter_get_u64(in + 16);
  episode->seed = crafter_get_i64(in + 24);
  episode->episode = crafter_get_i64(in + 32);
  episode->world_seed = crafter_get_i64(in + 40);
  episode->steps = crafter_get_u32(in + 48);
  episode->unlocked = crafter_get_u32(in + 52);
  episode->reward = crafter_get_f64(in + 56);
  episode->end = (int)crafter_get_u32(in + 64);
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    episode->achievements[i] = crafter_get_i32(in + 72 + 4 * i);
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++) episode->inventory[i] = crafter_get_i32(in + 160 + 4 * i);
  episode->payload_crc = crafter_get_u32(in + 248);
  uint32_t task = crafter_get_u32(in + 224), text = crafter_get_u32(in + 228);
  if (!tasks && (task || text))
    return crafter_fail(error, error_size, "the episode has a goal, but the file has no task table");
  if (tasks && (task == 0 || task > (uint32_t)tasks->count))
    return crafter_fail(error, error_size, "the episode's goal is task %u of a table of %d", task,
                        tasks->count);
  if (tasks && text >= (uint32_t)tasks->tasks[task - 1].text_count)
    return crafter_fail(error, error_size, "the episode's goal is worded by text %u of %d", text,
                        tasks->tasks[task - 1].text_count);
  /* Only now in range of an int: task is 0 or at most the table's count. */
  episode->task = (int)task - 1;
  episode->text = (int)text;
  episode->play = crafter_get_u32(in + 232);
  /* Files of several players: each chunk is one player's episode. */
  uint32_t player = crafter_get_u32(in + 236);
  if (header->players > 1 ? player == 0 || player > (uint32_t)header->players : player != 0)
    return crafter_fail(error, error_size, "the episode is player %u's in a file of %d player%s",
                        player, header->players, header->players == 1 ? "" : "s");
  episode->player = (int)player - 1;
  for (int i = 240; i < 248; i++)
    if (in[i]) return crafter_fail(error, error_size, "reserved bytes of the chunk header are set");
  if (payload == 0) return crafter_fail(error, error_size, "the episode chunk has no compressed steps");
  uint64_t room = file_bytes - offset - CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  if (payload > room)
    return crafter_fail(error, error_size,
                 "the episode chunk is cut short: %llu of %llu bytes of steps are in the file",
                 (unsigned long long)room, (unsigned long long)payload);
  episode->bytes = CRAFTER_TRAJ_CHUNK_HEADER_BYTES + payload;
  uint64_t raw = raw_bytes_for(episode->steps, obs_bytes);
  if (raw == 0 || raw != episode->raw_bytes)
    return crafter_fail(error, error_size, "%u steps take %llu bytes, but the chunk says %llu",
                 episode->steps, (unsigned long long)raw, (unsigned long long)episode->raw_bytes);
  if (raw / MAX_RATIO > payload)
    return crafter_fail(error, error_size, "%llu bytes cannot compress into %llu",
                 (unsigned long long)raw, (unsigned long long)payload);
  if (episode->end < CRAFTER_TRAJ_CUT || episode->end > (tasks ? CRAFTER_TRAJ_GOAL : CRAFTER_TRAJ_DIED))
    return crafter_fail(error, error_size, "unknown episode end %d", episode->end);
  if (episode->episode < 1) return crafter_fail(error, error_size, "episode counter %lld is not positive",
                                         (long long)episode->episode);
  if (episode->world_seed < 0 || episode->world_seed >= 2147483647)
    return crafter_fail(error, error_size, "world seed %lld is out of range",
                 (long long)episode->world_seed);
  if (!isfinite(episode->reward)) return crafter_fail(error, error_size, "the return is not finite");
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (episode->achievements[i] < 0)
      return crafter_fail(error, error_size, "a negative achievement count");
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++)
    if (episode->inventory[i] < 0 || episode->inventory[i] > crafter_traj_item_max(header, i))
      return crafter_fail(error, error_size, "an inventory count out of range");
  if (episode->unlocked != unlocked_of(episode->achievements))
    return crafter_fail(error, error_size, "the unlocked achievements disagree with their counts");
  if (episode->end != CRAFTER_TRAJ_CUT && episode->steps == 0)
    return crafter_fail(error, error_size, "an episode that ended without a step");
  return 0;
}

/* ---- recorder ---- */

struct crafter_traj_recorder {
  crafter_traj_header header;
  int started, failed;
  int sealed; /* the stream is finished: the episode ended */
  crafter_traj_episode episode;
  uint8_t *stage;
  size_t staged;
  z_stream stream;
  int stream_ready;
  uint8_t *out;
  size_t out_used, out_capacity;
};

crafter_traj_recorder *crafter_traj_recorder_new(const crafter_traj_header *header) {
  crafter_traj_recorder *recorder = calloc(1, sizeof(*recorder));
  if (!recorder) return NULL;
  recorder->header = *header;
  recorder->stage = malloc(STAGE_BYTES);
  if (!recorder->stage) {
    free(recorder);
    return NULL;
  }
  return recorder;
}

void crafter_traj_recorder_free(crafter_traj_recorder *recorder) {
  if (!recorder) return;
  if (recorder->stream_ready) deflateEnd(&recorder->stream);
  free(recorder->stage);
  free(recorder->out);
  free(recorder);
}

/* Compresses the stage; with finish, ends the stream. */
static int compress_stage(crafter_traj_recorder *recorder, int finish) {
  z_stream *stream = &recorder->stream;
  if (!recorder->stream_ready) {
    memset(stream, 0, sizeof(*stream));
    if (deflateInit(stream, Z_DEFAULT_COMPRESSION) != Z_OK) return -1;
    recorder->stream_ready = 1;
  }
  stream->next_in = recorder->stage;
  stream->avail_in = (uInt)recorder->staged;
  for (;;) {
    if (recorder->out_capacity - recorder->out_used < 16384) {
      size_t capacity = recorder->out_capacity ? recorder->out_capacity * 2 : 65536;
      uint8_t *grown = realloc(recorder->out, capacity);
      if (!grown) return -1;
      recorder->out = grown;
      recorder->out_capacity = capacity;
    }
    size_t room = recorder->out_capacity - recorder->out_used;
    if (room > (1u << 30)) room = 1u << 30;
    stream->next_out = recorder->out + recorder->out_used;
    stream->avail_out = (uInt)room;
    int status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH);
    recorder->out_used += room - stream->avail_out;
    if (status == Z_STREAM_END) break;
    if (status != Z_OK && status != Z_BUF_ERROR) return -1;
    if (!finish && stream->avail_in == 0) break;
  }
  recorder->staged = 0;
  return 0;
}

static int feed(crafter_traj_recorder *recorder, const uint8_t *data, size_t size) {
  while (size > 0) {
    size_t piece = STAGE_BYTES - recorder->staged;
    if (piece > size) piece = size;
    memcpy(recorder->stage + recorder->staged, data, piece);
    recorder->staged += piece;
    data += piece;
    size -= piece;
    if (recorder->staged == STAGE_BYTES && compress_stage(recorder, 0) < 0) return -1;
  }
  return 0;
}

static int feed_obs(crafter_traj_recorder *recorder, const void *obs) {
  uint32_t bytes = recorder->header.obs_bytes;
  if (bytes == 0) return 0;
  if (float_kind(recorder->header.obs_kind) && !host_is_little_endian()) {
    /* Stored little-endian, a piece at a time. */
    uint8_t swapped[4096];
    const uint8_t *from = obs;
    for (uint32_t done = 0; done < bytes;) {
      uint32_t piece = bytes - done < sizeof(swapped) ? bytes - done : (uint32_t)sizeof(swapped);
      memcpy(swapped, from + done, piece);
      to_little_endian_floats(swapped, piece);
      if (feed(recorder, swapped, piece) < 0) return -1;
      done += piece;
    }
    return 0;
  }
  return feed(recorder, obs, bytes);
}

int crafter_traj_recorder_start(crafter_traj_recorder *recorder, const crafter_env *env,
                                int player, const void *obs) {
  if (recorder->stream_ready) deflateReset(&recorder->stream);
  recorder->staged = 0;
  recorder->out_used = 0;
  recorder->failed = 0;
  recorder->sealed = 0;
  recorder->started = 1;
  crafter_traj_episode *episode = &recorder->episode;
  memset(episode, 0, sizeof(*episode));
  episode->seed = env->params.seed;
  episode->episode = env->episode;
  episode->world_seed = env->world_seed;
  episode->task = -1;
  episode->player = recorder->header.players > 1 ? player : -1;
  if (feed_obs(recorder, obs) < 0) {
    recorder->failed = 1;
    return -1;
  }
  return 0;
}

void crafter_traj_recorder_set_place(crafter_traj_recorder *recorder, uint32_t place) {
  recorder->episode.play = place;
}

void crafter_traj_recorder_set_task(crafter_traj_recorder *recorder, int task, int text) {
  recorder->episode.task = task;
  recorder->episode.text = text;
}

int crafter_traj_recorder_step(crafter_traj_recorder *recorder, const crafter_env *env,
                               int player, int action, const crafter_step_result *result,
                               const void *obs) {
  return crafter_traj_recorder_step_goal(recorder, env, player, action, result, obs, 0);
}

int crafter_traj_recorder_step_goal(crafter_traj_recorder *recorder, const crafter_env *env,
                                    int p, int action, const crafter_step_result *result,
                                    const void *obs, int goal) {
  if (!recorder->started || recorder->failed || recorder->sealed) return -1;
  crafter_traj_episode *episode = &recorder->episode;
  double reward = result->info_reward;
  int died = result->discount == 0.0;
  uint8_t record[CRAFTER_TRAJ_STEP_BYTES] = {0};
  record[0] = (uint8_t)action;
  record[1] = (uint8_t)((result->done ? 1 : 0) | (died ? 2 : 0) | (goal ? 4 : 0));
  crafter_put_u32(record + 4, result->unlocked);
  crafter_put_f64(record + 8, reward);
  if (feed(recorder, record, sizeof(record)) < 0 || feed_obs(recorder, obs) < 0) {
    recorder->failed = 1;
    return -1;
  }
  episode->steps++;
  episode->unlocked |= result->unlocked;
  episode->reward += reward;
  episode->end = goal           ? CRAFTER_TRAJ_GOAL
                 : !result->done ? CRAFTER_TRAJ_CUT
                 : died          ? CRAFTER_TRAJ_DIED
                                 : CRAFTER_TRAJ_TIME_LIMIT;
  /* The player whose episode this is. */
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  memcpy(episode->achievements, player->achievements, sizeof(episode->achievements));
  memcpy(episode->inventory, player->inventory, sizeof(episode->inventory));
  return 0;
}

int crafter_traj_recorder_seal(crafter_traj_recorder *recorder) {
  if (!recorder->started || recorder->sealed) return 0;
  if (recorder->failed || compress_stage(recorder, 1) < 0) {
    recorder->failed = 1;
    return -1;
  }
  recorder->sealed = 1;
  return 0;
}

long crafter_traj_recorder_steps(const crafter_traj_recorder *recorder) {
  return recorder->started ? (long)recorder->episode.steps : -1;
}

/* ---- writer ---- */

struct crafter_traj_writer {
  FILE *file;
  crafter_outfile whole;  /* when written whole: file is whole.file */
  char *path;
  uint64_t offset;
  uint64_t *offsets;
  size_t count, capacity;
  int levels;             /* episodes are numbered as they are played (episode->play) */
  uint32_t plays;         /* world episodes added so far: a world's chunks share its number */
  int keep_unless_filled; /* the path held a file: it is replaced only by a recording
                             that finished an episode */
  size_t finished;        /* episodes added that ended (not cut), or copied */
  int players;            /* chunks a world episode */
  int holding;            /* a world's chunks are being written: signals wait */
};

/* The chunks of a world (one a player) are written under one hold of the
 * signals (outfile.h), so a signal ends the process between worlds, never
 * within a chunk or between the chunks of a world. */
static void start_holding(crafter_traj_writer *writer) {
  if (writer->holding) return;
  writer->holding = 1;
  crafter_outfile_hold_signals();
}

static void stop_holding(crafter_traj_writer *writer) {
  if (!writer->holding) return;
  writer->holding = 0;
  crafter_outfile_release_signals(); /* may end the process, the file being whole */
}

/* After a chunk: once a world is whole, a recording onto a file that was
 * there takes the path as soon as it holds an episode that ended, and
 * grows there, so a recording stopped in any way later leaves its
 * episodes at the path and no temporary. */
static int chunk_written(crafter_traj_writer *writer, char *error, size_t error_size) {
  if (writer->count % (size_t)writer->players != 0) return 0;
  int status = 0;
  if (writer->keep_unless_filled && writer->finished > 0)
    status = crafter_outfile_publish(&writer->whole, error, error_size);
  stop_holding(writer);
  return status;
}

static int write_bytes(crafter_traj_writer *writer, const void *data, size_t size, char *error,
                       size_t error_size) {
  if (size && fwrite(data, 1, size, writer->file) != size)
    return crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  writer->offset += size;
  return 0;
}

/* A text table (the task file, "TASK"; the configuration, "CONF"): a
 * 32-byte header (the tag, its size, the compressed and the raw size, the
 * CRC-32 of the compressed bytes and of the header's first 28), then the
 * file's bytes compressed with zlib. */
static int encode_text_chunk(const char *tag, const char *text, size_t text_bytes, uint8_t **out,
                             size_t *bytes) {
  uLongf packed = compressBound((uLong)text_bytes);
  uint8_t *chunk = malloc(CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES + (size_t)packed);
  if (!chunk) return -1;
  uint8_t *payload = chunk + CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES;
  if (compress2(payload, &packed, (const Bytef *)text, (uLong)text_bytes, Z_BEST_COMPRESSION) !=
      Z_OK) {
    free(chunk);
    return -1;
  }
  memset(chunk, 0, CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES);
  memcpy(chunk, tag, 4);
  crafter_put_u32(chunk + 4, CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES);
  crafter_put_u64(chunk + 8, (uint64_t)packed);
  crafter_put_u64(chunk + 16, (uint64_t)text_bytes);
  crafter_put_u32(chunk + 24, crc_of(payload, (size_t)packed));
  crafter_put_u32(chunk + 28, crc_of(chunk, 28));
  *out = chunk;
  *bytes = CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES + (size_t)packed;
  return 0;
}

static crafter_traj_writer *writer_create(const char *path, const crafter_traj_header *header,
                                          int whole, char *error, size_t error_size) {
  crafter_traj_writer *writer = calloc(1, sizeof(*writer));
  if (!writer) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  writer->path = malloc(strlen(path) + 1);
  if (!writer->path) {
    free(writer);
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  strcpy(writer->path, path);
  writer->players = header->players > 1 ? header->players : 1;
  /* A recording never empties a file that is there: it is written aside
   * and takes the path once it holds an episode. */
  struct stat info;
  if (!whole && stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    whole = 1;
    writer->keep_unless_filled = 1;
  }
  if (whole) {
    if (crafter_outfile_open(&writer->whole, path, error, error_size) == 0)
      writer->file = writer->whole.file;
  } else {
    writer->file = fopen(path, "wb");
    if (!writer->file) crafter_fail(error, error_size, "%s: %s", path, strerror(errno));
  }
  if (!writer->file) {
    free(writer->path);
    free(writer);
    return NULL;
  }
  uint8_t *table = NULL, *rules = NULL;
  size_t table_bytes = 0, rules_bytes = 0;
  char *both = NULL;
  size_t both_bytes = 0;
  if (header->config_text || header->world_text) {
    /* The rules' text: the sizes of the configuration's and the world's,
     * then each. */
    both_bytes = 16 + header->config_bytes + header->world_bytes;
    both = malloc(both_bytes);
    if (both) {
      crafter_put_u64((uint8_t *)both, header->config_bytes);
      crafter_put_u64((uint8_t *)both + 8, header->world_bytes);
      if (header->config_bytes) memcpy(both + 16, header->config_text, header->config_bytes);
      if (header->world_bytes)
        memcpy(both + 16 + header->config_bytes, header->world_text, header->world_bytes);
    }
  }
  if ((header->tasks && encode_text_chunk(TASK_TAG, header->tasks->source,
                                          header->tasks->source_bytes, &table, &table_bytes) < 0) ||
      (both_bytes && (!both || encode_text_chunk(RULES_TAG, both, both_bytes, &rules,
                                                 &rules_bytes) < 0))) {
    free(both);
    free(table);
    crafter_fail(error, error_size, "out of memory");
    crafter_traj_writer_abort(writer);
    return NULL;
  }
  writer->levels = header->level_count > 0;
  uint8_t bytes[CRAFTER_TRAJ_HEADER_BYTES];
  encode_header(header, (uint32_t)table_bytes, (uint32_t)rules_bytes, bytes);
  start_holding(writer); /* a file made at the path has its header whole */
  int failed = write_bytes(writer, bytes, sizeof(bytes), error, error_size) < 0 ||
               write_bytes(writer, table, table_bytes, error, error_size) < 0 ||
               write_bytes(writer, rules, rules_bytes, error, error_size) < 0;
  free(both);
  free(table);
  free(rules);
  if (failed || fflush(writer->file) != 0) {
    crafter_fail(error, error_size, "writing %s: %s", path, strerror(errno));
    crafter_traj_writer_abort(writer);
    return NULL;
  }
  stop_holding(writer);
  return writer;
}

crafter_traj_writer *crafter_traj_writer_create(const char *path,
                                                const crafter_traj_header *header, char *error,
                                                size_t error_size) {
  return writer_create(path, header, 0, error, error_size);
}

crafter_traj_writer *crafter_traj_writer_create_whole(const char *path,
                                                      const crafter_traj_header *header,
                                                      char *error, size_t error_size) {
  return writer_create(path, header, 1, error, error_size);
}

static void writer_free(crafter_traj_writer *writer) {
  free(writer->offsets);
  free(writer->path);
  free(writer);
}

void crafter_traj_writer_abort(crafter_traj_writer *writer) {
  if (!writer) return;
  if (writer->whole.file)
    crafter_outfile_abort(&writer->whole);
  else
    fclose(writer->file);
  stop_holding(writer);
  writer_free(writer);
}

static int remember_offset(crafter_traj_writer *writer, uint64_t offset, char *error,
                           size_t error_size) {
  if (writer->count == writer->capacity) {
    size_t capacity = writer->capacity ? writer->capacity * 2 : 256;
    uint64_t *grown = realloc(writer->offsets, capacity * sizeof(*grown));
    if (!grown) return crafter_fail(error, error_size, "out of memory");
    writer->offsets = grown;
    writer->capacity = capacity;
  }
  writer->offsets[writer->count++] = offset;
  return 0;
}

int crafter_traj_writer_add(crafter_traj_writer *writer, crafter_traj_recorder *recorder,
                            char *error, size_t error_size) {
  if (!recorder->started) return crafter_fail(error, error_size, "no episode was started");
  int sealed = crafter_traj_recorder_seal(recorder);
  recorder->started = 0;
  if (sealed < 0)
    return crafter_fail(error, error_size, "out of memory while compressing an episode");
  crafter_traj_episode *episode = &recorder->episode;
  episode->raw_bytes = raw_bytes_for(episode->steps, recorder->header.obs_bytes);
  episode->bytes = CRAFTER_TRAJ_CHUNK_HEADER_BYTES + recorder->out_used;
  episode->payload_crc = crc_of(recorder->out, recorder->out_used);
  /* Every player's chunk of a world episode carries the world's place:
   * the one its recorder was given, else the order of arrival. */
  if (writer->levels && episode->player <= 0) writer->plays++;
  if (!writer->levels) episode->play = 0;
  else if (episode->play == 0) episode->play = writer->plays;
  uint8_t header[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  encode_chunk_header(episode, header);
  uint64_t offset = writer->offset;
  start_holding(writer);
  int status = 0;
  if (remember_offset(writer, offset, error, error_size) < 0 ||
      write_bytes(writer, header, sizeof(header), error, error_size) < 0 ||
      write_bytes(writer, recorder->out, recorder->out_used, error, error_size) < 0)
    status = -1;
  else if (fflush(writer->file) != 0)
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  if (status == 0 && episode->end != CRAFTER_TRAJ_CUT) writer->finished++;
  if (status == 0) status = chunk_written(writer, error, error_size);
  if (status < 0) stop_holding(writer);
  return status;
}

int crafter_traj_writer_add_chunk(crafter_traj_writer *writer, const uint8_t *chunk,
                                  size_t bytes, char *error, size_t error_size) {
  start_holding(writer);
  int status = 0;
  if (remember_offset(writer, writer->offset, error, error_size) < 0 ||
      write_bytes(writer, chunk, bytes, error, error_size) < 0)
    status = -1;
  else if (fflush(writer->file) != 0)
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  /* an episode stored before: content, not a recording under way */
  if (status == 0) writer->finished++;
  if (status == 0) status = chunk_written(writer, error, error_size);
  if (status < 0) stop_holding(writer);
  return status;
}

int crafter_traj_writer_close(crafter_traj_writer *writer, char *error, size_t error_size) {
  int status = 0;
  start_holding(writer); /* a signal waits for the index and the trailer */
  size_t entry_bytes = writer->count * 8;
  uint8_t *entries = malloc(entry_bytes ? entry_bytes : 1);
  if (!entries) {
    status = crafter_fail(error, error_size, "out of memory");
  } else {
    for (size_t i = 0; i < writer->count; i++) crafter_put_u64(entries + 8 * i, writer->offsets[i]);
    uint8_t index[INDEX_HEADER_BYTES] = {0};
    memcpy(index, INDEX_TAG, 4);
    crafter_put_u32(index + 4, INDEX_HEADER_BYTES);
    crafter_put_u64(index + 8, writer->count);
    crafter_put_u64(index + 16, entry_bytes);
    crafter_put_u32(index + 24, crc_of(entries, entry_bytes));
    crafter_put_u32(index + 28, crc_of(index, 28));
    uint64_t index_offset = writer->offset;
    uint8_t trailer[CRAFTER_TRAJ_TRAILER_BYTES] = {0};
    memcpy(trailer, TRAILER_MAGIC, 8);
    crafter_put_u64(trailer + 8, index_offset);
    crafter_put_u64(trailer + 16, writer->count);
    crafter_put_u32(trailer + 28, crc_of(trailer, 28));
    if (write_bytes(writer, index, sizeof(index), error, error_size) < 0 ||
        write_bytes(writer, entries, entry_bytes, error, error_size) < 0 ||
        write_bytes(writer, trailer, sizeof(trailer), error, error_size) < 0)
      status = -1;
    free(entries);
  }
  if (writer->whole.file) {
    if (status < 0 || (writer->keep_unless_filled && writer->finished == 0))
      crafter_outfile_abort(&writer->whole);
    else if (crafter_outfile_commit(&writer->whole, error, error_size) < 0)
      status = -1;
  } else if (fclose(writer->file) != 0 && status == 0) {
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  }
  stop_holding(writer);
  writer_free(writer);
  return status;
}

/* ---- reader ---- */

/* The reader checksums byte ranges of the file through a table of the
 * CRC-32 of every prefix that ends at a multiple of CRC_BLOCK bytes, built
 * once as the ranges reach further: a range's CRC then costs at most two
 * partial blocks and a combination, whatever its length, so looking for
 * chunks past damage stays linear in the file's size even when the bytes
 * are full of chunk headers that claim long payloads.  The table takes
 * 4 bytes per CRC_BLOCK bytes of the file while it is opened. */
#define CRC_BLOCK 512

struct crafter_traj_reader {
  int fd;
  const uint8_t *memory;
  uint64_t size;
  crafter_traj_header header;
  crafter_task_set tasks;  /* the task table, when the file has one */
  crafter_config config;   /* the configuration, when the file has one */
  crafter_world_map world; /* the world, when the file has one */
  int have_world;
  char *rules_text;        /* the text of both */
  uint64_t start;          /* where the first episode chunk may be: after the header and
                              the task table */
  crafter_traj_status status;
  crafter_traj_episode *episodes;
  size_t count, capacity;
  uint32_t *prefix_crc;   /* [i]: CRC-32 of bytes [0, i * CRC_BLOCK); while opening */
  size_t prefix_count;
  /* Why opening could not check the file (out of memory, a read error):
   * such a failure is the reader's, not damage of the file. */
  char failure[160];
};

/* Reads exactly size bytes at offset; -1 past the end or on an error. */
static int read_at(const crafter_traj_reader *reader, uint64_t offset, void *buffer, size_t size) {
  if (offset > reader->size || size > reader->size - offset) return -1;
  if (reader->memory) {
    memcpy(buffer, reader->memory + offset, size);
    return 0;
  }
  uint8_t *at = buffer;
  while (size > 0) {
    ssize_t got = pread(reader->fd, at, size, (off_t)offset);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) errno = 0; /* the end came early: no error to name */
    if (got <= 0) return -1;
    at += got;
    size -= (size_t)got;
    offset += (uint64_t)got;
  }
  return 0;
}

/* Continues crc over size bytes at offset, read in pieces. */
static int crc_continue(crafter_traj_reader *reader, uint32_t crc, uint64_t offset, uint64_t size,
                        uint32_t *result) {
  if (offset > reader->size || size > reader->size - offset) return -1;
  reader->status.checked_bytes += size;
  if (reader->memory) {
    *result = crc_update(crc, reader->memory + offset, (size_t)size);
    return 0;
  }
  uint8_t piece[CRC_BLOCK * 16];
  while (size > 0) {
    size_t piece_size = size < sizeof(piece) ? (size_t)size : sizeof(piece);
    if (read_at(reader, offset, piece, piece_size) < 0) {
      /* Within the size found on opening: the file shrank, or the read failed. */
      snprintf(reader->failure, sizeof(reader->failure), "cannot read at byte %llu: %s",
               (unsigned long long)offset, errno ? strerror(errno) : "the file got shorter");
      return -1;
    }
    crc = crc_update(crc, piece, piece_size);
    offset += piece_size;
    size -= piece_size;
  }
  *result = crc;
  return 0;
}

/* The CRC-32 of bytes [0, offset). */
static int prefix_crc_at(crafter_traj_reader *reader, uint64_t offset, uint32_t *crc) {
  if (offset > reader->size) return -1;
  uint64_t block = offset / CRC_BLOCK;
  if (block >= reader->prefix_count) {
    if (!reader->prefix_crc) {
      reader->prefix_crc = malloc(((size_t)(reader->size / CRC_BLOCK) + 1) * sizeof(uint32_t));
      if (!reader->prefix_crc) {
        snprintf(reader->failure, sizeof(reader->failure), "out of memory");
        return -1;
      }
      reader->prefix_crc[0] = (uint32_t)crc32(0L, Z_NULL, 0);
      reader->prefix_count = 1;
    }
    while (reader->prefix_count <= block) {
      size_t i = reader->prefix_count;
      if (crc_continue(reader, reader->prefix_crc[i - 1], (uint64_t)(i - 1) * CRC_BLOCK,
                       CRC_BLOCK, &reader->prefix_crc[i]) < 0)
        return -1;
      reader->prefix_count++;
    }
  }
  return crc_continue(reader, reader->prefix_crc[block], block * CRC_BLOCK,
                      offset - block * CRC_BLOCK, crc);
}

/* The CRC-32 of size bytes at offset: from the prefixes before and after
 * it, since CRC(A B) = CRC(A) shifted by |B| bytes, XOR CRC(B). */
static int crc_at(crafter_traj_reader *reader, uint64_t offset, uint64_t size, uint32_t *crc) {
  uint32_t before, after;
  if (offset > reader->size || size > reader->size - offset) return -1;
  if (size == 0) {
    *crc = (uint32_t)crc32(0L, Z_NULL, 0);
    return 0;
  }
  if (prefix_crc_at(reader, offset, &before) < 0 || prefix_crc_at(reader, offset + size, &after) < 0)
    return -1;
  *crc = after ^ (uint32_t)crc32_combine(before, 0, (z_off_t)size);
  return 0;
}

static int add_episode(crafter_traj_reader *reader, const crafter_traj_episode *episode) {
  if (reader->count == reader->capacity) {
    size_t capacity = reader->capacity ? reader->capacity * 2 : 64;
    crafter_traj_episode *grown = realloc(reader->episodes, capacity * sizeof(*grown));
    if (!grown) return -1;
    reader->episodes = grown;
    reader->capacity = capacity;
  }
  reader->episodes[reader->count++] = *episode;
  return 0;
}

/* A whole, good episode chunk at offset, ending by `limit`: header and
 * payload CRC. */
static int chunk_at(crafter_traj_reader *reader, uint64_t offset, uint64_t limit,
                    crafter_traj_episode *episode, char *problem, size_t problem_size) {
  uint8_t bytes[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  if (limit - offset < CRAFTER_TRAJ_CHUNK_HEADER_BYTES) {
    if (limit - offset >= 4 && read_at(reader, offset, bytes, 4) == 0 &&
        memcmp(bytes, CHUNK_TAG, 4) == 0)
      return crafter_fail(problem, problem_size,
                   "an episode chunk's header is cut short: %llu of %d bytes",
                   (unsigned long long)(limit - offset), CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
    return crafter_fail(problem, problem_size, "%llu byte%s that %s no chunk",
                        (unsigned long long)(limit - offset), limit - offset == 1 ? "" : "s",
                        limit - offset == 1 ? "is" : "are");
  }
  if (read_at(reader, offset, bytes, sizeof(bytes)) < 0)
    return crafter_fail(problem, problem_size, "cannot read: %s", strerror(errno));
  if (memcmp(bytes, CHUNK_TAG, 4) == 0) reader->status.checked_bytes += 252;
  if (decode_chunk_header(bytes, offset, limit, &reader->header, episode, problem,
                          problem_size) < 0)
    return -1;
  const crafter_traj_header *header = &reader->header;
  if (header->level_count == 0 && episode->play)
    return crafter_fail(problem, problem_size, "reserved bytes of the chunk header are set");
  if (header->level_count > 0 &&
      (episode->play == 0 || episode->seed != header->params.seed ||
       episode->episode < header->level_first ||
       episode->episode - header->level_first >= header->level_count))
    return crafter_fail(problem, problem_size,
                        "the episode (seed %lld, episode %lld) is no level of the file's set",
                        (long long)episode->seed, (long long)episode->episode);
  uint32_t crc;
  if (crc_at(reader, offset + CRAFTER_TRAJ_CHUNK_HEADER_BYTES,
             episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES, &crc) < 0)
    return crafter_fail(problem, problem_size, "cannot read the episode chunk");
  if (crc != episode->payload_crc)
    return crafter_fail(problem, problem_size, "the episode chunk's checksum does not match (its steps "
                                        "are damaged)");
  return 0;
}

/* An index chunk at offset; its total size in *bytes, offsets if wanted. */
static int index_at(crafter_traj_reader *reader, uint64_t offset, uint64_t *bytes,
                    uint64_t **offsets, uint64_t *count) {
  uint8_t head[INDEX_HEADER_BYTES];
  if (read_at(reader, offset, head, sizeof(head)) < 0) return -1;
  if (memcmp(head, INDEX_TAG, 4) != 0 || crafter_get_u32(head + 28) != crc_of(head, 28) ||
      crafter_get_u32(head + 4) != INDEX_HEADER_BYTES)
    return -1;
  uint64_t entries = crafter_get_u64(head + 8), entry_bytes = crafter_get_u64(head + 16);
  uint32_t crc;
  if (entries > reader->size / 8 || entry_bytes != entries * 8 ||
      entry_bytes > reader->size - offset - INDEX_HEADER_BYTES ||
      crc_at(reader, offset + INDEX_HEADER_BYTES, entry_bytes, &crc) < 0 ||
      crc != crafter_get_u32(head + 24))
    return -1;
  *bytes = INDEX_HEADER_BYTES + entry_bytes;
  if (offsets) {
    uint8_t *table = malloc(entry_bytes ? (size_t)entry_bytes : 1);
    *offsets = malloc(entries ? (size_t)entries * sizeof(uint64_t) : 1);
    if (!table || !*offsets ||
        read_at(reader, offset + INDEX_HEADER_BYTES, table, (size_t)entry_bytes) < 0) {
      free(table);
      free(*offsets);
      *offsets = NULL;
      return -1;
    }
    for (uint64_t i = 0; i < entries; i++) (*offsets)[i] = crafter_get_u64(table + 8 * i);
    free(table);
  }
  if (count) *count = entries;
  return 0;
}

static int trailer_at(const crafter_traj_reader *reader, uint64_t offset, uint64_t *index_offset,
                      uint64_t *count) {
  uint8_t bytes[CRAFTER_TRAJ_TRAILER_BYTES];
  if (reader->size - offset != CRAFTER_TRAJ_TRAILER_BYTES ||
      read_at(reader, offset, bytes, sizeof(bytes)) < 0)
    return -1;
  if (memcmp(bytes, TRAILER_MAGIC, 8) != 0 || crafter_get_u32(bytes + 28) != crc_of(bytes, 28)) return -1;
  *index_offset = crafter_get_u64(bytes + 8);
  *count = crafter_get_u64(bytes + 16);
  return 0;
}

/* Lists the episodes from the index, every chunk checked whole; 0, or -1
 * with a note when the chunks must be scanned for. */
static int read_index(crafter_traj_reader *reader) {
  crafter_traj_status *status = &reader->status;
  uint64_t trailer = reader->size - CRAFTER_TRAJ_TRAILER_BYTES, index_offset, count;
  if (reader->size < reader->start + CRAFTER_TRAJ_TRAILER_BYTES ||
      trailer_at(reader, trailer, &index_offset, &count) < 0) {
    snprintf(status->index_note, sizeof(status->index_note),
             "no trailer at the end: the recording did not finish (killed, or still running) "
             "or the end is damaged");
    return -1;
  }
  uint64_t index_bytes, *offsets = NULL, listed;
  if (index_offset < reader->start || index_offset >= trailer ||
      index_at(reader, index_offset, &index_bytes, &offsets, &listed) < 0 || listed != count ||
      index_offset + index_bytes != trailer) {
    free(offsets);
    snprintf(status->index_note, sizeof(status->index_note), "the index is damaged");
    return -1;
  }
  uint64_t previous_end = reader->start;
  for (uint64_t i = 0; i < count; i++) {
    crafter_traj_episode episode;
    char problem[200];
    /* Chunks follow each other from the header to the index: bytes that
     * no entry covers are damage the scan will locate. */
    if (offsets[i] != previous_end ||
        chunk_at(reader, offsets[i], index_offset, &episode, problem, sizeof(problem)) < 0 ||
        add_episode(reader, &episode) < 0) {
      free(offsets);
      reader->count = 0;
      snprintf(status->index_note, sizeof(status->index_note),
               "the index lists a chunk that is not there or is damaged (entry %llu)",
               (unsigned long long)i + 1);
      return -1;
    }
    previous_end = offsets[i] + episode.bytes;
  }
  free(offsets);
  if (previous_end != index_offset) {
    reader->count = 0;
    snprintf(status->index_note, sizeof(status->index_note),
             "the index does not list every byte before it");
    return -1;
  }
  status->indexed = 1;
  return 0;
}

static void note_damage(crafter_traj_reader *reader, uint64_t start, uint64_t end,
                        const char *problem) {
  crafter_traj_status *status = &reader->status;
  if (!status->damaged) {
    status->damaged = 1;
    status->damage_offset = start;
    snprintf(status->damage, sizeof(status->damage), "%s", problem);
  }
  status->damaged_regions++;
  status->damaged_bytes += end - start;
}

/* The next offset after `from` where a good episode chunk, index or
 * trailer starts, or the size of the file. */
static uint64_t resynchronize(crafter_traj_reader *reader, uint64_t from) {
  enum { WINDOW = 1 << 16 };
  uint8_t window[WINDOW];
  for (uint64_t base = from; base + 4 <= reader->size; base += WINDOW - 3) {
    size_t length = reader->size - base < WINDOW ? (size_t)(reader->size - base) : WINDOW;
    if (read_at(reader, base, window, length) < 0) break;
    for (size_t i = 0; i + 4 <= length; i++) {
      crafter_traj_episode episode;
      char problem[200];
      uint64_t bytes, index_offset, count;
      if (window[i] == 'E' && memcmp(window + i, CHUNK_TAG, 4) == 0 &&
          chunk_at(reader, base + i, reader->size, &episode, problem, sizeof(problem)) == 0)
        return base + i;
      if (window[i] == 'I' && memcmp(window + i, INDEX_TAG, 4) == 0 &&
          index_at(reader, base + i, &bytes, NULL, NULL) == 0)
        return base + i;
      if (window[i] == 'C' && trailer_at(reader, base + i, &index_offset, &count) == 0)
        return base + i;
    }
    if (length < WINDOW) break;
  }
  return reader->size;
}

/* Walks the file from the header on, chunk by chunk. */
static int scan(crafter_traj_reader *reader) {
  uint64_t position = reader->start;
  while (position < reader->size) {
    crafter_traj_episode episode;
    char problem[200];
    uint64_t bytes, index_offset, count;
    if (chunk_at(reader, position, reader->size, &episode, problem, sizeof(problem)) == 0) {
      if (add_episode(reader, &episode) < 0) return -1;
      position += episode.bytes;
      continue;
    }
    if (index_at(reader, position, &bytes, NULL, NULL) == 0) {
      position += bytes;
      continue;
    }
    if (trailer_at(reader, position, &index_offset, &count) == 0) break;
    uint64_t next = resynchronize(reader, position + 1);
    note_damage(reader, position, next, problem);
    position = next;
  }
  return 0;
}

/* The chunk header of an episode as written, for comparing episodes. */
static int compare_chunks(const crafter_traj_episode *a, const crafter_traj_episode *b) {
  uint8_t x[CRAFTER_TRAJ_CHUNK_HEADER_BYTES], y[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  encode_chunk_header(a, x);
  encode_chunk_header(b, y);
  int order = memcmp(x, y, sizeof(x));
  if (order) return order;
  return (a->offset > b->offset) - (a->offset < b->offset);
}

static int compare_episode_pointers(const void *a, const void *b) {
  return compare_chunks(*(const crafter_traj_episode *const *)a,
                        *(const crafter_traj_episode *const *)b);
}

/* A chunk whose header equals an earlier one's (the same episode, the
 * same summary, the same checksum of its steps) is the same episode
 * again: only the first is kept. */
static int drop_duplicates(crafter_traj_reader *reader) {
  if (reader->count < 2) return 0;
  const crafter_traj_episode **order = malloc(reader->count * sizeof(*order));
  uint8_t *repeated = calloc(reader->count, 1);
  if (!order || !repeated) {
    free(order);
    free(repeated);
    return -1;
  }
  for (size_t i = 0; i < reader->count; i++) order[i] = &reader->episodes[i];
  qsort(order, reader->count, sizeof(*order), compare_episode_pointers);
  for (size_t i = 1; i < reader->count; i++) {
    uint8_t x[CRAFTER_TRAJ_CHUNK_HEADER_BYTES], y[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
    encode_chunk_header(order[i - 1], x);
    encode_chunk_header(order[i], y);
    if (memcmp(x, y, sizeof(x)) == 0) repeated[order[i] - reader->episodes] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < reader->count; i++) {
    if (repeated[i]) {
      if (reader->status.duplicates++ == 0) reader->status.duplicate_offset = reader->episodes[i].offset;
      continue;
    }
    reader->episodes[kept++] = reader->episodes[i];
  }
  reader->count = kept;
  free(order);
  free(repeated);
  return 0;
}

/* Whether chunk b may follow chunk a in one world episode: the next
 * player of the same seed, episode, world and place. */
static int next_of_world(const crafter_traj_episode *a, const crafter_traj_episode *b) {
  return b->player == a->player + 1 && b->seed == a->seed && b->episode == a->episode &&
         b->world_seed == a->world_seed && b->play == a->play;
}

/* Files of several players: a world episode is the chunks of players 0,
 * 1, ..., P-1 in a row.  Chunks in a row of the same world that do not
 * make a whole one (a chunk damaged, left out as a repeat, or never
 * written) are left out, and the world is counted as damage. */
static void drop_partial_worlds(crafter_traj_reader *reader) {
  int players = reader->header.players;
  if (players < 2) return;
  crafter_traj_status *status = &reader->status;
  size_t kept = 0;
  for (size_t i = 0; i < reader->count;) {
    size_t run = 1;
    while (i + run < reader->count &&
           next_of_world(&reader->episodes[i + run - 1], &reader->episodes[i + run]))
      run++;
    const crafter_traj_episode *first = &reader->episodes[i];
    if (first->player == 0 && run == (size_t)players) {
      memmove(&reader->episodes[kept], first, run * sizeof(*first));
      kept += run;
    } else {
      if (status->partial_worlds++ == 0) {
        status->partial_offset = first->offset;
        /* The first player missing: before the run, or after it. */
        int missing = first->player > 0 ? 0 : (int)run;
        snprintf(status->partial, sizeof(status->partial),
                 "player %d's chunk of the world episode of seed %lld, episode %lld is missing",
                 missing, (long long)first->seed, (long long)first->episode);
      }
      status->partial_chunks += (long)run;
    }
    i += run;
  }
  reader->count = kept;
}

/* Reads a text table of `bytes` at reader->start, whose header carries
 * `tag`: its text in *text (to free) and *length, or -1 with a reason
 * naming it `what`. */
static int read_text_table(crafter_traj_reader *reader, uint32_t bytes, const char *tag,
                           const char *what, uint64_t limit, char **text, size_t *length,
                           char *error, size_t error_size) {
  *text = NULL;
  uint8_t head[CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES];
  uint64_t at = reader->start;
  if (read_at(reader, at, head, sizeof(head)) < 0)
    return crafter_fail(error, error_size, "%s is cut short", what);
  uint64_t packed = crafter_get_u64(head + 8), raw = crafter_get_u64(head + 16);
  if (memcmp(head, tag, 4) != 0 || crafter_get_u32(head + 28) != crc_of(head, 28) ||
      crafter_get_u32(head + 4) != CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES)
    return crafter_fail(error, error_size, "%s's header is damaged", what);
  if (packed != bytes - CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES || raw == 0 || raw > limit)
    return crafter_fail(error, error_size, "%s's sizes (%llu, %llu) are impossible", what,
                        (unsigned long long)packed, (unsigned long long)raw);
  uint8_t *payload = malloc((size_t)packed);
  char *inflated = malloc((size_t)raw);
  int status = 0;
  uLongf got = (uLongf)raw;
  if (!payload || !inflated) {
    status = crafter_fail(error, error_size, "out of memory");
  } else if (read_at(reader, at + CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES, payload, (size_t)packed) <
             0) {
    status = crafter_fail(error, error_size, "%s is cut short", what);
  } else if (crc_of(payload, (size_t)packed) != crafter_get_u32(head + 24)) {
    status = crafter_fail(error, error_size, "%s's checksum does not match", what);
  } else if (uncompress((Bytef *)inflated, &got, payload, (uLong)packed) != Z_OK || got != raw) {
    status = crafter_fail(error, error_size, "%s does not inflate to %llu bytes", what,
                          (unsigned long long)raw);
  }
  free(payload);
  if (status < 0) {
    free(inflated);
    return -1;
  }
  *text = inflated;
  *length = (size_t)raw;
  reader->status.checked_bytes += bytes;
  reader->start += bytes;
  return 0;
}

/* Reads and parses the task table and the configuration after the
 * header; every episode of the file needs them, so a damaged table fails
 * the opening. */
static int read_tables(crafter_traj_reader *reader, uint32_t task_bytes, uint32_t config_bytes,
                       char *error, size_t error_size) {
  reader->start = CRAFTER_TRAJ_HEADER_BYTES;
  reader->header.tasks = NULL;
  reader->header.config = NULL;
  crafter_traj_header_set_rules(&reader->header, NULL, 0, NULL, NULL, 0, NULL);
  char *text;
  size_t length;
  char problem[200];
  if (task_bytes) {
    if (read_text_table(reader, task_bytes, TASK_TAG, "the task table", CRAFTER_TASKS_MAX_BYTES,
                        &text, &length, error, error_size) < 0)
      return -1;
    int status = crafter_tasks_load_string(text, length, "the task table", &reader->tasks,
                                           problem, sizeof(problem));
    free(text);
    if (status < 0) return crafter_fail(error, error_size, "%s", problem);
    reader->header.tasks = &reader->tasks;
  }
  if (config_bytes) {
    if (read_text_table(reader, config_bytes, RULES_TAG, "the rules",
                        16 + (uint64_t)CRAFTER_CONFIG_MAX_BYTES + CRAFTER_WORLDFILE_MAX_BYTES, &text,
                        &length, error, error_size) < 0)
      return -1;
    reader->rules_text = text;
    uint64_t config_length = length >= 16 ? crafter_get_u64((uint8_t *)text) : 0;
    uint64_t world_length = length >= 16 ? crafter_get_u64((uint8_t *)text + 8) : 0;
    if (length < 16 || config_length > length - 16 || world_length != length - 16 - config_length ||
        (config_length == 0 && world_length == 0))
      return crafter_fail(error, error_size, "the rules' sizes do not add up");
    const char *config_text = config_length ? text + 16 : NULL;
    const char *world_text = world_length ? text + 16 + config_length : NULL;
    crafter_config_default(&reader->config);
    if (config_text &&
        (crafter_config_load_string(config_text, (size_t)config_length, "the stored configuration",
                                    &reader->config, problem, sizeof(problem)) < 0 ||
         crafter_config_check(&reader->config, problem, sizeof(problem)) < 0))
      return crafter_fail(error, error_size, "%s", problem);
    if (world_text) {
      if (crafter_world_map_parse(&reader->world, world_text, (size_t)world_length,
                                  "the stored world", problem, sizeof(problem)) < 0)
        return crafter_fail(error, error_size, "%s", problem);
      reader->have_world = 1;
      if (reader->world.width != reader->header.params.area[0] ||
          reader->world.height != reader->header.params.area[1])
        return crafter_fail(error, error_size, "the stored world is %dx%d, the area %dx%d",
                            reader->world.width, reader->world.height,
                            reader->header.params.area[0], reader->header.params.area[1]);
      int players = 0; /* the first objects */
      while (players < reader->world.object_count &&
             reader->world.objects[players].kind == CRAFTER_PLAYER)
        players++;
      if (players > reader->header.players)
        return crafter_fail(error, error_size,
                            "the stored world has %d players '@', the file's games %d", players,
                            reader->header.players);
    }
    crafter_traj_header_set_rules(&reader->header, config_text, (size_t)config_length,
                                  &reader->config, world_text, (size_t)world_length,
                                  &reader->world);
  }
  return 0;
}

static crafter_traj_reader *open_reader(crafter_traj_reader *reader, const char *name,
                                        char *error, size_t error_size) {
  uint8_t bytes[CRAFTER_TRAJ_HEADER_BYTES];
  size_t have = reader->size < sizeof(bytes) ? (size_t)reader->size : sizeof(bytes);
  if (read_at(reader, 0, bytes, have) < 0) {
    crafter_fail(error, error_size, "%s: cannot read: %s", name, strerror(errno));
    crafter_traj_close(reader);
    return NULL;
  }
  char problem[256];
  uint32_t task_chunk_bytes = 0, config_chunk_bytes = 0;
  if (decode_header(bytes, have, &reader->header, &task_chunk_bytes, &config_chunk_bytes, problem,
                    sizeof(problem)) < 0 ||
      read_tables(reader, task_chunk_bytes, config_chunk_bytes, problem, sizeof(problem)) < 0) {
    crafter_fail(error, error_size, "%s: %s", name, problem);
    crafter_traj_close(reader);
    return NULL;
  }
  reader->status.file_bytes = reader->size;
  int failed = read_index(reader) < 0 && scan(reader) < 0;
  free(reader->prefix_crc);
  reader->prefix_crc = NULL;
  reader->prefix_count = 0;
  if (reader->failure[0]) {
    crafter_fail(error, error_size, "%s: %s", name, reader->failure);
    crafter_traj_close(reader);
    return NULL;
  }
  if (failed || drop_duplicates(reader) < 0) {
    crafter_fail(error, error_size, "%s: out of memory", name);
    crafter_traj_close(reader);
    return NULL;
  }
  drop_partial_worlds(reader);
  return reader;
}

crafter_traj_reader *crafter_traj_open(const char *path, char *error, size_t error_size) {
  crafter_traj_reader *reader = calloc(1, sizeof(*reader));
  if (!reader) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  reader->fd = open(path, O_RDONLY);
  struct stat info;
  if (reader->fd < 0 || fstat(reader->fd, &info) < 0) {
    crafter_fail(error, error_size, "%s: %s", path, strerror(errno));
    crafter_traj_close(reader);
    return NULL;
  }
  if (!S_ISREG(info.st_mode)) {
    crafter_fail(error, error_size, "%s: not a regular file (a trajectory is read at random)", path);
    crafter_traj_close(reader);
    return NULL;
  }
  reader->size = (uint64_t)info.st_size;
  return open_reader(reader, path, error, error_size);
}

crafter_traj_reader *crafter_traj_open_memory(const uint8_t *data, size_t size, char *error,
                                              size_t error_size) {
  crafter_traj_reader *reader = calloc(1, sizeof(*reader));
  if (!reader) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  reader->fd = -1;
  reader->memory = data;
  reader->size = size;
  crafter_traj_reader *opened = open_reader(reader, "trajectory", error, error_size);
  /* Messages name no file here: the caller knows which it read. */
  if (!opened && strncmp(error, "trajectory: ", 12) == 0)
    memmove(error, error + 12, strlen(error + 12) + 1);
  return opened;
}

void crafter_traj_close(crafter_traj_reader *reader) {
  if (!reader) return;
  if (reader->fd >= 0 && !reader->memory) close(reader->fd);
  free(reader->episodes);
  free(reader->prefix_crc);
  crafter_task_set_free(&reader->tasks);
  if (reader->have_world) crafter_world_map_free(&reader->world);
  free(reader->rules_text);
  free(reader);
}

const crafter_traj_header *crafter_traj_header_of(const crafter_traj_reader *reader) {
  return &reader->header;
}

const crafter_traj_status *crafter_traj_status_of(const crafter_traj_reader *reader) {
  return &reader->status;
}

size_t crafter_traj_episode_count(const crafter_traj_reader *reader) { return reader->count; }

const crafter_traj_episode *crafter_traj_episode_at(const crafter_traj_reader *reader,
                                                    size_t index) {
  return index < reader->count ? &reader->episodes[index] : NULL;
}

int crafter_traj_read_chunk(crafter_traj_reader *reader, size_t index, uint8_t **chunk,
                            size_t *bytes, char *error, size_t error_size) {
  *chunk = NULL;
  *bytes = 0;
  if (index >= reader->count) return crafter_fail(error, error_size, "no episode %zu", index);
  const crafter_traj_episode *episode = &reader->episodes[index];
  if (episode->bytes > SIZE_MAX) return crafter_fail(error, error_size, "the episode is too large");
  uint8_t *data = malloc((size_t)episode->bytes);
  if (!data) return crafter_fail(error, error_size, "out of memory");
  if (read_at(reader, episode->offset, data, (size_t)episode->bytes) < 0) {
    free(data);
    return crafter_fail(error, error_size, "cannot read the episode at byte %llu",
                 (unsigned long long)episode->offset);
  }
  uint8_t header[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  encode_chunk_header(episode, header);
  if (memcmp(header, data, sizeof(header)) != 0 ||
      crc_of(data + CRAFTER_TRAJ_CHUNK_HEADER_BYTES,
             (size_t)episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES) != episode->payload_crc) {
    free(data);
    return crafter_fail(error, error_size, "the episode chunk at byte %llu is damaged (checksum)",
                 (unsigned long long)episode->offset);
  }
  *chunk = data;
  *bytes = (size_t)episode->bytes;
  return 0;
}

void crafter_traj_data_free(crafter_traj_data *data) {
  free(data->steps);
  free(data->obs);
  memset(data, 0, sizeof(*data));
}

static int check_steps(const crafter_traj_episode *episode, const crafter_traj_data *data,
                       char *error, size_t error_size) {
  double reward = 0;
  uint32_t unlocked = 0;
  for (uint32_t t = 0; t < data->steps_count; t++) {
    const crafter_traj_step *step = &data->steps[t];
    int last = t + 1 == data->steps_count;
    if (step->done != (last && episode->end != CRAFTER_TRAJ_CUT))
      return crafter_fail(error, error_size, "step %u: done is %d", t + 1, step->done);
    /* A goal met by the step that killed the player ends the episode as met. */
    if (step->died ? !(last && (episode->end == CRAFTER_TRAJ_DIED ||
                                episode->end == CRAFTER_TRAJ_GOAL))
                   : last && episode->end == CRAFTER_TRAJ_DIED)
      return crafter_fail(error, error_size, "step %u: the discount disagrees with the episode's end",
                   t + 1);
    if (step->goal != (last && episode->end == CRAFTER_TRAJ_GOAL))
      return crafter_fail(error, error_size, "step %u: the goal flag disagrees with the episode's end",
                   t + 1);
    if (unlocked & step->unlocked)
      return crafter_fail(error, error_size, "step %u: an achievement is unlocked a second time", t + 1);
    unlocked |= step->unlocked;
    reward += step->reward;
  }
  if (unlocked != episode->unlocked)
    return crafter_fail(error, error_size, "the steps unlock other achievements than the episode lists");
  if (reward != episode->reward)
    return crafter_fail(error, error_size, "the rewards of the steps do not add up to the return");
  return 0;
}

/* Takes the inflated steps apart as they come, so that memory follows
 * what the stream really holds, never what a header claims: the arrays
 * grow (doubling) as records and observations arrive, up to the counts the
 * chunk header announces, and observations are kept only when wanted. */
typedef struct step_parser {
  crafter_traj_data *data;
  uint32_t obs_bytes;
  uint32_t steps;          /* announced */
  int keep_obs;
  uint64_t position;       /* raw bytes taken so far */
  uint8_t record[CRAFTER_TRAJ_STEP_BYTES];
  size_t steps_capacity, obs_capacity; /* in steps, in bytes */
  int out_of_memory;
} step_parser;

static int grow(void **array, size_t *capacity, size_t needed, size_t most, size_t item_bytes) {
  if (needed <= *capacity) return 0;
  size_t capacity_wanted = *capacity ? *capacity : 1;
  while (capacity_wanted < needed) capacity_wanted *= 2;
  if (capacity_wanted > most) capacity_wanted = most;
  void *grown = realloc(*array, capacity_wanted * item_bytes);
  if (!grown) return -1;
  *array = grown;
  *capacity = capacity_wanted;
  return 0;
}

static void decode_step(const uint8_t *at, crafter_traj_step *step) {
  step->action = at[0];
  step->done = at[1] & 1;
  step->died = (at[1] >> 1) & 1;
  step->goal = (at[1] >> 2) & 1;
  step->unlocked = crafter_get_u32(at + 4);
  step->reward = crafter_get_f64(at + 8);
}

static int step_malformed(const uint8_t *at) {
  return at[0] >= CRAFTER_ACTION_COUNT || (at[1] & ~7u) || at[2] || at[3] ||
         (crafter_get_u32(at + 4) & ~ALL_ACHIEVEMENTS) || !isfinite(crafter_get_f64(at + 8));
}

/* Takes size more bytes of the stream; -1 on a malformed step (its number
 * in *bad_step) or when memory runs out. */
static int parse_steps(step_parser *parser, const uint8_t *bytes, size_t size, uint32_t *bad_step) {
  uint64_t obs = parser->obs_bytes, per_step = CRAFTER_TRAJ_STEP_BYTES + obs;
  crafter_traj_data *data = parser->data;
  while (size > 0) {
    uint64_t observation, within, length;
    int is_record = 0;
    if (parser->position < obs) {
      observation = 0;
      within = parser->position;
      length = obs - within;
    } else {
      uint64_t relative = parser->position - obs, t = relative / per_step;
      within = relative % per_step;
      if (within < CRAFTER_TRAJ_STEP_BYTES) {
        is_record = 1;
        observation = t;
        length = CRAFTER_TRAJ_STEP_BYTES - within;
      } else {
        observation = t + 1;
        within -= CRAFTER_TRAJ_STEP_BYTES;
        length = obs - within;
      }
    }
    if (length > size) length = size;
    if (is_record) {
      memcpy(parser->record + within, bytes, (size_t)length);
      if (within + length == CRAFTER_TRAJ_STEP_BYTES) {
        size_t t = (size_t)observation;
        if (step_malformed(parser->record)) {
          *bad_step = (uint32_t)t + 1;
          return -1;
        }
        if (grow((void **)&data->steps, &parser->steps_capacity, t + 1, parser->steps,
                 sizeof(crafter_traj_step)) < 0) {
          parser->out_of_memory = 1;
          return -1;
        }
        decode_step(parser->record, &data->steps[t]);
        data->steps_count = (uint32_t)t + 1;
      }
    } else if (parser->keep_obs) {
      size_t end = (size_t)(observation * obs + within + length);
      if (grow((void **)&data->obs, &parser->obs_capacity, end,
               ((size_t)parser->steps + 1) * (size_t)obs, 1) < 0) {
        parser->out_of_memory = 1;
        return -1;
      }
      memcpy(data->obs + (size_t)observation * obs + within, bytes, (size_t)length);
    }
    parser->position += length;
    bytes += length;
    size -= (size_t)length;
  }
  return 0;
}

static int read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                      int keep_obs, char *error, size_t error_size) {
  memset(data, 0, sizeof(*data));
  uint8_t *chunk;
  size_t chunk_bytes;
  if (crafter_traj_read_chunk(reader, index, &chunk, &chunk_bytes, error, error_size) < 0)
    return -1;
  const crafter_traj_episode *episode = &reader->episodes[index];
  step_parser parser = {data, reader->header.obs_bytes, episode->steps,
                        keep_obs && reader->header.obs_bytes > 0, 0, {0}, 0, 0, 0};
  enum { WINDOW = 1 << 16 };
  uint8_t *window = malloc(WINDOW);
  if (!window) {
    free(chunk);
    return crafter_fail(error, error_size, "out of memory");
  }
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  int status = inflateInit(&stream);
  const uint8_t *in = chunk + CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  size_t in_left = chunk_bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  uint32_t bad_step = 0;
  int parse_failed = 0;
  while (status == Z_OK) {
    uInt in_piece = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
    stream.next_in = (Bytef *)(uintptr_t)in;
    stream.avail_in = in_piece;
    stream.next_out = window;
    stream.avail_out = WINDOW;
    status = inflate(&stream, Z_NO_FLUSH);
    in += in_piece - stream.avail_in;
    in_left -= in_piece - stream.avail_in;
    size_t produced = WINDOW - stream.avail_out;
    if (status == Z_BUF_ERROR && produced == 0) break;
    if (status != Z_OK && status != Z_STREAM_END) break;
    /* Past the announced length: the stream is longer than it should be. */
    if (produced > episode->raw_bytes - parser.position) {
      status = Z_DATA_ERROR;
      break;
    }
    if (parse_steps(&parser, window, produced, &bad_step) < 0) {
      parse_failed = 1;
      break;
    }
  }
  inflateEnd(&stream);
  free(window);
  free(chunk);
  if (parser.out_of_memory) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "out of memory for an episode of %u steps",
                        episode->steps);
  }
  if (parse_failed) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "step %u of the episode at byte %llu is malformed",
                        bad_step, (unsigned long long)episode->offset);
  }
  if (status != Z_STREAM_END || parser.position != episode->raw_bytes || in_left != 0) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "the steps of the episode at byte %llu do not decompress "
                                    "to the %llu bytes its header announces",
                 (unsigned long long)episode->offset, (unsigned long long)episode->raw_bytes);
  }
  if (episode->steps == 0) {
    data->steps = malloc(1);
    if (!data->steps) {
      crafter_traj_data_free(data);
      return crafter_fail(error, error_size, "out of memory");
    }
  }
  if (parser.keep_obs && float_kind(reader->header.obs_kind) && !host_is_little_endian())
    to_little_endian_floats(data->obs, ((size_t)episode->steps + 1) * parser.obs_bytes);
  char why[200];
  if (check_steps(episode, data, why, sizeof(why)) < 0) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "the episode at byte %llu: %s",
                        (unsigned long long)episode->offset, why);
  }
  return 0;
}

int crafter_traj_read_episode(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                              char *error, size_t error_size) {
  return read_steps(reader, index, data, 1, error, error_size);
}

int crafter_traj_read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                            char *error, size_t error_size) {
  return read_steps(reader, index, data, 0, error, error_size);
}
