#include "run/cc_batch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/pool.h"
#include "view/cc_render.h"
#include "view/render.h"

struct crafter_cc_batch {
  crafter_cc_batch_options options;
  crafter_cc_env *envs;
  crafter_pool *pool;
  uint8_t *own_obs, *obs;
  uint8_t *final;     /* with final_obs: the last observations of episodes that ended */
  uint8_t *ended;     /* [i]: env i's episode ended at the last step */
  uint8_t *waiting;   /* with manual_reset, [i]: env i's episode ended, not yet reset */
  crafter_level_picker *pickers; /* with levels: env i's at [i] */
  size_t obs_bytes;
  /* the step being made */
  const uint8_t *actions;
  crafter_cc_outcome *outcomes;
  uint8_t *started;
  int failed;
};

/* The pixel observation of env i into out (little-endian float32): in
 * place where the buffer is aligned for floats, as the symbolic one. */
static void draw_into(crafter_cc_batch *batch, int i, uint8_t *out) {
  const crafter_cc_state *state = &batch->envs[i].state;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if ((uintptr_t)out % _Alignof(float) == 0) {
    crafter_cc_render_pixels(state, batch->options.pixels, (float *)(void *)out);
    return;
  }
#endif
  float values[CRAFTER_CC_PIXELS_SIZE];
  crafter_cc_render_pixels(state, batch->options.pixels, values);
  for (int k = 0; k < CRAFTER_CC_PIXELS_SIZE; k++) crafter_put_f32(out + 4 * k, values[k]);
}

static void observe_into(crafter_cc_batch *batch, int i, uint8_t *buffer) {
  uint8_t *out = buffer + batch->obs_bytes * (size_t)i;
  if (batch->options.pixels) {
    draw_into(batch, i, out);
    return;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The floats are already their little-endian bytes: drawn in place
   * where the buffer is aligned for them. */
  if ((uintptr_t)out % _Alignof(float) == 0) {
    crafter_cc_render_symbolic(&batch->envs[i].state, (float *)(void *)out);
    return;
  }
  float values[CRAFTER_SYMBOLIC_SIZE];
  crafter_cc_render_symbolic(&batch->envs[i].state, values);
  memcpy(out, values, sizeof values);
#else
  float values[CRAFTER_SYMBOLIC_SIZE];
  crafter_cc_render_symbolic(&batch->envs[i].state, values);
  for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) crafter_put_f32(out + 4 * k, values[k]);
#endif
}

static void observe(crafter_cc_batch *batch, int i) {
  if (batch->obs_bytes) observe_into(batch, i, batch->obs);
}

static void start_job(void *context, int i) {
  crafter_cc_batch *batch = context;
  crafter_cc_env *env = &batch->envs[i];
  if (batch->options.levels) {
    /* The schedule of seed + i, its first world a level's. */
    memset(env, 0, sizeof *env);
    env->seed = batch->options.seed + i;
    crafter_cc_schedule_start(env->seed, &env->key);
    crafter_cc_levels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
    observe(batch, i);
    return;
  }
  if (crafter_cc_env_start(env, batch->options.seed + i) != 0)
    __atomic_store_n(&batch->failed, 1, __ATOMIC_RELAXED);
  env->episode = batch->options.first_episode;
  observe(batch, i);
}

/* The next episode asked for by a reset: a level's copy (the reset's key
 * drawn from the schedule and not used), or the world of that key. */
static int restart(crafter_cc_batch *batch, int i) {
  crafter_cc_env *env = &batch->envs[i];
  if (!batch->options.levels) return crafter_cc_env_restart(env);
  crafter_cc_schedule_next(&env->key);
  crafter_cc_levels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
  return 0;
}

/* After a step (crafter_cc_env_act_only): an episode that ended starts
 * the next, Craftax's auto-reset or a level's copy, or with manual_reset
 * its last state stays (Craftax's step without auto-reset) and the env
 * waits.  0, or -1 when memory for a world cannot be had. */
static int after_step(crafter_cc_batch *batch, int i, int done) {
  crafter_cc_env *env = &batch->envs[i];
  if (batch->options.manual_reset) {
    env->reset_due = 0;
    if (done) batch->waiting[i] = 1;
    return 0;
  }
  if (done && batch->options.levels) {
    crafter_cc_levels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
    return 0;
  }
  return crafter_cc_env_reset_due(env);
}

/* The envs step in chunks, one job each: a chunk's envs hash their keys
 * side by side (crafter_cc_env_act_only_many). */
enum { CHUNK = 16 };

static void step_chunk(void *context, int c) {
  crafter_cc_batch *batch = context;
  int first = c * CHUNK, end = batch->options.envs - first < CHUNK ? batch->options.envs
                                                                    : first + CHUNK;
  int actions[CHUNK] = {0};
  for (int i = first; i < end; i++)
    actions[i - first] =
        batch->actions[i] == CRAFTER_CC_BATCH_RESET ? -1 : (int)batch->actions[i];
  crafter_cc_env_act_only_many(batch->envs + first, actions, end - first, batch->outcomes + first);
  for (int i = first; i < end; i++) {
    crafter_cc_env *env = &batch->envs[i];
    crafter_cc_outcome *outcome = &batch->outcomes[i];
    int failed;
    if (batch->actions[i] == CRAFTER_CC_BATCH_RESET) {
      failed = restart(batch, i);
      memset(outcome, 0, sizeof *outcome);
      outcome->length = env->state.timestep;
      crafter_cc_report_achievements(&env->state, outcome->achievements);
      crafter_cc_report_inventory(&env->state, outcome->inventory);
      batch->started[i] = 1;
      if (batch->waiting) batch->waiting[i] = 0;
    } else {
      /* The state the episode ended in is observed before the auto-reset. */
      if (batch->final && outcome->done) observe_into(batch, i, batch->final);
      failed = after_step(batch, i, outcome->done);
      batch->started[i] = (uint8_t)(outcome->done && !batch->options.manual_reset);
    }
    if (batch->ended)
      batch->ended[i] = batch->actions[i] != CRAFTER_CC_BATCH_RESET && outcome->done;
    if (failed) __atomic_store_n(&batch->failed, 1, __ATOMIC_RELAXED);
    observe(batch, i);
  }
}

crafter_cc_batch *crafter_cc_batch_new(const crafter_cc_batch_options *options, char *error,
                                       size_t error_size) {
  crafter_cc_batch *batch = calloc(1, sizeof *batch);
  if (!batch) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  batch->options = *options;
  if (batch->options.first_episode < 1) batch->options.first_episode = 1;
  batch->obs_bytes = options->pixels     ? 4 * (size_t)CRAFTER_CC_PIXELS_SIZE
                     : options->symbolic ? 4 * (size_t)CRAFTER_SYMBOLIC_SIZE
                                         : 0;
  batch->envs = calloc((size_t)options->envs, sizeof *batch->envs);
  batch->own_obs = batch->obs_bytes ? malloc(batch->obs_bytes * (size_t)options->envs) : NULL;
  int finals = options->final_obs && batch->obs_bytes;
  if (finals) {
    batch->final = malloc(batch->obs_bytes * (size_t)options->envs);
    batch->ended = calloc((size_t)options->envs, 1);
  }
  if (options->manual_reset) batch->waiting = calloc((size_t)options->envs, 1);
  if (options->levels)
    batch->pickers = crafter_cc_level_pickers_new(options->levels, options->level_order,
                                                  options->envs);
  batch->pool = crafter_pool_new(options->threads < 1 ? 1 : options->threads);
  if (!batch->envs || (batch->obs_bytes && !batch->own_obs) || !batch->pool ||
      (finals && (!batch->final || !batch->ended)) ||
      (options->manual_reset && !batch->waiting) || (options->levels && !batch->pickers)) {
    if (batch->pool || !batch->envs)
      snprintf(error, error_size, "out of memory");
    else
      snprintf(error, error_size, "cannot start %d threads", options->threads);
    crafter_cc_batch_free(batch);
    return NULL;
  }
  batch->obs = batch->own_obs;
  crafter_pool_run(batch->pool, options->envs, start_job, batch);
  if (batch->failed) {
    snprintf(error, error_size, "out of memory");
    crafter_cc_batch_free(batch);
    return NULL;
  }
  return batch;
}

void crafter_cc_batch_free(crafter_cc_batch *batch) {
  if (!batch) return;
  crafter_pool_free(batch->pool);
  free(batch->envs);
  free(batch->own_obs);
  free(batch->final);
  free(batch->ended);
  free(batch->waiting);
  free(batch->pickers);
  free(batch);
}

void crafter_cc_batch_redirect(crafter_cc_batch *batch, uint8_t *buffer) {
  batch->obs = buffer ? buffer : batch->own_obs;
}

int crafter_cc_batch_step(crafter_cc_batch *batch, const uint8_t *actions,
                          crafter_cc_outcome *outcomes, uint8_t *started) {
  batch->actions = actions;
  batch->outcomes = outcomes;
  batch->started = started;
  crafter_pool_run(batch->pool, (batch->options.envs + CHUNK - 1) / CHUNK, step_chunk, batch);
  return batch->failed ? -1 : 0;
}

int crafter_cc_batch_waiting(const crafter_cc_batch *batch, int i) {
  return batch->waiting && batch->waiting[i];
}

void crafter_cc_batch_observe(crafter_cc_batch *batch, int i) {
  observe(batch, i);
  if (batch->waiting) batch->waiting[i] = (uint8_t)crafter_cc_game_over(&batch->envs[i].state);
}

const uint8_t *crafter_cc_batch_final_obs(const crafter_cc_batch *batch, int i) {
  return batch->final && batch->ended[i] ? batch->final + batch->obs_bytes * (size_t)i : NULL;
}

const uint8_t *crafter_cc_batch_obs(const crafter_cc_batch *batch, int i) {
  return batch->obs_bytes ? batch->obs + batch->obs_bytes * (size_t)i : NULL;
}
size_t crafter_cc_batch_obs_bytes(const crafter_cc_batch *batch) { return batch->obs_bytes; }
crafter_cc_env *crafter_cc_batch_env(crafter_cc_batch *batch, int i) { return &batch->envs[i]; }
int crafter_cc_batch_envs(const crafter_cc_batch *batch) { return batch->options.envs; }
