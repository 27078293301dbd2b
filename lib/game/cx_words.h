/* cx_words: Craftax's state (crafter_cx_state, the full game) as the
 * 32-bit words JAX's EnvState flattens to, and back.
 *
 * The words are every leaf of craftax 1.6.1's EnvState in the order
 * jax.tree_util.tree_flatten gives them (cx_worldgen.h lists them), each
 * array in row-major order, one word a value: integers as their value
 * (two's complement), booleans as 0 or 1, float32 numbers as their bits,
 * the key's two words as they are.  Of the ranged creatures, who have two
 * slots on each floor where the state keeps room for three, only the two
 * used slots are words.  The count is CRAFTER_CX_STATE_WORDS (84,033).
 *
 * The reader takes only values a state of the game can hold: block types
 * 0 to 36, item types 0 to 4, flags 0 or 1, the player's position and the
 * ladders' on the 48x48 map, the player's floor 0 to 8, its direction 0
 * to 4, projectiles' directions -1 to 1, creature types 0 to 2 for the
 * passive ones and 0 to 7 for the others, enchantments 0 to 2, the
 * potions' mapping a permutation of 0 to 5, every other integer within
 * 2**30 in size and every float32 number finite and within 2**30 in size
 * (creatures' and plants' positions are not held to the map: JAX's
 * projectiles leave it). */
#ifndef CRAFTER_CX_WORDS_H
#define CRAFTER_CX_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "game/cx_worldgen.h"

enum {
  CRAFTER_CX_STATE_WORDS =
      4 * CRAFTER_CX_LEVELS * CRAFTER_CX_MAP_SIZE * CRAFTER_CX_MAP_SIZE /* the maps */
      + 4 * CRAFTER_CX_LEVELS + 2 * CRAFTER_CX_LEVELS /* ladders, chests, kills */
      + 2 + 2 + 5 + 2 + 5 + 4 /* the player */
      + 10 + CRAFTER_CX_ARMOUR + 3 + CRAFTER_CX_POTIONS + 1 /* the inventory */
      + 6 * CRAFTER_CX_LEVELS * (CRAFTER_CX_MAX_MELEE_MOBS + CRAFTER_CX_MAX_PASSIVE_MOBS +
                                 CRAFTER_CX_MAX_RANGED_MOBS + CRAFTER_CX_MAX_MOB_PROJECTILES +
                                 CRAFTER_CX_MAX_PLAYER_PROJECTILES)
      + 2 * CRAFTER_CX_LEVELS * (CRAFTER_CX_MAX_MOB_PROJECTILES +
                                 CRAFTER_CX_MAX_PLAYER_PROJECTILES) /* their directions */
      + 4 * CRAFTER_CX_MAX_GROWING_PLANTS + CRAFTER_CX_POTIONS + CRAFTER_CX_SPELLS + 2 +
      CRAFTER_CX_ARMOUR + 2 + 1 + CRAFTER_CX_ACHIEVEMENTS + 2 + 1
};

/* The words of *s into words[CRAFTER_CX_STATE_WORDS]. */
void crafter_cx_state_to_words(const crafter_cx_state *s, uint32_t *words);

/* The state of words[CRAFTER_CX_STATE_WORDS] into *s: 0, with *s cleared
 * whole (padding too) and filled; or -1, *s untouched, with the first
 * field and index holding a value no state can hold, said as
 * "FIELD[K] holds WHY" for a saved state's loader to put after "a saved
 * state whose" ("map[130] holds 37, no block type (0 to 36)";
 * "potion_mapping holds a potion twice: it is no permutation of 0 to 5"),
 * as game/cc_words.h's reader says it. */
int crafter_cx_state_from_words(crafter_cx_state *s, const uint32_t *words, char *error,
                                size_t error_size);

/* The name of the field word `index` (0 to CRAFTER_CX_STATE_WORDS - 1)
 * belongs to, as JAX names the leaf (inventory.wood, melee_mobs.health,
 * ...), and the index of the value within the field into *within; NULL
 * for an index beyond the words. */
const char *crafter_cx_word_field(long index, long *within);

#endif
