/* Craftax's state as the reference script reads it
 * (tests/reference/craftax_full_worlds.py, fields()): every leaf of
 * EnvState in JAX's flattening order, each value one 32-bit word
 * (integers and booleans as their value, float32 numbers as their bits,
 * the key as is), the fields named as the script names them. */
#ifndef CRAFTER_TEST_CX_STATE_WORDS_H
#define CRAFTER_TEST_CX_STATE_WORDS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cx_worldgen.h"

enum { CX_FLOOR_CELLS = CRAFTER_CX_MAP_SIZE * CRAFTER_CX_MAP_SIZE,
       CX_STATE_MAX_WORDS = 4 * CRAFTER_CX_LEVELS * CX_FLOOR_CELLS + 4096 };

/* One field of the state: its name, where it lies, how its values are
 * kept, and its shape: `count` values, or for a field of the creatures
 * `per_floor` values of each floor's `stride`. */
enum cx_kind { CX_U8, CX_I32, CX_F32, CX_KEY };
struct cx_field {
  const char *name;
  const void *at;
  enum cx_kind kind;
  long count;
  long per_floor, stride; /* 0, or a [9][slots...] field's used part of each floor */
};

enum { CX_FIELDS = 100 };

static inline void cx_mob_fields(struct cx_field *f, int *n, const char *kind,
                                 const crafter_cx_mobs *m, int slots, char names[][48]) {
  static const char *const parts[5] = {"position", "health", "mask", "attack_cooldown", "type_id"};
  for (int p = 0; p < 5; p++) {
    char *name = names[*n];
    strcpy(name, kind);
    strcat(name, ".");
    strcat(name, parts[p]);
    f[*n].name = name;
    f[*n].count = 0;
    switch (p) {
    case 0: f[*n].at = m->position; f[*n].kind = CX_I32;
      f[*n].per_floor = 2L * slots; f[*n].stride = 2L * CRAFTER_CX_MOB_SLOTS; break;
    case 1: f[*n].at = m->health; f[*n].kind = CX_F32;
      f[*n].per_floor = slots; f[*n].stride = CRAFTER_CX_MOB_SLOTS; break;
    case 2: f[*n].at = m->mask; f[*n].kind = CX_U8;
      f[*n].per_floor = slots; f[*n].stride = CRAFTER_CX_MOB_SLOTS; break;
    case 3: f[*n].at = m->attack_cooldown; f[*n].kind = CX_I32;
      f[*n].per_floor = slots; f[*n].stride = CRAFTER_CX_MOB_SLOTS; break;
    default: f[*n].at = m->type_id; f[*n].kind = CX_I32;
      f[*n].per_floor = slots; f[*n].stride = CRAFTER_CX_MOB_SLOTS; break;
    }
    f[*n].count = f[*n].per_floor * CRAFTER_CX_LEVELS;
    (*n)++;
  }
}

/* The fields of *s in JAX's order into f[CX_FIELDS] (names kept in
 * names[CX_FIELDS][48]); how many. */
static inline int cx_state_fields(const crafter_cx_state *s, struct cx_field *f,
                                  char names[][48]) {
  int n = 0;
#define PLAIN(name_, at_, kind_, count_) \
  f[n++] = (struct cx_field){name_, at_, kind_, count_, 0, 0}
  const long cells = (long)CRAFTER_CX_LEVELS * CX_FLOOR_CELLS;
  PLAIN("map", s->map, CX_U8, cells);
  PLAIN("item_map", s->item_map, CX_U8, cells);
  PLAIN("mob_map", s->mob_map, CX_U8, cells);
  PLAIN("light_map", s->light_map, CX_F32, cells);
  PLAIN("down_ladders", s->down_ladders, CX_I32, 2L * CRAFTER_CX_LEVELS);
  PLAIN("up_ladders", s->up_ladders, CX_I32, 2L * CRAFTER_CX_LEVELS);
  PLAIN("chests_opened", s->chests_opened, CX_U8, CRAFTER_CX_LEVELS);
  PLAIN("monsters_killed", s->monsters_killed, CX_I32, CRAFTER_CX_LEVELS);
  PLAIN("player_position", s->player_position, CX_I32, 2);
  PLAIN("player_level", &s->player_level, CX_I32, 1);
  PLAIN("player_direction", &s->player_direction, CX_I32, 1);
  PLAIN("player_health", &s->player_health, CX_F32, 1);
  PLAIN("player_food", &s->player_food, CX_I32, 1);
  PLAIN("player_drink", &s->player_drink, CX_I32, 1);
  PLAIN("player_energy", &s->player_energy, CX_I32, 1);
  PLAIN("player_mana", &s->player_mana, CX_I32, 1);
  PLAIN("is_sleeping", &s->is_sleeping, CX_U8, 1);
  PLAIN("is_resting", &s->is_resting, CX_U8, 1);
  PLAIN("player_recover", &s->player_recover, CX_F32, 1);
  PLAIN("player_hunger", &s->player_hunger, CX_F32, 1);
  PLAIN("player_thirst", &s->player_thirst, CX_F32, 1);
  PLAIN("player_fatigue", &s->player_fatigue, CX_F32, 1);
  PLAIN("player_recover_mana", &s->player_recover_mana, CX_F32, 1);
  PLAIN("player_xp", &s->player_xp, CX_I32, 1);
  PLAIN("player_dexterity", &s->player_dexterity, CX_I32, 1);
  PLAIN("player_strength", &s->player_strength, CX_I32, 1);
  PLAIN("player_intelligence", &s->player_intelligence, CX_I32, 1);
  const crafter_cx_inventory *v = &s->inventory;
  PLAIN("inventory.wood", &v->wood, CX_I32, 1);
  PLAIN("inventory.stone", &v->stone, CX_I32, 1);
  PLAIN("inventory.coal", &v->coal, CX_I32, 1);
  PLAIN("inventory.iron", &v->iron, CX_I32, 1);
  PLAIN("inventory.diamond", &v->diamond, CX_I32, 1);
  PLAIN("inventory.sapling", &v->sapling, CX_I32, 1);
  PLAIN("inventory.pickaxe", &v->pickaxe, CX_I32, 1);
  PLAIN("inventory.sword", &v->sword, CX_I32, 1);
  PLAIN("inventory.bow", &v->bow, CX_I32, 1);
  PLAIN("inventory.arrows", &v->arrows, CX_I32, 1);
  PLAIN("inventory.armour", v->armour, CX_I32, CRAFTER_CX_ARMOUR);
  PLAIN("inventory.torches", &v->torches, CX_I32, 1);
  PLAIN("inventory.ruby", &v->ruby, CX_I32, 1);
  PLAIN("inventory.sapphire", &v->sapphire, CX_I32, 1);
  PLAIN("inventory.potions", v->potions, CX_I32, CRAFTER_CX_POTIONS);
  PLAIN("inventory.books", &v->books, CX_I32, 1);
  cx_mob_fields(f, &n, "melee_mobs", &s->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS, names);
  cx_mob_fields(f, &n, "passive_mobs", &s->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS, names);
  cx_mob_fields(f, &n, "ranged_mobs", &s->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS, names);
  cx_mob_fields(f, &n, "mob_projectiles", &s->mob_projectiles, CRAFTER_CX_MAX_MOB_PROJECTILES,
                names);
  PLAIN("mob_projectile_directions", s->mob_projectile_directions, CX_I32,
        2L * CRAFTER_CX_LEVELS * CRAFTER_CX_MAX_MOB_PROJECTILES);
  cx_mob_fields(f, &n, "player_projectiles", &s->player_projectiles,
                CRAFTER_CX_MAX_PLAYER_PROJECTILES, names);
  PLAIN("player_projectile_directions", s->player_projectile_directions, CX_I32,
        2L * CRAFTER_CX_LEVELS * CRAFTER_CX_MAX_PLAYER_PROJECTILES);
  PLAIN("growing_plants_positions", s->growing_plants_positions, CX_I32,
        2L * CRAFTER_CX_MAX_GROWING_PLANTS);
  PLAIN("growing_plants_age", s->growing_plants_age, CX_I32, CRAFTER_CX_MAX_GROWING_PLANTS);
  PLAIN("growing_plants_mask", s->growing_plants_mask, CX_U8, CRAFTER_CX_MAX_GROWING_PLANTS);
  PLAIN("potion_mapping", s->potion_mapping, CX_I32, CRAFTER_CX_POTIONS);
  PLAIN("learned_spells", s->learned_spells, CX_U8, CRAFTER_CX_SPELLS);
  PLAIN("sword_enchantment", &s->sword_enchantment, CX_I32, 1);
  PLAIN("bow_enchantment", &s->bow_enchantment, CX_I32, 1);
  PLAIN("armour_enchantments", s->armour_enchantments, CX_I32, CRAFTER_CX_ARMOUR);
  PLAIN("boss_progress", &s->boss_progress, CX_I32, 1);
  PLAIN("boss_timesteps_to_spawn_this_round", &s->boss_timesteps_to_spawn_this_round, CX_I32, 1);
  PLAIN("light_level", &s->light_level, CX_F32, 1);
  PLAIN("achievements", s->achievements, CX_U8, CRAFTER_CX_ACHIEVEMENTS);
  PLAIN("state_rng", &s->state_rng, CX_KEY, 2);
  PLAIN("timestep", &s->timestep, CX_I32, 1);
#undef PLAIN
  return n;
}

/* Value k of field *f as a word. */
static inline uint32_t cx_word(const struct cx_field *f, long k) {
  long at = k;
  if (f->per_floor) at = (k / f->per_floor) * f->stride + k % f->per_floor;
  uint32_t word;
  switch (f->kind) {
  case CX_U8: return ((const uint8_t *)f->at)[at];
  case CX_KEY: return ((const crafter_jaxkey *)f->at)->word[at];
  default: memcpy(&word, (const char *)f->at + 4 * at, 4); return word;
  }
}

/* Value k of field *f set from a word. */
static inline void cx_set_word(const struct cx_field *f, long k, uint32_t word) {
  long at = k;
  if (f->per_floor) at = (k / f->per_floor) * f->stride + k % f->per_floor;
  switch (f->kind) {
  case CX_U8: ((uint8_t *)f->at)[at] = (uint8_t)word; break;
  case CX_KEY: ((crafter_jaxkey *)f->at)->word[at] = word; break;
  default: memcpy((char *)f->at + 4 * at, &word, 4); break;
  }
}

/* How many words a state has. */
static inline long cx_state_word_count(void) {
  static crafter_cx_state s;
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int n = cx_state_fields(&s, f, names);
  long total = 0;
  for (int k = 0; k < n; k++) total += f[k].count;
  return total;
}

/* *s from its words (cleared whole first). */
static inline void cx_load_words(crafter_cx_state *s, const uint32_t *words) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  memset(s, 0, sizeof *s);
  int n = cx_state_fields(s, f, names);
  for (int k = 0; k < n; k++)
    for (long v = 0; v < f[k].count; v++) cx_set_word(&f[k], v, *words++);
}

/* The CRC-32 of values first..first+count-1 of field *f, going on from crc. */
static inline uint32_t cx_crc_field(uint32_t crc, const struct cx_field *f, long first,
                                    long count) {
  enum { CHUNK = 4096 };
  uint8_t bytes[4 * CHUNK];
  for (long start = first; start < first + count; start += CHUNK) {
    long end = start + CHUNK < first + count ? start + CHUNK : first + count;
    for (long v = start; v < end; v++) {
      uint32_t word = cx_word(f, v);
      uint8_t *at = bytes + 4 * (v - start);
      at[0] = (uint8_t)word, at[1] = (uint8_t)(word >> 8), at[2] = (uint8_t)(word >> 16),
      at[3] = (uint8_t)(word >> 24);
    }
    crc = crafter_crc32_update(crc, bytes, 4 * (size_t)(end - start));
  }
  return crc;
}

/* The hashes of tests/reference/craftax_full_worlds.py: the state's, and
 * each floor's (map, item_map, light_map, down_ladders, up_ladders of the
 * floor). */
static inline void cx_state_hashes(const crafter_cx_state *s, uint32_t *whole,
                                   uint32_t floors[CRAFTER_CX_LEVELS]) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int count = cx_state_fields(s, f, names);
  uint32_t crc = 0;
  for (int k = 0; k < count; k++) crc = cx_crc_field(crc, &f[k], 0, f[k].count);
  *whole = crc;
  static const int floor_fields[5] = {0, 1, 3, 4, 5}; /* map item_map light_map ladders */
  for (int floor = 0; floor < CRAFTER_CX_LEVELS; floor++) {
    crc = 0;
    for (int m = 0; m < 5; m++) {
      const struct cx_field *g = &f[floor_fields[m]];
      long per = g->count / CRAFTER_CX_LEVELS;
      crc = cx_crc_field(crc, g, floor * per, per);
    }
    floors[floor] = crc;
  }
}

/* A record of tests/reference/craftax_full_steps.py --record: seven head
 * words (seed, step, action, the step's key, reward, done), then the
 * state's words. */
enum { CX_HEAD_WORDS = 7 };

/* The first state (step 0) of `seed` from a gzip file of records, into
 * *s; 0, or -1 when the file holds none. */
static inline int cx_crafted_start(const char *starts, long seed, crafter_cx_state *s) {
  gzFile in = starts ? gzopen(starts, "rb") : NULL;
  if (!in) return -1;
  long per = CX_HEAD_WORDS + cx_state_word_count();
  uint32_t *record = malloc(4 * (size_t)per);
  int found = -1;
  while (found != 0 && gzread(in, record, 4 * (unsigned)per) == 4 * per)
    if (record[0] == (uint32_t)seed && record[1] == 0) {
      cx_load_words(s, record + CX_HEAD_WORDS);
      found = 0;
    }
  gzclose(in);
  free(record);
  return found;
}

#endif
