/* fastgen: the vector kernels of the fast world generator: the noise
 * fields of a whole world at once, the comparisons they settle, and the
 * materials those fix.  Compiled once per instruction set (variant.h);
 * kernels.h picks the copy.  Nothing here is exact: what it computes is
 * used only where it is provably far enough from a threshold (see
 * worldgen.c). */
#ifndef CRAFTER_FASTGEN_H
#define CRAFTER_FASTGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "kernels/noise.h"
#include "kernels/terrain.h"

/* The comparisons a cell's material depends on, in the reference's order. */
enum {
  CRAFTER_FACT_SPAWN,         /* sigmoid(start) > start_threshold */
  CRAFTER_FACT_MOUNTAIN,      /* mountain > mountain */
  CRAFTER_FACT_CAVE_DEPTH,    /* mountain > cave_mountain */
  CRAFTER_FACT_CAVE,          /* cave noise > cave_noise */
  CRAFTER_FACT_TUNNEL_X,      /* horizontal tunnel noise > tunnel_noise */
  CRAFTER_FACT_TUNNEL_Y,      /* vertical tunnel noise > tunnel_noise */
  CRAFTER_FACT_COAL,          /* coal noise > coal_noise */
  CRAFTER_FACT_IRON,          /* iron noise > iron_noise */
  CRAFTER_FACT_DIAMOND_DEPTH, /* mountain > diamond_mountain */
  CRAFTER_FACT_LAVA_DEPTH,    /* mountain > lava_mountain */
  CRAFTER_FACT_LAVA,          /* lava noise > lava_noise */
  CRAFTER_FACT_SAND_ABOVE,    /* water > sand_water_min */
  CRAFTER_FACT_SAND_BELOW,    /* water > sand_water_max (sand needs this false) */
  CRAFTER_FACT_SAND,          /* sand noise > sand_noise */
  CRAFTER_FACT_WATER,         /* water > water */
  CRAFTER_FACT_TREE,          /* tree noise > tree_noise */
};

/* A cell's facts: bit P is set when the answer of comparison P is
 * certain, bit 16 + P holds the answer. */
typedef uint32_t crafter_facts;
#define CRAFTER_KNOWN(p) (1u << (p))
#define CRAFTER_TRUTH(p) (1u << (16 + (p)))

/* A lattice vertex that reaches an area: its skewed coordinates modulo
 * 256 (all the gradient depends on), the rows xa..xb and blocks ba..bb of
 * the area it reaches, and where it sits. */
typedef struct crafter_field_vertex {
  int32_t ijk[3];
  int32_t xa, xb, ba, bb;
  double ux, uy, reach2, dz; /* position in the plane, 2 - dz^2, z - uz */
} crafter_field_vertex;

/* The vertices of the field noise3(x * ax, y * ay, z) over an area of
 * width rows of `blocks` blocks. */
typedef struct crafter_field_geometry {
  double z, ax, ay;
  int width, blocks;
  int count;
  crafter_field_vertex *vertices;
  /* The vertices that reach each block, made when first asked for:
   * by_block[at[x * blocks + b] .. at[x * blocks + b + 1]). */
  int32_t *at, *by_block;
  /* For spreading, made when first spread: the rows of each block of a
   * vertex's reach that its disk meets, pairs from spans[span_at[n]]. */
  int32_t *span_at, *spans;
} crafter_field_geometry;

#define CRAFTER_FASTGEN_GEOMETRIES 16

/* The working memory of one generation.  Every plane is width x stride,
 * row x at x * stride, stride the height rounded up to a multiple of 8:
 * each row is `blocks` blocks of 8 cells. */
typedef struct crafter_fastgen {
  int width, height, stride, blocks;
  double *start, *water, *mountain; /* noise sums; must start at zero */
  double *field;                    /* one more field at a time; all zero between calls */
  double *distance;                 /* from (distance_x, distance_y) */
  int distance_x, distance_y;       /* -1: not computed */
  /* sigmoid(start) for start noise of -CRAFTER_NOISE_BOUND and
   * +CRAFTER_NOISE_BOUND: where the start can lie, whatever the world.
   * For the distances above and a start radius of bounds_radius. */
  double *start_low, *start_high;
  double bounds_radius;
  crafter_facts *facts;
  uint8_t *wanted; /* width x blocks: the blocks a field is wanted in */
  int32_t *slots;  /* the wanted blocks' indices, in order */
  /* The geometry of the fields met so far, kept from world to world. */
  crafter_field_geometry *geometry[CRAFTER_FASTGEN_GEOMETRIES];
  int geometry_count;
} crafter_fastgen;

/* Frees one geometry and all it made; NULL is ignored. */
static inline void crafter_field_geometry_free(crafter_field_geometry *g) {
  if (!g) return;
  free(g->vertices);
  free(g->at);
  free(g->by_block);
  free(g->span_at);
  free(g->spans);
  free(g);
}

/* Frees the kept geometry. */
static inline void crafter_fastgen_forget(crafter_fastgen *gen) {
  for (int n = 0; n < gen->geometry_count; n++) crafter_field_geometry_free(gen->geometry[n]);
  gen->geometry_count = 0;
}

/* One copy of the kernels. */
typedef struct crafter_fastgen_kernels {
  int (*field_add)(const crafter_noise *noise, double z, double ax, double ay, double weight,
                   int width, int blocks, const uint8_t *wanted, double *acc, int stride);
  int (*facts)(crafter_fastgen *gen, const crafter_noise *noise,
               const crafter_worldgen_config *config, int player_x, int player_y);
  /* For each of `cells` cells (a multiple of 8), the material its facts
   * fix without a draw, or CRAFTER_FASTGEN_TREE_DRAW or
   * CRAFTER_FASTGEN_DECIDE; and 1 in `tunnels` for a tunnel. */
  void (*settle)(const crafter_facts *facts, size_t cells, uint8_t *materials,
                 uint8_t *tunnels);
} crafter_fastgen_kernels;

/* What settle() leaves to the caller: a tree if the cell's one draw
 * exceeds the tree draw threshold, else grass; or everything, by decide(). */
#define CRAFTER_FASTGEN_TREE_DRAW 0xfe
#define CRAFTER_FASTGEN_DECIDE 0xff
/* Rock that draws for its ores: CRAFTER_FASTGEN_ROCK with the tests that
 * came out true (coal and iron noise, diamond depth, lava). */
#define CRAFTER_FASTGEN_ROCK 0xe0
#define CRAFTER_FASTGEN_ROCK_COAL 1
#define CRAFTER_FASTGEN_ROCK_IRON 2
#define CRAFTER_FASTGEN_ROCK_DIAMOND 4
#define CRAFTER_FASTGEN_ROCK_LAVA 8

/* crafter_noise_field_add (the copy of the current level, through
 * kernels.h): the fast, inexact companion of crafter_noise3 for a whole
 * area at once.
 *
 * The area is `width` rows of `blocks` blocks of 8 cells; wanted[x *
 * blocks + b] nonzero asks for the cells 8b..8b+7 of row x.  For every
 * cell (x, y) of every wanted block this adds weight * noise3(x * ax,
 * y * ay, z) to acc[x * stride + y], stride >= 8 * blocks.  Other cells
 * near wanted ones may change too.  Instead of finding the lattice
 * vertices around each point the reference's way, it either visits each
 * lattice vertex that reaches a wanted block once and spreads its
 * contribution over the blocks in its reach (when every block is wanted),
 * or sums, block by block, the vertices that reach each wanted block.
 *
 * The result is within CRAFTER_NOISE_FIELD_ERROR * |weight| of the
 * reference's value, for two reasons.  The sum runs in another order, which
 * changes only rounding (about 1e-15).  And the reference sums at most eight
 * vertices per point, chosen by region, which now and then leaves out one
 * vertex that is in reach: always one whose attenuation 2 - d^2 is below
 * 1/6, so its term is at most (1/6)^4 * sqrt(2) * |gradient| / 103 =
 * 1.31e-4.  Here every vertex in reach counts.  (The unit tests measure
 * both claims over millions of points.)
 *
 * acc is best aligned to 64 bytes.  Returns 0, or -1 before writing
 * anything when memory runs out or the area holds too many lattice
 * vertices for this to be fast (scales finer than a few vertices per
 * cell). */
#ifndef CRAFTER_NOISE_FIELD_ERROR /* tests build a copy with a wrong bound */
#define CRAFTER_NOISE_FIELD_ERROR 1.5e-4
#endif

/* The copies; call them through crafter_kernels_fastgen() (kernels.h).
 * facts() fills in gen->facts for the world of `noise` with the player at
 * (player_x, player_y): every comparison whose answer is certain; 0, or
 * -1 if a field is too fine for the fast path. */
#define CRAFTER_FASTGEN_DECLARE(suffix)                                                      \
  int crafter_noise_field_add_##suffix(const crafter_noise *noise, double z, double ax,      \
                                       double ay, double weight, int width, int blocks,      \
                                       const uint8_t *wanted, double *acc, int stride);      \
  int crafter_fastgen_facts_##suffix(crafter_fastgen *gen, const crafter_noise *noise,       \
                                     const crafter_worldgen_config *config, int player_x,    \
                                     int player_y);                                          \
  void crafter_fastgen_settle_##suffix(const crafter_facts *facts, size_t cells,              \
                                       uint8_t *materials, uint8_t *tunnels);
CRAFTER_FASTGEN_DECLARE(base)
CRAFTER_FASTGEN_DECLARE(v3)
CRAFTER_FASTGEN_DECLARE(v4)

#endif
