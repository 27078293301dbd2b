/* cx_game: Craftax's step.  cx_game.h says what is promised and which
 * parts are written.
 *
 * The code follows craftax_step's order: the action is NOOP while
 * sleeping or resting; change_floor, (do_crafting), (do_action),
 * (place_block), (shoot_projectile), (cast_spell), (drink_potion),
 * (read_book), (enchant), boss_logic, level_up_attributes, move_player,
 * (update_mobs), (spawn_mobs), update_plants, update_player_intrinsics,
 * clip_inventory_and_intrinsics, calculate_inventory_achievements, the
 * reward, then the timestep, light level and state_rng.  The parts in
 * parentheses are not written yet.
 *
 * JAX's indexing of the 48x48 maps (cc_game.c's): a read counts a
 * negative index once from the end, then clamps; a write counts it once
 * from the end and is dropped when still outside.
 *
 * The arithmetic is float32 as XLA's CPU code computes it: timestep /
 * 300 is timestep * float32(1/300); the light level's 1 - c*c*|c| is one
 * fused multiply-add; the reward, achievements + (health - health
 * before) * 0.1, is fmaf(health - health before, 0.1, achievements). */
#include "game/cx_game.h"

#include <math.h>
#include <string.h>

enum { SIZE = CRAFTER_CX_MAP_SIZE, LEVELS = CRAFTER_CX_LEVELS };

/* Craftax's Action numbers the step tests. */
enum {
  NOOP = 0,
  SLEEP = 6,
  REST = 17,
  DESCEND = 18,
  ASCEND = 19,
  LEVEL_UP_DEXTERITY = 39,
  LEVEL_UP_STRENGTH = 40,
  LEVEL_UP_INTELLIGENCE = 41
};

/* Craftax's Achievement numbers the step sets. */
enum {
  COLLECT_WOOD = 0,
  COLLECT_SAPLING = 3,
  MAKE_WOOD_PICKAXE = 5,
  MAKE_WOOD_SWORD = 6,
  COLLECT_STONE = 9,
  MAKE_STONE_PICKAXE = 13,
  MAKE_STONE_SWORD = 14,
  WAKE_UP = 15,
  COLLECT_COAL = 17,
  COLLECT_IRON = 18,
  COLLECT_DIAMOND = 19,
  MAKE_IRON_PICKAXE = 20,
  MAKE_IRON_SWORD = 21,
  MAKE_ARROW = 22,
  MAKE_TORCH = 23,
  MAKE_DIAMOND_SWORD = 25,
  ENTER_GNOMISH_MINES = 28,
  ENTER_DUNGEON = 29,
  ENTER_SEWERS = 30,
  ENTER_VAULT = 31,
  ENTER_TROLL_MINES = 32,
  ENTER_FIRE_REALM = 33,
  ENTER_ICE_REALM = 34,
  ENTER_GRAVEYARD = 35,
  DEFEAT_NECROMANCER = 49,
  FIND_BOW = 52,
  COLLECT_SAPPHIRE = 54,
  COLLECT_RUBY = 59,
  MAKE_DIAMOND_PICKAXE = 60
};

/* EnvParams' and the constants' numbers. */
enum {
  MAX_ATTRIBUTE = 5,
  MONSTERS_KILLED_TO_CLEAR_LEVEL = 8,
  INVENTORY_CAP = 99,
  GROWN_PLANT_AGE = 600
};

/* LEVEL_ACHIEVEMENT_MAP */
static const int level_achievement[LEVELS] = {
    0, ENTER_DUNGEON, ENTER_GNOMISH_MINES, ENTER_SEWERS, ENTER_VAULT,
    ENTER_TROLL_MINES, ENTER_FIRE_REALM, ENTER_ICE_REALM, ENTER_GRAVEYARD};

/* ACHIEVEMENT_REWARD_MAP: 1 for the first 25, 3 for the intermediate
 * ones, 8 for the very advanced ones, 5 for the others. */
static int achievement_reward(int k) {
  switch (k) {
  case 54: case 59: case 60: case 25: case 26: case 27: case 28: case 29: case 36:
  case 37: case 38: case 39: case 50: case 51: case 52: case 53: case 61: case 62:
    return 3;
  case 33: case 34: case 35: case 44: case 45: case 46: case 47: case 48: case 49:
    return 8;
  default:
    return k <= 24 ? 1 : 5;
  }
}

/* DIRECTIONS: 16 rows indexed by Action (clamped, as JAX reads past the
 * end); rows 5 to 15 are zero. */
static const int32_t directions[16][2] = {{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}};

static const int32_t *direction_of(int32_t index) {
  if (index < 0) index += 16;
  return directions[index < 0 ? 0 : index > 15 ? 15 : index];
}

/* ---- JAX's indexing ---- */

static inline int read_index(int64_t i, int n) {
  int64_t k = i < 0 ? i + n : i;
  return k < 0 ? 0 : k > n - 1 ? n - 1 : (int)k;
}

static inline int write_index(int64_t i, int n) {
  int64_t k = i < 0 ? i + n : i;
  return k >= 0 && k < n ? (int)k : -1;
}

static inline uint8_t map_read(const uint8_t m[SIZE][SIZE], int32_t row, int32_t column) {
  return m[read_index(row, SIZE)][read_index(column, SIZE)];
}

static inline void map_write(uint8_t m[SIZE][SIZE], int32_t row, int32_t column, uint8_t value) {
  int r = write_index(row, SIZE), c = write_index(column, SIZE);
  if (r >= 0 && c >= 0) m[r][c] = value;
}

static inline int in_bounds(int32_t row, int32_t column) {
  return row >= 0 && row < SIZE && column >= 0 && column < SIZE;
}

/* SOLID_BLOCKS, a bit per block type. */
#define BLOCK_BIT(block) (1ULL << CRAFTER_CX_##block)
static const uint64_t solid_blocks =
    BLOCK_BIT(STONE) | BLOCK_BIT(TREE) | BLOCK_BIT(COAL) | BLOCK_BIT(IRON) |
    BLOCK_BIT(DIAMOND) | BLOCK_BIT(CRAFTING_TABLE) | BLOCK_BIT(FURNACE) | BLOCK_BIT(PLANT) |
    BLOCK_BIT(RIPE_PLANT) | BLOCK_BIT(WALL) | BLOCK_BIT(WALL_MOSS) | BLOCK_BIT(STALAGMITE) |
    BLOCK_BIT(RUBY) | BLOCK_BIT(SAPPHIRE) | BLOCK_BIT(CHEST) | BLOCK_BIT(FOUNTAIN) |
    BLOCK_BIT(FIRE_TREE) | BLOCK_BIT(ENCHANTMENT_TABLE_FIRE) |
    BLOCK_BIT(ENCHANTMENT_TABLE_ICE) | BLOCK_BIT(GRAVE) | BLOCK_BIT(GRAVE2) |
    BLOCK_BIT(GRAVE3) | BLOCK_BIT(NECROMANCER);

static inline int solid(uint8_t block) { return block < 64 && ((solid_blocks >> block) & 1U); }

static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

static inline int level_of(const crafter_cx_state *s) {
  return read_index(s->player_level, LEVELS);
}

static inline int32_t max_health(const crafter_cx_state *s) { return 8 + s->player_strength; }
static inline int32_t max_food(const crafter_cx_state *s) { return 7 + 2 * s->player_dexterity; }
static inline int32_t max_energy(const crafter_cx_state *s) { return 7 + 2 * s->player_dexterity; }
static inline int32_t max_mana(const crafter_cx_state *s) { return 6 + 3 * s->player_intelligence; }

static inline int fighting_boss(const crafter_cx_state *s) { return s->player_level == LEVELS - 1; }

/* is_in_mob */
static int in_mob(const crafter_cx_state *s, int32_t row, int32_t column) {
  return map_read(s->mob_map[level_of(s)], row, column) ||
         (s->player_position[0] == row && s->player_position[1] == column);
}

/* is_position_in_bounds_not_in_mob_not_colliding with
 * COLLISION_LAND_CREATURE: no solid block, water or lava. */
static int land_free(const crafter_cx_state *s, int32_t row, int32_t column) {
  uint8_t block = map_read(s->map[level_of(s)], row, column);
  return in_bounds(row, column) && !in_mob(s, row, column) && !solid(block) &&
         block != CRAFTER_CX_WATER && block != CRAFTER_CX_LAVA;
}

/* ---- the step's parts ---- */

static void change_floor(crafter_cx_state *s, int action) {
  int level = level_of(s);
  uint8_t item = map_read(s->item_map[level], s->player_position[0], s->player_position[1]);
  int down = action == DESCEND && item == CRAFTER_CX_ITEM_LADDER_DOWN &&
             s->monsters_killed[level] >= MONSTERS_KILLED_TO_CLEAR_LEVEL &&
             s->player_level < LEVELS - 1;
  int up = action == ASCEND && item == CRAFTER_CX_ITEM_LADDER_UP && s->player_level > 0;
  const int32_t *down_to = s->up_ladders[read_index((int64_t)s->player_level + 1, LEVELS)];
  const int32_t *up_to = s->down_ladders[read_index((int64_t)s->player_level - 1, LEVELS)];
  int32_t delta = down - up;
  int32_t new_level = s->player_level + delta;
  if (down || up) {
    const int32_t *to = down ? down_to : up_to;
    s->player_position[0] = to[0];
    s->player_position[1] = to[1];
  }
  int achievement = level_achievement[read_index(new_level, LEVELS)];
  int had = s->achievements[achievement];
  s->achievements[achievement] = (uint8_t)(new_level != 0 || had);
  s->player_level = new_level;
  s->player_xp += new_level != 0 && !had;
}

static void boss_logic(crafter_cx_state *s) {
  s->achievements[DEFEAT_NECROMANCER] |= s->boss_progress >= LEVELS - 1;
  s->boss_timesteps_to_spawn_this_round -= fighting_boss(s);
}

static void level_up_attributes(crafter_cx_state *s, int action) {
  int can = s->player_xp >= 1;
  int dex = can && action == LEVEL_UP_DEXTERITY && s->player_dexterity < MAX_ATTRIBUTE;
  int str = can && action == LEVEL_UP_STRENGTH && s->player_strength < MAX_ATTRIBUTE;
  int intel = can && action == LEVEL_UP_INTELLIGENCE && s->player_intelligence < MAX_ATTRIBUTE;
  s->player_dexterity += dex;
  s->player_strength += str;
  s->player_intelligence += intel;
  s->player_xp -= dex || str || intel;
}

static void move_player(crafter_cx_state *s, int action) {
  const int32_t *d = direction_of(action);
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  if (land_free(s, row, column)) {
    s->player_position[0] = row;
    s->player_position[1] = column;
  }
  if (d[0] != 0 || d[1] != 0) s->player_direction = action;
}

static void update_plants(crafter_cx_state *s) {
  int finished[CRAFTER_CX_MAX_GROWING_PLANTS];
  for (int k = 0; k < CRAFTER_CX_MAX_GROWING_PLANTS; k++) {
    s->growing_plants_age[k] = (s->growing_plants_age[k] + 1) * (s->growing_plants_mask[k] != 0);
    finished[k] = s->growing_plants_age[k] >= GROWN_PLANT_AGE;
  }
  for (int k = 0; k < CRAFTER_CX_MAX_GROWING_PLANTS; k++) {
    int32_t row = s->growing_plants_positions[k][0], column = s->growing_plants_positions[k][1];
    uint8_t block = finished[k] ? CRAFTER_CX_RIPE_PLANT : map_read(s->map[0], row, column);
    map_write(s->map[0], row, column, block);
  }
}

static void update_intrinsics(crafter_cx_state *s, int action) {
  if (action == SLEEP && s->player_energy < max_energy(s)) s->is_sleeping = 1;
  int waking = s->player_energy >= max_energy(s) && s->is_sleeping;
  if (waking) {
    s->is_sleeping = 0;
    s->achievements[WAKE_UP] = 1;
  }
  if (action == REST && s->player_health < (float)max_health(s)) s->is_resting = 1;
  if (s->is_resting && (s->player_health >= (float)max_health(s) || s->player_food <= 0 ||
                        s->player_drink <= 0))
    s->is_resting = 0;

  int32_t not_boss = !fighting_boss(s);
  float decay = 1.0f - 0.125f * (float)(s->player_dexterity - 1);

  float hunger = s->player_hunger + (s->is_sleeping ? 0.5f : 1.0f) * decay;
  if (hunger > 25.0f) {
    s->player_food = max32(s->player_food - not_boss, 0);
    hunger = 0.0f;
  }
  s->player_hunger = hunger;

  float thirst = s->player_thirst + (s->is_sleeping ? 0.5f : 1.0f) * decay;
  if (thirst > 20.0f) {
    s->player_drink = max32(s->player_drink - not_boss, 0);
    thirst = 0.0f;
  }
  s->player_thirst = thirst;

  float fatigue = s->is_sleeping ? fminf(s->player_fatigue - 1.0f, 0.0f) : s->player_fatigue + decay;
  int32_t energy = s->player_energy;
  if (fatigue > 30.0f) {
    energy = max32(s->player_energy - not_boss, 0);
    fatigue = 0.0f;
  }
  if (fatigue < -10.0f) {
    energy = min32(s->player_energy + 1, max_energy(s));
    fatigue = 0.0f;
  }
  s->player_fatigue = fatigue;
  s->player_energy = energy;

  int all = s->player_food > 0 && s->player_drink > 0 && (s->player_energy > 0 || s->is_sleeping);
  float recover_add = all ? (s->is_sleeping ? 2.0f : 1.0f)
                          : (s->is_sleeping ? -0.5f : -1.0f) * (float)not_boss;
  float recover = s->player_recover + recover_add;
  float health = s->player_health;
  if (recover > 25.0f) {
    health = fminf(s->player_health + 1.0f, (float)max_health(s));
    recover = 0.0f;
  }
  if (recover < -15.0f) {
    health = s->player_health - 1.0f;
    recover = 0.0f;
  }
  s->player_recover = recover;
  s->player_health = health;

  float mana_coeff = 1.0f + 0.25f * (float)(s->player_intelligence - 1);
  float recover_mana =
      (s->player_recover_mana + (s->is_sleeping ? 2.0f : 1.0f)) * mana_coeff;
  if (recover_mana > 30.0f) {
    s->player_mana += 1;
    recover_mana = 0.0f;
  }
  s->player_recover_mana = recover_mana;
}

static void clip_inventory_and_intrinsics(crafter_cx_state *s) {
  int32_t *inventory = (int32_t *)&s->inventory;
  for (size_t k = 0; k < sizeof s->inventory / sizeof(int32_t); k++)
    inventory[k] = min32(inventory[k], INVENTORY_CAP);
  s->player_health = fminf(fmaxf(s->player_health, 0.0f), (float)max_health(s));
  s->player_food = min32(max32(s->player_food, 0), max_food(s));
  s->player_drink = min32(max32(s->player_drink, 0), max_food(s));
  s->player_energy = min32(max32(s->player_energy, 0), max_energy(s));
  s->player_mana = min32(max32(s->player_mana, 0), max_mana(s));
}

static void inventory_achievements(crafter_cx_state *s) {
  const crafter_cx_inventory *v = &s->inventory;
  uint8_t *a = s->achievements;
  a[COLLECT_WOOD] |= v->wood > 0;
  a[COLLECT_STONE] |= v->stone > 0;
  a[COLLECT_COAL] |= v->coal > 0;
  a[COLLECT_IRON] |= v->iron > 0;
  a[COLLECT_DIAMOND] |= v->diamond > 0;
  a[COLLECT_RUBY] |= v->ruby > 0;
  a[COLLECT_SAPPHIRE] |= v->sapphire > 0;
  a[COLLECT_SAPLING] |= v->sapling > 0;
  a[FIND_BOW] |= v->bow > 0;
  a[MAKE_ARROW] |= v->arrows > 0;
  a[MAKE_TORCH] |= v->torches > 0;
  a[MAKE_WOOD_PICKAXE] |= v->pickaxe >= 1;
  a[MAKE_STONE_PICKAXE] |= v->pickaxe >= 2;
  a[MAKE_IRON_PICKAXE] |= v->pickaxe >= 3;
  a[MAKE_DIAMOND_PICKAXE] |= v->pickaxe >= 4;
  a[MAKE_WOOD_SWORD] |= v->sword >= 1;
  a[MAKE_STONE_SWORD] |= v->sword >= 2;
  a[MAKE_IRON_SWORD] |= v->sword >= 3;
  a[MAKE_DIAMOND_SWORD] |= v->sword >= 4;
}

/* calculate_light_level(timestep) */
static float light_level(int32_t timestep) {
  float day = (float)timestep * (1.0f / (float)CRAFTER_CX_DAY_LENGTH);
  float progress = fmodf(day, 1.0f);
  if (progress < 0.0f) progress += 1.0f;
  progress = progress + 0.3f;
  float c = cosf(progress * 3.14159274f);
  return fmaf(-(c * c), fabsf(c), 1.0f);
}

/* The keys craftax_step splits off its key, in its order. */
struct keys {
  crafter_jaxkey do_action, read_book, enchant, update_mobs, spawn_mobs, state_rng;
};

/* rng, _rng = split(rng): *rng moves on, _rng is returned. */
static inline crafter_jaxkey split_off(crafter_jaxkey *rng) {
  crafter_jaxkey sub = crafter_jax_split_inline(*rng, 1);
  *rng = crafter_jax_split_inline(*rng, 0);
  return sub;
}

static void split_keys(crafter_jaxkey rng, struct keys *k) {
  k->do_action = split_off(&rng);
  k->read_book = split_off(&rng);
  k->enchant = split_off(&rng);
  k->update_mobs = split_off(&rng);
  k->spawn_mobs = split_off(&rng);
  k->state_rng = split_off(&rng);
}

float crafter_cx_game_step(crafter_cx_state *s, crafter_jaxkey key, int action) {
  struct keys keys;
  split_keys(key, &keys);
  uint8_t achievements_before[CRAFTER_CX_ACHIEVEMENTS];
  memcpy(achievements_before, s->achievements, sizeof achievements_before);
  float health_before = s->player_health;
  if (s->is_sleeping || s->is_resting) action = NOOP;

  change_floor(s, action);
  boss_logic(s);
  level_up_attributes(s, action);
  move_player(s, action);
  update_plants(s);
  update_intrinsics(s, action);
  clip_inventory_and_intrinsics(s);
  inventory_achievements(s);

  int32_t achieved = 0;
  for (int k = 0; k < CRAFTER_CX_ACHIEVEMENTS; k++)
    achieved += ((int32_t)s->achievements[k] - (int32_t)achievements_before[k]) *
                achievement_reward(k);
  float reward = fmaf(s->player_health - health_before, 0.1f, (float)achieved);
  s->timestep += 1;
  s->light_level = light_level(s->timestep);
  s->state_rng = keys.state_rng;
  return reward;
}

int crafter_cx_game_over(const crafter_cx_state *s) {
  return s->timestep >= CRAFTER_CX_MAX_TIMESTEPS || s->player_health <= 0.0f ||
         s->boss_progress >= LEVELS - 1;
}

int crafter_cx_env_step(crafter_cx_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done) {
  *reward = crafter_cx_game_step(state, crafter_jax_split_inline(key, 0), action);
  *done = crafter_cx_game_over(state);
  if (*done && crafter_cx_generate_world(crafter_jax_split_inline(key, 1), state) != 0) return -1;
  return 0;
}

crafter_jaxkey crafter_cx_schedule_start(int64_t seed, crafter_jaxkey *key) {
  crafter_jaxkey root = crafter_jax_key(seed);
  *key = crafter_jax_split_inline(root, 0);
  return crafter_jax_split_inline(root, 1);
}

crafter_jaxkey crafter_cx_schedule_next(crafter_jaxkey *key) {
  crafter_jaxkey next = crafter_jax_split_inline(*key, 1);
  *key = crafter_jax_split_inline(*key, 0);
  return next;
}
