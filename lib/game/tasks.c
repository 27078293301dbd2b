#include "game/tasks.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/yamlfile.h"
#include "game/game.h"

const char *const crafter_task_family_names[CRAFTER_TASK_FAMILY_COUNT] = {
    "achievements", "localization", "conditional", "line",
    "square",       "cross",        "timed",       "explore"};
const char *const crafter_task_split_names[CRAFTER_SPLIT_COUNT] = {"train", "test-paraphrase",
                                                                   "test-new-objects"};
const char *const crafter_task_difficulty_names[CRAFTER_DIFFICULTY_COUNT] = {"easy", "medium",
                                                                            "hard"};

#define NEAR_RADIUS CRAFTER_TASK_NEAR_RADIUS
#define SHAPE_RADIUS CRAFTER_TASK_SHAPE_RADIUS
#define MIN_PARAPHRASES 5

/* ---- reading ---- */

typedef crafter_yaml_reader reader;

static const char *scalar(const yaml_node_t *node) {
  return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

static int name_index(const char *text, const char *const *names, int count) {
  for (int i = 0; text && i < count; i++)
    if (strcmp(text, names[i]) == 0) return i;
  return -1;
}

static void join(const char *const *names, int count, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < count && used + 1 < size; i++) {
    int wrote = snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
    if (wrote < 0) break;
    used += (size_t)wrote;
  }
}

static int read_name(reader *r, const yaml_node_t *node, const char *what,
                     const char *const *names, int count, int *out) {
  const char *text = scalar(node);
  int index = name_index(text, names, count);
  if (index < 0) {
    char expected[600];
    join(names, count, expected, sizeof(expected));
    return crafter_yaml_fail(r, node, "%s: expected one of %s, got '%s'", what, expected,
                             text ? text : "(not a scalar)");
  }
  *out = index;
  return 0;
}

static int read_int(reader *r, const yaml_node_t *node, const char *what, long minimum,
                    long maximum, long *out) {
  const char *text = scalar(node);
  if (text && *text && !isspace((unsigned char)*text)) {
    char *end;
    long value = strtol(text, &end, 10);
    if (*end == '\0' && value >= minimum && value <= maximum) {
      *out = value;
      return 0;
    }
  }
  return crafter_yaml_fail(r, node, "%s: expected an integer from %ld to %ld, got '%s'", what,
                           minimum, maximum, text ? text : "(not a scalar)");
}

static int read_number(reader *r, const yaml_node_t *node, const char *what, double minimum,
                       double maximum, double *out) {
  const char *text = scalar(node);
  if (text && *text && !isspace((unsigned char)*text) && !strpbrk(text, "xX")) {
    char *end;
    double value = strtod(text, &end);
    if (*end == '\0' && isfinite(value) && value >= minimum && value <= maximum) {
      *out = value;
      return 0;
    }
  }
  return crafter_yaml_fail(r, node, "%s: expected a number from %g to %g, got '%s'", what, minimum,
                           maximum, text ? text : "(not a scalar)");
}

static int read_bool(reader *r, const yaml_node_t *node, const char *what, int *out) {
  static const char *const truth[] = {"false", "true"};
  return read_name(r, node, what, truth, 2, out);
}

/* A sentence: printable text of at most CRAFTER_TASK_TEXT_MAX - 1 bytes
 * (UTF-8 beyond ASCII is taken as it is), no control characters. */
static int read_text(reader *r, const yaml_node_t *node, const char *what, char *out) {
  const char *text = scalar(node);
  if (!text || !*text) return crafter_yaml_fail(r, node, "%s: expected a sentence", what);
  size_t length = strlen(text);
  if (length >= CRAFTER_TASK_TEXT_MAX)
    return crafter_yaml_fail(r, node, "%s: longer than %d bytes", what, CRAFTER_TASK_TEXT_MAX - 1);
  for (size_t i = 0; i < length; i++)
    if ((unsigned char)text[i] < 32 || text[i] == 127)
      return crafter_yaml_fail(r, node, "%s: holds a control character; a sentence is one line",
                               what);
  memcpy(out, text, length + 1);
  return 0;
}

/* A material or an object kind, by name ("none" and "player" are not). */
static int read_thing(reader *r, const yaml_node_t *node, const char *what, crafter_thing *out) {
  const char *text = scalar(node);
  int material = name_index(text, crafter_material_names, CRAFTER_MATERIAL_COUNT);
  int kind = name_index(text, crafter_object_kind_names, CRAFTER_OBJECT_KIND_COUNT);
  if (material > CRAFTER_NONE) {
    *out = (crafter_thing){0, (uint8_t)material};
    return 0;
  }
  if (kind > CRAFTER_PLAYER) {
    *out = (crafter_thing){1, (uint8_t)kind};
    return 0;
  }
  char materials[400], kinds[200];
  join(crafter_material_names + 1, CRAFTER_MATERIAL_COUNT - 1, materials, sizeof(materials));
  join(crafter_object_kind_names + 1, CRAFTER_OBJECT_KIND_COUNT - 1, kinds, sizeof(kinds));
  return crafter_yaml_fail(r, node,
                           "%s: expected a material (%s) or a creature or plant (%s), got '%s'",
                           what, materials, kinds, text ? text : "(not a scalar)");
}

/* What the agent can place: stone, table, furnace, plant. */
static int read_block(reader *r, const yaml_node_t *node, const char *what, crafter_thing *out) {
  static const char *const blocks[] = {"stone", "table", "furnace", "plant"};
  int index;
  if (read_name(r, node, what, blocks, 4, &index) < 0) return -1;
  return read_thing(r, node, what, out);
}

static int read_achievements(reader *r, const yaml_node_t *node, const char *what,
                             uint32_t *out) {
  if (node->type != YAML_SEQUENCE_NODE)
    return crafter_yaml_fail(r, node, "%s: expected a list of achievements", what);
  *out = 0;
  for (yaml_node_item_t *item = node->data.sequence.items.start;
       item < node->data.sequence.items.top; item++) {
    int achievement;
    if (read_name(r, crafter_yaml_node(r, *item), what, crafter_achievement_names,
                  CRAFTER_ACHIEVEMENT_COUNT, &achievement) < 0)
      return -1;
    *out |= 1u << achievement;
  }
  return 0;
}

/* The keys a family's check takes; `needed` are the ones it must have. */
typedef struct family_keys {
  const char *names[6];
  int count;
  unsigned needed; /* bit i: names[i] */
} family_keys;

static const family_keys check_keys[CRAFTER_TASK_FAMILY_COUNT] = {
    [CRAFTER_TASK_ACHIEVEMENTS] = {{"unlock", "avoid"}, 2, 1},
    [CRAFTER_TASK_LOCALIZATION] = {{"object", "target", "side", "distance", "placed"}, 5, 15},
    [CRAFTER_TASK_CONDITIONAL] = {{"item", "threshold", "object", "count"}, 4, 15},
    [CRAFTER_TASK_LINE] = {{"block", "length", "diagonal"}, 3, 3},
    [CRAFTER_TASK_SQUARE] = {{"block", "size"}, 2, 3},
    [CRAFTER_TASK_CROSS] = {{"block", "length", "diagonal"}, 3, 3},
    [CRAFTER_TASK_TIMED] = {{"block", "radius", "daylight"}, 3, 7},
    [CRAFTER_TASK_EXPLORE] = {{"target", "distance"}, 2, 3},
};

static int read_check_value(reader *r, int family, const char *key, const yaml_node_t *value,
                            crafter_task_check *c) {
  static const char *const sides[] = {"left", "right", "up", "down"};
  char what[80];
  snprintf(what, sizeof(what), "check.%s", key);
  long number;
  if (strcmp(key, "unlock") == 0) return read_achievements(r, value, what, &c->unlock);
  if (strcmp(key, "avoid") == 0) return read_achievements(r, value, what, &c->avoid);
  if (strcmp(key, "object") == 0) return read_thing(r, value, what, &c->object);
  if (strcmp(key, "target") == 0) return read_thing(r, value, what, &c->target);
  if (strcmp(key, "block") == 0) return read_block(r, value, what, &c->object);
  if (strcmp(key, "side") == 0) return read_name(r, value, what, sides, 4, &c->side);
  if (strcmp(key, "placed") == 0) return read_bool(r, value, what, &c->placed);
  if (strcmp(key, "diagonal") == 0) return read_bool(r, value, what, &c->diagonal);
  if (strcmp(key, "item") == 0)
    return read_name(r, value, what, crafter_item_names, CRAFTER_ITEM_COUNT, &c->item);
  if (strcmp(key, "daylight") == 0) {
    if (value->type != YAML_SEQUENCE_NODE ||
        value->data.sequence.items.top - value->data.sequence.items.start != 2)
      return crafter_yaml_fail(r, value,
                               "%s: expected [low, high], daylight from 0 (night) to 1 (day)",
                               what);
    for (int i = 0; i < 2; i++)
      if (read_number(r, crafter_yaml_node(r, value->data.sequence.items.start[i]), what, 0, 1,
                      &c->daylight[i]) < 0)
        return -1;
    if (c->daylight[0] > c->daylight[1])
      return crafter_yaml_fail(r, value, "%s: the low end is above the high end", what);
    return 0;
  }
  /* The integers, with the ranges the windows allow. */
  long low = 1, high = 1;
  int *out = NULL;
  if (strcmp(key, "distance") == 0) {
    out = &c->distance;
    low = family == CRAFTER_TASK_EXPLORE ? 0 : 1;
    high = family == CRAFTER_TASK_EXPLORE ? 10 : 2 * NEAR_RADIUS;
  } else if (strcmp(key, "threshold") == 0) {
    out = &c->threshold, high = 1000000;
  } else if (strcmp(key, "count") == 0) {
    out = &c->count, high = (2 * NEAR_RADIUS + 1) * (2 * NEAR_RADIUS + 1);
  } else if (strcmp(key, "length") == 0) {
    out = &c->length;
    low = family == CRAFTER_TASK_LINE ? 2 : 1;
    high = family == CRAFTER_TASK_LINE ? 2 * SHAPE_RADIUS + 1 : SHAPE_RADIUS;
  } else if (strcmp(key, "size") == 0) {
    out = &c->size, high = 2 * SHAPE_RADIUS - 1;
  } else if (strcmp(key, "radius") == 0) {
    out = &c->radius, low = 0, high = SHAPE_RADIUS;
  }
  if (!out) return crafter_yaml_fail(r, value, "%s: not a key of this family", what);
  if (read_int(r, value, what, low, high, &number) < 0) return -1;
  *out = (int)number;
  return 0;
}

static int read_check(reader *r, const yaml_node_t *node, int family, crafter_task_check *c) {
  if (node->type != YAML_MAPPING_NODE)
    return crafter_yaml_fail(r, node, "check: expected a mapping of the %s checker's arguments",
                             crafter_task_family_names[family]);
  const family_keys *keys = &check_keys[family];
  unsigned seen = 0;
  for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
       pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = crafter_yaml_node(r, pair->key), *value = crafter_yaml_node(r, pair->value);
    int index = name_index(scalar(key), keys->names, keys->count);
    if (index < 0) {
      char expected[200];
      join(keys->names, keys->count, expected, sizeof(expected));
      return crafter_yaml_fail(r, key,
                               "unknown key '%s' in the check of a %s task (expected one of: %s)",
                               scalar(key) ? scalar(key) : "(not a scalar)",
                               crafter_task_family_names[family], expected);
    }
    if (seen & (1u << index))
      return crafter_yaml_fail(r, key, "check.%s is given twice", keys->names[index]);
    seen |= 1u << index;
    if (read_check_value(r, family, keys->names[index], value, c) < 0) return -1;
  }
  for (int i = 0; i < keys->count; i++)
    if ((keys->needed & (1u << i)) && !(seen & (1u << i)))
      return crafter_yaml_fail(r, node, "the check of a %s task needs '%s'",
                               crafter_task_family_names[family], keys->names[i]);
  if (family == CRAFTER_TASK_ACHIEVEMENTS && (c->unlock & c->avoid))
    return crafter_yaml_fail(r, node, "check: an achievement is both to unlock and to avoid");
  if (family == CRAFTER_TASK_ACHIEVEMENTS && c->unlock == 0)
    return crafter_yaml_fail(r, node, "check.unlock: expected at least one achievement");
  return 0;
}

static const char *const task_keys[] = {"id",         "family",      "check", "instruction",
                                        "paraphrases", "difficulty", "split", "steps",
                                        "reward"};
#define TASK_KEYS 9

static int read_task(reader *r, const yaml_node_t *node, crafter_task *task) {
  if (node->type != YAML_MAPPING_NODE)
    return crafter_yaml_fail(r, node, "a task is a mapping of keys");
  memset(task, 0, sizeof(*task));
  task->reward = 1;
  const yaml_node_t *at[TASK_KEYS] = {0};
  for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
       pair < node->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = crafter_yaml_node(r, pair->key);
    int index = name_index(scalar(key), task_keys, TASK_KEYS);
    if (index < 0) {
      char expected[200];
      join(task_keys, TASK_KEYS, expected, sizeof(expected));
      return crafter_yaml_fail(r, key, "unknown key '%s' in a task (expected one of: %s)",
                               scalar(key) ? scalar(key) : "(not a scalar)", expected);
    }
    if (at[index]) return crafter_yaml_fail(r, key, "key '%s' is given twice", task_keys[index]);
    at[index] = crafter_yaml_node(r, pair->value);
  }
  for (int i = 0; i < 7; i++)
    if (!at[i]) return crafter_yaml_fail(r, node, "a task needs '%s'", task_keys[i]);
  const char *id = scalar(at[0]);
  size_t id_length = id ? strlen(id) : 0;
  if (id_length == 0 || id_length >= CRAFTER_TASK_ID_MAX ||
      strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != id_length)
    return crafter_yaml_fail(r, at[0], "id: expected 1 to %d letters, digits, '_', '.' or '-'",
                             CRAFTER_TASK_ID_MAX - 1);
  memcpy(task->id, id, id_length + 1);
  if (read_name(r, at[1], "family", crafter_task_family_names, CRAFTER_TASK_FAMILY_COUNT,
                &task->family) < 0 ||
      read_check(r, at[2], task->family, &task->check) < 0 ||
      read_text(r, at[3], "instruction", task->text[0]) < 0 ||
      read_name(r, at[5], "difficulty", crafter_task_difficulty_names, CRAFTER_DIFFICULTY_COUNT,
                &task->difficulty) < 0 ||
      read_name(r, at[6], "split", crafter_task_split_names, CRAFTER_SPLIT_COUNT, &task->split) < 0)
    return -1;
  const yaml_node_t *list = at[4];
  long paraphrases = list->type == YAML_SEQUENCE_NODE
                         ? list->data.sequence.items.top - list->data.sequence.items.start
                         : -1;
  if (paraphrases < MIN_PARAPHRASES || paraphrases > CRAFTER_TASK_PARAPHRASES_MAX)
    return crafter_yaml_fail(r, list, "paraphrases: expected a list of %d to %d sentences",
                             MIN_PARAPHRASES, CRAFTER_TASK_PARAPHRASES_MAX);
  for (long i = 0; i < paraphrases; i++)
    if (read_text(r, crafter_yaml_node(r, list->data.sequence.items.start[i]), "paraphrases",
                  task->text[1 + i]) < 0)
      return -1;
  task->text_count = 1 + (int)paraphrases;
  long steps = 0;
  if (at[7] && read_int(r, at[7], "steps", 0, 100000000, &steps) < 0) return -1;
  task->steps = steps;
  if (at[8] && read_number(r, at[8], "reward", -1e6, 1e6, &task->reward) < 0) return -1;
  return 0;
}

static int read_document(reader *r, const yaml_node_t *root, crafter_task_set *set) {
  if (!root || root->type != YAML_MAPPING_NODE)
    return crafter_yaml_fail(r, root, "expected a mapping with a 'tasks' list (crafter-task(5))");
  const yaml_node_t *list = NULL;
  for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
       pair < root->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = crafter_yaml_node(r, pair->key);
    const char *name = scalar(key);
    if (name && strcmp(name, "version") == 0) {
      long version;
      if (read_int(r, crafter_yaml_node(r, pair->value), "version", 1, 1000, &version) < 0)
        return -1;
      if (version != 1)
        return crafter_yaml_fail(r, crafter_yaml_node(r, pair->value),
                                 "version %ld is not known (this reader knows 1)", version);
    } else if (name && strcmp(name, "tasks") == 0 && !list) {
      list = crafter_yaml_node(r, pair->value);
    } else {
      return crafter_yaml_fail(r, key,
                               "unknown or repeated key '%s' at the top level (expected version, "
                               "tasks)",
                               name ? name : "(not a scalar)");
    }
  }
  if (!list || list->type != YAML_SEQUENCE_NODE)
    return crafter_yaml_fail(r, list ? list : root, "expected a 'tasks' list");
  long count = list->data.sequence.items.top - list->data.sequence.items.start;
  if (count < 1 || count > CRAFTER_TASKS_MAX)
    return crafter_yaml_fail(r, list, "tasks: expected 1 to %d tasks", CRAFTER_TASKS_MAX);
  set->tasks = calloc((size_t)count, sizeof(crafter_task));
  if (!set->tasks) return crafter_yaml_fail(r, NULL, "out of memory");
  for (long i = 0; i < count; i++) {
    const yaml_node_t *item = crafter_yaml_node(r, list->data.sequence.items.start[i]);
    if (read_task(r, item, &set->tasks[i]) < 0) return -1;
    for (long j = 0; j < i; j++)
      if (strcmp(set->tasks[j].id, set->tasks[i].id) == 0)
        return crafter_yaml_fail(r, item, "id '%s' is given to two tasks", set->tasks[i].id);
    set->count = (int)i + 1;
  }
  return 0;
}

int crafter_tasks_load_string(const char *text, size_t length, const char *name,
                              crafter_task_set *set, char *error, size_t error_size) {
  memset(set, 0, sizeof(*set));
  if (length > CRAFTER_TASKS_MAX_BYTES) {
    snprintf(error, error_size, "%s: larger than %d bytes", name, CRAFTER_TASKS_MAX_BYTES);
    return -1;
  }
  if (crafter_yaml_check_depth(text, length, name, 8,
                               "a task file is a few levels deep (crafter-task(5))", error,
                               error_size) < 0)
    return -1;
  yaml_parser_t parser;
  yaml_document_t document;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
  int status;
  if (!yaml_parser_load(&parser, &document)) {
    status = crafter_yaml_syntax_error(&parser, name, error, error_size);
  } else {
    reader r = {&document, name, error, error_size};
    status = read_document(&r, yaml_document_get_root_node(&document), set);
    yaml_document_delete(&document);
  }
  if (status == 0) {
    set->source = malloc(length ? length : 1);
    if (!set->source) {
      snprintf(error, error_size, "out of memory");
      status = -1;
    } else {
      memcpy(set->source, text, length);
      set->source_bytes = length;
    }
  }
  yaml_parser_delete(&parser);
  if (status < 0) crafter_task_set_free(set);
  return status;
}

int crafter_tasks_load(const char *path, crafter_task_set *set, char *error, size_t error_size) {
  char *text;
  size_t length;
  memset(set, 0, sizeof(*set));
  if (crafter_yaml_read_file(path, CRAFTER_TASKS_MAX_BYTES, "a task file is at most 16 MiB", &text,
                             &length, error, error_size) < 0)
    return -1;
  int status = crafter_tasks_load_string(text, length, path, set, error, error_size);
  free(text);
  return status;
}

void crafter_task_set_free(crafter_task_set *set) {
  free(set->tasks);
  free(set->source);
  set->tasks = NULL;
  set->count = 0;
  set->source = NULL;
  set->source_bytes = 0;
}

int crafter_task_split_from_name(const char *name) {
  return name_index(name, crafter_task_split_names, CRAFTER_SPLIT_COUNT);
}

int crafter_tasks_open(const char *path, int split, const char *id, crafter_task_set *set,
                       crafter_task_pool *pool, char *error, size_t error_size) {
  memset(pool, 0, sizeof(*pool));
  if (crafter_tasks_load(path, set, error, error_size) < 0) return -1;
  char problem[300];
  if (crafter_task_pool_init(pool, set, split, id, problem, sizeof(problem)) < 0) {
    snprintf(error, error_size, "%s: %s", path, problem);
    crafter_task_set_free(set);
    return -2;
  }
  return 0;
}

int crafter_task_find(const crafter_task_set *set, const char *id) {
  for (int i = 0; i < set->count; i++)
    if (strcmp(set->tasks[i].id, id) == 0) return i;
  return -1;
}

/* ---- tracking what the agent placed ---- */

enum { PLACED_BLOCK = 1, PLACED_PLANT = 2 };

int crafter_task_begin(crafter_task_tracker *tracker, const crafter_task *task,
                       const crafter_env *env, int player) {
  const crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  if (!tracker->placed || tracker->width != world->width || tracker->height != world->height) {
    uint8_t *placed = realloc(tracker->placed, cells ? cells : 1);
    if (!placed) return -1;
    tracker->placed = placed;
  }
  memset(tracker->placed, 0, cells);
  tracker->task = task;
  tracker->width = world->width;
  tracker->height = world->height;
  memcpy(tracker->before, crafter_game_player_const(&env->game, player)->inventory,
         sizeof(tracker->before));
  tracker->met = 0;
  tracker->met_step = 0;
  return 0;
}

void crafter_task_tracker_free(crafter_task_tracker *tracker) {
  free(tracker->placed);
  memset(tracker, 0, sizeof(*tracker));
}


/* Follows the step's material changes: a placement marks its cell, any
 * other change of a marked cell (mined, burnt by an arrow) clears it. */
static void track_placements(crafter_task_tracker *tracker, const crafter_env *env, int p,
                             int action) {
  const crafter_world *world = &env->game.world;
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  const crafter_object *body = crafter_game_body(&env->game, p);
  int target_x = body ? body->x + player->facing_x : -1;
  int target_y = body ? body->y + player->facing_y : -1;
  int index = action - CRAFTER_PLACE_STONE;
  int placing = body && index >= 0 && index < 4;
  for (int i = 0; i < world->change_count; i++) {
    const crafter_change *change = &world->changes[i];
    size_t cell = (size_t)change->x * (size_t)world->height + (size_t)change->y;
    if (placing && index < 3 && change->x == target_x && change->y == target_y &&
        change->material == crafter_place_material[index]) {
      tracker->placed[cell] = PLACED_BLOCK;
      placing = 0; /* one placement a step */
    } else {
      tracker->placed[cell] = 0;
    }
  }
  if (placing && index == 3 && crafter_world_inside(world, target_x, target_y)) {
    int slot = crafter_world_object_slot(world, target_x, target_y);
    /* A plant placed now has grown no step yet. */
    if (slot >= 0 && world->objects[slot].kind == CRAFTER_PLANT && world->objects[slot].counter == 0)
      tracker->placed[(size_t)target_x * (size_t)world->height + (size_t)target_y] = PLACED_PLANT;
  }
}

/* ---- the checkers ---- */

/* Whether `thing` is at (x, y); with `placed`, only if the agent placed it. */
static int thing_at(const crafter_task_tracker *tracker, const crafter_env *env, int x, int y,
                    crafter_thing thing, int placed) {
  const crafter_world *world = &env->game.world;
  if (!crafter_world_inside(world, x, y)) return 0;
  uint8_t mark = tracker->placed[(size_t)x * (size_t)world->height + (size_t)y];
  if (thing.is_object) {
    int slot = crafter_world_object_slot(world, x, y);
    if (slot < 0 || world->objects[slot].kind != thing.id) return 0;
    return !placed || mark == PLACED_PLANT;
  }
  if (crafter_world_material(world, x, y) != thing.id) return 0;
  return !placed || mark == PLACED_BLOCK;
}

/* Only blocks the agent can place are asked to be its own. */
static int placeable(crafter_thing thing) {
  if (thing.is_object) return thing.id == CRAFTER_PLANT;
  return thing.id == CRAFTER_STONE || thing.id == CRAFTER_TABLE || thing.id == CRAFTER_FURNACE;
}

/* Where the player stands; a player who left the world (several players)
 * is taken to stand outside it. */
static void player_at(const crafter_env *env, int player, int *x, int *y) {
  const crafter_object *body = crafter_game_body(&env->game, player);
  *x = body ? body->x : -1000000;
  *y = body ? body->y : -1000000;
}

static int in_window(int x, int y, int px, int py, int radius) {
  return abs(x - px) <= radius && abs(y - py) <= radius;
}

static int localization(const crafter_task_tracker *t, const crafter_env *env, int player,
                        const crafter_task_check *c) {
  /* Where the target lies from the object: the object is `side` of it. */
  static const int offsets[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  int px, py;
  player_at(env, player, &px, &py);
  int dx = offsets[c->side][0] * c->distance, dy = offsets[c->side][1] * c->distance;
  for (int x = px - NEAR_RADIUS; x <= px + NEAR_RADIUS; x++)
    for (int y = py - NEAR_RADIUS; y <= py + NEAR_RADIUS; y++)
      if (in_window(x + dx, y + dy, px, py, NEAR_RADIUS) &&
          thing_at(t, env, x, y, c->object, c->placed) &&
          thing_at(t, env, x + dx, y + dy, c->target, 0))
        return 1;
  return 0;
}

static int count_near(const crafter_task_tracker *t, const crafter_env *env, int player,
                      crafter_thing thing, int placed, int radius) {
  int px, py, count = 0;
  player_at(env, player, &px, &py);
  for (int x = px - radius; x <= px + radius; x++)
    for (int y = py - radius; y <= py + radius; y++) count += thing_at(t, env, x, y, thing, placed);
  return count;
}

static int line(const crafter_task_tracker *t, const crafter_env *env, int player,
                const crafter_task_check *c) {
  static const int straight[2][2] = {{1, 0}, {0, 1}}, diagonal[2][2] = {{1, 1}, {1, -1}};
  const int(*directions)[2] = c->diagonal ? diagonal : straight;
  int px, py;
  player_at(env, player, &px, &py);
  for (int x = px - SHAPE_RADIUS; x <= px + SHAPE_RADIUS; x++)
    for (int y = py - SHAPE_RADIUS; y <= py + SHAPE_RADIUS; y++)
      for (int d = 0; d < 2; d++) {
        int run = 0;
        while (run < c->length) {
          int cx = x + run * directions[d][0], cy = y + run * directions[d][1];
          if (!in_window(cx, cy, px, py, SHAPE_RADIUS) || !thing_at(t, env, cx, cy, c->object, 1))
            break;
          run++;
        }
        if (run == c->length) return 1;
      }
  return 0;
}

static int square(const crafter_task_tracker *t, const crafter_env *env, int player,
                  const crafter_task_check *c) {
  int px, py, n = c->size;
  player_at(env, player, &px, &py);
  for (int x0 = px - SHAPE_RADIUS; x0 + n - 1 <= px + SHAPE_RADIUS; x0++)
    for (int y0 = py - SHAPE_RADIUS; y0 + n - 1 <= py + SHAPE_RADIUS; y0++) {
      int good = 1;
      for (int x = x0 - 1; good && x <= x0 + n; x++)
        for (int y = y0 - 1; good && y <= y0 + n; y++) {
          int inside = x >= x0 && x < x0 + n && y >= y0 && y < y0 + n;
          /* The square all placed blocks; its ring free of the block,
           * placed or natural. */
          good = inside ? thing_at(t, env, x, y, c->object, 1) : !thing_at(t, env, x, y, c->object, 0);
        }
      if (good) return 1;
    }
  return 0;
}

static int cross(const crafter_task_tracker *t, const crafter_env *env, int player,
                 const crafter_task_check *c) {
  static const int straight[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  static const int diagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const int(*arms)[2] = c->diagonal ? diagonal : straight;
  int px, py;
  player_at(env, player, &px, &py);
  for (int x = px - SHAPE_RADIUS; x <= px + SHAPE_RADIUS; x++)
    for (int y = py - SHAPE_RADIUS; y <= py + SHAPE_RADIUS; y++) {
      int good = thing_at(t, env, x, y, c->object, 1);
      for (int a = 0; good && a < 4; a++)
        for (int k = 1; good && k <= c->length; k++) {
          int cx = x + k * arms[a][0], cy = y + k * arms[a][1];
          good = in_window(cx, cy, px, py, SHAPE_RADIUS) && thing_at(t, env, cx, cy, c->object, 1);
        }
      if (good) return 1;
    }
  return 0;
}

int crafter_task_holds(const crafter_task_tracker *t, const crafter_env *env, int player) {
  const crafter_task_check *c = &t->task->check;
  switch (t->task->family) {
    case CRAFTER_TASK_ACHIEVEMENTS:
      return (env->unlocked[player] & c->unlock) == c->unlock &&
             (env->unlocked[player] & c->avoid) == 0;
    case CRAFTER_TASK_LOCALIZATION: return localization(t, env, player, c);
    case CRAFTER_TASK_CONDITIONAL:
      return crafter_game_player_const(&env->game, player)->inventory[c->item] < c->threshold &&
             count_near(t, env, player, c->object, placeable(c->object), NEAR_RADIUS) >= c->count;
    case CRAFTER_TASK_LINE: return line(t, env, player, c);
    case CRAFTER_TASK_SQUARE: return square(t, env, player, c);
    case CRAFTER_TASK_CROSS: return cross(t, env, player, c);
    case CRAFTER_TASK_TIMED:
      return env->game.daylight >= c->daylight[0] && env->game.daylight <= c->daylight[1] &&
             count_near(t, env, player, c->object, 1, c->radius) > 0;
    case CRAFTER_TASK_EXPLORE: return count_near(t, env, player, c->target, 0, c->distance) > 0;
    default: return 0;
  }
}

int crafter_task_observe(crafter_task_tracker *t, const crafter_env *env, int player, int action) {
  track_placements(t, env, player, action);
  int met = 0;
  if (!t->met) {
    met = crafter_task_holds(t, env, player);
    /* Conditional: the count must drop below the threshold at this step,
     * by spending, not have been below it already. */
    if (met && t->task->family == CRAFTER_TASK_CONDITIONAL)
      met = t->before[t->task->check.item] >= t->task->check.threshold;
    if (met) {
      t->met = 1;
      t->met_step = env->game.step;
    }
  }
  memcpy(t->before, crafter_game_player_const(&env->game, player)->inventory, sizeof(t->before));
  return met;
}

/* ---- episodes with a goal ---- */

int crafter_task_pool_init(crafter_task_pool *pool, const crafter_task_set *set, int split,
                           const char *id, char *error, size_t error_size) {
  memset(pool, 0, sizeof(*pool));
  pool->set = set;
  int wanted = -1;
  if (id) {
    wanted = crafter_task_find(set, id);
    if (wanted < 0) {
      snprintf(error, error_size, "no task has the id '%s'", id);
      return -1;
    }
    if (split >= 0 && set->tasks[wanted].split != split) {
      snprintf(error, error_size, "task '%s' is in split %s, not %s", id,
               crafter_task_split_names[set->tasks[wanted].split], crafter_task_split_names[split]);
      return -1;
    }
  }
  pool->tasks = malloc(sizeof(int) * (size_t)(set->count ? set->count : 1));
  pool->first_text = malloc(sizeof(int) * (size_t)(set->count ? set->count : 1));
  if (!pool->tasks || !pool->first_text) {
    crafter_task_pool_free(pool);
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  for (int i = 0; i < set->count; i++) {
    if (wanted >= 0 ? i != wanted : split >= 0 && set->tasks[i].split != split) continue;
    pool->tasks[pool->count] = i;
    pool->first_text[pool->count] = pool->instructions;
    pool->instructions += set->tasks[i].text_count;
    pool->count++;
  }
  if (pool->count == 0) {
    if (split >= 0)
      snprintf(error, error_size, "no task is in split %s", crafter_task_split_names[split]);
    else
      snprintf(error, error_size, "the task file has no tasks");
    crafter_task_pool_free(pool);
    return -1;
  }
  return 0;
}

void crafter_task_pool_free(crafter_task_pool *pool) {
  free(pool->tasks);
  free(pool->first_text);
  pool->tasks = pool->first_text = NULL;
  pool->count = pool->instructions = 0;
}

/* One splitmix64 step from state z. */
static uint64_t mix64(uint64_t z) { return crafter_mix64(z + CRAFTER_SPLITMIX_GAMMA); }

void crafter_task_draw(const crafter_task_pool *pool, int64_t seed, int64_t episode,
                       int *candidate, int *text) {
  crafter_task_draw_player(pool, seed, episode, 0, candidate, text);
}

void crafter_task_draw_player(const crafter_task_pool *pool, int64_t seed, int64_t episode,
                              int player, int *candidate, int *text) {
  uint64_t h = mix64(mix64((uint64_t)seed) ^ (uint64_t)episode);
  if (player > 0) h = mix64(h ^ (uint64_t)player * 0x9e3779b97f4a7c15u);
  *candidate = (int)(h % (uint64_t)pool->count);
  const crafter_task *task = &pool->set->tasks[pool->tasks[*candidate]];
  *text = (int)(mix64(h) % (uint64_t)task->text_count);
}

int crafter_task_pool_begin(const crafter_task_pool *pool, crafter_task_tracker *tracker,
                            const crafter_env *env, int player, int *candidate, int *text) {
  crafter_task_draw_player(pool, env->params.seed, env->episode, player, candidate, text);
  return crafter_task_begin(tracker, &pool->set->tasks[pool->tasks[*candidate]], env, player);
}

int crafter_task_step(crafter_task_tracker *tracker, const crafter_env *env, int player,
                      int action, crafter_step_result *result) {
  int met = crafter_task_observe(tracker, env, player, action);
  if (tracker->met || (tracker->task->steps > 0 && env->game.step >= tracker->task->steps))
    result->done = 1;
  return met;
}
