/* cc_kernels: the vector kernels of Craftax-Classic's world generation
 * (game/cc_worldgen.c): JAX's threefry2x32 hash of many counters at once,
 * the gradients and the Perlin noise of a field, and the map the four
 * fields and the ores' and trees' draws make.  Compiled once per
 * instruction set (variant.h); kernels.h picks the copy.
 *
 * Promise: every copy computes what cc_worldgen.c's plain path computes
 * for the arithmetic JAX's (CRAFTER_CC_AS_JAX), bit for bit: the same
 * operations in the same order and precision lane by lane, each fused
 * multiply-add one of XLA's (cc_worldgen.c lists them), and the Makefile
 * builds the file without contraction.  The angles' cosines and sines are
 * the C library's cosf and sinf, as on the plain path.
 * tests/unit/test-craftax-worldgen.c compares the two paths on whole
 * worlds at every level this processor runs, tests/unit/test-jaxrng.c
 * the hashes with crafter_jax_bits. */
#ifndef CRAFTER_CC_KERNELS_H
#define CRAFTER_CC_KERNELS_H

#include <stdint.h>

#include "kernels/jaxrng.h"

/* Craftax's BlockType: the numbers its map holds. */
enum crafter_cc_block {
  CRAFTER_CC_INVALID = 0,
  CRAFTER_CC_OUT_OF_BOUNDS = 1,
  CRAFTER_CC_GRASS = 2,
  CRAFTER_CC_WATER = 3,
  CRAFTER_CC_STONE = 4,
  CRAFTER_CC_TREE = 5,
  CRAFTER_CC_WOOD = 6,
  CRAFTER_CC_PATH = 7,
  CRAFTER_CC_COAL = 8,
  CRAFTER_CC_IRON = 9,
  CRAFTER_CC_DIAMOND = 10,
  CRAFTER_CC_CRAFTING_TABLE = 11,
  CRAFTER_CC_FURNACE = 12,
  CRAFTER_CC_SAND = 13,
  CRAFTER_CC_LAVA = 14,
  CRAFTER_CC_PLANT = 15,
  CRAFTER_CC_RIPE_PLANT = 16
};

/* The side of the map the kernels make: 64 cells, row-major; the most
 * lattice points of a field's noise (resolutions up to 32). */
enum {
  CRAFTER_CC_SIDE = 64,
  CRAFTER_CC_CELLS = CRAFTER_CC_SIDE * CRAFTER_CC_SIDE,
  CRAFTER_CC_LATTICE_ROOM = (CRAFTER_CC_SIDE / 2 + 1) * (CRAFTER_CC_SIDE / 2 + 1)
};

/* One noise field before its normalisation, [row * 64 + column], with
 * its extremes. */
typedef struct crafter_cc_field {
  float blend[CRAFTER_CC_CELLS]; /* the interpolation, before its sqrt(2) */
  float raw[CRAFTER_CC_CELLS];   /* blend * sqrt(2) rounded: what min and max are taken of */
  float lowest, highest;
} crafter_cc_field;

/* The copies; call them through crafter_kernels_cc() (kernels.h).
 *
 * bits: element first .. first + count - 1 of jax.random.bits(key, shape,
 * uint32) into out[count] (crafter_jax_bits_at of each).
 *
 * sincos: the C library's cosf and sinf of angle[count] into
 * cosine[count] and sine[count]: glibc's (cc_kernels.c says how the
 * vector copies compute them).
 *
 * gradients: the Perlin lattice's angles, 2 pi uniform(key, (count,)),
 * as their cosines and sines into cosine[count] and sine[count]; count
 * at most CRAFTER_CC_LATTICE_ROOM.
 *
 * noise: the field generate_fractal_noise_2d makes of those gradients,
 * a lattice of (res_rows + 1) x (res_columns + 1) over the 64 x 64 map,
 * before normalisation (res_rows and res_columns divide 64 and are at
 * most 32).
 *
 * terrain: generate_world's map before the player's cell is cleared and
 * the extra diamond drawn, from the fields of the water, the mountain,
 * the paths and the trees (fields[0..3], in that order) and the keys of
 * the coal, iron, diamond and tree draws (keys[0..3]). */
#define CRAFTER_CC_KERNELS_DECLARE(suffix)                                                   \
  void crafter_cc_bits_##suffix(crafter_jaxkey key, uint32_t first, long count,             \
                                uint32_t *out);                                             \
  void crafter_cc_sincos_##suffix(const float *angle, long count, float *cosine,            \
                                  float *sine);                                             \
  void crafter_cc_gradients_##suffix(crafter_jaxkey key, int count, float *cosine,          \
                                     float *sine);                                          \
  void crafter_cc_noise_##suffix(const float *cosine, const float *sine, int res_rows,      \
                                 int res_columns, crafter_cc_field *field);                 \
  void crafter_cc_terrain_##suffix(const crafter_cc_field *fields, const crafter_jaxkey *keys, \
                                   uint8_t *map);
CRAFTER_CC_KERNELS_DECLARE(base)
CRAFTER_CC_KERNELS_DECLARE(v3)
CRAFTER_CC_KERNELS_DECLARE(v4)

typedef struct crafter_cc_kernels {
  void (*bits)(crafter_jaxkey key, uint32_t first, long count, uint32_t *out);
  void (*sincos)(const float *angle, long count, float *cosine, float *sine);
  void (*gradients)(crafter_jaxkey key, int count, float *cosine, float *sine);
  void (*noise)(const float *cosine, const float *sine, int res_rows, int res_columns,
                crafter_cc_field *field);
  void (*terrain)(const crafter_cc_field *fields, const crafter_jaxkey *keys, uint8_t *map);
} crafter_cc_kernels;

#endif
