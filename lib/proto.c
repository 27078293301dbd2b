#include "proto.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int crafter_format_double(char *out, double value) {
  if (isnan(value)) return sprintf(out, "NaN");
  if (isinf(value)) return sprintf(out, value > 0 ? "Infinity" : "-Infinity");
  /* The fewest significant digits that read back to the same value... */
  char scientific[40];
  int digits = 1;
  for (; digits < 17; digits++) {
    sprintf(scientific, "%.*e", digits - 1, value);
    if (strtod(scientific, NULL) == value) break;
  }
  sprintf(scientific, "%.*e", digits - 1, value);
  int exponent = atoi(strchr(scientific, 'e') + 1);
  /* ...laid out as Python's repr(): positional from 1e-4 up to 1e16,
   * always with a decimal point, else scientific with two exponent
   * digits at least. */
  if (exponent >= -4 && exponent < 16) {
    int decimals = digits - 1 - exponent;
    return sprintf(out, "%.*f", decimals > 0 ? decimals : 1, value);
  }
  char *mark = strchr(scientific, 'e');
  int length = (int)(mark - scientific);
  memcpy(out, scientific, (size_t)length);
  return length + sprintf(out + length, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
}

static void write_double(FILE *out, double value) {
  char text[40];
  crafter_format_double(text, value);
  fputs(text, out);
}

int crafter_facing_index(int dx, int dy) {
  if (dx < 0) return 0;
  if (dx > 0) return 1;
  if (dy < 0) return 2;
  return 3;
}

static int object_extra(const crafter_env *env, const crafter_object *object) {
  switch (object->kind) {
    case CRAFTER_PLAYER:
      return crafter_facing_index(env->game.player.facing_x, env->game.player.facing_y);
    case CRAFTER_ARROW: return crafter_facing_index(object->facing_x, object->facing_y);
    case CRAFTER_ZOMBIE:
    case CRAFTER_SKELETON:
    case CRAFTER_PLANT: return object->counter;
    default: return 0;
  }
}

static void write_objects(FILE *out, const crafter_env *env) {
  int count;
  const crafter_object *objects = crafter_env_objects(env, &count);
  fputc('[', out);
  for (int i = 0; i < count; i++) {
    const crafter_object *object = &objects[i];
    int health = object->kind == CRAFTER_PLAYER ? env->game.player.inventory[CRAFTER_HEALTH]
                                                : object->health;
    fprintf(out, "%s[%d, %d, %d, %d, %d]", i ? ", " : "", object->kind, object->x, object->y,
            health, object_extra(env, object));
  }
  fputc(']', out);
}

static void write_int_list(FILE *out, const int32_t *values, int count) {
  fputc('[', out);
  for (int i = 0; i < count; i++) fprintf(out, "%s%d", i ? ", " : "", values[i]);
  fputc(']', out);
}

void crafter_write_base64(FILE *out, const uint8_t *data, size_t size) {
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char quad[4];
  size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    uint32_t bits = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
    quad[0] = alphabet[bits >> 18];
    quad[1] = alphabet[(bits >> 12) & 63];
    quad[2] = alphabet[(bits >> 6) & 63];
    quad[3] = alphabet[bits & 63];
    fwrite(quad, 1, 4, out);
  }
  if (i < size) {
    uint32_t bits = (uint32_t)data[i] << 16 | (i + 1 < size ? (uint32_t)data[i + 1] << 8 : 0);
    quad[0] = alphabet[bits >> 18];
    quad[1] = alphabet[(bits >> 12) & 63];
    quad[2] = i + 1 < size ? alphabet[(bits >> 6) & 63] : '=';
    quad[3] = '=';
    fwrite(quad, 1, 4, out);
  }
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

const char *crafter_obs_kind_name(int kind) {
  static const char *const names[] = {"none", "pixels", "semantic", "symbolic", "text"};
  return kind >= 0 && kind <= CRAFTER_OBS_TEXT ? names[kind] : "?";
}

int crafter_obs_kind_from_name(const char *name) {
  for (int kind = CRAFTER_OBS_NONE; kind <= CRAFTER_OBS_TEXT; kind++)
    if (strcmp(name, crafter_obs_kind_name(kind)) == 0) return kind;
  return -1;
}

static void write_json_string(FILE *out, const char *text, size_t length) {
  fputc('"', out);
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void write_env_index(FILE *out, const crafter_record_extra *extra) {
  if (extra && extra->env_index >= 0) fprintf(out, "\"env\": %d, ", extra->env_index);
}

static void write_extra(FILE *out, const crafter_record_extra *extra) {
  if (!extra) return;
  if (extra->level) fprintf(out, ", \"level\": %lld", (long long)extra->level);
  if (extra->pixels)
    fprintf(out, ", \"obs_crc\": %lu", checksum(extra->pixels, extra->pixel_bytes));
  if (extra->task_id) {
    fputs(", \"task\": ", out);
    write_json_string(out, extra->task_id, strlen(extra->task_id));
    fputs(", \"instruction\": ", out);
    write_json_string(out, extra->instruction, strlen(extra->instruction));
    if (extra->goal >= 0) fprintf(out, ", \"goal\": %s", extra->goal ? "true" : "false");
  }
  if (!extra->include || extra->kind == CRAFTER_OBS_NONE || !extra->data) return;
  fputs(", \"obs\": ", out);
  switch (extra->kind) {
    case CRAFTER_OBS_SYMBOLIC: {
      const float *values = extra->data;
      fputc('[', out);
      for (size_t i = 0; i < extra->size / sizeof(float); i++) {
        char number[40];
        crafter_format_double(number, values[i]);
        fprintf(out, "%s%s", i ? ", " : "", number);
      }
      fputc(']', out);
      break;
    }
    case CRAFTER_OBS_TEXT: write_json_string(out, extra->data, extra->size); break;
    default:
      fputc('"', out);
      crafter_write_base64(out, extra->data, extra->size);
      fputc('"', out);
      break;
  }
}

void crafter_proto_write_reset(FILE *out, const crafter_env *env,
                               const crafter_record_extra *extra) {
  const crafter_params *params = &env->params;
  const crafter_world *world = &env->game.world;
  fputc('{', out);
  write_env_index(out, extra);
  fprintf(out,
          "\"kind\": \"reset\", \"seed\": %lld, \"episode\": %lld, \"area\": [%d, %d], "
          "\"view\": [%d, %d], \"size\": [%d, %d], \"length\": %ld, \"world_seed\": %lld, "
          "\"materials\": \"",
          (long long)params->seed, (long long)env->episode, params->area[0], params->area[1],
          params->view[0], params->view[1], params->size[0], params->size[1], params->length,
          (long long)env->world_seed);
  size_t cells = (size_t)world->width * (size_t)world->height;
  for (size_t i = 0; i < cells; i++) fputc('a' + world->materials[i], out);
  fputs("\", \"objects\": ", out);
  write_objects(out, env);
  write_extra(out, extra);
  fputs("}\n", out);
}

static int compare_changes(const void *left, const void *right) {
  const crafter_change *a = left, *b = right;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return (a->y > b->y) - (a->y < b->y);
}

/* The cells whose material differs from the start of the step, in x-major
 * order; a cell changed and changed back is no change. */
static void write_changes(FILE *out, const crafter_world *world) {
  int count = world->change_count;
  crafter_change *sorted = malloc((size_t)(count ? count : 1) * sizeof(crafter_change));
  fputc('[', out);
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
    int written = 0;
    for (int i = 0; i < count; i++) {
      if (i > 0 && compare_changes(&sorted[i - 1], &sorted[i]) == 0) continue;
      int now = crafter_world_material(world, sorted[i].x, sorted[i].y);
      if (now == sorted[i].previous) continue;
      fprintf(out, "%s[%d, %d, %d]", written++ ? ", " : "", sorted[i].x, sorted[i].y, now);
    }
    free(sorted);
  }
  fputc(']', out);
}

static unsigned long semantic_crc(const crafter_env *env) {
  const crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  uint8_t *semantic = malloc(cells);
  if (!semantic) return 0;
  crafter_env_semantic(env, semantic);
  unsigned long crc = checksum(semantic, cells);
  free(semantic);
  return crc;
}

/* ", pos, facing, sleeping, daylight" of full and state records. */
static void write_place(FILE *out, const crafter_game *game) {
  const crafter_player *player = &game->player;
  fprintf(out, ", \"pos\": [%d, %d], \"facing\": [%d, %d], \"sleeping\": %s, \"daylight\": ",
          crafter_game_body(game, 0)->x, crafter_game_body(game, 0)->y, player->facing_x, player->facing_y,
          player->sleeping ? "true" : "false");
  write_double(out, game->daylight);
}

void crafter_proto_write_step(FILE *out, const crafter_env *env, int action,
                              const crafter_step_result *result,
                              const crafter_record_extra *extra) {
  const crafter_game *game = &env->game;
  const crafter_player *player = &game->player;
  fputc('{', out);
  write_env_index(out, extra);
  fprintf(out, "\"kind\": \"step\", \"t\": %ld, \"action\": %d, \"reward\": ", game->step,
          action);
  write_double(out, result->reward);
  fprintf(out, ", \"done\": %s, \"discount\": ", result->done ? "true" : "false");
  write_double(out, result->discount);
  write_place(out, game);
  fputs(", \"inventory\": ", out);
  write_int_list(out, player->inventory, CRAFTER_ITEM_COUNT);
  fputs(", \"achievements\": ", out);
  write_int_list(out, player->achievements, CRAFTER_ACHIEVEMENT_COUNT);
  const double counters[4] = {player->hunger, player->thirst, player->fatigue, player->recover};
  const char *const counter_names[4] = {"hunger", "thirst", "fatigue", "recover"};
  for (int i = 0; i < 4; i++) {
    fprintf(out, ", \"%s\": ", counter_names[i]);
    write_double(out, counters[i]);
  }
  fputs(", \"changes\": ", out);
  write_changes(out, &game->world);
  fputs(", \"objects\": ", out);
  write_objects(out, env);
  fprintf(out, ", \"semantic_crc\": %lu", semantic_crc(env));
  write_extra(out, extra);
  fputs("}\n", out);
}

/* The keys short and state step records share. */
static void write_step_head(FILE *out, const crafter_env *env, const crafter_step_result *result) {
  fprintf(out, "\"t\": %ld, \"reward\": ", env->game.step);
  write_double(out, result->reward);
  fprintf(out, ", \"done\": %s, \"discount\": ", result->done ? "true" : "false");
  write_double(out, result->discount);
  fputs(", \"unlocked\": [", out);
  int written = 0;
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (result->unlocked & (1u << i))
      fprintf(out, "%s\"%s\"", written++ ? ", " : "", crafter_achievement_names[i]);
  fputc(']', out);
}

static void write_named_counts(FILE *out, const char *const *names, const int32_t *values,
                               int count) {
  fputc('{', out);
  for (int i = 0; i < count; i++) fprintf(out, "%s\"%s\": %d", i ? ", " : "", names[i], values[i]);
  fputc('}', out);
}

/* A short record, or with with_state a state record. */
static void write_short_or_state(FILE *out, const crafter_env *env,
                                 const crafter_step_result *result,
                                 const crafter_record_extra *extra, int with_state) {
  fputc('{', out);
  write_env_index(out, extra);
  if (result)
    write_step_head(out, env, result);
  else
    fprintf(out, "\"reset\": %lld", (long long)env->episode);
  if (with_state) {
    const crafter_player *player = &env->game.player;
    if (!result)
      fprintf(out, ", \"seed\": %lld, \"world_seed\": %lld", (long long)env->params.seed,
              (long long)env->world_seed);
    write_place(out, &env->game);
    fputs(", \"inventory\": ", out);
    write_named_counts(out, crafter_item_names, player->inventory, CRAFTER_ITEM_COUNT);
    fputs(", \"achievements\": ", out);
    write_named_counts(out, crafter_achievement_names, player->achievements,
                       CRAFTER_ACHIEVEMENT_COUNT);
  }
  write_extra(out, extra);
  fputs("}\n", out);
}

void crafter_proto_write_short(FILE *out, const crafter_env *env,
                               const crafter_step_result *result,
                               const crafter_record_extra *extra) {
  write_short_or_state(out, env, result, extra, 0);
}

void crafter_proto_write_state(FILE *out, const crafter_env *env,
                               const crafter_step_result *result,
                               const crafter_record_extra *extra) {
  write_short_or_state(out, env, result, extra, 1);
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
