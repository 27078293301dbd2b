/* cc_state: a Craftax-Classic environment's whole state (game/cc_env.h),
 * saved to go back to it: run/jstate.h's saved state with Craftax-Classic's
 * row, in format version 2 of crafter-state(5): the
 * magic CRAFTSTA, the version, the game's number, the size, the Env seed,
 * the episode counter and the schedule's key, then every field of
 * Craftax's EnvState in its order as 32-bit words (integers and booleans
 * as their values, float32 as their bits, the key as it is), and the
 * CRC-32 of all that.  The words are the ones JAX's state flattens to, so
 * a JAX state converts to a saved state and back with nothing lost
 * (crafter_toolkit.craftax.from_jax and to_jax).
 *
 * A loader checks everything before it changes anything and refuses, in
 * one sentence: another magic, version or game (a Crafter state, version
 * 1, is named as Crafter's), a size or checksum that does not match, a
 * value no state of the game can hold (a block type outside 0..16, a flag
 * other than 0 or 1, the player off the map, a number not finite or
 * beyond 2**30 in size, an arrow's direction outside -1..1). */
#ifndef CRAFTER_CC_STATE_H
#define CRAFTER_CC_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "game/cc_env.h"
#include "game/cc_words.h"
#include "run/jstate.h"
#include "run/state.h"


enum {
  CRAFTER_CC_STATE_HEADER_BYTES = CRAFTER_JSTATE_HEADER_BYTES,
  CRAFTER_CC_STATE_BYTES = CRAFTER_CC_STATE_HEADER_BYTES + 4 * CRAFTER_CC_STATE_WORDS + 4
};

/* The state of *env into out (CRAFTER_CC_STATE_BYTES). */
void crafter_cc_state_save(const crafter_cc_env *env, uint8_t out[CRAFTER_CC_STATE_BYTES]);

/* Loads a saved state into *env: 0, or -1 with the reason (env untouched). */
int crafter_cc_state_load(crafter_cc_env *env, const uint8_t *state, size_t size, char *error,
                          size_t error_size);

#endif
