/* cx_game: Craftax's step.  cx_game.h says what is promised and which
 * parts are written.
 *
 * The code follows craftax_step's order: the action is NOOP while
 * sleeping or resting; change_floor, do_crafting, do_action,
 * place_block, shoot_projectile, cast_spell, drink_potion, read_book,
 * enchant, boss_logic, level_up_attributes, move_player, update_mobs,
 * spawn_mobs, update_plants, update_player_intrinsics,
 * clip_inventory_and_intrinsics, calculate_inventory_achievements, the
 * reward, then the timestep, light level and state_rng.  A part whose
 * effect JAX selects away when its action is not taken is skipped then;
 * its key is split all the same.
 *
 * JAX's indexing of the 48x48 maps (cc_game.c's): a read counts a
 * negative index once from the end, then clamps; a write counts it once
 * from the end and is dropped when still outside.
 *
 * The arithmetic is float32 as XLA's CPU code computes it: timestep /
 * 300 is timestep * float32(1/300); the light level's 1 - c*c*|c| is one
 * fused multiply-add; the reward, achievements + (health - health
 * before) * 0.1, is fmaf(health - health before, 0.1, achievements);
 * get_damage's sum of (1 - defense) * damage fuses each product into the
 * sum; the spawn chance of melee creatures, c1 + c3 * (1 - light)**2, is
 * fmaf((1 - light)**2, c3, c1).  Everything else is rounded on its own
 * (the build never contracts). */
#include "game/cx_game.h"

#include <math.h>
#include <string.h>

enum { SIZE = CRAFTER_CX_MAP_SIZE, LEVELS = CRAFTER_CX_LEVELS };

/* Craftax's Action numbers the step tests. */
enum {
  NOOP = 0,
  DO = 5,
  SLEEP = 6,
  PLACE_STONE_ACTION = 7,
  PLACE_TABLE_ACTION = 8,
  PLACE_FURNACE_ACTION = 9,
  PLACE_PLANT_ACTION = 10,
  MAKE_WOOD_PICKAXE_ACTION = 11,
  MAKE_STONE_PICKAXE_ACTION = 12,
  MAKE_IRON_PICKAXE_ACTION = 13,
  MAKE_WOOD_SWORD_ACTION = 14,
  MAKE_STONE_SWORD_ACTION = 15,
  MAKE_IRON_SWORD_ACTION = 16,
  REST = 17,
  DESCEND = 18,
  ASCEND = 19,
  MAKE_DIAMOND_PICKAXE_ACTION = 20,
  MAKE_DIAMOND_SWORD_ACTION = 21,
  MAKE_IRON_ARMOUR_ACTION = 22,
  MAKE_DIAMOND_ARMOUR_ACTION = 23,
  SHOOT_ARROW = 24,
  MAKE_ARROW_ACTION = 25,
  CAST_FIREBALL_ACTION = 26,
  CAST_ICEBALL_ACTION = 27,
  PLACE_TORCH_ACTION = 28,
  DRINK_POTION_RED = 29,
  READ_BOOK = 35,
  ENCHANT_SWORD_ACTION = 36,
  ENCHANT_ARMOUR_ACTION = 37,
  MAKE_TORCH_ACTION = 38,
  LEVEL_UP_DEXTERITY = 39,
  LEVEL_UP_STRENGTH = 40,
  LEVEL_UP_INTELLIGENCE = 41,
  ENCHANT_BOW = 42
};

/* Craftax's Achievement numbers the step sets. */
enum {
  COLLECT_WOOD = 0,
  PLACE_TABLE = 1,
  COLLECT_SAPLING = 3,
  COLLECT_DRINK = 4,
  MAKE_WOOD_PICKAXE = 5,
  MAKE_WOOD_SWORD = 6,
  PLACE_PLANT = 7,
  COLLECT_STONE = 9,
  PLACE_STONE = 10,
  MAKE_STONE_PICKAXE = 13,
  EAT_PLANT = 11,
  MAKE_STONE_SWORD = 14,
  WAKE_UP = 15,
  PLACE_FURNACE = 16,
  COLLECT_COAL = 17,
  COLLECT_IRON = 18,
  COLLECT_DIAMOND = 19,
  MAKE_IRON_PICKAXE = 20,
  MAKE_IRON_SWORD = 21,
  MAKE_ARROW = 22,
  MAKE_TORCH = 23,
  PLACE_TORCH = 24,
  MAKE_DIAMOND_SWORD = 25,
  MAKE_IRON_ARMOUR = 26,
  MAKE_DIAMOND_ARMOUR = 27,
  ENTER_GNOMISH_MINES = 28,
  ENTER_DUNGEON = 29,
  ENTER_SEWERS = 30,
  ENTER_VAULT = 31,
  ENTER_TROLL_MINES = 32,
  ENTER_FIRE_REALM = 33,
  ENTER_ICE_REALM = 34,
  ENTER_GRAVEYARD = 35,
  DAMAGE_NECROMANCER = 48,
  DEFEAT_NECROMANCER = 49,
  FIND_BOW = 52,
  FIRE_BOW = 53,
  COLLECT_SAPPHIRE = 54,
  LEARN_FIREBALL = 55,
  CAST_FIREBALL = 56,
  LEARN_ICEBALL = 57,
  CAST_ICEBALL = 58,
  COLLECT_RUBY = 59,
  MAKE_DIAMOND_PICKAXE = 60,
  OPEN_CHEST = 61,
  DRINK_POTION = 62,
  ENCHANT_SWORD = 63,
  ENCHANT_ARMOUR = 64
};

/* EnvParams' and the constants' numbers. */
enum {
  MAX_ATTRIBUTE = 5,
  MONSTERS_KILLED_TO_CLEAR_LEVEL = 8,
  INVENTORY_CAP = 99,
  GROWN_PLANT_AGE = 600,
  DESPAWN_DISTANCE = 14
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

/* rng, _rng = split(rng): *rng moves on, _rng is returned. */
static inline crafter_jaxkey split_off(crafter_jaxkey *rng) {
  crafter_jaxkey sub = crafter_jax_split_inline(*rng, 1);
  *rng = crafter_jax_split_inline(*rng, 0);
  return sub;
}

/* ---- the creatures' tables ---- */

enum { PASSIVE = 0, MELEE = 1, RANGED = 2, PROJECTILE = 3 };
enum { ARROW = 0, FIREBALL = 2, ICEBALL = 3, ARROW2 = 4 };

/* MOB_TYPE_DAMAGE_MAPPING[type][class][physical, fire, ice] (8 types). */
static const float mob_damage[8][4][3] = {
    {{0, 0, 0}, {2, 0, 0}, {0, 0, 0}, {2, 0, 0}}, {{0, 0, 0}, {4, 0, 0}, {0, 0, 0}, {4, 0, 0}},
    {{0, 0, 0}, {3, 0, 0}, {0, 0, 0}, {0, 3, 0}}, {{0, 0, 0}, {5, 0, 0}, {0, 0, 0}, {0, 0, 3}},
    {{0, 0, 0}, {6, 0, 0}, {0, 0, 0}, {5, 0, 0}}, {{0, 0, 0}, {6, 1, 1}, {0, 0, 0}, {4, 3, 3}},
    {{0, 0, 0}, {3, 5, 0}, {0, 0, 0}, {3, 5, 0}}, {{0, 0, 0}, {4, 0, 5}, {0, 0, 0}, {4, 0, 5}}};

/* MOB_TYPE_COLLISION_MAPPING[type][class]: ground, water, lava (9 types). */
static const uint8_t mob_collision[9][4][3] = {
    {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 0, 0}}, {{0, 0, 0}, {0, 1, 1}, {0, 1, 1}, {0, 0, 0}},
    {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 0, 0}}, {{0, 1, 1}, {0, 0, 1}, {0, 1, 1}, {0, 0, 0}},
    {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 0, 0}}, {{0, 1, 1}, {0, 1, 1}, {1, 0, 1}, {0, 0, 0}},
    {{0, 1, 1}, {0, 1, 1}, {0, 0, 0}, {0, 0, 0}}, {{0, 1, 1}, {0, 1, 1}, {0, 0, 0}, {0, 0, 0}},
    {{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {0, 0, 0}}};

/* MOB_TYPE_DEFENSE_MAPPING[type][class] (9 types; rows 0 to 3 and 8 zero). */
static const float mob_defense[9][4][3] = {
    {{0}}, {{0}}, {{0}}, {{0}},
    {{0, 0, 0}, {0.5f, 0, 0}, {0.5f, 0, 0}, {0, 0, 0}},
    {{0, 0, 0}, {0.2f, 0, 0}, {0, 0, 0}, {0, 0, 0}},
    {{0, 0, 0}, {0.9f, 1, 0}, {0.9f, 1, 0}, {0, 0, 0}},
    {{0, 0, 0}, {0.9f, 0, 1}, {0.9f, 0, 1}, {0, 0, 0}},
    {{0}}};

/* MOB_TYPE_HEALTH_MAPPING[type][class] (9 types). */
static const float mob_health[9][4] = {{3, 5, 3, 0},  {4, 7, 5, 0},   {6, 9, 6, 0},
                                       {8, 11, 8, 0}, {0, 12, 12, 0}, {0, 20, 4, 0},
                                       {0, 20, 14, 0}, {0, 24, 16, 0}, {0, 0, 0, 0}};

/* RANGED_MOB_TYPE_TO_PROJECTILE_TYPE_MAPPING */
static const int32_t ranged_projectile[8] = {0, 0, 2, 1, 4, 5, 6, 7};

/* MOB_ACHIEVEMENT_MAP[class][type] */
static const int32_t mob_achievement[3][8] = {{2, 50, 51, 0, 0, 0, 0, 0},
                                              {8, 36, 38, 40, 65, 42, 44, 46},
                                              {12, 37, 39, 41, 66, 43, 45, 47}};

/* FLOOR_MOB_SPAWN_CHANCE[floor][passive, melee, ranged, melee at night] */
static const float floor_spawn_chance[LEVELS][4] = {
    {0.1f, 0.02f, 0.05f, 0.1f}, {0.1f, 0.06f, 0.05f, 0}, {0.1f, 0.06f, 0.05f, 0},
    {0.1f, 0.06f, 0.05f, 0},    {0.1f, 0.06f, 0.05f, 0}, {0.1f, 0.06f, 0.05f, 0},
    {0.1f, 0.06f, 0.05f, 0},    {0, 0.06f, 0.05f, 0},    {0.1f, 0.06f, 0.05f, 0}};

/* FLOOR_MOB_MAPPING[floor][class] */
static const int32_t floor_mob[LEVELS][3] = {{0, 0, 0}, {2, 2, 2}, {1, 1, 1}, {2, 3, 3}, {2, 4, 4},
                                            {1, 5, 5}, {1, 6, 6}, {1, 7, 7}, {0, 0, 0}};

static inline int type_row(int32_t type, int rows) { return read_index(type, rows); }

/* is_position_in_bounds_not_in_mob_not_colliding with a collision map. */
static int free_for(const crafter_cx_state *s, int32_t row, int32_t column,
                    const uint8_t collision[3]) {
  uint8_t block = map_read(s->map[level_of(s)], row, column);
  int is_solid = solid(block), water = block == CRAFTER_CX_WATER, lava = block == CRAFTER_CX_LAVA;
  int ground = !is_solid && !water && !lava;
  return in_bounds(row, column) && !in_mob(s, row, column) && !is_solid &&
         (!collision[0] || !ground) && (!collision[1] || !water) && (!collision[2] || !lava);
}

/* get_damage: the sum of (1 - defense) * damage, in order, each product
 * fused into the sum as XLA's reduction of the products computes it (a
 * boss floor's fire creature striking through armour: 9 - 7.2000003,
 * where products rounded apart give 7.1999998). */
static float damage_of(const float damage[3], const float defense[3]) {
  float sum = 0.0f;
  for (int i = 0; i < 3; i++) sum = fmaf(1.0f - defense[i], damage[i], sum);
  return sum;
}

/* get_damage_done_to_player */
static float damage_to_player(const crafter_cx_state *s, const float base[3]) {
  float defense[3] = {0.0f, 0.0f, 0.0f};
  for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) {
    defense[0] += (float)s->inventory.armour[k] * 0.1f;
    defense[1] += (float)(s->armour_enchantments[k] == 1) * 0.2f;
    defense[2] += (float)(s->armour_enchantments[k] == 2) * 0.2f;
  }
  float boss = fighting_boss(s) ? 1.5f : 1.0f, damage[3];
  for (int i = 0; i < 3; i++) damage[i] = base[i] * boss;
  return damage_of(damage, defense);
}

/* Whether a creature of some floor is alive (masked) without health
 * above zero.  No step makes one (a creature's health falls only where
 * an attack then clears the masks of those at zero), so only a state
 * made otherwise has one, before its first attack. */
static int unclean_masks(const crafter_cx_state *s) {
  /* every slot of the tables, those past a class's number too: no step
   * masks those, and where one is masked the way taken for unclean masks
   * is exact all the same */
  enum { SLOTS = LEVELS * CRAFTER_CX_MOB_SLOTS };
  const crafter_cx_mobs *classes[3] = {&s->melee_mobs, &s->passive_mobs, &s->ranged_mobs};
  int unclean = 0;
  for (int c = 0; c < 3; c++) {
    const uint8_t *mask = &classes[c]->mask[0][0];
    const float *health = &classes[c]->health[0][0];
    for (int k = 0; k < SLOTS; k++) unclean |= (mask[k] != 0) & !(health[k] > 0.0f);
  }
  return unclean;
}

/* attack_mob_class: the creatures of one class at `row, column` on the
 * player's floor take the damage; returns whether one was there, *killed
 * whether it died.  JAX clears the mask of every creature without health
 * on every floor; only the player's floor can have one unless `unclean`
 * (unclean_masks) says otherwise. */
static int attack_mob_class(crafter_cx_state *s, crafter_cx_mobs *m, int slots, int32_t row,
                            int32_t column, const float damage[3], int can_achieve,
                            int mob_class, int unclean, int *killed) {
  int level = level_of(s), target = 0, any = 0;
  for (int k = slots - 1; k >= 0; k--)
    if (m->position[level][k][0] == row && m->position[level][k][1] == column &&
        m->mask[level][k]) {
      target = k;
      any = 1;
    }
  int32_t type = m->type_id[level][target];
  float hurt = damage_of(damage, mob_defense[type_row(type, 9)][mob_class]);
  m->health[level][target] += -hurt * (float)any;
  uint8_t old_mask = m->mask[level][target];
  for (int f = unclean ? 0 : level; f < (unclean ? LEVELS : level + 1); f++)
    for (int k = 0; k < slots; k++) m->mask[f][k] = m->mask[f][k] && m->health[f][k] > 0.0f;
  *killed = old_mask && !m->mask[level][target];
  int achievement = mob_achievement[mob_class][type_row(type, 8)];
  s->achievements[achievement] |= (uint8_t)(*killed && can_achieve);
  return any;
}

/* attack_mob: returns whether a creature was there; *killed whether one
 * died.  unclean: as attack_mob_class's. */
static int attack_mob(crafter_cx_state *s, int32_t row, int32_t column, const float damage[3],
                      int can_eat, int unclean, int *killed) {
  int level = level_of(s), melee_killed, passive_killed, ranged_killed;
  int melee = attack_mob_class(s, &s->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, row, column, damage,
                               1, MELEE, unclean, &melee_killed);
  int passive = attack_mob_class(s, &s->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, row, column,
                                 damage, can_eat, PASSIVE, unclean, &passive_killed);
  if (passive_killed && can_eat) {
    s->player_food = min32(max_food(s), s->player_food + 6);
    s->player_hunger = 0.0f;
  }
  int ranged = attack_mob_class(s, &s->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, row, column,
                                damage, 1, RANGED, unclean, &ranged_killed);
  int monster = melee_killed || ranged_killed;
  *killed = monster || passive_killed;
  uint8_t here = map_read(s->mob_map[level], row, column);
  map_write(s->mob_map[level], row, column, (uint8_t)(here && !*killed));
  s->monsters_killed[level] += monster;
  return melee || passive || ranged;
}

/* The mob map's cells of a creature that moved from `from` to `to`:
 * cleared where it was if it lives, set where it is if it stays. */
static void move_on_mob_map(crafter_cx_state *s, const int32_t from[2], const int32_t to[2],
                            uint8_t mask, uint8_t new_mask) {
  uint8_t(*mob_map)[SIZE] = s->mob_map[level_of(s)];
  map_write(mob_map, from[0], from[1], (uint8_t)(map_read(mob_map, from[0], from[1]) && !mask));
  map_write(mob_map, to[0], to[1], (uint8_t)(map_read(mob_map, to[0], to[1]) || new_mask));
}

static int32_t abs32(int32_t v) { return v < 0 ? -v : v; }
static int32_t sign32(int32_t v) { return (v > 0) - (v < 0); }

/* The move towards the player: along the axis drawn (choice(p) over the
 * axes farthest from the player, p = (d0 == most, d1 == most) / (d0 +
 * d1)), one step.  With one axis farther the draw cannot choose the
 * other (its p is 0, the search ends on the first sum reached) and is
 * not made. */
static void towards_player(const crafter_cx_state *s, const int32_t at[2], crafter_jaxkey key,
                           int32_t direction[2]) {
  int32_t d0 = abs32(s->player_position[0] - at[0]), d1 = abs32(s->player_position[1] - at[1]);
  int32_t axis = d0 > d1 ? 0 : 1;
  if (d0 == d1) {
    float sum = (float)(d0 + d1);
    float p[2] = {1.0f / sum, 1.0f / sum};
    crafter_jax_choice_p(key, p, 2, &axis, 1);
  }
  direction[0] = direction[1] = 0;
  int a = read_index(axis, 2);
  direction[a] = sign32(s->player_position[a] - at[a]);
}

static void update_mobs(crafter_cx_state *s, crafter_jaxkey rng) {
  int level = level_of(s);
  int boss = fighting_boss(s);
  const int32_t *player = s->player_position;

  /* melee */
  crafter_jaxkey carry = crafter_jax_split_inline(rng, 0);
  rng = carry;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++) {
    crafter_cx_mobs *m = &s->melee_mobs;
    /* The keys: r = carry; random, towards, close and next are split off
     * in turn.  Only the chain and next are needed whatever happens: a
     * key is made where its draw decides something. */
    crafter_jaxkey r1 = crafter_jax_split_inline(carry, 0), r2 = crafter_jax_split_inline(r1, 0),
                   r3 = crafter_jax_split_inline(r2, 0), next = crafter_jax_split_inline(r3, 1);
    int32_t at[2] = {m->position[level][k][0], m->position[level][k][1]};
    int32_t distance = abs32(at[0] - player[0]) + abs32(at[1] - player[1]);
    int attacking = distance == 1 && m->attack_cooldown[level][k] <= 0 && m->mask[level][k];
    int32_t proposed[2] = {at[0], at[1]};
    if (!attacking) {
      int close = (distance < 10 || boss) &&
                  crafter_jax_uniform1(crafter_jax_split_inline(r2, 1)) < 0.75f;
      int32_t step[2];
      if (close) {
        towards_player(s, at, crafter_jax_split_inline(r1, 1), step);
      } else {
        int32_t random_direction = 0;
        crafter_jax_choice(crafter_jax_split_inline(carry, 1), 4, &random_direction, 1);
        step[0] = directions[1 + random_direction][0];
        step[1] = directions[1 + random_direction][1];
      }
      proposed[0] = at[0] + step[0], proposed[1] = at[1] + step[1];
    }
    int32_t type = m->type_id[level][k];
    const float *base = mob_damage[type_row(type, 8)][MELEE];
    float sleeping = s->is_sleeping ? 3.5f : 1.0f, scaled[3];
    for (int i = 0; i < 3; i++) scaled[i] = base[i] * sleeping;
    int32_t cooldown = attacking ? 5 : m->attack_cooldown[level][k] - 1;
    /* health less damage times 0 is health itself: only an attack is
     * worked out */
    if (attacking) {
      s->player_health = s->player_health - damage_to_player(s, scaled);
      if (s->is_sleeping) s->achievements[WAKE_UP] = 1;
      s->is_sleeping = 0;
      s->is_resting = 0;
    }
    int32_t position[2] = {at[0], at[1]};
    if (free_for(s, proposed[0], proposed[1], mob_collision[type_row(type, 9)][MELEE]))
      position[0] = proposed[0], position[1] = proposed[1];
    int stays = distance < DESPAWN_DISTANCE || boss;
    uint8_t new_mask = (uint8_t)(m->mask[level][k] && stays);
    move_on_mob_map(s, at, position, m->mask[level][k], new_mask);
    m->position[level][k][0] = position[0];
    m->position[level][k][1] = position[1];
    m->attack_cooldown[level][k] = cooldown;
    m->mask[level][k] = new_mask;
    carry = next;
  }

  /* passive */
  carry = crafter_jax_split_inline(carry, 0);
  for (int k = 0; k < CRAFTER_CX_MAX_PASSIVE_MOBS; k++) {
    crafter_cx_mobs *m = &s->passive_mobs;
    crafter_jaxkey random_key = split_off(&carry);
    int32_t at[2] = {m->position[level][k][0], m->position[level][k][1]};
    int32_t random_direction = 0;
    crafter_jax_choice(random_key, 8, &random_direction, 1);
    const int32_t *rd = directions[1 + random_direction];
    int32_t proposed[2] = {at[0] + rd[0], at[1] + rd[1]};
    int32_t type = m->type_id[level][k];
    int32_t position[2] = {at[0], at[1]};
    if (free_for(s, proposed[0], proposed[1], mob_collision[type_row(type, 9)][PASSIVE]))
      position[0] = proposed[0], position[1] = proposed[1];
    int32_t distance = abs32(at[0] - player[0]) + abs32(at[1] - player[1]);
    uint8_t new_mask = (uint8_t)(m->mask[level][k] && distance < DESPAWN_DISTANCE);
    move_on_mob_map(s, at, position, m->mask[level][k], new_mask);
    m->position[level][k][0] = position[0];
    m->position[level][k][1] = position[1];
    m->mask[level][k] = new_mask;
  }

  /* ranged */
  carry = crafter_jax_split_inline(carry, 0);
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++) {
    crafter_cx_mobs *m = &s->ranged_mobs;
    /* The keys: random, towards and keep split off carry in turn, each
     * made only where its draw decides something. */
    crafter_jaxkey c1 = crafter_jax_split_inline(carry, 0), c2 = crafter_jax_split_inline(c1, 0);
    crafter_jaxkey random_key = crafter_jax_split_inline(carry, 1);
    crafter_jaxkey towards_key = crafter_jax_split_inline(c1, 1);
    crafter_jaxkey keep_key = crafter_jax_split_inline(c2, 1);
    carry = crafter_jax_split_inline(c2, 0);
    int32_t at[2] = {m->position[level][k][0], m->position[level][k][1]};
    int32_t distance = abs32(at[0] - player[0]) + abs32(at[1] - player[1]);
    int far = distance >= 6, too_close = distance <= 3;
    /* towards (away when too close) the player if the keep draw is over
     * 0.85, else the random move */
    int keep = (far || too_close) && crafter_jax_uniform1(keep_key) > 0.85f;
    int32_t toward[2] = {0, 0}, proposed[2];
    int have_toward = keep;
    if (keep) {
      towards_player(s, at, towards_key, toward);
      int32_t sign = too_close ? -1 : 1;
      proposed[0] = at[0] + sign * toward[0], proposed[1] = at[1] + sign * toward[1];
    } else {
      int32_t random_direction = 0;
      crafter_jax_choice(random_key, 4, &random_direction, 1);
      proposed[0] = at[0] + directions[1 + random_direction][0];
      proposed[1] = at[1] + directions[1 + random_direction][1];
    }
    int32_t type = m->type_id[level][k];
    const uint8_t *collision = mob_collision[type_row(type, 9)][RANGED];
    int attacking = (distance >= 4 && distance <= 5) ||
                    (too_close && !free_for(s, proposed[0], proposed[1], collision));
    attacking = attacking && m->attack_cooldown[level][k] <= 0 && m->mask[level][k];
    if (attacking && !have_toward) towards_player(s, at, towards_key, toward);
    int live = 0;
    for (int j = 0; j < CRAFTER_CX_MAX_MOB_PROJECTILES; j++) live += s->mob_projectiles.mask[level][j];
    if (attacking && live < CRAFTER_CX_MAX_MOB_PROJECTILES) {
      int slot = 0;
      while (slot < CRAFTER_CX_MAX_MOB_PROJECTILES - 1 && s->mob_projectiles.mask[level][slot]) slot++;
      if (s->mob_projectiles.mask[level][slot]) slot = 0;
      s->mob_projectiles.position[level][slot][0] = at[0];
      s->mob_projectiles.position[level][slot][1] = at[1];
      s->mob_projectiles.mask[level][slot] = 1;
      s->mob_projectiles.type_id[level][slot] = ranged_projectile[type_row(type, 8)];
      s->mob_projectile_directions[level][slot][0] = toward[0];
      s->mob_projectile_directions[level][slot][1] = toward[1];
    }
    if (attacking) proposed[0] = at[0], proposed[1] = at[1];
    int32_t cooldown = attacking ? 4 : m->attack_cooldown[level][k] - 1;
    int32_t position[2] = {at[0], at[1]};
    if (free_for(s, proposed[0], proposed[1], collision))
      position[0] = proposed[0], position[1] = proposed[1];
    int stays = distance < DESPAWN_DISTANCE || boss;
    uint8_t new_mask = (uint8_t)(m->mask[level][k] && stays);
    move_on_mob_map(s, at, position, m->mask[level][k], new_mask);
    m->position[level][k][0] = position[0];
    m->position[level][k][1] = position[1];
    m->attack_cooldown[level][k] = cooldown;
    m->mask[level][k] = new_mask;
  }

  /* the creatures' projectiles */
  for (int k = 0; k < CRAFTER_CX_MAX_MOB_PROJECTILES; k++) {
    crafter_cx_mobs *m = &s->mob_projectiles;
    int32_t at[2] = {m->position[level][k][0], m->position[level][k][1]};
    int32_t to[2] = {at[0] + s->mob_projectile_directions[level][k][0],
                     at[1] + s->mob_projectile_directions[level][k][1]};
    uint8_t block = map_read(s->map[level], to[0], to[1]);
    int wall = solid(block) && block != CRAFTER_CX_WATER;
    int go_on = in_bounds(to[0], to[1]) && !wall && !in_mob(s, to[0], to[1]);
    uint8_t mask = m->mask[level][k];
    int hit = mask && ((at[0] == player[0] && at[1] == player[1]) ||
                       (to[0] == player[0] && to[1] == player[1]));
    go_on = go_on && !hit;
    uint8_t there = map_read(s->map[level], to[0], to[1]);
    int removing = (there == CRAFTER_CX_FURNACE || there == CRAFTER_CX_CRAFTING_TABLE) && mask;
    float damage =
        damage_to_player(s, mob_damage[type_row(m->type_id[level][k], 8)][PROJECTILE]);
    m->position[level][k][0] = to[0];
    m->position[level][k][1] = to[1];
    m->mask[level][k] = (uint8_t)(go_on && mask);
    s->player_health = s->player_health - damage * (float)hit;
    if (hit) s->is_sleeping = 0, s->is_resting = 0;
    map_write(s->map[level], to[0], to[1], removing ? (uint8_t)CRAFTER_CX_PATH : there);
  }

  /* the player's projectiles */
  int unclean = unclean_masks(s);
  for (int k = 0; k < CRAFTER_CX_MAX_PLAYER_PROJECTILES; k++) {
    crafter_cx_mobs *m = &s->player_projectiles;
    int32_t type = m->type_id[level][k];
    uint8_t mask = m->mask[level][k];
    const float *base = mob_damage[type_row(type, 8)][PROJECTILE];
    float damage[3];
    for (int i = 0; i < 3; i++) damage[i] = base[i] * (float)mask;
    int arrow = type == ARROW || type == ARROW2;
    float add[3] = {0.0f, 0.0f, 0.0f};
    add[read_index(s->bow_enchantment, 3)] = damage[0] * 0.5f;
    add[0] = 0.0f;
    if (arrow)
      for (int i = 0; i < 3; i++) damage[i] += add[i];
    float arrow_coeff = 1.0f + 0.2f * (float)(s->player_dexterity - 1);
    float magic_coeff = 1.0f + 0.5f * (float)(s->player_intelligence - 1);
    for (int i = 0; i < 3; i++) damage[i] *= arrow ? arrow_coeff : 1.0f;
    int magic = type == FIREBALL || type == ICEBALL;
    for (int i = 0; i < 3; i++) damage[i] *= magic ? magic_coeff : 1.0f;
    int32_t at[2] = {m->position[level][k][0], m->position[level][k][1]};
    int32_t to[2] = {at[0] + s->player_projectile_directions[level][k][0],
                     at[1] + s->player_projectile_directions[level][k][1]};
    uint8_t block = map_read(s->map[level], to[0], to[1]);
    int wall = solid(block) && block != CRAFTER_CX_WATER;
    int killed, attacked0 = 0, attacked1 = 0;
    /* A projectile that is not there does no damage: its attacks change
     * nothing unless they clear unclean masks (once: they leave none). */
    if (mask || unclean) {
      attacked0 = attack_mob(s, at[0], at[1], damage, 0, unclean, &killed);
      for (int i = 0; i < 3; i++) damage[i] = damage[i] * (float)(1 - attacked0);
      attacked1 = attack_mob(s, to[0], to[1], damage, 0, unclean, &killed);
      unclean = 0;
    }
    int go_on = in_bounds(to[0], to[1]) && !wall && !(attacked0 || attacked1);
    m->position[level][k][0] = to[0];
    m->position[level][k][1] = to[1];
    m->mask[level][k] = (uint8_t)(go_on && mask);
  }
}

/* spawn_mobs' placing of one new creature of a class: when `spawning`,
 * at the cell drawn from the allowed ones; the type is set whether or not. */
static void place_new_mob(crafter_cx_state *s, crafter_cx_mobs *m, int slots, int spawning,
                          int32_t cell, int32_t type, int mob_class) {
  int level = level_of(s), slot = 0;
  while (slot < slots - 1 && m->mask[level][slot]) slot++;
  if (m->mask[level][slot]) slot = 0;
  if (spawning) {
    m->position[level][slot][0] = cell / SIZE;
    m->position[level][slot][1] = cell % SIZE;
    m->health[level][slot] = mob_health[type_row(type, 9)][mob_class];
    m->mask[level][slot] = 1;
  }
  m->type_id[level][slot] = type;
  const int32_t *at = m->position[level][slot];
  uint8_t here = map_read(s->mob_map[level], at[0], at[1]);
  map_write(s->mob_map[level], at[0], at[1], (uint8_t)(here || m->mask[level][slot]));
}

/* The cells a creature of one class may spawn on, into allowed (every
 * cell of the floor, row-major); returns their count.  Only cells nearer
 * the player than the despawn distance are allowed, so only the square
 * around the player is looked at.  boss: the boss floor's rule (graves
 * within 6 cells); else the kind of block wanted (grass, path, fire or
 * ice grass, or water alone for creatures of the water) farther than
 * sqrt(beyond2) cells. */
static long spawn_cells(const crafter_cx_state *s, int boss, int water_only, int32_t beyond2,
                        uint8_t *allowed) {
  enum { REACH = DESPAWN_DISTANCE - 1, BLOCKS = 256 };
  /* the blocks of each kind, a flag a block */
  static const uint8_t ground[BLOCKS] = {[CRAFTER_CX_GRASS] = 1, [CRAFTER_CX_PATH] = 1,
                                         [CRAFTER_CX_FIRE_GRASS] = 1, [CRAFTER_CX_ICE_GRASS] = 1};
  static const uint8_t water[BLOCKS] = {[CRAFTER_CX_WATER] = 1};
  static const uint8_t graves[BLOCKS] = {[CRAFTER_CX_GRAVE] = 1, [CRAFTER_CX_GRAVE2] = 1,
                                         [CRAFTER_CX_GRAVE3] = 1};
  const uint8_t *kind = boss ? graves : water_only ? water : ground;
  /* the squared distances allowed: above low, at most high (the despawn
   * distance's bound is kept by the columns looked at) */
  int32_t low = boss ? -1 : beyond2, high = boss ? 36 : DESPAWN_DISTANCE * DESPAWN_DISTANCE - 1;
  int level = level_of(s);
  const int32_t *player = s->player_position;
  memset(allowed, 0, SIZE * SIZE);
  long count = 0;
  int32_t r0 = max32(player[0] - REACH, 0), r1 = min32(player[0] + REACH, SIZE - 1);
  for (int32_t r = r0; r <= r1; r++) {
    const uint8_t *blocks = s->map[level][r], *mobs = s->mob_map[level][r];
    uint8_t *out = allowed + r * SIZE;
    int32_t dr2 = (r - player[0]) * (r - player[0]);
    /* the columns of the row nearer than the despawn distance: dc*dc
     * below 196 - dr2 */
    int32_t reach = 0;
    while ((reach + 1) * (reach + 1) < DESPAWN_DISTANCE * DESPAWN_DISTANCE - dr2) reach++;
    int32_t c0 = max32(player[1] - reach, 0), c1 = min32(player[1] + reach, SIZE - 1);
    for (int32_t c = c0; c <= c1; c++) {
      int32_t dc = c - player[1], distance2 = dr2 + dc * dc;
      uint8_t ok = (uint8_t)(kind[blocks[c]] & (distance2 > low) & (distance2 <= high) & !mobs[c]);
      out[c] = ok;
      count += ok;
    }
  }
  return count;
}

/* spawn_mobs.  The cells allowed are only looked for when the draw says a
 * creature spawns: otherwise their count changes nothing. */
static void spawn_mobs(crafter_cx_state *s, crafter_jaxkey rng) {
  int level = level_of(s), boss = fighting_boss(s);
  static const long CELLS = SIZE * SIZE;
  int32_t coeff = 1 + (s->monsters_killed[level] < MONSTERS_KILLED_TO_CLEAR_LEVEL) * 2;
  if (boss) coeff *= (s->boss_timesteps_to_spawn_this_round >= 1) * 1000;
  uint8_t allowed[SIZE * SIZE];
  int32_t cell = 0;

  /* passive: the usual ground farther than 3 cells; the others farther
   * than 9, or graves near the player on the boss floor */
  crafter_jaxkey chance_key = split_off(&rng), cell_key = split_off(&rng);
  int live = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_PASSIVE_MOBS; k++) live += s->passive_mobs.mask[level][k];
  int spawning = live < CRAFTER_CX_MAX_PASSIVE_MOBS &&
                 crafter_jax_uniform1(chance_key) < floor_spawn_chance[level][PASSIVE] && !boss;
  if (spawning) spawning = spawn_cells(s, 0, 0, 9, allowed) > 0;
  if (spawning) crafter_jax_choice_equal(cell_key, allowed, CELLS, 1, &cell, 1);
  place_new_mob(s, &s->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, spawning, cell,
                floor_mob[level][PASSIVE], PASSIVE);

  /* melee */
  chance_key = split_off(&rng), cell_key = split_off(&rng);
  live = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++) live += s->melee_mobs.mask[level][k];
  int32_t type = boss ? floor_mob[read_index(s->boss_progress, LEVELS)][MELEE] : floor_mob[level][MELEE];
  float dark = 1.0f - s->light_level;
  float chance = fmaf(dark * dark, floor_spawn_chance[level][3], floor_spawn_chance[level][MELEE]);
  spawning = live < CRAFTER_CX_MAX_MELEE_MOBS &&
             crafter_jax_uniform1(chance_key) < chance * (float)coeff;
  if (spawning) spawning = spawn_cells(s, boss, 0, 81, allowed) > 0;
  if (spawning) crafter_jax_choice_equal(cell_key, allowed, CELLS, 1, &cell, 1);
  place_new_mob(s, &s->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, spawning, cell, type, MELEE);

  /* ranged */
  chance_key = split_off(&rng), cell_key = split_off(&rng);
  live = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++) live += s->ranged_mobs.mask[level][k];
  type = boss ? floor_mob[read_index(s->boss_progress, LEVELS)][RANGED] : floor_mob[level][RANGED];
  spawning = live < CRAFTER_CX_MAX_RANGED_MOBS &&
             crafter_jax_uniform1(chance_key) < floor_spawn_chance[level][RANGED] * (float)coeff;
  if (spawning) spawning = spawn_cells(s, boss, type == 5, 81, allowed) > 0;
  if (spawning) crafter_jax_choice_equal(cell_key, allowed, CELLS, 1, &cell, 1);
  place_new_mob(s, &s->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, spawning, cell, type, RANGED);
}

/* add_items_from_chest: what a chest gives (only called when one is
 * opened: every amount is multiplied by that). */
static void add_items_from_chest(crafter_cx_state *s, crafter_jaxkey rng,
                                 crafter_cx_inventory *v) {
  static const float ore_p[5] = {0.3f, 0.3f, 0.15f, 0.125f, 0.125f};
  static const float tool_p[4] = {0.4f, 0.3f, 0.2f, 0.1f};
  int level = level_of(s);
  int torch = crafter_jax_uniform1(split_off(&rng)) < 0.6f;
  int32_t torches = crafter_jax_randint1(split_off(&rng), 4, 8) * torch;
  int ore = crafter_jax_uniform1(split_off(&rng)) < 0.6f;
  int32_t ore_id = 0;
  crafter_jax_choice_p(split_off(&rng), ore_p, 5, &ore_id, 1);
  crafter_jaxkey amount_key = split_off(&rng);
  int32_t coal = crafter_jax_randint1(amount_key, 1, 4) * (ore_id == 0) * ore;
  int32_t iron = crafter_jax_randint1(amount_key, 1, 3) * (ore_id == 1) * ore;
  int32_t diamond = (ore_id == 2) * ore, sapphire = (ore_id == 3) * ore, ruby = (ore_id == 4) * ore;
  int potion = crafter_jax_uniform1(split_off(&rng)) < 0.5f;
  int32_t potion_index = crafter_jax_randint1(split_off(&rng), 0, 6);
  int32_t potion_amount = crafter_jax_randint1(split_off(&rng), 1, 3);
  int arrows = crafter_jax_uniform1(split_off(&rng)) < 0.25f;
  int32_t arrow_amount = crafter_jax_randint1(split_off(&rng), 1, 5) * arrows;
  int tool = crafter_jax_uniform1(split_off(&rng)) < 0.2f;
  int32_t tool_id = crafter_jax_randint1(split_off(&rng), 0, 2);
  int looting_pickaxe = tool && tool_id == 0;
  int32_t pick = 0;
  crafter_jax_choice_p(split_off(&rng), tool_p, 4, &pick, 1);
  int32_t pickaxe = max32((pick + 1) * looting_pickaxe, v->pickaxe);
  int looting_sword = tool && tool_id == 1;
  int32_t sw = 0;
  crafter_jax_choice_p(split_off(&rng), tool_p, 4, &sw, 1);
  int32_t sword = max32((sw + 1) * looting_sword, v->sword);
  int bow = s->player_level == 1 && !s->chests_opened[level];
  int book = !s->chests_opened[level] && (s->player_level == 3 || s->player_level == 4);
  v->torches += torches;
  v->coal += coal;
  v->iron += iron;
  v->diamond += diamond;
  v->sapphire += sapphire;
  v->ruby += ruby;
  v->arrows += arrow_amount;
  if (looting_pickaxe) v->pickaxe = pickaxe;
  if (looting_sword) v->sword = sword;
  v->potions[read_index(potion_index, CRAFTER_CX_POTIONS)] += potion_amount * potion;
  if (bow) v->bow = 1;
  v->books += book;
}

/* get_player_damage_vector */
static void player_damage(const crafter_cx_state *s, float damage[3]) {
  static const int32_t physical_damages[5] = {1, 2, 3, 5, 8};
  int32_t physical = physical_damages[read_index(s->inventory.sword, 5)];
  float fire = (float)(physical * (s->sword_enchantment == 1)) * 0.5f;
  float ice = (float)(physical * (s->sword_enchantment == 2)) * 0.5f;
  float magic = 1.0f + 0.05f * (float)(s->player_intelligence - 1);
  damage[0] = (float)physical * (1.0f + 0.25f * (float)(s->player_strength - 1));
  damage[1] = fire * magic;
  damage[2] = ice * magic;
}

/* is_boss_vulnerable */
static int boss_vulnerable(const crafter_cx_state *s) {
  int level = level_of(s), live = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_MELEE_MOBS; k++) live += s->melee_mobs.mask[level][k];
  for (int k = 0; k < CRAFTER_CX_MAX_RANGED_MOBS; k++) live += s->ranged_mobs.mask[level][k];
  return live == 0 && s->boss_timesteps_to_spawn_this_round <= 0;
}

/* do_action, when the action is DO. */
static void do_action(crafter_cx_state *s, crafter_jaxkey rng) {
  int level = level_of(s);
  const int32_t *d = direction_of(s->player_direction);
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  float damage[3];
  player_damage(s, damage);
  int killed;
  int attacked = attack_mob(s, row, column, damage, 1, unclean_masks(s), &killed);

  uint8_t block = map_read(s->map[level], row, column), new_block = block;
  crafter_cx_inventory v = s->inventory;
  int32_t pickaxe = s->inventory.pickaxe;
  switch (block) {
  case CRAFTER_CX_TREE: new_block = CRAFTER_CX_GRASS; v.wood += 1; break;
  case CRAFTER_CX_FIRE_TREE: new_block = CRAFTER_CX_FIRE_GRASS; v.wood += 1; break;
  case CRAFTER_CX_ICE_SHRUB: new_block = CRAFTER_CX_ICE_GRASS; v.wood += 1; break;
  case CRAFTER_CX_STONE: if (pickaxe >= 1) new_block = CRAFTER_CX_PATH, v.stone += 1; break;
  case CRAFTER_CX_FURNACE: case CRAFTER_CX_CRAFTING_TABLE: new_block = CRAFTER_CX_PATH; break;
  case CRAFTER_CX_COAL: if (pickaxe >= 1) new_block = CRAFTER_CX_PATH, v.coal += 1; break;
  case CRAFTER_CX_IRON: if (pickaxe >= 2) new_block = CRAFTER_CX_PATH, v.iron += 1; break;
  case CRAFTER_CX_DIAMOND: if (pickaxe >= 3) new_block = CRAFTER_CX_PATH, v.diamond += 1; break;
  case CRAFTER_CX_SAPPHIRE: if (pickaxe >= 4) new_block = CRAFTER_CX_PATH, v.sapphire += 1; break;
  case CRAFTER_CX_RUBY: if (pickaxe >= 4) new_block = CRAFTER_CX_PATH, v.ruby += 1; break;
  case CRAFTER_CX_RIPE_PLANT: new_block = CRAFTER_CX_PLANT; break;
  case CRAFTER_CX_STALAGMITE: if (pickaxe >= 1) new_block = CRAFTER_CX_PATH, v.stone += 1; break;
  case CRAFTER_CX_CHEST: new_block = CRAFTER_CX_PATH; break;
  default: break;
  }
  crafter_jaxkey sapling_key = split_off(&rng);
  if (block == CRAFTER_CX_GRASS && crafter_jax_uniform1(sapling_key) < 0.1f) v.sapling += 1;
  int drinking = block == CRAFTER_CX_WATER || block == CRAFTER_CX_FOUNTAIN;
  int eating = block == CRAFTER_CX_RIPE_PLANT;
  int opening = block == CRAFTER_CX_CHEST;
  crafter_jaxkey chest_key = split_off(&rng);
  if (opening) add_items_from_chest(s, chest_key, &v);

  int damaging_boss = block == CRAFTER_CX_NECROMANCER && boss_vulnerable(s) && fighting_boss(s);
  s->chests_opened[level] |= (uint8_t)opening;
  s->boss_progress += damaging_boss;
  if (damaging_boss) s->boss_timesteps_to_spawn_this_round = 7;

  if (!in_bounds(row, column) || attacked) return;
  map_write(s->map[level], row, column, new_block);
  s->inventory = v;
  if (drinking) {
    s->player_drink = min32(max_food(s), s->player_drink + 1);
    s->player_thirst = 0.0f;
    s->achievements[COLLECT_DRINK] = 1;
  }
  if (eating) {
    s->player_food = min32(max_food(s), s->player_food + 4);
    s->player_hunger = 0.0f;
    s->achievements[EAT_PLANT] = 1;
    int plant = 0;
    for (int k = CRAFTER_CX_MAX_GROWING_PLANTS - 1; k >= 0; k--)
      if (s->growing_plants_positions[k][0] == row && s->growing_plants_positions[k][1] == column)
        plant = k;
    s->growing_plants_age[plant] = 0;
  }
  if (opening) s->achievements[OPEN_CHEST] = 1;
  if (damaging_boss) s->achievements[DAMAGE_NECROMANCER] = 1;
}

/* ---- crafting, placing, shooting, spells, potions, books, enchanting ---- */

/* CLOSE_BLOCKS */
static const int32_t close_blocks[8][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0},
                                           {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

/* is_near_block */
static int near_block(const crafter_cx_state *s, uint8_t block) {
  int level = level_of(s);
  for (int k = 0; k < 8; k++) {
    int32_t row = s->player_position[0] + close_blocks[k][0];
    int32_t column = s->player_position[1] + close_blocks[k][1];
    if (in_bounds(row, column) && map_read(s->map[level], row, column) == block) return 1;
  }
  return 0;
}

static void do_crafting(crafter_cx_state *s, int action) {
  int table = near_block(s, CRAFTER_CX_CRAFTING_TABLE);
  int furnace = near_block(s, CRAFTER_CX_FURNACE);
  crafter_cx_inventory *v = &s->inventory;
  if (!table) return; /* every recipe needs the table */
  switch (action) {
  case MAKE_WOOD_PICKAXE_ACTION:
    if (v->wood >= 1 && v->pickaxe < 1) v->wood -= 1, v->pickaxe = 1;
    break;
  case MAKE_STONE_PICKAXE_ACTION:
    if (v->wood >= 1 && v->stone >= 1 && v->pickaxe < 2) v->stone -= 1, v->wood -= 1, v->pickaxe = 2;
    break;
  case MAKE_IRON_PICKAXE_ACTION:
    if (furnace && v->wood >= 1 && v->stone >= 1 && v->iron >= 1 && v->coal >= 1 && v->pickaxe < 3)
      v->iron -= 1, v->wood -= 1, v->stone -= 1, v->coal -= 1, v->pickaxe = 3;
    break;
  case MAKE_DIAMOND_PICKAXE_ACTION:
    if (v->wood >= 1 && v->diamond >= 3 && v->pickaxe < 4) v->diamond -= 3, v->wood -= 1, v->pickaxe = 4;
    break;
  case MAKE_WOOD_SWORD_ACTION:
    if (v->wood >= 1 && v->sword < 1) v->wood -= 1, v->sword = 1;
    break;
  case MAKE_STONE_SWORD_ACTION:
    if (v->stone >= 1 && v->wood >= 1 && v->sword < 2) v->wood -= 1, v->stone -= 1, v->sword = 2;
    break;
  case MAKE_IRON_SWORD_ACTION:
    if (furnace && v->iron >= 1 && v->wood >= 1 && v->stone >= 1 && v->coal >= 1 && v->sword < 3)
      v->wood -= 1, v->iron -= 1, v->stone -= 1, v->coal -= 1, v->sword = 3;
    break;
  case MAKE_DIAMOND_SWORD_ACTION:
    if (v->diamond >= 2 && v->wood >= 1 && v->sword < 4) v->wood -= 1, v->diamond -= 2, v->sword = 4;
    break;
  case MAKE_IRON_ARMOUR_ACTION:
    if (furnace && v->iron >= 3 && v->coal >= 3)
      for (int k = 0; k < CRAFTER_CX_ARMOUR; k++)
        if (v->armour[k] < 1) {
          v->iron -= 3, v->coal -= 3, v->armour[k] = 1;
          s->achievements[MAKE_IRON_ARMOUR] = 1;
          break;
        }
    break;
  case MAKE_DIAMOND_ARMOUR_ACTION:
    if (v->diamond >= 3)
      for (int k = 0; k < CRAFTER_CX_ARMOUR; k++)
        if (v->armour[k] < 2) {
          v->diamond -= 3, v->armour[k] = 2;
          s->achievements[MAKE_DIAMOND_ARMOUR] = 1;
          break;
        }
    break;
  case MAKE_ARROW_ACTION:
    if (v->stone >= 1 && v->wood >= 1 && v->arrows < 99) v->wood -= 1, v->stone -= 1, v->arrows += 2;
    break;
  case MAKE_TORCH_ACTION:
    if (v->coal >= 1 && v->wood >= 1 && v->torches < 99) v->wood -= 1, v->coal -= 1, v->torches += 4;
    break;
  default:
    break;
  }
}

/* TORCH_LIGHT_MAP: clip(1 - distance / 5, 0, 1) over a 9x9 square, as
 * the constant holds it. */
static const float torch_light[9][9] = {
    {0.0f, 0.0f, 0.10557276010513306f, 0.17537885904312134f, 0.19999998807907104f, 0.17537885904312134f, 0.10557276010513306f, 0.0f, 0.0f},
    {0.0f, 0.15147191286087036f, 0.2788897156715393f, 0.3675444722175598f, 0.3999999761581421f, 0.3675444722175598f, 0.2788897156715393f, 0.15147191286087036f, 0.0f},
    {0.10557276010513306f, 0.2788897156715393f, 0.4343145489692688f, 0.5527863502502441f, 0.6000000238418579f, 0.5527863502502441f, 0.4343145489692688f, 0.2788897156715393f, 0.10557276010513306f},
    {0.17537885904312134f, 0.3675444722175598f, 0.5527863502502441f, 0.717157244682312f, 0.800000011920929f, 0.717157244682312f, 0.5527863502502441f, 0.3675444722175598f, 0.17537885904312134f},
    {0.19999998807907104f, 0.3999999761581421f, 0.6000000238418579f, 0.800000011920929f, 1.0f, 0.800000011920929f, 0.6000000238418579f, 0.3999999761581421f, 0.19999998807907104f},
    {0.17537885904312134f, 0.3675444722175598f, 0.5527863502502441f, 0.717157244682312f, 0.800000011920929f, 0.717157244682312f, 0.5527863502502441f, 0.3675444722175598f, 0.17537885904312134f},
    {0.10557276010513306f, 0.2788897156715393f, 0.4343145489692688f, 0.5527863502502441f, 0.6000000238418579f, 0.5527863502502441f, 0.4343145489692688f, 0.2788897156715393f, 0.10557276010513306f},
    {0.0f, 0.15147191286087036f, 0.2788897156715393f, 0.3675444722175598f, 0.3999999761581421f, 0.3675444722175598f, 0.2788897156715393f, 0.15147191286087036f, 0.0f},
    {0.0f, 0.0f, 0.10557276010513306f, 0.17537885904312134f, 0.19999998807907104f, 0.17537885904312134f, 0.10557276010513306f, 0.0f, 0.0f}};

/* CAN_PLACE_ITEM_MAPPING: grass, sand, path, fire grass, ice grass. */
static int can_place_item(uint8_t block) {
  return block == CRAFTER_CX_GRASS || block == CRAFTER_CX_SAND || block == CRAFTER_CX_PATH ||
         block == CRAFTER_CX_FIRE_GRASS || block == CRAFTER_CX_ICE_GRASS;
}

static void place_block(crafter_cx_state *s, int action) {
  int level = level_of(s);
  const int32_t *d = direction_of(s->player_direction);
  int32_t row = s->player_position[0] + d[0], column = s->player_position[1] + d[1];
  /* everything is undone when the cell is off the map or holds a creature */
  if (!in_bounds(row, column) || in_mob(s, row, column)) return;
  uint8_t block = s->map[level][row][column], item = s->item_map[level][row][column];
  int taken = solid(block) || item != CRAFTER_CX_ITEM_NONE;
  crafter_cx_inventory *v = &s->inventory;
  switch (action) {
  case PLACE_TABLE_ACTION:
    if (!taken && v->wood >= 2) {
      s->map[level][row][column] = CRAFTER_CX_CRAFTING_TABLE;
      v->wood -= 2;
      s->achievements[PLACE_TABLE] = 1;
    }
    break;
  case PLACE_FURNACE_ACTION:
    if (!taken && v->stone > 0) {
      s->map[level][row][column] = CRAFTER_CX_FURNACE;
      v->stone -= 1;
      s->achievements[PLACE_FURNACE] = 1;
    }
    break;
  case PLACE_STONE_ACTION:
    if ((block == CRAFTER_CX_WATER || !taken) && v->stone > 0) {
      s->map[level][row][column] = CRAFTER_CX_STONE;
      v->stone -= 1;
      s->achievements[PLACE_STONE] = 1;
    }
    break;
  case PLACE_TORCH_ACTION:
    if (can_place_item(block) && item == CRAFTER_CX_ITEM_NONE && v->torches > 0) {
      s->item_map[level][row][column] = CRAFTER_CX_ITEM_TORCH;
      v->torches -= 1;
      for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) {
          int32_t at_r = row - 4 + r, at_c = column - 4 + c;
          if (!in_bounds(at_r, at_c)) continue;
          float light = torch_light[r][c] + s->light_map[level][at_r][at_c];
          s->light_map[level][at_r][at_c] = light < 0.0f ? 0.0f : light > 1.0f ? 1.0f : light;
        }
      s->achievements[PLACE_TORCH] = 1;
    }
    break;
  case PLACE_PLANT_ACTION:
    if (block == CRAFTER_CX_GRASS && v->sapling > 0 && item == CRAFTER_CX_ITEM_NONE) {
      s->map[level][row][column] = CRAFTER_CX_PLANT;
      v->sapling -= 1;
      s->achievements[PLACE_PLANT] = 1;
      for (int k = 0; k < CRAFTER_CX_MAX_GROWING_PLANTS; k++)
        if (!s->growing_plants_mask[k]) {
          s->growing_plants_positions[k][0] = row;
          s->growing_plants_positions[k][1] = column;
          s->growing_plants_age[k] = 0;
          s->growing_plants_mask[k] = 1;
          break;
        }
    }
    break;
  default:
    break;
  }
}

/* spawn_projectile for the player's projectiles, when spawning. */
static void spawn_player_projectile(crafter_cx_state *s, int32_t type) {
  int level = level_of(s), slot = 0;
  crafter_cx_mobs *m = &s->player_projectiles;
  while (slot < CRAFTER_CX_MAX_PLAYER_PROJECTILES - 1 && m->mask[level][slot]) slot++;
  if (m->mask[level][slot]) slot = 0;
  const int32_t *d = direction_of(s->player_direction);
  m->position[level][slot][0] = s->player_position[0];
  m->position[level][slot][1] = s->player_position[1];
  m->mask[level][slot] = 1;
  m->type_id[level][slot] = type;
  s->player_projectile_directions[level][slot][0] = d[0];
  s->player_projectile_directions[level][slot][1] = d[1];
}

static int player_projectiles_live(const crafter_cx_state *s) {
  int level = level_of(s), live = 0;
  for (int k = 0; k < CRAFTER_CX_MAX_PLAYER_PROJECTILES; k++)
    live += s->player_projectiles.mask[level][k];
  return live;
}

static void shoot_projectile(crafter_cx_state *s, int action) {
  if (action != SHOOT_ARROW || s->inventory.bow < 1 || s->inventory.arrows < 1 ||
      player_projectiles_live(s) >= CRAFTER_CX_MAX_PLAYER_PROJECTILES)
    return;
  spawn_player_projectile(s, ARROW2);
  s->inventory.arrows -= 1;
  s->achievements[FIRE_BOW] = 1;
}

static void cast_spell(crafter_cx_state *s, int action) {
  int room = s->player_mana >= 2 && player_projectiles_live(s) < CRAFTER_CX_MAX_PLAYER_PROJECTILES;
  int fireball = action == CAST_FIREBALL_ACTION && room && s->learned_spells[0];
  int iceball = action == CAST_ICEBALL_ACTION && room && s->learned_spells[1];
  if (!fireball && !iceball) return;
  spawn_player_projectile(s, fireball ? FIREBALL : ICEBALL);
  s->achievements[fireball ? CAST_FIREBALL : CAST_ICEBALL] = 1;
  s->player_mana -= 2;
}

static void drink_potion(crafter_cx_state *s, int action) {
  if (action < DRINK_POTION_RED || action > DRINK_POTION_RED + 5) return;
  int index = action - DRINK_POTION_RED;
  if (s->inventory.potions[index] <= 0) return;
  int32_t effect = s->potion_mapping[index];
  s->player_health = s->player_health + (float)((effect == 0) * 8 + (effect == 1) * -3);
  s->player_mana += (effect == 2) * 8 + (effect == 3) * -3;
  s->player_energy += (effect == 4) * 8 + (effect == 5) * -3;
  s->inventory.potions[index] -= 1;
  s->achievements[DRINK_POTION] = 1;
}

static void read_book(crafter_cx_state *s, int action, crafter_jaxkey rng) {
  int reading = action == READ_BOOK && s->inventory.books > 0;
  if (!reading) return; /* the draw changes nothing then */
  float unlearned[2] = {(float)!s->learned_spells[0], (float)!s->learned_spells[1]};
  float sum = unlearned[0] + unlearned[1];
  float p[2] = {unlearned[0] / sum, unlearned[1] / sum};
  int32_t index = 0;
  /* with both spells learned p is 0 / 0, NaN, and JAX's search of the
   * NaN sums ends at index 0 (measured: jax.random.choice of two indices
   * with p NaN gives 0 for every key) */
  if (sum > 0.0f) crafter_jax_choice_p(split_off(&rng), p, 2, &index, 1);
  s->achievements[index != 0 ? LEARN_ICEBALL : LEARN_FIREBALL] = 1;
  s->inventory.books -= 1;
  if (index >= 0 && index < 2) s->learned_spells[index] = 1;
}

static void enchant(crafter_cx_state *s, int action, crafter_jaxkey rng) {
  int level = level_of(s);
  const int32_t *d = direction_of(s->player_direction);
  uint8_t target = map_read(s->map[level], s->player_position[0] + d[0], s->player_position[1] + d[1]);
  int table = target == CRAFTER_CX_ENCHANTMENT_TABLE_FIRE || target == CRAFTER_CX_ENCHANTMENT_TABLE_ICE;
  int32_t type = target == CRAFTER_CX_ENCHANTMENT_TABLE_FIRE ? 1 : 2;
  int32_t gems = target == CRAFTER_CX_ENCHANTMENT_TABLE_FIRE ? s->inventory.ruby : s->inventory.sapphire;
  int could = s->player_mana >= 9 && table && gems >= 1;
  int armour_total = 0;
  for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) armour_total += s->inventory.armour[k];
  int bow = could && action == ENCHANT_BOW && s->inventory.bow > 0;
  int sword = could && action == ENCHANT_SWORD_ACTION && s->inventory.sword > 0;
  int armour = could && action == ENCHANT_ARMOUR_ACTION && armour_total > 0;
  if (!bow && !sword && !armour) return;
  if (armour) {
    float p[CRAFTER_CX_ARMOUR];
    int unenchanted = 0;
    for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) unenchanted += s->armour_enchantments[k] == 0;
    for (int k = 0; k < CRAFTER_CX_ARMOUR; k++) {
      int32_t e = s->armour_enchantments[k];
      p[k] = (float)(e == 0 || (unenchanted == 0 && e != 0 && e != type));
    }
    int32_t index = 0;
    crafter_jax_choice_p(split_off(&rng), p, CRAFTER_CX_ARMOUR, &index, 1);
    s->armour_enchantments[read_index(index, CRAFTER_CX_ARMOUR)] = type;
    s->achievements[ENCHANT_ARMOUR] = 1;
  }
  if (sword) {
    s->sword_enchantment = type;
    s->achievements[ENCHANT_SWORD] = 1;
  }
  if (bow) s->bow_enchantment = type;
  if (type == 2) s->inventory.sapphire -= 1;
  else s->inventory.ruby -= 1;
  s->player_mana -= 9;
}

/* ---- the step's parts ---- */

static void change_floor(crafter_cx_state *s, int action) {
  int level = level_of(s);
  uint8_t item = map_read(s->item_map[level], s->player_position[0], s->player_position[1]);
  int down = action == DESCEND && item == CRAFTER_CX_ITEM_LADDER_DOWN &&
             s->monsters_killed[level] >= MONSTERS_KILLED_TO_CLEAR_LEVEL &&
             s->player_level < LEVELS - 1;
  int up = action == ASCEND && item == CRAFTER_CX_ITEM_LADDER_UP && s->player_level > 0;
  int32_t delta = down - up;
  int32_t new_level = s->player_level + delta;
  const int32_t *down_to = s->up_ladders[read_index((int64_t)s->player_level + 1, LEVELS)];
  const int32_t *up_to = s->down_ladders[read_index((int64_t)s->player_level - 1, LEVELS)];
  if (down || up) {
    /* the floor gone to made if pending (crafter_cx_env_step has made it
     * already, and said when it could not) */
    crafter_cx_make_floor(s, new_level);
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

/* The keys craftax_step splits off its key, in its order: rng, _rng =
 * split(rng) six times, _rng being do_action's, read_book's, enchant's,
 * update_mobs', spawn_mobs' and state_rng's key.  chain[n] is rng
 * before the n-th split; a part's key, split(chain[n])[1], is made when
 * the part needs it. */
struct keys {
  crafter_jaxkey chain[6];
};

enum { DO_ACTION_KEY, READ_BOOK_KEY, ENCHANT_KEY, UPDATE_MOBS_KEY, SPAWN_MOBS_KEY, STATE_RNG_KEY };

static void split_keys(crafter_jaxkey rng, struct keys *k) {
  k->chain[0] = rng;
  for (int n = 1; n < 6; n++) k->chain[n] = crafter_jax_split_inline(k->chain[n - 1], 0);
}

static inline crafter_jaxkey key_of(const struct keys *k, int part) {
  return crafter_jax_split_inline(k->chain[part], 1);
}

float crafter_cx_game_step(crafter_cx_state *s, crafter_jaxkey key, int action) {
  struct keys keys;
  split_keys(key, &keys);
  uint8_t achievements_before[CRAFTER_CX_ACHIEVEMENTS];
  memcpy(achievements_before, s->achievements, sizeof achievements_before);
  float health_before = s->player_health;
  if (s->is_sleeping || s->is_resting) action = NOOP;

  change_floor(s, action);
  do_crafting(s, action);
  if (action == DO) do_action(s, key_of(&keys, DO_ACTION_KEY));
  place_block(s, action);
  shoot_projectile(s, action);
  cast_spell(s, action);
  drink_potion(s, action);
  if (action == READ_BOOK) read_book(s, action, key_of(&keys, READ_BOOK_KEY));
  if (action == ENCHANT_SWORD_ACTION || action == ENCHANT_ARMOUR_ACTION || action == ENCHANT_BOW)
    enchant(s, action, key_of(&keys, ENCHANT_KEY));
  boss_logic(s);
  level_up_attributes(s, action);
  move_player(s, action);
  update_mobs(s, key_of(&keys, UPDATE_MOBS_KEY));
  spawn_mobs(s, key_of(&keys, SPAWN_MOBS_KEY));
  update_plants(s);
  update_intrinsics(s, action);
  clip_inventory_and_intrinsics(s);
  inventory_achievements(s);

  int32_t achieved = 0; /* most steps unlock nothing: then the sum is 0 */
  if (memcmp(achievements_before, s->achievements, sizeof achievements_before) != 0)
    for (int k = 0; k < CRAFTER_CX_ACHIEVEMENTS; k++)
      achieved += ((int32_t)s->achievements[k] - (int32_t)achievements_before[k]) *
                  achievement_reward(k);
  float reward = fmaf(s->player_health - health_before, 0.1f, (float)achieved);
  s->timestep += 1;
  s->light_level = light_level(s->timestep);
  s->state_rng = key_of(&keys, STATE_RNG_KEY);
  return reward;
}

int crafter_cx_game_over(const crafter_cx_state *s) {
  return s->timestep >= CRAFTER_CX_MAX_TIMESTEPS || s->player_health <= 0.0f ||
         s->boss_progress >= LEVELS - 1;
}

crafter_jaxkey crafter_cx_world_key(enum crafter_cx_env_kind kind, crafter_jaxkey key) {
  return kind == CRAFTER_CX_PIXELS_ENV ? key : crafter_jax_split_inline(key, 1);
}

int crafter_cx_make_ladder_floor(crafter_cx_state *state, int action) {
  /* the floor a ladder leads to, made before the step needs it: where
   * the player stands on the ladder the action takes (change_floor asks
   * more, and makes it too) */
  if (action != DESCEND && action != ASCEND) return 0;
  int level = level_of(state);
  uint8_t item =
      map_read(state->item_map[level], state->player_position[0], state->player_position[1]);
  int ladder = action == DESCEND ? item == CRAFTER_CX_ITEM_LADDER_DOWN
                                 : item == CRAFTER_CX_ITEM_LADDER_UP;
  if (ladder && (crafter_cx_make_floor(state, level) != 0 ||
                 crafter_cx_make_floor(state, level + (action == DESCEND ? 1 : -1)) != 0))
    return -1;
  return 0;
}

int crafter_cx_env_step_of(enum crafter_cx_env_kind kind, crafter_cx_state *state,
                           crafter_jaxkey key, int action, float *reward, int *done) {
  if (crafter_cx_make_ladder_floor(state, action) != 0) return -1;
  *reward = crafter_cx_game_step(state, crafter_jax_split_inline(key, 0), action);
  *done = crafter_cx_game_over(state);
  /* reset_env(key_reset) hands generate_world its key (split(key_reset)[1]
   * in the symbolic env); the floors below the overworld are made when
   * first gone to */
  crafter_jaxkey world_key = crafter_cx_world_key(kind, crafter_jax_split_inline(key, 1));
  if (*done && crafter_cx_generate_world_first(world_key, state) != 0) return -1;
  return 0;
}

int crafter_cx_env_step(crafter_cx_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done) {
  return crafter_cx_env_step_of(CRAFTER_CX_SYMBOLIC_ENV, state, key, action, reward, done);
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
