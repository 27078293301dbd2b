#include "game/config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/bytes.h"
#include "base/npmath.h"
#include "base/yamlfile.h"

#define BIT(m) (1u << (m))
#define AMOUNT(i, a) {.item = (i), .amount = (a)}
#define VITAL {.max = 9, .initial = 9}
#define ITEM {.max = 9, .initial = 0}
#define GIVES(item) .receive_count = 1, .receive = {AMOUNT(item, 1)}
#define NEEDS(tool) .require_count = 1, .require = {AMOUNT(tool, 1)}

/* crafter 1.8.3: data.yaml, worldgen.py and env.py. */
const crafter_config crafter_config_builtin = {
    .params = {.area = {64, 64}, .view = {9, 9}, .size = {64, 64}, .reward = 1,
               .length = 10000, .seed = 0},
    .day_length = 300,
    .worldgen =
        {
            .start_radius = 4, .start_threshold = 0.5, .mountain = 0.15,
            .cave_mountain = 0.3, .cave_noise = 0.15, .cave_size = 7,
            .tunnel_noise = 0.4,
            .coal_noise = 0, .coal_size = 8, .coal_draw = 0.85,
            .iron_noise = 0.4, .iron_size = 6, .iron_draw = 0.75,
            .diamond_mountain = 0.18, .diamond_draw = 0.994,
            .lava_mountain = 0.3, .lava_noise = 0.35, .lava_size = 5,
            .sand_water_min = 0.25, .sand_water_max = 0.35, .sand_noise = -0.2, .sand_size = 9,
            .water = 0.3,
            .tree_noise = 0, .tree_size = 7, .tree_draw = 0.8,
            .cow_distance = 3, .cow_draw = 0.985,
            .zombie_distance = 10, .zombie_draw = 0.993,
            .skeleton_draw = 0.95,
        },
    .balance_interval = 10,
    .chunk = {12, 12},
    .balance =
        {
            [CRAFTER_BALANCE_ZOMBIE] = {.material = CRAFTER_GRASS, .spawn_distance = 6,
                                        .despawn_distance = 0, .spawn_probability = 0.3,
                                        .despawn_probability = 0.4, .min_space = 50,
                                        .min_base = 3.5, .min_daylight = -3, .max_base = 3.5,
                                        .max_daylight = -3},
            [CRAFTER_BALANCE_SKELETON] = {.material = CRAFTER_PATH, .spawn_distance = 7,
                                          .despawn_distance = 7, .spawn_probability = 0.1,
                                          .despawn_probability = 0.1, .min_space = 6,
                                          .min_base = 1, .min_daylight = 0, .max_base = 2,
                                          .max_daylight = 0},
            [CRAFTER_BALANCE_COW] = {.material = CRAFTER_GRASS, .spawn_distance = 5,
                                     .despawn_distance = 5, .spawn_probability = 0.01,
                                     .despawn_probability = 0.1, .min_space = 30,
                                     .min_base = 1, .min_daylight = 0, .max_base = 1.5,
                                     .max_daylight = 1},
        },
    .walkable = BIT(CRAFTER_GRASS) | BIT(CRAFTER_SAND) | BIT(CRAFTER_PATH),
    .items = {VITAL, VITAL, VITAL, VITAL, ITEM, ITEM, ITEM, ITEM, ITEM, ITEM, ITEM, ITEM, ITEM,
              ITEM, ITEM, ITEM},
    .collect =
        {
            [CRAFTER_TREE] = {.present = 1, .leaves = CRAFTER_GRASS, .probability = 1,
                              GIVES(CRAFTER_WOOD)},
            [CRAFTER_STONE] = {.present = 1, .leaves = CRAFTER_PATH, .probability = 1,
                               NEEDS(CRAFTER_WOOD_PICKAXE), GIVES(CRAFTER_ITEM_STONE)},
            [CRAFTER_COAL] = {.present = 1, .leaves = CRAFTER_PATH, .probability = 1,
                              NEEDS(CRAFTER_WOOD_PICKAXE), GIVES(CRAFTER_ITEM_COAL)},
            [CRAFTER_IRON] = {.present = 1, .leaves = CRAFTER_PATH, .probability = 1,
                              NEEDS(CRAFTER_STONE_PICKAXE), GIVES(CRAFTER_ITEM_IRON)},
            [CRAFTER_DIAMOND] = {.present = 1, .leaves = CRAFTER_PATH, .probability = 1,
                                 NEEDS(CRAFTER_IRON_PICKAXE), GIVES(CRAFTER_ITEM_DIAMOND)},
            [CRAFTER_WATER] = {.present = 1, .leaves = CRAFTER_WATER, .probability = 1,
                               GIVES(CRAFTER_DRINK)},
            [CRAFTER_GRASS] = {.present = 1, .leaves = CRAFTER_GRASS, .probability = 0.1,
                               GIVES(CRAFTER_SAPLING)},
        },
    .place =
        {
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_ITEM_STONE, 1)},
             .where = BIT(CRAFTER_GRASS) | BIT(CRAFTER_SAND) | BIT(CRAFTER_PATH) |
                      BIT(CRAFTER_WATER) | BIT(CRAFTER_LAVA)},
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_WOOD, 2)},
             .where = BIT(CRAFTER_GRASS) | BIT(CRAFTER_SAND) | BIT(CRAFTER_PATH)},
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_ITEM_STONE, 4)},
             .where = BIT(CRAFTER_GRASS) | BIT(CRAFTER_SAND) | BIT(CRAFTER_PATH)},
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_SAPLING, 1)},
             .where = BIT(CRAFTER_GRASS)},
        },
    .make =
        {
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_WOOD, 1)},
             .nearby = BIT(CRAFTER_TABLE), .gives = 1},
            {.present = 1, .use_count = 2,
             .uses = {AMOUNT(CRAFTER_WOOD, 1), AMOUNT(CRAFTER_ITEM_STONE, 1)},
             .nearby = BIT(CRAFTER_TABLE), .gives = 1},
            {.present = 1, .use_count = 3,
             .uses = {AMOUNT(CRAFTER_WOOD, 1), AMOUNT(CRAFTER_ITEM_COAL, 1),
                      AMOUNT(CRAFTER_ITEM_IRON, 1)},
             .nearby = BIT(CRAFTER_TABLE) | BIT(CRAFTER_FURNACE), .gives = 1},
            {.present = 1, .use_count = 1, .uses = {AMOUNT(CRAFTER_WOOD, 1)},
             .nearby = BIT(CRAFTER_TABLE), .gives = 1},
            {.present = 1, .use_count = 2,
             .uses = {AMOUNT(CRAFTER_WOOD, 1), AMOUNT(CRAFTER_ITEM_STONE, 1)},
             .nearby = BIT(CRAFTER_TABLE), .gives = 1},
            {.present = 1, .use_count = 3,
             .uses = {AMOUNT(CRAFTER_WOOD, 1), AMOUNT(CRAFTER_ITEM_COAL, 1),
                      AMOUNT(CRAFTER_ITEM_IRON, 1)},
             .nearby = BIT(CRAFTER_TABLE) | BIT(CRAFTER_FURNACE), .gives = 1},
        },
    .reward = {.health_divisor = 10,
               .combine = CRAFTER_COMBINE_MAX,
               .achievements = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
    /* objects.py */
    .player = {.hunger = {.rate = 1, .sleeping = 0.5, .limit = 25, .amount = 1},
               .thirst = {.rate = 1, .sleeping = 0.5, .limit = 20, .amount = 1},
               .fatigue = {.rate = 1, .sleeping = 1, .tired = 30, .rested = -10, .amount = 1},
               .recover = {.rate = 1, .sleeping = 2, .decay = 1, .decay_sleeping = 0.5,
                           .heal = 25, .hurt = -15, .amount = 1},
               .damage_none = 1, .damage_wood_sword = 2, .damage_stone_sword = 3,
               .damage_iron_sword = 5},
    .cow = {.health = 3, .move = 0.5, .food = 6},
    .zombie = {.health = 5, .chase_distance = 8, .chase_probability = 0.9, .long_axis = 0.8,
               .attack_distance = 1, .damage = 2, .damage_sleeping = 7, .cooldown = 5},
    .skeleton = {.health = 3, .flee_distance = 3, .flee_long_axis = 0.6, .shoot_distance = 5,
                 .shoot_probability = 0.5, .reload = 4, .chase_distance = 8,
                 .chase_probability = 0.3, .chase_long_axis = 0.6, .wander = 0.2},
    .arrow = {.damage = 2},
    .plant = {.health = 1, .ripe = 300, .food = 4, .damage = 1},
};

int crafter_config_health(const crafter_config *config, int kind) {
  switch (kind) {
    case CRAFTER_COW: return config->cow.health;
    case CRAFTER_ZOMBIE: return config->zombie.health;
    case CRAFTER_SKELETON: return config->skeleton.health;
    case CRAFTER_PLANT: return config->plant.health;
    default: return 0;
  }
}

void crafter_config_default(crafter_config *config) {
  memcpy(config, &crafter_config_builtin, sizeof(*config));
}

/* Python's math.pi. */
#define CRAFTER_PI 3.141592653589793

double crafter_daylight_cycle(long step, long day_length) {
  if (day_length <= 0) return 1.0;
  double progress = fmod((double)step / (double)day_length, 1.0) + 0.3;
  return 1 - pow(fabs(crafter_np_cos(CRAFTER_PI * progress)), 3);
}

/* ---- checking ---- */

#define ITEM_LIMIT 1000000
#define AMOUNT_LIMIT 1000000
#define CHUNK_LIMIT 255

static int check_amounts(const crafter_item_amount *list, int count, const char *what,
                         char *error, size_t error_size) {
  for (int i = 0; i < count; i++)
    if (list[i].item >= CRAFTER_ITEM_COUNT || list[i].amount < 0 ||
        list[i].amount > AMOUNT_LIMIT) {
      snprintf(error, error_size, "%s: an item id or amount is out of range", what);
      return -1;
    }
  return 0;
}

static int check_objects(const crafter_config *config, char *error, size_t error_size);

int crafter_config_check(const crafter_config *config, char *error, size_t error_size) {
  if (check_objects(config, error, error_size) < 0) return -1;
  if (crafter_params_check(&config->params, error, error_size) < 0) return -1;
  const crafter_material_set all = (crafter_material_set)((1ull << CRAFTER_MATERIAL_COUNT) - 1);
  if (config->day_length < 0) {
    snprintf(error, error_size, "the day length must be 0 or more");
    return -1;
  }
  if (config->balance_interval < 0 || config->chunk[0] < 1 || config->chunk[1] < 1 ||
      config->chunk[0] > CHUNK_LIMIT || config->chunk[1] > CHUNK_LIMIT) {
    snprintf(error, error_size, "balance: the interval must be 0 or more and chunks 1..%d",
             CHUNK_LIMIT);
    return -1;
  }
  for (int i = 0; i < CRAFTER_BALANCE_COUNT; i++) {
    const crafter_balance_rule *rule = &config->balance[i];
    if (rule->material >= CRAFTER_MATERIAL_COUNT || rule->spawn_distance < 0 ||
        rule->despawn_distance < 0 || rule->min_space < 0 ||
        !(rule->spawn_probability >= 0 && rule->spawn_probability <= 1) ||
        !(rule->despawn_probability >= 0 && rule->despawn_probability <= 1) ||
        !isfinite(rule->min_base) || !isfinite(rule->min_daylight) ||
        !isfinite(rule->max_base) || !isfinite(rule->max_daylight)) {
      snprintf(error, error_size, "balance: a value of the %s rule is out of range",
               crafter_object_kind_names[i == 0 ? CRAFTER_ZOMBIE
                                         : i == 1 ? CRAFTER_SKELETON : CRAFTER_COW]);
      return -1;
    }
  }
  if (config->walkable & ~all) {
    snprintf(error, error_size, "walkable holds an unknown material");
    return -1;
  }
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++) {
    const crafter_item_rule *item = &config->items[i];
    if (item->max < 0 || item->max > ITEM_LIMIT || item->initial < 0 ||
        item->initial > item->max) {
      snprintf(error, error_size, "items: %s needs 0 <= initial <= max <= %d",
               crafter_item_names[i], ITEM_LIMIT);
      return -1;
    }
  }
  for (int m = 0; m < CRAFTER_MATERIAL_COUNT; m++) {
    const crafter_collect_rule *rule = &config->collect[m];
    if (!rule->present) continue;
    if (rule->leaves >= CRAFTER_MATERIAL_COUNT || rule->require_count > CRAFTER_ITEM_COUNT ||
        rule->receive_count > CRAFTER_ITEM_COUNT ||
        !(rule->probability >= 0 && rule->probability <= 1) ||
        check_amounts(rule->require, rule->require_count, "collect", error, error_size) < 0 ||
        check_amounts(rule->receive, rule->receive_count, "collect", error, error_size) < 0) {
      snprintf(error, error_size, "collect: the rule of %s is out of range",
               crafter_material_names[m]);
      return -1;
    }
  }
  for (int i = 0; i < 4; i++)
    if (config->place[i].use_count > CRAFTER_ITEM_COUNT || (config->place[i].where & ~all) ||
        check_amounts(config->place[i].uses, config->place[i].use_count, "place", error,
                      error_size) < 0) {
      snprintf(error, error_size, "place: the rule of %s is out of range",
               crafter_action_names[CRAFTER_PLACE_STONE + i]);
      return -1;
    }
  for (int i = 0; i < 6; i++)
    if (config->make[i].use_count > CRAFTER_ITEM_COUNT || (config->make[i].nearby & ~all) ||
        config->make[i].gives < 0 || config->make[i].gives > AMOUNT_LIMIT ||
        check_amounts(config->make[i].uses, config->make[i].use_count, "make", error,
                      error_size) < 0) {
      snprintf(error, error_size, "make: the rule of %s is out of range",
               crafter_action_names[CRAFTER_MAKE_WOOD_PICKAXE + i]);
      return -1;
    }
  const crafter_worldgen_config *w = &config->worldgen;
  const double sizes[] = {w->cave_size, w->coal_size, w->iron_size, w->lava_size, w->sand_size,
                          w->tree_size};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
    if (!(sizes[i] > 0) || !isfinite(sizes[i])) {
      snprintf(error, error_size, "worldgen: noise sizes must be positive");
      return -1;
    }
  if (!isfinite(config->reward.health_divisor) ||
      (config->reward.combine != CRAFTER_COMBINE_MAX &&
       config->reward.combine != CRAFTER_COMBINE_SUM)) {
    snprintf(error, error_size, "reward: a value is out of range");
    return -1;
  }
  if (config->team.damage < 0 || config->team.damage > 1000000 ||
      (config->team.shared != 0 && config->team.shared != 1)) {
    snprintf(error, error_size, "players: a value is out of range");
    return -1;
  }
  return 0;
}

/* ---- reading YAML ---- */

typedef struct reader {
  crafter_yaml_reader yaml;
  crafter_config *config;
} reader;

typedef struct key_list {
  const char *const *names;
  int count;
} key_list;

static const char *scalar_text(const yaml_node_t *node) {
  return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

static int is_null(const yaml_node_t *node) {
  if (!node || node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  const char *text = scalar_text(node);
  return strcmp(text, "") == 0 || strcmp(text, "~") == 0 || strcmp(text, "null") == 0 ||
         strcmp(text, "Null") == 0 || strcmp(text, "NULL") == 0;
}


/* Joins names for "expected one of ..." messages. */
static void join_names(const char *const *names, int count, int skip_first, char *out,
                       size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = skip_first; i < count && used + 1 < size; i++) {
    int wrote = snprintf(out + used, size - used, "%s%s", i > skip_first ? ", " : "", names[i]);
    if (wrote < 0) break;
    used += (size_t)wrote;
  }
}

static int name_index(const char *text, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (strcmp(text, names[i]) == 0) return i;
  return -1;
}

static int expect_mapping(reader *r, const yaml_node_t *node, const char *what) {
  if (node->type != YAML_MAPPING_NODE)
    return crafter_yaml_fail(&r->yaml, node, "%s: expected a mapping of keys to values", what);
  return 0;
}

/* Walks a mapping whose keys must come from `keys`; calls back with the
 * key's index.  Unknown and repeated keys are errors. */
typedef int (*pair_fn)(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                       void *context);

static int each_pair(reader *r, const yaml_node_t *node, const char *what,
                     const char *const *keys, int key_count, pair_fn callback, void *context) {
  if (is_null(node)) return 0; /* "section:" with nothing under it */
  if (expect_mapping(r, node, what) < 0) return -1;
  uint64_t seen[4] = {0};
  for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
       pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key_node = crafter_yaml_node(&r->yaml, pair->key);
    yaml_node_t *value = crafter_yaml_node(&r->yaml, pair->value);
    const char *text = scalar_text(key_node);
    if (!text) return crafter_yaml_fail(&r->yaml, key_node, "%s: expected a name as key", what);
    int key = name_index(text, keys, key_count);
    if (key < 0) {
      char expected[600];
      join_names(keys, key_count, 0, expected, sizeof(expected));
      return crafter_yaml_fail(&r->yaml, key_node, "unknown key '%s' in %s (expected one of: %s)",
                               text, what, expected);
    }
    if (key < 256) {
      if (seen[key / 64] & (1ull << (key % 64)))
        return crafter_yaml_fail(&r->yaml, key_node, "key '%s' is given twice in %s", text, what);
      seen[key / 64] |= 1ull << (key % 64);
    }
    if (callback(r, key, key_node, value, context) < 0) return -1;
  }
  return 0;
}

static int read_double(reader *r, const yaml_node_t *node, const char *what, double minimum,
                       double maximum, double *out) {
  const char *text = scalar_text(node);
  if (text && *text && !strchr(" \t\n", *text)) {
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    int hex = strchr(text, 'x') || strchr(text, 'X');
    if (*end == '\0' && !hex && isfinite(value) && value >= minimum && value <= maximum) {
      *out = value;
      return 0;
    }
  }
  if (minimum == -HUGE_VAL)
    return crafter_yaml_fail(&r->yaml, node, "%s: expected a number, got '%s'", what,
                             text ? text : "(not a scalar)");
  if (maximum == HUGE_VAL)
    return crafter_yaml_fail(&r->yaml, node, "%s: expected a number of at least %g, got '%s'", what,
                             minimum, text ? text : "(not a scalar)");
  return crafter_yaml_fail(&r->yaml, node, "%s: expected a number from %g to %g, got '%s'", what,
                           minimum, maximum, text ? text : "(not a scalar)");
}

static int read_integer(reader *r, const yaml_node_t *node, const char *what, long long minimum,
                        long long maximum, long long *out) {
  const char *text = scalar_text(node);
  if (text && *text && !strchr(" \t\n", *text)) {
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (*end == '\0' && errno == 0 && value >= minimum && value <= maximum) {
      *out = value;
      return 0;
    }
  }
  return crafter_yaml_fail(&r->yaml, node, "%s: expected an integer from %lld to %lld, got '%s'",
                           what, minimum, maximum, text ? text : "(not a scalar)");
}

static int read_int(reader *r, const yaml_node_t *node, const char *what, int minimum,
                    int maximum, int *out) {
  long long value;
  if (read_integer(r, node, what, minimum, maximum, &value) < 0) return -1;
  *out = (int)value;
  return 0;
}

static int read_bool(reader *r, const yaml_node_t *node, const char *what, int *out) {
  static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
  static const char *const no[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off",
                                   "OFF"};
  const char *text = scalar_text(node);
  if (text) {
    if (name_index(text, yes, 9) >= 0) return *out = 1, 0;
    if (name_index(text, no, 9) >= 0) return *out = 0, 0;
  }
  return crafter_yaml_fail(&r->yaml, node, "%s: expected true or false, got '%s'", what,
                           text ? text : "(not a scalar)");
}

/* The decimal 1 - text, written out exactly, so that a probability p gives
 * the threshold the reference writes as the literal 1 - p (0.15 gives
 * exactly the double 0.85, not 1 - 0.15 rounded).  -1 unless text is a
 * plain decimal in [0, 1]. */
static int decimal_complement(const char *text, double *out) {
  enum { MAX_DIGITS = 400 };
  char digits[MAX_DIGITS + 1];
  int count = 0, point = -1, exponent = 0, any = 0;
  const char *p = text;
  if (*p == '+') p++;
  for (; *p; p++) {
    if (*p >= '0' && *p <= '9') {
      any = 1;
      if (count == 0 && *p == '0') {
        if (point >= 0) exponent--; /* a leading zero after the point */
        continue;
      }
      if (count >= MAX_DIGITS) return -1;
      digits[count++] = *p;
      if (point >= 0) exponent--;
    } else if (*p == '.' && point < 0) {
      point = count;
    } else {
      break;
    }
  }
  if (!any) return -1;
  if (*p == 'e' || *p == 'E') {
    char *end;
    errno = 0;
    long shift = strtol(p + 1, &end, 10);
    if (*end || end == p + 1 || errno || shift > 1000 || shift < -1000) return -1;
    exponent += (int)shift;
    p = end;
  }
  if (*p) return -1;
  /* value = digits * 10^exponent */
  while (count > 0 && digits[count - 1] == '0') count--, exponent++;
  if (count == 0) {
    *out = 1.0;
    return 0;
  }
  if (exponent >= 0) {
    if (count == 1 && digits[0] == '1' && exponent == 0) {
      *out = 0.0;
      return 0;
    }
    return -1; /* more than 1 */
  }
  int fraction = -exponent;
  if (count > fraction) return -1; /* 1 or more; exactly 1 was handled */
  if (fraction > MAX_DIGITS) {
    *out = 1.0; /* 1 - (less than 10^-400) */
    return 0;
  }
  /* 10^fraction - value: the nines' complement of the padded digits, plus one. */
  char complement[MAX_DIGITS + 3];
  complement[0] = '0';
  complement[1] = '.';
  char *body = complement + 2;
  int pad = fraction - count;
  for (int i = 0; i < fraction; i++) body[i] = (char)('9' - (i < pad ? 0 : digits[i - pad] - '0'));
  body[fraction] = '\0';
  for (int i = fraction - 1; i >= 0; i--) {
    if (body[i] == '9') {
      body[i] = '0';
      continue;
    }
    body[i]++;
    break;
  }
  *out = strtod(complement, NULL);
  return 0;
}

/* A probability p written in the file, kept as the draw threshold 1 - p. */
static int read_draw(reader *r, const yaml_node_t *node, const char *what, double *out) {
  const char *text = scalar_text(node);
  double probability;
  if (read_double(r, node, what, 0, 1, &probability) < 0) return -1;
  if (decimal_complement(text, out) < 0) *out = 1 - probability;
  return 0;
}

static int read_name(reader *r, const yaml_node_t *node, const char *what, const char *const *names,
                     int count, int skip_first, int *out) {
  const char *text = scalar_text(node);
  int index = text ? name_index(text, names, count) : -1;
  if (index < skip_first) {
    char expected[600];
    join_names(names, count, skip_first, expected, sizeof(expected));
    return crafter_yaml_fail(&r->yaml, node, "%s: unknown name '%s' (expected one of: %s)", what,
                             text ? text : "(not a scalar)", expected);
  }
  *out = index;
  return 0;
}

static int read_material(reader *r, const yaml_node_t *node, const char *what, int *out) {
  return read_name(r, node, what, crafter_material_names, CRAFTER_MATERIAL_COUNT, 1, out);
}

static int read_material_set(reader *r, const yaml_node_t *node, const char *what,
                             crafter_material_set *out) {
  if (node->type != YAML_SEQUENCE_NODE)
    return crafter_yaml_fail(&r->yaml, node, "%s: expected a list of materials, like [grass, sand]",
                             what);
  crafter_material_set set = 0;
  for (yaml_node_item_t *item = node->data.sequence.items.start;
       item < node->data.sequence.items.top; item++) {
    int material;
    if (read_material(r, crafter_yaml_node(&r->yaml, *item), what, &material) < 0) return -1;
    set |= (crafter_material_set)BIT(material);
  }
  *out = set;
  return 0;
}

/* {item: amount, ...} into a list in the file's order. */
static int read_amounts(reader *r, const yaml_node_t *node, const char *what, int minimum,
                        crafter_item_amount *list, uint8_t *count) {
  if (is_null(node)) {
    memset(list, 0, sizeof(crafter_item_amount) * CRAFTER_ITEM_COUNT);
    *count = 0;
    return 0;
  }
  if (node->type != YAML_MAPPING_NODE)
    return crafter_yaml_fail(&r->yaml, node,
                             "%s: expected a mapping of items to amounts, like {wood: 1}", what);
  crafter_item_amount read[CRAFTER_ITEM_COUNT];
  memset(read, 0, sizeof(read));
  int used = 0;
  for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
       pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = crafter_yaml_node(&r->yaml, pair->key);
    int item;
    if (read_name(r, key, what, crafter_item_names, CRAFTER_ITEM_COUNT, 0, &item) < 0) return -1;
    for (int i = 0; i < used; i++)
      if (read[i].item == item)
        return crafter_yaml_fail(&r->yaml, key, "%s: item '%s' is given twice", what,
                                 crafter_item_names[item]);
    int amount;
    if (read_int(r, crafter_yaml_node(&r->yaml, pair->value), what, minimum, AMOUNT_LIMIT,
                 &amount) < 0)
      return -1;
    read[used].item = (uint8_t)item;
    read[used].amount = amount;
    used++;
  }
  memcpy(list, read, sizeof(read));
  *count = (uint8_t)used;
  return 0;
}

/* A pair [W, H] or a single N for N, N. */
static int read_pair(reader *r, const yaml_node_t *node, const char *what, int minimum,
                     int maximum, int out[2]) {
  if (node->type == YAML_SCALAR_NODE) {
    int value;
    if (read_int(r, node, what, minimum, maximum, &value) < 0) return -1;
    out[0] = out[1] = value;
    return 0;
  }
  if (node->type != YAML_SEQUENCE_NODE ||
      node->data.sequence.items.top - node->data.sequence.items.start != 2)
    return crafter_yaml_fail(&r->yaml, node, "%s: expected [width, height]", what);
  int values[2];
  for (int i = 0; i < 2; i++)
    if (read_int(r, crafter_yaml_node(&r->yaml, node->data.sequence.items.start[i]), what,
                 minimum, maximum, &values[i]) < 0)
      return -1;
  out[0] = values[0];
  out[1] = values[1];
  return 0;
}

/* ---- env: ---- */

static const char *const env_keys[] = {"area", "view", "size", "length", "reward", "seed"};

static int env_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                    void *context) {
  (void)key_node;
  (void)context;
  crafter_params *params = &r->config->params;
  long long number;
  switch (key) {
    case 0: return read_pair(r, value, "env.area", 1, 4096, params->area);
    case 1: return read_pair(r, value, "env.view", 1, 4096, params->view);
    case 2: return read_pair(r, value, "env.size", 1, 4096, params->size);
    case 3:
      if (is_null(value)) {
        params->length = 0;
        return 0;
      }
      if (read_integer(r, value, "env.length", 0, 1000000000, &number) < 0) return -1;
      params->length = (long)number;
      return 0;
    case 4: return read_bool(r, value, "env.reward", &params->reward);
    default:
      if (read_integer(r, value, "env.seed", INT64_MIN / 2, INT64_MAX / 2, &number) < 0)
        return -1;
      params->seed = number;
      return 0;
  }
}

/* ---- daylight: ---- */

static const char *const daylight_keys[] = {"length"};

static int daylight_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                         void *context) {
  (void)key, (void)key_node, (void)context;
  long long number;
  if (read_integer(r, value, "daylight.length", 0, 1000000000, &number) < 0) return -1;
  r->config->day_length = (long)number;
  return 0;
}

/* ---- worldgen: ---- */

enum value_kind { NUMBER, SIZE, DISTANCE, DRAW };

typedef struct worldgen_field {
  const char *feature, *key;
  size_t offset;
  int kind;
} worldgen_field;

#define WG(feature, key, field, kind) {feature, key, offsetof(crafter_worldgen_config, field), kind}
static const worldgen_field worldgen_fields[] = {
    WG("start", "radius", start_radius, NUMBER),
    WG("start", "threshold", start_threshold, NUMBER),
    WG("mountain", "threshold", mountain, NUMBER),
    WG("cave", "mountain", cave_mountain, NUMBER),
    WG("cave", "noise", cave_noise, NUMBER),
    WG("cave", "size", cave_size, SIZE),
    WG("tunnels", "noise", tunnel_noise, NUMBER),
    WG("coal", "noise", coal_noise, NUMBER),
    WG("coal", "size", coal_size, SIZE),
    WG("coal", "probability", coal_draw, DRAW),
    WG("iron", "noise", iron_noise, NUMBER),
    WG("iron", "size", iron_size, SIZE),
    WG("iron", "probability", iron_draw, DRAW),
    WG("diamond", "mountain", diamond_mountain, NUMBER),
    WG("diamond", "probability", diamond_draw, DRAW),
    WG("lava", "mountain", lava_mountain, NUMBER),
    WG("lava", "noise", lava_noise, NUMBER),
    WG("lava", "size", lava_size, SIZE),
    WG("sand", "water_min", sand_water_min, NUMBER),
    WG("sand", "water_max", sand_water_max, NUMBER),
    WG("sand", "noise", sand_noise, NUMBER),
    WG("sand", "size", sand_size, SIZE),
    WG("water", "threshold", water, NUMBER),
    WG("tree", "noise", tree_noise, NUMBER),
    WG("tree", "size", tree_size, SIZE),
    WG("tree", "probability", tree_draw, DRAW),
    WG("cow", "distance", cow_distance, DISTANCE),
    WG("cow", "probability", cow_draw, DRAW),
    WG("zombie", "distance", zombie_distance, DISTANCE),
    WG("zombie", "probability", zombie_draw, DRAW),
    WG("skeleton", "probability", skeleton_draw, DRAW),
};
#define WORLDGEN_FIELDS ((int)(sizeof(worldgen_fields) / sizeof(worldgen_fields[0])))

static const char *const worldgen_features[] = {
    "start", "mountain", "cave", "tunnels", "coal",  "iron",   "diamond",
    "lava",  "sand",     "water", "tree",   "cow",   "zombie", "skeleton"};
#define WORLDGEN_FEATURES ((int)(sizeof(worldgen_features) / sizeof(worldgen_features[0])))

typedef struct feature_keys {
  const char *names[8];
  int fields[8];
  int count;
} feature_keys;

static int feature_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                        void *context) {
  (void)key_node;
  const feature_keys *keys = context;
  const worldgen_field *field = &worldgen_fields[keys->fields[key]];
  char what[80];
  snprintf(what, sizeof(what), "worldgen.%s.%s", field->feature, field->key);
  double *out = (double *)(void *)((char *)&r->config->worldgen + field->offset);
  switch (field->kind) {
    case SIZE: {
      double size;
      if (read_double(r, value, what, 0, HUGE_VAL, &size) < 0) return -1;
      if (!(size > 0))
        return crafter_yaml_fail(&r->yaml, value, "%s: expected a size more than 0", what);
      *out = size;
      return 0;
    }
    case DISTANCE: return read_double(r, value, what, 0, HUGE_VAL, out);
    case DRAW: return read_draw(r, value, what, out);
    default: return read_double(r, value, what, -HUGE_VAL, HUGE_VAL, out);
  }
}

static int worldgen_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                         void *context) {
  (void)key_node;
  (void)context;
  feature_keys keys = {{0}, {0}, 0};
  for (int i = 0; i < WORLDGEN_FIELDS; i++)
    if (strcmp(worldgen_fields[i].feature, worldgen_features[key]) == 0) {
      keys.names[keys.count] = worldgen_fields[i].key;
      keys.fields[keys.count++] = i;
    }
  char what[64];
  snprintf(what, sizeof(what), "worldgen.%s", worldgen_features[key]);
  return each_pair(r, value, what, keys.names, keys.count, feature_pair, &keys);
}

/* ---- balance: ---- */

static const char *const balance_keys[] = {"interval", "chunk", "zombie", "skeleton", "cow"};
static const char *const balance_rule_keys[] = {
    "material", "spawn_distance", "despawn_distance", "spawn_probability",
    "despawn_probability", "min_space", "min", "max"};
static const char *const target_keys[] = {"base", "daylight"};

typedef struct rule_context {
  int index;
  const char *name;
  double *pair; /* for targets */
} rule_context;

static int target_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                       void *context) {
  (void)key_node;
  rule_context *rule = context;
  char what[80];
  snprintf(what, sizeof(what), "%s.%s", rule->name, target_keys[key]);
  return read_double(r, value, what, -1e9, 1e9, &rule->pair[key]);
}

static int balance_rule_pair(reader *r, int key, const yaml_node_t *key_node,
                             yaml_node_t *value, void *context) {
  (void)key_node;
  rule_context *rule = context;
  crafter_balance_rule *out = &r->config->balance[rule->index];
  char what[80];
  snprintf(what, sizeof(what), "balance.%s.%s", rule->name, balance_rule_keys[key]);
  int material;
  switch (key) {
    case 0:
      if (read_material(r, value, what, &material) < 0) return -1;
      out->material = (uint8_t)material;
      return 0;
    case 1: return read_int(r, value, what, 0, 1000000, &out->spawn_distance);
    case 2: return read_int(r, value, what, 0, 1000000, &out->despawn_distance);
    case 3: return read_double(r, value, what, 0, 1, &out->spawn_probability);
    case 4: return read_double(r, value, what, 0, 1, &out->despawn_probability);
    case 5: return read_int(r, value, what, 0, 1000000, &out->min_space);
    default: {
      double pair[2] = {key == 6 ? out->min_base : out->max_base,
                        key == 6 ? out->min_daylight : out->max_daylight};
      rule_context target = {rule->index, what, pair};
      if (each_pair(r, value, what, target_keys, 2, target_pair, &target) < 0) return -1;
      if (key == 6) {
        out->min_base = pair[0];
        out->min_daylight = pair[1];
      } else {
        out->max_base = pair[0];
        out->max_daylight = pair[1];
      }
      return 0;
    }
  }
}

static int balance_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                        void *context) {
  (void)key_node;
  (void)context;
  if (key == 0) return read_int(r, value, "balance.interval", 0, 1000000000, &r->config->balance_interval);
  if (key == 1) return read_pair(r, value, "balance.chunk", 1, CHUNK_LIMIT, r->config->chunk);
  static const int order[3] = {CRAFTER_BALANCE_ZOMBIE, CRAFTER_BALANCE_SKELETON,
                               CRAFTER_BALANCE_COW};
  rule_context rule = {order[key - 2], balance_keys[key], NULL};
  char what[40];
  snprintf(what, sizeof(what), "balance.%s", balance_keys[key]);
  return each_pair(r, value, what, balance_rule_keys, 8, balance_rule_pair, &rule);
}

/* ---- items: ---- */

static const char *const item_keys[] = {"max", "initial"};

static int item_field(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                      void *context) {
  (void)key_node;
  crafter_item_rule *item = context;
  char what[40];
  snprintf(what, sizeof(what), "items: %s", item_keys[key]);
  return read_int(r, value, what, 0, ITEM_LIMIT, key == 0 ? &item->max : &item->initial);
}

static int items_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                      void *context) {
  (void)context;
  crafter_item_rule item = r->config->items[key];
  char what[64];
  snprintf(what, sizeof(what), "items.%s", crafter_item_names[key]);
  if (each_pair(r, value, what, item_keys, 2, item_field, &item) < 0) return -1;
  if (item.initial > item.max)
    return crafter_yaml_fail(&r->yaml, key_node,
                             "items.%s: the initial count %d is more than the max %d",
                             crafter_item_names[key], item.initial, item.max);
  r->config->items[key] = item;
  return 0;
}

/* ---- collect: ---- */

static const char *const collect_keys[] = {"require", "receive", "leaves", "probability"};

static int collect_field(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                         void *context) {
  (void)key_node;
  crafter_collect_rule *rule = context;
  int material;
  switch (key) {
    case 0: return read_amounts(r, value, "collect: require", 0, rule->require, &rule->require_count);
    case 1: return read_amounts(r, value, "collect: receive", 0, rule->receive, &rule->receive_count);
    case 2:
      if (read_material(r, value, "collect: leaves", &material) < 0) return -1;
      rule->leaves = (uint8_t)material;
      return 0;
    default: return read_double(r, value, "collect: probability", 0, 1, &rule->probability);
  }
}

static int collect_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                        void *context) {
  (void)key_node;
  (void)context;
  crafter_collect_rule *out = &r->config->collect[key];
  if (is_null(value)) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  crafter_collect_rule rule = *out;
  if (!rule.present) {
    memset(&rule, 0, sizeof(rule));
    rule.present = 1;
    rule.leaves = (uint8_t)key;
    rule.probability = 1;
  }
  char what[64];
  snprintf(what, sizeof(what), "collect.%s", crafter_material_names[key]);
  if (each_pair(r, value, what, collect_keys, 4, collect_field, &rule) < 0) return -1;
  *out = rule;
  return 0;
}

/* ---- place: and make: ---- */

static const char *const place_names[] = {"stone", "table", "furnace", "plant"};
static const char *const place_keys[] = {"uses", "where", "type"};
static const char *const make_names[] = {"wood_pickaxe", "stone_pickaxe", "iron_pickaxe",
                                         "wood_sword",   "stone_sword",   "iron_sword"};
static const char *const make_keys[] = {"uses", "nearby", "gives"};

typedef struct place_context {
  crafter_place_rule rule;
  int index;
} place_context;

static int place_field(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                       void *context) {
  (void)key_node;
  place_context *place = context;
  if (key == 0)
    return read_amounts(r, value, "place: uses", 0, place->rule.uses, &place->rule.use_count);
  if (key == 1) return read_material_set(r, value, "place: where", &place->rule.where);
  const char *fixed = place->index == 3 ? "object" : "material";
  const char *text = scalar_text(value);
  if (!text || strcmp(text, fixed) != 0)
    return crafter_yaml_fail(&r->yaml, value, "place.%s.type: the type is fixed; expected '%s'",
                             place_names[place->index], fixed);
  return 0;
}

static int place_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                      void *context) {
  (void)key_node;
  (void)context;
  crafter_place_rule *out = &r->config->place[key];
  if (is_null(value)) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  place_context place = {*out, key};
  place.rule.present = 1;
  char what[64];
  snprintf(what, sizeof(what), "place.%s", place_names[key]);
  if (each_pair(r, value, what, place_keys, 3, place_field, &place) < 0) return -1;
  *out = place.rule;
  return 0;
}

static int make_field(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                      void *context) {
  (void)key_node;
  crafter_make_rule *rule = context;
  if (key == 0) return read_amounts(r, value, "make: uses", 0, rule->uses, &rule->use_count);
  if (key == 1) return read_material_set(r, value, "make: nearby", &rule->nearby);
  return read_int(r, value, "make: gives", 0, AMOUNT_LIMIT, &rule->gives);
}

static int make_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                     void *context) {
  (void)key_node;
  (void)context;
  crafter_make_rule *out = &r->config->make[key];
  if (is_null(value)) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  crafter_make_rule rule = *out;
  rule.present = 1;
  char what[64];
  snprintf(what, sizeof(what), "make.%s", make_names[key]);
  if (each_pair(r, value, what, make_keys, 3, make_field, &rule) < 0) return -1;
  *out = rule;
  return 0;
}

/* ---- reward: ---- */

static const char *const reward_keys[] = {"health", "combine", "achievements"};

static int achievement_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                            void *context) {
  (void)key_node;
  (void)context;
  char what[64];
  snprintf(what, sizeof(what), "reward.achievements.%s", crafter_achievement_names[key]);
  return read_double(r, value, what, -1e9, 1e9, &r->config->reward.achievements[key]);
}

static int reward_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                       void *context) {
  (void)key_node;
  (void)context;
  crafter_reward_config *reward = &r->config->reward;
  if (key == 0) {
    double health;
    if (read_double(r, value, "reward.health", -1e9, 1e9, &health) < 0) return -1;
    /* Kept as a divisor: 0.1 gives 1 / 0.1 == 10 exactly, so the reward
     * is the reference's change / 10 to the last bit. */
    reward->health_divisor = health == 0 ? 0 : 1 / health;
    return 0;
  }
  if (key == 1) {
    const char *text = scalar_text(value);
    if (text && strcmp(text, "max") == 0)
      reward->combine = CRAFTER_COMBINE_MAX;
    else if (text && strcmp(text, "sum") == 0)
      reward->combine = CRAFTER_COMBINE_SUM;
    else
      return crafter_yaml_fail(&r->yaml, value, "reward.combine: expected max or sum, got '%s'",
                               text ? text : "(not a scalar)");
    return 0;
  }
  return each_pair(r, value, "reward.achievements", crafter_achievement_names,
                   CRAFTER_ACHIEVEMENT_COUNT, achievement_pair, NULL);
}

/* ---- player:, cow:, zombie:, skeleton:, arrow:, plant: (objects.py) ---- */

enum object_value { REAL, COUNT, CHANCE };

typedef struct object_field {
  const char *path; /* section.key or section.group.key */
  size_t offset;
  int kind;
} object_field;

#define OBJECT(path, member, kind) {path, offsetof(crafter_config, member), kind}
static const object_field object_fields[] = {
    OBJECT("player.hunger.rate", player.hunger.rate, REAL),
    OBJECT("player.hunger.sleeping", player.hunger.sleeping, REAL),
    OBJECT("player.hunger.limit", player.hunger.limit, REAL),
    OBJECT("player.hunger.amount", player.hunger.amount, COUNT),
    OBJECT("player.thirst.rate", player.thirst.rate, REAL),
    OBJECT("player.thirst.sleeping", player.thirst.sleeping, REAL),
    OBJECT("player.thirst.limit", player.thirst.limit, REAL),
    OBJECT("player.thirst.amount", player.thirst.amount, COUNT),
    OBJECT("player.fatigue.rate", player.fatigue.rate, REAL),
    OBJECT("player.fatigue.sleeping", player.fatigue.sleeping, REAL),
    OBJECT("player.fatigue.tired", player.fatigue.tired, REAL),
    OBJECT("player.fatigue.rested", player.fatigue.rested, REAL),
    OBJECT("player.fatigue.amount", player.fatigue.amount, COUNT),
    OBJECT("player.recover.rate", player.recover.rate, REAL),
    OBJECT("player.recover.sleeping", player.recover.sleeping, REAL),
    OBJECT("player.recover.decay", player.recover.decay, REAL),
    OBJECT("player.recover.decay_sleeping", player.recover.decay_sleeping, REAL),
    OBJECT("player.recover.heal", player.recover.heal, REAL),
    OBJECT("player.recover.hurt", player.recover.hurt, REAL),
    OBJECT("player.recover.amount", player.recover.amount, COUNT),
    OBJECT("player.damage.none", player.damage_none, COUNT),
    OBJECT("player.damage.wood_sword", player.damage_wood_sword, COUNT),
    OBJECT("player.damage.stone_sword", player.damage_stone_sword, COUNT),
    OBJECT("player.damage.iron_sword", player.damage_iron_sword, COUNT),
    OBJECT("cow.health", cow.health, COUNT),
    OBJECT("cow.move", cow.move, CHANCE),
    OBJECT("cow.food", cow.food, COUNT),
    OBJECT("zombie.health", zombie.health, COUNT),
    OBJECT("zombie.chase.distance", zombie.chase_distance, COUNT),
    OBJECT("zombie.chase.probability", zombie.chase_probability, CHANCE),
    OBJECT("zombie.chase.long_axis", zombie.long_axis, CHANCE),
    OBJECT("zombie.attack.distance", zombie.attack_distance, COUNT),
    OBJECT("zombie.attack.damage", zombie.damage, COUNT),
    OBJECT("zombie.attack.sleeping", zombie.damage_sleeping, COUNT),
    OBJECT("zombie.attack.cooldown", zombie.cooldown, COUNT),
    OBJECT("skeleton.health", skeleton.health, COUNT),
    OBJECT("skeleton.flee.distance", skeleton.flee_distance, COUNT),
    OBJECT("skeleton.flee.long_axis", skeleton.flee_long_axis, CHANCE),
    OBJECT("skeleton.shoot.distance", skeleton.shoot_distance, COUNT),
    OBJECT("skeleton.shoot.probability", skeleton.shoot_probability, CHANCE),
    OBJECT("skeleton.shoot.reload", skeleton.reload, COUNT),
    OBJECT("skeleton.chase.distance", skeleton.chase_distance, COUNT),
    OBJECT("skeleton.chase.probability", skeleton.chase_probability, CHANCE),
    OBJECT("skeleton.chase.long_axis", skeleton.chase_long_axis, CHANCE),
    OBJECT("skeleton.wander", skeleton.wander, CHANCE),
    OBJECT("arrow.damage", arrow.damage, COUNT),
    OBJECT("plant.health", plant.health, COUNT),
    OBJECT("plant.ripe", plant.ripe, COUNT),
    OBJECT("plant.food", plant.food, COUNT),
    OBJECT("plant.damage", plant.damage, COUNT),
};
#define OBJECT_FIELDS ((int)(sizeof(object_fields) / sizeof(object_fields[0])))
#define OBJECT_LIMIT 1000000

static int check_objects(const crafter_config *config, char *error, size_t error_size) {
  for (int i = 0; i < OBJECT_FIELDS; i++) {
    const object_field *field = &object_fields[i];
    const char *at = (const char *)config + field->offset;
    int good;
    if (field->kind == COUNT) {
      int32_t value = *(const int32_t *)(const void *)at;
      good = value >= 0 && value <= OBJECT_LIMIT;
    } else {
      double value = *(const double *)(const void *)at;
      good = field->kind == CHANCE ? value >= 0 && value <= 1
                                   : value >= -OBJECT_LIMIT && value <= OBJECT_LIMIT;
    }
    if (!good) {
      snprintf(error, error_size, "%s is out of range (%s)", field->path,
               field->kind == COUNT    ? "an integer from 0 to 1000000"
               : field->kind == CHANCE ? "a probability from 0 to 1"
                                       : "a number from -1000000 to 1000000");
      return -1;
    }
  }
  return 0;
}

/* The keys one level below `prefix` in the table, in table order. */
typedef struct object_keys {
  const char *prefix;
  char names[16][24];
  const char *list[16];
  int count;
} object_keys;

static int object_section(reader *r, const yaml_node_t *node, const char *prefix);

static int object_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                       void *context) {
  (void)key_node;
  const object_keys *keys = context;
  char path[80];
  snprintf(path, sizeof(path), "%s.%s", keys->prefix, keys->list[key]);
  for (int i = 0; i < OBJECT_FIELDS; i++) {
    const object_field *field = &object_fields[i];
    if (strcmp(field->path, path) != 0) continue;
    char *out = (char *)r->config + field->offset;
    if (field->kind == COUNT) {
      long long number;
      if (read_integer(r, value, path, 0, OBJECT_LIMIT, &number) < 0) return -1;
      *(int32_t *)(void *)out = (int32_t)number;
      return 0;
    }
    double minimum = field->kind == CHANCE ? 0 : -OBJECT_LIMIT;
    double maximum = field->kind == CHANCE ? 1 : OBJECT_LIMIT;
    return read_double(r, value, path, minimum, maximum, (double *)(void *)out);
  }
  return object_section(r, value, path);
}

static int object_section(reader *r, const yaml_node_t *node, const char *prefix) {
  object_keys keys = {.prefix = prefix, .count = 0};
  size_t length = strlen(prefix);
  for (int i = 0; i < OBJECT_FIELDS; i++) {
    const char *path = object_fields[i].path;
    if (strncmp(path, prefix, length) != 0 || path[length] != '.') continue;
    const char *name = path + length + 1;
    size_t size = strcspn(name, ".");
    int known = 0;
    for (int k = 0; k < keys.count; k++)
      known |= strlen(keys.names[k]) == size && strncmp(keys.names[k], name, size) == 0;
    if (known || keys.count == 16 || size >= sizeof(keys.names[0])) continue;
    memcpy(keys.names[keys.count], name, size);
    keys.names[keys.count][size] = '\0';
    keys.list[keys.count] = keys.names[keys.count];
    keys.count++;
  }
  return each_pair(r, node, prefix, keys.list, keys.count, object_pair, &keys);
}

/* ---- players: (games of several players) ---- */

static const char *const players_keys[] = {"damage", "reward"};

static int players_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                        void *context) {
  (void)key_node;
  (void)context;
  crafter_team_rules *team = &r->config->team;
  if (key == 0) {
    long long number;
    if (read_integer(r, value, "players.damage", 0, OBJECT_LIMIT, &number) < 0) return -1;
    team->damage = (int32_t)number;
    return 0;
  }
  const char *text = scalar_text(value);
  if (text && strcmp(text, "individual") == 0)
    team->shared = 0;
  else if (text && strcmp(text, "shared") == 0)
    team->shared = 1;
  else
    return crafter_yaml_fail(&r->yaml, value,
                             "players.reward: expected individual or shared, got '%s'",
                             text ? text : "(not a scalar)");
  return 0;
}

/* ---- the top level ---- */

static const char *const top_keys[] = {
    "version", "env",     "daylight",  "worldgen", "balance", "walkable", "items",
    "collect", "place",   "make",      "reward",   "actions", "materials", "achievements",
    "player",  "cow",     "zombie",    "skeleton", "arrow",   "plant",   "players"};
#define TOP_KEYS ((int)(sizeof(top_keys) / sizeof(top_keys[0])))

/* data.yaml's fixed lists may be present when they are Crafter's own. */
static int fixed_list(reader *r, const yaml_node_t *node, const char *what,
                      const char *const *names, int count) {
  if (node->type != YAML_SEQUENCE_NODE ||
      node->data.sequence.items.top - node->data.sequence.items.start != count)
    return crafter_yaml_fail(&r->yaml, node, "%s are fixed; the list must be Crafter's %d %s", what,
                             count, what);
  for (int i = 0; i < count; i++) {
    yaml_node_t *item = crafter_yaml_node(&r->yaml, node->data.sequence.items.start[i]);
    const char *text = scalar_text(item);
    if (!text || strcmp(text, names[i]) != 0)
      return crafter_yaml_fail(&r->yaml, item, "%s are fixed; expected '%s' here", what, names[i]);
  }
  return 0;
}

static int top_pair(reader *r, int key, const yaml_node_t *key_node, yaml_node_t *value,
                    void *context) {
  (void)key_node;
  (void)context;
  int version;
  switch (key) {
    case 0:
      if (read_int(r, value, "version", 1, 1000, &version) < 0) return -1;
      if (version != 1)
        return crafter_yaml_fail(&r->yaml, value,
                                 "version %d is not known (this reader knows version 1)", version);
      return 0;
    case 1: return each_pair(r, value, "env", env_keys, 6, env_pair, NULL);
    case 2: return each_pair(r, value, "daylight", daylight_keys, 1, daylight_pair, NULL);
    case 3:
      return each_pair(r, value, "worldgen", worldgen_features, WORLDGEN_FEATURES,
                       worldgen_pair, NULL);
    case 4: return each_pair(r, value, "balance", balance_keys, 5, balance_pair, NULL);
    case 5: return read_material_set(r, value, "walkable", &r->config->walkable);
    case 6:
      return each_pair(r, value, "items", crafter_item_names, CRAFTER_ITEM_COUNT, items_pair,
                       NULL);
    case 7: {
      /* Keys are materials; "none" is not one a player can face. */
      if (is_null(value)) return 0;
      if (expect_mapping(r, value, "collect") < 0) return -1;
      for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
           pair < value->data.mapping.pairs.top; pair++) {
        yaml_node_t *name = crafter_yaml_node(&r->yaml, pair->key);
        const char *text = scalar_text(name);
        if (text && strcmp(text, "none") == 0)
          return crafter_yaml_fail(&r->yaml, name, "collect: 'none' cannot be collected");
      }
      return each_pair(r, value, "collect", crafter_material_names, CRAFTER_MATERIAL_COUNT,
                       collect_pair, NULL);
    }
    case 8: return each_pair(r, value, "place", place_names, 4, place_pair, NULL);
    case 9: return each_pair(r, value, "make", make_names, 6, make_pair, NULL);
    case 10: return each_pair(r, value, "reward", reward_keys, 3, reward_pair, NULL);
    case 11:
      return fixed_list(r, value, "actions", crafter_action_names, CRAFTER_ACTION_COUNT);
    case 12:
      return fixed_list(r, value, "materials", crafter_material_names + 1,
                        CRAFTER_MATERIAL_COUNT - 1);
    case 13:
      return fixed_list(r, value, "achievements", crafter_achievement_names,
                        CRAFTER_ACHIEVEMENT_COUNT);
    case 20: return each_pair(r, value, "players", players_keys, 2, players_pair, NULL);
    default: return object_section(r, value, top_keys[key]);
  }
}

static int load_parser(yaml_parser_t *parser, const char *name, crafter_config *config,
                       char *error, size_t error_size) {
  yaml_document_t document;
  reader r = {{&document, name, error, error_size}, NULL};
  if (!yaml_parser_load(parser, &document))
    return crafter_yaml_syntax_error(parser, name, error, error_size);
  crafter_config work = *config;
  r.config = &work;
  int status = 0;
  yaml_node_t *root = yaml_document_get_root_node(&document);
  if (root && !is_null(root))
    status = each_pair(&r, root, "the top level", top_keys, TOP_KEYS, top_pair, NULL);
  if (status == 0 && root) {
    yaml_document_t next;
    if (yaml_parser_load(parser, &next)) {
      if (yaml_document_get_root_node(&next))
        status = crafter_yaml_fail(&r.yaml, NULL,
                                   "holds more than one YAML document; expected one");
      yaml_document_delete(&next);
    } else {
      status = crafter_yaml_syntax_error(parser, name, error, error_size);
    }
  }
  if (status == 0) {
    char reason[300];
    if (crafter_config_check(&work, reason, sizeof(reason)) < 0)
      status = crafter_yaml_fail(&r.yaml, NULL, "%s", reason);
  }
  yaml_document_delete(&document);
  if (status == 0) *config = work;
  return status;
}

int crafter_config_load_string(const char *text, size_t length, const char *name,
                               crafter_config *config, char *error, size_t error_size) {
  if (length > CRAFTER_CONFIG_MAX_BYTES) {
    snprintf(error, error_size, "%s: larger than %d bytes; a configuration is a few kilobytes",
             name, CRAFTER_CONFIG_MAX_BYTES);
    return -1;
  }
  if (crafter_yaml_check_depth(text, length, name, CRAFTER_CONFIG_MAX_DEPTH,
                               "a configuration is at most a few levels deep (crafter-config(5))",
                               error, error_size) < 0)
    return -1;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
  int status = load_parser(&parser, name, config, error, error_size);
  yaml_parser_delete(&parser);
  return status;
}

int crafter_config_load_text(const char *path, crafter_config *config, char **text,
                             size_t *length, char *error, size_t error_size) {
  *text = NULL;
  *length = 0;
  char *read;
  size_t bytes;
  if (crafter_yaml_read_file(path, CRAFTER_CONFIG_MAX_BYTES, "a configuration is a few kilobytes",
                             &read, &bytes, error, error_size) < 0)
    return -1;
  if (crafter_config_load_string(read, bytes, path, config, error, error_size) < 0) {
    free(read);
    return -1;
  }
  *text = read;
  *length = bytes;
  return 0;
}

int crafter_config_load(const char *path, crafter_config *config, char *error,
                        size_t error_size) {
  char *text;
  size_t length;
  if (crafter_config_load_text(path, config, &text, &length, error, error_size) < 0) return -1;
  free(text);
  return 0;
}

void crafter_params_take_unset(crafter_params *params, const crafter_params *file,
                               unsigned given) {
  if (!(given & CRAFTER_GIVEN_SEED)) params->seed = file->seed;
  if (!(given & CRAFTER_GIVEN_AREA)) memcpy(params->area, file->area, sizeof(params->area));
  if (!(given & CRAFTER_GIVEN_VIEW)) memcpy(params->view, file->view, sizeof(params->view));
  if (!(given & CRAFTER_GIVEN_SIZE)) memcpy(params->size, file->size, sizeof(params->size));
  if (!(given & CRAFTER_GIVEN_LENGTH)) params->length = file->length;
  if (!(given & CRAFTER_GIVEN_REWARD)) params->reward = file->reward;
}

uint32_t crafter_config_crc(const crafter_config *config) {
  /* Every configuration starts as a byte copy of the built-in one
   * (crafter_config_default), so its padding is the built-in's zeros. */
  crafter_config copy;
  memcpy(&copy, config ? config : &crafter_config_builtin, sizeof(copy));
  memset(&copy.params, 0, sizeof(copy.params));
  /* The players' rules count only when they are not Crafter's. */
  static const crafter_team_rules crafter_team = {0, 0};
  if (memcmp(&copy.team, &crafter_team, sizeof(crafter_team)) == 0)
    return crafter_crc32(&copy, offsetof(crafter_config, team));
  return crafter_crc32(&copy, sizeof(copy));
}

/* ---- a program's configuration (crafter/crafter.h) ---- */

/* What crafter_config_new hands out: the configuration first, so that a
 * pointer to it is a pointer to the whole, and the bytes of its file. */
typedef struct config_file {
  crafter_config config;
  char *text;
  size_t bytes;
} config_file;

crafter_config *crafter_config_new(const char *path, char *error, size_t error_size) {
  config_file *file = calloc(1, sizeof(*file));
  if (!file) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  crafter_config_default(&file->config);
  if (path && crafter_config_load_text(path, &file->config, &file->text, &file->bytes, error,
                                       error_size) < 0) {
    free(file);
    return NULL;
  }
  return &file->config;
}

void crafter_config_free(crafter_config *config) {
  if (!config) return;
  config_file *file = (config_file *)config;
  free(file->text);
  free(file);
}

void crafter_config_params(const crafter_config *config, crafter_params *params) {
  *params = config->params;
}

const char *crafter_config_text(const crafter_config *config, size_t *bytes) {
  const config_file *file = (const config_file *)config;
  *bytes = file->bytes;
  return file->text;
}
