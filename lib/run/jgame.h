/* jgame: the games exact to a JAX reference (Craftax-Classic, and the
 * games after it), as the layers that run and keep games drive them: one
 * row of operations a game, over its own environment, state and
 * observations.  Batches (run/jbatch.h), saved states (run/jstate.h),
 * level sets (run/jlevels.h) and crafter-step's session
 * (tools/jsession.h) are written once over a row; a game of this kind
 * adds its modules, a row here (jgame.c) and one in game/games.c.
 *
 * What every such game shares, and the rows rely on: Craftax's seed
 * schedule (key = PRNGKey(S); key, k = split(key); reset(k); then each
 * step key, k = split(key); step(k, ...)) and auto-reset (the step's
 * key_step, key_reset = split(k); an episode that ends starts the next
 * from key_reset); a state of 32-bit words in JAX's flattening order; a
 * symbolic observation of float32 values; pixels of float32 RGB.
 *
 * An environment is the game's own struct (env_size bytes, envs laid out
 * one after another in an array); the generic code reaches it only
 * through the row. */
#ifndef CRAFTER_JGAME_H
#define CRAFTER_JGAME_H

#include <stddef.h>
#include <stdint.h>

#include "game/games.h"
#include "kernels/jaxrng.h"

struct crafter_json_writer;

enum {
  CRAFTER_JGAME_ACHIEVEMENTS_MAX = 96, /* room for any game's achievements */
  CRAFTER_JGAME_ITEMS_MAX = 64,        /* ... and for its reported inventory */
  CRAFTER_JGAME_UNLOCKED_WORDS = (CRAFTER_JGAME_ACHIEVEMENTS_MAX + 31) / 32
};

/* A step's outcome, in the terms of the games table (game/games.h): the
 * achievements and the inventory in the order the game reports them.
 * When the step ended the episode (done), length, achievements and
 * inventory are the ended episode's. */
typedef struct crafter_jgame_outcome {
  float reward; /* the game's float32 reward */
  int done;
  int died;     /* done, and by the player's death (else the time limit's, or a win's) */
  uint32_t unlocked[CRAFTER_JGAME_UNLOCKED_WORDS]; /* first unlocked at the step: report
                                                      index k is bit k % 32 of word k / 32 */
  int32_t length; /* the episode's timestep after the step */
  uint8_t achievements[CRAFTER_JGAME_ACHIEVEMENTS_MAX]; /* after the step, 0 or 1 */
  int32_t inventory[CRAFTER_JGAME_ITEMS_MAX];           /* after the step */
} crafter_jgame_outcome;

/* Where an env keeps what every game's env keeps. */
typedef struct crafter_jenv_fields {
  crafter_jaxkey *key;       /* the schedule's key, carried from step to step */
  crafter_jaxkey *world_key; /* the key the episode under way's world came from (zero after
                                a load) */
  int64_t *seed, *episode;   /* the Env seed; 1 in the first episode */
  int *reset_due;            /* act_only ended the episode, the auto-reset still to come */
} crafter_jenv_fields;

typedef struct crafter_jgame {
  int game;              /* enum crafter_game_id: its row of game/games.h tells its name,
                            actions and achievements */
  int items;             /* the inventory's length as reported, named item_names[] */
  const char *const *item_names;
  int map_rows, map_columns, floors; /* the map of a floor, and floors (1: one) */
  int view_columns, view_rows;       /* the window of the symbolic observation */

  /* The environment. */
  size_t env_size;
  size_t state_size;
  crafter_jenv_fields (*fields)(void *env);
  /* Before an env's start (its memory zero): the observation kind it
   * will be played with, where the game's env depends on it (Craftax's
   * pixels env resets from another key); NULL where none does. */
  void (*configure)(void *env, int obs_kind);
  void *(*state)(void *env);
  /* Seed `seed`'s schedule and its first episode; 0 or -1 (memory). */
  int (*start)(void *env, int64_t seed);
  /* An episode where a recording began: its world from world_key, the
   * schedule going on from schedule_key. */
  int (*start_keys)(void *env, int64_t seed, int64_t episode, crafter_jaxkey world_key,
                    crafter_jaxkey schedule_key);
  /* The next episode with the schedule's next key; 0 or -1. */
  int (*restart)(void *env);
  /* The step of `count` envs (envs + i * env_size with actions[i]; a
   * negative action leaves env i and its outcome alone), without the
   * auto-reset: an env whose episode ended stays in its last state with
   * the reset due. */
  void (*act_only_many)(void *envs, const int *actions, int count,
                        crafter_jgame_outcome *outcomes);
  /* The auto-reset when due: 0, or -1 (memory). */
  int (*reset_due)(void *env);
  /* The keys the episode after the env's would start with: after a step
   * that ended it (the reset due), the auto-reset's world key and the
   * schedule's key; otherwise a restart's (key, k = split(key), the world
   * from k). */
  void (*next_keys)(void *env, crafter_jaxkey *world_key, crafter_jaxkey *schedule_key);
  /* Over a state: the game is over (done); its timestep; its
   * achievements (0 or 1) and inventory in report order. */
  int (*over)(const void *state);
  int32_t (*timestep)(const void *state);
  void (*report)(const void *state, uint8_t *achievements, int32_t *inventory);
  /* The player's row and column, and its facing as (dx, dy) on the map. */
  void (*position)(const void *state, int32_t *row, int32_t *column, int facing[2]);
  /* The keys a state record (crafter-step --info state) carries after
   * "pos" and "facing", the game's own ("sleeping", "light_level", ...). */
  void (*state_json)(const void *state, struct crafter_json_writer *json);

  /* Worlds. */
  crafter_jaxkey (*reset_key)(int64_t seed); /* the key seed's first world comes from */
  crafter_jaxkey (*schedule_start)(int64_t seed, crafter_jaxkey *key);
  crafter_jaxkey (*schedule_next)(crafter_jaxkey *key);
  int (*generate)(crafter_jaxkey key, void *state); /* the world of `key`: 0 or -1 */

  /* The state as words (crafter-state(5)): state_words of them. */
  int state_words;
  void (*to_words)(const void *state, uint32_t *words);
  /* Checks every word, then fills *state; else -1 with "FIELD[K] holds
   * WHY" in error, *state untouched. */
  int (*from_words)(void *state, const uint32_t *words, char *error, size_t error_size);

  /* Observations: symbolic_size float32 values; pixels of pixel_rows x
   * pixel_columns x 3 float32, drawn with textures of textures_size
   * bytes (loaded from a folder of the reference's assets, or the
   * toolkit's own); NULL where the game has none. */
  size_t symbolic_size;
  void (*symbolic)(const void *state, float *out);
  /* The text observation into out (snprintf's sizes: the length it
   * needs is returned); NULL where the game has none. */
  size_t (*text)(const void *state, char *out, size_t size);
  int pixel_rows, pixel_columns;
  size_t textures_size;
  const char *assets_folder; /* what --textures names, for messages */
  int (*textures_load)(void *textures, const char *folder, char *error, size_t error_size);
  int (*textures_builtin)(void *textures, char *error, size_t error_size);
  int (*pixels)(const void *state, const void *textures, float *out);
} crafter_jgame;

/* The row of game `game`; NULL for a game that is not of this kind
 * (Crafter). */
const crafter_jgame *crafter_jgame_of(int game);

/* The games table's row of g's game. */
static inline const crafter_game_info *crafter_jgame_info(const crafter_jgame *g) {
  return crafter_game_info_of(g->game);
}

/* Env i of an array of a game's envs. */
static inline void *crafter_jgame_env(const crafter_jgame *g, void *envs, int i) {
  return (uint8_t *)envs + g->env_size * (size_t)i;
}

/* Whether report index k is set in an outcome's unlocked bits; sets it. */
static inline int crafter_jgame_unlocked(const crafter_jgame_outcome *o, int k) {
  return (int)((o->unlocked[k / 32] >> (k % 32)) & 1u);
}
static inline void crafter_jgame_unlock(crafter_jgame_outcome *o, int k) {
  o->unlocked[k / 32] |= 1u << (k % 32);
}

#endif
