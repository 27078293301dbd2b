/* fastgen: the vector kernels of the fast world generator, and the
 * renderer's shading.
 *
 * fastgen.c and shade.c are compiled once for each instruction set the
 * build knows (x86-64-v4 and x86-64-v3 on x86-64, and plain C everywhere),
 * each copy with its own suffix; crafter_fastgen_level() says which copy
 * this processor runs.  Nothing in fastgen.c is exact: what it computes is
 * used only where it is provably far enough from a threshold (see
 * worldgen.c).  shade.c is exact: the reference's operations, eight pixels
 * at a time. */
#ifndef CRAFTER_FASTGEN_H
#define CRAFTER_FASTGEN_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "noise.h"

/* In the files compiled once per level, VARIANT(name) names this copy's
 * function: name_v4, name_v3 or name_base. */
#ifndef FASTGEN_SUFFIX
#define FASTGEN_SUFFIX base
#endif
#define VARIANT_JOIN(name, suffix) name##_##suffix
#define VARIANT_EXPAND(name, suffix) VARIANT_JOIN(name, suffix)
#define VARIANT(name) VARIANT_EXPAND(name, FASTGEN_SUFFIX)

/* The gradients of OpenSimplex 3D, 24 of them, x y z (noise.c). */
extern const double crafter_gradients3[72];

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

/* Frees the kept geometry (worldgen.c). */
void crafter_fastgen_forget(crafter_fastgen *gen);
/* Frees one geometry and all it made (worldgen.c); NULL is ignored. */
void crafter_field_geometry_free(crafter_field_geometry *g);

/* Which copy of the kernels runs: 4 (x86-64-v4), 3 (x86-64-v3) or 0. */
int crafter_fastgen_level(void);
/* Picks a copy, for tests: the best this processor runs if level is -1 or
 * beyond it.  Not thread-safe; returns the level now in use. */
int crafter_fastgen_set_level(int level);

/* One copy of the kernels. */
typedef struct crafter_fastgen_kernels {
  int (*field_add)(const crafter_noise *noise, double z, double ax, double ay, double weight,
                   int width, int blocks, const uint8_t *wanted, double *acc, int stride);
  int (*facts)(crafter_fastgen *gen, const crafter_noise *noise,
               const crafter_worldgen_config *config, int player_x, int player_y);
  void (*twist)(uint32_t *state); /* MT19937's twist of its 624 words */
  /* Sixteen uniform draws from 32 untempered words, exactly (rng.h). */
  void (*peek16)(const uint32_t *words, double *out);
  /* For each of `cells` cells (a multiple of 8), the material its facts
   * fix without a draw, or CRAFTER_FASTGEN_TREE_DRAW or
   * CRAFTER_FASTGEN_DECIDE; and 1 in `tunnels` for a tunnel. */
  void (*settle)(const crafter_facts *facts, size_t cells, uint8_t *materials,
                 uint8_t *tunnels);
  /* Lights `count` pixels of a column of the local view (shade.c), exact:
   * colour is `count` RGB triples; vignette and noise, the night's, or
   * both NULL by day; pixel i goes to out + i * out_stride. */
  void (*shade)(const uint8_t *colour, int count, double daylight, int sleeping, double amount,
                const double *vignette, const double *noise, uint8_t *out,
                ptrdiff_t out_stride);
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

/* The copy of the current level. */
const crafter_fastgen_kernels *crafter_fastgen_kernels_now(void);

/* Fills in gen->facts for the world of `noise` with the player at
 * (player_x, player_y): every comparison whose answer is certain.
 * Returns 0, or -1 if a field is too fine for the fast path. */
static inline int crafter_fastgen_facts(crafter_fastgen *gen, const crafter_noise *noise,
                                        const crafter_worldgen_config *config, int player_x,
                                        int player_y) {
  return crafter_fastgen_kernels_now()->facts(gen, noise, config, player_x, player_y);
}

/* The copies; call them through crafter_fastgen_kernels_now(). */
#define CRAFTER_FASTGEN_DECLARE(suffix)                                                      \
  int crafter_noise_field_add_##suffix(const crafter_noise *noise, double z, double ax,      \
                                       double ay, double weight, int width, int blocks,      \
                                       const uint8_t *wanted, double *acc, int stride);      \
  int crafter_fastgen_facts_##suffix(crafter_fastgen *gen, const crafter_noise *noise,       \
                                     const crafter_worldgen_config *config, int player_x,    \
                                     int player_y);                                          \
  void crafter_mt_twist_##suffix(uint32_t *state);                                            \
  void crafter_rng_peek16_##suffix(const uint32_t *words, double *out);                       \
  void crafter_fastgen_settle_##suffix(const crafter_facts *facts, size_t cells,              \
                                       uint8_t *materials, uint8_t *tunnels);                  \
  void crafter_shade_run_##suffix(const uint8_t *colour, int count, double daylight,          \
                                  int sleeping, double amount, const double *vignette,        \
                                  const double *noise, uint8_t *out, ptrdiff_t out_stride);
CRAFTER_FASTGEN_DECLARE(base)
CRAFTER_FASTGEN_DECLARE(v3)
CRAFTER_FASTGEN_DECLARE(v4)

#endif
