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

/* One field of the state: its name, where it lies, how its values are
 * kept and how many there are. */
enum cc_kind { CC_U8, CC_I32, CC_F32, CC_KEY };
struct cc_field {
  const char *name;
  void *at;
  enum cc_kind kind;
  long count;
};

#define CC_MOB_FIELDS(kind) {kind ".position", kind ".health", kind ".mask", kind ".attack_cooldown"}

static inline int cc_mob_fields(struct cc_field *f, const char *const name[4], crafter_cc_mobs *m,
                         int slots) {
  f[0] = (struct cc_field){name[0], &m->position[0][0], CC_I32, 2L * slots};
  f[1] = (struct cc_field){name[1], m->health, CC_I32, slots};
  f[2] = (struct cc_field){name[2], m->mask, CC_U8, slots};
  f[3] = (struct cc_field){name[3], m->attack_cooldown, CC_I32, slots};
  return 4;
}

enum { CC_FIELDS = 56 };

/* The fields of *s in EnvState's order into f[CC_FIELDS]; how many. */
static inline int cc_state_fields(crafter_cc_state *s, struct cc_field *f) {
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
  int n = 0;
  f[n++] = (struct cc_field){"map", &s->map[0][0], CC_U8, cells};
  f[n++] = (struct cc_field){"mob_map", &s->mob_map[0][0], CC_U8, cells};
  f[n++] = (struct cc_field){"player_position", s->player_position, CC_I32, 2};
  f[n++] = (struct cc_field){"player_direction", &s->player_direction, CC_I32, 1};
  f[n++] = (struct cc_field){"player_health", &s->player_health, CC_I32, 1};
  f[n++] = (struct cc_field){"player_food", &s->player_food, CC_I32, 1};
  f[n++] = (struct cc_field){"player_drink", &s->player_drink, CC_I32, 1};
  f[n++] = (struct cc_field){"player_energy", &s->player_energy, CC_I32, 1};
  f[n++] = (struct cc_field){"is_sleeping", &s->is_sleeping, CC_U8, 1};
  f[n++] = (struct cc_field){"player_recover", &s->player_recover, CC_F32, 1};
  f[n++] = (struct cc_field){"player_hunger", &s->player_hunger, CC_F32, 1};
  f[n++] = (struct cc_field){"player_thirst", &s->player_thirst, CC_F32, 1};
  f[n++] = (struct cc_field){"player_fatigue", &s->player_fatigue, CC_F32, 1};
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++)
    f[n++] = (struct cc_field){inventory[k], &s->inventory[k], CC_I32, 1};
  n += cc_mob_fields(f + n, zombies, &s->zombies, CRAFTER_CC_MAX_ZOMBIES);
  n += cc_mob_fields(f + n, cows, &s->cows, CRAFTER_CC_MAX_COWS);
  n += cc_mob_fields(f + n, skeletons, &s->skeletons, CRAFTER_CC_MAX_SKELETONS);
  n += cc_mob_fields(f + n, arrows, &s->arrows, CRAFTER_CC_MAX_ARROWS);
  f[n++] = (struct cc_field){"arrow_directions", &s->arrow_directions[0][0], CC_I32,
                             2L * CRAFTER_CC_MAX_ARROWS};
  f[n++] = (struct cc_field){"growing_plants_positions", &s->growing_plants_positions[0][0],
                             CC_I32, 2L * CRAFTER_CC_MAX_PLANTS};
  f[n++] = (struct cc_field){"growing_plants_age", s->growing_plants_age, CC_I32,
                             CRAFTER_CC_MAX_PLANTS};
  f[n++] = (struct cc_field){"growing_plants_mask", s->growing_plants_mask, CC_U8,
                             CRAFTER_CC_MAX_PLANTS};
  f[n++] = (struct cc_field){"light_level", &s->light_level, CC_F32, 1};
  f[n++] = (struct cc_field){"achievements", s->achievements, CC_U8, CRAFTER_CC_ACHIEVEMENTS};
  f[n++] = (struct cc_field){"state_rng", s->state_rng.word, CC_KEY, 2};
  f[n++] = (struct cc_field){"timestep", &s->timestep, CC_I32, 1};
  return n;
}

/* Value k of a field as a word, and a word into value k. */
static inline uint32_t cc_field_word(const struct cc_field *f, long k) {
  switch (f->kind) {
  case CC_U8:
    return ((const uint8_t *)f->at)[k];
  case CC_I32:
    return (uint32_t)((const int32_t *)f->at)[k];
  default: { /* CC_F32, CC_KEY: the bits */
    uint32_t bits;
    memcpy(&bits, (const uint32_t *)f->at + k, sizeof bits);
    return bits;
  }
  }
}

static inline void cc_field_set(const struct cc_field *f, long k, uint32_t word) {
  switch (f->kind) {
  case CC_U8:
    ((uint8_t *)f->at)[k] = (uint8_t)word;
    break;
  case CC_I32:
    ((int32_t *)f->at)[k] = (int32_t)word;
    break;
  default:
    memcpy((uint32_t *)f->at + k, &word, sizeof word);
    break;
  }
}

/* The state's fields as 32-bit words, in EnvState's order. */
struct cc_words {
  uint32_t word[CC_STATE_MAX_WORDS];
  long count;
  struct {
    const char *name;
    long start, count;
  } field[CC_FIELDS];
  int fields;
};

/* The words of *s into *w (its fields and their places). */
static inline void cc_state_words(const crafter_cc_state *s, struct cc_words *w) {
  struct cc_field f[CC_FIELDS];
  int n = cc_state_fields((crafter_cc_state *)s, f);
  w->count = 0;
  w->fields = n;
  for (int i = 0; i < n; i++) {
    w->field[i].name = f[i].name;
    w->field[i].start = w->count;
    w->field[i].count = f[i].count;
    for (long k = 0; k < f[i].count; k++) w->word[w->count++] = cc_field_word(&f[i], k);
  }
}

#endif
