#include "run/jbatch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/pool.h"

struct crafter_jbatch {
  crafter_jbatch_options options;
  const crafter_jgame *game;
  uint8_t *envs;
  crafter_pool *pool;
  uint8_t *own_obs, *obs;
  uint8_t *final;     /* with final_obs: the last observations of episodes that ended */
  uint8_t *ended;     /* [i]: env i's episode ended at the last step */
  uint8_t *waiting;   /* with manual_reset, [i]: env i's episode ended, not yet reset */
  crafter_level_picker *pickers; /* with levels: env i's at [i] */
  float *scratch;     /* an observation a env where a buffer is not aligned for floats */
  size_t obs_bytes;
  /* the step being made */
  const uint8_t *actions;
  crafter_jgame_outcome *outcomes;
  uint8_t *started;
  int failed;
};

static void *env_of(crafter_jbatch *batch, int i) {
  return batch->envs + batch->game->env_size * (size_t)i;
}

/* Env i's observation into out (little-endian float32): drawn in place
 * where the buffer is aligned for floats (their bytes already
 * little-endian), else through a buffer of the batch's own. */
static void observe_into(crafter_jbatch *batch, int i, uint8_t *buffer) {
  uint8_t *out = buffer + batch->obs_bytes * (size_t)i;
  const crafter_jgame *g = batch->game;
  const void *state = g->state(env_of(batch, i));
  size_t count = batch->obs_bytes / 4;
  float *values = NULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if ((uintptr_t)out % _Alignof(float) == 0) values = (float *)(void *)out;
#endif
  float *drawn = values ? values : batch->scratch + count * (size_t)i;
  if (batch->options.pixels)
    g->pixels(state, batch->options.pixels, drawn);
  else
    g->symbolic(state, drawn);
  if (!values)
    for (size_t k = 0; k < count; k++) crafter_put_f32(out + 4 * k, drawn[k]);
}

static void observe(crafter_jbatch *batch, int i) {
  if (batch->obs_bytes) observe_into(batch, i, batch->obs);
}

static void start_job(void *context, int i) {
  crafter_jbatch *batch = context;
  const crafter_jgame *g = batch->game;
  void *env = env_of(batch, i);
  if (g->configure) g->configure(env, batch->options.obs_kind);
  if (batch->options.levels) {
    /* The schedule of seed + i, its first world a level's. */
    memset(env, 0, g->env_size);
    if (g->configure) g->configure(env, batch->options.obs_kind);
    crafter_jenv_fields f = g->fields(env);
    *f.seed = batch->options.seed + i;
    g->schedule_start(*f.seed, f.key);
    crafter_jlevels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
    observe(batch, i);
    return;
  }
  if (g->start(env, batch->options.seed + i) != 0)
    __atomic_store_n(&batch->failed, 1, __ATOMIC_RELAXED);
  *g->fields(env).episode = batch->options.first_episode;
  observe(batch, i);
}

/* The next episode asked for by a reset: a level's copy (the reset's key
 * drawn from the schedule and not used), or the world of that key. */
static int restart(crafter_jbatch *batch, int i) {
  const crafter_jgame *g = batch->game;
  void *env = env_of(batch, i);
  if (!batch->options.levels) return g->restart(env);
  g->schedule_next(g->fields(env).key);
  crafter_jlevels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
  return 0;
}

/* After a step (the row's act_only_many): an episode that ended starts
 * the next, Craftax's auto-reset or a level's copy, or with manual_reset
 * its last state stays (Craftax's step without auto-reset) and the env
 * waits.  0, or -1 when memory for a world cannot be had. */
static int after_step(crafter_jbatch *batch, int i, int done) {
  const crafter_jgame *g = batch->game;
  void *env = env_of(batch, i);
  if (batch->options.manual_reset) {
    *g->fields(env).reset_due = 0;
    if (done) batch->waiting[i] = 1;
    return 0;
  }
  if (done && batch->options.levels) {
    crafter_jlevels_start(env, batch->options.levels, crafter_level_pick(&batch->pickers[i]));
    return 0;
  }
  return g->reset_due(env);
}

/* The envs step in chunks, one job each: a chunk's envs hash their keys
 * side by side where the game does (the row's act_only_many). */
enum { CHUNK = 16 };

static void step_chunk(void *context, int c) {
  crafter_jbatch *batch = context;
  int first = c * CHUNK, end = batch->options.envs - first < CHUNK ? batch->options.envs
                                                                    : first + CHUNK;
  int actions[CHUNK] = {0};
  for (int i = first; i < end; i++)
    actions[i - first] =
        batch->actions[i] == CRAFTER_JBATCH_RESET ? -1 : (int)batch->actions[i];
  const crafter_jgame *g = batch->game;
  g->act_only_many(env_of(batch, first), actions, end - first, batch->outcomes + first);
  for (int i = first; i < end; i++) {
    void *env = env_of(batch, i);
    crafter_jgame_outcome *outcome = &batch->outcomes[i];
    int failed;
    if (batch->actions[i] == CRAFTER_JBATCH_RESET) {
      failed = restart(batch, i);
      memset(outcome, 0, sizeof *outcome);
      const void *state = g->state(env);
      outcome->length = g->timestep(state);
      g->report(state, outcome->achievements, outcome->inventory);
      batch->started[i] = 1;
      if (batch->waiting) batch->waiting[i] = 0;
    } else {
      /* The state the episode ended in is observed before the auto-reset. */
      if (batch->final && outcome->done) observe_into(batch, i, batch->final);
      failed = after_step(batch, i, outcome->done);
      batch->started[i] = (uint8_t)(outcome->done && !batch->options.manual_reset);
    }
    if (batch->ended)
      batch->ended[i] = batch->actions[i] != CRAFTER_JBATCH_RESET && outcome->done;
    if (failed) __atomic_store_n(&batch->failed, 1, __ATOMIC_RELAXED);
    observe(batch, i);
  }
}

crafter_jbatch *crafter_jbatch_new(const crafter_jbatch_options *options, char *error,
                                   size_t error_size) {
  crafter_jbatch *batch = calloc(1, sizeof *batch);
  if (!batch) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  batch->options = *options;
  const crafter_jgame *g = batch->game = options->game;
  if (batch->options.first_episode < 1) batch->options.first_episode = 1;
  batch->obs_bytes =
      options->pixels     ? 4 * (size_t)g->pixel_rows * (size_t)g->pixel_columns * 3
      : options->symbolic ? 4 * g->symbolic_size
                          : 0;
  batch->envs = calloc((size_t)options->envs, g->env_size);
  batch->own_obs = batch->obs_bytes ? malloc(batch->obs_bytes * (size_t)options->envs) : NULL;
  batch->scratch = batch->obs_bytes ? malloc(batch->obs_bytes * (size_t)options->envs) : NULL;
  int finals = options->final_obs && batch->obs_bytes;
  if (finals) {
    batch->final = malloc(batch->obs_bytes * (size_t)options->envs);
    batch->ended = calloc((size_t)options->envs, 1);
  }
  if (options->manual_reset) batch->waiting = calloc((size_t)options->envs, 1);
  if (options->levels)
    batch->pickers = crafter_jlevel_pickers_new(options->levels, options->level_order,
                                                options->envs);
  batch->pool = crafter_pool_new(options->threads < 1 ? 1 : options->threads);
  if (!batch->envs || (batch->obs_bytes && (!batch->own_obs || !batch->scratch)) || !batch->pool ||
      (finals && (!batch->final || !batch->ended)) ||
      (options->manual_reset && !batch->waiting) || (options->levels && !batch->pickers)) {
    if (batch->pool || !batch->envs)
      snprintf(error, error_size, "out of memory");
    else
      snprintf(error, error_size, "cannot start %d threads", options->threads);
    crafter_jbatch_free(batch);
    return NULL;
  }
  batch->obs = batch->own_obs;
  crafter_pool_run(batch->pool, options->envs, start_job, batch);
  if (batch->failed) {
    snprintf(error, error_size, "out of memory");
    crafter_jbatch_free(batch);
    return NULL;
  }
  return batch;
}

void crafter_jbatch_free(crafter_jbatch *batch) {
  if (!batch) return;
  crafter_pool_free(batch->pool);
  free(batch->envs);
  free(batch->own_obs);
  free(batch->scratch);
  free(batch->final);
  free(batch->ended);
  free(batch->waiting);
  free(batch->pickers);
  free(batch);
}

void crafter_jbatch_redirect(crafter_jbatch *batch, uint8_t *buffer) {
  batch->obs = buffer ? buffer : batch->own_obs;
}

int crafter_jbatch_step(crafter_jbatch *batch, const uint8_t *actions,
                        crafter_jgame_outcome *outcomes, uint8_t *started) {
  batch->actions = actions;
  batch->outcomes = outcomes;
  batch->started = started;
  crafter_pool_run(batch->pool, (batch->options.envs + CHUNK - 1) / CHUNK, step_chunk, batch);
  return batch->failed ? -1 : 0;
}

int crafter_jbatch_waiting(const crafter_jbatch *batch, int i) {
  return batch->waiting && batch->waiting[i];
}

void crafter_jbatch_observe(crafter_jbatch *batch, int i) {
  observe(batch, i);
  if (batch->waiting)
    batch->waiting[i] = (uint8_t)batch->game->over(batch->game->state(env_of(batch, i)));
}

const uint8_t *crafter_jbatch_final_obs(const crafter_jbatch *batch, int i) {
  return batch->final && batch->ended[i] ? batch->final + batch->obs_bytes * (size_t)i : NULL;
}

const uint8_t *crafter_jbatch_obs(const crafter_jbatch *batch, int i) {
  return batch->obs_bytes ? batch->obs + batch->obs_bytes * (size_t)i : NULL;
}
size_t crafter_jbatch_obs_bytes(const crafter_jbatch *batch) { return batch->obs_bytes; }
void *crafter_jbatch_env(crafter_jbatch *batch, int i) { return env_of(batch, i); }
int crafter_jbatch_envs(const crafter_jbatch *batch) { return batch->options.envs; }
