#include "game/cx_env.h"

#include <math.h>
#include <string.h>

/* Craftax's Action and Achievement, by number, in lower case (Craftax's
 * own spelling, "defeat_orc_solider" too). */
const char *const crafter_cx_action_names[CRAFTER_CX_ACTIONS] = {
    "noop", "left", "right", "up", "down", "do", "sleep", "place_stone", "place_table",
    "place_furnace", "place_plant", "make_wood_pickaxe", "make_stone_pickaxe",
    "make_iron_pickaxe", "make_wood_sword", "make_stone_sword", "make_iron_sword", "rest",
    "descend", "ascend", "make_diamond_pickaxe", "make_diamond_sword", "make_iron_armour",
    "make_diamond_armour", "shoot_arrow", "make_arrow", "cast_fireball", "cast_iceball",
    "place_torch", "drink_potion_red", "drink_potion_green", "drink_potion_blue",
    "drink_potion_pink", "drink_potion_cyan", "drink_potion_yellow", "read_book", "enchant_sword",
    "enchant_armour", "make_torch", "level_up_dexterity", "level_up_strength",
    "level_up_intelligence", "enchant_bow",
};

const char *const crafter_cx_achievement_names[CRAFTER_CX_ACHIEVEMENTS] = {
    "collect_wood", "place_table", "eat_cow", "collect_sapling", "collect_drink",
    "make_wood_pickaxe", "make_wood_sword", "place_plant", "defeat_zombie", "collect_stone",
    "place_stone", "eat_plant", "defeat_skeleton", "make_stone_pickaxe", "make_stone_sword",
    "wake_up", "place_furnace", "collect_coal", "collect_iron", "collect_diamond",
    "make_iron_pickaxe", "make_iron_sword", "make_arrow", "make_torch", "place_torch",
    "make_diamond_sword", "make_iron_armour", "make_diamond_armour", "enter_gnomish_mines",
    "enter_dungeon", "enter_sewers", "enter_vault", "enter_troll_mines", "enter_fire_realm",
    "enter_ice_realm", "enter_graveyard", "defeat_gnome_warrior", "defeat_gnome_archer",
    "defeat_orc_solider", "defeat_orc_mage", "defeat_lizard", "defeat_kobold", "defeat_troll",
    "defeat_deep_thing", "defeat_pigman", "defeat_fire_elemental", "defeat_frost_troll",
    "defeat_ice_elemental", "damage_necromancer", "defeat_necromancer", "eat_bat", "eat_snail",
    "find_bow", "fire_bow", "collect_sapphire", "learn_fireball", "cast_fireball",
    "learn_iceball", "cast_iceball", "collect_ruby", "make_diamond_pickaxe", "open_chest",
    "drink_potion", "enchant_sword", "enchant_armour", "defeat_knight", "defeat_archer",
};

const char *const crafter_cx_item_names[CRAFTER_CX_REPORT_ITEMS] = {
    "health", "food", "drink", "energy", "mana", "xp", "dexterity", "strength", "intelligence",
    "floor", "wood", "stone", "coal", "iron", "diamond", "sapling", "pickaxe", "sword", "bow",
    "arrows", "helmet", "chestplate", "leggings", "boots", "torches", "ruby", "sapphire",
    "potion_red", "potion_green", "potion_blue", "potion_pink", "potion_cyan", "potion_yellow",
    "books", "learned_fireball", "learned_iceball"};

void crafter_cx_report(const crafter_cx_state *s, uint8_t *achievements, int32_t *inventory) {
  if (achievements)
    for (int k = 0; k < CRAFTER_CX_ACHIEVEMENTS; k++) achievements[k] = s->achievements[k] != 0;
  if (!inventory) return;
  const crafter_cx_inventory *inv = &s->inventory;
  int32_t values[CRAFTER_CX_REPORT_ITEMS] = {
      (int32_t)floorf(s->player_health), s->player_food, s->player_drink, s->player_energy,
      s->player_mana, s->player_xp, s->player_dexterity, s->player_strength,
      s->player_intelligence, s->player_level, inv->wood, inv->stone, inv->coal, inv->iron,
      inv->diamond, inv->sapling, inv->pickaxe, inv->sword, inv->bow, inv->arrows,
      inv->armour[0], inv->armour[1], inv->armour[2], inv->armour[3], inv->torches, inv->ruby,
      inv->sapphire, inv->potions[0], inv->potions[1], inv->potions[2], inv->potions[3],
      inv->potions[4], inv->potions[5], inv->books, s->learned_spells[0], s->learned_spells[1]};
  memcpy(inventory, values, sizeof values);
}

/* The world key reset(k) hands generate_world. */
static crafter_jaxkey world_key_of(const crafter_cx_env *env, crafter_jaxkey k) {
  return crafter_cx_world_key((enum crafter_cx_env_kind)env->kind, k);
}

int crafter_cx_env_start(crafter_cx_env *env, int64_t seed) {
  env->seed = seed;
  env->episode = 1;
  env->reset_due = 0;
  env->world_key = world_key_of(env, crafter_cx_schedule_start(seed, &env->key));
  return crafter_cx_generate_world_first(env->world_key, &env->state);
}

int crafter_cx_env_start_keys(crafter_cx_env *env, int64_t seed, int64_t episode,
                              crafter_jaxkey world_key, crafter_jaxkey schedule_key) {
  env->seed = seed;
  env->episode = episode;
  env->key = schedule_key;
  env->world_key = world_key;
  env->reset_due = 0;
  return crafter_cx_generate_world_first(world_key, &env->state);
}

int crafter_cx_env_restart(crafter_cx_env *env) {
  env->reset_due = 0;
  env->episode++;
  env->world_key = world_key_of(env, crafter_cx_schedule_next(&env->key));
  return crafter_cx_generate_world_first(env->world_key, &env->state);
}

void crafter_cx_env_act_only(crafter_cx_env *env, int action, crafter_cx_outcome *outcome) {
  crafter_jaxkey k = crafter_cx_schedule_next(&env->key);
  if (crafter_cx_make_ladder_floor(&env->state, action) != 0) env->failed = 1;
  uint8_t before[CRAFTER_CX_ACHIEVEMENTS];
  memcpy(before, env->state.achievements, sizeof before);
  outcome->reward = crafter_cx_game_step(&env->state, crafter_jax_split_inline(k, 0), action);
  outcome->done = crafter_cx_game_over(&env->state);
  outcome->died = outcome->done && env->state.player_health <= 0.0f;
  memset(outcome->unlocked, 0, sizeof outcome->unlocked);
  for (int a = 0; a < CRAFTER_CX_ACHIEVEMENTS; a++)
    if (env->state.achievements[a] && !before[a]) outcome->unlocked[a / 32] |= 1u << (a % 32);
  outcome->length = env->state.timestep;
  env->reset_due = outcome->done;
  env->reset_key = world_key_of(env, crafter_jax_split_inline(k, 1));
}

int crafter_cx_env_reset_due(crafter_cx_env *env) {
  if (env->failed) return -1;
  if (!env->reset_due) return 0;
  env->reset_due = 0;
  env->episode++;
  env->world_key = env->reset_key;
  return crafter_cx_generate_world_first(env->world_key, &env->state);
}
