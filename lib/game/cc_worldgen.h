/* cc_worldgen: Craftax-Classic's world generation ("cc" for Craftax-Classic,
 * the JAX reimplementation of Crafter): the first state of an episode, as
 * craftax 1.6.1's generate_world (craftax/craftax_classic/world_gen.py)
 * makes it from a key, with its Perlin noise
 * (craftax/craftax_classic/util/noise.py).
 *
 * Promise: for the key JAX's reset is given, every field of the state is
 * bit for bit the one JAX computes on the CPU in float32 with the pinned
 * reference (jax 0.10.1, one env per jitted reset): the map of block
 * types, the player, the creature and plant arrays, the light level, the
 * state's key (tests/unit/test-craftax-worldgen.c against hashes JAX
 * printed, tests/craftax-worlds.t against JAX itself).  The default
 * parameters only: a 64x64 map, always_diamond on, no fixed noise angles.
 *
 * Two ways compute it: the vector kernels of kernels/cc_kernels.h, at the
 * level kernels.h picks (a few tens of microseconds a world with AVX2 or
 * AVX-512; the portable copy, a call of fmaf per multiply-add on x86, is
 * hardly faster than the plain way), and, with CRAFTER_KERNELS=plain, the
 * plain way, cell by cell as the reference writes it (about half a
 * millisecond).  Both give the same bits: the unit test holds each to
 * JAX's hashes, and every level of the kernels to the plain way.
 *
 * Arrays are laid out as Craftax lays them out: indexed [row][column]
 * (Craftax's position[0] is the row), creatures in fixed slots with a
 * mask.  Nothing here keeps state between calls. */
#ifndef CRAFTER_CC_WORLDGEN_H
#define CRAFTER_CC_WORLDGEN_H

#include <stdint.h>

#include "kernels/cc_kernels.h" /* enum crafter_cc_block, Craftax's BlockType */
#include "kernels/jaxrng.h"

enum {
  CRAFTER_CC_MAP_SIZE = 64,
  CRAFTER_CC_MAX_ZOMBIES = 3,
  CRAFTER_CC_MAX_COWS = 3,
  CRAFTER_CC_MAX_SKELETONS = 2,
  CRAFTER_CC_MAX_ARROWS = 3,
  CRAFTER_CC_MAX_PLANTS = 10,
  CRAFTER_CC_MOB_SLOTS = 3, /* room in crafter_cc_mobs: the most of any kind */
  CRAFTER_CC_INVENTORY = 12,
  CRAFTER_CC_ACHIEVEMENTS = 22
};

/* One kind of creature: Craftax's Mobs.  A kind with fewer slots than
 * CRAFTER_CC_MOB_SLOTS (skeletons: 2) uses the first ones; the others are
 * zero and no part of the state. */
typedef struct crafter_cc_mobs {
  int32_t position[CRAFTER_CC_MOB_SLOTS][2];
  int32_t health[CRAFTER_CC_MOB_SLOTS];
  uint8_t mask[CRAFTER_CC_MOB_SLOTS];
  int32_t attack_cooldown[CRAFTER_CC_MOB_SLOTS];
} crafter_cc_mobs;

/* Craftax-Classic's EnvState, its fields in its order.  The inventory is
 * in Inventory's order: wood, stone, coal, iron, diamond, sapling,
 * wood_pickaxe, stone_pickaxe, iron_pickaxe, wood_sword, stone_sword,
 * iron_sword. */
typedef struct crafter_cc_state {
  uint8_t map[CRAFTER_CC_MAP_SIZE][CRAFTER_CC_MAP_SIZE]; /* enum crafter_cc_block */
  uint8_t mob_map[CRAFTER_CC_MAP_SIZE][CRAFTER_CC_MAP_SIZE];
  int32_t player_position[2]; /* row, column */
  int32_t player_direction;   /* Craftax's Action: UP is 3 */
  int32_t player_health, player_food, player_drink, player_energy;
  uint8_t is_sleeping;
  float player_recover, player_hunger, player_thirst, player_fatigue;
  int32_t inventory[CRAFTER_CC_INVENTORY];
  crafter_cc_mobs zombies, cows, skeletons, arrows;
  int32_t arrow_directions[CRAFTER_CC_MAX_ARROWS][2];
  int32_t growing_plants_positions[CRAFTER_CC_MAX_PLANTS][2];
  int32_t growing_plants_age[CRAFTER_CC_MAX_PLANTS];
  uint8_t growing_plants_mask[CRAFTER_CC_MAX_PLANTS];
  float light_level;
  uint8_t achievements[CRAFTER_CC_ACHIEVEMENTS];
  crafter_jaxkey state_rng;
  int32_t timestep;
} crafter_cc_state;

/* generate_fractal_noise_2d(key, (64, 64), (res_rows, res_columns),
 * octaves=1) with random angles, as generate_world computes it for the
 * paths and trees: out[row * 64 + column], normalised to [0, 1] (by the
 * reciprocal of its span).  res_rows and res_columns divide 64.  The
 * noise alone, jitted apart from generate_world, XLA compiles otherwise
 * and need not give the same bits.  Returns 0, or -1 when memory cannot be
 * had. */
int crafter_cc_noise(crafter_jaxkey key, int res_rows, int res_columns, float *out);

/* generate_world(key, default params): the first state into *state.
 * Returns 0, or -1 when memory cannot be had. */
int crafter_cc_generate_world(crafter_jaxkey key, crafter_cc_state *state);

/* The key the reset of seed `seed` is given in Craftax's schedule:
 * key = PRNGKey(seed); key, k = split(key); k. */
crafter_jaxkey crafter_cc_reset_key(int64_t seed);

/* Ways of computing that JAX does not take, for the tests to show they
 * are told apart (tests/unit/test-craftax-worldgen.c). */
enum crafter_cc_arith {
  CRAFTER_CC_AS_JAX = 0,
  CRAFTER_CC_TRUE_DIVISION, /* the noise divided by its span (max - min),
                             * and the distance by 5, where XLA multiplies
                             * by the reciprocal */
  CRAFTER_CC_UNFUSED        /* every product rounded, where XLA fuses some
                             * into multiply-adds */
};

/* The Perlin noise of generate_fractal_noise_2d(key, (side, side),
 * (res_rows, res_columns), octaves=1) with random angles, before its
 * normalisation, for a map of another side than Classic's (side <= 64,
 * res_rows and res_columns dividing it; Craftax's 48): the interpolation
 * before its sqrt(2) into blend[row * side + column], and what normalises
 * it: the min of blend * sqrt(2) (rounded), the span (max - min) and its
 * reciprocal.  With CRAFTER_CC_AS_JAX the arithmetic is the one XLA gives
 * Classic's noise (the comments of cc_worldgen.c), with CRAFTER_CC_UNFUSED
 * every product rounded; a caller meets blend with sqrt(2), the min and
 * the reciprocal as its own graph does.  CRAFTER_CC_AS_JAX is computed a
 * row of cells at a time (vectors, with AVX2 and FMA where the processor
 * has them), unless CRAFTER_KERNELS=plain asks for the plain path, cell
 * by cell as Classic's; the two give the same bits.  Returns 0, or -1
 * when memory cannot be had. */
int crafter_cc_noise_parts(crafter_jaxkey key, int side, int res_rows, int res_columns,
                           enum crafter_cc_arith arith, float *blend, float *lowest,
                           float *reciprocal, float *span);

/* crafter_cc_generate_world computed the way `arith` says: the plain
 * way, cell by cell, for the two ways JAX does not compute; for
 * CRAFTER_CC_AS_JAX as crafter_cc_generate_world. */
int crafter_cc_generate_world_arith(crafter_jaxkey key, enum crafter_cc_arith arith,
                                    crafter_cc_state *state);

#endif
