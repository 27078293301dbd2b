/* Craftax-Classic's state as the reference scripts read it
 * (tests/reference/craftax_worlds.py, fields()): every field of EnvState
 * in its order, each value one 32-bit word (integers and booleans as
 * their value, float32 numbers as their bits, the key as is), the fields
 * named as the scripts name them. */
#ifndef CRAFTER_TEST_CC_STATE_WORDS_H
#define CRAFTER_TEST_CC_STATE_WORDS_H

#include <stdint.h>
#include <string.h>

#include "game/cc_worldgen.h"

enum { CC_STATE_MAX_WORDS = 3 * CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE };

/* The state's fields as 32-bit words, in EnvState's order. */
struct cc_words {
  uint32_t word[CC_STATE_MAX_WORDS];
  long count;
  struct {
    const char *name;
    long start, count;
  } field[64];
  int fields;
};

static void cc_begin(struct cc_words *w, const char *name) {
  w->field[w->fields].name = name;
  w->field[w->fields].start = w->count;
  w->field[w->fields].count = 0;
  w->fields++;
}
static void cc_put(struct cc_words *w, uint32_t value) {
  w->word[w->count++] = value;
  w->field[w->fields - 1].count++;
}
static void cc_put_i32(struct cc_words *w, const char *name, const int32_t *v, long n) {
  cc_begin(w, name);
  for (long k = 0; k < n; k++) cc_put(w, (uint32_t)v[k]);
}
static void cc_put_u8(struct cc_words *w, const char *name, const uint8_t *v, long n) {
  cc_begin(w, name);
  for (long k = 0; k < n; k++) cc_put(w, v[k]);
}
static void cc_put_f32(struct cc_words *w, const char *name, float v) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  cc_begin(w, name);
  cc_put(w, bits);
}

#define CC_MOB_FIELDS(kind) {kind ".position", kind ".health", kind ".mask", kind ".attack_cooldown"}

static void cc_put_mobs(struct cc_words *w, const char *const name[4], const crafter_cc_mobs *m,
                        int slots) {
  cc_put_i32(w, name[0], &m->position[0][0], 2L * slots);
  cc_put_i32(w, name[1], m->health, slots);
  cc_put_u8(w, name[2], m->mask, slots);
  cc_put_i32(w, name[3], m->attack_cooldown, slots);
}

/* The words of *s into *w (its fields and their places). */
static void cc_state_words(const crafter_cc_state *s, struct cc_words *w) {
  static const char *const inventory[CRAFTER_CC_INVENTORY] = {
      "inventory.wood", "inventory.stone", "inventory.coal", "inventory.iron",
      "inventory.diamond", "inventory.sapling", "inventory.wood_pickaxe",
      "inventory.stone_pickaxe", "inventory.iron_pickaxe", "inventory.wood_sword",
      "inventory.stone_sword", "inventory.iron_sword"};
  static const char *const zombies[4] = CC_MOB_FIELDS("zombies"),
                           *const cows[4] = CC_MOB_FIELDS("cows"),
                           *const skeletons[4] = CC_MOB_FIELDS("skeletons"),
                           *const arrows[4] = CC_MOB_FIELDS("arrows");
  const long cells = (long)CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE;
  w->count = 0;
  w->fields = 0;
  cc_put_u8(w, "map", &s->map[0][0], cells);
  cc_put_u8(w, "mob_map", &s->mob_map[0][0], cells);
  cc_put_i32(w, "player_position", s->player_position, 2);
  cc_put_i32(w, "player_direction", &s->player_direction, 1);
  cc_put_i32(w, "player_health", &s->player_health, 1);
  cc_put_i32(w, "player_food", &s->player_food, 1);
  cc_put_i32(w, "player_drink", &s->player_drink, 1);
  cc_put_i32(w, "player_energy", &s->player_energy, 1);
  cc_put_u8(w, "is_sleeping", &s->is_sleeping, 1);
  cc_put_f32(w, "player_recover", s->player_recover);
  cc_put_f32(w, "player_hunger", s->player_hunger);
  cc_put_f32(w, "player_thirst", s->player_thirst);
  cc_put_f32(w, "player_fatigue", s->player_fatigue);
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) cc_put_i32(w, inventory[k], &s->inventory[k], 1);
  cc_put_mobs(w, zombies, &s->zombies, CRAFTER_CC_MAX_ZOMBIES);
  cc_put_mobs(w, cows, &s->cows, CRAFTER_CC_MAX_COWS);
  cc_put_mobs(w, skeletons, &s->skeletons, CRAFTER_CC_MAX_SKELETONS);
  cc_put_mobs(w, arrows, &s->arrows, CRAFTER_CC_MAX_ARROWS);
  cc_put_i32(w, "arrow_directions", &s->arrow_directions[0][0], 2L * CRAFTER_CC_MAX_ARROWS);
  cc_put_i32(w, "growing_plants_positions", &s->growing_plants_positions[0][0],
             2L * CRAFTER_CC_MAX_PLANTS);
  cc_put_i32(w, "growing_plants_age", s->growing_plants_age, CRAFTER_CC_MAX_PLANTS);
  cc_put_u8(w, "growing_plants_mask", s->growing_plants_mask, CRAFTER_CC_MAX_PLANTS);
  cc_put_f32(w, "light_level", s->light_level);
  cc_put_u8(w, "achievements", s->achievements, CRAFTER_CC_ACHIEVEMENTS);
  cc_begin(w, "state_rng");
  cc_put(w, s->state_rng.word[0]);
  cc_put(w, s->state_rng.word[1]);
  cc_put_i32(w, "timestep", &s->timestep, 1);
}

#endif
