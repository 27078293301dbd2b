/* jbatch: many environments of a JAX game (run/jgame.h) stepped
 * together on threads, with their observations.  Env i plays seed
 * seed + i; every env has its own schedule and shares nothing, so the
 * results do not depend on the number of threads. */
#ifndef CRAFTER_JBATCH_H
#define CRAFTER_JBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "run/jgame.h"
#include "run/jlevels.h"

typedef struct crafter_jbatch crafter_jbatch;

/* The action that starts an env's next episode instead of stepping it
 * (the row's restart). */
#define CRAFTER_JBATCH_RESET 255

typedef struct crafter_jbatch_options {
  const crafter_jgame *game;
  int obs_kind;          /* enum crafter_obs_kind the envs are played with (the row's
                            configure) */
  int envs, threads;
  int64_t seed;
  int64_t first_episode; /* the episode counter of every env's first episode (1) */
  int symbolic;          /* 1: every env's symbolic observation is made after each
                            start and step (the row's symbolic), 0: none */
  int final_obs;         /* with symbolic, 1: also the observation of the state an episode
                            ended in, before the auto-reset replaces it (for recordings) */
  /* not NULL (symbolic 0): every env's pixel observation is made instead,
   * drawn with these textures (the row's pixels: pixel_rows x
   * pixel_columns x 3 float32), which must outlive the batch */
  const void *pixels;
  int manual_reset;      /* 1: an episode that ends is not reset: the env stays in its last
                            state and plays on from it, as Craftax's env without auto-reset
                            does, each step still drawing its key from the schedule, until
                            it is sent CRAFTER_JBATCH_RESET */
  const crafter_jlevel_set *levels; /* every episode, the first too, starts on a level of
                                       this set (jlevels.h) instead of a world of its own;
                                       NULL: none */
  int level_order;       /* with levels: enum crafter_level_order */
} crafter_jbatch_options;

/* Makes the envs and starts each one's first episode.  NULL with a
 * reason. */
crafter_jbatch *crafter_jbatch_new(const crafter_jbatch_options *options, char *error,
                                   size_t error_size);
void crafter_jbatch_free(crafter_jbatch *batch);

/* Observations land in `buffer` (envs * crafter_jbatch_obs_bytes bytes,
 * little-endian float32) from the next step on, instead of the batch's
 * own memory (what is there is not copied); NULL goes back to it. */
void crafter_jbatch_redirect(crafter_jbatch *batch, uint8_t *buffer);

/* One step: env i plays actions[i] (one of the game's), or restarts
 * with CRAFTER_JBATCH_RESET (its outcome: reward 0, not done).
 * started[i] is 1 for the envs whose next episode began at the step
 * (ended and auto-reset, or restarted).  Returns 0, or -1 when memory
 * ran out. */
int crafter_jbatch_step(crafter_jbatch *batch, const uint8_t *actions,
                        crafter_jgame_outcome *outcomes, uint8_t *started);

/* With manual_reset: whether env i's episode has ended and waits for
 * CRAFTER_JBATCH_RESET. */
int crafter_jbatch_waiting(const crafter_jbatch *batch, int i);

/* Makes env i's observation again, after its state changed between steps
 * (a load); with manual_reset, env i then waits for a reset when its
 * state is one an episode ended in. */
void crafter_jbatch_observe(crafter_jbatch *batch, int i);

/* With final_obs: env i's observation of the state its episode ended in
 * at the last step, when that step ended it (obs_bytes; else NULL). */
const uint8_t *crafter_jbatch_final_obs(const crafter_jbatch *batch, int i);

/* Env i's observation (obs_bytes; none: NULL), env (the game's own
 * struct) and count. */
const uint8_t *crafter_jbatch_obs(const crafter_jbatch *batch, int i);
size_t crafter_jbatch_obs_bytes(const crafter_jbatch *batch);
void *crafter_jbatch_env(crafter_jbatch *batch, int i);
int crafter_jbatch_envs(const crafter_jbatch *batch);

#endif
