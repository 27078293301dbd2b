/* The traj module: a file written and read back field by field, from disk
 * and from memory; the same episodes compress to the same bytes; a file
 * without its trailer is scanned; and damage of every kind -- truncation
 * at every offset, flipped bytes, a broken chunk in the middle, a chunk
 * repeated -- gives a message and the intact episodes, never a crash or a
 * wrong episode.  Crafted files cost work in proportion to their size and
 * memory in proportion to what their compressed steps really hold: the
 * allocations of the library are watched through the linker's --wrap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bytes.h"
#include "game/cc_env.h"
#include "game/games.h"
#include "kernels/rng.h"
#include "run/proto.h"
#include "run/traj.h"
#include "run/jgame.h"
#include "run/traj_reader.h"
#include "run/traj_writer.h"
#include "tap.h"
#include "tools/dataset.h"
#include "view/cc_render.h"
#include "view/render.h"

#include <zlib.h>

/* The largest single allocation asked for since the last reset. */
static size_t largest_allocation;
/* Allocations of exactly this size fail (0: none). */
static size_t failing_size;
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
void *__wrap_malloc(size_t size) {
  if (failing_size && size == failing_size) return NULL;
  if (size > largest_allocation) largest_allocation = size;
  return __real_malloc(size);
}
void *__wrap_calloc(size_t count, size_t size) {
  if (size && count <= SIZE_MAX / size && count * size > largest_allocation)
    largest_allocation = count * size;
  return __real_calloc(count, size);
}
void *__wrap_realloc(void *pointer, size_t size) {
  if (size > largest_allocation) largest_allocation = size;
  return __real_realloc(pointer, size);
}

static void put_le(uint8_t *at, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; i++) at[i] = (uint8_t)(value >> (8 * i));
}

enum { EPISODES = 4, MAX_STEPS = 40 };

typedef struct expected {
  int steps;
  uint8_t actions[MAX_STEPS];
  double rewards[MAX_STEPS];
  uint8_t done[MAX_STEPS];
  uint32_t unlocked[MAX_STEPS];
  int64_t world_seed;
} expected;

static uint8_t *read_whole(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t *data = malloc((size_t)length + 1);
  if (data && fread(data, 1, (size_t)length, file) != (size_t)length) {
    free(data);
    data = NULL;
  }
  fclose(file);
  *size = (size_t)length;
  return data;
}

/* Records EPISODES episodes of random actions with `obs_kind`
 * observations. */
static int tamper_step = -1; /* >= 0: the reward stored at this step of episode 0 is off by 1 */
static int seal_first;       /* 1: each episode is sealed before it is added */
static int sealed_refuses = 1; /* every sealed recorder refused a further step */

static int record(const char *path, int obs_kind, expected *out) {
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = params.area[1] = 16;
  params.length = MAX_STEPS - 5;
  params.seed = 7;
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0) return -1;
  crafter_traj_header header;
  crafter_traj_header_init(&header, &params, obs_kind, "test", NULL);
  crafter_traj_writer *writer = crafter_traj_writer_create(path, &header, error, sizeof(error));
  crafter_traj_recorder *recorder = crafter_traj_recorder_new(&header);
  uint8_t *obs = malloc(header.obs_bytes ? header.obs_bytes : 1);
  crafter_rng rng;
  crafter_rng_seed(&rng, 1);
  int status = writer && recorder && obs ? 0 : -1;
  for (int e = 0; e < EPISODES && status == 0; e++) {
    crafter_env_reset(&env);
    if (obs_kind == CRAFTER_OBS_SEMANTIC) crafter_env_semantic(&env, 0, obs);
    if (obs_kind == CRAFTER_OBS_SYMBOLIC) crafter_render_symbolic(&env, 0, (float *)(void *)obs);
    crafter_traj_recorder_start(recorder, &env, 0, obs);
    out[e].world_seed = env.world_seed;
    /* The last episode is cut short, as when the input ends. */
    int limit = e == EPISODES - 1 ? 12 : MAX_STEPS;
    crafter_step_result result = {0};
    int t = 0;
    for (; t < limit && !result.done; t++) {
      int action = (int)crafter_rng_randint(&rng, 0, CRAFTER_ACTION_COUNT);
      crafter_env_step(&env, action, &result);
      if (e == 0 && t == tamper_step) result.info_reward += 1.0; /* as a broken engine would */
      if (obs_kind == CRAFTER_OBS_SEMANTIC) crafter_env_semantic(&env, 0, obs);
      if (obs_kind == CRAFTER_OBS_SYMBOLIC) crafter_render_symbolic(&env, 0, (float *)(void *)obs);
      crafter_traj_recorder_step(recorder, &env, 0, action, &result, obs);
      out[e].actions[t] = (uint8_t)action;
      out[e].rewards[t] = result.info_reward;
      out[e].done[t] = (uint8_t)result.done;
      out[e].unlocked[t] = result.unlocked;
    }
    out[e].steps = t;
    if (seal_first) {
      if (crafter_traj_recorder_seal(recorder) < 0) status = -1;
      sealed_refuses &= crafter_traj_recorder_step(recorder, &env, 0, 0, &result, obs) < 0;
    }
    if (crafter_traj_writer_add(writer, recorder, error, sizeof(error)) < 0) status = -1;
  }
  if (writer && crafter_traj_writer_close(writer, error, sizeof(error)) < 0) status = -1;
  crafter_traj_recorder_free(recorder);
  free(obs);
  crafter_env_fini(&env);
  return status;
}

static int same_steps(const crafter_traj_data *data, const expected *e) {
  if ((int)data->steps_count != e->steps) return 0;
  for (int t = 0; t < e->steps; t++) {
    const crafter_traj_step *s = &data->steps[t];
    if (s->action != e->actions[t] || s->reward != e->rewards[t] || s->done != e->done[t] ||
        s->unlocked != e->unlocked[t])
      return 0;
  }
  return 1;
}

/* Opens bytes from memory; returns the number of episodes that read and
 * match the expected ones (-1 when one reads but differs). */
static long readable(const uint8_t *data, size_t size, const expected *want, int *opened,
                     const crafter_traj_status **status, crafter_traj_reader **keep) {
  char error[256];
  crafter_traj_reader *reader = crafter_traj_open_memory(data, size, error, sizeof(error));
  *opened = reader != NULL;
  if (!reader) return 0;
  long good = 0;
  for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
    crafter_traj_data episode;
    if (crafter_traj_read_episode(reader, i, &episode, error, sizeof(error)) < 0) continue;
    const crafter_traj_episode *info = crafter_traj_episode_at(reader, i);
    int index = -1;
    for (int e = 0; e < EPISODES; e++)
      if (want[e].world_seed == info->world_seed) index = e;
    if (index < 0 || !same_steps(&episode, &want[index])) good = -1000000;
    good++;
    crafter_traj_data_free(&episode);
  }
  if (status) *status = crafter_traj_status_of(reader);
  if (keep)
    *keep = reader;
  else
    crafter_traj_close(reader);
  return good;
}

/* Craftax-Classic's files: version 5, the game's number at byte 18, each
 * chunk holding the keys its episode started with; they read back field
 * by field, and a file of one game is refused where the other is wanted,
 * the message naming both.  `crafter_path` is a file of Crafter's. */
static void craftax(const char *crafter_path, const char *path) {
  enum { CC_EPISODES = 3, CC_STEPS = 600 };
  char error[256];
  crafter_traj_header header;
  crafter_traj_header_init_game(&header, CRAFTER_GAME_CRAFTAX_CLASSIC, 11, CRAFTER_OBS_SYMBOLIC,
                                "test");
  crafter_traj_writer *writer = crafter_traj_writer_create(path, &header, error, sizeof(error));
  crafter_traj_recorder *recorder = crafter_traj_recorder_new(&header);
  static crafter_cc_env env;
  static uint8_t obs[4 * CRAFTER_SYMBOLIC_SIZE];
  static uint8_t actions[CC_EPISODES][CC_STEPS];
  static double rewards[CC_EPISODES][CC_STEPS];
  uint32_t keys[CC_EPISODES][4];
  int steps[CC_EPISODES] = {0}, written = writer && recorder && crafter_cc_env_start(&env, 11) == 0;
  crafter_rng rng;
  crafter_rng_seed(&rng, 5);
  /* Two episodes played to their end, the third cut after 20 steps. */
  for (int e = 0; e < CC_EPISODES && written; e++) {
    uint32_t at_start[4] = {env.world_key.word[0], env.world_key.word[1], env.key.word[0],
                            env.key.word[1]};
    memcpy(keys[e], at_start, sizeof(at_start));
    float values[CRAFTER_SYMBOLIC_SIZE];
    crafter_cc_render_symbolic(&env.state, values);
    for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) crafter_put_f32(obs + 4 * k, values[k]);
    const crafter_jgame *game = crafter_jgame_of(CRAFTER_GAME_CRAFTAX_CLASSIC);
    written &= crafter_traj_recorder_start_jgame(recorder, game, &env, obs) == 0;
    crafter_jgame_outcome outcome = {0};
    while (written && steps[e] < (e == CC_EPISODES - 1 ? 20 : CC_STEPS) && !outcome.done) {
      int action = (int)(crafter_rng_next_u32(&rng) % CRAFTER_CC_ACTIONS);
      game->act_only_many(&env, &action, 1, &outcome);
      crafter_cc_render_symbolic(&env.state, values);
      for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) crafter_put_f32(obs + 4 * k, values[k]);
      written &= crafter_traj_recorder_step_jgame(recorder, action, &outcome, obs) == 0;
      actions[e][steps[e]] = (uint8_t)action;
      rewards[e][steps[e]++] = outcome.reward;
      written &= crafter_cc_env_reset_due(&env) == 0;
    }
    written &= crafter_traj_writer_add(writer, recorder, error, sizeof(error)) == 0;
  }
  written &= writer && crafter_traj_writer_close(writer, error, sizeof(error)) == 0;
  crafter_traj_recorder_free(recorder);
  ok(written, "a file of Craftax-Classic's episodes is written");
  size_t size;
  uint8_t *bytes = read_whole(path, &size);
  ok(bytes && size > 128 && bytes[8] == 5 && bytes[18] == CRAFTER_GAME_CRAFTAX_CLASSIC &&
         bytes[19] == 0,
     "its header says format version 5 and game 1 at byte 18");
  free(bytes);

  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof(error));
  ok(!reader && strstr(error, "a trajectory of craftax-classic (format version 5), not of crafter"),
     "crafter_traj_open, Crafter's, refuses it: %s", reader ? "opened" : error);
  crafter_traj_close(reader);
  reader = crafter_traj_open_game(crafter_path, CRAFTER_GAME_CRAFTAX_CLASSIC, error, sizeof(error));
  ok(!reader && strstr(error, "a trajectory of crafter (format version 1), not of craftax-classic"),
     "a Crafter file is refused where Craftax-Classic's is wanted: %s", reader ? "opened" : error);
  crafter_traj_close(reader);

  reader = crafter_traj_open_game(path, -1, error, sizeof(error));
  const crafter_traj_header *read = reader ? crafter_traj_header_of(reader) : NULL;
  ok(read && read->version == CRAFTER_TRAJ_VERSION_GAME &&
         read->game == CRAFTER_GAME_CRAFTAX_CLASSIC && read->params.seed == 11 &&
         read->obs_kind == CRAFTER_OBS_SYMBOLIC && read->obs_bytes == 4 * CRAFTER_SYMBOLIC_SIZE &&
         read->players == 1 && strcmp(read->agent, "test") == 0 &&
         crafter_traj_episode_count(reader) == CC_EPISODES,
     "it opens for any game: version 5, Craftax-Classic, seed, symbolic observations, %d "
     "episodes",
     CC_EPISODES);
  int same = reader != NULL, ends = reader != NULL;
  for (int e = 0; e < CC_EPISODES && reader; e++) {
    const crafter_traj_episode *info = crafter_traj_episode_at(reader, (size_t)e);
    crafter_traj_data data;
    if (!info || crafter_traj_read_episode(reader, (size_t)e, &data, error, sizeof(error)) < 0) {
      same = 0;
      continue;
    }
    same &= info->seed == 11 && info->episode == e + 1 && info->world_seed == 0 &&
            info->world_key[0] == keys[e][0] && info->world_key[1] == keys[e][1] &&
            info->schedule_key[0] == keys[e][2] && info->schedule_key[1] == keys[e][3] &&
            data.steps_count == (uint32_t)steps[e] && data.obs != NULL;
    for (int t = 0; t < steps[e] && t < (int)data.steps_count; t++)
      same &= data.steps[t].action == actions[e][t] && data.steps[t].reward == rewards[e][t];
    ends &= e == CC_EPISODES - 1 ? info->end == CRAFTER_TRAJ_CUT
                                 : info->end == CRAFTER_TRAJ_DIED ||
                                       info->end == CRAFTER_TRAJ_TIME_LIMIT;
    crafter_traj_data_free(&data);
  }
  ok(same, "every episode reads back: its keys, its steps' actions and float32 rewards, its "
           "observations");
  ok(ends, "the episodes that ended end, the one cut short is marked cut");
  crafter_traj_close(reader);

  char *report = NULL;
  size_t report_bytes = 0;
  FILE *out = open_memstream(&report, &report_bytes);
  int verified = crafter_dataset_verify(path, CRAFTER_GAME_CRAFTAX_CLASSIC, 1, NULL, out, error,
                                        sizeof(error));
  fclose(out);
  ok(verified == 0 && report && strstr(report, "3 episodes") && !strstr(report, "note"),
     "verify --resimulate replays them from their keys, each starting where the one before "
     "ended: %s",
     report ? report : error);
  free(report);
}

int main(void) {
  const char *directory = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512], path2[512];
  snprintf(path, sizeof(path), "%s/test-traj-%ld.traj", directory, (long)getpid());
  snprintf(path2, sizeof(path2), "%s/test-traj-%ld-b.traj", directory, (long)getpid());
  expected want[EPISODES], again[EPISODES];
  ok(record(path, CRAFTER_OBS_SEMANTIC, want) == 0, "a file with semantic observations is written");
  seal_first = 1;
  ok(record(path2, CRAFTER_OBS_SEMANTIC, again) == 0,
     "and written again, each episode sealed (compressed to its end) before it is added");
  seal_first = 0;
  ok(sealed_refuses, "a sealed recorder takes no more steps");
  size_t size, size2;
  uint8_t *bytes = read_whole(path, &size), *bytes2 = read_whole(path2, &size2);
  ok(bytes && bytes2 && size == size2 && memcmp(bytes, bytes2, size) == 0,
     "the same episodes give the same bytes (%zu)", size);
  ok(memcmp(bytes, CRAFTER_TRAJ_MAGIC, 8) == 0 && crafter_traj_is_trajectory(bytes, size),
     "the file starts with the magic");

  char error[256];
  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof(error));
  ok(reader != NULL, "it opens: %s", reader ? "" : error);
  const crafter_traj_header *header = crafter_traj_header_of(reader);
  ok(header->version == CRAFTER_TRAJ_VERSION && header->obs_kind == CRAFTER_OBS_SEMANTIC &&
         header->obs_bytes == 256 && header->params.area[0] == 16 && header->params.seed == 7 &&
         header->params.length == MAX_STEPS - 5 && strcmp(header->agent, "test") == 0,
     "the header reads back");
  const crafter_traj_status *status = crafter_traj_status_of(reader);
  ok(status->indexed && !status->damaged, "the index is used and nothing is damaged");
  ok(crafter_traj_episode_count(reader) == EPISODES, "%d episodes", EPISODES);
  int all_same = 1, ends_right = 1;
  for (int e = 0; e < EPISODES; e++) {
    const crafter_traj_episode *info = crafter_traj_episode_at(reader, (size_t)e);
    crafter_traj_data data;
    if (crafter_traj_read_episode(reader, (size_t)e, &data, error, sizeof(error)) < 0) {
      all_same = 0;
      continue;
    }
    all_same &= same_steps(&data, &want[e]) && info->episode == e + 1 && info->seed == 7 &&
                info->world_seed == want[e].world_seed;
    int last_done = want[e].done[want[e].steps - 1];
    ends_right &= (e == EPISODES - 1) ? info->end == CRAFTER_TRAJ_CUT
                                      : (last_done && info->end != CRAFTER_TRAJ_CUT);
    crafter_traj_data_free(&data);
  }
  ok(all_same, "every step reads back: action, reward, done, unlocked");
  ok(ends_right, "ended episodes end, the one cut short is marked cut");
  crafter_traj_close(reader);

  int opened;
  ok(readable(bytes, size, want, &opened, NULL, NULL) == EPISODES && opened,
     "the same from memory");

  /* A reader that cannot check the file fails; it does not call the file
   * damaged.  The checksum table takes 4 bytes per 512 of the file. */
  failing_size = (size / 512 + 1) * sizeof(uint32_t);
  reader = crafter_traj_open(path, error, sizeof(error));
  failing_size = 0;
  ok(!reader && strstr(error, "out of memory"),
     "out of memory while checking is an error, not damage: %s", reader ? "opened" : error);
  crafter_traj_close(reader);

  /* Chunk boundaries, from the index. */
  uint64_t ends[EPISODES + 1];
  reader = crafter_traj_open(path, error, sizeof(error));
  ends[0] = CRAFTER_TRAJ_HEADER_BYTES;
  for (int e = 0; e < EPISODES; e++) {
    const crafter_traj_episode *info = crafter_traj_episode_at(reader, (size_t)e);
    ends[e + 1] = info->offset + info->bytes;
  }
  crafter_traj_close(reader);

  /* Truncated at every offset: the header fails cleanly, then exactly the
   * whole chunks before the cut are read, and the damage starts at the
   * first partial chunk. */
  int truncation_right = 1;
  size_t first_wrong = 0;
  for (size_t cut = 0; cut < size; cut++) {
    const crafter_traj_status *s = NULL;
    crafter_traj_reader *kept = NULL;
    long good = readable(bytes, cut, want, &opened, &s, &kept);
    long whole = 0;
    for (int e = 0; e < EPISODES; e++) whole += ends[e + 1] <= cut;
    int right;
    if (cut < CRAFTER_TRAJ_HEADER_BYTES) {
      right = !opened;
    } else {
      int at_boundary = 0;
      for (int e = 0; e <= EPISODES; e++) at_boundary |= ends[e] == cut;
      right = opened && good == whole && !s->indexed &&
              (at_boundary ? !s->damaged : (s->damaged && s->damage_offset == ends[whole]));
      /* Past the last chunk the cut falls in the index or the trailer. */
      uint64_t index_end = ends[EPISODES] + 32 + 8 * EPISODES;
      if (cut > ends[EPISODES])
        right = opened && good == EPISODES && !s->indexed &&
                (cut == index_end ? !s->damaged
                                  : s->damaged && s->damage_offset == (cut < index_end
                                                                           ? ends[EPISODES]
                                                                           : index_end));
    }
    crafter_traj_close(kept);
    if (!right && truncation_right) first_wrong = cut;
    truncation_right &= right;
  }
  ok(truncation_right, "truncated at each of %zu offsets: whole chunks read, damage located%s",
     size, truncation_right ? "" : " (first wrong offset printed below)");
  if (!truncation_right) printf("# first wrong at %zu\n", first_wrong);

  /* Random bytes flipped: whatever opens never yields a wrong episode. */
  uint8_t *copy = malloc(size);
  crafter_rng rng;
  crafter_rng_seed(&rng, 42);
  int flips_right = 1;
  long damaged_found = 0;
  for (int round = 0; round < 3000; round++) {
    memcpy(copy, bytes, size);
    int flips = 1 + (int)crafter_rng_randint(&rng, 0, 4);
    for (int f = 0; f < flips; f++) {
      size_t at = (size_t)crafter_rng_randint(&rng, 0, (int64_t)size);
      copy[at] ^= (uint8_t)(1 + crafter_rng_randint(&rng, 0, 255));
    }
    const crafter_traj_status *s = NULL;
    crafter_traj_reader *kept = NULL;
    long good = readable(copy, size, want, &opened, &s, &kept);
    if (good < 0) flips_right = 0;
    if (kept && (s->damaged || !s->indexed)) damaged_found++;
    crafter_traj_close(kept);
  }
  ok(flips_right, "3000 files with flipped bytes: never a wrong episode (%ld noticed damage)",
     damaged_found);

  /* A chunk broken in the middle: the reader skips it and finds the rest. */
  memcpy(copy, bytes, size);
  copy[ends[1] + 300] ^= 0x55; /* inside the second chunk's steps */
  memset(copy + size - 8, 0, 8); /* and the trailer's checksum: force a scan */
  const crafter_traj_status *s = NULL;
  crafter_traj_reader *kept = NULL;
  long good = readable(copy, size, want, &opened, &s, &kept);
  ok(opened && good == EPISODES - 1 && s->damaged && s->damage_offset == ends[1] &&
         s->damaged_regions == 2,
     "a damaged chunk in the middle is skipped: %ld episodes, damage at %llu", good,
     s ? (unsigned long long)s->damage_offset : 0ULL);
  crafter_traj_close(kept);

  /* Without index and trailer (a killed writer): scanned, all read. */
  good = readable(bytes, (size_t)ends[EPISODES], want, &opened, &s, &kept);
  ok(opened && good == EPISODES && !s->indexed && !s->damaged,
     "without the trailer every episode is found by scanning");
  crafter_traj_close(kept);

  /* One byte flipped in each chunk in turn, the index and trailer intact:
   * at the tag, the header's checksum, the first, middle and last byte of
   * the steps.  Either checksum fails, so that episode alone is left out,
   * the damage starts at its chunk, and every other episode reads back. */
  int each_right = 1;
  for (int e = 0; e < EPISODES; e++) {
    size_t chunk_bytes = (size_t)(ends[e + 1] - ends[e]);
    size_t places[5] = {0, 252, 256, 256 + (chunk_bytes - 256) / 2, chunk_bytes - 1};
    for (int p = 0; p < 5; p++) {
      memcpy(copy, bytes, size);
      copy[ends[e] + places[p]] ^= 0x10;
      s = NULL;
      kept = NULL;
      good = readable(copy, size, want, &opened, &s, &kept);
      int missing_right = kept && crafter_traj_episode_count(kept) == EPISODES - 1;
      for (size_t i = 0; missing_right && i < crafter_traj_episode_count(kept); i++)
        missing_right = crafter_traj_episode_at(kept, i)->world_seed != want[e].world_seed;
      if (!(opened && good == EPISODES - 1 && missing_right && s->damaged &&
            s->damage_offset == ends[e] && s->damaged_regions == 1 &&
            s->damaged_bytes == chunk_bytes)) {
        if (each_right) printf("# wrong for episode %d, byte %zu of its chunk\n", e, places[p]);
        each_right = 0;
      }
      crafter_traj_close(kept);
    }
  }
  ok(each_right, "a byte flipped in each chunk at 5 places: that episode alone is left out");

  /* A chunk written twice (an index listing both): the episode once. */
  reader = crafter_traj_open(path, error, sizeof(error));
  crafter_traj_writer *writer =
      crafter_traj_writer_create(path2, crafter_traj_header_of(reader), error, sizeof(error));
  int written = writer != NULL;
  for (int k = 0; written && k < EPISODES + 1; k++) {
    uint8_t *chunk;
    size_t chunk_size;
    written = crafter_traj_read_chunk(reader, k == EPISODES ? 1 : (size_t)k, &chunk, &chunk_size,
                                      error, sizeof(error)) == 0 &&
              crafter_traj_writer_add_chunk(writer, chunk, chunk_size, error, sizeof(error)) == 0;
    free(chunk);
  }
  if (writer) written &= crafter_traj_writer_close(writer, error, sizeof(error)) == 0;
  crafter_traj_close(reader);
  uint8_t *twice = read_whole(path2, &size2);
  s = NULL;
  kept = NULL;
  good = twice ? readable(twice, size2, want, &opened, &s, &kept) : 0;
  ok(written && good == EPISODES && s && s->indexed && !s->damaged && s->duplicates == 1 &&
         s->duplicate_offset == ends[EPISODES],
     "a chunk listed twice counts once: %ld episodes, %ld duplicate", good, s ? s->duplicates : -1L);
  crafter_traj_close(kept);
  free(twice);

  /* Chunk headers every 256 bytes, each whole with its own checksum but
   * claiming steps up to the end of the file, then the four real chunks.
   * Each claim must be checked against the bytes it covers; done naively
   * that is a pass over the rest of the file per header.  The reader
   * checksums the file once into its table of prefixes, then per header
   * its 252 bytes and at most two partial blocks of 511 bytes: at most
   * 1 + (252 + 2 * 511) / 256 < 6 times the file's size. */
  enum { FAKES = 4096 };
  size_t real_bytes = (size_t)(ends[EPISODES] - ends[0]);
  size_t crafted_size = CRAFTER_TRAJ_HEADER_BYTES + (size_t)FAKES * 256 + real_bytes;
  uint8_t *crafted = malloc(crafted_size);
  memcpy(crafted, bytes, CRAFTER_TRAJ_HEADER_BYTES);
  for (size_t k = 0; k < FAKES; k++) {
    uint8_t *fake = crafted + CRAFTER_TRAJ_HEADER_BYTES + 256 * k;
    memcpy(fake, bytes + ends[0], 256);
    put_le(fake + 8, crafted_size - (size_t)(fake - crafted) - 256, 8);
    put_le(fake + 252, crc32(0L, fake, 252), 4);
  }
  memcpy(crafted + CRAFTER_TRAJ_HEADER_BYTES + (size_t)FAKES * 256, bytes + ends[0], real_bytes);
  s = NULL;
  kept = NULL;
  good = readable(crafted, crafted_size, want, &opened, &s, &kept);
  ok(opened && good == EPISODES && s->damaged && s->damage_offset == CRAFTER_TRAJ_HEADER_BYTES &&
         s->damaged_bytes == (uint64_t)FAKES * 256,
     "%d false chunk headers: skipped as one damaged stretch, the %d real episodes found", FAKES,
     EPISODES);
  ok(s && s->checked_bytes < 6 * (uint64_t)crafted_size,
     "and the bytes checksummed to open it, %llu, are less than 6 times its %zu bytes",
     s ? (unsigned long long)s->checked_bytes : 0ULL, crafted_size);
  crafter_traj_close(kept);
  free(crafted);

  /* A chunk of 4096x4096 pixels (48 MiB an observation) announcing 20
   * steps, 1 GB uncompressed, whose 2 MB of compressed steps really hold 2
   * MB.  Reading it must fail (the stream is too short) having asked for
   * memory in proportion to those 2 MB -- at most the chunk itself and
   * twice what was inflated, 8 MB in all -- and the steps alone without
   * memory for observations beyond the chunk. */
  crafter_params big;
  crafter_params_default(&big);
  big.size[0] = big.size[1] = 4096;
  crafter_traj_header big_header;
  crafter_traj_header_init(&big_header, &big, CRAFTER_OBS_PIXELS, "test", NULL);
  size_t noise_bytes = 2000000;
  uint8_t *noise = malloc(noise_bytes);
  for (size_t i = 0; i < noise_bytes; i++) noise[i] = (uint8_t)crafter_rng_randint(&rng, 0, 256);
  uLongf packed_bytes = compressBound(noise_bytes);
  uint8_t *big_chunk = malloc(256 + packed_bytes);
  compress2(big_chunk + 256, &packed_bytes, noise, noise_bytes, 1);
  uint64_t obs_bytes = 4096ull * 4096 * 3, steps = 20;
  memset(big_chunk, 0, 256);
  memcpy(big_chunk, "EPSD", 4);
  put_le(big_chunk + 4, 256, 4);
  put_le(big_chunk + 8, packed_bytes, 8);
  put_le(big_chunk + 16, obs_bytes + steps * (16 + obs_bytes), 8);
  put_le(big_chunk + 24, 0, 8);          /* seed */
  put_le(big_chunk + 32, 1, 8);          /* episode */
  put_le(big_chunk + 40, 12345, 8);      /* world seed */
  put_le(big_chunk + 48, steps, 4);      /* steps; the end is 0, cut */
  put_le(big_chunk + 248, crc32(0L, big_chunk + 256, (uInt)packed_bytes), 4);
  put_le(big_chunk + 252, crc32(0L, big_chunk, 252), 4);
  writer = crafter_traj_writer_create(path2, &big_header, error, sizeof(error));
  written = writer && crafter_traj_writer_add_chunk(writer, big_chunk, 256 + packed_bytes, error,
                                                    sizeof(error)) == 0;
  if (writer) written &= crafter_traj_writer_close(writer, error, sizeof(error)) == 0;
  reader = written ? crafter_traj_open(path2, error, sizeof(error)) : NULL;
  ok(reader && crafter_traj_episode_count(reader) == 1,
     "a file announcing 1 GB of pixels in 2 MB opens: %s", reader ? "one episode" : error);
  if (reader) {
    crafter_traj_data big_data;
    largest_allocation = 0;
    int refused = crafter_traj_read_episode(reader, 0, &big_data, error, sizeof(error)) < 0;
    ok(refused && strstr(error, "do not decompress") && largest_allocation <= 8000000,
       "reading it fails after asking for at most %zu bytes at once: %s", largest_allocation,
       error);
    largest_allocation = 0;
    refused = crafter_traj_read_steps(reader, 0, &big_data, error, sizeof(error)) < 0;
    ok(refused && largest_allocation <= 256 + packed_bytes,
       "its steps alone, at most %zu bytes at once (the chunk is %zu)", largest_allocation,
       (size_t)(256 + packed_bytes));
    crafter_traj_close(reader);
  }
  free(big_chunk);
  free(noise);

  /* Headers that cannot be read. */
  memcpy(copy, bytes, size);
  copy[0] = 'X';
  ok(crafter_traj_open_memory(copy, size, error, sizeof(error)) == NULL &&
         strstr(error, "not a trajectory file"),
     "a wrong magic: %s", error);
  memcpy(copy, bytes, size);
  copy[8] = 9;
  ok(crafter_traj_open_memory(copy, size, error, sizeof(error)) == NULL &&
         strstr(error, "version 9"),
     "a newer version: %s", error);
  memcpy(copy, bytes, size);
  copy[40] ^= 1;
  ok(crafter_traj_open_memory(copy, size, error, sizeof(error)) == NULL &&
         strstr(error, "checksum"),
     "a damaged header: %s", error);
  ok(crafter_traj_open("/nonexistent/file.traj", error, sizeof(error)) == NULL &&
         strstr(error, "/nonexistent/file.traj"),
     "a missing file: %s", error);

  /* Symbolic observations and none at all round-trip too. */
  ok(record(path2, CRAFTER_OBS_SYMBOLIC, again) == 0, "symbolic observations are written");
  reader = crafter_traj_open(path2, error, sizeof(error));
  crafter_traj_data data;
  int symbolic_right = reader && crafter_traj_read_episode(reader, 0, &data, error, sizeof(error)) == 0;
  if (symbolic_right) {
    float values[CRAFTER_SYMBOLIC_SIZE];
    memcpy(values, data.obs, sizeof(values));
    /* health 9 / 10 at the start, as Craftax computes it in float16 (1843/2048) */
    symbolic_right = values[1335] == 1843.0f / 2048 && same_steps(&data, &again[0]);
    crafter_traj_data_free(&data);
  }
  ok(symbolic_right, "symbolic observations read back");
  crafter_traj_close(reader);
  ok(record(path2, CRAFTER_OBS_NONE, again) == 0, "a file without observations is written");
  uint8_t *none = read_whole(path2, &size2);
  ok(none && readable(none, size2, again, &opened, NULL, NULL) == EPISODES,
     "and reads back");
  free(none);

  /* Re-simulation catches a step the engine would play otherwise: an
   * episode whose stored reward is off at step 4 fails, naming the step,
   * while its checksums and steps are whole. */
  tamper_step = 3;
  ok(record(path2, CRAFTER_OBS_NONE, again) == 0, "an episode with a reward off by one is written");
  tamper_step = -1;
  char *report = NULL;
  size_t report_bytes = 0;
  FILE *out = open_memstream(&report, &report_bytes);
  int verified = crafter_dataset_verify(path2, -1, 1, NULL, out, error, sizeof(error));
  fclose(out);
  ok(verified == 1 && report && strstr(report, "episode 0 (seed 7, episode 1): step 4: reward differs"),
     "verify --resimulate fails on it at step 4: %s", report ? report : error);
  free(report);
  report = NULL;
  out = open_memstream(&report, &report_bytes);
  verified = crafter_dataset_verify(path2, -1, 0, NULL, out, error, sizeof(error));
  fclose(out);
  ok(verified == 0, "while its checksums and steps are whole");
  free(report);

  craftax(path, path2);

  free(copy);
  free(bytes);
  free(bytes2);
  remove(path);
  remove(path2);
  return tap_done();
}
