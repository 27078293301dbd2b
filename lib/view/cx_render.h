/* cx_render: Craftax's symbolic observation of a Craftax state ("cx", the
 * full game, as in game/cx_worldgen): the float32 vector craftax 1.6.1's
 * render_craftax_symbolic (craftax/craftax/renderer.py) returns, the
 * observation env.reset and env.step of Craftax-Symbolic-v1 return.
 *
 * The layout, CRAFTER_CX_SYMBOLIC_SIZE (8,268) float32 values:
 *
 *   [0, 8217) the map: the 9x11 window of the player's floor centred on
 *       the player (9 rows, the state's first coordinate, from the
 *       player's row - 4; 11 columns from the player's column - 5),
 *       row-major, 83 channels a cell (cell (r, c) starts at
 *       (r * 11 + c) * 83):
 *         0..36   the block, one-hot: Craftax's BlockType (the numbers of
 *                 enum crafter_cx_block: 0 INVALID, 1 OUT_OF_BOUNDS,
 *                 2 GRASS .. 36 NECROMANCER_VULNERABLE);
 *         37..41  the item on the cell, one-hot: ItemType (0 none,
 *                 1 torch, 2 ladder down, 3 ladder up, 4 ladder down
 *                 blocked);
 *         42..81  creatures and projectiles: channel 42 + 8 k + t for
 *                 class k and type t: k = 0 melee (t: zombie, gnome
 *                 warrior, orc soldier, lizard, knight, troll, pigman,
 *                 frost troll), 1 passive (cow, bat, snail), 2 ranged
 *                 (skeleton, gnome archer, orc mage, kobold, knight
 *                 archer, deep thing, fire elemental, ice elemental),
 *                 3 the creatures' projectiles and 4 the player's
 *                 (arrow, dagger, fireball, iceball, arrow, slimeball,
 *                 fireball, iceball);
 *         82      light: 1 where the floor's light map is above 0.05
 *                 (float32), else 0.
 *       A cell without light has every channel 0, whatever lies on it.
 *       Cells outside the floor count as OUT_OF_BOUNDS with no item and
 *       no light, so they are all 0.
 *   [8217, 8233) the inventory: wood, stone, coal, iron, diamond,
 *       sapphire, ruby, sapling, torches, arrows, each sqrt(count) / 10;
 *       books / 2; pickaxe / 4, sword / 4 (levels 0..4); the sword's and
 *       the bow's enchantments (0, 1 fire, 2 ice); the bow (0 or 1).
 *   [8233, 8239) the six potions (red, green, blue, pink, cyan, yellow),
 *       sqrt(count) / 10.
 *   [8239, 8248) health, food, drink, energy, mana, experience,
 *       dexterity, strength, intelligence, each / 10 (health is a
 *       float32, the others integers).
 *   [8248, 8252) the direction one-hot, player_direction - 1 (LEFT,
 *       RIGHT, UP, DOWN; a direction outside 1..4 sets none).
 *   [8252, 8256) the armour (helmet, chestplate, leggings, boots), each
 *       level (0 none, 1 iron, 2 diamond) / 2.
 *   [8256, 8260) those pieces' enchantments (0, 1 fire, 2 ice).
 *   [8260, 8268) the light level as it is; is_sleeping, is_resting,
 *       fireball learnt, iceball learnt (0 or 1); the floor number / 10
 *       (0 the overworld .. 8 the boss floor); 1 when the floor is
 *       cleared (8 or more creatures killed on it), else 0; 1 when the
 *       boss is vulnerable (no melee or ranged creature alive on the
 *       player's floor and no wave to come:
 *       boss_timesteps_to_spawn_this_round <= 0), on any floor, else 0.
 *
 * Arithmetic as XLA compiles it on the CPU: x / 10 is the float32
 * product x * (1/10) (integers made float32 first, sqrt correctly
 * rounded first) where x is a variable of the compiled graph, as every
 * value of a step's state is; in the first state of an episode (timestep
 * 0, made only by reset, in env.reset or in the step that ends an
 * episode) the values divided by 10 are the constants generate_world
 * sets (the vitals 9, the attributes 1, an empty inventory, the
 * overworld), whose quotients XLA folds correctly rounded: so health 9
 * is 0.9 (0x3F666666) in a first state and 0.90000004 (0x3F666667)
 * after a step.  / 2 and / 4 are exact.
 *
 * Creatures are written slot by slot in the order above (melee slots 0..2,
 * passive 0..2, ranged 0..1, the creatures' projectiles 0..2, the
 * player's 0..2), as Craftax's scatter does: each slot writes 1 when it
 * is live and inside the window, else 0, at its place relative to the
 * window and its channel; a negative row, column or channel counts once
 * from the end, as numpy indexing does, and a place outside after that is
 * not written.  So a dead slot's 0 can clear an earlier creature's 1.
 * Then the cell's light masks what was written.
 *
 * Every value is written: the map's zeros by one memset (the 8,217
 * values must all be written, and that is the cheapest way), then the few
 * ones; the rest value by value.
 *
 * Promise: for every state of Craftax's auto-resetting env, the vector is
 * bit for bit the observation JAX returns from env.reset or env.step with
 * the pinned reference (jax 0.10.1 on the CPU, one env per jitted call).
 * tests/unit/test-cx-render.c holds it to CRC-32s JAX printed: the first
 * states of seeds 0..999, seeds 0..9's episodes of 400 random actions
 * (deaths and the next episodes' first states among them), episodes
 * from crafted first states on the sewers, the fire and the ice floors
 * and beside the boss (5,915 of 5,915 equal); tests/cx-obs.t holds it
 * to JAX itself on fresh seeds' episodes, from crafted first states on
 * every floor, and on states changed at random (3,232 of 3,232 equal in
 * one run of 8 seeds: creatures and projectiles of every class in view,
 * dark cells, sleep, all nine floors).  Nothing here keeps state between
 * calls. */
#ifndef CRAFTER_CX_RENDER_H
#define CRAFTER_CX_RENDER_H

#include "game/cx_worldgen.h"

enum {
  CRAFTER_CX_SYMBOLIC_ROWS = 9,
  CRAFTER_CX_SYMBOLIC_COLUMNS = 11,
  CRAFTER_CX_SYMBOLIC_BLOCKS = 37,
  CRAFTER_CX_SYMBOLIC_ITEMS = 5,
  CRAFTER_CX_SYMBOLIC_MOBS = 40, /* 5 classes of 8 types */
  CRAFTER_CX_SYMBOLIC_CHANNELS = 83,
  CRAFTER_CX_SYMBOLIC_MAP = 9 * 11 * 83,                 /* 8217 */
  CRAFTER_CX_SYMBOLIC_SIZE = CRAFTER_CX_SYMBOLIC_MAP + 51 /* 8268 */
};

/* Craftax's symbolic observation of *state into
 * out[CRAFTER_CX_SYMBOLIC_SIZE]; every value is written. */
void crafter_cx_render_symbolic(const crafter_cx_state *state, float *out);

/* Ways of drawing: the env's, that of render_craftax_symbolic jitted on
 * its own, and ways Craftax does not take, for the tests to show they are
 * told apart (tests/unit/test-cx-render.c). */
enum crafter_cx_render_way {
  CRAFTER_CX_RENDER_AS_ENV = 0, /* env.reset's and env.step's (above) */
  CRAFTER_CX_RENDER_ALONE,      /* jax.jit(render_craftax_symbolic)(state): every
                                 * x / 10 as x * (1/10), a first state's too */
  CRAFTER_CX_RENDER_DIVIDED,    /* every x / 10 divided, a step's too */
  CRAFTER_CX_RENDER_TRANSPOSED, /* the map read [column][row] */
  CRAFTER_CX_RENDER_NO_WRAP     /* a creature's negative place not written */
};

/* crafter_cx_render_symbolic drawn the way `way` says. */
void crafter_cx_render_symbolic_way(const crafter_cx_state *state, enum crafter_cx_render_way way,
                                    float *out);

#endif
