/* cc_game: Craftax-Classic's step.  cc_game.h says what is promised.
 *
 * The code follows craftax_step's order: crafting, the DO action, placing,
 * moving, the creatures (zombies, cows, skeletons, arrows), spawning,
 * plants, the player's intrinsics, the inventory's cap, health, reward.
 *
 * JAX's indexing, which positions off the map meet (the block the player
 * faces at the edge, the arrows, whose slots all move every step, live or
 * not):
 *   a read  x[i] counts a negative i once from the end (i + 64), then
 *           clamps into [0, 63];
 *   a write x.at[i].set(v) counts a negative i once from the end, and is
 *           dropped when a coordinate is still outside [0, 63].
 * map_read and map_write below are those two.
 *
 * Random draws: the keys are split as the reference splits them, and the
 * word of bits each draw is made of (element 0 of it: element i of a draw
 * depends on its key and i alone) is hashed up front for every draw a
 * step may use (draw_all, or draw_group for several envs); the work
 * behind a draw whose result the reference throws away is not done: a
 * spawn's choice over the cells when nothing spawns, the sapling's
 * uniform unless DO meets grass.
 *
 * The arithmetic is float32 as XLA's CPU code for jax.jit(env.step)
 * computes it: timestep / 300 is timestep * float32(1/300); the light
 * level's 1 - c*c*|c| is one fused multiply-add, fmaf(-(c*c), |c|, 1); the
 * zombies' spawn chance 0.02 + 0.1 * (1 - light)**2 is
 * fmaf((1 - light)**2, 0.1, 0.02); the reward achievements + health * 0.1
 * is fmaf(health, 0.1, achievements).  Everything else is rounded on its
 * own (the build never contracts). */
#include "game/cc_game.h"

#include "kernels/kernels.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { SIZE = CRAFTER_CC_MAP_SIZE, CELLS = SIZE * SIZE };

/* Craftax's Action numbers the step tests. */
enum {
  NOOP = 0,
  DO = 5,
  SLEEP = 6,
  PLACE_STONE = 7,
  PLACE_TABLE = 8,
  PLACE_FURNACE = 9,
  PLACE_PLANT = 10,
  MAKE_WOOD_PICKAXE = 11,
  MAKE_STONE_PICKAXE = 12,
  MAKE_IRON_PICKAXE = 13,
  MAKE_WOOD_SWORD = 14,
  MAKE_STONE_SWORD = 15,
  MAKE_IRON_SWORD = 16
};

/* Inventory's order. */
enum {
  WOOD,
  STONE,
  COAL,
  IRON,
  DIAMOND,
  SAPLING,
  WOOD_PICKAXE,
  STONE_PICKAXE,
  IRON_PICKAXE,
  WOOD_SWORD,
  STONE_SWORD,
  IRON_SWORD
};

/* Craftax's Achievement numbers. */
enum {
  COLLECT_WOOD = 0,
  PLACE_TABLE_DONE = 1,
  EAT_COW = 2,
  COLLECT_SAPLING = 3,
  COLLECT_DRINK = 4,
  MAKE_WOOD_PICKAXE_DONE = 5,
  MAKE_WOOD_SWORD_DONE = 6,
  PLACE_PLANT_DONE = 7,
  DEFEAT_ZOMBIE = 8,
  COLLECT_STONE = 9,
  PLACE_STONE_DONE = 10,
  EAT_PLANT = 11,
  DEFEAT_SKELETON = 12,
  MAKE_STONE_PICKAXE_DONE = 13,
  MAKE_STONE_SWORD_DONE = 14,
  WAKE_UP = 15,
  PLACE_FURNACE_DONE = 16,
  COLLECT_COAL = 17,
  COLLECT_IRON = 18,
  COLLECT_DIAMOND = 19,
  MAKE_IRON_PICKAXE_DONE = 20,
  MAKE_IRON_SWORD_DONE = 21
};

/* EnvParams' defaults. */
enum {
  ZOMBIE_HEALTH = 5,
  COW_HEALTH = 3,
  SKELETON_HEALTH = 3,
  DESPAWN_DISTANCE = 14
};

/* DIRECTIONS: 16 rows, indexed by Action; rows 5 to 15 are zero. */
static const int32_t directions[16][2] = {{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}};

static const int32_t *direction_of(int32_t index) {
  if (index < 0) index += 16;
  return directions[index < 0 ? 0 : index > 15 ? 15 : index];
}

/* ---- JAX's indexing of the 64x64 maps ---- */

static inline int read_index(int32_t i) {
  int64_t k = i < 0 ? (int64_t)i + SIZE : i;
  return k < 0 ? 0 : k > SIZE - 1 ? SIZE - 1 : (int)k;
}

static inline int write_index(int32_t i) {
  int64_t k = i < 0 ? (int64_t)i + SIZE : i;
  return k >= 0 && k < SIZE ? (int)k : -1;
}

static inline uint8_t map_read(const uint8_t m[SIZE][SIZE], int32_t row, int32_t column) {
  return m[read_index(row)][read_index(column)];
}

static inline void map_write(uint8_t m[SIZE][SIZE], int32_t row, int32_t column, uint8_t value) {
  int r = write_index(row), c = write_index(column);
  if (r >= 0 && c >= 0) m[r][c] = value;
}

static inline int in_bounds(int32_t row, int32_t column) {
  return row >= 0 && row < SIZE && column >= 0 && column < SIZE;
}

/* SOLID_BLOCKS: water, stone, tree, coal, iron, diamond, table, furnace,
 * plant, ripe plant; a bit per block type. */
#define BLOCK_BIT(block) (1U << CRAFTER_CC_##block)
enum {
  SOLID = BLOCK_BIT(WATER) | BLOCK_BIT(STONE) | BLOCK_BIT(TREE) | BLOCK_BIT(COAL) |
          BLOCK_BIT(IRON) | BLOCK_BIT(DIAMOND) | BLOCK_BIT(CRAFTING_TABLE) |
          BLOCK_BIT(FURNACE) | BLOCK_BIT(PLANT) | BLOCK_BIT(RIPE_PLANT)
};

static inline int solid(uint8_t block) { return block < 32 && ((SOLID >> block) & 1U); }

static inline int is_player(const crafter_cc_state *s, int32_t row, int32_t column) {
  return s->player_position[0] == row && s->player_position[1] == column;
}

/* is_in_mob */
static inline int in_mob(const crafter_cc_state *s, int32_t row, int32_t column) {
  return map_read(s->mob_map, row, column) || is_player(s, row, column);
}

/* is_position_in_bounds_not_in_wall_not_in_mob_not_in_lava: off the map
 * the reference's reads of the maps change nothing, so none is made. */
enum { BLOCKED = SOLID | BLOCK_BIT(LAVA) };
static inline int free_cell(const crafter_cc_state *s, int32_t row, int32_t column) {
  if (!in_bounds(row, column)) return 0;
  unsigned block = s->map[row][column];
  return !(block < 32 && ((BLOCKED >> block) & 1U)) && !s->mob_map[row][column] &&
         !is_player(s, row, column);
}

static inline int32_t abs32(int32_t v) { return v < 0 ? -v : v; }
static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t sign32(int32_t v) { return (v > 0) - (v < 0); }

/* ---- the step's draws ---- */

/* Every random word the step may use, from the step's key: the bits of
 * element 0 of each draw (a uniform, a choice with p, the second half of
 * a randint).  The keys are split as craftax_step splits them; the
 * sequential chains (craftax_step's rng, update_mobs' scan carries,
 * spawn_mobs' rng) are hashed one by one, and the draws hanging off them,
 * independent of one another, eight at a time. */
struct draws {
  crafter_jaxkey sapling_key; /* do_action's _rng: drawn from only when needed */
  crafter_jaxkey state_rng;
  uint32_t zombie_random[CRAFTER_CC_MAX_ZOMBIES], zombie_towards[CRAFTER_CC_MAX_ZOMBIES],
      zombie_close[CRAFTER_CC_MAX_ZOMBIES];
  uint32_t cow_random[CRAFTER_CC_MAX_COWS];
  uint32_t skeleton_random[CRAFTER_CC_MAX_SKELETONS], skeleton_towards[CRAFTER_CC_MAX_SKELETONS],
      skeleton_choose[CRAFTER_CC_MAX_SKELETONS];
  uint32_t spawn_chance[3], spawn_cell[3]; /* cows, zombies, skeletons */
};

/* rng, _rng = split(rng): *rng moves on, _rng is returned. */
static inline crafter_jaxkey split_off(crafter_jaxkey *rng) {
  crafter_jaxkey sub = crafter_jax_split_inline(*rng, 1);
  *rng = crafter_jax_split_inline(*rng, 0);
  return sub;
}

/* The draws hanging off the chains' keys, eight lanes at a time: the
 * hash of counter (0, counter) under each key. */
struct lanes {
  uint32_t k0[CRAFTER_JAX_WIDE], k1[CRAFTER_JAX_WIDE], x0[CRAFTER_JAX_WIDE],
      x1[CRAFTER_JAX_WIDE];
  int used;
};

static inline void lane(struct lanes *l, crafter_jaxkey key, uint32_t counter) {
  l->k0[l->used] = key.word[0];
  l->k1[l->used] = key.word[1];
  l->x0[l->used] = 0U;
  l->x1[l->used] = counter;
  l->used++;
}

/* Up to eight lanes hash as eight, more as CRAFTER_JAX_WIDE (the lanes
 * not used hash zeros). */
static inline void hash_lanes(struct lanes *l) {
  int width = l->used <= CRAFTER_JAX_LANES ? CRAFTER_JAX_LANES : CRAFTER_JAX_WIDE;
  for (int i = l->used; i < width; i++) l->k0[i] = l->k1[i] = l->x0[i] = l->x1[i] = 0U;
  if (width == CRAFTER_JAX_LANES)
    crafter_jax_threefry2x32_lanes(crafter_kernels_level(), l->k0, l->k1, l->x0, l->x1);
  else
    crafter_jax_threefry2x32_wide(crafter_kernels_level(), l->k0, l->k1, l->x0, l->x1);
}

/* Lane i's key (a split's half) and its bits (element 0 of a draw). */
static inline crafter_jaxkey lane_key(const struct lanes *l, int i) {
  crafter_jaxkey key = {{l->x0[i], l->x1[i]}};
  return key;
}
static inline uint32_t lane_bits(const struct lanes *l, int i) { return l->x0[i] ^ l->x1[i]; }

/* The chains are latency: each split waits for the one before.  So the
 * spawn chain, independent of update_mobs', is split alongside the
 * zombies', and the lanes of draws are hashed as soon as their keys are
 * known, under the skeletons' chain. */
static void draw_all(crafter_jaxkey key, struct draws *d) {
  enum { Z = CRAFTER_CC_MAX_ZOMBIES, C = CRAFTER_CC_MAX_COWS, S = CRAFTER_CC_MAX_SKELETONS };
  _Static_assert(Z == 3 && C == 3 && S == 2, "the lanes below are laid out for 3, 3 and 2 slots");
  /* craftax_step: four splits, for do_action, update_mobs, spawn_mobs and
   * state_rng */
  crafter_jaxkey rng = key;
  d->sapling_key = split_off(&rng);
  crafter_jaxkey mobs = split_off(&rng);
  crafter_jaxkey spawn = split_off(&rng);
  d->state_rng = crafter_jax_split_inline(rng, 1);

  /* update_mobs: rng, _rng = split(rng) before each scan, the scan carrying
   * rng.  A zombie splits four times and carries the last second half; a
   * cow splits once, a skeleton three times, each carrying the first.
   * spawn_mobs splits six times, a uniform and a choice for each kind. */
  crafter_jaxkey randint_key[Z + C + S], zombie_towards[Z], zombie_close[Z], skeleton_towards[S],
      skeleton_choose[S], spawn_key[6];
  crafter_jaxkey carry = crafter_jax_split_inline(mobs, 0);
  for (int k = 0; k < Z; k++) {
    randint_key[k] = split_off(&carry);
    spawn_key[2 * k] = split_off(&spawn);
    zombie_towards[k] = split_off(&carry);
    if (2 * k + 1 < 5)
      spawn_key[2 * k + 1] = split_off(&spawn);
    else
      spawn_key[2 * k + 1] = crafter_jax_split_inline(spawn, 1);
    zombie_close[k] = split_off(&carry);
    carry = crafter_jax_split_inline(carry, 1);
  }
  carry = crafter_jax_split_inline(carry, 0);
  for (int k = 0; k < C; k++) randint_key[Z + k] = split_off(&carry);

  /* randint(key, (), 0, span) splits its key in two and draws a word
   * from each; for the spans here (4 and 8) 2**32 mod span is 0 and the
   * first word drops out of JAX's formula, so only the second half's
   * word is drawn.  Lanes a and b: the zombies' and cows' second halves,
   * the zombies' and spawns' words. */
  struct lanes a, b, c, words;
  a.used = b.used = c.used = words.used = 0;
  for (int k = 0; k < Z + C; k++) lane(&a, randint_key[k], 1U);
  lane(&a, zombie_towards[0], 0U);
  lane(&a, zombie_towards[1], 0U);
  lane(&b, zombie_towards[2], 0U);
  for (int k = 0; k < Z; k++) lane(&b, zombie_close[k], 0U);
  for (int n = 0; n < 4; n++) lane(&b, spawn_key[n], 0U);
  hash_lanes(&a);
  hash_lanes(&b);

  carry = crafter_jax_split_inline(carry, 0);
  for (int k = 0; k < S; k++) {
    randint_key[Z + C + k] = split_off(&carry);
    skeleton_towards[k] = split_off(&carry);
    skeleton_choose[k] = split_off(&carry);
  }
  /* Lanes c: the skeletons' second halves and words, the last spawns'. */
  for (int k = 0; k < S; k++) lane(&c, randint_key[Z + C + k], 1U);
  for (int k = 0; k < S; k++) lane(&c, skeleton_towards[k], 0U);
  for (int k = 0; k < S; k++) lane(&c, skeleton_choose[k], 0U);
  lane(&c, spawn_key[4], 0U);
  lane(&c, spawn_key[5], 0U);
  hash_lanes(&c);
  /* The randints' words from their second halves. */
  for (int k = 0; k < Z + C; k++) lane(&words, lane_key(&a, k), 0U);
  for (int k = 0; k < S; k++) lane(&words, lane_key(&c, k), 0U);
  hash_lanes(&words);

  for (int k = 0; k < Z; k++) {
    d->zombie_random[k] = lane_bits(&words, k);
    d->zombie_close[k] = lane_bits(&b, 1 + k);
  }
  d->zombie_towards[0] = lane_bits(&a, Z + C);
  d->zombie_towards[1] = lane_bits(&a, Z + C + 1);
  d->zombie_towards[2] = lane_bits(&b, 0);
  for (int k = 0; k < C; k++) d->cow_random[k] = lane_bits(&words, Z + k);
  for (int k = 0; k < S; k++) {
    d->skeleton_random[k] = lane_bits(&words, Z + C + k);
    d->skeleton_towards[k] = lane_bits(&c, S + k);
    d->skeleton_choose[k] = lane_bits(&c, 2 * S + k);
  }
  for (int n = 0; n < 3; n++) {
    int first = 2 * n, second = 2 * n + 1;
    d->spawn_chance[n] = first < 4 ? lane_bits(&b, 4 + first) : lane_bits(&c, 3 * S + first - 4);
    d->spawn_cell[n] = second < 4 ? lane_bits(&b, 4 + second) : lane_bits(&c, 3 * S + second - 4);
  }
}

/* ---- the draws of several envs at once ---- */

/* The same keys and words for up to GROUP envs side by side, kept word
 * by word (a row of first words, a row of second words): each split of
 * the chains hashes both halves of every env's key in one call of
 * CRAFTER_JAX_WIDE lanes, and the rows go in and out of the lanes whole.
 * Lanes of envs not there hash zeros. */
enum { GROUP = CRAFTER_JAX_WIDE / 2 };

typedef struct {
  uint32_t w0[GROUP], w1[GROUP];
} row;

/* The hashes of counter (0, ca) under a's keys and (0, cb) under b's:
 * *oa and *ob (which may be a and b). */
static void hash_pair(const row *a, uint32_t ca, const row *b, uint32_t cb, row *oa, row *ob) {
  _Static_assert((int)GROUP == (int)CRAFTER_JAX_PAIR, "a row is one half of the pair kernel's lanes");
  crafter_jax_threefry2x32_pair(crafter_kernels_level(), a->w0, a->w1, ca, b->w0, b->w1, cb,
                                oa->w0, oa->w1, ob->w0, ob->w1);
}

/* first, second = split(key), row by row. */
static void split_row(const row *key, row *first, row *second) {
  hash_pair(key, 0U, key, 1U, first, second);
}

/* The first n keys of an array as a row (zeros after them), and back. */
static void to_row(const crafter_jaxkey *keys, int n, row *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < n; i++) r->w0[i] = keys[i].word[0], r->w1[i] = keys[i].word[1];
}
static void from_row(const row *r, int n, crafter_jaxkey *keys) {
  for (int i = 0; i < n; i++) keys[i].word[0] = r->w0[i], keys[i].word[1] = r->w1[i];
}

/* Env i's bits of a draw whose hash is in row r. */
static inline uint32_t row_bits(const row *r, int i) { return r->w0[i] ^ r->w1[i]; }

/* draw_all for n <= GROUP keys (the same splits, in the same order). */
static void draw_group(const crafter_jaxkey *key, int n, struct draws *d) {
  enum { Z = CRAFTER_CC_MAX_ZOMBIES, C = CRAFTER_CC_MAX_COWS, S = CRAFTER_CC_MAX_SKELETONS };
  row rng, sapling, mobs, spawn, carry, one, two, last;
  row randint_key[Z + C + S], zombie_towards[Z], zombie_close[Z], skeleton_towards[S],
      skeleton_choose[S], spawn_key[6];
  to_row(key, n, &rng);
  split_row(&rng, &rng, &sapling);
  split_row(&rng, &rng, &mobs);
  split_row(&rng, &rng, &spawn);
  hash_pair(&rng, 1U, &mobs, 0U, &last, &carry);
  for (int i = 0; i < n; i++) {
    d[i].sapling_key = (crafter_jaxkey){{sapling.w0[i], sapling.w1[i]}};
    d[i].state_rng = (crafter_jaxkey){{last.w0[i], last.w1[i]}};
  }
  for (int k = 0; k < Z; k++) {
    split_row(&carry, &one, &randint_key[k]);
    split_row(&spawn, &spawn, &spawn_key[2 * k]);
    split_row(&one, &two, &zombie_towards[k]);
    if (2 * k + 1 < 5) {
      split_row(&spawn, &spawn, &spawn_key[2 * k + 1]);
      split_row(&two, &one, &zombie_close[k]);
      hash_pair(&one, 1U, &one, 1U, &carry, &carry);
    } else {
      /* the last spawn key beside the zombie's */
      split_row(&two, &one, &zombie_close[k]);
      hash_pair(&spawn, 1U, &one, 1U, &spawn_key[2 * k + 1], &carry);
    }
  }
  hash_pair(&carry, 0U, &carry, 0U, &carry, &carry);
  for (int k = 0; k < C; k++) split_row(&carry, &carry, &randint_key[Z + k]);
  hash_pair(&carry, 0U, &carry, 0U, &carry, &carry);
  for (int k = 0; k < S; k++) {
    split_row(&carry, &one, &randint_key[Z + C + k]);
    split_row(&one, &two, &skeleton_towards[k]);
    if (k + 1 < S)
      split_row(&two, &carry, &skeleton_choose[k]);
    else
      hash_pair(&two, 1U, &two, 1U, &skeleton_choose[k], &skeleton_choose[k]);
  }

  /* randint's second halves, then their words and the other draws'
   * (randint's first word drops out: see draw_all), two rows a call. */
  row halves[Z + C + S], words[Z + C + S];
  for (int k = 0; k < Z + C + S; k += 2)
    hash_pair(&randint_key[k], 1U, &randint_key[k + 1], 1U, &halves[k], &halves[k + 1]);
  for (int k = 0; k < Z + C + S; k += 2)
    hash_pair(&halves[k], 0U, &halves[k + 1], 0U, &words[k], &words[k + 1]);
  row *leaves[] = {&zombie_towards[0],   &zombie_towards[1],   &zombie_towards[2],
                   &zombie_close[0],     &zombie_close[1],     &zombie_close[2],
                   &skeleton_towards[0], &skeleton_towards[1], &skeleton_choose[0],
                   &skeleton_choose[1],  &spawn_key[0],        &spawn_key[1],
                   &spawn_key[2],        &spawn_key[3],        &spawn_key[4],
                   &spawn_key[5]};
  _Static_assert(Z + C + S == 8 && sizeof leaves / sizeof leaves[0] == 16,
                 "the rows above pair up for 3 zombies, 3 cows and 2 skeletons");
  for (size_t k = 0; k < sizeof leaves / sizeof leaves[0]; k += 2)
    hash_pair(leaves[k], 0U, leaves[k + 1], 0U, leaves[k], leaves[k + 1]);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < Z; k++) {
      d[i].zombie_random[k] = row_bits(&words[k], i);
      d[i].zombie_towards[k] = row_bits(&zombie_towards[k], i);
      d[i].zombie_close[k] = row_bits(&zombie_close[k], i);
    }
    for (int k = 0; k < C; k++) d[i].cow_random[k] = row_bits(&words[Z + k], i);
    for (int k = 0; k < S; k++) {
      d[i].skeleton_random[k] = row_bits(&words[Z + C + k], i);
      d[i].skeleton_towards[k] = row_bits(&skeleton_towards[k], i);
      d[i].skeleton_choose[k] = row_bits(&skeleton_choose[k], i);
    }
    for (int m = 0; m < 3; m++) {
      d[i].spawn_chance[m] = row_bits(&spawn_key[2 * m], i);
      d[i].spawn_cell[m] = row_bits(&spawn_key[2 * m + 1], i);
    }
  }
}

static inline float uniform(uint32_t bits) { return crafter_jax_unit_of_bits(bits); }

/* randint(key, (), 0, span) from the second half's word, span a power of
 * two. */
static inline int32_t randint(uint32_t bits, uint32_t span) { return (int32_t)(bits % span); }

/* ---- crafting ---- */

/* is_near_block: one of the 8 cells around the player, on the map. */
static int near_block(const crafter_cc_state *s, uint8_t block) {
  static const int32_t close[8][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0},
                                      {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  for (int k = 0; k < 8; k++) {
    int32_t r = s->player_position[0] + close[k][0], c = s->player_position[1] + close[k][1];
    if (in_bounds(r, c) && s->map[r][c] == block) return 1;
  }
  return 0;
}

static void do_crafting(crafter_cc_state *s, int action) {
  if (action < MAKE_WOOD_PICKAXE || action > MAKE_IRON_SWORD) return;
  int32_t *inv = s->inventory;
  int table = near_block(s, CRAFTER_CC_CRAFTING_TABLE);
  if (!table) return; /* every recipe needs the table */
  int furnace = near_block(s, CRAFTER_CC_FURNACE);
  switch (action) {
  case MAKE_WOOD_PICKAXE:
    if (inv[WOOD] >= 1) {
      inv[WOOD] -= 1;
      inv[WOOD_PICKAXE] += 1;
      s->achievements[MAKE_WOOD_PICKAXE_DONE] = 1;
    }
    break;
  case MAKE_STONE_PICKAXE:
    if (inv[WOOD] >= 1 && inv[STONE] >= 1) {
      inv[STONE] -= 1;
      inv[WOOD] -= 1;
      inv[STONE_PICKAXE] += 1;
      s->achievements[MAKE_STONE_PICKAXE_DONE] = 1;
    }
    break;
  case MAKE_IRON_PICKAXE:
    if (furnace && inv[WOOD] >= 1 && inv[STONE] >= 1 && inv[IRON] >= 1 && inv[COAL] >= 1) {
      inv[IRON] -= 1;
      inv[WOOD] -= 1;
      inv[STONE] -= 1;
      inv[COAL] -= 1;
      inv[IRON_PICKAXE] += 1;
      s->achievements[MAKE_IRON_PICKAXE_DONE] = 1;
    }
    break;
  case MAKE_WOOD_SWORD:
    if (inv[WOOD] >= 1) {
      inv[WOOD] -= 1;
      inv[WOOD_SWORD] += 1;
      s->achievements[MAKE_WOOD_SWORD_DONE] = 1;
    }
    break;
  case MAKE_STONE_SWORD:
    if (inv[STONE] >= 1 && inv[WOOD] >= 1) {
      inv[WOOD] -= 1;
      inv[STONE] -= 1;
      inv[STONE_SWORD] += 1;
      s->achievements[MAKE_STONE_SWORD_DONE] = 1;
    }
    break;
  default: /* MAKE_IRON_SWORD */
    if (furnace && inv[IRON] >= 1 && inv[WOOD] >= 1 && inv[STONE] >= 1 && inv[COAL] >= 1) {
      inv[WOOD] -= 1;
      inv[IRON] -= 1;
      inv[STONE] -= 1;
      inv[COAL] -= 1;
      inv[IRON_SWORD] += 1;
      s->achievements[MAKE_IRON_SWORD_DONE] = 1;
    }
    break;
  }
}

/* ---- the DO action ---- */

/* The player's hit on the creatures of one kind at (row, column): the
 * first live slot there loses `damage`; then every slot's mask becomes
 * health > 0, as do_action sets it (a slot that despawned or never
 * spawned with health left comes back).  Returns whether a live creature
 * was hit; *killed whether that hit killed it. */
static int hit_mobs(crafter_cc_mobs *m, int slots, int32_t row, int32_t column, int32_t damage,
                    int *killed) {
  int target = -1;
  for (int k = 0; k < slots && target < 0; k++)
    if (m->mask[k] && m->position[k][0] == row && m->position[k][1] == column) target = k;
  int index = target < 0 ? 0 : target;
  if (target >= 0) m->health[target] -= damage;
  int old_mask = m->mask[index];
  for (int k = 0; k < slots; k++) m->mask[k] = m->health[k] > 0;
  *killed = old_mask && !m->mask[index];
  return target >= 0;
}

/* do_action when the action is DO (otherwise the reference selects the
 * state it had before: nothing changes).  key is do_action's rng. */
static void do_action(crafter_cc_state *s, crafter_jaxkey key) {
  /* key is do_action's rng; its uniform comes from split(rng)[1] */
  const int32_t *d = direction_of(s->player_direction);
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  int32_t *inv = s->inventory;
  int32_t damage = max32(max32(1, 2 * inv[WOOD_SWORD]), max32(3 * inv[STONE_SWORD], 5 * inv[IRON_SWORD]));

  int killed_zombie, killed_cow, killed_skeleton;
  int attacked = hit_mobs(&s->zombies, CRAFTER_CC_MAX_ZOMBIES, row, column, damage, &killed_zombie);
  if (killed_zombie) s->achievements[DEFEAT_ZOMBIE] = 1;
  attacked |= hit_mobs(&s->cows, CRAFTER_CC_MAX_COWS, row, column, damage, &killed_cow);
  if (killed_cow) {
    s->achievements[EAT_COW] = 1;
    s->player_food = min32(9, s->player_food + 6);
    s->player_hunger = 0.0f;
  }
  attacked |=
      hit_mobs(&s->skeletons, CRAFTER_CC_MAX_SKELETONS, row, column, damage, &killed_skeleton);
  if (killed_skeleton) s->achievements[DEFEAT_SKELETON] = 1;
  int killed = killed_zombie || killed_cow || killed_skeleton;
  map_write(s->mob_map, row, column, map_read(s->mob_map, row, column) && !killed);

  /* The blocks: only on the map, and not when a creature was hit. */
  if (!in_bounds(row, column) || attacked) return;
  uint8_t *cell = &s->map[row][column];
  switch (*cell) {
  case CRAFTER_CC_TREE:
    *cell = CRAFTER_CC_GRASS;
    inv[WOOD] += 1;
    s->achievements[COLLECT_WOOD] = 1;
    break;
  case CRAFTER_CC_STONE:
    if (inv[WOOD_PICKAXE]) {
      *cell = CRAFTER_CC_PATH;
      inv[STONE] += 1;
      s->achievements[COLLECT_STONE] = 1;
    }
    break;
  case CRAFTER_CC_COAL:
    if (inv[WOOD_PICKAXE]) {
      *cell = CRAFTER_CC_PATH;
      inv[COAL] += 1;
      s->achievements[COLLECT_COAL] = 1;
    }
    break;
  case CRAFTER_CC_IRON:
    if (inv[STONE_PICKAXE]) {
      *cell = CRAFTER_CC_PATH;
      inv[IRON] += 1;
      s->achievements[COLLECT_IRON] = 1;
    }
    break;
  case CRAFTER_CC_DIAMOND:
    if (inv[IRON_PICKAXE]) {
      *cell = CRAFTER_CC_PATH;
      inv[DIAMOND] += 1;
      s->achievements[COLLECT_DIAMOND] = 1;
    }
    break;
  case CRAFTER_CC_GRASS:
    /* rng, _rng = split(rng); uniform(_rng) < 0.1 */
    if (uniform(crafter_jax_bits_at(crafter_jax_split_inline(key, 1), 0)) < 0.1f) {
      inv[SAPLING] += 1;
      s->achievements[COLLECT_SAPLING] = 1;
    }
    break;
  case CRAFTER_CC_WATER:
    s->player_drink = min32(9, s->player_drink + 1);
    s->player_thirst = 0.0f;
    s->achievements[COLLECT_DRINK] = 1;
    break;
  case CRAFTER_CC_RIPE_PLANT: {
    *cell = CRAFTER_CC_PLANT;
    s->player_food = min32(9, s->player_food + 4);
    s->player_hunger = 0.0f;
    s->achievements[EAT_PLANT] = 1;
    /* the first slot at that place, live or not (slot 0 when none) */
    int plant = 0;
    for (int k = 0; k < CRAFTER_CC_MAX_PLANTS; k++)
      if (s->growing_plants_positions[k][0] == row && s->growing_plants_positions[k][1] == column) {
        plant = k;
        break;
      }
    s->growing_plants_age[plant] = 0;
    break;
  }
  default:
    break;
  }
}

/* ---- placing ---- */

static void place_block(crafter_cc_state *s, int action) {
  if (action < PLACE_STONE || action > PLACE_PLANT) return;
  const int32_t *d = direction_of(s->player_direction);
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  if (!in_bounds(row, column) || in_mob(s, row, column)) return;
  int32_t *inv = s->inventory;
  uint8_t *cell = &s->map[row][column];
  int wall = solid(*cell);
  switch (action) {
  case PLACE_TABLE:
    if (!wall && inv[WOOD] >= 2) {
      *cell = CRAFTER_CC_CRAFTING_TABLE;
      inv[WOOD] -= 2;
      s->achievements[PLACE_TABLE_DONE] = 1;
    }
    break;
  case PLACE_FURNACE:
    if (!wall && inv[STONE] > 0) {
      *cell = CRAFTER_CC_FURNACE;
      inv[STONE] -= 1;
      s->achievements[PLACE_FURNACE_DONE] = 1;
    }
    break;
  case PLACE_STONE:
    if ((*cell == CRAFTER_CC_WATER || !wall) && inv[STONE] > 0) {
      *cell = CRAFTER_CC_STONE;
      inv[STONE] -= 1;
      s->achievements[PLACE_STONE_DONE] = 1;
    }
    break;
  default: /* PLACE_PLANT */
    if (*cell == CRAFTER_CC_GRASS && inv[SAPLING] > 0) {
      *cell = CRAFTER_CC_PLANT;
      inv[SAPLING] -= 1;
      s->achievements[PLACE_PLANT_DONE] = 1;
      for (int k = 0; k < CRAFTER_CC_MAX_PLANTS; k++)
        if (!s->growing_plants_mask[k]) {
          s->growing_plants_positions[k][0] = row;
          s->growing_plants_positions[k][1] = column;
          s->growing_plants_age[k] = 0;
          s->growing_plants_mask[k] = 1;
          break;
        }
    }
    break;
  }
}

/* ---- moving ---- */

static void move_player(crafter_cc_state *s, int action) {
  const int32_t *d = direction_of(action);
  if (d[0] == 0 && d[1] == 0) return; /* no move, no new direction */
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  /* Lava is always a valid move, read where JAX reads it: off the map,
   * a row or column of -1 reads the far edge. */
  if (free_cell(s, row, column) || map_read(s->map, row, column) == CRAFTER_CC_LAVA) {
    s->player_position[0] = row;
    s->player_position[1] = column;
  }
  s->player_direction = action;
}

/* ---- creatures ---- */

static inline int32_t distance_to_player(const crafter_cc_state *s, const int32_t *p) {
  return abs32(p[0] - s->player_position[0]) + abs32(p[1] - s->player_position[1]);
}

/* choice(key, arange(2), p=(abs == abs.max()) / abs.sum()), abs the
 * distance to the player along each axis. */
static int towards_axis(uint32_t bits, const crafter_cc_state *s, const int32_t *p) {
  int32_t a0 = abs32(s->player_position[0] - p[0]), a1 = abs32(s->player_position[1] - p[1]);
  /* One axis alone farthest: p is (1/sum, 0) or (0, 1/sum), and the draw
   * r = p_cuml[-1] * (1 - u), in (0, 1/sum] as u is in [0, 1), picks it
   * whatever u is. */
  if (a0 != a1) return a1 > a0;
  int32_t top = max32(a0, a1);
  float share = 1.0f / (float)(a0 + a1);
  float p0 = a0 == top ? share : 0.0f, p1 = a1 == top ? share : 0.0f;
  float cumsum[2] = {p0, p0 + p1};
  return crafter_jax_choice_of_bits(bits, cumsum, 2);
}

/* The old cell's entry cleared when the slot is live; the new one's set
 * when it stays live.  The reference writes both cells back in every
 * case (mob_map[old] & !mask, mob_map[new] | new_mask); a write of what
 * was read changes nothing, wherever JAX's indexing takes it (a read and
 * a write of the same index meet the same cell, or the write is
 * dropped), so only the two writes that change something are made. */
static inline void move_on_mob_map(crafter_cc_state *s, const int32_t *old, uint8_t mask,
                                   const int32_t *now, uint8_t new_mask) {
  if (mask) map_write(s->mob_map, old[0], old[1], 0);
  if (new_mask) map_write(s->mob_map, now[0], now[1], 1);
}

static void move_zombie(crafter_cc_state *s, int k, const struct draws *d) {
  crafter_cc_mobs *z = &s->zombies;

  int32_t here[2] = {z->position[k][0], z->position[k][1]};
  int32_t distance = distance_to_player(s, here);
  int attacking = distance == 1 && z->attack_cooldown[k] <= 0 && z->mask[k];
  int32_t proposed[2] = {here[0], here[1]};
  if (!attacking) {
    int close = distance < 10 && uniform(d->zombie_close[k]) < 0.75f;
    if (close) {
      int axis = towards_axis(d->zombie_towards[k], s, here);
      proposed[axis] += sign32(s->player_position[axis] - here[axis]);
    } else {
      const int32_t *step = directions[1 + randint(d->zombie_random[k], 4)];
      proposed[0] += step[0];
      proposed[1] += step[1];
    }
  }
  int32_t cooldown = attacking ? 5 : z->attack_cooldown[k] - 1;
  if (attacking) {
    s->player_health -= s->is_sleeping ? 7 : 2;
    if (s->is_sleeping) s->achievements[WAKE_UP] = 1;
    s->is_sleeping = 0;
  }
  int32_t now[2] = {here[0], here[1]};
  if (free_cell(s, proposed[0], proposed[1])) {
    now[0] = proposed[0];
    now[1] = proposed[1];
  }
  uint8_t new_mask = z->mask[k] && distance < DESPAWN_DISTANCE;
  move_on_mob_map(s, here, z->mask[k], now, new_mask);
  z->position[k][0] = now[0];
  z->position[k][1] = now[1];
  z->attack_cooldown[k] = cooldown;
  z->mask[k] = new_mask;
}

static void move_cow(crafter_cc_state *s, int k, const struct draws *d) {
  crafter_cc_mobs *c = &s->cows;
  int32_t here[2] = {c->position[k][0], c->position[k][1]};
  const int32_t *step = directions[1 + randint(d->cow_random[k], 8)]; /* DIRECTIONS[1:9] */
  int32_t proposed[2] = {here[0] + step[0], here[1] + step[1]};
  int32_t now[2] = {here[0], here[1]};
  if (free_cell(s, proposed[0], proposed[1])) {
    now[0] = proposed[0];
    now[1] = proposed[1];
  }
  uint8_t new_mask = c->mask[k] && distance_to_player(s, here) < DESPAWN_DISTANCE;
  move_on_mob_map(s, here, c->mask[k], now, new_mask);
  c->position[k][0] = now[0];
  c->position[k][1] = now[1];
  c->mask[k] = new_mask;
}

static void move_skeleton(crafter_cc_state *s, int k, const struct draws *d) {
  crafter_cc_mobs *m = &s->skeletons;

  int32_t here[2] = {m->position[k][0], m->position[k][1]};
  int32_t random_move[2] = {here[0], here[1]};
  {
    const int32_t *step = directions[1 + randint(d->skeleton_random[k], 4)];
    random_move[0] += step[0];
    random_move[1] += step[1];
  }
  int axis = towards_axis(d->skeleton_towards[k], s, here);
  int32_t towards[2] = {0, 0};
  towards[axis] = sign32(s->player_position[axis] - here[axis]);

  int32_t distance = distance_to_player(s, here);
  int far = distance >= 10, too_close = distance <= 3;
  int32_t proposed[2] = {random_move[0], random_move[1]};
  if (uniform(d->skeleton_choose[k]) > 0.85f) {
    if (too_close) {
      proposed[0] = here[0] - towards[0];
      proposed[1] = here[1] - towards[1];
    } else if (far) {
      proposed[0] = here[0] + towards[0];
      proposed[1] = here[1] + towards[1];
    }
  }
  int attacking = (distance >= 4 && distance <= 5) ||
                  (too_close && !free_cell(s, proposed[0], proposed[1]));
  attacking = attacking && m->attack_cooldown[k] <= 0 && m->mask[k];

  /* An arrow in the first free slot, when there is one. */
  crafter_cc_mobs *a = &s->arrows;
  int live_arrows = 0, slot = -1;
  for (int n = 0; n < CRAFTER_CC_MAX_ARROWS; n++) {
    live_arrows += a->mask[n] != 0;
    if (!a->mask[n] && slot < 0) slot = n;
  }
  if (attacking && live_arrows < CRAFTER_CC_MAX_ARROWS) {
    a->position[slot][0] = here[0];
    a->position[slot][1] = here[1];
    a->mask[slot] = 1;
    s->arrow_directions[slot][0] = towards[0];
    s->arrow_directions[slot][1] = towards[1];
  }
  if (attacking) {
    proposed[0] = here[0];
    proposed[1] = here[1];
  }
  int32_t cooldown = attacking ? 4 : m->attack_cooldown[k] - 1;
  int32_t now[2] = {here[0], here[1]};
  if (free_cell(s, proposed[0], proposed[1])) {
    now[0] = proposed[0];
    now[1] = proposed[1];
  }
  uint8_t new_mask = m->mask[k] && distance < DESPAWN_DISTANCE;
  move_on_mob_map(s, here, m->mask[k], now, new_mask);
  m->position[k][0] = now[0];
  m->position[k][1] = now[1];
  m->attack_cooldown[k] = cooldown;
  m->mask[k] = new_mask;
}

/* _move_arrow: every slot moves by its direction, live or not. */
static void move_arrow(crafter_cc_state *s, int k) {
  crafter_cc_mobs *a = &s->arrows;
  int32_t row = a->position[k][0] + s->arrow_directions[k][0];
  int32_t column = a->position[k][1] + s->arrow_directions[k][1];
  uint8_t block = map_read(s->map, row, column);
  int hits_player = is_player(s, row, column);
  int wall = solid(block) && block != CRAFTER_CC_WATER; /* arrows fly over water */
  int go_on = in_bounds(row, column) && !wall && !in_mob(s, row, column);
  uint8_t live = a->mask[k];
  a->position[k][0] = row;
  a->position[k][1] = column;
  a->mask[k] = go_on && live;
  if (hits_player && live) {
    s->player_health -= 2;
    s->is_sleeping = 0;
  }
  /* The reference writes the block back, a path where it removes one: a
   * write of what was read changes nothing (see move_on_mob_map). */
  if (live && (block == CRAFTER_CC_FURNACE || block == CRAFTER_CC_CRAFTING_TABLE))
    map_write(s->map, row, column, CRAFTER_CC_PATH);
}

static void update_mobs(crafter_cc_state *s, const struct draws *d) {
  for (int k = 0; k < CRAFTER_CC_MAX_ZOMBIES; k++) move_zombie(s, k, d);
  for (int k = 0; k < CRAFTER_CC_MAX_COWS; k++) move_cow(s, k, d);
  for (int k = 0; k < CRAFTER_CC_MAX_SKELETONS; k++) move_skeleton(s, k, d);
  for (int k = 0; k < CRAFTER_CC_MAX_ARROWS; k++) move_arrow(s, k);
}

/* ---- spawning ---- */

/* The cells a creature may spawn on: block kinds (a bit per BlockType),
 * the distance to the player strictly between `nearest` and the despawn
 * distance, no creature there.  The draw is choice(key, 4096, p = cells /
 * cells.sum()) in float32, its cumulative sum XLA's: tiles of 16 cells,
 * each summed running, plus the sum of the tiles before it (the 256 tile
 * totals' own cumulative sum, in tiles of 16, shifted by one).  Every
 * allowed cell weighs the same 1/count, so a running sum inside a tile is
 * the sum of that many copies; and only the cells near the player can be
 * allowed, so only their tiles are looked at.  Returns the cell drawn, or
 * -1 when no cell may take one. */
enum { TILE = 16, TILES = CELLS / TILE, CHUNK = 16, CHUNKS = TILES / CHUNK };

static inline int bit_count16(unsigned v) {
  v = v - ((v >> 1) & 0x5555U);
  v = (v & 0x3333U) + ((v >> 2) & 0x3333U);
  v = (v + (v >> 4)) & 0x0F0FU;
  return (int)((v + (v >> 8)) & 0x1FU);
}

/* Rows of the map as 64-bit masks, bit c for column c. */
_Static_assert(SIZE == 64 && TILE == 16, "a row is one 64-bit mask of four tiles");

static inline int bit_count64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ULL);
  v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int)((v * 0x0101010101010101ULL) >> 56);
}

/* Columns first..last, clipped to the map. */
static inline uint64_t column_range(int32_t first, int32_t last) {
  first = max32(first, 0), last = min32(last, SIZE - 1);
  if (first > last) return 0;
  return (~0ULL >> (SIZE - 1 - last)) & (~0ULL << first);
}

#if !defined(__SSE2__)
/* The columns of a row whose byte is `value`, of those in words (of
 * eight columns) first..last: eight at a time, where a word's bytes are its
 * columns in order (little-endian). */
static inline uint64_t columns_equal(const uint8_t row[SIZE], uint8_t value, int first,
                                     int last) {
  uint64_t out = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  for (int w = first; w <= last; w++) {
    uint64_t x;
    memcpy(&x, row + 8 * w, 8);
    x ^= 0x0101010101010101ULL * value;
    uint64_t zero = ~(((x & low7) + low7) | x | low7); /* the top bit of each zero byte */
    out |= (((zero >> 7) * 0x0102040810204080ULL) >> 56) << (8 * w);
  }
#else
  for (int c = 8 * first; c < 8 * last + 8; c++) out |= (uint64_t)(row[c] == value) << c;
#endif
  return out;
}

/* The columns of a row holding one of the block kinds (a bit per kind),
 * of words first..last. */
static inline uint64_t kind_columns(const uint8_t row[SIZE], unsigned kinds, int first,
                                    int last) {
  uint64_t out = 0;
  for (unsigned v = 0; kinds >> v; v++)
    if ((kinds >> v) & 1U) out |= columns_equal(row, (uint8_t)v, first, last);
  return out;
}

#endif

/* The columns of a whole row where the map holds one of the block kinds
 * and the creature map holds none: kind_columns and columns_equal of
 * every word at once, sixteen columns a comparison where the processor
 * has SSE2. */
static inline uint64_t spawn_columns(const uint8_t map_row[SIZE], const uint8_t mob_row[SIZE],
                                     unsigned kinds) {
#if defined(__SSE2__)
  enum { QUARTERS = SIZE / 16 };
  __m128i blocks[QUARTERS], wanted[QUARTERS];
  for (int q = 0; q < QUARTERS; q++) {
    blocks[q] = _mm_loadu_si128((const __m128i *)(const void *)(map_row + 16 * q));
    wanted[q] = _mm_setzero_si128();
  }
  for (unsigned rest = kinds; rest; rest &= rest - 1U) {
    unsigned v = 0;
    while (!((rest >> v) & 1U)) v++;
    __m128i value = _mm_set1_epi8((char)v);
    for (int q = 0; q < QUARTERS; q++)
      wanted[q] = _mm_or_si128(wanted[q], _mm_cmpeq_epi8(blocks[q], value));
  }
  uint64_t out = 0;
  for (int q = 0; q < QUARTERS; q++) {
    __m128i mobs = _mm_loadu_si128((const __m128i *)(const void *)(mob_row + 16 * q));
    __m128i free = _mm_and_si128(wanted[q], _mm_cmpeq_epi8(mobs, _mm_setzero_si128()));
    out |= (uint64_t)(uint16_t)_mm_movemask_epi8(free) << (16 * q);
  }
  return out;
#else
  return kind_columns(map_row, kinds, 0, SIZE / 8 - 1) & columns_equal(mob_row, 0, 0, SIZE / 8 - 1);
#endif
}

/* The allowed cells of a spawn and the sums XLA's cumulative sum of their
 * p is made of. */
struct spawn_sums {
  uint16_t allowed[TILES];   /* a bit per cell, in the chunks looked at */
  float copies[TILE + 1];    /* n copies of 1/count added one by one: a tile's
                              * running sum after n allowed cells (adding a
                              * zero changes no sum) */
  float running[TILES];      /* the tile totals summed running inside their chunk */
  float before[CHUNKS + 1];  /* the chunk totals before a chunk, summed running */
  int first_chunk, last_chunk;
};

/* The 256 tile totals' cumulative sum at tile t, as XLA takes it: in
 * chunks of 16 tiles, each summed running, plus the chunks before (none
 * for the first).  Tiles outside the chunks looked at total zero: before
 * them the sum is 0, after them the sum of all. */
static inline float tiles_up_to(const struct spawn_sums *m, int t) {
  int chunk = t / CHUNK;
  if (t < 0 || chunk < m->first_chunk) return 0.0f;
  if (chunk > m->last_chunk) return m->before[m->last_chunk + 1];
  return chunk == 0 ? m->running[t] : m->running[t] + m->before[chunk];
}

/* p's cumulative sum at cell i: its tile's running sum, plus the tiles
 * before it (nothing added for tile 0). */
static inline float cumsum_at(const struct spawn_sums *m, int i) {
  int t = i / TILE, chunk = t / CHUNK;
  if (chunk < m->first_chunk || chunk > m->last_chunk) return tiles_up_to(m, t - 1);
  float own = m->copies[bit_count16(m->allowed[t] & ((2U << (i % TILE)) - 1U))];
  return t == 0 ? own : own + tiles_up_to(m, t - 1);
}

/* The sums of the cells of kinds `kinds` farther than `nearest` from the
 * player, nearer than the despawn distance, with no creature: how many
 * there are (*m is filled only when there are some). */
static int32_t spawn_sums_of(const crafter_cc_state *s, unsigned kinds, int32_t nearest,
                             struct spawn_sums *m) {
  int32_t pr = s->player_position[0], pc = s->player_position[1];
  int32_t first_row = max32(0, pr - DESPAWN_DISTANCE + 1);
  int32_t last_row = min32(SIZE - 1, pr + DESPAWN_DISTANCE - 1);
  if (first_row > last_row) return 0;
  const int rows_a_chunk = CHUNK * TILE / SIZE;
  m->first_chunk = first_row / rows_a_chunk;
  m->last_chunk = last_row / rows_a_chunk;
  memset(m->allowed + m->first_chunk * CHUNK, 0,
         sizeof m->allowed[0] * (size_t)(m->last_chunk - m->first_chunk + 1) * CHUNK);
  int32_t count = 0;
  for (int32_t r = first_row; r <= last_row; r++) {
    /* the row's cells nearer than the despawn distance, less those not
     * farther than `nearest` */
    int32_t dr = abs32(r - pr), room = DESPAWN_DISTANCE - 1 - dr, inner = nearest - dr;
    uint64_t window = column_range(pc - room, pc + room);
    if (inner >= 0) window &= ~column_range(pc - inner, pc + inner);
    uint64_t bits = window & spawn_columns(s->map[r], s->mob_map[r], kinds);
    count += bit_count64(bits);
    for (int j = 0; j < SIZE / TILE; j++)
      m->allowed[r * (SIZE / TILE) + j] = (uint16_t)(bits >> (TILE * j));
  }
  if (count == 0) return 0;
  float share = 1.0f / (float)count;
  m->copies[0] = 0.0f;
  for (int n = 1; n <= TILE; n++) m->copies[n] = m->copies[n - 1] + share;
  /* Each chunk's running sum in order, the chunks side by side: their
   * chains of additions do not wait for one another. */
  float sums[CHUNKS];
  for (int c = m->first_chunk; c <= m->last_chunk; c++) sums[c] = 0.0f;
  for (int t = 0; t < CHUNK; t++)
    for (int c = m->first_chunk; c <= m->last_chunk; c++)
      m->running[c * CHUNK + t] = sums[c] =
          sums[c] + m->copies[bit_count16(m->allowed[c * CHUNK + t])];
  m->before[m->first_chunk] = 0.0f;
  for (int c = m->first_chunk; c <= m->last_chunk; c++) m->before[c + 1] = m->before[c] + sums[c];
  return count;
}

static int32_t spawn_cell(const crafter_cc_state *s, unsigned kinds, int32_t nearest,
                          uint32_t bits) {
  struct spawn_sums m;
  if (spawn_sums_of(s, kinds, nearest, &m) == 0) return -1;
  /* choice: r = p_cuml[-1] * (1 - uniform), then searchsorted(p_cuml, r)
   * (side left) in JAX's 13 halvings of [0, 4096) */
  float target = cumsum_at(&m, CELLS - 1) * (1.0f - uniform(bits));
  uint32_t low = 0, high = CELLS;
  for (int level = 0; level < 13; level++) {
    uint32_t mid = low + (high - low) / 2U;
    if (target <= cumsum_at(&m, (int)mid))
      high = mid;
    else
      low = mid;
  }
  return (int32_t)high;
}

/* The kinds of spawn_mobs: the blocks a creature spawns on and the
 * distance to the player it must exceed. */
static const struct {
  unsigned blocks;
  int32_t nearest;
} spawn_kinds[3] = {{BLOCK_BIT(GRASS), 3},
                    {BLOCK_BIT(GRASS) | BLOCK_BIT(PATH), 9},
                    {BLOCK_BIT(PATH), 9}};

int32_t crafter_cc_spawn_choice(const crafter_cc_state *state, int kind, uint32_t bits) {
  return spawn_cell(state, spawn_kinds[kind].blocks, spawn_kinds[kind].nearest, bits);
}

int32_t crafter_cc_spawn_cumsum(const crafter_cc_state *state, int kind, float *cumsum) {
  /* the sums spawn_cell searches, every cell of them */
  struct spawn_sums m;
  int32_t count = spawn_sums_of(state, spawn_kinds[kind].blocks, spawn_kinds[kind].nearest, &m);
  if (count > 0)
    for (int i = 0; i < CELLS; i++) cumsum[i] = cumsum_at(&m, i);
  return count;
}

/* One kind's spawn: when `spawning`, a creature with `health` at a cell
 * drawn by spawn_cell goes into the first free slot. */
static void spawn_kind(crafter_cc_state *s, crafter_cc_mobs *m, int slots, int spawning,
                       int32_t cell, int32_t health) {
  int slot = 0;
  for (int k = 0; k < slots; k++)
    if (!m->mask[k]) {
      slot = k;
      break;
    }
  if (spawning) {
    m->position[slot][0] = cell / SIZE;
    m->position[slot][1] = cell % SIZE;
    m->health[slot] = health;
    m->mask[slot] = 1;
  }
  /* mob_map at the slot's place |= its mask, spawned or not */
  int32_t r = m->position[slot][0], c = m->position[slot][1];
  map_write(s->mob_map, r, c, map_read(s->mob_map, r, c) || m->mask[slot]);
}

static int live(const crafter_cc_mobs *m, int slots) {
  int n = 0;
  for (int k = 0; k < slots; k++) n += m->mask[k] != 0;
  return n;
}

static void spawn_mobs(crafter_cc_state *s, const struct draws *d, enum crafter_cc_arith arith) {
  const unsigned grass = BLOCK_BIT(GRASS), path = BLOCK_BIT(PATH);

  int spawning = live(&s->cows, CRAFTER_CC_MAX_COWS) < CRAFTER_CC_MAX_COWS &&
                 uniform(d->spawn_chance[0]) < 0.1f;
  int32_t cell = spawning ? spawn_cell(s, grass, 3, d->spawn_cell[0]) : -1;
  spawn_kind(s, &s->cows, CRAFTER_CC_MAX_COWS, cell >= 0, cell, COW_HEALTH);

  float dark = 1.0f - s->light_level;
  float chance = arith == CRAFTER_CC_UNFUSED ? dark * dark * 0.1f + 0.02f
                                            : fmaf(dark * dark, 0.1f, 0.02f);
  spawning = live(&s->zombies, CRAFTER_CC_MAX_ZOMBIES) < CRAFTER_CC_MAX_ZOMBIES &&
             uniform(d->spawn_chance[1]) < chance;
  cell = spawning ? spawn_cell(s, grass | path, 9, d->spawn_cell[1]) : -1;
  spawn_kind(s, &s->zombies, CRAFTER_CC_MAX_ZOMBIES, cell >= 0, cell, ZOMBIE_HEALTH);

  spawning = live(&s->skeletons, CRAFTER_CC_MAX_SKELETONS) < CRAFTER_CC_MAX_SKELETONS &&
             uniform(d->spawn_chance[2]) < 0.05f;
  cell = spawning ? spawn_cell(s, path, 9, d->spawn_cell[2]) : -1;
  spawn_kind(s, &s->skeletons, CRAFTER_CC_MAX_SKELETONS, cell >= 0, cell, SKELETON_HEALTH);
}

/* ---- plants, intrinsics, health ---- */

static void update_plants(crafter_cc_state *s) {
  for (int k = 0; k < CRAFTER_CC_MAX_PLANTS; k++) {
    int32_t age = (s->growing_plants_age[k] + 1) * (s->growing_plants_mask[k] != 0);
    s->growing_plants_age[k] = age;
    if (age >= 600)
      map_write(s->map, s->growing_plants_positions[k][0], s->growing_plants_positions[k][1],
                CRAFTER_CC_RIPE_PLANT);
  }
}

static void update_intrinsics(crafter_cc_state *s, int action) {
  if (action == SLEEP && s->player_energy < 9) s->is_sleeping = 1;
  if (s->player_energy >= 9 && s->is_sleeping) {
    s->is_sleeping = 0;
    s->achievements[WAKE_UP] = 1;
  }
  int sleeping = s->is_sleeping;

  float hunger = s->player_hunger + (sleeping ? 0.5f : 1.0f);
  if (hunger > 25.0f) {
    s->player_food = max32(s->player_food - 1, 0);
    hunger = 0.0f;
  }
  s->player_hunger = hunger;

  float thirst = s->player_thirst + (sleeping ? 0.5f : 1.0f);
  if (thirst > 20.0f) {
    s->player_drink = max32(s->player_drink - 1, 0);
    thirst = 0.0f;
  }
  s->player_thirst = thirst;

  float fatigue = sleeping ? fminf(s->player_fatigue - 1.0f, 0.0f) : s->player_fatigue + 1.0f;
  int32_t energy = s->player_energy;
  if (fatigue > 30.0f) {
    energy = max32(s->player_energy - 1, 0);
    fatigue = 0.0f;
  }
  if (fatigue < -10.0f) {
    energy = min32(s->player_energy + 1, 9);
    fatigue = 0.0f;
  }
  s->player_fatigue = fatigue;
  s->player_energy = energy;

  int all = s->player_food > 0 && s->player_drink > 0 && (s->player_energy > 0 || sleeping);
  float add = all ? (sleeping ? 2.0f : 1.0f) : (sleeping ? -0.5f : -1.0f);
  float recover = s->player_recover + add;
  int32_t health = s->player_health;
  if (recover > 25.0f) {
    health = min32(s->player_health + 1, 9);
    recover = 0.0f;
  }
  if (recover < -15.0f) {
    health = s->player_health - 1;
    recover = 0.0f;
  }
  s->player_recover = recover;
  s->player_health = health;
}

/* calculate_light_level(timestep) */
static float light_level(int32_t timestep, enum crafter_cc_arith arith) {
  float t = (float)timestep;
  float day = arith == CRAFTER_CC_TRUE_DIVISION ? t / (float)CRAFTER_CC_DAY_LENGTH
                                                : t * (1.0f / (float)CRAFTER_CC_DAY_LENGTH);
  float progress = fmodf(day, 1.0f);
  if (progress < 0.0f) progress += 1.0f; /* Python's %, never taken here */
  progress = progress + 0.3f;
  float c = cosf(progress * 3.14159274f);
  if (arith == CRAFTER_CC_UNFUSED) return 1.0f - c * c * fabsf(c);
  return fmaf(-(c * c), fabsf(c), 1.0f);
}

/* calculate_light_level of the timesteps an episode reaches (0 to
 * CRAFTER_CC_MAX_TIMESTEPS), computed once as JAX computes it; others
 * computed each time. */
static float light_levels[CRAFTER_CC_MAX_TIMESTEPS + 1];
static pthread_once_t light_levels_once = PTHREAD_ONCE_INIT;

static void light_levels_make(void) {
  for (int32_t t = 0; t <= CRAFTER_CC_MAX_TIMESTEPS; t++)
    light_levels[t] = light_level(t, CRAFTER_CC_AS_JAX);
}

static float light_level_as_jax(int32_t timestep) {
  if (timestep < 0 || timestep > CRAFTER_CC_MAX_TIMESTEPS)
    return light_level(timestep, CRAFTER_CC_AS_JAX);
  pthread_once(&light_levels_once, light_levels_make);
  return light_levels[timestep];
}

/* The achievements unlocked (bytes not zero), eight bytes at a time
 * where words are little-endian: bytes 0-7, 8-15 and 14-21 less its
 * first two, each read straight from the state; a byte's top bit of
 * ((x & 0x7F) + 0x7F) | x is set when the byte is not zero. */
static inline int achievement_count(const crafter_cc_state *s) {
  _Static_assert(CRAFTER_CC_ACHIEVEMENTS == 22, "the words below cover 22 bytes");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL, tops = 0x8080808080808080ULL;
  uint64_t w0, w1, w2;
  memcpy(&w0, s->achievements, 8);
  memcpy(&w1, s->achievements + 8, 8);
  memcpy(&w2, s->achievements + 14, 8);
  w2 &= ~0xFFFFULL;
  return bit_count64((((w0 & low7) + low7) | w0) & tops) +
         bit_count64((((w1 & low7) + low7) | w1) & tops) +
         bit_count64((((w2 & low7) + low7) | w2) & tops);
#else
  int n = 0;
  for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++) n += s->achievements[k] != 0;
  return n;
#endif
}

/* craftax_step with the draws of its key. */
static float step_drawn(crafter_cc_state *s, const struct draws *d, int action,
                        enum crafter_cc_arith arith) {
  int achievements_before = achievement_count(s);
  int32_t health_before = s->player_health;
  if (s->is_sleeping) action = NOOP;

  do_crafting(s, action);
  if (action == DO) do_action(s, d->sapling_key);
  place_block(s, action);
  move_player(s, action);
  update_mobs(s, d);
  spawn_mobs(s, d, arith);
  update_plants(s);
  update_intrinsics(s, action);
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) s->inventory[k] = min32(s->inventory[k], 9);
  if (map_read(s->map, s->player_position[0], s->player_position[1]) == CRAFTER_CC_LAVA)
    s->player_health = 0;
  s->player_health = max32(0, s->player_health);

  float achieved = (float)achievement_count(s) - (float)achievements_before;
  float health = (float)(s->player_health - health_before);
  float reward = arith == CRAFTER_CC_UNFUSED ? achieved + health * 0.1f
                                             : fmaf(health, 0.1f, achieved);
  s->timestep += 1;
  s->light_level = arith == CRAFTER_CC_AS_JAX ? light_level_as_jax(s->timestep)
                                              : light_level(s->timestep, arith);
  s->state_rng = d->state_rng;
  return reward;
}

float crafter_cc_game_step_arith(crafter_cc_state *s, crafter_jaxkey key, int action,
                                 enum crafter_cc_arith arith) {
  struct draws d;
  draw_all(key, &d);
  return step_drawn(s, &d, action, arith);
}

float crafter_cc_game_step(crafter_cc_state *state, crafter_jaxkey key, int action) {
  return crafter_cc_game_step_arith(state, key, action, CRAFTER_CC_AS_JAX);
}

int crafter_cc_game_died(const crafter_cc_state *s) {
  return map_read(s->map, s->player_position[0], s->player_position[1]) == CRAFTER_CC_LAVA ||
         s->player_health <= 0;
}

int crafter_cc_game_over(const crafter_cc_state *s) {
  return s->timestep >= CRAFTER_CC_MAX_TIMESTEPS || crafter_cc_game_died(s);
}

int crafter_cc_env_step_arith(crafter_cc_state *state, crafter_jaxkey key, int action,
                              enum crafter_cc_arith arith, float *reward, int *done) {
  /* key_step, key_reset = split(key) */
  *reward = crafter_cc_game_step_arith(state, crafter_jax_split_inline(key, 0), action, arith);
  *done = crafter_cc_game_over(state);
  if (*done && crafter_cc_generate_world(crafter_jax_split_inline(key, 1), state) != 0) return -1;
  return 0;
}

int crafter_cc_env_step(crafter_cc_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done) {
  return crafter_cc_env_step_arith(state, key, action, CRAFTER_CC_AS_JAX, reward, done);
}

int crafter_cc_env_step_many(crafter_cc_state *states, const crafter_jaxkey *keys,
                             const int *actions, int count, float *rewards, int *dones) {
  int status = 0;
  for (int first = 0; first < count; first += GROUP) {
    int n = count - first < GROUP ? count - first : GROUP;
    crafter_jaxkey step_keys[GROUP];
    struct draws d[GROUP];
    row k;
    to_row(keys + first, n, &k);
    hash_pair(&k, 0U, &k, 0U, &k, &k); /* key_step of split(key) */
    from_row(&k, n, step_keys);
    draw_group(step_keys, n, d);
    for (int i = first; i < first + n; i++) {
      rewards[i] = step_drawn(&states[i], &d[i - first], actions[i], CRAFTER_CC_AS_JAX);
      dones[i] = crafter_cc_game_over(&states[i]);
      if (dones[i] &&
          crafter_cc_generate_world(crafter_jax_split_inline(keys[i], 1), &states[i]) != 0)
        status = -1;
    }
  }
  return status;
}

void crafter_cc_game_step_each(crafter_cc_state *const *states, const crafter_jaxkey *keys,
                               const int *actions, int count, float *rewards) {
  for (int first = 0; first < count; first += GROUP) {
    int n = count - first < GROUP ? count - first : GROUP;
    struct draws d[GROUP];
    draw_group(keys + first, n, d);
    for (int i = 0; i < n; i++)
      rewards[first + i] =
          step_drawn(states[first + i], &d[i], actions[first + i], CRAFTER_CC_AS_JAX);
  }
}

void crafter_cc_schedule_steps(crafter_jaxkey *keys, int count, crafter_jaxkey *step_keys,
                               crafter_jaxkey *reset_keys) {
  for (int first = 0; first < count; first += GROUP) {
    int n = count - first < GROUP ? count - first : GROUP;
    row key, k, step, reset;
    /* key, k = split(key); key_step, key_reset = split(k) */
    to_row(keys + first, n, &key);
    split_row(&key, &key, &k);
    split_row(&k, &step, &reset);
    from_row(&key, n, keys + first);
    from_row(&step, n, step_keys + first);
    from_row(&reset, n, reset_keys + first);
  }
}

crafter_jaxkey crafter_cc_schedule_start(int64_t seed, crafter_jaxkey *key) {
  crafter_jaxkey root = crafter_jax_key(seed);
  *key = crafter_jax_split_inline(root, 0);
  return crafter_jax_split_inline(root, 1);
}

crafter_jaxkey crafter_cc_schedule_next(crafter_jaxkey *key) {
  crafter_jaxkey next = crafter_jax_split_inline(*key, 1);
  *key = crafter_jax_split_inline(*key, 0);
  return next;
}
