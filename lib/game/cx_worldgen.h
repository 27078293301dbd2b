/* cx_worldgen: Craftax's world generation ("cx" for Craftax, the full
 * game of nine floors): the first state of an episode, as craftax 1.6.1's
 * generate_world (craftax/craftax/world_gen/world_gen.py, with its
 * world_gen_configs.py) makes it from a key: six floors of smoothed
 * Perlin noise (the overworld, the gnomish mines, the troll mines, the
 * fire and ice levels, the boss floor) and three of rooms and corridors
 * (the dungeon, the sewers, the vaults), their item maps (torches,
 * ladders), light maps and ladders, the potions' mapping, and the rest of
 * the state at its start.
 *
 * Promise: for the key JAX's generate_world is given, every field of the
 * state is the one JAX computes on the CPU in float32 with the pinned
 * reference (jax 0.10.1, one env per jitted reset of
 * make_craftax_env_from_name("Craftax-Symbolic-v1")), for the default
 * parameters (EnvParams(), StaticEnvParams(): a 48x48 map, nine floors,
 * always_diamond and god_mode off, no fixed noise angles):
 * tests/unit/test-cx-worldgen.c holds it to hashes JAX printed,
 * tests/cx-worlds.t to JAX itself.
 *
 * Arrays are laid out as Craftax lays them out: indexed [floor][row]
 * [column] (Craftax's position[0] is the row), creatures in fixed slots
 * with a mask.  Nothing here keeps state between calls. */
#ifndef CRAFTER_CX_WORLDGEN_H
#define CRAFTER_CX_WORLDGEN_H

#include <stdint.h>

#include "kernels/jaxrng.h"

enum {
  CRAFTER_CX_MAP_SIZE = 48,
  CRAFTER_CX_VIEW_ROWS = 9,     /* the window around the player the observations show */
  CRAFTER_CX_VIEW_COLUMNS = 11,
  CRAFTER_CX_LEVELS = 9,
  CRAFTER_CX_MAX_MELEE_MOBS = 3,
  CRAFTER_CX_MAX_PASSIVE_MOBS = 3,
  CRAFTER_CX_MAX_RANGED_MOBS = 2,
  CRAFTER_CX_MAX_MOB_PROJECTILES = 3,
  CRAFTER_CX_MAX_PLAYER_PROJECTILES = 3,
  CRAFTER_CX_MAX_GROWING_PLANTS = 10,
  CRAFTER_CX_MOB_SLOTS = 3, /* room in crafter_cx_mobs: the most of any kind */
  CRAFTER_CX_ARMOUR = 4,
  CRAFTER_CX_POTIONS = 6,
  CRAFTER_CX_SPELLS = 2,
  CRAFTER_CX_ACHIEVEMENTS = 67
};

/* Craftax's BlockType. */
enum crafter_cx_block {
  CRAFTER_CX_INVALID = 0,
  CRAFTER_CX_OUT_OF_BOUNDS = 1,
  CRAFTER_CX_GRASS = 2,
  CRAFTER_CX_WATER = 3,
  CRAFTER_CX_STONE = 4,
  CRAFTER_CX_TREE = 5,
  CRAFTER_CX_WOOD = 6,
  CRAFTER_CX_PATH = 7,
  CRAFTER_CX_COAL = 8,
  CRAFTER_CX_IRON = 9,
  CRAFTER_CX_DIAMOND = 10,
  CRAFTER_CX_CRAFTING_TABLE = 11,
  CRAFTER_CX_FURNACE = 12,
  CRAFTER_CX_SAND = 13,
  CRAFTER_CX_LAVA = 14,
  CRAFTER_CX_PLANT = 15,
  CRAFTER_CX_RIPE_PLANT = 16,
  CRAFTER_CX_WALL = 17,
  CRAFTER_CX_DARKNESS = 18,
  CRAFTER_CX_WALL_MOSS = 19,
  CRAFTER_CX_STALAGMITE = 20,
  CRAFTER_CX_SAPPHIRE = 21,
  CRAFTER_CX_RUBY = 22,
  CRAFTER_CX_CHEST = 23,
  CRAFTER_CX_FOUNTAIN = 24,
  CRAFTER_CX_FIRE_GRASS = 25,
  CRAFTER_CX_ICE_GRASS = 26,
  CRAFTER_CX_GRAVEL = 27,
  CRAFTER_CX_FIRE_TREE = 28,
  CRAFTER_CX_ICE_SHRUB = 29,
  CRAFTER_CX_ENCHANTMENT_TABLE_FIRE = 30,
  CRAFTER_CX_ENCHANTMENT_TABLE_ICE = 31,
  CRAFTER_CX_NECROMANCER = 32,
  CRAFTER_CX_GRAVE = 33,
  CRAFTER_CX_GRAVE2 = 34,
  CRAFTER_CX_GRAVE3 = 35,
  CRAFTER_CX_NECROMANCER_VULNERABLE = 36
};

/* Craftax's ItemType. */
enum crafter_cx_item {
  CRAFTER_CX_ITEM_NONE = 0,
  CRAFTER_CX_ITEM_TORCH = 1,
  CRAFTER_CX_ITEM_LADDER_DOWN = 2,
  CRAFTER_CX_ITEM_LADDER_UP = 3,
  CRAFTER_CX_ITEM_LADDER_DOWN_BLOCKED = 4
};

/* The floors, in the order of the state's first axis. */
enum crafter_cx_floor {
  CRAFTER_CX_OVERWORLD = 0,
  CRAFTER_CX_DUNGEON = 1,
  CRAFTER_CX_GNOMISH_MINES = 2,
  CRAFTER_CX_SEWERS = 3,
  CRAFTER_CX_VAULTS = 4,
  CRAFTER_CX_TROLL_MINES = 5,
  CRAFTER_CX_FIRE_LEVEL = 6,
  CRAFTER_CX_ICE_LEVEL = 7,
  CRAFTER_CX_BOSS_LEVEL = 8
};

/* Craftax's Inventory, its fields in its order. */
typedef struct crafter_cx_inventory {
  int32_t wood, stone, coal, iron, diamond, sapling, pickaxe, sword, bow, arrows;
  int32_t armour[CRAFTER_CX_ARMOUR];
  int32_t torches, ruby, sapphire;
  int32_t potions[CRAFTER_CX_POTIONS];
  int32_t books;
} crafter_cx_inventory;

/* One kind of creature or projectile on every floor: Craftax's Mobs.  A
 * kind with fewer slots than CRAFTER_CX_MOB_SLOTS (ranged mobs: 2) uses
 * the first ones of each floor; the others are zero and no part of the
 * state. */
typedef struct crafter_cx_mobs {
  int32_t position[CRAFTER_CX_LEVELS][CRAFTER_CX_MOB_SLOTS][2];
  float health[CRAFTER_CX_LEVELS][CRAFTER_CX_MOB_SLOTS];
  uint8_t mask[CRAFTER_CX_LEVELS][CRAFTER_CX_MOB_SLOTS];
  int32_t attack_cooldown[CRAFTER_CX_LEVELS][CRAFTER_CX_MOB_SLOTS];
  int32_t type_id[CRAFTER_CX_LEVELS][CRAFTER_CX_MOB_SLOTS];
} crafter_cx_mobs;

/* Craftax's EnvState, its fields in the order JAX's tree flattening gives
 * them (jax.tree_util.tree_flatten: EnvState's fields as declared, each
 * nested Inventory and Mobs in place, its fields as declared;
 * fractal_noise_angles, None by default, is no leaf), with JAX's dtypes:
 *
 *   map int32[9,48,48], item_map int32[9,48,48], mob_map bool[9,48,48],
 *   light_map float32[9,48,48], down_ladders int32[9,2],
 *   up_ladders int32[9,2], chests_opened bool[9], monsters_killed
 *   int32[9], player_position int32[2], player_level, player_direction,
 *   player_health float32, player_food, player_drink, player_energy,
 *   player_mana, is_sleeping bool, is_resting bool, player_recover,
 *   player_hunger, player_thirst, player_fatigue, player_recover_mana
 *   float32, player_xp, player_dexterity, player_strength,
 *   player_intelligence, inventory (wood, stone, coal, iron, diamond,
 *   sapling, pickaxe, sword, bow, arrows, armour int32[4], torches, ruby,
 *   sapphire, potions int32[6], books), melee_mobs [9,3], passive_mobs
 *   [9,3], ranged_mobs [9,2] (each: position int32[9,n,2], health
 *   float32[9,n], mask bool[9,n], attack_cooldown int32[9,n], type_id
 *   int32[9,n]), mob_projectiles [9,3], mob_projectile_directions
 *   int32[9,3,2], player_projectiles [9,3],
 *   player_projectile_directions int32[9,3,2],
 *   growing_plants_positions int32[10,2], growing_plants_age int32[10],
 *   growing_plants_mask bool[10], potion_mapping int32[6],
 *   learned_spells bool[2], sword_enchantment, bow_enchantment,
 *   armour_enchantments int32[4], boss_progress,
 *   boss_timesteps_to_spawn_this_round, light_level float32,
 *   achievements bool[67], state_rng uint32[2], timestep
 *
 * (int32 scalars where no type is said).  Block and item types, at most
 * 36, are kept in bytes. */
typedef struct crafter_cx_state {
  uint8_t map[CRAFTER_CX_LEVELS][CRAFTER_CX_MAP_SIZE][CRAFTER_CX_MAP_SIZE]; /* crafter_cx_block */
  uint8_t item_map[CRAFTER_CX_LEVELS][CRAFTER_CX_MAP_SIZE][CRAFTER_CX_MAP_SIZE]; /* _item */
  uint8_t mob_map[CRAFTER_CX_LEVELS][CRAFTER_CX_MAP_SIZE][CRAFTER_CX_MAP_SIZE];
  float light_map[CRAFTER_CX_LEVELS][CRAFTER_CX_MAP_SIZE][CRAFTER_CX_MAP_SIZE];
  int32_t down_ladders[CRAFTER_CX_LEVELS][2]; /* row, column */
  int32_t up_ladders[CRAFTER_CX_LEVELS][2];
  uint8_t chests_opened[CRAFTER_CX_LEVELS];
  int32_t monsters_killed[CRAFTER_CX_LEVELS];
  int32_t player_position[2]; /* row, column */
  int32_t player_level;
  int32_t player_direction; /* Craftax's Action: UP is 3 */
  float player_health;
  int32_t player_food, player_drink, player_energy, player_mana;
  uint8_t is_sleeping, is_resting;
  float player_recover, player_hunger, player_thirst, player_fatigue, player_recover_mana;
  int32_t player_xp, player_dexterity, player_strength, player_intelligence;
  crafter_cx_inventory inventory;
  crafter_cx_mobs melee_mobs, passive_mobs, ranged_mobs;
  crafter_cx_mobs mob_projectiles;
  int32_t mob_projectile_directions[CRAFTER_CX_LEVELS][CRAFTER_CX_MAX_MOB_PROJECTILES][2];
  crafter_cx_mobs player_projectiles;
  int32_t player_projectile_directions[CRAFTER_CX_LEVELS][CRAFTER_CX_MAX_PLAYER_PROJECTILES][2];
  int32_t growing_plants_positions[CRAFTER_CX_MAX_GROWING_PLANTS][2];
  int32_t growing_plants_age[CRAFTER_CX_MAX_GROWING_PLANTS];
  uint8_t growing_plants_mask[CRAFTER_CX_MAX_GROWING_PLANTS];
  int32_t potion_mapping[CRAFTER_CX_POTIONS];
  uint8_t learned_spells[CRAFTER_CX_SPELLS];
  int32_t sword_enchantment, bow_enchantment;
  int32_t armour_enchantments[CRAFTER_CX_ARMOUR];
  int32_t boss_progress, boss_timesteps_to_spawn_this_round;
  float light_level;
  uint8_t achievements[CRAFTER_CX_ACHIEVEMENTS];
  crafter_jaxkey state_rng;
  int32_t timestep;
  /* Not JAX's: the floors (bit f for floor f) whose map, item_map,
   * light_map and ladders are still to be made, from generate_world's
   * key pending_key (crafter_cx_make_floor); 0 in a state made whole. */
  uint16_t pending_floors;
  crafter_jaxkey pending_key;
} crafter_cx_state;

/* generate_world(key, EnvParams(), StaticEnvParams()): the first state
 * into *state (cleared whole first, padding too).  Returns 0, or -1 when
 * memory cannot be had. */
int crafter_cx_generate_world(crafter_jaxkey key, crafter_cx_state *state);

/* crafter_cx_generate_world with only the overworld (floor 0) made: the
 * other floors' map, item_map, light_map, down_ladders and up_ladders
 * are zero and pending (state->pending_floors) until
 * crafter_cx_make_floor or crafter_cx_make_floors makes them, equal then
 * to crafter_cx_generate_world's; every other field is equal already.  A
 * floor's generation is a ninth of the world's, and most episodes never
 * leave the overworld.  Returns 0, or -1 when memory cannot be had. */
int crafter_cx_generate_world_first(crafter_jaxkey key, crafter_cx_state *state);

/* Floor `floor` (0..8; any other is left alone) made if it is pending.
 * Returns 0, or -1 when memory cannot be had (it stays pending). */
int crafter_cx_make_floor(crafter_cx_state *state, int floor);

/* Every pending floor made: the state whole, as JAX's.  Returns 0, or -1
 * when memory cannot be had. */
int crafter_cx_make_floors(crafter_cx_state *state);

/* The key the reset of seed `seed` gives generate_world in Craftax's
 * schedule: key = PRNGKey(seed); key, k = split(key); then reset_env's
 * own rng, _rng = split(k): _rng. */
crafter_jaxkey crafter_cx_reset_key(int64_t seed);

/* Ways of computing that JAX does not take, for the tests to show they
 * are told apart (tests/unit/test-cx-worldgen.c). */
enum crafter_cx_arith {
  CRAFTER_CX_AS_JAX = 0,
  CRAFTER_CX_TRUE_DIVISION, /* the noise divided by its span, the distance by
                             * the strength and the torch's distance by 5,
                             * where XLA multiplies by the reciprocal */
  CRAFTER_CX_UNFUSED        /* every product rounded, where XLA fuses some
                             * into multiply-adds (the noise's and its
                             * normalisation's) */
};

/* crafter_cx_generate_world computed the way `arith` says (the plain
 * paths for the ways JAX does not take). */
int crafter_cx_generate_world_arith(crafter_jaxkey key, enum crafter_cx_arith arith,
                                    crafter_cx_state *state);

#endif
