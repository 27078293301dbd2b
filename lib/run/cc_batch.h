/* cc_batch: many Craftax-Classic environments (game/cc_env.h) stepped
 * together on threads, with their observations.  Env i plays seed
 * seed + i; every env has its own schedule and shares nothing, so the
 * results do not depend on the number of threads. */
#ifndef CRAFTER_CC_BATCH_H
#define CRAFTER_CC_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "game/cc_env.h"
#include "run/cc_levels.h"

typedef struct crafter_cc_batch crafter_cc_batch;

/* The action that starts an env's next episode instead of stepping it
 * (crafter_cc_env_restart). */
#define CRAFTER_CC_BATCH_RESET 255

typedef struct crafter_cc_batch_options {
  int envs, threads;
  int64_t seed;
  int64_t first_episode; /* the episode counter of every env's first episode (1) */
  int symbolic;          /* 1: every env's symbolic observation is made after each
                            start and step (cc_render.h), 0: none */
  int final_obs;         /* with symbolic, 1: also the observation of the state an episode
                            ended in, before the auto-reset replaces it (for recordings) */
  /* not NULL (symbolic 0): every env's pixel observation is made instead,
   * drawn with these textures (cc_render.h: CRAFTER_CC_PIXELS_SIZE
   * float32), which must outlive the batch */
  const struct crafter_cc_textures *pixels;
  int manual_reset;      /* 1: an episode that ends is not reset: the env stays in its last
                            state and plays on from it, as Craftax's env without auto-reset
                            does, each step still drawing its key from the schedule, until
                            it is sent CRAFTER_CC_BATCH_RESET */
  const crafter_cc_level_set *levels; /* every episode, the first too, starts on a level of
                                         this set (cc_levels.h) instead of a world of its
                                         own; NULL: none */
  int level_order;       /* with levels: enum crafter_level_order */
} crafter_cc_batch_options;

/* Makes the envs and starts each one's first episode.  NULL with a
 * reason. */
crafter_cc_batch *crafter_cc_batch_new(const crafter_cc_batch_options *options, char *error,
                                       size_t error_size);
void crafter_cc_batch_free(crafter_cc_batch *batch);

/* Observations land in `buffer` (envs * crafter_cc_batch_obs_bytes bytes,
 * little-endian float32) from the next step on, instead of the batch's
 * own memory (what is there is not copied); NULL goes back to it. */
void crafter_cc_batch_redirect(crafter_cc_batch *batch, uint8_t *buffer);

/* One step: env i plays actions[i] (0..16), or restarts with
 * CRAFTER_CC_BATCH_RESET (its outcome: reward 0, not done).  started[i]
 * is 1 for the envs whose next episode began at the step (ended and
 * auto-reset, or restarted).  Returns 0, or -1 when memory ran out. */
int crafter_cc_batch_step(crafter_cc_batch *batch, const uint8_t *actions,
                          crafter_cc_outcome *outcomes, uint8_t *started);

/* With manual_reset: whether env i's episode has ended and waits for
 * CRAFTER_CC_BATCH_RESET. */
int crafter_cc_batch_waiting(const crafter_cc_batch *batch, int i);

/* Makes env i's observation again, after its state changed between steps
 * (a load); with manual_reset, env i then waits for a reset when its
 * state is one an episode ended in. */
void crafter_cc_batch_observe(crafter_cc_batch *batch, int i);

/* With final_obs: env i's observation of the state its episode ended in
 * at the last step, when that step ended it (obs_bytes; else NULL). */
const uint8_t *crafter_cc_batch_final_obs(const crafter_cc_batch *batch, int i);

/* Env i's observation (obs_bytes; none: NULL), env and count. */
const uint8_t *crafter_cc_batch_obs(const crafter_cc_batch *batch, int i);
size_t crafter_cc_batch_obs_bytes(const crafter_cc_batch *batch);
crafter_cc_env *crafter_cc_batch_env(crafter_cc_batch *batch, int i);
int crafter_cc_batch_envs(const crafter_cc_batch *batch);

#endif
