#include "game/cx_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/errors.h"

/* How a field's values are kept in the state and which values it may
 * hold: bytes and int32 numbers from `low` to `high`, float32 numbers
 * finite and within 2**30, the key's words any. */
enum kind { BYTE, INT, REAL, KEY };

typedef struct field {
  const char *name;
  enum kind kind;
  size_t offset;       /* in crafter_cx_state */
  long count;          /* the words */
  long per_floor;      /* 0, or the used values of each floor's block of `floor_stride` */
  long floor_stride;
  int32_t low, high;
  const char *what;    /* what a value out of range is not */
} field;

enum { MOST = 1 << 30, CELLS = CRAFTER_CX_MAP_SIZE * CRAFTER_CX_MAP_SIZE };

#define AT(member) offsetof(crafter_cx_state, member)
#define ANY -MOST, MOST, "beyond 2**30 in size"
#define FLAG 0, 1, "neither 0 nor 1"
#define CELL 0, CRAFTER_CX_MAP_SIZE - 1, "off the map (0 to 47)"
#define UNWRAP(...) __VA_ARGS__
#define PLAIN(name, kind, member, count, range) \
  {name, kind, AT(member), count, 0, 0, UNWRAP range}
/* A kind of creature or projectile: `slots` used of each floor's
 * CRAFTER_CX_MOB_SLOTS; type ids 0 to `types` - 1. */
#define MOBS(kind, slots, types, named)                                                   \
  {#kind ".position", INT, AT(kind.position), 2L * CRAFTER_CX_LEVELS * (slots),           \
   2 * (slots), 2 * CRAFTER_CX_MOB_SLOTS, ANY},                                           \
  {#kind ".health", REAL, AT(kind.health), (long)CRAFTER_CX_LEVELS * (slots), (slots),    \
   CRAFTER_CX_MOB_SLOTS, ANY},                                                            \
  {#kind ".mask", BYTE, AT(kind.mask), (long)CRAFTER_CX_LEVELS * (slots), (slots),        \
   CRAFTER_CX_MOB_SLOTS, FLAG},                                                           \
  {#kind ".attack_cooldown", INT, AT(kind.attack_cooldown),                               \
   (long)CRAFTER_CX_LEVELS * (slots), (slots), CRAFTER_CX_MOB_SLOTS, ANY},                \
  {#kind ".type_id", INT, AT(kind.type_id), (long)CRAFTER_CX_LEVELS * (slots), (slots),   \
   CRAFTER_CX_MOB_SLOTS, 0, (types) - 1, named}

static const field fields[] = {
    PLAIN("map", BYTE, map, CRAFTER_CX_LEVELS * CELLS, (0, CRAFTER_CX_NECROMANCER_VULNERABLE,
          "no block type (0 to 36)")),
    PLAIN("item_map", BYTE, item_map, CRAFTER_CX_LEVELS * CELLS,
          (0, CRAFTER_CX_ITEM_LADDER_DOWN_BLOCKED, "no item type (0 to 4)")),
    PLAIN("mob_map", BYTE, mob_map, CRAFTER_CX_LEVELS * CELLS, (FLAG)),
    PLAIN("light_map", REAL, light_map, CRAFTER_CX_LEVELS * CELLS, (ANY)),
    PLAIN("down_ladders", INT, down_ladders, 2 * CRAFTER_CX_LEVELS, (CELL)),
    PLAIN("up_ladders", INT, up_ladders, 2 * CRAFTER_CX_LEVELS, (CELL)),
    PLAIN("chests_opened", BYTE, chests_opened, CRAFTER_CX_LEVELS, (FLAG)),
    PLAIN("monsters_killed", INT, monsters_killed, CRAFTER_CX_LEVELS, (ANY)),
    PLAIN("player_position", INT, player_position, 2, (CELL)),
    PLAIN("player_level", INT, player_level, 1, (0, CRAFTER_CX_LEVELS - 1, "no floor (0 to 8)")),
    PLAIN("player_direction", INT, player_direction, 1,
          (0, 4, "not one of the directions 0 to 4")),
    PLAIN("player_health", REAL, player_health, 1, (ANY)),
    PLAIN("player_food", INT, player_food, 1, (ANY)),
    PLAIN("player_drink", INT, player_drink, 1, (ANY)),
    PLAIN("player_energy", INT, player_energy, 1, (ANY)),
    PLAIN("player_mana", INT, player_mana, 1, (ANY)),
    PLAIN("is_sleeping", BYTE, is_sleeping, 1, (FLAG)),
    PLAIN("is_resting", BYTE, is_resting, 1, (FLAG)),
    PLAIN("player_recover", REAL, player_recover, 1, (ANY)),
    PLAIN("player_hunger", REAL, player_hunger, 1, (ANY)),
    PLAIN("player_thirst", REAL, player_thirst, 1, (ANY)),
    PLAIN("player_fatigue", REAL, player_fatigue, 1, (ANY)),
    PLAIN("player_recover_mana", REAL, player_recover_mana, 1, (ANY)),
    PLAIN("player_xp", INT, player_xp, 1, (ANY)),
    PLAIN("player_dexterity", INT, player_dexterity, 1, (ANY)),
    PLAIN("player_strength", INT, player_strength, 1, (ANY)),
    PLAIN("player_intelligence", INT, player_intelligence, 1, (ANY)),
    PLAIN("inventory.wood", INT, inventory.wood, 1, (ANY)),
    PLAIN("inventory.stone", INT, inventory.stone, 1, (ANY)),
    PLAIN("inventory.coal", INT, inventory.coal, 1, (ANY)),
    PLAIN("inventory.iron", INT, inventory.iron, 1, (ANY)),
    PLAIN("inventory.diamond", INT, inventory.diamond, 1, (ANY)),
    PLAIN("inventory.sapling", INT, inventory.sapling, 1, (ANY)),
    PLAIN("inventory.pickaxe", INT, inventory.pickaxe, 1, (ANY)),
    PLAIN("inventory.sword", INT, inventory.sword, 1, (ANY)),
    PLAIN("inventory.bow", INT, inventory.bow, 1, (ANY)),
    PLAIN("inventory.arrows", INT, inventory.arrows, 1, (ANY)),
    PLAIN("inventory.armour", INT, inventory.armour, CRAFTER_CX_ARMOUR, (ANY)),
    PLAIN("inventory.torches", INT, inventory.torches, 1, (ANY)),
    PLAIN("inventory.ruby", INT, inventory.ruby, 1, (ANY)),
    PLAIN("inventory.sapphire", INT, inventory.sapphire, 1, (ANY)),
    PLAIN("inventory.potions", INT, inventory.potions, CRAFTER_CX_POTIONS, (ANY)),
    PLAIN("inventory.books", INT, inventory.books, 1, (ANY)),
    MOBS(melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, 8, "no melee creature type (0 to 7)"),
    MOBS(passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, 3, "no passive creature type (0 to 2)"),
    MOBS(ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, 8, "no ranged creature type (0 to 7)"),
    MOBS(mob_projectiles, CRAFTER_CX_MAX_MOB_PROJECTILES, 8, "no projectile type (0 to 7)"),
    PLAIN("mob_projectile_directions", INT, mob_projectile_directions,
          2 * CRAFTER_CX_LEVELS * CRAFTER_CX_MAX_MOB_PROJECTILES, (-1, 1, "not -1, 0 or 1")),
    MOBS(player_projectiles, CRAFTER_CX_MAX_PLAYER_PROJECTILES, 8, "no projectile type (0 to 7)"),
    PLAIN("player_projectile_directions", INT, player_projectile_directions,
          2 * CRAFTER_CX_LEVELS * CRAFTER_CX_MAX_PLAYER_PROJECTILES, (-1, 1, "not -1, 0 or 1")),
    PLAIN("growing_plants_positions", INT, growing_plants_positions,
          2 * CRAFTER_CX_MAX_GROWING_PLANTS, (ANY)),
    PLAIN("growing_plants_age", INT, growing_plants_age, CRAFTER_CX_MAX_GROWING_PLANTS, (ANY)),
    PLAIN("growing_plants_mask", BYTE, growing_plants_mask, CRAFTER_CX_MAX_GROWING_PLANTS,
          (FLAG)),
    PLAIN("potion_mapping", INT, potion_mapping, CRAFTER_CX_POTIONS,
          (0, CRAFTER_CX_POTIONS - 1, "no potion (0 to 5)")),
    PLAIN("learned_spells", BYTE, learned_spells, CRAFTER_CX_SPELLS, (FLAG)),
    PLAIN("sword_enchantment", INT, sword_enchantment, 1, (0, 2, "no enchantment (0 to 2)")),
    PLAIN("bow_enchantment", INT, bow_enchantment, 1, (0, 2, "no enchantment (0 to 2)")),
    PLAIN("armour_enchantments", INT, armour_enchantments, CRAFTER_CX_ARMOUR,
          (0, 2, "no enchantment (0 to 2)")),
    PLAIN("boss_progress", INT, boss_progress, 1, (ANY)),
    PLAIN("boss_timesteps_to_spawn_this_round", INT, boss_timesteps_to_spawn_this_round, 1,
          (ANY)),
    PLAIN("light_level", REAL, light_level, 1, (ANY)),
    PLAIN("achievements", BYTE, achievements, CRAFTER_CX_ACHIEVEMENTS, (FLAG)),
    PLAIN("state_rng", KEY, state_rng, 2, (ANY)),
    PLAIN("timestep", INT, timestep, 1, (ANY)),
};
enum { FIELDS = sizeof fields / sizeof fields[0] };

/* The byte of the state value k of field *f lies at. */
static size_t place(const field *f, long k) {
  long at = k;
  if (f->per_floor) at = (k / f->per_floor) * f->floor_stride + k % f->per_floor;
  return f->offset + (size_t)at * (f->kind == BYTE ? 1 : 4);
}

void crafter_cx_state_to_words(const crafter_cx_state *s, uint32_t *words) {
  const uint8_t *base = (const uint8_t *)s;
  for (int n = 0; n < FIELDS; n++) {
    const field *f = &fields[n];
    if (f->kind == BYTE)
      for (long k = 0; k < f->count; k++) *words++ = base[place(f, k)];
    else
      for (long k = 0; k < f->count; k++) memcpy(words++, base + place(f, k), 4);
  }
}

/* Whether `word` is a value field *f may hold; else why not. */
static int valid(const field *f, uint32_t word, char *why, size_t why_size) {
  int32_t value = (int32_t)word;
  float real;
  memcpy(&real, &word, sizeof real);
  switch (f->kind) {
  case KEY: return 1;
  case REAL:
    if (isfinite(real) && fabsf(real) <= (float)MOST) return 1;
    snprintf(why, why_size, "%g, not a finite number within 2**30", (double)real);
    return 0;
  case BYTE:
    if (word <= (uint32_t)f->high) return 1;
    snprintf(why, why_size, "%u, %s", word, f->what);
    return 0;
  case INT:
    if (value >= f->low && value <= f->high) return 1;
    snprintf(why, why_size, "%d, %s", value, f->what);
    return 0;
  }
  return 0;
}

int crafter_cx_state_from_words(crafter_cx_state *s, const uint32_t *words, char *error,
                                size_t error_size) {
  const uint32_t *at = words;
  long mapping = 0;
  for (int n = 0; n < FIELDS; n++) {
    const field *f = &fields[n];
    if (f->offset == AT(potion_mapping)) mapping = at - words;
    for (long k = 0; k < f->count; k++, at++) {
      char why[96];
      if (!valid(f, *at, why, sizeof why))
        return crafter_fail(error, error_size, "%s[%ld] holds %s", f->name, k, why);
    }
  }
  unsigned seen = 0;
  for (int k = 0; k < CRAFTER_CX_POTIONS; k++) seen |= 1u << words[mapping + k];
  if (seen != (1u << CRAFTER_CX_POTIONS) - 1)
    return crafter_fail(error, error_size,
                        "potion_mapping holds a potion twice: it is no permutation of 0 to 5");
  memset(s, 0, sizeof *s);
  uint8_t *base = (uint8_t *)s;
  at = words;
  for (int n = 0; n < FIELDS; n++) {
    const field *f = &fields[n];
    if (f->kind == BYTE)
      for (long k = 0; k < f->count; k++) base[place(f, k)] = (uint8_t)*at++;
    else
      for (long k = 0; k < f->count; k++) memcpy(base + place(f, k), at++, 4);
  }
  return 0;
}

const char *crafter_cx_word_field(long index, long *within) {
  if (index < 0) return NULL;
  for (int n = 0; n < FIELDS; n++) {
    if (index < fields[n].count) {
      *within = index;
      return fields[n].name;
    }
    index -= fields[n].count;
  }
  return NULL;
}
