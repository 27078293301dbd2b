#include "run/traj_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "game/games.h"
#include "run/levels.h"

/* ---- the file header ---- */

void crafter_traj_encode_header(const crafter_traj_header *header, uint32_t task_chunk_bytes,
                                uint32_t config_chunk_bytes,
                                uint8_t out[CRAFTER_TRAJ_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_TRAJ_HEADER_BYTES);
  memcpy(out, CRAFTER_TRAJ_MAGIC, 8);
  crafter_put_u32(out + 8, header->game != CRAFTER_GAME_CRAFTER ? CRAFTER_TRAJ_VERSION_GAME
                           : header->players > 1                ? CRAFTER_TRAJ_VERSION_PLAYERS
                           : config_chunk_bytes                 ? CRAFTER_TRAJ_VERSION_RULES
                           : task_chunk_bytes                   ? CRAFTER_TRAJ_VERSION_TASKS
                                                                : CRAFTER_TRAJ_VERSION);
  crafter_put_u32(out + 12, CRAFTER_TRAJ_HEADER_BYTES);
  crafter_put_u16(out + 16, (uint16_t)crafter_obs_kind(header->obs_kind)->traj_code);
  /* Version 4's players, version 5's game: the bytes at 18 say what the
   * version adds. */
  if (header->game != CRAFTER_GAME_CRAFTER)
    crafter_put_u16(out + 18, (uint16_t)header->game);
  else if (header->players > 1)
    crafter_put_u16(out + 18, (uint16_t)header->players);
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
  crafter_put_u32(out + 124, crafter_crc32(out, 124));
}

int crafter_traj_decode_header(const uint8_t *in, size_t size, crafter_traj_header *header,
                               uint32_t *task_chunk_bytes, uint32_t *config_chunk_bytes,
                               char *error, size_t error_size) {
  if (size < 8 || memcmp(in, CRAFTER_TRAJ_MAGIC, 8) != 0)
    return crafter_fail(error, error_size, "not a trajectory file (it does not start with %s)",
                 CRAFTER_TRAJ_MAGIC);
  if (size < 16)
    return crafter_fail(error, error_size, "the header is cut short: %zu of %d bytes", size,
                 CRAFTER_TRAJ_HEADER_BYTES);
  uint32_t version = crafter_get_u32(in + 8);
  if (version < CRAFTER_TRAJ_VERSION || version > CRAFTER_TRAJ_VERSION_GAME)
    return crafter_fail(error, error_size,
                 "format version %u, but this program reads versions %d to %d (a newer toolkit "
                 "may)",
                 version, CRAFTER_TRAJ_VERSION, CRAFTER_TRAJ_VERSION_GAME);
  if (crafter_get_u32(in + 12) != CRAFTER_TRAJ_HEADER_BYTES)
    return crafter_fail(error, error_size, "the header size is %u, not %d", crafter_get_u32(in + 12),
                 CRAFTER_TRAJ_HEADER_BYTES);
  if (size < CRAFTER_TRAJ_HEADER_BYTES)
    return crafter_fail(error, error_size, "the header is cut short: %zu of %d bytes", size,
                 CRAFTER_TRAJ_HEADER_BYTES);
  if (crafter_get_u32(in + 124) != crafter_crc32(in, 124))
    return crafter_fail(error, error_size, "the header's checksum does not match (bytes 0-127 are damaged)");
  memset(header, 0, sizeof(*header));
  header->version = version;
  int obs_code = (int)crafter_get_u16(in + 16);
  /* Version 4 counts its players at 18, version 5 names its game there;
   * before, those bytes are zero. */
  int at18 = (int)crafter_get_u16(in + 18);
  if (version == CRAFTER_TRAJ_VERSION_GAME) {
    header->game = at18;
    header->players = 1;
    if (header->game == CRAFTER_GAME_CRAFTER || !crafter_game_info_of(header->game))
      return crafter_fail(error, error_size,
                          "version %u of game number %d, which this program does not play (its "
                          "games are %s; a newer toolkit may)",
                          version, header->game, crafter_game_names());
  } else {
    header->players = at18;
    if (version == CRAFTER_TRAJ_VERSION_PLAYERS
            ? header->players < 2 || header->players > CRAFTER_PLAYERS_MAX
            : header->players != 0)
      return crafter_fail(error, error_size, "version %u with %d players", version,
                          header->players);
    if (header->players == 0) header->players = 1;
  }
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
  if (version == CRAFTER_TRAJ_VERSION_GAME &&
      (*task_chunk_bytes || *config_chunk_bytes || level_count || header->textures_crc))
    return crafter_fail(error, error_size,
                        "version %u with goals, rules, levels or textures, which only Crafter's "
                        "files have",
                        version);
  int any_rules = version >= CRAFTER_TRAJ_VERSION_RULES && version <= CRAFTER_TRAJ_VERSION_PLAYERS;
  if ((version <= CRAFTER_TRAJ_VERSION_TASKS &&
       (version == CRAFTER_TRAJ_VERSION) != (*task_chunk_bytes == 0)) ||
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
  const crafter_game_info *game = crafter_game_info_of(header->game);
  if (header->game != CRAFTER_GAME_CRAFTER) {
    crafter_params own;
    crafter_traj_game_params(header->game, &own);
    own.seed = params->seed;
    if (memcmp(own.area, params->area, sizeof own.area) != 0 ||
        memcmp(own.view, params->view, sizeof own.view) != 0 ||
        memcmp(own.size, params->size, sizeof own.size) != 0 || own.length != params->length ||
        own.reward != params->reward)
      return crafter_fail(error, error_size,
                          "the header's parameters are not %s's own (area %dx%d, view %dx%d, "
                          "size %dx%d, length %ld, reward on)",
                          game->title, own.area[0], own.area[1], own.view[0], own.view[1],
                          own.size[0], own.size[1], own.length);
  }
  header->obs_kind = crafter_obs_kind_from_traj_code(obs_code);
  if (!crafter_traj_stores_kind(header->obs_kind))
    return crafter_fail(error, error_size, "unknown observation kind %d", obs_code);
  if (!(game->obs_kinds & (1u << header->obs_kind)))
    return crafter_fail(error, error_size, "%s observations, which %s does not have",
                        crafter_obs_kind_name(header->obs_kind), game->title);
  /* Another game's pixels are drawn again from its states, never stored. */
  if (header->game != CRAFTER_GAME_CRAFTER && header->obs_kind == CRAFTER_OBS_PIXELS)
    return crafter_fail(error, error_size, "%s's pixel observations stored, which its files "
                        "never hold", game->title);
  uint32_t expected = crafter_traj_obs_bytes(params, header->obs_kind, header->players);
  if (header->obs_bytes != expected)
    return crafter_fail(error, error_size, "observations of %u bytes, but %s ones are %u bytes",
                 header->obs_bytes, crafter_obs_kind_name(header->obs_kind), expected);
  for (int i = 0; i < CRAFTER_TRAJ_AGENT_BYTES && header->agent[i]; i++)
    if ((unsigned char)header->agent[i] < 0x20 || (unsigned char)header->agent[i] > 0x7e)
      return crafter_fail(error, error_size, "the agent's name is not printable text");
  return 0;
}

/* ---- chunk headers ---- */

static uint32_t unlocked_of(const int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT]) {
  uint32_t mask = 0;
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (achievements[i] > 0) mask |= 1u << i;
  return mask;
}

void crafter_traj_encode_chunk_header(const crafter_traj_episode *episode,
                                      uint8_t out[CRAFTER_TRAJ_CHUNK_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  memcpy(out, CHUNK_TAG, 4);
  crafter_put_u32(out + 4, CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  crafter_put_u64(out + 8, episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
  crafter_put_u64(out + 16, episode->raw_bytes);
  crafter_put_i64(out + 24, episode->seed);
  crafter_put_i64(out + 32, episode->episode);
  if (episode->game != CRAFTER_GAME_CRAFTER) {
    /* Another game's episode: its world key where Crafter's world seed
     * is, the schedule's key in bytes Crafter reserves. */
    crafter_put_u32(out + 40, episode->world_key[0]);
    crafter_put_u32(out + 44, episode->world_key[1]);
    crafter_put_u32(out + 240, episode->schedule_key[0]);
    crafter_put_u32(out + 244, episode->schedule_key[1]);
  } else {
    crafter_put_i64(out + 40, episode->world_seed);
  }
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
  crafter_put_u32(out + 252, crafter_crc32(out, 252));
}

int crafter_traj_decode_chunk_header(const uint8_t *in, uint64_t offset, uint64_t file_bytes,
                                     const crafter_traj_header *header,
                                     crafter_traj_episode *episode, char *error,
                                     size_t error_size) {
  uint32_t obs_bytes = header->obs_bytes;
  const crafter_task_set *tasks = header->tasks;
  if (memcmp(in, CHUNK_TAG, 4) != 0)
    return crafter_fail(error, error_size, "no episode chunk starts here");
  if (crafter_get_u32(in + 252) != crafter_crc32(in, 252))
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
  episode->game = header->game;
  if (header->game != CRAFTER_GAME_CRAFTER) {
    episode->world_key[0] = crafter_get_u32(in + 40);
    episode->world_key[1] = crafter_get_u32(in + 44);
    episode->schedule_key[0] = crafter_get_u32(in + 240);
    episode->schedule_key[1] = crafter_get_u32(in + 244);
  } else {
    episode->world_seed = crafter_get_i64(in + 40);
  }
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
  for (int i = header->game != CRAFTER_GAME_CRAFTER ? 248 : 240; i < 248; i++)
    if (in[i]) return crafter_fail(error, error_size, "reserved bytes of the chunk header are set");
  if (payload == 0) return crafter_fail(error, error_size, "the episode chunk has no compressed steps");
  uint64_t room = file_bytes - offset - CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  if (payload > room)
    return crafter_fail(error, error_size,
                 "the episode chunk is cut short: %llu of %llu bytes of steps are in the file",
                 (unsigned long long)room, (unsigned long long)payload);
  episode->bytes = CRAFTER_TRAJ_CHUNK_HEADER_BYTES + payload;
  uint64_t raw = crafter_traj_raw_bytes(episode->steps, obs_bytes);
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
