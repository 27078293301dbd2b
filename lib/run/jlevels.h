/* jlevels: level sets of a JAX game (run/jgame.h; crafter-levels(5),
 * format version 2).  Level k of the set of seed S is the first world of
 * seed S+k-1 under Craftax's schedule: generate_world(k') with
 * key = PRNGKey(S+k-1); key, k' = split(key) -- what env.reset(k') gives
 * and crafter-step --seed S+k-1 starts with.  It is generated once and
 * kept as the whole EnvState; an episode on it starts from a copy, while
 * the keys of the env's own schedule go on as without levels (a step's
 * key_reset, or the reset's key, is drawn and not used: the copy stands
 * for env.reset's state).
 *
 * A level file holds the set: a header that names the game, then every
 * level as its number, the key its world was generated from and the
 * state as a saved state of crafter-state(5) (run/jstate.h: seed S+k-1,
 * episode 1, the schedule's key after that reset), deflated and
 * checksummed.  A reader checks every checksum and each state as a load
 * does, and refuses a level file of another game (Crafter's, version 1,
 * too) naming both games. */
#ifndef CRAFTER_JLEVELS_H
#define CRAFTER_JLEVELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run/jgame.h"
#include "run/levels.h"

#define CRAFTER_JLEVELS_VERSION 2

typedef struct crafter_jlevel_set {
  const crafter_jgame *game;
  int64_t seed;              /* level k is the first world of seed seed + k - 1 */
  int64_t first;             /* level i (from 0) is level number first + i */
  int count;
  uint8_t *states;           /* count states of game->state_size bytes */
  crafter_jaxkey *keys;      /* [i]: the key level first + i was generated from */
} crafter_jlevel_set;

/* Level i's (from 0) start state. */
static inline void *crafter_jlevel_state(const crafter_jlevel_set *set, int i) {
  return set->states + set->game->state_size * (size_t)i;
}

/* The key level `number` of seed `seed` is generated from: the reset key
 * of seed seed + number - 1. */
crafter_jaxkey crafter_jlevel_key(const crafter_jgame *g, int64_t seed, int64_t number);

/* Generates levels first .. first+count-1 of seed `seed` on `threads`
 * threads.  0, or -1 with a reason (a set too large for the memory the
 * process may take is refused before anything is generated). */
int crafter_jlevels_generate(crafter_jlevel_set *set, const crafter_jgame *game, int64_t seed,
                             int64_t first, int count, int threads, char *error,
                             size_t error_size);

/* Writes the set to `path` ("-": standard output) whole.  0, or -1 with
 * a reason. */
int crafter_jlevels_save(const crafter_jlevel_set *set, const char *path, char *error,
                         size_t error_size);

/* Reads a level file of game g, checking it whole.  0, or -1 with a
 * reason naming the path (another game's level file is refused naming
 * both games). */
int crafter_jlevels_load(crafter_jlevel_set *set, const crafter_jgame *g, const char *path,
                         char *error, size_t error_size);
int crafter_jlevels_parse(crafter_jlevel_set *set, const crafter_jgame *g, const uint8_t *bytes,
                          size_t size, const char *name, char *error, size_t error_size);

void crafter_jlevels_free(crafter_jlevel_set *set);

/* A line of the set's parameters, then a line per level: its number, its
 * key, the CRC-32 of its state's words (crafter-state(5)) and the
 * player's position (column, row). */
void crafter_jlevels_write_list(FILE *out, const crafter_jlevel_set *set);

/* The CRC-32 of a state's EnvState words, as a saved state holds them. */
uint32_t crafter_jlevel_crc(const crafter_jgame *g, const void *state);

/* Starts env's next episode on level `index` (from 0): its state a copy
 * of the level's, its world key the level's, its episode counter the
 * level's number.  The schedule's key is left as it is. */
void crafter_jlevels_start(void *env, const crafter_jlevel_set *set, int index);

/* Pickers (levels.h) for `envs` envs sharing the set: an array to free,
 * or NULL when memory ran out. */
crafter_level_picker *crafter_jlevel_pickers_new(const crafter_jlevel_set *set, int order,
                                                 int envs);

#endif
