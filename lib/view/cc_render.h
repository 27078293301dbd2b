/* cc_render: Craftax-Classic's symbolic observation of a Craftax-Classic
 * state ("cc", as in game/cc_worldgen): the float32 vector craftax
 * 1.6.1's render_craftax_symbolic (craftax/craftax_classic/renderer.py)
 * returns, the observation of Craftax-Classic-Symbolic-v1.
 *
 * Its layout is view/render's symbolic observation's (render.h says it;
 * CRAFTER_SYMBOLIC_SIZE values, 1345), drawn from a crafter_cc_state
 * instead of Crafter's game:
 *   [0, 1323)  the 7x9 window of the map centred on the player, row-major,
 *              rows the state's first coordinate; 21 channels a cell:
 *              the block one-hot (Craftax's BlockType, the map's numbers),
 *              outside the map OUT_OF_BOUNDS; then zombie, cow, skeleton,
 *              arrow, from the creature slots as Craftax writes them;
 *   [1323, 1339) the inventory in Inventory's order, then health, food,
 *              drink, energy: each count / 10 in float16 as Craftax
 *              computes it (crafter_tenth_in_half);
 *   [1339, 1343) the direction one-hot, player_direction - 1 (LEFT RIGHT
 *              UP DOWN; a direction outside 1..4 sets none);
 *   1343 light_level as it is, 1344 is_sleeping as 0 or 1.
 *
 * The creatures are written slot by slot, zombies, cows, skeletons,
 * arrows, as Craftax's scatter does: each slot writes its mask (1 when
 * the slot is live and in the window, else 0) at its place relative to
 * the window; a negative row or column counts once from the window's end,
 * as numpy indexing does, and a place outside the window after that is
 * not written.  So a dead slot's 0 can clear an earlier creature's 1.
 *
 * Promise: for the first state of every episode crafter_cc_generate_world
 * makes, the vector is bit for bit the observation JAX returns from
 * env.reset with the pinned reference (tests/unit/test-cc-render.c
 * against CRC-32s JAX printed for seeds 0..9999, tests/craftax-obs.t
 * against JAX itself on fresh seeds, and on states with creatures,
 * inventory, vitals, direction, light and sleep changed at random).
 * Nothing here keeps state between calls. */
#ifndef CRAFTER_CC_RENDER_H
#define CRAFTER_CC_RENDER_H

#include "game/cc_worldgen.h"

/* Craftax-Classic's symbolic observation of *state into
 * out[CRAFTER_SYMBOLIC_SIZE] (view/render.h). */
void crafter_cc_render_symbolic(const crafter_cc_state *state, float *out);

/* Ways of drawing that Craftax does not take, for the tests to show they
 * are told apart (tests/unit/test-cc-render.c). */
enum crafter_cc_render_way {
  CRAFTER_CC_RENDER_AS_CRAFTAX = 0,
  CRAFTER_CC_RENDER_FLOAT32_TENTHS, /* count / 10.0f in float32, not float16 */
  CRAFTER_CC_RENDER_TRANSPOSED      /* the map read [column][row] */
};

/* crafter_cc_render_symbolic drawn the way `way` says. */
void crafter_cc_render_symbolic_way(const crafter_cc_state *state, enum crafter_cc_render_way way,
                                    float *out);

#endif
