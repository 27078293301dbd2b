/* jstate: the saved state of an environment of a JAX game (run/jgame.h),
 * format version 2 of crafter-state(5): the magic CRAFTSTA, the version,
 * the game's number, the size, the Env seed, the episode counter and the
 * schedule's key, the count of words, then every field of the game's
 * EnvState in its order as 32-bit words (the row's to_words: integers and
 * booleans as their values, float32 as their bits, the key as it is), and
 * the CRC-32 of all that.  The words are the ones JAX's state flattens
 * to, so a JAX state converts to a saved state and back with nothing lost
 * (crafter_toolkit.craftax.from_jax and to_jax).
 *
 * A loader checks everything before it changes anything and refuses, in
 * one sentence: another magic, version or game (a Crafter state, version
 * 1, is named as Crafter's), a size or checksum that does not match, a
 * count of words not the game's, a value no state of the game can hold
 * (the row's from_words says which). */
#ifndef CRAFTER_JSTATE_H
#define CRAFTER_JSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "run/jgame.h"

enum { CRAFTER_JSTATE_HEADER_BYTES = 56 };

/* The bytes of a saved state of game g. */
static inline size_t crafter_jstate_bytes(const crafter_jgame *g) {
  return CRAFTER_JSTATE_HEADER_BYTES + 4 * (size_t)g->state_words + 4;
}

/* The state of env (an env of g) into out (crafter_jstate_bytes). */
void crafter_jstate_save(const crafter_jgame *g, void *env, uint8_t *out);

/* The saved form of a bare state, as of seed `seed`, episode `episode`
 * and schedule key `key`, into out (crafter_jstate_bytes). */
void crafter_jstate_save_state(const crafter_jgame *g, const void *state, int64_t seed,
                               int64_t episode, crafter_jaxkey key, uint8_t *out);

/* Loads a saved state into env: 0, or -1 with the reason (env
 * untouched).  The world key, which a saved state does not hold, becomes
 * zero; no reset is due. */
int crafter_jstate_load(const crafter_jgame *g, void *env, const uint8_t *state, size_t size,
                        char *error, size_t error_size);

#endif
