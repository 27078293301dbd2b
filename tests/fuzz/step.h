/* What fuzz-step-text and fuzz-step-binary share: crafter-step's session
 * (session.h) run through the library over the input, as crafter-step
 * runs it over its standard input, with options that the input chooses.
 *
 * The first three bytes choose the options, among the combinations
 * crafter-step accepts; the rest is what the session reads (through a
 * memfd, so an input of any size is read as a file is).  What it writes
 * goes to /dev/null, recordings too; with FUZZ_VERBOSE set in the
 * environment, how each run ended goes to standard error.  Runs stay
 * small: at most 3 envs of a 16x16 area (a 12x6 world with a world
 * file), episodes of at most 31 steps.
 *
 *   byte 0  bits 0-1  envs: 1 + value % 3
 *           bits 2-4  observation: value % 6 (none, pixels, semantic,
 *                     symbolic, text, balrog), % 4 for the binary protocol
 *           bits 5-6  text: --info short, full, state (value % 3);
 *                     binary: bit 5 --manual-reset, bit 6 --semantic
 *           bit 7     binary: --final-obs (not with --manual-reset)
 *   byte 1  bit 0     goals from a small task file (--tasks)
 *           bit 1     a level set of 3 levels (--levels)
 *           bit 2     the world file of crafter-world(5)'s example (--world;
 *                     not with levels)
 *           bit 3     --record /dev/null
 *           bit 4     binary: --threads 2
 *           bit 5     binary: frames in shared memory (--shm-fd, 2 slots)
 *           bit 6     --no-reward
 *           bit 7     the first episode is 2**31-2, so the episode counter
 *                     runs into its end (not with levels)
 *   byte 2  bits 0-4  --length: the value (0 for no limit)
 *           bits 5-6  --episodes: the value (0 for no end)
 *           bit 7     a view of 5x7 and observations of 20x35 pixels,
 *                     instead of 9x9 and 64x64 */
#ifndef CRAFTER_FUZZ_STEP_H
#define CRAFTER_FUZZ_STEP_H

#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/bytes.h"
#include "fuzz.h"
#include "game/tasks.h"
#include "run/levels.h"
#include "run/proto.h"
#include "run/worldfile.h"
#include "tools/session.h"

static const char step_tasks_yaml[] =
    "version: 1\n"
    "tasks:\n"
    "  - {id: wood, family: achievements, check: {unlock: [collect_wood]},\n"
    "     instruction: Collect wood., paraphrases: [a, b, c, d, e],\n"
    "     difficulty: easy, split: train, steps: 12, reward: 2}\n"
    "  - {id: sapling, family: achievements, check: {unlock: [collect_sapling], avoid: [eat_cow]},\n"
    "     instruction: Collect a sapling., paraphrases: [a, b, c, d, e], difficulty: easy,\n"
    "     split: train}\n"
    "  - {id: line, family: line, check: {block: stone, length: 2}, instruction: x,\n"
    "     paraphrases: [a, b, c, d, e], difficulty: medium, split: train, steps: 20}\n";

static const char step_world_text[] =
    "crafter-world 1\n"
    "size 12 6\n"
    "ground 0 5 sand\n"
    "map\n"
    "~~~:....TTT#\n"
    "~~~:.C..TT#c\n"
    "~~:..@t.P..#\n"
    "~::...<..>#_\n"
    ":.....T..#iS\n"
    "Z....TT.##^_\n";

/* What stays from one run to the next: made once, never freed (so still
 * reachable at exit, which no leak checker reports). */
typedef struct step_fixtures {
  int ready;
  crafter_task_set tasks;
  crafter_task_pool pool;
  crafter_world_map world;
  crafter_level_set levels[2]; /* one per view */
  int have_levels[2];
  FILE *sink;
} step_fixtures;

static step_fixtures *step_fixtures_get(void) {
  static step_fixtures fixtures;
  if (fixtures.ready) return &fixtures;
  char error[512];
  if (crafter_tasks_load_string(step_tasks_yaml, sizeof(step_tasks_yaml) - 1, "fuzz-tasks.yaml",
                                &fixtures.tasks, error, sizeof(error)) < 0 ||
      crafter_task_pool_init(&fixtures.pool, &fixtures.tasks, -1, NULL, error, sizeof(error)) <
          0 ||
      crafter_world_map_parse(&fixtures.world, step_world_text, sizeof(step_world_text) - 1,
                              "fuzz-world.txt", error, sizeof(error)) < 0) {
    fprintf(stderr, "fuzz-step: %s\n", error);
    abort();
  }
  fixtures.sink = fopen("/dev/null", "w");
  if (!fixtures.sink) abort();
  fixtures.ready = 1;
  return &fixtures;
}

static void step_view(crafter_params *params, int small) {
  params->view[0] = small ? 5 : 9, params->view[1] = small ? 7 : 9;
  params->size[0] = small ? 20 : 64, params->size[1] = small ? 35 : 64;
}

static const crafter_level_set *step_levels(step_fixtures *fixtures, int small) {
  if (!fixtures->have_levels[small]) {
    crafter_params params;
    crafter_params_default(&params);
    params.area[0] = params.area[1] = 16;
    params.seed = 5;
    step_view(&params, small);
    char error[512];
    if (crafter_levels_generate(&fixtures->levels[small], &params, NULL, 1, 3, 1, error,
                                sizeof(error)) < 0) {
      fprintf(stderr, "fuzz-step: %s\n", error);
      abort();
    }
    fixtures->have_levels[small] = 1;
  }
  return &fixtures->levels[small];
}

/* Requests of more than this many pixels a side (up to the 4096 the
 * protocol allows) are cut to it, so that a run stays fast. */
#define STEP_RENDER_SIDE 512

/* The binary input as the session will read it: a step's N action bytes,
 * or where a step would start a request: 253 render (13 bytes), 252 save
 * (5 bytes), 251 load (9 bytes and the state's). */
static void step_shrink_renders(uint8_t *input, size_t size, int envs) {
  size_t at = 0;
  while (at < size) {
    if (input[at] == CRAFTER_PROTOCOL_SAVE) {
      at += CRAFTER_PROTOCOL_SAVE_BYTES;
      continue;
    }
    if (input[at] == CRAFTER_PROTOCOL_LOAD) {
      if (size - at < CRAFTER_PROTOCOL_LOAD_BYTES) return;
      uint32_t state = crafter_get_u32(input + at + 5);
      if (state > size - at - CRAFTER_PROTOCOL_LOAD_BYTES) return;
      at += CRAFTER_PROTOCOL_LOAD_BYTES + state;
      continue;
    }
    if (input[at] != CRAFTER_PROTOCOL_RENDER) {
      at += (size_t)envs;
      continue;
    }
    if (size - at < CRAFTER_PROTOCOL_RENDER_BYTES) return;
    for (int field = 5; field <= 9; field += 4) {
      uint32_t side = crafter_get_u32(input + at + field);
      if (side > STEP_RENDER_SIDE && side <= CRAFTER_PROTOCOL_RENDER_MAX)
        crafter_put_u32(input + at + field, STEP_RENDER_SIDE);
    }
    at += CRAFTER_PROTOCOL_RENDER_BYTES;
  }
}

static int step_run(const uint8_t *data, size_t size, int binary) {
  if (size < 3) return 0;
  step_fixtures *fixtures = step_fixtures_get();
  uint8_t choice[3] = {data[0], data[1], data[2]};
  crafter_session_options options;
  memset(&options, 0, sizeof(options));
  crafter_run *run = &options.run;
  crafter_run_init(run);
  run->params.area[0] = run->params.area[1] = 16;
  run->params.seed = 3;
  int small = choice[2] >> 7;
  step_view(&run->params, small);
  run->params.length = choice[2] & 31;
  run->params.reward = !(choice[1] & 64);
  run->episodes = (choice[2] >> 5) & 3;
  run->envs = 1 + (choice[0] & 3) % 3;
  run->threads = 1;
  options.binary = binary;
  run->obs_kind = ((choice[0] >> 2) & 7) % (binary ? 4 : 6);
  options.shm_fd = -1;
  options.shm_slots = 2;
  if (binary) {
    options.manual_reset = (choice[0] >> 5) & 1;
    options.semantic_info = (choice[0] >> 6) & 1;
    options.final_obs = (choice[0] >> 7) & 1 && !options.manual_reset;
    if (choice[1] & 16) run->threads = 2;
  } else {
    options.info = ((choice[0] >> 5) & 3) % 3;
  }
  if (choice[1] & 1) run->task_pool = &fixtures->pool;
  if (choice[1] & 2) {
    run->level_set = step_levels(fixtures, small);
    run->params.seed = run->level_set->seed;
    run->levels.order = choice[0] & 1 ? CRAFTER_LEVEL_ORDER_SEQUENTIAL
                                      : CRAFTER_LEVEL_ORDER_RANDOM;
  } else {
    if (choice[1] & 4) {
      run->world = &fixtures->world;
      run->params.area[0] = fixtures->world.width;
      run->params.area[1] = fixtures->world.height;
    }
    if (choice[1] & 128) run->first_episode = CRAFTER_EPISODE_MAX - 1;
  }
  if (choice[1] & 8) run->record_path = "/dev/null";

  int input = memfd_create("fuzz-step-input", 0);
  int shm = binary && (choice[1] & 32) ? memfd_create("fuzz-step-shm", 0) : -1;
  uint8_t *stream = malloc(size - 3 + 1);
  if (input < 0 || (binary && (choice[1] & 32) && shm < 0) || !stream) abort();
  memcpy(stream, data + 3, size - 3);
  if (binary) step_shrink_renders(stream, size - 3, run->envs);
  if (write(input, stream, size - 3) != (ssize_t)(size - 3) || lseek(input, 0, SEEK_SET) != 0)
    abort();
  free(stream);
  options.shm_fd = shm;
  char error[1024];
  int status = crafter_session_run(&options, input, fixtures->sink, error, sizeof(error));
  /* Options crafter-step accepts never fail as options. */
  if (status == 2) {
    fprintf(stderr, "fuzz-step: options refused: %s\n", error);
    abort();
  }
  /* For whoever writes seeds: how each run ended. */
  if (getenv("FUZZ_VERBOSE"))
    fprintf(stderr, "fuzz-step: status %d%s%s\n", status, status ? ": " : "", status ? error : "");
  close(input);
  if (shm >= 0) close(shm);
  clearerr(fixtures->sink);
  return 0;
}

#endif
