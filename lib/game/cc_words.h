/* cc_words: a Craftax-Classic state as the 32-bit words JAX's EnvState
 * flattens to (jax.tree_util.tree_flatten: every field in its order, the
 * creatures' used slots only; integers and booleans as their values,
 * float32 numbers as their bits, the key as it is): what a saved state
 * holds (crafter-state(5), run/jstate.h) and crafter_toolkit.craftax
 * converts JAX states from and to. */
#ifndef CRAFTER_CC_WORDS_H
#define CRAFTER_CC_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "game/cc_worldgen.h"

enum { CRAFTER_CC_STATE_WORDS = 8343 /* the words of Craftax-Classic's EnvState */ };

/* The words of *state into words[CRAFTER_CC_STATE_WORDS]. */
void crafter_cc_state_to_words(const crafter_cc_state *state, uint32_t *words);

/* Checks every word for a value no state of the game can hold (a block
 * type outside 0..16, a flag other than 0 or 1, the player off the map, a
 * number not finite or beyond 2**30 in size, an arrow's direction outside
 * -1..1); then fills *state, cleared whole first.  0, or -1 with "FIELD[K]
 * holds WHY" in error and *state untouched. */
int crafter_cc_state_from_words(crafter_cc_state *state, const uint32_t *words, char *error,
                                size_t error_size);

#endif
