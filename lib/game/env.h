/* env: the life of one environment, as crafter.Env: parameters, the
 * episode counter and world seeds, reset, step, reward and termination.
 * crafter/crafter.h declares what a program may do with an env (make it,
 * reset and step it, read its players); here its insides, and what the
 * library's own modules do besides: an env in memory of their own
 * (crafter_env_init), an observer called at every reset and step, custom
 * starts, games made ahead of time.
 *
 * An env owns its memory; no global state, so envs may run in parallel
 * threads as long as each thread has its own. */
#ifndef CRAFTER_ENV_H
#define CRAFTER_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "crafter/crafter.h"
#include "game/config.h"
#include "game/game.h"

/* Makes the observation after every reset and step.  The reference
 * renders at night with noise drawn from the world's generator, so an
 * observer must draw exactly crafter_env_night_draws() uniforms when it is
 * night; without an observer the env skips those draws itself. */
typedef void (*crafter_observe_fn)(void *observer, crafter_env *env);

struct crafter_env {
  crafter_params params;
  const crafter_config *config; /* never NULL: the caller's, or crafter_config_builtin */
  crafter_game game;
  int64_t episode;    /* the episode counter: 1 after the first reset */
  int64_t world_seed; /* of the current episode */
  int players;        /* players sharing the world: 1 (Crafter) to CRAFTER_PLAYERS_MAX */
  int32_t last_health[CRAFTER_PLAYERS_MAX];
  uint32_t unlocked[CRAFTER_PLAYERS_MAX]; /* achievements unlocked so far this episode */
  int item_rows;      /* rows of the view given to the inventory */
  int unit[2];        /* pixels per cell */
  int local_pixels[2]; /* size of the local view in pixels */
  crafter_observe_fn observe;
  void *observer;
  double *daylight_table; /* the first day's daylight, lent to the games */
};

/* Makes an env, in memory of the caller's, that plays Crafter; returns 0,
 * or -1 with a reason in `error`.  crafter_env_fini frees what it holds. */
int crafter_env_init(crafter_env *env, const crafter_params *params, char *error,
                     size_t error_size);

/* Makes an env that plays by `config` (NULL: Crafter's own).  The env
 * keeps the pointer: the config must stay unchanged and alive until the
 * env is freed; many envs may share one.  `params` rules over
 * config->params (pass &config->params to take the file's). */
int crafter_env_init_config(crafter_env *env, const crafter_params *params,
                            const crafter_config *config, char *error, size_t error_size);
void crafter_env_fini(crafter_env *env);

/* Players join by crafter_game_spread_players (crafter_env_set_players). */

/* Starts the next episode as crafter_env_reset does, then, before the
 * observation is made, lets `build` change the fresh game (replace the
 * world, for instance: see worldfile.h).  The generator has drawn exactly
 * what the generated world drew, so an episode whose world `build` leaves
 * as it was plays as the plain reset's.  Returns 0, -1 when memory ran
 * out or `build` returned -1, or CRAFTER_PLAYERS_UNFIT. */
typedef int (*crafter_build_fn)(crafter_game *game, void *context);
int crafter_env_reset_custom(crafter_env *env, crafter_build_fn build, void *context);

/* Starts an episode on a start state the caller copied into env->game
 * (a level's: levels.h), as episode `episode` with world seed
 * `world_seed`: what every reset does once its game is in place (check
 * crafter_env_no_room after it). */
void crafter_env_begin_restored(crafter_env *env, int64_t episode, int64_t world_seed);

/* A game made ahead of time: the fresh world of a coming episode, made on
 * another thread while the env plays the current one.  Resetting with it
 * is the same as a plain reset, only the world generation happened
 * elsewhere. */
typedef struct crafter_prepared {
  crafter_game game;
  int64_t seed, episode, world_seed; /* the Env seed and episode it is the world of */
  int ready;
} crafter_prepared;

/* Allocates a prepared game for envs like `env`; 0, or -1 out of memory. */
int crafter_prepared_init(crafter_prepared *prepared, const crafter_env *env);
void crafter_prepared_free(crafter_prepared *prepared);

/* Generates the world of `episode` of `env`'s seed into `prepared`.  Reads
 * only the env's parameters and config: safe while another thread steps
 * the env.  Returns 0, or -1 if memory ran out. */
int crafter_env_prepare(const crafter_env *env, int64_t episode, crafter_prepared *prepared);

/* Starts the next episode with the prepared game when it is that episode's
 * (of the env's seed and next episode counter, which a loaded state may
 * have changed since it was made), else with a plain reset.  Returns 0,
 * -1 if memory ran out, or CRAFTER_PLAYERS_UNFIT. */
int crafter_env_reset_prepared(crafter_env *env, crafter_prepared *prepared);

/* Sets (or with NULL clears) the observer called after reset and step. */
void crafter_env_set_observer(crafter_env *env, crafter_observe_fn observe, void *observer);

/* Uniform draws the renderer takes for one player's view when it is
 * night: one per pixel of the local view.  After every start and step the
 * views of the players whose bodies are in the world draw, in the
 * players' order. */
long crafter_env_night_draws(const crafter_env *env);

/* The player's position and the live objects. */
static inline const crafter_object *crafter_env_objects(const crafter_env *env, int *count) {
  *count = env->game.world.object_count;
  return env->game.world.objects;
}

#endif
