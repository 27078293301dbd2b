#include "game/cc_words.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* How a field's values are stored and which values a state may hold. */
enum kind { U8_FLAG, U8_BLOCK, I32, I32_CELL, I32_UNIT, I32_DIRECTION, F32, KEY };

typedef struct field {
  const char *name;
  enum kind kind;
  size_t offset; /* in crafter_cc_state */
  int count;
  int stride;    /* bytes between values (mobs' arrays are of CRAFTER_CC_MOB_SLOTS) */
} field;

#define AT(member) offsetof(crafter_cc_state, member)
#define MOBS(kind, slots)                                                                \
  {#kind ".position", I32, AT(kind.position), 2 * (slots), 4},                           \
      {#kind ".health", I32, AT(kind.health), (slots), 4},                               \
      {#kind ".mask", U8_FLAG, AT(kind.mask), (slots), 1},                               \
      {#kind ".attack_cooldown", I32, AT(kind.attack_cooldown), (slots), 4}

static const field fields[] = {
    {"map", U8_BLOCK, AT(map), CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE, 1},
    {"mob_map", U8_FLAG, AT(mob_map), CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE, 1},
    {"player_position", I32_CELL, AT(player_position), 2, 4},
    {"player_direction", I32_DIRECTION, AT(player_direction), 1, 4},
    {"player_health", I32, AT(player_health), 1, 4},
    {"player_food", I32, AT(player_food), 1, 4},
    {"player_drink", I32, AT(player_drink), 1, 4},
    {"player_energy", I32, AT(player_energy), 1, 4},
    {"is_sleeping", U8_FLAG, AT(is_sleeping), 1, 1},
    {"player_recover", F32, AT(player_recover), 1, 4},
    {"player_hunger", F32, AT(player_hunger), 1, 4},
    {"player_thirst", F32, AT(player_thirst), 1, 4},
    {"player_fatigue", F32, AT(player_fatigue), 1, 4},
    {"inventory", I32, AT(inventory), CRAFTER_CC_INVENTORY, 4},
    MOBS(zombies, CRAFTER_CC_MAX_ZOMBIES),
    MOBS(cows, CRAFTER_CC_MAX_COWS),
    MOBS(skeletons, CRAFTER_CC_MAX_SKELETONS),
    MOBS(arrows, CRAFTER_CC_MAX_ARROWS),
    {"arrow_directions", I32_UNIT, AT(arrow_directions), 2 * CRAFTER_CC_MAX_ARROWS, 4},
    {"growing_plants_positions", I32, AT(growing_plants_positions), 2 * CRAFTER_CC_MAX_PLANTS, 4},
    {"growing_plants_age", I32, AT(growing_plants_age), CRAFTER_CC_MAX_PLANTS, 4},
    {"growing_plants_mask", U8_FLAG, AT(growing_plants_mask), CRAFTER_CC_MAX_PLANTS, 1},
    {"light_level", F32, AT(light_level), 1, 4},
    {"achievements", U8_FLAG, AT(achievements), CRAFTER_CC_ACHIEVEMENTS, 1},
    {"state_rng", KEY, AT(state_rng), 2, 4},
    {"timestep", I32, AT(timestep), 1, 4},
};
enum { FIELDS = sizeof fields / sizeof fields[0] };

/* The stride of a mob array: the slots of crafter_cc_mobs are
 * CRAFTER_CC_MOB_SLOTS wide whatever the kind's count, and a position is
 * two values a slot. */
static size_t place(const field *f, int k) {
  size_t offset = f->offset + (size_t)k * (size_t)f->stride;
  return offset;
}

static uint32_t word_of(const crafter_cc_state *s, const field *f, int k) {
  const uint8_t *at = (const uint8_t *)s + place(f, k);
  if (f->stride == 1) return *at;
  uint32_t value;
  memcpy(&value, at, 4);
  return value;
}

void crafter_cc_state_to_words(const crafter_cc_state *state, uint32_t *words) {
  for (int n = 0; n < FIELDS; n++)
    for (int k = 0; k < fields[n].count; k++) *words++ = word_of(state, &fields[n], k);
}

/* Whether `word` is a value field f may hold; else the reason. */
static int valid(const field *f, uint32_t word, char *why, size_t why_size) {
  int32_t value = (int32_t)word;
  float real;
  memcpy(&real, &word, sizeof real);
  const int32_t most = 1 << 30;
  switch (f->kind) {
    case U8_FLAG:
      if (word <= 1) return 1;
      snprintf(why, why_size, "%u, neither 0 nor 1", word);
      return 0;
    case U8_BLOCK:
      if (word <= CRAFTER_CC_RIPE_PLANT) return 1;
      snprintf(why, why_size, "%u, no block type (0 to %d)", word, CRAFTER_CC_RIPE_PLANT);
      return 0;
    case I32_CELL:
      if (value >= 0 && value < CRAFTER_CC_MAP_SIZE) return 1;
      snprintf(why, why_size, "%d, off the map (0 to %d)", value, CRAFTER_CC_MAP_SIZE - 1);
      return 0;
    case I32_UNIT:
      if (value >= -1 && value <= 1) return 1;
      snprintf(why, why_size, "%d, not -1, 0 or 1", value);
      return 0;
    case I32_DIRECTION:
      if (value >= 0 && value <= 4) return 1;
      snprintf(why, why_size, "%d, not one of the directions 0 to 4", value);
      return 0;
    case I32:
      if (value >= -most && value <= most) return 1;
      snprintf(why, why_size, "%d, beyond 2**30 in size", value);
      return 0;
    case F32:
      if (isfinite(real) && fabsf(real) <= (float)most) return 1;
      snprintf(why, why_size, "%g, not a finite number within 2**30", (double)real);
      return 0;
    case KEY: return 1;
  }
  return 0;
}

int crafter_cc_state_from_words(crafter_cc_state *state, const uint32_t *words, char *error,
                                size_t error_size) {
  /* Every value checked before anything changes. */
  const uint32_t *at = words;
  for (int n = 0; n < FIELDS; n++)
    for (int k = 0; k < fields[n].count; k++, at++) {
      char why[96];
      if (!valid(&fields[n], *at, why, sizeof why)) {
        snprintf(error, error_size, "%s[%d] holds %s", fields[n].name, k, why);
        return -1;
      }
    }
  crafter_cc_state loaded;
  memset(&loaded, 0, sizeof loaded);
  at = words;
  for (int n = 0; n < FIELDS; n++)
    for (int k = 0; k < fields[n].count; k++, at++) {
      uint8_t *to = (uint8_t *)&loaded + place(&fields[n], k);
      if (fields[n].stride == 1)
        *to = (uint8_t)*at;
      else
        memcpy(to, at, 4);
    }
  *state = loaded;
  return 0;
}
