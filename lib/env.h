/* env: the life of one environment, as crafter.Env: parameters, the
 * episode counter and world seeds, reset, step, reward and termination.
 *
 * An env owns its memory; no global state, so envs may run in parallel
 * threads as long as each thread has its own. */
#ifndef CRAFTER_ENV_H
#define CRAFTER_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "params.h"
#include "game.h"

typedef struct crafter_step_result {
  double reward;      /* by the config's reward keys; 0 when params.reward is off */
  int done;
  double discount;
  uint32_t unlocked;  /* bit i: achievement i unlocked for the first time now */
  double info_reward; /* Crafter's info['reward']: the reward whether params.reward is on
                         or off */
} crafter_step_result;

typedef struct crafter_env crafter_env;

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

/* Makes an env that plays Crafter; returns 0, or -1 with a reason in
 * `error`. */
int crafter_env_init(crafter_env *env, const crafter_params *params, char *error,
                     size_t error_size);

/* Makes an env that plays by `config` (NULL: Crafter's own).  The env
 * keeps the pointer: the config must stay unchanged and alive until the
 * env is freed; many envs may share one.  `params` rules over
 * config->params (pass &config->params to take the file's). */
int crafter_env_init_config(crafter_env *env, const crafter_params *params,
                            const crafter_config *config, char *error, size_t error_size);
void crafter_env_fini(crafter_env *env);

/* Makes every episode from the next start a game of `players` players
 * (1 to CRAFTER_PLAYERS_MAX; crafter(7), SEVERAL PLAYERS): player 0 where
 * Crafter's player starts, the others spread by
 * crafter_game_spread_players.  0, or -1 with a reason. */
int crafter_env_set_players(crafter_env *env, int players, char *error, size_t error_size);

/* The next reset() starts episode `episode` (Crafter counts from 1). */
void crafter_env_set_next_episode(crafter_env *env, int64_t episode);

/* Starts the next episode; returns 0, -1 if memory ran out, or
 * CRAFTER_PLAYERS_UNFIT (game.h) when the world has no room for every player
 * (crafter_env_no_room then says why). */
int crafter_env_reset(crafter_env *env);

/* After a start: 0 when every player is in the world, else -1 with the
 * reason (the world has no room for them all). */
int crafter_env_no_room(const crafter_env *env, char *error, size_t error_size);

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

/* One step with an action in [0, CRAFTER_ACTION_COUNT). */
void crafter_env_step(crafter_env *env, int action, crafter_step_result *result);

/* One step of every player: actions[p] and results[p] for p in [0,
 * env->players).  A player's done is its death or the time limit; the
 * world's episode is over when every player's is.  A player who died
 * before gets a reward of 0 and is done again. */
void crafter_env_step_players(crafter_env *env, const int *actions, crafter_step_result *results);

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

/* info['semantic'] as player `player` sees it: material ids, objects as
 * 13 + kind, and in games of several players the other players than
 * `player` as CRAFTER_SEMANTIC_OTHER_PLAYER; x-major. */
#define CRAFTER_SEMANTIC_OTHER_PLAYER (CRAFTER_MATERIAL_COUNT + CRAFTER_OBJECT_KIND_COUNT)
void crafter_env_semantic(const crafter_env *env, int player, uint8_t *out);

#endif
