/* cc_levels: Craftax-Classic's level sets (crafter-levels(5), format
 * version 2).  Level k of the set of seed S is the first world of seed
 * S+k-1 under Craftax's schedule: generate_world(k') with
 * key = PRNGKey(S+k-1); key, k' = split(key) -- what env.reset(k') gives
 * and crafter-step --seed S+k-1 starts with.  It is generated once and
 * kept as the whole EnvState; an episode on it starts from a copy, while
 * the keys of the env's own schedule go on as without levels (a step's
 * key_reset, or the reset's key, is drawn and not used: the copy stands
 * for env.reset's state).
 *
 * A level file holds the set: a header that names the game, then every
 * level as its number, the key its world was generated from and the
 * state as a saved state of crafter-state(5) (format version 2: seed
 * S+k-1, episode 1, the schedule's key after that reset), deflated and
 * checksummed.  A reader checks every checksum and each state as a load
 * does, and refuses a level file of Crafter (version 1) naming both
 * games. */
#ifndef CRAFTER_CC_LEVELS_H
#define CRAFTER_CC_LEVELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/cc_env.h"
#include "run/levels.h"

#define CRAFTER_CC_LEVELS_VERSION 2

typedef struct crafter_cc_level_set {
  int64_t seed;              /* level k is the first world of seed seed + k - 1 */
  int64_t first;             /* level i (from 0) is level number first + i */
  int count;
  crafter_cc_state *states;  /* [i]: level first + i's start state */
  crafter_jaxkey *keys;      /* [i]: the key it was generated from */
} crafter_cc_level_set;

/* The key level `number` of seed `seed` is generated from: the reset key
 * of seed seed + number - 1. */
crafter_jaxkey crafter_cc_level_key(int64_t seed, int64_t number);

/* Generates levels first .. first+count-1 of seed `seed` on `threads`
 * threads.  0, or -1 with a reason (a set too large for the memory the
 * process may take is refused before anything is generated). */
int crafter_cc_levels_generate(crafter_cc_level_set *set, int64_t seed, int64_t first, int count,
                               int threads, char *error, size_t error_size);

/* Writes the set to `path` ("-": standard output) whole.  0, or -1 with
 * a reason. */
int crafter_cc_levels_save(const crafter_cc_level_set *set, const char *path, char *error,
                           size_t error_size);

/* Reads a level file, checking it whole.  0, or -1 with a reason naming
 * the path (a Crafter level file is refused naming both games). */
int crafter_cc_levels_load(crafter_cc_level_set *set, const char *path, char *error,
                           size_t error_size);
int crafter_cc_levels_parse(crafter_cc_level_set *set, const uint8_t *bytes, size_t size,
                            const char *name, char *error, size_t error_size);

void crafter_cc_levels_free(crafter_cc_level_set *set);

/* A line of the set's parameters, then a line per level: its number, its
 * key, the CRC-32 of its state's words (crafter-state(5)) and the
 * player's position. */
void crafter_cc_levels_write_list(FILE *out, const crafter_cc_level_set *set);

/* The CRC-32 of a state's EnvState words, as a saved state holds them. */
uint32_t crafter_cc_level_crc(const crafter_cc_state *state);

/* Starts env's next episode on level `index` (from 0): its state a copy
 * of the level's, its world key the level's, its episode counter the
 * level's number.  The schedule's key is left as it is. */
void crafter_cc_levels_start(crafter_cc_env *env, const crafter_cc_level_set *set, int index);

/* Pickers (levels.h) for `envs` envs sharing the set: an array to free,
 * or NULL when memory ran out. */
crafter_level_picker *crafter_cc_level_pickers_new(const crafter_cc_level_set *set, int order,
                                                   int envs);

#endif
