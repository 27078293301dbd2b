/* Fuzz target: the reader of saved states (state.h, crafter-state(5)).
 * The input is a state.  It is loaded into three runners of a 16x16 area
 * (one player with 18x18 pixels and no time limit; two players with goals,
 * symbolic observations and episodes of 31 steps; one player with
 * semantic observations and episodes of 20 steps on a level set of 3
 * levels, generated from episode 1, in random order) as it is, then again
 * with its length field and CRC-32 made right, so that mutations reach
 * the checks of every field behind the checksum.  A state refused leaves
 * the runner as it was; a state that loads saves back to the very bytes
 * it was loaded from, and plays on: 8 steps, every observation made,
 * episodes restarted as crafter-step restarts them.  With FUZZ_VERBOSE
 * set in the environment, what became of each load goes to standard
 * error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "fuzz.h"
#include "game/tasks.h"
#include "run/episode.h"
#include "run/levels.h"
#include "run/proto.h"
#include "run/state.h"
#include "view/textures.h"

#define PLAY_STEPS 8
#define RUNNERS 3

/* The goals of the two-player runner (the corpus's states were saved
 * by crafter-step --tasks with a file of exactly these bytes). */
static const char state_tasks_yaml[] =
    "version: 1\n"
    "tasks:\n"
    "  - {id: wood, family: achievements, check: {unlock: [collect_wood]},\n"
    "     instruction: Collect wood., paraphrases: [a, b, c, d, e],\n"
    "     difficulty: easy, split: train, steps: 12, reward: 2}\n"
    "  - {id: sapling, family: achievements, check: {unlock: [collect_sapling]},\n"
    "     instruction: Collect a sapling., paraphrases: [a, b, c, d, e], difficulty: easy,\n"
    "     split: train}\n";

/* Made once, never freed (still reachable at exit). */
static crafter_textures textures;
static crafter_task_set tasks;
static crafter_task_pool pool;
static crafter_level_set levels;
static crafter_episode_options options[RUNNERS];
static crafter_episode *runners[RUNNERS];
static int ready;

static void fail(const char *what, const char *error) {
  fprintf(stderr, "fuzz-state: %s: %s\n", what, error);
  abort();
}

static void setup(void) {
  char error[512];
  if (crafter_textures_load_builtin(&textures, error, sizeof(error)) < 0) fail("textures", error);
  if (crafter_tasks_load_string(state_tasks_yaml, strlen(state_tasks_yaml), "tasks.yaml", &tasks,
                                error, sizeof(error)) < 0 ||
      crafter_task_pool_init(&pool, &tasks, -1, NULL, error, sizeof(error)) < 0)
    fail("tasks", error);
  for (int k = 0; k < RUNNERS; k++) {
    crafter_episode_options *o = &options[k];
    memset(o, 0, sizeof(*o));
    crafter_params_default(&o->params);
    o->params.area[0] = o->params.area[1] = 16;
    o->params.size[0] = o->params.size[1] = 18;
    o->params.length = k == 1 ? 31 : k == 2 ? 20 : 0;
    o->first_episode = 1;
    o->obs_kind = k == 1 ? CRAFTER_OBS_SYMBOLIC : k == 2 ? CRAFTER_OBS_SEMANTIC : CRAFTER_OBS_PIXELS;
    o->textures = &textures;
    o->level_envs = 1;
    o->players = k == 1 ? 2 : 1;
    o->tasks = k == 1 ? &pool : NULL;
  }
  if (crafter_levels_generate(&levels, &options[2].params, NULL, 1, 3, 1, error, sizeof(error)) < 0)
    fail("levels", error);
  options[2].levels = &levels;
  options[2].level_order = CRAFTER_LEVEL_ORDER_RANDOM;
}

static crafter_episode *fresh(int k) {
  char error[512];
  crafter_episode *runner = crafter_episode_new(&options[k], 0, NULL, error, sizeof(error));
  if (!runner || crafter_episode_start(runner, NULL, error, sizeof(error)) < 0)
    fail("a runner", error);
  return runner;
}

static uint8_t *saved(crafter_episode *runner, size_t *size) {
  *size = crafter_state_save_episode(runner, NULL, 0);
  uint8_t *state = malloc(*size);
  if (!state || crafter_state_save_episode(runner, state, *size) != *size) abort();
  return state;
}

static void try_state(int k, const uint8_t *data, size_t size) {
  if (!runners[k]) runners[k] = fresh(k);
  crafter_episode *runner = runners[k];
  size_t before_size;
  uint8_t *before = saved(runner, &before_size);
  char error[512];
  int refused = crafter_state_load_episode(runner, data, size, error, sizeof(error)) < 0;
  if (getenv("FUZZ_VERBOSE"))
    fprintf(stderr, "runner %d: %s (daylight %g)\n", k, refused ? error : "loaded",
            crafter_episode_env(runner)->game.daylight);
  if (refused) {
    size_t after_size;
    uint8_t *after = saved(runner, &after_size);
    if (after_size != before_size || memcmp(before, after, before_size) != 0)
      fail("a refused state changed the runner", error);
    free(after);
    free(before);
    return;
  }
  free(before);
  size_t again_size;
  uint8_t *again = saved(runner, &again_size);
  if (again_size != size || memcmp(again, data, size) != 0)
    fail("a loaded state", "it does not save back to the bytes it was loaded from");
  free(again);
  int players = crafter_episode_players(runner);
  for (int t = 0; t < PLAY_STEPS; t++) {
    int actions[CRAFTER_PLAYERS_MAX];
    for (int p = 0; p < players; p++)
      actions[p] = size ? data[((size_t)t * 131 + (size_t)p * 17) % size] % CRAFTER_ACTION_COUNT : 0;
    crafter_step_outcome records[CRAFTER_PLAYERS_MAX];
    if (crafter_episode_step_players(runner, actions, records) < 0) abort();
    size_t bytes;
    crafter_episode_observe(runner, &bytes);
    if (records[0].over && crafter_episode_start(runner, NULL, error, sizeof(error)) < 0)
      fail("a new episode after a loaded one", error);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) {
    setup();
    ready = 1;
  }
  for (int k = 0; k < RUNNERS; k++) try_state(k, data, size);
  /* The same bytes with their length and checksum made right. */
  if (size >= CRAFTER_STATE_HEADER_BYTES + 4) {
    uint8_t *repaired = malloc(size);
    if (!repaired) return 0;
    memcpy(repaired, data, size);
    crafter_put_u64(repaired + 16, (uint64_t)size);
    crafter_put_u32(repaired + size - 4, crafter_crc32(repaired, size - 4));
    for (int k = 0; k < RUNNERS; k++) try_state(k, repaired, size);
    free(repaired);
  }
  return 0;
}
