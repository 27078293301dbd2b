#include "run/proto.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/json.h"

int crafter_format_double(char *out, double value) {
  return crafter_json_format_double(out, value);
}

int crafter_facing_index(int dx, int dy) {
  if (dx < 0) return 0;
  if (dx > 0) return 1;
  if (dy < 0) return 2;
  return 3;
}

/* The player whose body an object is, or `viewer`, the player the record
 * is of, for any other. */
static const crafter_player *player_of(const crafter_env *env, int viewer,
                                       const crafter_object *object) {
  int p = crafter_game_player_of_slot(&env->game, (int)(object - env->game.world.objects));
  return crafter_game_player_const(&env->game, p < 0 ? viewer : p);
}

static int object_extra(const crafter_env *env, int viewer, const crafter_object *object) {
  switch (object->kind) {
    case CRAFTER_PLAYER: {
      const crafter_player *player = player_of(env, viewer, object);
      return crafter_facing_index(player->facing_x, player->facing_y);
    }
    case CRAFTER_ARROW: return crafter_facing_index(object->facing_x, object->facing_y);
    case CRAFTER_ZOMBIE:
    case CRAFTER_SKELETON:
    case CRAFTER_PLANT: return object->counter;
    default: return 0;
  }
}

static void write_objects(crafter_json_writer *json, const crafter_env *env, int viewer) {
  int count;
  const crafter_object *objects = crafter_env_objects(env, &count);
  crafter_json_begin_array(json);
  for (int i = 0; i < count; i++) {
    const crafter_object *object = &objects[i];
    int health = object->kind == CRAFTER_PLAYER
                     ? player_of(env, viewer, object)->inventory[CRAFTER_HEALTH]
                     : object->health;
    const int fields[5] = {object->kind, object->x, object->y, health,
                           object_extra(env, viewer, object)};
    crafter_json_begin_array(json);
    for (int f = 0; f < 5; f++) crafter_json_int(json, fields[f]);
    crafter_json_end_array(json);
  }
  crafter_json_end_array(json);
}

static void write_int_list(crafter_json_writer *json, const int32_t *values, int count) {
  crafter_json_begin_array(json);
  for (int i = 0; i < count; i++) crafter_json_int(json, values[i]);
  crafter_json_end_array(json);
}

/* [a, b]: a position, a facing, an area. */
static void write_pair(crafter_json_writer *json, const char *key, int a, int b) {
  crafter_json_key(json, key);
  crafter_json_begin_array(json);
  crafter_json_int(json, a);
  crafter_json_int(json, b);
  crafter_json_end_array(json);
}

static unsigned long checksum(const uint8_t *data, size_t size) {
  unsigned long crc = crc32(0L, Z_NULL, 0);
  while (size > 0) {
    unsigned chunk = size > (1u << 30) ? (1u << 30) : (unsigned)size;
    crc = crc32(crc, data, chunk);
    data += chunk;
    size -= chunk;
  }
  return crc;
}

static void write_env_index(crafter_json_writer *json, const crafter_proto_extra *extra) {
  if (extra && extra->env_index >= 0) {
    crafter_json_key(json, "env");
    crafter_json_int(json, extra->env_index);
  }
  if (extra && extra->player_key > 0) {
    crafter_json_key(json, "player");
    crafter_json_int(json, extra->player_key - 1);
  }
  if (extra && extra->loaded) {
    crafter_json_key(json, "loaded");
    crafter_json_bool(json, 1);
    crafter_json_key(json, "done");
    crafter_json_bool(json, extra->loaded_done);
  }
}

static void write_extra(crafter_json_writer *json, const crafter_proto_extra *extra) {
  if (!extra) return;
  if (extra->level) {
    crafter_json_key(json, "level");
    crafter_json_int(json, extra->level);
  }
  if (extra->pixels) {
    crafter_json_key(json, "obs_crc");
    crafter_json_uint(json, checksum(extra->pixels, extra->pixel_bytes));
  }
  if (extra->task_id) {
    crafter_json_key(json, "task");
    crafter_json_string(json, extra->task_id);
    crafter_json_key(json, "instruction");
    crafter_json_string(json, extra->instruction);
    if (extra->goal >= 0) {
      crafter_json_key(json, "goal");
      crafter_json_bool(json, extra->goal);
    }
  }
  if (!extra->include || extra->kind == CRAFTER_OBS_NONE || !extra->data) return;
  crafter_json_key(json, "obs");
  switch (crafter_obs_kind(extra->kind)->json) {
    case CRAFTER_OBS_JSON_NUMBERS: {
      const float *values = extra->data;
      crafter_json_begin_array(json);
      for (size_t i = 0; i < extra->size / sizeof(float); i++)
        crafter_json_python_double(json, values[i]);
      crafter_json_end_array(json);
      break;
    }
    case CRAFTER_OBS_JSON_STRING: crafter_json_string_n(json, extra->data, extra->size); break;
    case CRAFTER_OBS_JSON_CONTEXTS: {
      const char *texts = extra->data;
      const char *end = memchr(texts, '\0', extra->size);
      size_t first = end ? (size_t)(end - texts) : extra->size;
      size_t second = first < extra->size ? extra->size - first - 1 : 0;
      crafter_json_begin_object(json);
      crafter_json_key(json, "long_term_context");
      crafter_json_string_n(json, texts, first);
      crafter_json_key(json, "short_term_context");
      crafter_json_string_n(json, texts + first + (second ? 1 : 0), second);
      crafter_json_end_object(json);
      break;
    }
    default: crafter_json_base64(json, extra->data, extra->size); break;
  }
}

/* Ends a record: its extras, the closing brace and the line. */
static void end_record(crafter_json_writer *json, const crafter_proto_extra *extra) {
  write_extra(json, extra);
  crafter_json_end_object(json);
  crafter_json_newline(json);
}

void crafter_proto_write_reset(FILE *out, const crafter_env *env, int player,
                               const crafter_proto_extra *extra) {
  const crafter_params *params = &env->params;
  const crafter_world *world = &env->game.world;
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  write_env_index(&json, extra);
  crafter_json_key(&json, "kind");
  crafter_json_string(&json, "reset");
  crafter_json_key(&json, "seed");
  crafter_json_int(&json, params->seed);
  crafter_json_key(&json, "episode");
  crafter_json_int(&json, env->episode);
  write_pair(&json, "area", params->area[0], params->area[1]);
  write_pair(&json, "view", params->view[0], params->view[1]);
  write_pair(&json, "size", params->size[0], params->size[1]);
  crafter_json_key(&json, "length");
  crafter_json_int(&json, params->length);
  crafter_json_key(&json, "world_seed");
  crafter_json_int(&json, env->world_seed);
  /* The grid, a letter a cell ('a' + material), column by column. */
  crafter_json_key(&json, "materials");
  crafter_json_string_begin(&json);
  size_t cells = (size_t)world->width * (size_t)world->height;
  char letters[512];
  for (size_t done = 0; done < cells;) {
    size_t piece = cells - done < sizeof(letters) ? cells - done : sizeof(letters);
    for (size_t i = 0; i < piece; i++) letters[i] = (char)('a' + world->materials[done + i]);
    crafter_json_string_append(&json, letters, piece);
    done += piece;
  }
  crafter_json_string_end(&json);
  crafter_json_key(&json, "objects");
  write_objects(&json, env, player);
  end_record(&json, extra);
}

static int compare_changes(const void *left, const void *right) {
  const crafter_change *a = left, *b = right;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return (a->y > b->y) - (a->y < b->y);
}

/* The cells whose material differs from the start of the step, in x-major
 * order; a cell changed and changed back is no change. */
static void write_changes(crafter_json_writer *json, const crafter_world *world) {
  int count = world->change_count;
  crafter_change *sorted = malloc((size_t)(count ? count : 1) * sizeof(crafter_change));
  crafter_json_begin_array(json);
  if (sorted) {
    memcpy(sorted, world->changes, (size_t)count * sizeof(crafter_change));
    /* A stable sort keeps each cell's first change (its material before the
     * step) first among that cell's entries. */
    for (int i = 1; i < count; i++) {
      crafter_change key = sorted[i];
      int j = i - 1;
      while (j >= 0 && compare_changes(&sorted[j], &key) > 0) {
        sorted[j + 1] = sorted[j];
        j--;
      }
      sorted[j + 1] = key;
    }
    for (int i = 0; i < count; i++) {
      if (i > 0 && compare_changes(&sorted[i - 1], &sorted[i]) == 0) continue;
      int now = crafter_world_material(world, sorted[i].x, sorted[i].y);
      if (now == sorted[i].previous) continue;
      crafter_json_begin_array(json);
      crafter_json_int(json, sorted[i].x);
      crafter_json_int(json, sorted[i].y);
      crafter_json_int(json, now);
      crafter_json_end_array(json);
    }
    free(sorted);
  }
  crafter_json_end_array(json);
}

static unsigned long semantic_crc(const crafter_env *env, int player) {
  const crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  uint8_t *semantic = malloc(cells);
  if (!semantic) return 0;
  crafter_env_semantic(env, player, semantic);
  unsigned long crc = checksum(semantic, cells);
  free(semantic);
  return crc;
}

/* pos, facing, sleeping, daylight of full and state records. */
static void write_place(crafter_json_writer *json, const crafter_env *env, int p) {
  const crafter_game *game = &env->game;
  const crafter_player *player = crafter_game_player_const(game, p);
  const crafter_object *body = crafter_game_body(game, p);
  if (body) {
    write_pair(json, "pos", body->x, body->y);
  } else { /* a player who died and left the world */
    crafter_json_key(json, "pos");
    crafter_json_null(json);
  }
  write_pair(json, "facing", player->facing_x, player->facing_y);
  crafter_json_key(json, "sleeping");
  crafter_json_bool(json, player->sleeping);
  crafter_json_key(json, "daylight");
  crafter_json_python_double(json, game->daylight);
}

/* reward, done, discount of step records. */
static void write_outcome(crafter_json_writer *json, const crafter_step_result *result) {
  crafter_json_key(json, "reward");
  crafter_json_python_double(json, result->reward);
  crafter_json_key(json, "done");
  crafter_json_bool(json, result->done);
  crafter_json_key(json, "discount");
  crafter_json_python_double(json, result->discount);
}

void crafter_proto_write_step(FILE *out, const crafter_env *env, int p, int action,
                              const crafter_step_result *result,
                              const crafter_proto_extra *extra) {
  const crafter_game *game = &env->game;
  const crafter_player *player = crafter_game_player_const(game, p);
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  write_env_index(&json, extra);
  crafter_json_key(&json, "kind");
  crafter_json_string(&json, "step");
  crafter_json_key(&json, "t");
  crafter_json_int(&json, game->step);
  crafter_json_key(&json, "action");
  crafter_json_int(&json, action);
  write_outcome(&json, result);
  write_place(&json, env, p);
  crafter_json_key(&json, "inventory");
  write_int_list(&json, player->inventory, CRAFTER_ITEM_COUNT);
  crafter_json_key(&json, "achievements");
  write_int_list(&json, player->achievements, CRAFTER_ACHIEVEMENT_COUNT);
  const double counters[4] = {player->hunger, player->thirst, player->fatigue, player->recover};
  const char *const counter_names[4] = {"hunger", "thirst", "fatigue", "recover"};
  for (int i = 0; i < 4; i++) {
    crafter_json_key(&json, counter_names[i]);
    crafter_json_python_double(&json, counters[i]);
  }
  crafter_json_key(&json, "changes");
  write_changes(&json, &game->world);
  crafter_json_key(&json, "objects");
  write_objects(&json, env, p);
  crafter_json_key(&json, "semantic_crc");
  crafter_json_uint(&json, semantic_crc(env, p));
  end_record(&json, extra);
}

/* The keys short and state step records share. */
static void write_step_head(crafter_json_writer *json, const crafter_env *env,
                            const crafter_step_result *result) {
  crafter_json_key(json, "t");
  crafter_json_int(json, env->game.step);
  write_outcome(json, result);
  crafter_json_key(json, "unlocked");
  crafter_json_begin_array(json);
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (result->unlocked & (1u << i)) crafter_json_string(json, crafter_achievement_names[i]);
  crafter_json_end_array(json);
}

static void write_named_counts(crafter_json_writer *json, const char *const *names,
                               const int32_t *values, int count) {
  crafter_json_begin_object(json);
  for (int i = 0; i < count; i++) {
    crafter_json_key(json, names[i]);
    crafter_json_int(json, values[i]);
  }
  crafter_json_end_object(json);
}

/* A short record, or with with_state a state record of player p. */
static void write_short_or_state(FILE *out, const crafter_env *env, int p,
                                 const crafter_step_result *result,
                                 const crafter_proto_extra *extra, int with_state) {
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  write_env_index(&json, extra);
  if (result) {
    write_step_head(&json, env, result);
  } else {
    crafter_json_key(&json, "reset");
    crafter_json_int(&json, env->episode);
  }
  if (with_state) {
    const crafter_player *player = crafter_game_player_const(&env->game, p);
    if (!result) {
      crafter_json_key(&json, "seed");
      crafter_json_int(&json, env->params.seed);
      crafter_json_key(&json, "world_seed");
      crafter_json_int(&json, env->world_seed);
    }
    write_place(&json, env, p);
    crafter_json_key(&json, "inventory");
    write_named_counts(&json, crafter_item_names, player->inventory, CRAFTER_ITEM_COUNT);
    crafter_json_key(&json, "achievements");
    write_named_counts(&json, crafter_achievement_names, player->achievements,
                       CRAFTER_ACHIEVEMENT_COUNT);
    if (env->game.player_count > 1) { /* other players this one's hits finished */
      crafter_json_key(&json, "kills");
      crafter_json_int(&json, player->kills);
    }
  }
  end_record(&json, extra);
}

void crafter_proto_write_short(FILE *out, const crafter_env *env,
                               const crafter_step_result *result,
                               const crafter_proto_extra *extra) {
  write_short_or_state(out, env, 0, result, extra, 0);
}

void crafter_proto_write_state(FILE *out, const crafter_env *env, int player,
                               const crafter_step_result *result,
                               const crafter_proto_extra *extra) {
  write_short_or_state(out, env, player, result, extra, 1);
}

const char *crafter_info_kind_name(int kind) {
  static const char *const names[] = {"short", "full", "state"};
  return kind >= 0 && kind <= CRAFTER_INFO_STATE ? names[kind] : "?";
}

int crafter_info_kind_from_name(const char *name) {
  for (int kind = CRAFTER_INFO_SHORT; kind <= CRAFTER_INFO_STATE; kind++)
    if (strcmp(name, crafter_info_kind_name(kind)) == 0) return kind;
  return -1;
}

int crafter_proto_parse_action(const char *line) {
  while (*line == ' ' || *line == '\t') line++;
  size_t length = strlen(line);
  while (length > 0 && isspace((unsigned char)line[length - 1])) length--;
  if (length == 0 || length > 32) return -1;
  char word[33];
  memcpy(word, line, length);
  word[length] = '\0';
  if (isdigit((unsigned char)word[0])) {
    char *end;
    long value = strtol(word, &end, 10);
    if (*end != '\0' || value < 0 || value >= CRAFTER_ACTION_COUNT) return -1;
    return (int)value;
  }
  return crafter_action_from_name(word);
}
