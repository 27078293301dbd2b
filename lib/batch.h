/* batch: many environments stepped together, across threads, with
 * auto-reset.  Environment i has the seed params.seed + i; each resets on
 * its own when its episode ends.  Results are the same whatever the number
 * of threads: every env is stepped by one thread at a time and envs share
 * nothing. */
#ifndef CRAFTER_BATCH_H
#define CRAFTER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "env.h"
#include "levels.h"
#include "textures.h"

typedef struct crafter_batch crafter_batch;

typedef struct crafter_batch_options {
  crafter_params params;
  int64_t first_episode;
  int envs;
  int threads;                       /* worker threads, 1 or more */
  int obs_kind;                      /* enum crafter_obs_kind, not text */
  const crafter_textures *textures;  /* for pixels */
  const crafter_config *config;      /* the rules every env plays by; NULL: Crafter's */
  int manual_reset;                  /* 1: an env whose episode ended is not reset until
                                        it is given CRAFTER_BATCH_RESET (meanwhile it plays
                                        on, as Crafter's Env does); 0: at once */
  const crafter_level_set *levels;   /* episodes start on levels of this set (its seed
                                        and area rule), or NULL for fresh worlds */
  int level_order;                   /* enum crafter_level_order */
} crafter_batch_options;

/* The action that starts an env's next episode now instead of stepping. */
#define CRAFTER_BATCH_RESET 255

/* Makes the envs and threads and resets every env.  NULL with a reason. */
crafter_batch *crafter_batch_new(const crafter_batch_options *options, char *error,
                                 size_t error_size);
void crafter_batch_free(crafter_batch *batch);

/* Steps every env with its action (actions[i] in 0..16) and, unless
 * manual_reset, resets those whose episode ended: results[i] is the step's
 * outcome and the observation is that of the new episode.  An env given
 * CRAFTER_BATCH_RESET is reset instead of stepped (its result: reward 0,
 * not done, discount 1).  reset[i] (if not NULL) is set to 1 for the envs
 * that reset. */
void crafter_batch_step(crafter_batch *batch, const uint8_t *actions,
                        crafter_step_result *results, uint8_t *reset);

/* Makes the observations land in `buffer` (envs * obs_bytes bytes, which
 * the caller keeps alive) from the next step or reset on, instead of the
 * batch's own memory: a protocol frame can be filled without a copy.
 * The buffer may change between steps; every step observes every env. */
void crafter_batch_redirect(crafter_batch *batch, uint8_t *buffer);

/* Without manual_reset: from the next step on, an env whose episode ends
 * also leaves the observation that ended it (obs_bytes) at its place in
 * `buffer` (envs * obs_bytes bytes, kept alive by the caller) before it
 * is reset; the other envs' places are left alone.  NULL stops it. */
void crafter_batch_keep_final(crafter_batch *batch, uint8_t *buffer);

/* Without manual_reset: the achievement counts env i ended its last
 * episode with (the env itself is on its next episode by then). */
const int32_t *crafter_batch_final_achievements(const crafter_batch *batch, int i);

/* The observation of env i (obs_bytes long), and its env. */
const uint8_t *crafter_batch_observation(const crafter_batch *batch, int i);
size_t crafter_batch_observation_bytes(const crafter_batch *batch);
crafter_env *crafter_batch_env(crafter_batch *batch, int i);

/* Bytes of state held per environment (env, world, renderer, buffers). */
size_t crafter_batch_bytes_per_env(const crafter_batch *batch);

#endif
