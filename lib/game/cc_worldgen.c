#include "game/cc_worldgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"

/* The arithmetic is that of the machine code XLA's CPU compiler (jax
 * 0.10.1) makes of craftax's graph.  XLA multiplies by the reciprocal of
 * the noise's span (max - min) rather than dividing by it, and divides by
 * 5 as a multiplication by float32 1/5.  Its LLVM back end contracts a
 * product into the sum it alone feeds (x*y + z, a single-use product, as
 * one fused multiply-add); of a sum of two such products the first
 * operand is fused and the second rounded.  So, in the noise: each ramp
 * n = x*g.x + y*g.y is fmaf(y, g.y, x*g.x); the fade t*t*t * (t*(t*6 -
 * 15) + 10) has its two inner multiply-adds fused; each blend
 * a*(1-t) + t*b is fmaf(b, t, a*(1-t)), and the last (1-t)*n0 + t*n1 is
 * fmaf(1-t, n0, t*n1).  The noise is computed twice: once for its min
 * and max, times sqrt(2) rounded; again in the kernel that makes the map,
 * where times sqrt(2) minus the min is one multiply-add.  Normalised, the
 * water's noise meets the proximity in one multiply-add (fmaf(1/span,
 * noise - min, proximity)) and the mountain's meets its 0.05 in one; the
 * paths' and trees' noise is the product alone.  Everything else is
 * rounded on its own: the build
 * never contracts (-ffp-contract=off), every fmaf here is XLA's.  Python
 * constants are rounded to float32 where they meet a float32 array. */

enum { SIZE = CRAFTER_CC_MAP_SIZE, CELLS = SIZE * SIZE };
_Static_assert((int)SIZE == (int)CRAFTER_CC_SIDE, "the kernels make maps of this side");

/* The cell's offset inside its lattice square along one axis: jnp.mgrid's
 * arange(0, res, res / 64), taken mod 1.  With res dividing 64 the steps
 * are exact, so it is (i mod d) / d for d = 64 / res. */
static float lattice_offset(int i, int per_square) {
  return (float)(i % per_square) / (float)per_square;
}

static inline int fused(enum crafter_cc_arith arith) { return arith != CRAFTER_CC_UNFUSED; }

/* a*b + c, as one fused multiply-add where XLA's code has one. */
static inline float madd(float a, float b, float c, enum crafter_cc_arith arith) {
  if (fused(arith)) return fmaf(a, b, c);
  float product = a * b;
  return product + c;
}

/* interpolant(t) = t * t * t * (t * (t * 6 - 15) + 10). */
static float fade(float t, enum crafter_cc_arith arith) {
  float cube = t * t * t;
  return cube * madd(t, madd(t, 6.0f, -15.0f, arith), 10.0f, arith);
}

/* One noise field before its normalisation, with what normalises it. */
struct noise {
  float blend[CELLS]; /* the interpolation, before its sqrt(2) */
  float raw[CELLS];   /* blend * sqrt(2), rounded: what the min and max are taken of */
  float lowest, reciprocal, span; /* min, 1 / (max - min), max - min */
};

/* The cosines and sines of the gradients' angles at the lattice's
 * points: fractal: rng, _rng = split(rng); perlin: rng, _rng =
 * split(rng); the angles are uniform(_rng, (res_rows + 1,
 * res_columns + 1)), lattice of them. */
static inline __attribute__((always_inline)) void lattice_angles(crafter_jaxkey key, int lattice,
                                                                 float *cosine, float *sine) {
  crafter_jaxkey fractal_key = crafter_jax_split_one(key, 1);
  crafter_jaxkey perlin_key = crafter_jax_split_one(fractal_key, 1);
  const float two_pi = (float)(2.0 * 3.141592653589793);
  for (int n = 0; n < lattice; n++) {
    float angle = two_pi * crafter_jax_uniform_of_bits(crafter_jax_bits_at(perlin_key, (uint64_t)n),
                                                       0.0f, 1.0f);
    cosine[n] = cosf(angle);
    sine[n] = sinf(angle);
  }
}

/* The noise's arithmetic, made twice below: as the build compiles it
 * (fmaf a library call where the baseline instruction set has no fused
 * multiply-add) and, in builds with the x86-64-v3 kernels, for processors
 * with FMA, where fmaf is one instruction.  fmaf rounds once either way:
 * the two give the same bits. */
static inline __attribute__((always_inline)) void noise_body(crafter_jaxkey key, int side,
                                                             int res_rows, int res_columns,
                                                             struct noise *noise,
                                                             enum crafter_cc_arith arith) {
  int lattice_columns = res_columns + 1;
  float cosine[(SIZE + 1) * (SIZE + 1)], sine[(SIZE + 1) * (SIZE + 1)];
  lattice_angles(key, (res_rows + 1) * lattice_columns, cosine, sine);
  int per_row = side / res_rows, per_column = side / res_columns;
  const float root2 = sqrtf(2.0f);
  /* The offsets and their fades along the columns, the same for every row. */
  float offset_y[SIZE], fade_y[SIZE];
  for (int j = 0; j < side; j++) {
    offset_y[j] = lattice_offset(j, per_column);
    fade_y[j] = fade(offset_y[j], arith);
  }
  float lowest = INFINITY, highest = -INFINITY;
  for (int i = 0; i < side; i++) {
    float x = lattice_offset(i, per_row), tx = fade(x, arith), ux = 1.0f - tx;
    int a = i / per_row;
    for (int j = 0; j < side; j++) {
      float y = offset_y[j], ty = fade_y[j];
      int b = j / per_column;
      int g00 = a * lattice_columns + b, g10 = g00 + lattice_columns, g01 = g00 + 1,
          g11 = g10 + 1;
      float n00 = madd(y, sine[g00], x * cosine[g00], arith);
      float n10 = madd(y, sine[g10], (x - 1.0f) * cosine[g10], arith);
      float n01 = madd(y - 1.0f, sine[g01], x * cosine[g01], arith);
      float n11 = madd(y - 1.0f, sine[g11], (x - 1.0f) * cosine[g11], arith);
      float n0 = madd(n10, tx, n00 * ux, arith);
      float n1 = madd(n11, tx, n01 * ux, arith);
      float blend = madd(1.0f - ty, n0, ty * n1, arith), value = blend * root2;
      noise->blend[i * side + j] = blend;
      noise->raw[i * side + j] = value;
      if (value < lowest) lowest = value;
      if (value > highest) highest = value;
    }
  }
  noise->lowest = lowest;
  noise->span = highest - lowest;
  noise->reciprocal = 1.0f / noise->span;
}

static void noise_plain(crafter_jaxkey key, int side, int res_rows, int res_columns,
                        struct noise *noise, enum crafter_cc_arith arith) {
  noise_body(key, side, res_rows, res_columns, noise, arith);
}

#if defined(CRAFTER_FASTGEN_X86)
__attribute__((target("fma"))) static void noise_fma(crafter_jaxkey key, int side, int res_rows,
                                                     int res_columns, struct noise *noise,
                                                     enum crafter_cc_arith arith) {
  noise_body(key, side, res_rows, res_columns, noise, arith);
}
#endif

static void noise_side(crafter_jaxkey key, int side, int res_rows, int res_columns,
                       struct noise *noise, enum crafter_cc_arith arith) {
#if defined(CRAFTER_FASTGEN_X86)
  if (crafter_kernels_level() >= 3) { /* x86-64-v3 and up have FMA */
    noise_fma(key, side, res_rows, res_columns, noise, arith);
    return;
  }
#endif
  noise_plain(key, side, res_rows, res_columns, noise, arith);
}

static void noise_arith(crafter_jaxkey key, int res_rows, int res_columns, struct noise *noise,
                        enum crafter_cc_arith arith) {
  noise_side(key, SIZE, res_rows, res_columns, noise, arith);
}

/* noise_body's arithmetic with XLA's fusion, a row of cells at a time:
 * the gradients of the row's two lattice rows spread over its columns
 * first, so that the cells of a row are independent and the compiler
 * takes them a vector at a time; the min and max in lanes of 16 (the
 * same min and max: the values are not NaN).  Made twice, as
 * noise_body: plain and for processors with AVX2 and FMA. */
enum { LANES = 16 };
static inline __attribute__((always_inline)) void noise_rows_body(
    crafter_jaxkey key, int side, int res_rows, int res_columns, float *blend_out,
    float *lowest, float *span) {
  int lattice_columns = res_columns + 1;
  float cosine[(SIZE + 1) * (SIZE + 1)], sine[(SIZE + 1) * (SIZE + 1)];
  lattice_angles(key, (res_rows + 1) * lattice_columns, cosine, sine);
  int per_row = side / res_rows, per_column = side / res_columns;
  const float root2 = sqrtf(2.0f);
  float offset_y[SIZE], fade_y[SIZE], offset_y1[SIZE];
  int lattice_column[SIZE];
  for (int j = 0; j < side; j++) {
    offset_y[j] = lattice_offset(j, per_column);
    offset_y1[j] = offset_y[j] - 1.0f;
    fade_y[j] = fade(offset_y[j], CRAFTER_CC_AS_JAX);
    lattice_column[j] = j / per_column;
  }
  float c00[SIZE], s00[SIZE], c01[SIZE], s01[SIZE], c10[SIZE], s10[SIZE], c11[SIZE], s11[SIZE];
  float low[LANES], high[LANES];
  for (int k = 0; k < LANES; k++) low[k] = INFINITY, high[k] = -INFINITY;
  for (int i = 0; i < side; i++) {
    if (i % per_row == 0) {
      int a = i / per_row;
      for (int j = 0; j < side; j++) {
        int g00 = a * lattice_columns + lattice_column[j], g10 = g00 + lattice_columns;
        c00[j] = cosine[g00], s00[j] = sine[g00], c01[j] = cosine[g00 + 1], s01[j] = sine[g00 + 1];
        c10[j] = cosine[g10], s10[j] = sine[g10], c11[j] = cosine[g10 + 1], s11[j] = sine[g10 + 1];
      }
    }
    float x = lattice_offset(i, per_row), x1 = x - 1.0f, tx = fade(x, CRAFTER_CC_AS_JAX),
          ux = 1.0f - tx;
    float *row = blend_out + i * side;
    /* In runs of 8 columns (a count the compiler sees, to make vectors of
     * them), the rest one by one. */
#define NOISE_CELL(j)                                                       \
  do {                                                                      \
    float y = offset_y[j], y1 = offset_y1[j], ty = fade_y[j];               \
    float n00 = fmaf(y, s00[j], x * c00[j]);                                \
    float n10 = fmaf(y, s10[j], x1 * c10[j]);                               \
    float n01 = fmaf(y1, s01[j], x * c01[j]);                               \
    float n11 = fmaf(y1, s11[j], x1 * c11[j]);                              \
    float n0 = fmaf(n10, tx, n00 * ux);                                     \
    float n1 = fmaf(n11, tx, n01 * ux);                                     \
    row[j] = fmaf(1.0f - ty, n0, ty * n1);                                  \
  } while (0)
    int runs = side / 8 * 8;
    for (int first = 0; first < runs; first += 8)
      for (int k = 0; k < 8; k++) NOISE_CELL(first + k);
    for (int j = runs; j < side; j++) NOISE_CELL(j);
#undef NOISE_CELL
  }
  const int cells = side * side;
  int whole = cells / LANES * LANES;
  for (int first = 0; first < whole; first += LANES)
    for (int k = 0; k < LANES; k++) {
      float value = blend_out[first + k] * root2;
      low[k] = value < low[k] ? value : low[k];
      high[k] = value > high[k] ? value : high[k];
    }
  float lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < LANES; k++) {
    lo = low[k] < lo ? low[k] : lo;
    hi = high[k] > hi ? high[k] : hi;
  }
  for (int n = whole; n < cells; n++) {
    float value = blend_out[n] * root2;
    lo = value < lo ? value : lo;
    hi = value > hi ? value : hi;
  }
  *lowest = lo;
  *span = hi - lo;
}

static void noise_rows_plain(crafter_jaxkey key, int side, int res_rows, int res_columns,
                             float *blend, float *lowest, float *span) {
  noise_rows_body(key, side, res_rows, res_columns, blend, lowest, span);
}

#if defined(CRAFTER_FASTGEN_X86)
__attribute__((target("avx2,fma"))) static void noise_rows_avx2(crafter_jaxkey key, int side,
                                                                int res_rows, int res_columns,
                                                                float *blend, float *lowest,
                                                                float *span) {
  noise_rows_body(key, side, res_rows, res_columns, blend, lowest, span);
}
#endif

int crafter_cc_noise_parts(crafter_jaxkey key, int side, int res_rows, int res_columns,
                           enum crafter_cc_arith arith, float *blend, float *lowest,
                           float *reciprocal, float *span) {
  if (arith == CRAFTER_CC_AS_JAX && !crafter_kernels_plain()) {
#if defined(CRAFTER_FASTGEN_X86)
    if (crafter_kernels_level() >= 3)
      noise_rows_avx2(key, side, res_rows, res_columns, blend, lowest, span);
    else
#endif
      noise_rows_plain(key, side, res_rows, res_columns, blend, lowest, span);
    *reciprocal = 1.0f / *span;
    return 0;
  }
  struct noise *noise = malloc(sizeof *noise);
  if (!noise) return -1;
  noise_side(key, side, res_rows, res_columns, noise, arith);
  memcpy(blend, noise->blend, (size_t)side * (size_t)side * sizeof *blend);
  *lowest = noise->lowest;
  *reciprocal = noise->reciprocal;
  *span = noise->span;
  free(noise);
  return 0;
}

/* noise - min as the map's kernel takes it: XLA computes the noise once
 * for its min and max (blend * sqrt(2) rounded, a reduction after it)
 * and again in the kernel that makes the map, where the product meets
 * the subtraction of the min in one multiply-add (fmaf(blend, sqrt(2),
 * -min)); rounded first, 1 of about 5,000 worlds differs by a cell. */
static inline float above_lowest(const struct noise *noise, int n, enum crafter_cc_arith arith) {
  return madd(noise->blend[n], sqrtf(2.0f), -noise->lowest, arith);
}

/* The normalised noise of a cell, (noise - min) / (max - min), as the
 * paths and trees take it. */
static inline float normalised(const struct noise *noise, int n, enum crafter_cc_arith arith) {
  float above = above_lowest(noise, n, arith);
  if (arith == CRAFTER_CC_TRUE_DIVISION) return above / noise->span;
  return noise->reciprocal * above;
}

/* normalised + c, with the multiply-add XLA makes of it. */
static inline float normalised_plus(const struct noise *noise, int n, float c,
                                    enum crafter_cc_arith arith) {
  if (arith == CRAFTER_CC_TRUE_DIVISION) return normalised(noise, n, arith) + c;
  return madd(noise->reciprocal, above_lowest(noise, n, arith), c, arith);
}

int crafter_cc_noise(crafter_jaxkey key, int res_rows, int res_columns, float *out) {
  struct noise *noise = malloc(sizeof *noise);
  if (!noise) return -1;
  noise_arith(key, res_rows, res_columns, noise, CRAFTER_CC_AS_JAX);
  /* the noise alone: its values as stored, normalised */
  for (int n = 0; n < CELLS; n++) out[n] = noise->reciprocal * (noise->raw[n] - noise->lowest);
  free(noise);
  return 0;
}

crafter_jaxkey crafter_cc_reset_key(int64_t seed) {
  return crafter_jax_split_one(crafter_jax_key(seed), 1);
}

/* The next `rng, _rng = split(rng)`: rng becomes the first key, the second
 * is returned. */
static crafter_jaxkey next_key(crafter_jaxkey *rng) {
  crafter_jaxkey pair[2];
  crafter_jax_split(*rng, pair, 2);
  *rng = pair[0];
  return pair[1];
}

/* The keys generate_world splits off, in its order. */
struct world_keys {
  crafter_jaxkey water, mountain, paths; /* their noise */
  crafter_jaxkey coal, iron, diamond;    /* their uniform draws */
  crafter_jaxkey trees, tree_draw;       /* the trees' noise and uniform */
  crafter_jaxkey extra_diamond, state;   /* the choice of a stone cell, the state's rng */
};

static void world_keys(crafter_jaxkey key, struct world_keys *k) {
  crafter_jaxkey rng = key;
  k->water = next_key(&rng);
  next_key(&rng); /* water's key, unused */
  k->mountain = next_key(&rng);
  k->paths = next_key(&rng);
  next_key(&rng); /* caves' key, unused */
  k->coal = next_key(&rng);
  k->iron = next_key(&rng);
  k->diamond = next_key(&rng);
  k->trees = next_key(&rng);
  k->tree_draw = rng; /* the trees' uniform takes rng itself */
  k->extra_diamond = next_key(&rng);
  k->state = next_key(&rng);
}

/* Element `cell` of uniform(key, (64, 64)): drawn only where it is used,
 * which the counter layout allows (element i depends on the key and i). */
static inline float uniform_at(crafter_jaxkey key, int cell) {
  uint32_t x[2] = {0U, (uint32_t)cell};
  crafter_jax_threefry2x32_inline(key, x);
  return crafter_jax_unit_of_bits(x[0] ^ x[1]);
}

static void fill_mobs(crafter_cc_mobs *mobs, int slots, int32_t health) {
  memset(mobs, 0, sizeof *mobs);
  for (int n = 0; n < slots; n++) mobs->health[n] = health;
}

/* generate_world's map, the plain way: cell by cell, as the reference
 * writes it, in the arithmetic `arith` says.  Returns 0, or -1 when
 * memory cannot be had. */
static int plain_map(const struct world_keys *keys, enum crafter_cc_arith arith, uint8_t *map) {
  const int centre = SIZE / 2;
  /* The distance to the player, / 5 (times float32 1/5), clipped to
   * [0, 1]. */
  float proximity[CELLS];
  const float fifth = 1.0f / 5.0f;
  for (int i = 0; i < SIZE; i++)
    for (int j = 0; j < SIZE; j++) {
      float distance = (float)(abs(i - centre) + abs(j - centre));
      float near = arith == CRAFTER_CC_TRUE_DIVISION ? distance / 5.0f : distance * fifth;
      proximity[i * SIZE + j] = near < 0.0f ? 0.0f : near > 1.0f ? 1.0f : near;
    }

  static const int small = SIZE / 16, larger = SIZE / 4;
  struct noise *noises = malloc(4 * sizeof *noises);
  if (!noises) return -1;
  struct noise *water = &noises[0], *mountain = &noises[1], *paths = &noises[2],
               *trees = &noises[3];
  noise_arith(keys->water, small, small, water, arith);
  noise_arith(keys->mountain, small, small, mountain, arith);
  noise_arith(keys->paths, SIZE / 8, SIZE / 2, paths, arith);
  noise_arith(keys->trees, larger, larger, trees, arith);

  for (int i = 0; i < SIZE; i++)
    for (int j = 0; j < SIZE; j++) {
      int n = i * SIZE + j;
      /* water = noise + proximity - 1; mountain = noise + 0.05 +
       * proximity - 1, each sum rounded in Python's order */
      float wet = normalised_plus(water, n, proximity[n], arith) - 1.0f;
      float high = normalised_plus(mountain, n, 0.05f, arith) + proximity[n];
      high = high - 1.0f;
      uint8_t block = wet > 0.7f ? CRAFTER_CC_WATER : CRAFTER_CC_GRASS;
      if (wet < 0.75f && wet > 0.6f && block != CRAFTER_CC_WATER) block = CRAFTER_CC_SAND;
      int stony = high > 0.7f;
      if (stony) block = CRAFTER_CC_STONE;
      /* path_x and its transpose path_y */
      if (stony && normalised(paths, n, arith) > 0.8f) block = CRAFTER_CC_PATH;
      if (stony && normalised(paths, j * SIZE + i, arith) > 0.8f) block = CRAFTER_CC_PATH;
      if (high > 0.85f && wet > 0.4f) block = CRAFTER_CC_PATH;
      if (block == CRAFTER_CC_STONE && uniform_at(keys->coal, n) < 0.04f) block = CRAFTER_CC_COAL;
      if (block == CRAFTER_CC_STONE && uniform_at(keys->iron, n) < 0.03f) block = CRAFTER_CC_IRON;
      if (block == CRAFTER_CC_STONE && high > 0.8f && uniform_at(keys->diamond, n) < 0.005f)
        block = CRAFTER_CC_DIAMOND;
      /* (tree_noise > 0.5) * uniform > 0.8: the uniform only counts where
       * the noise is above one half (elsewhere 0 > 0.8 is false). */
      float woods = normalised(trees, n, arith);
      if (block == CRAFTER_CC_GRASS && woods > 0.5f && uniform_at(keys->tree_draw, n) > 0.8f)
        block = CRAFTER_CC_TREE;
      if (high > 0.85f && woods > 0.7f) block = CRAFTER_CC_LAVA;
      map[n] = block;
    }
  free(noises);
  return 0;
}

/* The extra diamond, the plain way: p = stone / count stored, its
 * cumulative sum computed whole. */
static int plain_choice(crafter_jaxkey key, const uint8_t *map, int32_t *cell) {
  float p[CELLS];
  float stones = 0.0f;
  for (int n = 0; n < CELLS; n++) stones += map[n] == CRAFTER_CC_STONE ? 1.0f : 0.0f;
  for (int n = 0; n < CELLS; n++) p[n] = (map[n] == CRAFTER_CC_STONE ? 1.0f : 0.0f) / stones;
  return crafter_jax_choice_p(key, p, CELLS, cell, 1);
}

/* A field of noise_arith's with CRAFTER_CC_AS_JAX, by the kernels. */
static void fast_noise(const crafter_cc_kernels *kernels, crafter_jaxkey key, int res_rows,
                       int res_columns, crafter_cc_field *field) {
  crafter_jaxkey fractal_key = crafter_jax_split_one(key, 1);
  crafter_jaxkey perlin_key = crafter_jax_split_one(fractal_key, 1);
  float cosine[CRAFTER_CC_LATTICE_ROOM], sine[CRAFTER_CC_LATTICE_ROOM];
  kernels->gradients(perlin_key, (res_rows + 1) * (res_columns + 1), cosine, sine);
  kernels->noise(cosine, sine, res_rows, res_columns, field);
}

/* generate_world's map, the fast way (cc_kernels.h): plain_map's with
 * CRAFTER_CC_AS_JAX, bit for bit. */
static int fast_map(const struct world_keys *keys, uint8_t *map) {
  const crafter_cc_kernels *kernels = crafter_kernels_cc();
  crafter_cc_field *fields = malloc(4 * sizeof *fields);
  if (!fields) return -1;
  fast_noise(kernels, keys->water, SIZE / 16, SIZE / 16, &fields[0]);
  fast_noise(kernels, keys->mountain, SIZE / 16, SIZE / 16, &fields[1]);
  fast_noise(kernels, keys->paths, SIZE / 8, SIZE / 2, &fields[2]);
  fast_noise(kernels, keys->trees, SIZE / 4, SIZE / 4, &fields[3]);
  const crafter_jaxkey draws[4] = {keys->coal, keys->iron, keys->diamond, keys->tree_draw};
  kernels->terrain(fields, draws, map);
  free(fields);
  return 0;
}

int crafter_cc_generate_world_arith(crafter_jaxkey key, enum crafter_cc_arith arith,
                                    crafter_cc_state *state) {
  memset(state, 0, sizeof *state);
  const int centre = SIZE / 2;
  struct world_keys keys;
  world_keys(key, &keys);
  uint8_t *map = &state->map[0][0];
  int fast = arith == CRAFTER_CC_AS_JAX && !crafter_kernels_plain();
  if ((fast ? fast_map(&keys, map) : plain_map(&keys, arith, map)) != 0) return -1;
  state->map[centre][centre] = CRAFTER_CC_GRASS;

  /* One more diamond, on a stone cell drawn with p = stone / count.  With
   * no stone the index is 4096, past the map: jnp.take gives its fill
   * value for it, an index no cell has, and the map's .at[].set drops the
   * write. */
  int32_t diamond;
  if ((fast ? crafter_jax_choice_equal(keys.extra_diamond, map, CELLS, CRAFTER_CC_STONE,
                                       &diamond, 1)
            : plain_choice(keys.extra_diamond, map, &diamond)) != 0)
    return -1;
  if (diamond >= 0 && diamond < CELLS) map[diamond] = CRAFTER_CC_DIAMOND;

  state->player_position[0] = centre;
  state->player_position[1] = centre;
  state->player_direction = 3; /* Action.UP */
  state->player_health = state->player_food = state->player_drink = state->player_energy = 9;
  fill_mobs(&state->zombies, CRAFTER_CC_MAX_ZOMBIES, 1);
  fill_mobs(&state->cows, CRAFTER_CC_MAX_COWS, 3); /* cow_health */
  fill_mobs(&state->skeletons, CRAFTER_CC_MAX_SKELETONS, 0);
  fill_mobs(&state->arrows, CRAFTER_CC_MAX_ARROWS, 0);
  for (int n = 0; n < CRAFTER_CC_MAX_ARROWS; n++)
    state->arrow_directions[n][0] = state->arrow_directions[n][1] = 1;
  /* calculate_light_level(0): 1 - |cos(pi * 0.3)| ** 3 */
  float c = fabsf(cosf((float)(3.141592653589793 * 0.3)));
  state->light_level = 1.0f - c * c * c;
  state->state_rng = keys.state;
  return 0;
}

int crafter_cc_generate_world(crafter_jaxkey key, crafter_cc_state *state) {
  return crafter_cc_generate_world_arith(key, CRAFTER_CC_AS_JAX, state);
}
