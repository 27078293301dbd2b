/* batch: many environments stepped together across threads, each an
 * episode runner (episode.h).  Environment i has the seed params.seed + i.
 * Results are the same whatever the number of threads: every env is
 * stepped by one thread at a time, envs share nothing, and whatever
 * crosses envs (what ends, what is restarted, what is written) happens in
 * env order on the caller's thread. */
#ifndef CRAFTER_BATCH_H
#define CRAFTER_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "game/tasks.h"
#include "run/episode.h"
#include "run/levels.h"
#include "run/state.h"
#include "run/traj.h"
#include "run/worldfile.h"
#include "view/textures.h"

typedef struct crafter_batch crafter_batch;

typedef struct crafter_batch_options {
  crafter_episode_options episode;   /* what every env's runner shares (its level_envs is the
                                        batch's envs); its textures draw pixels, its recording
                                        makes every env record its episodes (a recorder of
                                        that header each); with several players, actions and
                                        records come one per player, env by env, and an env
                                        starts its next episode when its player 0 is given
                                        CRAFTER_BATCH_RESET */
  int envs;
  int threads;                       /* worker threads, 1 or more */
  int manual_reset;                  /* 1: an env whose episode ended is not reset until
                                        it is given CRAFTER_BATCH_RESET (meanwhile it plays
                                        on, as Crafter's Env does); 0: at once */
} crafter_batch_options;

/* The action that starts an env's next episode now instead of stepping. */
#define CRAFTER_BATCH_RESET 255

/* Makes the envs and threads and starts every env's first episode.  NULL
 * with a reason. */
crafter_batch *crafter_batch_new(const crafter_batch_options *options, char *error,
                                 size_t error_size);

/* The same, saying why it failed: 0 with *batch made; CRAFTER_PLAYERS_UNFIT
 * (game.h) when a first world cannot hold the players, or -1, with the
 * reason. */
int crafter_batch_create(const crafter_batch_options *options, crafter_batch **batch,
                         char *error, size_t error_size);
void crafter_batch_free(crafter_batch *batch);

/* Work on some envs at once: job(context, i, runner) for every env i with
 * which[i] set (which NULL: every env), spread over the threads, each env
 * on one thread; returns once all are done.  Jobs must touch only their
 * env's runner and what the context keeps apart per env. */
typedef void (*crafter_batch_job)(void *context, int i, crafter_episode *episode);
void crafter_batch_each(crafter_batch *batch, const uint8_t *which, crafter_batch_job job,
                        void *context);

/* Starts the next episode of every env marked in `which`, on the threads
 * (with fresh worlds made ahead where there are several). */
void crafter_batch_start(crafter_batch *batch, const uint8_t *which);

/* What happens to an episode that is left, in crafter_batch_advance:
 * called on the caller's thread in env order, once for each env whose
 * episode finished at the step (finished 1) or is given up by
 * CRAFTER_BATCH_RESET (finished 0), before any env starts its next one.
 * Returns whether the env starts its next episode (an env given up always
 * does; without manual_reset a finished one normally does). */
typedef int (*crafter_batch_left)(void *context, int i, crafter_episode *episode, int finished);

/* One step of every env: env i plays actions[i] (0..16), or with
 * CRAFTER_BATCH_RESET starts its next episode instead (its record: reward
 * 0, not done, discount 1).  Without manual_reset an env whose episode
 * finished starts the next one in the same step, if `left` (or, NULL,
 * always) says so.  records[i] is the step's outcome (the goal flag
 * included, whatever started after it), started[i] (if not NULL) 1 for the
 * envs that started an episode.  Before an env restarts its observation
 * (when asked for with crafter_batch_keep_final) and its achievement counts
 * are kept (crafter_batch_final_achievements). */
void crafter_batch_advance(crafter_batch *batch, const uint8_t *actions,
                           crafter_step_outcome *records, uint8_t *started,
                           crafter_batch_left left, void *context);

/* crafter_batch_advance without a hook, for callers that need only the
 * game's outcome of each step. */
void crafter_batch_step(crafter_batch *batch, const uint8_t *actions,
                        crafter_step_result *results, uint8_t *reset);

/* Makes the observations land in `buffer` (envs * obs_bytes bytes, which
 * the caller keeps alive) from the next step or start on, instead of the
 * batch's own memory: a protocol frame can be filled without a copy.
 * The buffer may change between steps. */
void crafter_batch_redirect(crafter_batch *batch, uint8_t *buffer);

/* Without manual_reset: from the next step on, an env whose episode ends
 * also leaves the observation that ended it (obs_bytes) at its place in
 * `buffer` (envs * obs_bytes bytes, kept alive by the caller) before it
 * is reset; the other envs' places are left alone.  NULL stops it. */
void crafter_batch_keep_final(crafter_batch *batch, uint8_t *buffer);

/* The achievement counts env i ended its last episode with (the env
 * itself may be on its next episode by then). */
const int32_t *crafter_batch_final_achievements(const crafter_batch *batch, int i);

/* The observation of env i (obs_bytes long; text: NUL-terminated), made
 * now if it was not yet since the last step; its env and runner. */
const uint8_t *crafter_batch_observation(crafter_batch *batch, int i);
size_t crafter_batch_observation_bytes(const crafter_batch *batch);
crafter_env *crafter_batch_env(crafter_batch *batch, int i);
crafter_episode *crafter_batch_episode(crafter_batch *batch, int i);

/* What went wrong in a step or start that the runners could not say
 * otherwise (recording out of memory, a world that cannot start), or NULL:
 * the caller stops with it. */
const char *crafter_batch_failure(const crafter_batch *batch);

/* With several threads and fresh worlds, helper threads make each env's
 * next world ahead (a prepared world) while the envs play.  settle waits
 * until every world queued is made (making some on the caller's thread);
 * hold(1) keeps the helpers from making any until hold(0).  For tests
 * and measurements that must know which starts find their world made;
 * nothing else needs them.  Without prepared worlds they do nothing. */
void crafter_batch_settle(crafter_batch *batch);
void crafter_batch_hold(crafter_batch *batch, int held);

/* Env i's whole state (state.h) into out[0..capacity) when it fits; its
 * size either way.  Between steps. */
size_t crafter_batch_save_state(crafter_batch *batch, int i, uint8_t *out, size_t capacity);

/* Loads a state into env i between steps (crafter_state_load_episode),
 * its observation made.  A world made ahead for env i's next episode is
 * made again for the seed and episode counter the state brings.  0, or -1
 * with a reason, env i untouched. */
int crafter_batch_load_state(crafter_batch *batch, int i, const uint8_t *state, size_t size,
                             char *error, size_t error_size);

/* Players a world (1 for Crafter's one). */
int crafter_batch_players(const crafter_batch *batch);

/* Episodes started since the batch was made, every env's first included;
 * in *prepared (if not NULL) how many of them started on a world made
 * ahead by a helper thread (with several threads and fresh worlds: all
 * but each env's first, unless a start came before its world was made). */
int64_t crafter_batch_starts(const crafter_batch *batch, int64_t *prepared);

/* Bytes of state held per environment (env, world, renderer, buffers). */
size_t crafter_batch_bytes_per_env(const crafter_batch *batch);

#endif
