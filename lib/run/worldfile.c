#include "run/worldfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/outfile.h"

#define MAGIC "crafter-world"

/* Indexed by material id; none has no character. */
static const char material_chars[] = {
    0, '~', '.', '#', '_', ':', 'T', '%', 'c', 'i', 'd', 't', 'f',
};
_Static_assert(sizeof material_chars / sizeof material_chars[0] == CRAFTER_MATERIAL_COUNT,
               "a material without a world-file character");

char crafter_material_char(int material) {
  return material > 0 && material < CRAFTER_MATERIAL_COUNT ? material_chars[material] : 0;
}

char crafter_object_char(const crafter_object *object) {
  switch (object->kind) {
    case CRAFTER_PLAYER: return '@';
    case CRAFTER_COW: return 'C';
    case CRAFTER_ZOMBIE: return 'Z';
    case CRAFTER_SKELETON: return 'S';
    case CRAFTER_PLANT: return 'P';
    case CRAFTER_ARROW:
      if (object->facing_x < 0) return '<';
      if (object->facing_x > 0) return '>';
      return object->facing_y < 0 ? '^' : 'v';
    default: return '?';
  }
}

int crafter_object_default_ground(int kind) {
  return kind == CRAFTER_SKELETON || kind == CRAFTER_ARROW ? CRAFTER_PATH : CRAFTER_GRASS;
}

/* An object of a map character, or -1. */
static int object_of_char(char c, crafter_object *object) {
  memset(object, 0, sizeof(*object));
  switch (c) {
    case '@': object->kind = CRAFTER_PLAYER; return 0;
    case 'C': object->kind = CRAFTER_COW; return 0;
    case 'Z': object->kind = CRAFTER_ZOMBIE; return 0;
    case 'S': object->kind = CRAFTER_SKELETON; return 0;
    case 'P': object->kind = CRAFTER_PLANT; return 0;
    case '<': object->kind = CRAFTER_ARROW, object->facing_x = -1; return 0;
    case '>': object->kind = CRAFTER_ARROW, object->facing_x = 1; return 0;
    case '^': object->kind = CRAFTER_ARROW, object->facing_y = -1; return 0;
    case 'v': object->kind = CRAFTER_ARROW, object->facing_y = 1; return 0;
    default: return -1;
  }
}

static int material_of_char(char c) {
  for (int m = 1; m < CRAFTER_MATERIAL_COUNT; m++)
    if (material_chars[m] == c) return m;
  return -1;
}

void crafter_world_legend(FILE *out, const char *prefix) {
  fprintf(out, "%s. grass  ~ water  # stone  _ path  : sand  T tree  %% lava\n", prefix);
  fprintf(out, "%sc coal  i iron  d diamond  t table  f furnace\n", prefix);
  fprintf(out, "%s@ player  C cow  Z zombie  S skeleton  P plant  < > ^ v arrows\n", prefix);
}

void crafter_world_map_free(crafter_world_map *map) {
  free(map->materials);
  free(map->objects);
  memset(map, 0, sizeof(*map));
}

/* ---- reading ---- */

typedef struct ground_line {
  long line;
  int x, y, material;
} ground_line;

/* A parse: where to say what went wrong, and what it holds, which a
 * failure lets go (fail() frees it and empties the map). */
typedef struct parse_state {
  const char *name;
  char *error;
  size_t error_size;
  crafter_world_map *map;
  ground_line **grounds;
  int32_t **object_at;
  crafter_object **found;
} parse_state;

static void release(parse_state *state) {
  free(*state->grounds);
  *state->grounds = NULL;
  free(*state->object_at);
  *state->object_at = NULL;
  free(*state->found);
  *state->found = NULL;
  crafter_world_map_free(state->map);
}

static int fail(parse_state *state, long line, long column, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(parse_state *state, long line, long column, const char *format, ...) {
  release(state);
  int used;
  if (line > 0 && column > 0)
    used = snprintf(state->error, state->error_size, "%s:%ld:%ld: ", state->name, line, column);
  else if (line > 0)
    used = snprintf(state->error, state->error_size, "%s:%ld: ", state->name, line);
  else
    used = snprintf(state->error, state->error_size, "%s: ", state->name);
  if (used < 0 || (size_t)used >= state->error_size) return -1;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(state->error + used, state->error_size - (size_t)used, format, arguments);
  va_end(arguments);
  return -1;
}

/* The next line of text: start and length without the end of line. */
typedef struct line_cursor {
  const char *text;
  size_t length, position;
  long number;
} line_cursor;

static int next_line(line_cursor *cursor, const char **start, size_t *length) {
  if (cursor->position >= cursor->length) return 0;
  const char *begin = cursor->text + cursor->position;
  const char *end = memchr(begin, '\n', cursor->length - cursor->position);
  size_t size = end ? (size_t)(end - begin) : cursor->length - cursor->position;
  cursor->position += size + (end ? 1 : 0);
  if (size > 0 && begin[size - 1] == '\r') size--;
  cursor->number++;
  *start = begin;
  *length = size;
  return 1;
}

static int blank(const char *line, size_t length) {
  for (size_t i = 0; i < length; i++)
    if (line[i] != ' ' && line[i] != '\t') return 0;
  return 1;
}

/* Parses "KEY ARG..." header lines into words (at most `most`). */
static int split_words(const char *line, size_t length, char words[][64], int most) {
  int count = 0;
  size_t i = 0;
  while (i < length) {
    while (i < length && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i >= length) break;
    if (count == most) return most + 1;
    size_t start = i;
    while (i < length && line[i] != ' ' && line[i] != '\t') i++;
    size_t size = i - start < 63 ? i - start : 63;
    memcpy(words[count], line + start, size);
    words[count][size] = '\0';
    count++;
  }
  return count;
}

/* The column (from 1) where word `index` (from 0) of a header line
 * starts, as split_words splits it. */
static long word_column(const char *line, size_t length, int index) {
  size_t i = 0;
  for (int word = 0;; word++) {
    while (i < length && (line[i] == ' ' || line[i] == '\t')) i++;
    if (word == index || i >= length) return (long)i + 1;
    while (i < length && line[i] != ' ' && line[i] != '\t') i++;
  }
}

static int parse_coordinate(const char *text, int *out) {
  char *end;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (!*text || *end || errno || value < 0 || value >= CRAFTER_WORLDFILE_MAX_SIDE) return -1;
  *out = (int)value;
  return 0;
}

/* The first byte of LINE outside ASCII: its offset, or
 * -1.  Such a byte is never a cell, and in UTF-8 one character spans
 * several bytes, which would make the row look wider than it is. */
static long first_non_ascii(const char *line, size_t size) {
  for (size_t i = 0; i < size; i++)
    if ((unsigned char)line[i] >= 128) return (long)i;
  return -1;
}

/* Reports the byte at OFFSET of a row: the UTF-8 character it starts, its
 * column counted in characters. */
static int fail_non_ascii(parse_state *state, long line_number, const char *line, size_t size,
                          size_t offset) {
  long column = 1;
  for (size_t i = 0; i < offset; i++)
    if (((unsigned char)line[i] & 0xC0) != 0x80) column++;
  unsigned char lead = (unsigned char)line[offset];
  size_t length = lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1;
  int valid = length > 1 && offset + length <= size;
  for (size_t i = 1; valid && i < length; i++)
    valid = ((unsigned char)line[offset + i] & 0xC0) == 0x80;
  if (valid) {
    unsigned long code = lead & (0x7F >> length);
    for (size_t i = 1; i < length; i++)
      code = code << 6 | ((unsigned char)line[offset + i] & 0x3F);
    return fail(state, line_number, column,
                "non-ASCII character '%.*s' (U+%04lX); a map holds one ASCII character per "
                "cell (see crafter-world(5))",
                (int)length, line + offset, code);
  }
  return fail(state, line_number, column,
              "byte 0x%02X is not an ASCII character; a map holds one ASCII character per "
              "cell (see crafter-world(5))",
              lead);
}

int crafter_world_map_parse(crafter_world_map *map, const char *text, size_t length,
                            const char *name, char *error, size_t error_size) {
  memset(map, 0, sizeof(*map));
  ground_line *grounds = NULL;
  int32_t *object_at = NULL;
  crafter_object *found = NULL;
  parse_state state = {name, error, error_size, map, &grounds, &object_at, &found};
  line_cursor cursor = {text, length, 0, 0};
  const char *line;
  size_t size;
  if (memchr(text, '\0', length)) return fail(&state, 0, 0, "not a text file (it holds a NUL byte)");

  /* The header. */
  if (!next_line(&cursor, &line, &size)) return fail(&state, 0, 0, "empty file; expected a world file (crafter-world(5))");
  char words[4][64];
  int count = split_words(line, size, words, 3);
  if (count != 2 || strcmp(words[0], MAGIC) != 0)
    return fail(&state, 1, 1, "not a world file: expected '" MAGIC " %d' on the first line",
                CRAFTER_WORLDFILE_VERSION);
  if (strcmp(words[1], "1") != 0)
    return fail(&state, 1, (long)strlen(MAGIC) + 2,
                "world file version '%s' is not known (this reader knows version %d)", words[1],
                CRAFTER_WORLDFILE_VERSION);
  int declared_width = 0, declared_height = 0;
  long size_line = 0;
  int ground_count = 0, ground_capacity = 0;
  /* player K X Y lines: which '@' is player K (-1: none said). */
  int player_x[CRAFTER_PLAYERS_MAX], player_y[CRAFTER_PLAYERS_MAX];
  long player_said[CRAFTER_PLAYERS_MAX] = {0};
  int in_map = 0;
  while (!in_map && next_line(&cursor, &line, &size)) {
    if (blank(line, size) || line[0] == '#') continue;
    count = split_words(line, size, words, 4);
    if (count == 1 && strcmp(words[0], "map") == 0) {
      in_map = 1;
    } else if (count >= 1 && strcmp(words[0], "size") == 0) {
      if (count != 3 || parse_coordinate(words[1], &declared_width) < 0 ||
          parse_coordinate(words[2], &declared_height) < 0 || declared_width < 1 ||
          declared_height < 1) {
        return fail(&state, cursor.number, 1,
                    "expected 'size WIDTH HEIGHT' with sides from 1 to %d",
                    CRAFTER_WORLDFILE_MAX_SIDE);
      }
      size_line = cursor.number;
    } else if (count >= 1 && strcmp(words[0], "player") == 0) {
      int k, x, y;
      if (count != 4)
        return fail(&state, cursor.number, 1,
                    "expected 'player K X Y': the player K (0 to %d), then the column X and "
                    "the row Y of its '@'",
                    CRAFTER_PLAYERS_MAX - 1);
      if (parse_coordinate(words[1], &k) < 0 || k >= CRAFTER_PLAYERS_MAX)
        return fail(&state, cursor.number, word_column(line, size, 1),
                    "player '%s': K is a player from 0 to %d", words[1],
                    CRAFTER_PLAYERS_MAX - 1);
      if (parse_coordinate(words[2], &x) < 0)
        return fail(&state, cursor.number, word_column(line, size, 2),
                    "player %d: X '%s' is no column of a map (0 to %d)", k, words[2],
                    CRAFTER_WORLDFILE_MAX_SIDE - 1);
      if (parse_coordinate(words[3], &y) < 0)
        return fail(&state, cursor.number, word_column(line, size, 3),
                    "player %d: Y '%s' is no row of a map (0 to %d)", k, words[3],
                    CRAFTER_WORLDFILE_MAX_SIDE - 1);
      if (player_said[k]) {
        return fail(&state, cursor.number, 1, "player %d is placed twice (first at line %ld)",
                    k, player_said[k]);
      }
      player_said[k] = cursor.number;
      player_x[k] = x;
      player_y[k] = y;
    } else if (count >= 1 && strcmp(words[0], "ground") == 0) {
      ground_line ground;
      ground.line = cursor.number;
      if (count != 4 || parse_coordinate(words[1], &ground.x) < 0 ||
          parse_coordinate(words[2], &ground.y) < 0) {
        return fail(&state, cursor.number, 1, "expected 'ground X Y MATERIAL'");
      }
      ground.material = -1;
      for (int m = 1; m < CRAFTER_MATERIAL_COUNT; m++)
        if (strcmp(words[3], crafter_material_names[m]) == 0) ground.material = m;
      if (ground.material < 0) {
        return fail(&state, cursor.number, 1,
                    "unknown material '%s' (expected water, grass, stone, path, sand, tree, "
                    "lava, coal, iron, diamond, table or furnace)",
                    words[3]);
      }
      if (ground_count == ground_capacity) {
        ground_capacity = ground_capacity ? ground_capacity * 2 : 16;
        ground_line *grown = realloc(grounds, sizeof(*grounds) * (size_t)ground_capacity);
        if (!grown) {
          return fail(&state, 0, 0, "out of memory");
        }
        grounds = grown;
      }
      grounds[ground_count++] = ground;
    } else {
      return fail(&state, cursor.number, 1,
                  "unknown header line '%.40s' (expected 'size W H', 'ground X Y MATERIAL', "
                  "'player K X Y', 'map' or a # comment)",
                  words[0]);
    }
  }
  if (!in_map) {
    return fail(&state, 0, 0, "no map: expected a line 'map' followed by the rows");
  }

  /* The rows: first find the size, then fill. */
  size_t map_start = cursor.position;
  long first_row_line = cursor.number + 1;
  int width = -1, height = 0;
  line_cursor rows = cursor;
  long last_nonblank = 0;
  {
    line_cursor scan = cursor;
    while (next_line(&scan, &line, &size))
      if (size > 0) last_nonblank = scan.number;
  }
  while (rows.number < last_nonblank && next_line(&rows, &line, &size)) {
    long odd = first_non_ascii(line, size);
    if (odd >= 0) return fail_non_ascii(&state, rows.number, line, size, (size_t)odd);
    if (size > CRAFTER_WORLDFILE_MAX_SIDE) {
      return fail(&state, rows.number, CRAFTER_WORLDFILE_MAX_SIDE + 1,
                  "the row is %zu cells wide; at most %d are allowed", size,
                  CRAFTER_WORLDFILE_MAX_SIDE);
    }
    if (width < 0) width = (int)size;
    if ((int)size != width) {
      return fail(&state, rows.number, 1,
                  "this row is %zu cells wide but the first row (line %ld) is %d; every row "
                  "must have the same length",
                  size, first_row_line, width);
    }
    if (width == 0) {
      return fail(&state, rows.number, 1, "empty row; expected one character per cell");
    }
    height++;
    if (height > CRAFTER_WORLDFILE_MAX_SIDE) {
      return fail(&state, rows.number, 1, "the map is more than %d rows high",
                  CRAFTER_WORLDFILE_MAX_SIDE);
    }
  }
  if (height == 0) {
    return fail(&state, cursor.number, 0, "the map has no rows");
  }
  if (size_line && (declared_width != width || declared_height != height)) {
    return fail(&state, size_line, 1,
                "the header says size %d %d but the map is %d wide and %d high",
                declared_width, declared_height, width, height);
  }

  map->width = width;
  map->height = height;
  map->materials = malloc((size_t)width * (size_t)height);
  /* Objects by cell, to order them by x then y and to find ground lines. */
  object_at = malloc(sizeof(int32_t) * (size_t)width * (size_t)height);
  if (!map->materials || !object_at) {
    return fail(&state, 0, 0, "out of memory");
  }
  for (size_t i = 0; i < (size_t)width * (size_t)height; i++) object_at[i] = -1;
  long player_line = 0, player_column = 0;
  int player_count = 0;
  rows = cursor;
  rows.position = map_start;
  int found_count = 0, found_capacity = 0;
  for (int y = 0; y < height; y++) {
    next_line(&rows, &line, &size);
    for (int x = 0; x < width; x++) {
      char c = line[x];
      size_t cell = (size_t)x * (size_t)height + (size_t)y;
      int material = material_of_char(c);
      crafter_object object;
      if (material >= 0) {
        map->materials[cell] = (uint8_t)material;
        continue;
      }
      if (object_of_char(c, &object) < 0) {
        if (c > ' ' && c < 127)
          return fail(&state, rows.number, x + 1,
                      "unknown character '%c' (expected a material . ~ # _ : T %% c i d t f "
                      "or an object @ C Z S P < > ^ v; see crafter-world(5))",
                      c);
        return fail(&state, rows.number, x + 1,
                    "unknown character (byte %d) (expected a material . ~ # _ : T %% c i d t f "
                    "or an object @ C Z S P < > ^ v; see crafter-world(5))",
                    (unsigned char)c);
      }
      if (object.kind == CRAFTER_PLAYER) {
        if (player_count == CRAFTER_PLAYERS_MAX) {
          return fail(&state, rows.number, x + 1,
                      "a player '@' more than %d (the first is at line %ld, column %ld); a "
                      "world has 1 to %d players",
                      CRAFTER_PLAYERS_MAX, player_line, player_column, CRAFTER_PLAYERS_MAX);
        }
        if (!player_line) {
          player_line = rows.number;
          player_column = x + 1;
        }
        player_count++;
      }
      map->materials[cell] = (uint8_t)crafter_object_default_ground(object.kind);
      object.x = x;
      object.y = y;
      /* Crafter's healths; a game built from the map takes its config's. */
      object.health = crafter_config_health(&crafter_config_builtin, object.kind);
      if (found_count == found_capacity) {
        found_capacity = found_capacity ? found_capacity * 2 : 64;
        crafter_object *grown = realloc(found, sizeof(crafter_object) * (size_t)found_capacity);
        if (!grown) {
          return fail(&state, 0, 0, "out of memory");
        }
        found = grown;
      }
      found[found_count] = object;
      object_at[cell] = found_count;
      found_count++;
    }
  }
  if (!player_line) {
    return fail(&state, 0, 0, "no player: the map needs one '@'");
  }
  for (int i = 0; i < ground_count; i++) {
    const ground_line *ground = &grounds[i];
    if (ground->x >= width || ground->y >= height ||
        object_at[(size_t)ground->x * (size_t)height + (size_t)ground->y] < 0) {
      ground_line bad = *ground;
      return fail(&state, bad.line, 1,
                  "ground %d %d: no object stands there (a ground line sets the material "
                  "under an object of the map)",
                  bad.x, bad.y);
    }
    map->materials[(size_t)ground->x * (size_t)height + (size_t)ground->y] =
        (uint8_t)ground->material;
  }
  free(grounds);
  grounds = NULL;
  /* The players first, in reading order (player 0 is the first '@'), then
   * the others by x, then y: the order world generation adds creatures in. */
  map->objects = malloc(sizeof(crafter_object) * (size_t)found_count);
  if (!map->objects) {
    return fail(&state, 0, 0, "out of memory");
  }
  /* Players named by a player line take their places; the others fill the
   * rest in reading order. */
  int order[CRAFTER_PLAYERS_MAX];
  for (int k = 0; k < CRAFTER_PLAYERS_MAX; k++) order[k] = -1;
  for (int k = 0; k < CRAFTER_PLAYERS_MAX; k++) {
    if (!player_said[k]) continue;
    int index = player_x[k] < width && player_y[k] < height
                    ? object_at[(size_t)player_x[k] * (size_t)height + (size_t)player_y[k]]
                    : -1;
    if (k >= player_count && player_count == 1)
      return fail(&state, player_said[k], 1,
                  "player %d: the map has one player '@', player 0", k);
    if (k >= player_count)
      return fail(&state, player_said[k], 1,
                  "player %d: the map has %d players '@', players 0 to %d", k, player_count,
                  player_count - 1);
    if (index < 0 || found[index].kind != CRAFTER_PLAYER)
      return fail(&state, player_said[k], 1, "player %d: no '@' at %d %d", k, player_x[k],
                  player_y[k]);
    for (int j = 0; j < k; j++)
      if (order[j] == index) {
        return fail(&state, player_said[k], 1, "player %d: the '@' of player %d", k, j);
      }
    order[k] = index;
  }
  int next = 0;
  for (int i = 0; i < found_count; i++) {
    if (found[i].kind != CRAFTER_PLAYER) continue;
    int taken = 0;
    for (int k = 0; k < CRAFTER_PLAYERS_MAX; k++) taken |= order[k] == i;
    if (taken) continue;
    while (order[next] >= 0) next++;
    order[next] = i;
  }
  int placed = 0;
  for (int k = 0; k < player_count; k++) map->objects[placed++] = found[order[k]];
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      int index = object_at[(size_t)x * (size_t)height + (size_t)y];
      if (index >= 0 && found[index].kind != CRAFTER_PLAYER) map->objects[placed++] = found[index];
    }
  map->object_count = placed;
  free(object_at);
  free(found);
  return 0;
}

int crafter_world_map_load(crafter_world_map *map, const char *path, char *error,
                           size_t error_size) {
  char *text;
  size_t length;
  if (crafter_world_map_load_text(map, path, &text, &length, error, error_size) < 0) return -1;
  free(text);
  return 0;
}

int crafter_world_map_load_text(crafter_world_map *map, const char *path, char **kept,
                                size_t *kept_length, char *error, size_t error_size) {
  *kept = NULL;
  *kept_length = 0;
  memset(map, 0, sizeof(*map));
  int from_stdin = strcmp(path, "-") == 0;
  FILE *file = from_stdin ? stdin : fopen(path, "rb");
  const char *name = from_stdin ? "(standard input)" : path;
  if (!file) {
    snprintf(error, error_size, "%s: %s", path, strerror(errno));
    return -1;
  }
  const size_t limit = CRAFTER_WORLDFILE_MAX_BYTES;
  size_t capacity = 1 << 16, used = 0;
  char *text = malloc(capacity);
  int status = 0;
  while (text) {
    if (used == capacity) {
      if (capacity >= limit) {
        snprintf(error, error_size, "%s: too large for a world file (more than %zu bytes)", name,
                 limit);
        status = -1;
        break;
      }
      char *grown = realloc(text, capacity * 2);
      if (!grown) break;
      text = grown;
      capacity *= 2;
    }
    size_t got = fread(text + used, 1, capacity - used, file);
    used += got;
    if (got == 0) break;
  }
  if (!text) {
    snprintf(error, error_size, "out of memory");
    status = -1;
  } else if (status == 0 && ferror(file)) {
    snprintf(error, error_size, "%s: %s", name, strerror(errno));
    status = -1;
  }
  if (!from_stdin) fclose(file);
  if (status == 0) status = crafter_world_map_parse(map, text, used, name, error, error_size);
  if (status < 0) {
    free(text);
    return status;
  }
  *kept = text;
  *kept_length = used;
  return 0;
}

/* ---- writing ---- */

static int compare_objects(const void *left, const void *right) {
  const crafter_object *a = left, *b = right;
  return a->x != b->x ? (a->x > b->x) - (a->x < b->x) : (a->y > b->y) - (a->y < b->y);
}

int crafter_world_map_from_cc(crafter_world_map *map, const crafter_cc_state *state) {
  enum { SIZE = CRAFTER_CC_MAP_SIZE, MOST = 1 + 3 + 3 + 2 + 3 + CRAFTER_CC_MAX_PLANTS };
  static const uint8_t material[] = {
      [CRAFTER_CC_GRASS] = CRAFTER_GRASS,     [CRAFTER_CC_WATER] = CRAFTER_WATER,
      [CRAFTER_CC_STONE] = CRAFTER_STONE,     [CRAFTER_CC_TREE] = CRAFTER_TREE,
      [CRAFTER_CC_PATH] = CRAFTER_PATH,       [CRAFTER_CC_COAL] = CRAFTER_COAL,
      [CRAFTER_CC_IRON] = CRAFTER_IRON,       [CRAFTER_CC_DIAMOND] = CRAFTER_DIAMOND,
      [CRAFTER_CC_CRAFTING_TABLE] = CRAFTER_TABLE, [CRAFTER_CC_FURNACE] = CRAFTER_FURNACE,
      [CRAFTER_CC_SAND] = CRAFTER_SAND,       [CRAFTER_CC_LAVA] = CRAFTER_LAVA,
      [CRAFTER_CC_PLANT] = CRAFTER_GRASS,     [CRAFTER_CC_RIPE_PLANT] = CRAFTER_GRASS};
  memset(map, 0, sizeof(*map));
  map->width = map->height = SIZE;
  map->materials = malloc((size_t)SIZE * SIZE);
  map->objects = calloc(MOST, sizeof(crafter_object));
  if (!map->materials || !map->objects) {
    crafter_world_map_free(map);
    return -1;
  }
  for (int row = 0; row < SIZE; row++)
    for (int column = 0; column < SIZE; column++) {
      int block = state->map[row][column];
      map->materials[column * SIZE + row] =
          block < (int)sizeof(material) ? material[block] : CRAFTER_NONE;
    }
  static const int8_t facing[5][2] = {{0, 1}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  int direction = state->player_direction >= 0 && state->player_direction <= 4
                      ? state->player_direction
                      : 0;
  crafter_object *objects = map->objects;
  objects[0] = (crafter_object){.kind = CRAFTER_PLAYER,
                                .facing_x = facing[direction][0],
                                .facing_y = facing[direction][1],
                                .x = state->player_position[1],
                                .y = state->player_position[0],
                                .health = state->player_health};
  int count = 1;
  const struct {
    const crafter_cc_mobs *mobs;
    int slots, kind;
  } kinds[] = {{&state->cows, CRAFTER_CC_MAX_COWS, CRAFTER_COW},
               {&state->zombies, CRAFTER_CC_MAX_ZOMBIES, CRAFTER_ZOMBIE},
               {&state->skeletons, CRAFTER_CC_MAX_SKELETONS, CRAFTER_SKELETON},
               {&state->arrows, CRAFTER_CC_MAX_ARROWS, CRAFTER_ARROW}};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (int slot = 0; slot < kinds[k].slots; slot++) {
      const crafter_cc_mobs *mobs = kinds[k].mobs;
      int row = mobs->position[slot][0], column = mobs->position[slot][1];
      if (!mobs->mask[slot] || row < 0 || row >= SIZE || column < 0 || column >= SIZE) continue;
      crafter_object *o = &objects[count++];
      *o = (crafter_object){.kind = (uint8_t)kinds[k].kind, .x = column, .y = row,
                            .health = mobs->health[slot],
                            .counter = mobs->attack_cooldown[slot]};
      if (kinds[k].kind == CRAFTER_ARROW) {
        o->facing_x = (int8_t)state->arrow_directions[slot][1];
        o->facing_y = (int8_t)state->arrow_directions[slot][0];
      }
    }
  for (int slot = 0; slot < CRAFTER_CC_MAX_PLANTS; slot++) {
    int row = state->growing_plants_positions[slot][0];
    int column = state->growing_plants_positions[slot][1];
    if (!state->growing_plants_mask[slot] || row < 0 || row >= SIZE || column < 0 ||
        column >= SIZE)
      continue;
    int ripe = state->map[row][column] == CRAFTER_CC_RIPE_PLANT;
    objects[count++] = (crafter_object){
        .kind = CRAFTER_PLANT, .x = column, .y = row, .health = 1,
        .counter = ripe ? crafter_config_builtin.plant.ripe + 1 : 0};
  }
  qsort(objects + 1, (size_t)(count - 1), sizeof(crafter_object), compare_objects);
  map->object_count = count;
  return 0;
}

int crafter_world_map_from_game(crafter_world_map *map, const crafter_game *game) {
  memset(map, 0, sizeof(*map));
  const crafter_world *world = &game->world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  map->width = world->width;
  map->height = world->height;
  map->materials = malloc(cells);
  map->objects = malloc(sizeof(crafter_object) * (size_t)(world->object_count + 1));
  if (!map->materials || !map->objects) {
    crafter_world_map_free(map);
    return -1;
  }
  memcpy(map->materials, world->materials, cells);
  int count = 0;
  for (int slot = 0; slot < world->object_count; slot++)
    if (!world->objects[slot].removed && world->objects[slot].kind == CRAFTER_PLAYER)
      map->objects[count++] = world->objects[slot];
  for (int x = 0; x < world->width; x++)
    for (int y = 0; y < world->height; y++) {
      int slot = crafter_world_object_slot(world, x, y);
      if (slot >= 0 && world->objects[slot].kind != CRAFTER_PLAYER)
        map->objects[count++] = world->objects[slot];
    }
  map->object_count = count;
  return 0;
}

int crafter_world_map_write(FILE *out, const crafter_world_map *map, const char *comment) {
  size_t cells = (size_t)map->width * (size_t)map->height;
  char *grid = malloc(cells);
  if (!grid) return -1;
  for (int x = 0; x < map->width; x++)
    for (int y = 0; y < map->height; y++) {
      char c = crafter_material_char(map->materials[(size_t)x * (size_t)map->height + (size_t)y]);
      grid[(size_t)y * (size_t)map->width + (size_t)x] = c ? c : '?';
    }
  fprintf(out, MAGIC " %d\n", CRAFTER_WORLDFILE_VERSION);
  if (comment) fprintf(out, "# %s\n", comment);
  fprintf(out, "# One character per cell, x to the right, y down:\n");
  crafter_world_legend(out, "#   ");
  fprintf(out, "# Objects stand on grass (S and arrows on path) unless a ground line\n"
               "# names the material under them.  See crafter-world(5).\n");
  fprintf(out, "size %d %d\n", map->width, map->height);
  int players = 0;
  while (players < map->object_count && map->objects[players].kind == CRAFTER_PLAYER) players++;
  for (int k = 0; players > 1 && k < players; k++)
    fprintf(out, "player %d %d %d\n", k, map->objects[k].x, map->objects[k].y);
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    size_t cell = (size_t)object->x * (size_t)map->height + (size_t)object->y;
    int ground = map->materials[cell];
    grid[(size_t)object->y * (size_t)map->width + (size_t)object->x] = crafter_object_char(object);
    if (ground != crafter_object_default_ground(object->kind))
      fprintf(out, "ground %d %d %s\n", object->x, object->y, crafter_material_names[ground]);
  }
  fprintf(out, "map\n");
  for (int y = 0; y < map->height; y++) {
    fwrite(grid + (size_t)y * (size_t)map->width, 1, (size_t)map->width, out);
    fputc('\n', out);
  }
  free(grid);
  return ferror(out) ? -1 : 0;
}

int crafter_world_map_save(const crafter_world_map *map, const char *path, const char *comment,
                           char *error, size_t error_size) {
  char problem[600];
  if (strcmp(path, "-") == 0) {
    errno = 0;
    if (crafter_world_map_write(stdout, map, comment) < 0 || fflush(stdout) != 0)
      return crafter_fail(error, error_size, "cannot write the world to standard output: %s",
                          strerror(errno ? errno : EIO));
    return 0;
  }
  crafter_outfile out;
  if (crafter_outfile_open(&out, path, problem, sizeof(problem)) < 0)
    return crafter_fail(error, error_size, "cannot write %s", problem);
  errno = 0;
  if (crafter_world_map_write(out.file, map, comment) < 0) {
    int saved = errno ? errno : EIO;
    crafter_outfile_abort(&out);
    return crafter_fail(error, error_size, "cannot write %s: %s", path, strerror(saved));
  }
  if (crafter_outfile_commit(&out, problem, sizeof(problem)) < 0)
    return crafter_fail(error, error_size, "cannot write %s", problem);
  return 0;
}

/* ---- episodes ---- */

static int build_from_map(crafter_game *game, void *context) {
  const crafter_world_map *map = context;
  crafter_world *world = &game->world;
  crafter_world_clear(world);
  memcpy(world->materials, map->materials, (size_t)map->width * (size_t)map->height);
  crafter_world_recount(world);
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    int status;
    if (object->kind == CRAFTER_PLAYER) {
      status = i == 0 ? crafter_game_place_player(game, object->x, object->y)
                      : crafter_game_add_player(game, object->x, object->y);
    } else if (object->kind == CRAFTER_ARROW) {
      crafter_object arrow = *object;
      arrow.health = 0;
      arrow.counter = 0;
      status = crafter_world_add(world, &arrow);
    } else {
      status = crafter_game_add_creature(game, object->kind, object->x, object->y);
    }
    if (status < 0) return -1;
  }
  world->change_count = 0;
  return 0;
}

int crafter_world_map_start(crafter_env *env, const crafter_world_map *map, char *error,
                            size_t error_size) {
  if (map->width != env->params.area[0] || map->height != env->params.area[1]) {
    snprintf(error, error_size, "the world is %dx%d but the env's area is %dx%d", map->width,
             map->height, env->params.area[0], env->params.area[1]);
    return -1;
  }
  if (map->object_count < 1 || map->objects[0].kind != CRAFTER_PLAYER) {
    snprintf(error, error_size, "the world has no player");
    return -1;
  }
  int players = 0;
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    if (object->kind == CRAFTER_PLAYER) players++;
    if (object->x < 0 || object->y < 0 || object->x >= map->width || object->y >= map->height ||
        object->kind >= CRAFTER_OBJECT_KIND_COUNT ||
        (object->kind == CRAFTER_PLAYER && players != i + 1) || players > CRAFTER_PLAYERS_MAX) {
      snprintf(error, error_size, "object %d of the world is not valid", i);
      return -1;
    }
  }
  if (players > env->players) {
    snprintf(error, error_size, "the world has %d players '@'; play it with %d players or more",
             players, players);
    return CRAFTER_PLAYERS_UNFIT;
  }
  int status = crafter_env_reset_custom(env, build_from_map, (void *)map);
  if (status == CRAFTER_PLAYERS_UNFIT) {
    crafter_env_no_room(env, error, error_size);
    return CRAFTER_PLAYERS_UNFIT;
  }
  if (status < 0) return crafter_fail(error, error_size, "out of memory");
  return 0;
}
