#include "game/cx_worldgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "game/cc_worldgen.h" /* the Perlin noise Classic's generation shares */
#include "kernels/kernels.h"

/* The arithmetic is that of the machine code XLA's CPU compiler (jax
 * 0.10.1) makes of craftax's graph, which vmaps generate_smoothworld over
 * the six configurations and generate_dungeon over the three.  The noise
 * is Classic's (cc_worldgen.c says where XLA fuses its multiply-adds),
 * on a 48x48 map; as in Classic it is computed again in each fusion that
 * makes the map, where times sqrt(2) minus the min is one multiply-add,
 * then times the reciprocal of the span.  The proximity to the player is
 * the distance (sqrt of an integer, correctly rounded) times the float32
 * reciprocal of the configuration's strength, clipped.  The water's noise
 * meets the proximity in one multiply-add, the mountain's its 0.05 in
 * one; each further sum is rounded in Python's order.  Python constants
 * are rounded to float32 where they meet a float32 array. */

enum { SIDE = CRAFTER_CX_MAP_SIZE, CELLS = SIDE * SIDE, SMOOTH = 6, DUNGEONS = 3 };

/* ---- the configurations (world_gen_configs.py) ---- */

struct smooth_config {
  uint8_t default_block, sea_block, coast_block, mountain_block, path_block, inner_mountain_block;
  uint8_t ore_requirement[5], ores[5];
  float ore_chances[5];
  uint8_t tree_requirement, tree, lava, player_spawn, valid_ladder, ladder_up, ladder_down;
  int water_strength;
  float water_max;
  int mountain_strength;
  float mountain_max;
  float default_light, water_threshold, sand_threshold, tree_uniform, tree_perlin;
};

#define B(name) CRAFTER_CX_##name
static const struct smooth_config smooth_configs[SMOOTH] = {
    /* the overworld */
    {B(GRASS), B(WATER), B(SAND), B(STONE), B(PATH), B(PATH),
     {B(STONE), B(STONE), B(STONE), B(STONE), B(STONE)},
     {B(COAL), B(IRON), B(DIAMOND), B(OUT_OF_BOUNDS), B(OUT_OF_BOUNDS)},
     {0.03f, 0.02f, 0.001f, 0.0f, 0.0f},
     B(GRASS), B(TREE), B(LAVA), B(GRASS), B(PATH), 0, 1,
     5, 1.0f, 5, 1.0f,
     1.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    /* the gnomish mines */
    {B(PATH), B(WATER), B(PATH), B(STONE), B(STONE), B(STONE),
     {B(STONE), B(STONE), B(STONE), B(STONE), B(STONE)},
     {B(COAL), B(IRON), B(DIAMOND), B(SAPPHIRE), B(RUBY)},
     {0.04f, 0.02f, 0.005f, 0.0025f, 0.0025f},
     B(PATH), B(STALAGMITE), B(LAVA), B(PATH), B(PATH), 1, 1,
     5, 1.0f, 17, 1.5f,
     0.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    /* the troll mines */
    {B(PATH), B(WATER), B(PATH), B(STONE), B(STONE), B(STONE),
     {B(STONE), B(STONE), B(STONE), B(STONE), B(STONE)},
     {B(COAL), B(IRON), B(DIAMOND), B(SAPPHIRE), B(RUBY)},
     {0.04f, 0.03f, 0.01f, 0.01f, 0.01f},
     B(PATH), B(STALAGMITE), B(LAVA), B(PATH), B(PATH), 1, 1,
     5, 1.0f, 17, 1.5f,
     0.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    /* the fire level */
    {B(FIRE_GRASS), B(LAVA), B(SAND), B(STONE), B(STONE), B(STONE),
     {B(STONE), B(STONE), B(STONE), B(STONE), B(STONE)},
     {B(COAL), B(IRON), B(DIAMOND), B(SAPPHIRE), B(RUBY)},
     {0.05f, 0.0f, 0.0f, 0.0f, 0.025f},
     B(FIRE_GRASS), B(FIRE_TREE), B(LAVA), B(FIRE_GRASS), B(FIRE_GRASS), 1, 1,
     5, 1.0f, 5, 1.0f,
     1.0f, 0.5f, 0.6f, 0.8f, 0.5f},
    /* the ice level */
    {B(ICE_GRASS), B(WATER), B(ICE_GRASS), B(STONE), B(STONE), B(STONE),
     {B(STONE), B(STONE), B(STONE), B(STONE), B(STONE)},
     {B(COAL), B(IRON), B(DIAMOND), B(SAPPHIRE), B(RUBY)},
     {0.0f, 0.0f, 0.005f, 0.02f, 0.0f},
     B(ICE_GRASS), B(ICE_SHRUB), B(WATER), B(ICE_GRASS), B(ICE_GRASS), 1, 1,
     5, 1.0f, 17, 1.5f,
     0.0f, 0.5f, 0.6f, 0.4f, 0.5f},
    /* the boss level */
    {B(PATH), B(PATH), B(PATH), B(WALL), B(WALL), B(WALL),
     {B(WALL), B(GRAVE), B(GRAVE), B(WALL), B(WALL)},
     {B(WALL_MOSS), B(GRAVE2), B(GRAVE3), B(SAPPHIRE), B(RUBY)},
     {0.1f, 0.333f, 0.5f, 0.0f, 0.0f},
     B(PATH), B(GRAVE), B(WALL), B(NECROMANCER), B(PATH), 0, 0,
     5, 1.0f, 10, 10.0f,
     0.0f, 0.7f, 0.6f, 0.95f, -1.0f},
};

struct dungeon_config {
  uint8_t special_block, fountain_block, rare_path_replacement;
};
static const struct dungeon_config dungeon_configs[DUNGEONS] = {
    {B(PATH), B(FOUNTAIN), B(PATH)},                  /* the dungeon */
    {B(ENCHANTMENT_TABLE_ICE), B(WATER), B(WATER)},   /* the sewers */
    {B(ENCHANTMENT_TABLE_FIRE), B(FOUNTAIN), B(PATH)} /* the vaults */
};
#undef B

/* Where each generator's floor lies in the state: the smoothgens' and
 * the dungeons' results stacked as (x0, y0, x1, y1, y2, x2, x3, x4, x5). */
static const int smooth_floor[SMOOTH] = {0, 2, 5, 6, 7, 8};
static const int dungeon_floor[DUNGEONS] = {1, 3, 4};

/* ---- keys ---- */

/* The next `rng, _rng = split(rng)`: rng becomes the first key, the second
 * is returned. */
static crafter_jaxkey next_key(crafter_jaxkey *rng) {
  crafter_jaxkey pair[2];
  crafter_jax_split(*rng, pair, 2);
  *rng = pair[0];
  return pair[1];
}

crafter_jaxkey crafter_cx_reset_key(int64_t seed) {
  crafter_jaxkey k = crafter_jax_split_one(crafter_jax_key(seed), 1);
  return crafter_jax_split_one(k, 1);
}

/* generate_world's keys: split(rng, 7) for the smoothgens, then
 * split(rng[0], 4) for the dungeons, then the potions' and the state's. */
struct world_keys {
  crafter_jaxkey smooth[SMOOTH], dungeon[DUNGEONS], potions, state;
};

static void world_keys(crafter_jaxkey key, struct world_keys *k) {
  crafter_jaxkey seven[7], four[4];
  crafter_jax_split(key, seven, 7);
  for (int n = 0; n < SMOOTH; n++) k->smooth[n] = seven[1 + n];
  crafter_jax_split(seven[0], four, 4);
  for (int n = 0; n < DUNGEONS; n++) k->dungeon[n] = four[1 + n];
  crafter_jaxkey rng = four[0];
  k->potions = next_key(&rng);
  k->state = next_key(&rng);
}

/* bits(key, (48, 48)), every cell's random bits, hashed CRAFTER_JAX_WIDE
 * at a time in vector registers (the lanes of kernels/jaxrng.h). */
static void bits_of_map(crafter_jaxkey key, uint32_t bits[CELLS]) {
  _Static_assert(CELLS % CRAFTER_JAX_WIDE == 0, "whole vectors of cells");
  const int level = crafter_kernels_plain() ? 0 : crafter_kernels_level();
  uint32_t k0[CRAFTER_JAX_WIDE], k1[CRAFTER_JAX_WIDE], x0[CRAFTER_JAX_WIDE], x1[CRAFTER_JAX_WIDE];
  for (int lane = 0; lane < CRAFTER_JAX_WIDE; lane++) k0[lane] = key.word[0], k1[lane] = key.word[1];
  for (int first = 0; first < CELLS; first += CRAFTER_JAX_WIDE) {
    for (int lane = 0; lane < CRAFTER_JAX_WIDE; lane++) x0[lane] = 0U, x1[lane] = (uint32_t)(first + lane);
    crafter_jax_threefry2x32_wide(level, k0, k1, x0, x1);
    for (int lane = 0; lane < CRAFTER_JAX_WIDE; lane++) bits[first + lane] = x0[lane] ^ x1[lane];
  }
}

/* uniform(key, (48, 48)) as float32 in [0, 1), every cell. */
static void uniform_of_map(crafter_jaxkey key, float out[CELLS]) {
  uint32_t bits[CELLS];
  bits_of_map(key, bits);
  for (int n = 0; n < CELLS; n++) out[n] = crafter_jax_unit_of_bits(bits[n]);
}

/* choice(key, arange(n), p=mask) for a mask of 0 and 1 (booleans or
 * float32 ones): p's cumulative sum is the count of ones so far, exact in
 * float32 whatever the order of its sums.  With no one, r is 0 and the
 * search ends at index 0. */
static int32_t choice_mask(crafter_jaxkey key, const uint8_t *mask, long n) {
  /* The sums are the integers 1, 2, ... at the mask's ones: the first sum
   * at or above r = count * (1 - u) is the k-th one, k = ceil(r) (index 0
   * when r is 0).  So the search of crafter_jax_choice_cumsum over those
   * sums ends where the k-th one of the mask lies. */
  long count = 0;
  for (long i = 0; i < n; i++) count += mask[i] != 0;
  float r = (float)count * (1.0f - crafter_jax_unit_of_bits(crafter_jax_bits_at(key, 0)));
  if (!(r > 0.0f)) return 0;
  long k = (long)ceilf(r), seen = 0;
  for (long i = 0; i < n; i++)
    if (mask[i] && ++seen == k) return (int32_t)i;
  return (int32_t)n;
}

/* A cell drawn from the map, as position = [index // 48, index % 48] of
 * jnp.take(arange(2304), index).  The choices here never give an index
 * past the end (with no cell wanted, JAX's search ends at 0); were one
 * given, jnp.take's fill value, int32's least, would be floor-divided and
 * taken mod 48 as Python does. */
static void cell_position(int32_t index, int32_t position[2]) {
  if (index < 0 || index >= CELLS) {
    int64_t fill = INT32_MIN, q = fill / SIDE, r = fill % SIDE;
    if (r != 0 && r < 0) q -= 1, r += SIDE;
    position[0] = (int32_t)q;
    position[1] = (int32_t)r;
    return;
  }
  position[0] = index / SIDE;
  position[1] = index % SIDE;
}

/* The cell at position, or -1 off the map (a write there is dropped; a
 * negative index counts from the end first, as JAX's indexing does). */
static int cell_at(const int32_t position[2]) {
  int32_t row = position[0] < 0 ? position[0] + SIDE : position[0];
  int32_t column = position[1] < 0 ? position[1] + SIDE : position[1];
  if (row < 0 || row >= SIDE || column < 0 || column >= SIDE) return -1;
  return row * SIDE + column;
}

/* ---- the smoothed floors (generate_smoothworld) ---- */

/* One noise field and what normalises it. */
struct field {
  float blend[CELLS];
  float lowest, reciprocal, span;
};

static int noise_field(crafter_jaxkey key, int res_rows, int res_columns,
                       enum crafter_cx_arith arith, struct field *f) {
  return crafter_cc_noise_parts(key, SIDE, res_rows, res_columns,
                                arith == CRAFTER_CX_UNFUSED ? CRAFTER_CC_UNFUSED : CRAFTER_CC_AS_JAX,
                                f->blend, &f->lowest, &f->reciprocal, &f->span);
}

/* a*b + c, as one fused multiply-add where XLA's code has one. */
static inline float madd(float a, float b, float c, enum crafter_cx_arith arith) {
  if (arith != CRAFTER_CX_UNFUSED) return fmaf(a, b, c);
  float product = a * b;
  return product + c;
}

/* x / y where XLA computes x * (1 / y), 1 / y given. */
static inline float divided(float x, float y, float reciprocal, enum crafter_cx_arith arith) {
  return arith == CRAFTER_CX_TRUE_DIVISION ? x / y : x * reciprocal;
}

/* TORCH_LIGHT_MAP: 1 - distance / 5 from the middle of a 9x9 square,
 * clipped to [0, 1], as craftax's constants compute it eagerly: the
 * division is a multiplication by float32 1/5 there too. */
static float torch_light(int row, int column, enum crafter_cx_arith arith) {
  int dr = row - 4, dc = column - 4;
  float distance = sqrtf((float)(dr * dr + dc * dc));
  float light = 1.0f - divided(distance, 5.0f, 1.0f / 5.0f, arith);
  return light < 0.0f ? 0.0f : light > 1.0f ? 1.0f : light;
}

/* The lava's glow, jsp.signal.convolve(lava_map, z, mode="same") with
 * z = [[0.2, 0.7, 0.2], [0.7, 1, 0.7], [0.2, 0.7, 0.2]], into glow[]: the
 * window's products (each 0 or the weight; adding a 0 changes no sum)
 * summed row by row, the map's outside taken as no lava.  The order of
 * XLA's sum is not known: summed column by column instead, no light of
 * the 10,000 seeds of the golden file changes (the glow shows only on
 * the mines' floors, and is clipped at 1). */
static void lava_glow(const uint8_t *lava, float *glow) {
  enum { WIDE = SIDE + 2 };
  static const float weight[3][3] = {{0.2f, 0.7f, 0.2f}, {0.7f, 1.0f, 0.7f}, {0.2f, 0.7f, 0.2f}};
  float padded[WIDE * WIDE];
  memset(padded, 0, sizeof padded);
  for (int i = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j++) padded[(i + 1) * WIDE + j + 1] = lava[i * SIDE + j] ? 1.0f : 0.0f;
  for (int i = 0; i < SIDE; i++) { /* a row at a time; each cell's sum in the same order */
    float *sum = glow + i * SIDE;
    for (int j = 0; j < SIDE; j++) sum[j] = 0.0f;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        for (int j = 0; j < SIDE; j++) sum[j] += padded[(i + a) * WIDE + j + b] * weight[a][b];
  }
}

struct floor_out {
  uint8_t *map, *item_map;
  float *light_map;
  int32_t *down, *up;
};

/* The uniform draws of a smoothed floor: the trees' and each ore's. */
struct draws {
  float tree[CELLS];
  float ore[5][CELLS];
};

/* The block of every cell, and where lava lies, from the four noise
 * fields (water, mountain, paths, trees), the draws and the distance of
 * each cell to the player.  A pass over the map for each step of
 * generate_smoothworld, so that the compiler can take each a vector of
 * cells at a time.  Made twice below: as the build compiles it (fmaf a
 * library call where the baseline instruction set has no fused
 * multiply-add) and for processors with AVX2 and FMA; fmaf rounds once
 * either way, so the two agree bit for bit. */
struct cells {
  float wet[CELLS], high[CELLS], path[CELLS], path_across[CELLS], woods[CELLS];
  int32_t block[CELLS];
};

static inline __attribute__((always_inline)) void smooth_cells_body(
    const struct smooth_config *cfg, const struct field *fields, const struct draws *draws,
    const float *distance, struct cells *c, uint8_t *map, uint8_t *lava,
    enum crafter_cx_arith arith) {
  const struct field *water = &fields[0], *mountain = &fields[1], *paths = &fields[2],
                     *trees = &fields[3];
  const float root2 = sqrtf(2.0f);
  const float water_scale = 1.0f / (float)cfg->water_strength;
  const float mountain_scale = 1.0f / (float)cfg->mountain_strength;
  /* water = noise + proximity - 1; mountain = noise + 0.05 + proximity - 1 */
  const float water_strength = (float)cfg->water_strength;
  const float mountain_strength = (float)cfg->mountain_strength;
  /* The configuration's and the fields' numbers in locals: the stores
   * below could otherwise alias them, and they would be read again at
   * every cell. */
  const float water_max = cfg->water_max, mountain_max = cfg->mountain_max;
  const float water_low = -water->lowest, water_reciprocal = water->reciprocal,
              water_span = water->span;
  const float mountain_low = -mountain->lowest, mountain_reciprocal = mountain->reciprocal,
              mountain_span = mountain->span;
  const float path_low = -paths->lowest, path_reciprocal = paths->reciprocal,
              path_span = paths->span;
  const float tree_low = -trees->lowest, tree_reciprocal = trees->reciprocal,
              tree_span = trees->span;
  for (int n = 0; n < CELLS; n++) {
    float near = divided(distance[n], water_strength, water_scale, arith);
    near = near > 0.0f ? near : 0.0f;
    near = near < water_max ? near : water_max;
    float above = madd(water->blend[n], root2, water_low, arith);
    float wet = arith == CRAFTER_CX_TRUE_DIVISION ? above / water_span + near
                                                  : madd(above, water_reciprocal, near, arith);
    c->wet[n] = wet - 1.0f;
  }
  for (int n = 0; n < CELLS; n++) {
    float near = divided(distance[n], mountain_strength, mountain_scale, arith);
    near = near > 0.0f ? near : 0.0f;
    near = near < mountain_max ? near : mountain_max;
    float above = madd(mountain->blend[n], root2, mountain_low, arith);
    float high = arith == CRAFTER_CX_TRUE_DIVISION
                     ? above / mountain_span + 0.05f
                     : madd(above, mountain_reciprocal, 0.05f, arith);
    high = high + near;
    c->high[n] = high - 1.0f;
  }
  for (int n = 0; n < CELLS; n++)
    c->path[n] = divided(madd(paths->blend[n], root2, path_low, arith), path_span,
                         path_reciprocal, arith);
  for (int n = 0; n < CELLS; n++)
    c->woods[n] = divided(madd(trees->blend[n], root2, tree_low, arith), tree_span,
                          tree_reciprocal, arith);
  for (int i = 0; i < SIDE; i++) /* path_y = path_x.T */
    for (int j = 0; j < SIDE; j++) c->path_across[i * SIDE + j] = c->path[j * SIDE + i];
  const int32_t sea = cfg->sea_block, ground = cfg->default_block, coast = cfg->coast_block;
  const int32_t rock = cfg->mountain_block, path_block = cfg->path_block;
  const int32_t inner = cfg->inner_mountain_block;
  const float water_threshold = cfg->water_threshold, sand_threshold = cfg->sand_threshold;
  for (int n = 0; n < CELLS; n++) {
    float wet = c->wet[n], high = c->high[n];
    int32_t b = wet > water_threshold ? sea : ground;
    b = wet > sand_threshold && b != sea ? coast : b;
    b = high > 0.7f ? rock : b;
    b = high > 0.7f && c->path[n] > 0.8f ? path_block : b;
    b = high > 0.7f && c->path_across[n] > 0.8f ? path_block : b;
    b = high > 0.85f && wet > 0.4f ? inner : b;
    c->block[n] = b;
  }
  /* (tree_noise > perlin) * uniform > threshold */
  const int32_t wanted = cfg->tree_requirement, tree = cfg->tree;
  const float tree_perlin = cfg->tree_perlin, tree_uniform = cfg->tree_uniform;
  for (int n = 0; n < CELLS; n++) {
    float drawn = c->woods[n] > tree_perlin ? draws->tree[n] : 0.0f;
    c->block[n] = drawn > tree_uniform && c->block[n] == wanted ? tree : c->block[n];
  }
  for (int k = 0; k < 5; k++) {
    if (!(cfg->ore_chances[k] > 0.0f)) continue; /* u < 0 never holds */
    const int32_t needs = cfg->ore_requirement[k], ore = cfg->ores[k];
    const float chance = cfg->ore_chances[k];
    const float *drawn = draws->ore[k];
    for (int n = 0; n < CELLS; n++)
      c->block[n] = c->block[n] == needs && drawn[n] < chance ? ore : c->block[n];
  }
  const int32_t molten = cfg->lava;
  for (int n = 0; n < CELLS; n++) {
    int hot = c->high[n] > 0.85f && c->woods[n] > 0.7f;
    lava[n] = (uint8_t)hot;
    map[n] = (uint8_t)(hot ? molten : c->block[n]);
  }
}

static void smooth_cells_plain(const struct smooth_config *cfg, const struct field *fields,
                               const struct draws *draws, const float *distance,
                               struct cells *c, uint8_t *map, uint8_t *lava,
                               enum crafter_cx_arith arith) {
  smooth_cells_body(cfg, fields, draws, distance, c, map, lava, arith);
}

#if defined(CRAFTER_FASTGEN_X86)
__attribute__((target("avx2,fma"))) static void smooth_cells_avx2(
    const struct smooth_config *cfg, const struct field *fields, const struct draws *draws,
    const float *distance, struct cells *c, uint8_t *map, uint8_t *lava) {
  smooth_cells_body(cfg, fields, draws, distance, c, map, lava, CRAFTER_CX_AS_JAX);
}
#endif

static void smooth_cells(const struct smooth_config *cfg, const struct field *fields,
                         const struct draws *draws, const float *distance, struct cells *c,
                         uint8_t *map, uint8_t *lava, enum crafter_cx_arith arith) {
#if defined(CRAFTER_FASTGEN_X86)
  if (arith == CRAFTER_CX_AS_JAX && crafter_kernels_level() >= 3 && !crafter_kernels_plain()) {
    smooth_cells_avx2(cfg, fields, draws, distance, c, map, lava); /* x86-64-v3: AVX2, FMA */
    return;
  }
#endif
  smooth_cells_plain(cfg, fields, draws, distance, c, map, lava, arith);
}

/* The memory a world's generation works in, taken once a world. */
enum { PADDED_CELLS = (SIDE + 20) * (SIDE + 20) };
struct workspace {
  struct field fields[4];
  struct draws draws;
  struct cells cells;
  float glow[CELLS];
  uint8_t lava[CELLS], valid[CELLS];
  uint8_t grid[2 * PADDED_CELLS];
};

static int smooth_floor_gen(crafter_jaxkey key, const struct smooth_config *cfg,
                            const float *distance, enum crafter_cx_arith arith,
                            struct workspace *work, struct floor_out *out) {
  crafter_jaxkey rng = key;
  crafter_jaxkey water_key = next_key(&rng);
  next_key(&rng); /* water's key, unused */
  crafter_jaxkey mountain_key = next_key(&rng);
  crafter_jaxkey path_key = next_key(&rng);
  next_key(&rng); /* caves' key, unused */
  crafter_jaxkey tree_key = next_key(&rng);
  crafter_jaxkey tree_draw = rng; /* the trees' uniform takes rng itself */
  crafter_jaxkey ore_rng = next_key(&rng), ore_keys[5];
  for (int k = 0; k < 5; k++) ore_keys[k] = next_key(&ore_rng);
  next_key(&rng); /* the extra diamond's choice: a stone cell set to stone */
  crafter_jaxkey down_key = next_key(&rng);
  crafter_jaxkey up_key = next_key(&rng);

  struct field *fields = work->fields;
  uint8_t *lava = work->lava;
  struct draws *draws = &work->draws;
  struct cells *cells = &work->cells;
  if (noise_field(water_key, SIDE / 16, SIDE / 16, arith, &fields[0]) != 0 ||
      noise_field(mountain_key, SIDE / 16, SIDE / 16, arith, &fields[1]) != 0 ||
      noise_field(path_key, SIDE / 8, SIDE / 2, arith, &fields[2]) != 0 ||
      noise_field(tree_key, SIDE / 4, SIDE / 4, arith, &fields[3]) != 0)
    return -1;
  /* The uniform draws, whole (the ores whose chance is 0 never place). */
  uniform_of_map(tree_draw, draws->tree);
  for (int k = 0; k < 5; k++)
    if (cfg->ore_chances[k] > 0.0f) uniform_of_map(ore_keys[k], draws->ore[k]);
  uint8_t *map = out->map;
  smooth_cells(cfg, fields, draws, distance, cells, map, lava, arith);
  /* The extra diamond (always_diamond off): a stone cell drawn with p =
   * stone / count is set to stone, which changes nothing; with no stone
   * p is NaN everywhere, and JAX's search, which compares in the total
   * order (a NaN equal to itself), goes left at every step: cell 0 is set
   * to stone. */
  const int centre = SIDE / 2;
  int stones = 0;
  for (int n = 0; n < CELLS; n++) stones += map[n] == CRAFTER_CX_STONE;
  if (stones == 0) map[0] = CRAFTER_CX_STONE;
  map[centre * SIDE + centre] = cfg->player_spawn;

  /* The ladders: cells of valid_ladder drawn with p = the mask itself. */
  uint8_t *valid = work->valid;
  for (int n = 0; n < CELLS; n++) valid[n] = map[n] == cfg->valid_ladder;
  memset(out->item_map, 0, CELLS);
  cell_position(choice_mask(down_key, valid, CELLS), out->down);
  int down_cell = cell_at(out->down);
  if (cfg->ladder_down && down_cell >= 0) out->item_map[down_cell] = CRAFTER_CX_ITEM_LADDER_DOWN;
  cell_position(choice_mask(up_key, valid, CELLS), out->up);

  /* The light: default_light, a torch's light around the ladder up, the
   * lava's glow, clipped to [0, 1].  The torch's 9x9 square starts at
   * ladder - 4 as dynamic_update_slice takes a start: a negative one
   * counts from the end (-1 is 47), then it is clamped so the square
   * fits (to 39): a ladder near the top or left edge lights a square at
   * the far edge. */
  float *light = out->light_map;
  for (int n = 0; n < CELLS; n++) light[n] = cfg->default_light;
  int top = out->up[0] - 4, left = out->up[1] - 4;
  if (top < 0) top += SIDE;
  if (left < 0) left += SIDE;
  top = top < 0 ? 0 : top > SIDE - 9 ? SIDE - 9 : top;
  left = left < 0 ? 0 : left > SIDE - 9 ? SIDE - 9 : left;
  for (int a = 0; a < 9; a++)
    for (int b = 0; b < 9; b++)
      light[(top + a) * SIDE + left + b] =
          torch_light(a, b, arith) * (1.0f - cfg->default_light) + cfg->default_light;
  /* Where the light is 1 already the glow (never negative) is clipped
   * away; where z is 0 (lava another block) it adds 0. */
  int lava_cells = 0;
  for (int n = 0; n < CELLS; n++) lava_cells += lava[n];
  int glows = cfg->lava == CRAFTER_CX_LAVA && lava_cells > 0 && cfg->default_light < 1.0f;
  if (glows) {
    float *glow = work->glow;
    lava_glow(lava, glow);
    for (int n = 0; n < CELLS; n++) {
      float sum = light[n] + glow[n];
      light[n] = sum < 0.0f ? 0.0f : sum > 1.0f ? 1.0f : sum;
    }
  }
  int up_cell = cell_at(out->up);
  if (cfg->ladder_up && up_cell >= 0) out->item_map[up_cell] = CRAFTER_CX_ITEM_LADDER_UP;
  return 0;
}

/* ---- the dungeons (generate_dungeon) ---- */

enum { ROOMS = 8, MIN_ROOM = 5, MAX_ROOM = 10, CHUNK = 16, CHUNKS = 3, PAD = MAX_ROOM,
       PADDED = SIDE + 2 * PAD };

static int dungeon_floor_gen(crafter_jaxkey key, const struct dungeon_config *cfg,
                             struct workspace *work, struct floor_out *out) {
  crafter_jaxkey three[3];
  crafter_jax_split(key, three, 3);
  crafter_jaxkey rng = three[0];
  int32_t sizes[ROOMS][2];
  crafter_jax_randint(three[2], &sizes[0][0], 2 * ROOMS, MIN_ROOM, MAX_ROOM);

  static const int padded_cells = PADDED * PADDED;
  _Static_assert(PADDED * PADDED <= PADDED_CELLS, "room for the padded floor");
  uint8_t *grid = work->grid, *items = grid + padded_cells;
  for (int r = 0; r < PADDED; r++)
    for (int c = 0; c < PADDED; c++) {
      int inside = r >= PAD && r < PAD + SIDE && c >= PAD && c < PAD + SIDE;
      grid[r * PADDED + c] = inside ? CRAFTER_CX_WALL : 0;
      items[r * PADDED + c] = 0;
    }
#define AT(r, c) ((r) * PADDED + (c))

  /* The rooms, one a chunk of the 3x3 chunks. */
  crafter_jaxkey room_rng = next_key(&rng);
  uint8_t occupied[CHUNKS * CHUNKS];
  memset(occupied, 1, sizeof occupied);
  int32_t rooms[ROOMS][2];
  for (int room = 0; room < ROOMS; room++) {
    int32_t chunk = choice_mask(next_key(&room_rng), occupied, CHUNKS * CHUNKS);
    if (chunk >= 0 && chunk < CHUNKS * CHUNKS) occupied[chunk] = 0;
    int32_t offset[2];
    crafter_jax_randint(next_key(&room_rng), offset, 2, 0, CHUNK - MIN_ROOM);
    int32_t row = (chunk % CHUNKS) * CHUNK + PAD + offset[0];
    int32_t column = (chunk / CHUNKS) * CHUNK + PAD + offset[1];
    rooms[room][0] = row;
    rooms[room][1] = column;
    for (int a = 0; a < sizes[room][0]; a++)
      for (int b = 0; b < sizes[room][1]; b++) grid[AT(row + a, column + b)] = CRAFTER_CX_PATH;
    int last_row = row + sizes[room][0] - 1, last_column = column + sizes[room][1] - 1;
    items[AT(row, column)] = CRAFTER_CX_ITEM_TORCH;
    items[AT(last_row, column)] = CRAFTER_CX_ITEM_TORCH;
    items[AT(row, last_column)] = CRAFTER_CX_ITEM_TORCH;
    items[AT(last_row, last_column)] = CRAFTER_CX_ITEM_TORCH;
    /* The chest, at randint(1, size - 1) inside the room. */
    crafter_jaxkey chest_key = next_key(&room_rng);
    int32_t chest[2];
    for (int d = 0; d < 2; d++)
      chest[d] = crafter_jax_randint_at(chest_key, (uint64_t)d, 1, sizes[room][d] - 1);
    grid[AT(row + chest[0], column + chest[1])] = CRAFTER_CX_CHEST;
    /* The fountain, in half the rooms. */
    crafter_jaxkey fountain_keys[3];
    crafter_jax_split(room_rng, fountain_keys, 3);
    room_rng = fountain_keys[0];
    int32_t fountain[2];
    for (int d = 0; d < 2; d++)
      fountain[d] = crafter_jax_randint_at(fountain_keys[1], (uint64_t)d, 1, sizes[room][d] - 1);
    if (crafter_jax_uniform1(fountain_keys[2]) > 0.5f)
      grid[AT(row + fountain[0], column + fountain[1])] = cfg->fountain_block;
  }

  /* The corridors: from each room along its row to the column of a room
   * already joined, then along that column to its row; only walls become
   * path. */
  crafter_jaxkey path_rng = next_key(&rng);
  uint8_t included[ROOMS] = {0};
  included[ROOMS - 1] = 1;
  for (int room = 0; room < ROOMS; room++) {
    int32_t sink = choice_mask(next_key(&path_rng), included, ROOMS);
    const int32_t *source = rooms[room];
    int32_t sink_row = sink < ROOMS ? rooms[sink][0] : 0, sink_column = sink < ROOMS ? rooms[sink][1] : 0;
    int32_t across = sink_column - source[1], down = sink_row - source[0];
    int sign_across = (across > 0) - (across < 0), sign_down = (down > 0) - (down < 0);
    if (sign_across)
      for (int c = 0; c < PADDED; c++) {
        int32_t step = (c - source[1]) * sign_across;
        if (step >= 0 && step <= abs(across) && grid[AT(source[0], c)] == CRAFTER_CX_WALL)
          grid[AT(source[0], c)] = CRAFTER_CX_PATH;
      }
    if (sign_down && sink_column >= 0 && sink_column < PADDED)
      for (int r = 0; r < PADDED; r++) {
        int32_t step = (r - source[0]) * sign_down;
        if (step >= 0 && step <= abs(down) && grid[AT(r, sink_column)] == CRAFTER_CX_WALL)
          grid[AT(r, sink_column)] = CRAFTER_CX_PATH;
      }
    crafter_jaxkey pair[2];
    crafter_jax_split(path_rng, pair, 2);
    path_rng = pair[1];
    included[room] = 1;
  }
  grid[AT(rooms[0][0] + 2, rooms[0][1] + 2)] = cfg->special_block;

  /* Cropped to the map. */
  uint8_t *map = out->map, *item_map = out->item_map;
  for (int r = 0; r < SIDE; r++)
    for (int c = 0; c < SIDE; c++) {
      map[r * SIDE + c] = grid[AT(r + PAD, c + PAD)];
      item_map[r * SIDE + c] = items[AT(r + PAD, c + PAD)];
    }
#undef AT

  /* Walls next to no path (nor on one) become darkness; a tenth of the
   * cells, drawn for the whole map, make walls mossy and bare paths the
   * configuration's rare block. */
  crafter_jaxkey rare_key = next_key(&rng);
  const float odds[2] = {0.9f, 0.1f};
  float odds_sum[2];
  crafter_jax_cumsum(odds, 2, odds_sum);
  uint8_t *shaded = grid; /* the padded grid is done with */
  uint32_t rare_bits[CELLS];
  bits_of_map(rare_key, rare_bits);
  for (int r = 0; r < SIDE; r++)
    for (int c = 0; c < SIDE; c++) {
      int n = r * SIDE + c;
      int open = map[n] != CRAFTER_CX_WALL;
      open |= r > 0 && map[n - SIDE] != CRAFTER_CX_WALL;
      open |= r < SIDE - 1 && map[n + SIDE] != CRAFTER_CX_WALL;
      open |= c > 0 && map[n - 1] != CRAFTER_CX_WALL;
      open |= c < SIDE - 1 && map[n + 1] != CRAFTER_CX_WALL;
      /* choice's search over two sums: r = sum * (1 - u) never exceeds
       * the last, so the index is 0 when r <= the first, else 1
       * (crafter_jax_choice_of_bits, its two steps written out) */
      float r = odds_sum[1] * (1.0f - crafter_jax_unit_of_bits(rare_bits[n]));
      int rare = !(r <= odds_sum[0]);
      uint8_t block;
      if (!open)
        block = CRAFTER_CX_DARKNESS;
      else if (map[n] == CRAFTER_CX_WALL)
        block = rare ? CRAFTER_CX_WALL_MOSS : CRAFTER_CX_WALL;
      else if (rare && map[n] == CRAFTER_CX_PATH && item_map[n] == CRAFTER_CX_ITEM_NONE)
        block = cfg->rare_path_replacement;
      else
        block = map[n];
      shaded[n] = block;
    }
  memcpy(map, shaded, CELLS);
  for (int n = 0; n < CELLS; n++) out->light_map[n] = 1.0f;

  /* The ladders: down with p = path / count, up with p = the mask.  With
   * no path p is NaN everywhere and JAX's search (in the total order)
   * ends at index 0. */
  int32_t index = 0;
  int paths = 0;
  for (int n = 0; n < CELLS; n++) paths += map[n] == CRAFTER_CX_PATH;
  crafter_jaxkey down_key = next_key(&rng);
  if (paths > 0 &&
      crafter_jax_choice_equal(down_key, map, CELLS, CRAFTER_CX_PATH, &index, 1) != 0)
    return -1;
  cell_position(index, out->down);
  int down_cell = cell_at(out->down);
  if (down_cell >= 0) item_map[down_cell] = CRAFTER_CX_ITEM_LADDER_DOWN;
  uint8_t *valid = grid;
  for (int n = 0; n < CELLS; n++) valid[n] = map[n] == CRAFTER_CX_PATH;
  cell_position(choice_mask(next_key(&rng), valid, CELLS), out->up);
  int up_cell = cell_at(out->up);
  if (up_cell >= 0) item_map[up_cell] = CRAFTER_CX_ITEM_LADDER_UP;
  return 0;
}

/* ---- the state ---- */

static void fill_mobs(crafter_cx_mobs *mobs, int slots) {
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
    for (int n = 0; n < slots; n++) mobs->health[f][n] = 1.0f;
}

/* permutation(key, arange(6)): one round (3 log 6 / log(2**32 - 1) < 1)
 * of a stable sort by 32 random bits of split(key)[1]. */
static void permutation6(crafter_jaxkey key, int32_t out[CRAFTER_CX_POTIONS]) {
  uint32_t bits[CRAFTER_CX_POTIONS];
  crafter_jax_bits(crafter_jax_split_one(key, 1), bits, CRAFTER_CX_POTIONS);
  for (int n = 0; n < CRAFTER_CX_POTIONS; n++) out[n] = n;
  for (int n = 1; n < CRAFTER_CX_POTIONS; n++) /* insertion sort: stable */
    for (int m = n; m > 0 && bits[m - 1] > bits[m]; m--) {
      uint32_t b = bits[m];
      bits[m] = bits[m - 1], bits[m - 1] = b;
      int32_t v = out[m];
      out[m] = out[m - 1], out[m - 1] = v;
    }
}

/* Floor f's map, item map, light map and ladders, made from the world's
 * keys in the work space given. */
static int make_floor(const struct world_keys *keys, int f, enum crafter_cx_arith arith,
                      struct workspace *work, crafter_cx_state *state) {
  struct floor_out out = {&state->map[f][0][0], &state->item_map[f][0][0],
                          &state->light_map[f][0][0], state->down_ladders[f],
                          state->up_ladders[f]};
  for (int n = 0; n < DUNGEONS; n++)
    if (dungeon_floor[n] == f) return dungeon_floor_gen(keys->dungeon[n], &dungeon_configs[n], work, &out);
  int n = 0;
  while (smooth_floor[n] != f) n++;
  /* Each cell's distance to the player, get_distance_map's sqrt of an
   * integer (correctly rounded, as XLA folds it). */
  float distance[CELLS];
  for (int i = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j++) {
      int di = i - SIDE / 2, dj = j - SIDE / 2;
      distance[i * SIDE + j] = sqrtf((float)(di * di + dj * dj));
    }
  return smooth_floor_gen(keys->smooth[n], &smooth_configs[n], distance, arith, work, &out);
}

/* The floors of `floors` (a bit each) made where still pending, with
 * pending_key's keys. */
static int make_floors(crafter_cx_state *state, unsigned floors, enum crafter_cx_arith arith) {
  floors &= state->pending_floors;
  if (!floors) return 0;
  struct workspace *work = malloc(sizeof *work);
  if (!work) return -1;
  struct world_keys keys;
  world_keys(state->pending_key, &keys);
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
    if ((floors >> f) & 1U) {
      if (make_floor(&keys, f, arith, work, state) != 0) {
        free(work);
        return -1;
      }
      state->pending_floors &= (uint16_t)~(1U << f);
    }
  free(work);
  return 0;
}

/* generate_world with the floors of `now` made and the others left
 * pending. */
static int generate(crafter_jaxkey key, enum crafter_cx_arith arith, unsigned now,
                    crafter_cx_state *state) {
  memset(state, 0, sizeof *state);
  struct world_keys keys;
  world_keys(key, &keys);
  state->pending_floors = (uint16_t)((1U << CRAFTER_CX_LEVELS) - 1U);
  state->pending_key = key;
  if (make_floors(state, now, arith) != 0) return -1;
  state->monsters_killed[0] = 10; /* the first ladder starts open */
  state->player_position[0] = state->player_position[1] = SIDE / 2;
  state->player_level = 0;
  state->player_direction = 3; /* Action.UP */
  state->player_health = 9.0f;
  state->player_food = state->player_drink = state->player_energy = state->player_mana = 9;
  state->player_dexterity = state->player_strength = state->player_intelligence = 1;
  fill_mobs(&state->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS);
  fill_mobs(&state->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS);
  fill_mobs(&state->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS);
  fill_mobs(&state->mob_projectiles, CRAFTER_CX_MAX_MOB_PROJECTILES);
  fill_mobs(&state->player_projectiles, CRAFTER_CX_MAX_PLAYER_PROJECTILES);
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
    for (int n = 0; n < CRAFTER_CX_MAX_MOB_PROJECTILES; n++)
      state->mob_projectile_directions[f][n][0] = state->mob_projectile_directions[f][n][1] = 1;
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
    for (int n = 0; n < CRAFTER_CX_MAX_PLAYER_PROJECTILES; n++)
      state->player_projectile_directions[f][n][0] =
          state->player_projectile_directions[f][n][1] = 1;
  permutation6(keys.potions, state->potion_mapping);
  state->boss_timesteps_to_spawn_this_round = 7; /* BOSS_FIGHT_SPAWN_TURNS */
  /* calculate_light_level(0): 1 - |cos(pi * 0.3)| ** 3 */
  float c = fabsf(cosf((float)(3.141592653589793 * 0.3)));
  state->light_level = 1.0f - c * c * c;
  state->state_rng = keys.state;
  return 0;
}

int crafter_cx_generate_world_arith(crafter_jaxkey key, enum crafter_cx_arith arith,
                                    crafter_cx_state *state) {
  return generate(key, arith, (1U << CRAFTER_CX_LEVELS) - 1U, state);
}

int crafter_cx_generate_world(crafter_jaxkey key, crafter_cx_state *state) {
  return generate(key, CRAFTER_CX_AS_JAX, (1U << CRAFTER_CX_LEVELS) - 1U, state);
}

int crafter_cx_generate_world_first(crafter_jaxkey key, crafter_cx_state *state) {
  return generate(key, CRAFTER_CX_AS_JAX, 1U, state);
}

int crafter_cx_make_floor(crafter_cx_state *state, int floor) {
  if (floor < 0 || floor >= CRAFTER_CX_LEVELS) return 0;
  return make_floors(state, 1U << floor, CRAFTER_CX_AS_JAX);
}

int crafter_cx_make_floors(crafter_cx_state *state) {
  return make_floors(state, (1U << CRAFTER_CX_LEVELS) - 1U, CRAFTER_CX_AS_JAX);
}
