#include "play.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "proto.h"
#include "render.h"
#include "terminal.h"

/* ---- keys ---- */

static int arrow_of(uint8_t final_byte) {
  switch (final_byte) {
    case 'A': return CRAFTER_KEY_UP;
    case 'B': return CRAFTER_KEY_DOWN;
    case 'C': return CRAFTER_KEY_RIGHT;
    case 'D': return CRAFTER_KEY_LEFT;
    default: return CRAFTER_KEY_UNKNOWN;
  }
}

size_t crafter_play_decode_key(const uint8_t *bytes, size_t length, int final, int *key) {
  if (length == 0) return 0;
  uint8_t first = bytes[0];
  if (first != 0x1b) {
    if (first < 0x80) {
      *key = first;
      return 1;
    }
    /* A UTF-8 character: its lead byte says how long it is. */
    size_t need = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    size_t used = 1;
    while (used < need && used < length && (bytes[used] & 0xc0) == 0x80) used++;
    if (used < need && used == length && !final) return 0;
    *key = CRAFTER_KEY_UNKNOWN;
    return used;
  }
  if (length == 1) {
    if (!final) return 0;
    *key = CRAFTER_KEY_ESCAPE;
    return 1;
  }
  if (bytes[1] == '[') {
    /* A control sequence: parameter and intermediate bytes, then one
     * final byte. */
    size_t i = 2;
    while (i < length && bytes[i] >= 0x20 && bytes[i] <= 0x3f) i++;
    if (i == length) {
      if (!final) return 0;
      *key = CRAFTER_KEY_UNKNOWN;
      return length;
    }
    if (bytes[i] < 0x40 || bytes[i] > 0x7e) {
      *key = CRAFTER_KEY_UNKNOWN;
      return i;
    }
    *key = arrow_of(bytes[i]);
    return i + 1;
  }
  if (bytes[1] == 'O') {
    if (length == 2) {
      if (!final) return 0;
      *key = CRAFTER_KEY_UNKNOWN;
      return 2;
    }
    *key = arrow_of(bytes[2]);
    return 3;
  }
  if (bytes[1] == 0x1b) { /* Escape pressed twice, or before a sequence */
    *key = CRAFTER_KEY_ESCAPE;
    return 1;
  }
  *key = CRAFTER_KEY_UNKNOWN; /* Alt and a key */
  return 2;
}

int crafter_play_action_of_key(int key) {
  if (key >= 'A' && key <= 'Z') key += 'a' - 'A';
  switch (key) {
    case 'a': case CRAFTER_KEY_LEFT: return CRAFTER_MOVE_LEFT;
    case 'd': case CRAFTER_KEY_RIGHT: return CRAFTER_MOVE_RIGHT;
    case 'w': case CRAFTER_KEY_UP: return CRAFTER_MOVE_UP;
    case 's': case CRAFTER_KEY_DOWN: return CRAFTER_MOVE_DOWN;
    case ' ': return CRAFTER_DO;
    case '\t': return CRAFTER_SLEEP;
    case 'r': return CRAFTER_PLACE_STONE;
    case 't': return CRAFTER_PLACE_TABLE;
    case 'f': return CRAFTER_PLACE_FURNACE;
    case 'p': return CRAFTER_PLACE_PLANT;
    case '1': return CRAFTER_MAKE_WOOD_PICKAXE;
    case '2': return CRAFTER_MAKE_STONE_PICKAXE;
    case '3': return CRAFTER_MAKE_IRON_PICKAXE;
    case '4': return CRAFTER_MAKE_WOOD_SWORD;
    case '5': return CRAFTER_MAKE_STONE_SWORD;
    case '6': return CRAFTER_MAKE_IRON_SWORD;
    case '.': case 'n': return CRAFTER_NOOP;
    default: return -1;
  }
}

/* Player 1's keys in a game of two (crafter_play_player_action_of_key). */
static int second_player_action(int key) {
  if (key >= 'A' && key <= 'Z') key += 'a' - 'A';
  switch (key) {
    case CRAFTER_KEY_LEFT: return CRAFTER_MOVE_LEFT;
    case CRAFTER_KEY_RIGHT: return CRAFTER_MOVE_RIGHT;
    case CRAFTER_KEY_UP: return CRAFTER_MOVE_UP;
    case CRAFTER_KEY_DOWN: return CRAFTER_MOVE_DOWN;
    case '\r': case '\n': return CRAFTER_DO;
    case 0x7f: case '\b': return CRAFTER_SLEEP;
    case 'h': return CRAFTER_PLACE_STONE;
    case 'j': return CRAFTER_PLACE_TABLE;
    case 'k': return CRAFTER_PLACE_FURNACE;
    case 'l': return CRAFTER_PLACE_PLANT;
    case '7': return CRAFTER_MAKE_WOOD_PICKAXE;
    case '8': return CRAFTER_MAKE_STONE_PICKAXE;
    case '9': return CRAFTER_MAKE_IRON_PICKAXE;
    case 'u': return CRAFTER_MAKE_WOOD_SWORD;
    case 'i': return CRAFTER_MAKE_STONE_SWORD;
    case 'o': return CRAFTER_MAKE_IRON_SWORD;
    default: return -1;
  }
}

int crafter_play_player_action_of_key(int key, int players, int *player) {
  *player = 0;
  if (players < 2) return crafter_play_action_of_key(key);
  int action = second_player_action(key);
  if (action >= 0) {
    *player = 1;
    return action;
  }
  action = crafter_play_action_of_key(key);
  if (action == CRAFTER_NOOP) *player = -1;
  return action;
}

int crafter_play_command_of_key(int key, int replay) {
  switch (key) {
    case 'q': case 'Q': case CRAFTER_KEY_ESCAPE: case 3: case 4: return CRAFTER_PLAY_QUIT;
    case 12: return CRAFTER_PLAY_REDRAW;
    case '+': case '=': return CRAFTER_PLAY_FASTER;
    case '-': case '_': return CRAFTER_PLAY_SLOWER;
    default: break;
  }
  if (!replay) return CRAFTER_PLAY_NOTHING;
  switch (key) {
    case ' ': return CRAFTER_PLAY_PAUSE;
    case '.': case 'n': case 'N': case CRAFTER_KEY_RIGHT: return CRAFTER_PLAY_FORWARD;
    case ',': case 'b': case 'B': case CRAFTER_KEY_LEFT: return CRAFTER_PLAY_BACK;
    default: return CRAFTER_PLAY_NOTHING;
  }
}

/* ---- real time ---- */

void crafter_play_frames_start(crafter_play_frames *frames, int fps, long now) {
  frames->fps = fps < 1 ? 1 : fps > 1000 ? 1000 : fps;
  frames->start = now;
  frames->frame = 0;
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) frames->pending[p] = -1;
}

void crafter_play_frames_key(crafter_play_frames *frames, int action) {
  frames->pending[0] = action;
}

void crafter_play_frames_key_player(crafter_play_frames *frames, int p, int action) {
  if (p >= 0 && p < CRAFTER_PLAYERS_MAX) frames->pending[p] = action;
}

/* When the frame under way ends: frame k of a run ends k + 1 frames after
 * its start, counted from the start so that rounding never adds up. */
static long frame_end(const crafter_play_frames *frames) {
  return frames->start + (frames->frame + 1) * 1000 / frames->fps;
}

long crafter_play_frames_wait(const crafter_play_frames *frames, long now) {
  long left = frame_end(frames) - now;
  return left > 0 ? left : 0;
}

int crafter_play_frames_take(crafter_play_frames *frames, long now) {
  int action;
  return crafter_play_frames_take_players(frames, now, 1, &action) ? action : -1;
}

int crafter_play_frames_take_players(crafter_play_frames *frames, long now, int players,
                                     int *actions) {
  if (now < frame_end(frames)) return 0;
  if (players > CRAFTER_PLAYERS_MAX) players = CRAFTER_PLAYERS_MAX;
  for (int p = 0; p < players; p++)
    actions[p] = frames->pending[p] >= 0 ? frames->pending[p] : CRAFTER_NOOP;
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) frames->pending[p] = -1;
  frames->frame++;
  if (frame_end(frames) <= now) { /* late: the next frame is a whole one from now */
    frames->start = now;
    frames->frame = 0;
  }
  return 1;
}

/* ---- colours ---- */

int crafter_play_mode_for_terminal(int terminal, const char *colorterm, const char *term) {
  if (!terminal || (term && strcmp(term, "dumb") == 0)) return CRAFTER_PLAY_GLYPHS;
  if (colorterm && (strcmp(colorterm, "truecolor") == 0 || strcmp(colorterm, "24bit") == 0))
    return CRAFTER_PLAY_TRUECOLOR;
  return CRAFTER_PLAY_COLOR_256;
}

static const int cube_levels[6] = {0, 95, 135, 175, 215, 255};

/* CIE L*a*b* of an sRGB colour (D65), where distances follow what the
 * eye sees far better than in RGB: a dark green stays green rather than
 * becoming the nearest grey. */
static double linear_channel(int value) {
  double c = value / 255.0;
  return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double lab_f(double t) {
  return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116;
}

static void rgb_to_lab(int red, int green, int blue, double lab[3]) {
  double r = linear_channel(red), g = linear_channel(green), b = linear_channel(blue);
  double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
  double fx = lab_f(x), fy = lab_f(y), fz = lab_f(z);
  lab[0] = 116 * fy - 16;
  lab[1] = 500 * (fx - fy);
  lab[2] = 200 * (fy - fz);
}

static double lab_distance(const double a[3], const double b[3]) {
  return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
         (a[2] - b[2]) * (a[2] - b[2]);
}

/* The cube levels at or below and at or above a channel value. */
static void cube_bracket(int value, int *low, int *high) {
  int i = 0;
  while (i < 5 && cube_levels[i + 1] <= value) i++;
  *low = i;
  *high = cube_levels[i] == value || i == 5 ? i : i + 1;
}

int crafter_play_rgb_to_256(int red, int green, int blue) {
  double target[3], candidate[3];
  rgb_to_lab(red, green, blue, target);
  int best = -1;
  double best_distance = 0;
  /* The cube corners around the colour ... */
  int low[3], high[3];
  cube_bracket(red, &low[0], &high[0]);
  cube_bracket(green, &low[1], &high[1]);
  cube_bracket(blue, &low[2], &high[2]);
  for (int corner = 0; corner < 8; corner++) {
    int ri = corner & 1 ? high[0] : low[0];
    int gi = corner & 2 ? high[1] : low[1];
    int bi = corner & 4 ? high[2] : low[2];
    rgb_to_lab(cube_levels[ri], cube_levels[gi], cube_levels[bi], candidate);
    double distance = lab_distance(target, candidate);
    if (best < 0 || distance < best_distance) {
      best = 16 + 36 * ri + 6 * gi + bi;
      best_distance = distance;
    }
  }
  /* ... and the two greys of the ramp (8 to 238 by 10) around its lightness. */
  int average = (red + green + blue) / 3;
  int grey_low = average < 8 ? 0 : average > 238 ? 23 : (average - 8) / 10;
  for (int index = grey_low; index <= grey_low + 1 && index < 24; index++) {
    int grey = 8 + 10 * index;
    rgb_to_lab(grey, grey, grey, candidate);
    double distance = lab_distance(target, candidate);
    if (distance < best_distance) {
      best = 232 + index;
      best_distance = distance;
    }
  }
  return best;
}

/* ---- text ---- */

void crafter_play_text_free(crafter_play_text *text) {
  free(text->data);
  memset(text, 0, sizeof(*text));
}

static int reserve(crafter_play_text *text, size_t more) {
  if (text->failed) return -1;
  if (text->length + more + 1 <= text->capacity) return 0;
  size_t capacity = text->capacity ? text->capacity : 256;
  while (capacity < text->length + more + 1) capacity *= 2;
  char *data = realloc(text->data, capacity);
  if (!data) {
    text->failed = 1;
    return -1;
  }
  text->data = data;
  text->capacity = capacity;
  return 0;
}

static void put_bytes(crafter_play_text *text, const char *bytes, size_t count) {
  if (reserve(text, count) < 0) return;
  memcpy(text->data + text->length, bytes, count);
  text->length += count;
  text->data[text->length] = '\0';
}

static void put_string(crafter_play_text *text, const char *string) {
  put_bytes(text, string, strlen(string));
}

static void put(crafter_play_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void put(crafter_play_text *text, const char *format, ...) {
  char small[256];
  va_list arguments;
  va_start(arguments, format);
  int needed = vsnprintf(small, sizeof(small), format, arguments);
  va_end(arguments);
  if (needed < 0) return;
  if ((size_t)needed < sizeof(small)) {
    put_bytes(text, small, (size_t)needed);
    return;
  }
  if (reserve(text, (size_t)needed) < 0) return;
  va_start(arguments, format);
  vsnprintf(text->data + text->length, (size_t)needed + 1, format, arguments);
  va_end(arguments);
  text->length += (size_t)needed;
}

static void put_repeat(crafter_play_text *text, const char *string, int times) {
  for (int i = 0; i < times; i++) put_string(text, string);
}

/* Columns a string takes on the screen: escape sequences take none, a
 * UTF-8 character one. */
static int visible_width(const char *string) {
  int width = 0;
  for (const unsigned char *at = (const unsigned char *)string; *at; at++) {
    if (*at == 0x1b) {
      at++;
      if (*at == '[') {
        at++;
        while (*at && !(*at >= 0x40 && *at <= 0x7e)) at++;
      }
      if (!*at) break;
      continue;
    }
    if ((*at & 0xc0) != 0x80) width++;
  }
  return width;
}

/* Appends a string cut to `limit` columns, escapes kept whole; colour is
 * reset after a cut. */
static void put_clipped(crafter_play_text *text, const char *string, int limit) {
  int width = 0;
  const unsigned char *at = (const unsigned char *)string;
  const unsigned char *start = at;
  int cut = 0;
  while (*at) {
    if (*at == 0x1b) {
      const unsigned char *end = at + 1;
      if (*end == '[') {
        end++;
        while (*end && !(*end >= 0x40 && *end <= 0x7e)) end++;
      }
      if (*end) end++;
      at = end;
      continue;
    }
    if ((*at & 0xc0) != 0x80) {
      if (width == limit) {
        cut = 1;
        break;
      }
      width++;
    }
    at++;
  }
  put_bytes(text, (const char *)start, (size_t)(at - start));
  if (cut && strchr((const char *)start, 0x1b)) put_string(text, "\033[0m");
}

/* ---- the frame ---- */

enum { PANEL_MIN = 32, PANEL_NATURAL = 48, GAP = 2, MIN_AUTO_CELL_ROWS = 3,
       MAX_AUTO_CELL_ROWS = 4 };

struct crafter_play_screen {
  crafter_params params;
  int colour_mode;     /* the mode asked for */
  int mode;            /* the mode of the frame being drawn, or last drawn */
  const crafter_textures *textures;
  int fixed_cell_rows; /* 0: fit the terminal */
  int frame_cell_rows; /* of the frame last drawn: 1 for glyphs */
  int cell_rows;       /* of the renderer below */
  int grid[2];         /* the local view in cells */
  crafter_renderer *renderer;
  int unit;            /* pixels of a rendered cell */
  int factor;          /* rendered pixels per shown pixel, each way */
  uint8_t *pixels;     /* the rendered observation */
  uint8_t *shown;      /* the local view at terminal resolution, row-major RGB */
  long *shown_keys;    /* each pixel of shown as it is drawn: 0xRRGGBB or a palette index */
  /* Recent palette lookups (the 256-colour search is not free): a colour
   * 0xRRGGBB and its index, by a hash of the colour; -1 when empty. */
  long cache_colour[4096];
  int cache_index[4096];
};

crafter_play_screen *crafter_play_screen_new(const crafter_params *params, int mode,
                                             const crafter_textures *textures, int cell_rows,
                                             char *error, size_t error_size) {
  if (crafter_params_check(params, error, error_size) < 0) return NULL;
  if (mode != CRAFTER_PLAY_GLYPHS && !textures) {
    snprintf(error, error_size, "colour needs textures");
    return NULL;
  }
  if (cell_rows < 0 || cell_rows > 16) {
    snprintf(error, error_size, "a cell takes 1 to 16 rows");
    return NULL;
  }
  crafter_play_screen *screen = calloc(1, sizeof(*screen));
  if (!screen) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  screen->params = *params;
  screen->colour_mode = screen->mode = mode;
  screen->textures = textures;
  screen->fixed_cell_rows = cell_rows;
  screen->frame_cell_rows = mode == CRAFTER_PLAY_GLYPHS ? 1 : 0;
  for (int i = 0; i < 4096; i++) screen->cache_colour[i] = -1;
  int item_rows = (CRAFTER_ITEM_COUNT + params->view[0] - 1) / params->view[0];
  screen->grid[0] = params->view[0];
  screen->grid[1] = params->view[1] - item_rows;
  return screen;
}

static void drop_renderer(crafter_play_screen *screen) {
  crafter_renderer_free(screen->renderer);
  free(screen->pixels);
  free(screen->shown);
  free(screen->shown_keys);
  screen->renderer = NULL;
  screen->pixels = screen->shown = NULL;
  screen->shown_keys = NULL;
}

void crafter_play_screen_free(crafter_play_screen *screen) {
  if (!screen) return;
  drop_renderer(screen);
  free(screen);
}

int crafter_play_screen_cell_rows(const crafter_play_screen *screen) {
  return screen->frame_cell_rows;
}

int crafter_play_screen_mode(const crafter_play_screen *screen) { return screen->mode; }

/* A renderer whose cells are at least 16 pixels (the textures' own size)
 * and a whole multiple of the 2R x 2R pixels a cell shows as. */
static int prepare_renderer(crafter_play_screen *screen, int cell_rows) {
  if (screen->renderer && screen->cell_rows == cell_rows) return 0;
  drop_renderer(screen);
  int shown_unit = 2 * cell_rows;
  int factor = (16 + shown_unit - 1) / shown_unit;
  int unit = shown_unit * factor;
  crafter_params params = screen->params;
  long width = (long)params.view[0] * unit, height = (long)params.view[1] * unit;
  if (width > 4096 || height > 4096) { /* the renderer's limit: sample coarser */
    factor = 1;
    unit = shown_unit;
    width = (long)params.view[0] * unit;
    height = (long)params.view[1] * unit;
    if (width > 4096 || height > 4096) return -1;
  }
  params.size[0] = (int)width;
  params.size[1] = (int)height;
  char ignored[200];
  screen->renderer = crafter_renderer_new(screen->textures, &params, ignored, sizeof(ignored));
  screen->pixels = malloc((size_t)width * (size_t)height * 3);
  size_t shown_pixels =
      (size_t)screen->grid[0] * (size_t)shown_unit * (size_t)screen->grid[1] * (size_t)shown_unit;
  screen->shown = malloc(shown_pixels * 3);
  screen->shown_keys = malloc(shown_pixels * sizeof(long));
  if (!screen->renderer || !screen->pixels || !screen->shown || !screen->shown_keys) {
    drop_renderer(screen);
    return -1;
  }
  screen->cell_rows = cell_rows;
  screen->unit = unit;
  screen->factor = factor;
  return 0;
}

/* Renders the env's observation without touching its generator: the
 * night noise is drawn from `noise`, a copy of it that the caller keeps
 * (so that views drawn one after another draw on), then averages factor x
 * factor blocks of the local view into `shown`. */
static void render_shown(crafter_play_screen *screen, crafter_env *env, int viewer,
                         crafter_rng *noise) {
  crafter_rng saved = env->game.rng;
  env->game.rng = *noise;
  crafter_render_pixels(screen->renderer, env, viewer, screen->pixels);
  *noise = env->game.rng;
  env->game.rng = saved;
  int factor = screen->factor;
  int shown_width = screen->grid[0] * screen->unit / factor;
  int shown_height = screen->grid[1] * screen->unit / factor;
  size_t rendered_width = (size_t)screen->params.view[0] * (size_t)screen->unit;
  int area = factor * factor;
  for (int y = 0; y < shown_height; y++)
    for (int x = 0; x < shown_width; x++) {
      int sum[3] = {0, 0, 0};
      for (int dy = 0; dy < factor; dy++) {
        const uint8_t *row = screen->pixels +
                             ((size_t)(y * factor + dy) * rendered_width + (size_t)(x * factor)) * 3;
        for (int dx = 0; dx < factor; dx++)
          for (int c = 0; c < 3; c++) sum[c] += row[dx * 3 + c];
      }
      uint8_t *out = screen->shown + ((size_t)y * (size_t)shown_width + (size_t)x) * 3;
      for (int c = 0; c < 3; c++) out[c] = (uint8_t)((sum[c] + area / 2) / area);
    }
}

/* What a pixel is drawn with in the screen's mode: 0xRRGGBB in
 * truecolor, else its palette index. */
static long colour_key(crafter_play_screen *screen, const uint8_t *rgb) {
  long colour = (long)rgb[0] << 16 | rgb[1] << 8 | rgb[2];
  if (screen->mode == CRAFTER_PLAY_TRUECOLOR) return colour;
  size_t slot = (size_t)((colour * 2654435761u) >> 12) % 4096;
  if (screen->cache_colour[slot] != colour) {
    screen->cache_colour[slot] = colour;
    screen->cache_index[slot] = crafter_play_rgb_to_256(rgb[0], rgb[1], rgb[2]);
  }
  return screen->cache_index[slot];
}

/* The escape that sets the foreground (or background) to a key of
 * colour_key. */
static void put_key(crafter_play_text *text, int mode, int background, long key) {
  if (mode == CRAFTER_PLAY_TRUECOLOR)
    put(text, "\033[%d;2;%ld;%ld;%ldm", background ? 48 : 38, key >> 16, key >> 8 & 255,
        key & 255);
  else
    put(text, "\033[%d;5;%ldm", background ? 48 : 38, key);
}

/* The escape for an RGB colour in a mode. */
static void put_colour(crafter_play_text *text, int mode, int background, const uint8_t *rgb) {
  if (mode == CRAFTER_PLAY_TRUECOLOR)
    put_key(text, mode, background, (long)rgb[0] << 16 | rgb[1] << 8 | rgb[2]);
  else
    put_key(text, mode, background, crafter_play_rgb_to_256(rgb[0], rgb[1], rgb[2]));
}

typedef struct lines {
  crafter_play_text *line;
  int count, capacity;
  int failed;
} lines;

static crafter_play_text *new_line(lines *all) {
  if (all->count == all->capacity) {
    int capacity = all->capacity ? all->capacity * 2 : 32;
    crafter_play_text *grown = realloc(all->line, sizeof(*grown) * (size_t)capacity);
    if (!grown) {
      all->failed = 1;
      return NULL;
    }
    all->line = grown;
    all->capacity = capacity;
  }
  crafter_play_text *line = &all->line[all->count++];
  memset(line, 0, sizeof(*line));
  put_string(line, "");
  return line;
}

static void free_lines(lines *all) {
  for (int i = 0; i < all->count; i++) crafter_play_text_free(&all->line[i]);
  free(all->line);
  memset(all, 0, sizeof(*all));
}

static int lines_failed(const lines *all) {
  if (all->failed) return 1;
  for (int i = 0; i < all->count; i++)
    if (all->line[i].failed) return 1;
  return 0;
}

/* Adds a line with formatted text; a NULL line (no memory) is noted. */
static void add_line(lines *all, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void add_line(lines *all, const char *format, ...) {
  crafter_play_text *line = new_line(all);
  if (!line) return;
  char buffer[512];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(buffer, sizeof(buffer), format, arguments);
  va_end(arguments);
  put_string(line, buffer);
}

/* Lays out `count` words on lines of at most `width` columns, `indent`
 * spaces before each, words separated by `separator`. */
static void add_wrapped(lines *all, const char *const *words, int count, int width, int indent,
                        const char *separator) {
  crafter_play_text *line = NULL;
  int used = 0, separator_width = visible_width(separator);
  for (int i = 0; i < count; i++) {
    int word_width = visible_width(words[i]);
    if (line && used + separator_width + word_width > width) line = NULL;
    if (!line) {
      line = new_line(all);
      if (!line) return;
      put_repeat(line, " ", indent);
      put_string(line, words[i]);
      used = indent + word_width;
      continue;
    }
    put_string(line, separator);
    put_string(line, words[i]);
    used += separator_width + word_width;
  }
}

/* Splits text at `split` (one space or more) into words and wraps them
 * on lines of `width` columns, joined by `separator`. */
static void add_split(lines *all, const char *text, const char *split, int width,
                      const char *separator) {
  enum { WORDS = 128, WORD_LENGTH = 128 };
  const char *words[WORDS];
  char copies[WORDS][WORD_LENGTH];
  int count = 0;
  const char *at = text;
  while (*at == ' ') at++;
  while (*at && count < WORDS) {
    const char *end = strstr(at, split);
    size_t length = end ? (size_t)(end - at) : strlen(at);
    if (length >= sizeof(copies[0])) length = sizeof(copies[0]) - 1;
    memcpy(copies[count], at, length);
    copies[count][length] = '\0';
    words[count] = copies[count];
    count++;
    if (!end) break;
    at = end;
    while (*at == ' ') at++;
  }
  add_wrapped(all, words, count, width, 0, separator);
}

/* The glyph of a cell: the object on it, else its material; blank outside.
 * The viewer is @, another player its number. */
static char cell_glyph(const crafter_env *env, int viewer, int x, int y) {
  const crafter_world *world = &env->game.world;
  if (!crafter_world_inside(world, x, y)) return ' ';
  int slot = crafter_world_object_slot(world, x, y);
  if (slot >= 0) {
    int p = crafter_game_player_of_slot(&env->game, slot);
    if (p >= 0 && p != viewer) return (char)(p < 10 ? '0' + p : 'a' + p - 10);
    return crafter_object_char(&world->objects[slot]);
  }
  char c = crafter_material_char(crafter_world_material(world, x, y));
  return c ? c : '?';
}

/* Where the view of a player who left the world was: a box of the view's
 * size saying so. */
static void add_gone(lines *all, const crafter_play_screen *screen, int viewer, int cells_x,
                     int cells_y) {
  char words[64];
  snprintf(words, sizeof(words), "player %d died", viewer);
  int glyphs = screen->mode == CRAFTER_PLAY_GLYPHS;
  int inner = glyphs ? 2 * cells_x + 1 : 2 * screen->cell_rows * cells_x;
  int height = glyphs ? cells_y : cells_y * screen->cell_rows;
  int length = (int)strlen(words);
  if (length > inner) length = inner;
  for (int row = -1; row <= height; row++) {
    int border = row < 0 || row == height;
    if (border && !glyphs) continue;
    crafter_play_text *line = new_line(all);
    if (!line) return;
    if (border) {
      put_string(line, "+");
      put_repeat(line, "-", inner);
      put_string(line, "+");
      continue;
    }
    if (glyphs) put_string(line, "|");
    if (row != height / 2) {
      put_repeat(line, " ", inner);
    } else {
      int before = (inner - length) / 2;
      put_repeat(line, " ", before);
      put_bytes(line, words, (size_t)length);
      put_repeat(line, " ", inner - length - before);
    }
    if (glyphs) put_string(line, "|");
  }
}

/* The map: `cells` columns and `cell_lines` rows of cells around player
 * `viewer` (at most the view); its night noise from `noise`. */
static void add_map(lines *all, crafter_play_screen *screen, crafter_env *env, int viewer,
                    int cells_x, int cells_y, crafter_rng *noise) {
  int first_x = (screen->grid[0] - cells_x) / 2, first_y = (screen->grid[1] - cells_y) / 2;
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  if (!center) {
    add_gone(all, screen, viewer, cells_x, cells_y);
    return;
  }
  if (screen->mode == CRAFTER_PLAY_GLYPHS) {
    int center_x = center->x;
    int center_y = center->y;
    crafter_play_text *line = new_line(all);
    if (line) {
      put_string(line, "+");
      put_repeat(line, "-", 2 * cells_x + 1);
      put_string(line, "+");
    }
    for (int gy = first_y; gy < first_y + cells_y; gy++) {
      line = new_line(all);
      if (!line) return;
      put_string(line, "|");
      for (int gx = first_x; gx < first_x + cells_x; gx++) {
        char glyph[3] = {' ', cell_glyph(env, viewer, center_x + gx - screen->grid[0] / 2,
                                         center_y + gy - screen->grid[1] / 2), '\0'};
        put_string(line, glyph);
      }
      put_string(line, " |");
    }
    line = new_line(all);
    if (line) {
      put_string(line, "+");
      put_repeat(line, "-", 2 * cells_x + 1);
      put_string(line, "+");
    }
    return;
  }
  render_shown(screen, env, viewer, noise);
  int shown_unit = 2 * screen->cell_rows;
  int shown_width = screen->grid[0] * shown_unit;
  size_t shown_pixels = (size_t)shown_width * (size_t)(screen->grid[1] * shown_unit);
  for (size_t i = 0; i < shown_pixels; i++)
    screen->shown_keys[i] = colour_key(screen, screen->shown + i * 3);
  for (int row = first_y * screen->cell_rows; row < (first_y + cells_y) * screen->cell_rows;
       row++) {
    crafter_play_text *line = new_line(all);
    if (!line) return;
    long foreground = -1, background = -1;
    const long *upper_row = screen->shown_keys + (size_t)(2 * row) * (size_t)shown_width;
    const long *lower_row = upper_row + shown_width;
    for (int column = first_x * shown_unit; column < (first_x + cells_x) * shown_unit; column++) {
      long upper = upper_row[column], lower = lower_row[column];
      if (lower != background) {
        put_key(line, screen->mode, 1, lower);
        background = lower;
      }
      if (upper == lower) { /* a space shows the background alone */
        put_string(line, " ");
        continue;
      }
      if (upper != foreground) {
        put_key(line, screen->mode, 0, upper);
        foreground = upper;
      }
      put_string(line, "\xe2\x96\x80"); /* U+2580 UPPER HALF BLOCK */
    }
    put_string(line, "\033[0m");
  }
}

static const char *const facing_names[4] = {"left", "right", "up", "down"};

static const uint8_t vital_colours[4][3] = {
    {220, 60, 60}, {230, 140, 50}, {70, 150, 235}, {235, 205, 70}};

/* A vital as its name, its value and a bar, onto a line. */
static void put_vital(crafter_play_text *line, const crafter_play_screen *screen,
                      const crafter_env *env, int viewer, int item) {
  int value = crafter_game_player_const(&env->game, viewer)->inventory[item];
  int maximum = env->config->items[item].max;
  int length = maximum < 1 ? 1 : maximum > 20 ? 20 : maximum;
  int filled = maximum > 0 ? (int)(((long)value * length + maximum - 1) / maximum) : 0;
  if (filled > length) filled = length;
  if (filled < 0) filled = 0;
  put(line, "%-7s %2d ", crafter_item_names[item], value);
  if (screen->mode == CRAFTER_PLAY_GLYPHS) {
    put_repeat(line, "#", filled);
    put_repeat(line, ".", length - filled);
    return;
  }
  put_colour(line, screen->mode, 0, vital_colours[item]);
  put_repeat(line, "\xe2\x96\x88", filled); /* U+2588 FULL BLOCK */
  static const uint8_t empty[3] = {90, 90, 90};
  put_colour(line, screen->mode, 0, empty);
  put_repeat(line, "\xe2\x96\x91", length - filled); /* U+2591 LIGHT SHADE */
  put_string(line, "\033[0m");
}

/* How much the panel is packed to fit fewer rows. */
enum panel_packing {
  PANEL_AIRY = 0,     /* a line for each thing, blank lines between groups */
  PANEL_PACKED,       /* no blank lines; step, time and reward on one line, vitals in pairs */
  PANEL_COUNTS_ONLY,  /* packed, and the achievements as a count */
  PANEL_PACKINGS
};

/* The vitals: a line each, or two to a line when packed and they fit. */
static void add_vitals(lines *all, const crafter_play_screen *screen, const crafter_env *env,
                       int viewer, int width, int packing) {
  enum { VITAL_GAP = 3 };
  crafter_play_text probe = {0};
  put_vital(&probe, screen, env, viewer, CRAFTER_HEALTH);
  int pair = packing != PANEL_AIRY && 2 * visible_width(probe.data) + VITAL_GAP <= width;
  crafter_play_text_free(&probe);
  crafter_play_text *line = NULL;
  for (int item = CRAFTER_HEALTH; item <= CRAFTER_ENERGY; item++) {
    if (pair && line && (item - CRAFTER_HEALTH) % 2 == 1) {
      put_repeat(line, " ", VITAL_GAP);
    } else {
      line = new_line(all);
      if (!line) return;
    }
    put_vital(line, screen, env, viewer, item);
  }
}

static void add_panel(lines *all, const crafter_play_screen *screen, const crafter_env *env,
                      int viewer, const crafter_play_status *status, int width, int packing) {
  const crafter_player *player = crafter_game_player_const(&env->game, viewer);
  const crafter_world *world = &env->game.world;
  int colour = screen->mode != CRAFTER_PLAY_GLYPHS;
  int airy = packing == PANEL_AIRY;
  crafter_play_text *line = new_line(all);
  if (line) {
    if (colour) put_string(line, "\033[1m");
    put_string(line, status->title ? status->title : "Crafter");
    if (colour) put_string(line, "\033[0m");
  }
  char step[300], time_of_day[64], reward[64];
  snprintf(step, sizeof(step), "step %ld%s%s", env->game.step, status->progress ? " " : "",
           status->progress ? status->progress : "");
  snprintf(time_of_day, sizeof(time_of_day), "%s (daylight %.2f)%s",
           env->game.daylight < 0.5 ? "night" : "day", env->game.daylight,
           player->sleeping ? ", asleep" : "");
  snprintf(reward, sizeof(reward), "reward %.1f", status->reward);
  if (airy) {
    add_line(all, "%s", step);
    add_line(all, "%s", time_of_day);
    add_line(all, "%s", reward);
    add_line(all, "%s", "");
  } else {
    const char *words[3] = {step, time_of_day, reward};
    add_wrapped(all, words, 3, width, 0, "  ");
  }
  add_vitals(all, screen, env, viewer, width, packing);
  if (airy) add_line(all, "%s", "");
  int facing = player->facing_x < 0 ? 0 : player->facing_x > 0 ? 1 : player->facing_y < 0 ? 2 : 3;
  const crafter_object *body = crafter_game_body(&env->game, viewer);
  if (body) {
    int target_x = body->x + player->facing_x;
    int target_y = body->y + player->facing_y;
    int slot = crafter_world_object_slot(world, target_x, target_y);
    int other = slot >= 0 ? crafter_game_player_of_slot(&env->game, slot) : -1;
    const char *target = slot >= 0 ? crafter_object_kind_names[world->objects[slot].kind]
                         : crafter_world_inside(world, target_x, target_y)
                             ? crafter_material_names[crafter_world_material(world, target_x, target_y)]
                             : "the edge of the world";
    if (other >= 0)
      add_line(all, "facing  %s, player %d", facing_names[facing], other);
    else
      add_line(all, "facing  %s, %s", facing_names[facing], target);
  } else {
    add_line(all, "%s", "facing  nothing");
  }
  if (airy) add_line(all, "%s", "");
  /* Packed, the heading leads the words of its list. */
  char items[CRAFTER_ITEM_COUNT][48], heading[64];
  const char *words[CRAFTER_ACHIEVEMENT_COUNT + CRAFTER_ITEM_COUNT + 1];
  int count = 0;
  if (!airy) words[count++] = "inventory";
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    if (player->inventory[item] > 0) {
      snprintf(items[item], sizeof(items[item]), "%s: %d", crafter_item_names[item],
               player->inventory[item]);
      words[count++] = items[item];
    }
  if (airy) {
    add_line(all, "inventory%s", count ? "" : "  (empty)");
    add_wrapped(all, words, count, width, 2, "  ");
    add_line(all, "%s", "");
  } else if (count == 1) {
    add_line(all, "inventory  (empty)");
  } else {
    add_wrapped(all, words, count, width, 0, "  ");
  }
  int unlocked = 0;
  for (int achievement = 0; achievement < CRAFTER_ACHIEVEMENT_COUNT; achievement++)
    unlocked += (env->unlocked[viewer] >> achievement) & 1;
  snprintf(heading, sizeof(heading), "achievements %d of %d", unlocked,
           CRAFTER_ACHIEVEMENT_COUNT);
  if (packing == PANEL_COUNTS_ONLY) {
    add_line(all, "%s", heading);
    return;
  }
  count = 0;
  for (int achievement = 0; achievement < CRAFTER_ACHIEVEMENT_COUNT; achievement++)
    if (env->unlocked[viewer] & (1u << achievement))
      words[count++] = crafter_achievement_names[achievement];
  if (airy) {
    add_line(all, "%s", heading);
    add_wrapped(all, words, count, width, 2, ", ");
    return;
  }
  /* "achievements 2 of 22: collect_wood, place_table" */
  char first[128];
  if (count) {
    snprintf(first, sizeof(first), "%s: %s", heading, words[0]);
    words[0] = first;
  } else {
    words[count++] = heading;
  }
  add_wrapped(all, words, count, width, 0, ", ");
}

/* The rows a cell takes in colour for a terminal, or 0 when colour does
 * not fit with cells of at least MIN_AUTO_CELL_ROWS rows (below that the
 * textures blur into blobs) and letters are drawn instead. */
static int choose_cell_rows(const crafter_play_screen *screen, int columns, int body_rows) {
  if (screen->colour_mode == CRAFTER_PLAY_GLYPHS) return 0;
  if (screen->fixed_cell_rows) return screen->fixed_cell_rows;
  if (!columns && !body_rows) return 2;
  for (int rows = MAX_AUTO_CELL_ROWS; rows >= MIN_AUTO_CELL_ROWS; rows--) {
    int map_width = 2 * rows * screen->grid[0], map_height = rows * screen->grid[1];
    if ((!columns || map_width + GAP + PANEL_MIN <= columns) &&
        (!body_rows || map_height <= body_rows))
      return rows;
  }
  return 0;
}

enum { MESSAGE_LINES = 3, GOAL_LINES = 2 };

/* A status's goal (over up to two lines) and message (up to three),
 * wrapped at `width`. */
static void wrap_status(const crafter_play_status *status, int width, lines *goal,
                        lines *message) {
  if (status->message) add_split(message, status->message, " ", width, " ");
  while (message->count > MESSAGE_LINES) crafter_play_text_free(&message->line[--message->count]);
  if (status->instruction) {
    char line[1200];
    snprintf(line, sizeof(line), "Goal: %s", status->instruction);
    add_split(goal, line, " ", width, " ");
    while (goal->count > GOAL_LINES) crafter_play_text_free(&goal->line[--goal->count]);
  }
}

/* The body of a frame into `body`: the view of player `viewer` (its noise
 * from `noise`) and the panel beside it, or under it when the columns do
 * not allow, in at most `body_rows` rows (0: any); the cells' size chosen
 * for `columns` (0: any) and the rows.  `width` is what the panel may take
 * under the view.  Returns 0, or -1 when the renderer could not be made;
 * a line that ran out of memory fails `body`. */
static int add_body(lines *body, crafter_play_screen *screen, crafter_env *env, int viewer,
                    const crafter_play_status *status, int columns, int body_rows, int width,
                    crafter_rng *noise) {
  int cell_rows = choose_cell_rows(screen, columns, body_rows);
  screen->mode = cell_rows ? screen->colour_mode : CRAFTER_PLAY_GLYPHS;
  int glyphs = screen->mode == CRAFTER_PLAY_GLYPHS;
  if (glyphs) cell_rows = 1;
  screen->frame_cell_rows = cell_rows;
  if (!glyphs && prepare_renderer(screen, cell_rows) < 0) return -1;
  lines map = {0}, panel = {0};
  int cell_columns = glyphs ? 2 : 2 * cell_rows;
  int frame = glyphs ? 3 : 0;         /* columns of the glyph border and last space */
  int frame_rows = glyphs ? 2 : 0;
  int cells_x = screen->grid[0], cells_y = screen->grid[1];
  if (columns && cells_x * cell_columns + frame > columns)
    cells_x = (columns - frame) / cell_columns;
  if (body_rows && cells_y * cell_rows + frame_rows > body_rows)
    cells_y = (body_rows - frame_rows) / cell_rows;
  if (cells_x < 1) cells_x = 1;
  if (cells_y < 1) cells_y = 1;
  /* Keep the player in the middle when cropping. */
  if ((screen->grid[0] - cells_x) % 2) cells_x = cells_x > 1 ? cells_x - 1 : cells_x;
  if ((screen->grid[1] - cells_y) % 2) cells_y = cells_y > 1 ? cells_y - 1 : cells_y;
  add_map(&map, screen, env, viewer, cells_x, cells_y, noise);
  int map_width = cells_x * cell_columns + frame;
  int side = !columns || columns >= map_width + GAP + PANEL_MIN;
  int panel_width = side ? (columns ? columns - map_width - GAP : PANEL_NATURAL) : width;
  /* As airy as the rows allow. */
  int panel_rows = !body_rows ? 0 : side ? body_rows : body_rows - map.count;
  for (int packing = PANEL_AIRY; packing < PANEL_PACKINGS; packing++) {
    free_lines(&panel);
    add_panel(&panel, screen, env, viewer, status, panel_width, packing);
    if (!body_rows || panel.count <= panel_rows) break;
  }
  if (lines_failed(&map) || lines_failed(&panel)) body->failed = 1;
  int count = side ? (map.count > panel.count ? map.count : panel.count) : map.count + panel.count;
  if (body_rows && count > body_rows) count = body_rows;
  for (int i = 0; i < count; i++) {
    crafter_play_text *line = new_line(body);
    if (!line) break;
    if (side) {
      if (i < map.count) {
        put_string(line, map.line[i].data);
      } else if (i < panel.count) {
        put_repeat(line, " ", map_width);
      }
      if (i < panel.count) {
        put_repeat(line, " ", GAP);
        put_clipped(line, panel.line[i].data, panel_width);
      }
    } else if (i < map.count) {
      put_string(line, map.line[i].data);
    } else {
      put_clipped(line, panel.line[i - map.count].data, width);
    }
  }
  free_lines(&map);
  free_lines(&panel);
  return 0;
}

/* A goal or message line: bold in colour. */
static void put_bold(crafter_play_text *out, int glyphs, const char *text, int width) {
  if (!glyphs) put_string(out, "\033[1m");
  put_clipped(out, text, width);
  if (!glyphs) put_string(out, "\033[0m");
}

int crafter_play_draw(crafter_play_screen *screen, crafter_env *env, int player,
                      const crafter_play_status *status, int columns, int rows,
                      crafter_play_text *out) {
  out->length = 0;
  out->failed = 0;
  put_string(out, "");
  lines help = {0}, message = {0}, body = {0}, goal = {0};
  /* Without a terminal (columns 0) the message and keys wrap as on the
   * common 80-column one. */
  int width = columns ? columns : 80;
  if (status->help) add_split(&help, status->help, "  ", width, "   ");
  wrap_status(status, width, &goal, &message);
  int message_rows = message.count ? message.count : 1;
  int body_rows = rows ? rows - message_rows - help.count - goal.count : 0;
  if (rows && body_rows < 1) { /* too small for everything: the map first */
    free_lines(&help);
    free_lines(&goal);
    while (message.count > 1 && rows - message.count < 1)
      crafter_play_text_free(&message.line[--message.count]);
    message_rows = message.count ? message.count : 1;
    body_rows = rows - message_rows > 1 ? rows - message_rows : 1;
  }
  crafter_rng noise = env->game.rng;
  if (add_body(&body, screen, env, player, status, columns, body_rows, width, &noise) < 0) {
    free_lines(&help);
    free_lines(&message);
    free_lines(&goal);
    return -1;
  }
  int glyphs = screen->mode == CRAFTER_PLAY_GLYPHS;
  int failed = lines_failed(&help) || lines_failed(&message) || lines_failed(&body) ||
               lines_failed(&goal);
  int emitted = 0;
  for (int i = 0; i < goal.count; i++) {
    if (emitted++) put_string(out, "\n");
    put_bold(out, glyphs, goal.line[i].data, width);
  }
  for (int i = 0; i < body.count; i++) {
    if (emitted++) put_string(out, "\n");
    put_string(out, body.line[i].data);
  }
  for (int i = 0; i < message_rows && (!rows || emitted < rows); i++) {
    if (emitted++) put_string(out, "\n");
    if (i >= message.count) continue;
    put_bold(out, glyphs, message.line[i].data, width);
  }
  for (int i = 0; i < help.count && (!rows || emitted < rows); i++) {
    if (emitted++) put_string(out, "\n");
    put_clipped(out, help.line[i].data, width);
  }
  free_lines(&help);
  free_lines(&message);
  free_lines(&body);
  free_lines(&goal);
  return failed || out->failed ? -1 : 0;
}

/* The widest line of a list, in columns. */
static int widest(const lines *all) {
  int most = 0;
  for (int i = 0; i < all->count; i++) {
    int width = visible_width(all->line[i].data);
    if (width > most) most = width;
  }
  return most;
}

int crafter_play_draw_players(crafter_play_screen *screen, crafter_env *env, int players,
                              const crafter_play_status *status, const char *help_text,
                              int columns, int rows, crafter_play_text *out) {
  if (players < 1) players = 1;
  if (players > CRAFTER_PLAYERS_MAX) players = CRAFTER_PLAYERS_MAX;
  out->length = 0;
  out->failed = 0;
  put_string(out, "");
  /* Each half an equal share of the columns; without a terminal the
   * messages wrap at 80 columns and the keys under them all. */
  int half_columns = columns ? (columns - GAP * (players - 1)) / players : 0;
  if (columns && half_columns < 1) half_columns = 1;
  int half_width = half_columns ? half_columns : 80;
  int width = columns ? columns : players * 80 + (players - 1) * GAP;
  lines help = {0};
  lines goal[CRAFTER_PLAYERS_MAX], message[CRAFTER_PLAYERS_MAX], body[CRAFTER_PLAYERS_MAX];
  memset(goal, 0, sizeof(goal));
  memset(message, 0, sizeof(message));
  memset(body, 0, sizeof(body));
  if (help_text) add_split(&help, help_text, "  ", width, "   ");
  int goal_rows = 0, message_rows = 1;
  for (int p = 0; p < players; p++) {
    wrap_status(&status[p], half_width, &goal[p], &message[p]);
    if (goal[p].count > goal_rows) goal_rows = goal[p].count;
    if (message[p].count > message_rows) message_rows = message[p].count;
  }
  int body_rows = rows ? rows - message_rows - help.count - goal_rows : 0;
  if (rows && body_rows < 1) { /* too small for everything: the maps first */
    free_lines(&help);
    goal_rows = 0;
    while (message_rows > 1 && rows - message_rows < 1) message_rows--;
    body_rows = rows - message_rows > 1 ? rows - message_rows : 1;
  }
  crafter_rng noise = env->game.rng; /* each view draws on after the one before */
  int status_code = 0;
  for (int p = 0; p < players && status_code == 0; p++)
    status_code = add_body(&body[p], screen, env, p, &status[p], half_columns, body_rows,
                           half_width, &noise);
  int glyphs = screen->mode == CRAFTER_PLAY_GLYPHS;
  int body_count = 0;
  int failed = lines_failed(&help);
  for (int p = 0; p < players; p++) {
    if (body[p].count > body_count) body_count = body[p].count;
    failed |= lines_failed(&goal[p]) || lines_failed(&message[p]) || lines_failed(&body[p]);
  }
  /* Where each half ends: its share, or its widest line. */
  int ends[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < players; p++) {
    int most = half_columns;
    if (!most) {
      most = widest(&body[p]);
      for (int i = 0; i < goal_rows && i < goal[p].count; i++) {
        int w = visible_width(goal[p].line[i].data);
        if (w > most) most = w;
      }
      for (int i = 0; i < message_rows && i < message[p].count; i++) {
        int w = visible_width(message[p].line[i].data);
        if (w > most) most = w;
      }
    }
    ends[p] = most;
  }
  int sections[3] = {goal_rows, body_count, message_rows};
  int emitted = 0;
  for (int section = 0; section < 3 && status_code == 0; section++) {
    for (int i = 0; i < sections[section] && (!rows || emitted < rows); i++) {
      if (emitted++) put_string(out, "\n");
      int used = 0; /* columns written on this row */
      int start = 0; /* where the present half begins */
      for (int p = 0; p < players; p++) {
        lines *list = section == 0 ? &goal[p] : section == 1 ? &body[p] : &message[p];
        if (i < list->count) { /* no trailing blanks: they would pad the next half */
          crafter_play_text *line = &list->line[i];
          while (line->length && line->data[line->length - 1] == ' ')
            line->data[--line->length] = '\0';
        }
        if (i < list->count && list->line[i].data[0]) {
          put_repeat(out, " ", start - used);
          size_t before = out->length;
          if (section == 1) {
            put_clipped(out, list->line[i].data, half_columns ? half_columns : ends[p]);
          } else {
            put_bold(out, glyphs, list->line[i].data, half_width);
          }
          used = start + visible_width(out->data + before);
        }
        start += ends[p] + GAP;
      }
    }
  }
  for (int i = 0; i < help.count && (!rows || emitted < rows) && status_code == 0; i++) {
    if (emitted++) put_string(out, "\n");
    put_clipped(out, help.line[i].data, width);
  }
  free_lines(&help);
  for (int p = 0; p < players; p++) {
    free_lines(&goal[p]);
    free_lines(&message[p]);
    free_lines(&body[p]);
  }
  return status_code < 0 || failed || out->failed ? -1 : 0;
}

/* ---- a game that records ---- */

/* The names of the achievements in a bit set, joined by commas. */
static void achievement_list(uint32_t bits, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (bits & (1u << i)) {
      int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                             crafter_achievement_names[i]);
      if (written < 0 || (size_t)written >= size - used) break;
      used += (size_t)written;
    }
}

/* Why an action may come to nothing, taken from the state before the
 * step, and what the step could change. */
typedef struct action_watch {
  int outlook;
  char reason[300];
  int32_t items[CRAFTER_ITEM_COUNT];
  int x, y;
} action_watch;

/* Player p's action; p's body must be in the world. */
static void watch_action(action_watch *watch, const crafter_env *env, int p, int action) {
  watch->outlook = crafter_game_player_outlook(&env->game, p, action, watch->reason,
                                               sizeof(watch->reason));
  memcpy(watch->items, crafter_game_player_const(&env->game, p)->inventory, sizeof(watch->items));
  watch->x = crafter_game_body(&env->game, p)->x;
  watch->y = crafter_game_body(&env->game, p)->y;
}

/* After the step: the reason when player p's action did nothing (the
 * player still there, no item gained or spent: the vitals go their own
 * way), else NULL. */
static const char *action_failure(const action_watch *watch, const crafter_env *env, int p) {
  const int32_t *items = crafter_game_player_const(&env->game, p)->inventory;
  const crafter_object *body = crafter_game_body(&env->game, p);
  int unchanged = body && watch->x == body->x && watch->y == body->y &&
                  memcmp(watch->items + CRAFTER_SAPLING, items + CRAFTER_SAPLING,
                         sizeof(items[0]) * (CRAFTER_ITEM_COUNT - CRAFTER_SAPLING)) == 0;
  return watch->outlook != CRAFTER_ACTION_POSSIBLE && unchanged ? watch->reason : NULL;
}

static void record_failure(crafter_play_game *game, const char *reason) {
  if (game->record_failed) return;
  game->record_failed = 1;
  snprintf(game->record_error, sizeof(game->record_error), "%s", reason);
}

/* Stores the episode in the recording (once it ended, or cut short). */
static void store_episode(crafter_play_game *game) {
  if (!game->writer || game->record_failed) return;
  char problem[300];
  if (crafter_traj_writer_add(game->writer, crafter_episode_recorder(game->runner), problem,
                              sizeof(problem)) < 0)
    record_failure(game, problem);
}

static int start_episode(crafter_play_game *game, char *error, size_t error_size) {
  if (crafter_episode_start(game->runner, NULL, error, error_size) < 0) return -1;
  const crafter_env *env = crafter_episode_env(game->runner);
  game->reward = 0;
  game->over = 0;
  if (game->run->level_set)
    snprintf(game->message, sizeof(game->message), "Level %lld begins.",
             (long long)crafter_episode_level(game->runner));
  else
    snprintf(game->message, sizeof(game->message), "Episode %lld begins (world seed %lld).",
             (long long)env->episode, (long long)env->world_seed);
  for (int p = 0; p < game->players; p++) {
    crafter_play_side *side = &game->side[p];
    side->reward = 0;
    side->over = 0;
    memcpy(side->message, game->message, sizeof(side->message));
  }
  return 0;
}

crafter_env *crafter_play_game_env(crafter_play_game *game) {
  return crafter_episode_env(game->runner);
}

const char *crafter_play_game_instruction(const crafter_play_game *game) {
  return crafter_episode_instruction(game->runner);
}

const char *crafter_play_game_player_instruction(const crafter_play_game *game, int p) {
  return crafter_episode_player_instruction(game->runner, p);
}

int crafter_play_game_init(crafter_play_game *game, const crafter_run *run, char *error,
                           size_t error_size) {
  memset(game, 0, sizeof(*game));
  game->run = run;
  game->players = run->players > 1 ? run->players : 1;
  if (game->players > CRAFTER_PLAYERS_MAX) {
    snprintf(error, error_size, "at most %d players share a world", CRAFTER_PLAYERS_MAX);
    return -1;
  }
  if (run->record_path) crafter_run_header(run, "human", NULL, &game->header);
  crafter_episode_options *e = &game->episode;
  crafter_run_episode_options(run, NULL, run->record_path ? &game->header : NULL, e);
  game->runner = crafter_episode_new(e, 0, NULL, error, error_size);
  if (!game->runner) return -1;
  if (run->record_path) {
    game->writer = crafter_traj_writer_create(run->record_path, &game->header, error, error_size);
    if (!game->writer) {
      crafter_episode_free(game->runner);
      game->runner = NULL;
      return -1;
    }
  }
  if (start_episode(game, error, error_size) < 0) {
    char ignored[64];
    crafter_play_game_finish(game, ignored, sizeof(ignored));
    return -1;
  }
  return 0;
}

void crafter_play_game_act(crafter_play_game *game, int action) {
  if (game->over || action < 0 || action >= CRAFTER_ACTION_COUNT) return;
  if (game->players > 1) {
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    actions[0] = action;
    crafter_play_game_act_players(game, actions);
    return;
  }
  crafter_env *env = crafter_episode_env(game->runner);
  const crafter_player *player = crafter_game_player_const(&env->game, 0);
  int was_sleeping = player->sleeping;
  action_watch watch;
  watch_action(&watch, env, 0, action);
  crafter_step_outcome result;
  if (crafter_episode_step(game->runner, action, &result) < 0)
    record_failure(game, "out of memory while recording");
  const char *reason = action_failure(&watch, env, 0);
  int failed = reason != NULL;
  game->reward += result.reward;
  if (result.finished) store_episode(game);
  char unlocked[400];
  achievement_list(result.unlocked, unlocked, sizeof(unlocked));
  /* A wait where nothing happens leaves the last message up: in real time
   * most steps are waits. */
  char previous[sizeof(game->message)];
  memcpy(previous, game->message, sizeof(previous));
  game->message[0] = '\0';
  if (result.done) {
    int died = result.discount == 0.0 && !result.goal;
    game->over = result.goal ? CRAFTER_TRAJ_GOAL
                 : died      ? CRAFTER_TRAJ_DIED
                             : CRAFTER_TRAJ_TIME_LIMIT;
    char next[64];
    if (game->run->level_set)
      snprintf(next, sizeof(next), "the next level");
    else
      snprintf(next, sizeof(next), "episode %lld", (long long)env->episode + 1);
    snprintf(game->message, sizeof(game->message),
             "%s after %ld steps with a reward of %.1f.  Any key starts %s; q quits.",
             result.goal ? "Goal met" : died ? "You died" : "Time is up", env->game.step,
             game->reward, next);
  } else if (result.unlocked) {
    snprintf(game->message, sizeof(game->message), "Unlocked %s (reward %+.1f).", unlocked,
             result.reward);
  } else if (failed && result.reward != 0) {
    snprintf(game->message, sizeof(game->message), "%s  Health %d (reward %+.1f).", reason,
             player->inventory[CRAFTER_HEALTH], result.reward);
  } else if (failed) {
    snprintf(game->message, sizeof(game->message), "%s", reason);
  } else if (result.reward != 0) {
    snprintf(game->message, sizeof(game->message), "Health %d (reward %+.1f).",
             player->inventory[CRAFTER_HEALTH], result.reward);
  } else if (player->sleeping && !was_sleeping) {
    snprintf(game->message, sizeof(game->message), "You fall asleep.");
  } else if (!player->sleeping && was_sleeping) {
    snprintf(game->message, sizeof(game->message), "You wake up.");
  } else if (action == CRAFTER_NOOP) {
    memcpy(game->message, previous, sizeof(previous));
  }
}

/* A player's message after a step of several players, as
 * crafter_play_game_act words one player's. */
static void side_message(crafter_play_game *game, int p, int action, const action_watch *watch,
                         int was_sleeping, const crafter_step_outcome *result) {
  crafter_env *env = crafter_episode_env(game->runner);
  crafter_play_side *side = &game->side[p];
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  const char *reason = watch ? action_failure(watch, env, p) : NULL;
  if (!side->over) side->reward += result->reward;
  char unlocked[400];
  achievement_list(result->unlocked, unlocked, sizeof(unlocked));
  char previous[sizeof(side->message)];
  memcpy(previous, side->message, sizeof(previous));
  side->message[0] = '\0';
  if (result->finished) {
    int died = result->discount == 0.0 && !result->goal;
    side->over = result->goal ? CRAFTER_TRAJ_GOAL : died ? CRAFTER_TRAJ_DIED
                                                         : CRAFTER_TRAJ_TIME_LIMIT;
    if (result->goal)
      snprintf(side->message, sizeof(side->message),
               "Player %d met the goal after %ld steps with a reward of %.1f.", p,
               env->game.step, side->reward);
    else if (died)
      snprintf(side->message, sizeof(side->message),
               "Player %d died after %ld steps with a reward of %.1f.", p, env->game.step,
               side->reward);
    else
      snprintf(side->message, sizeof(side->message),
               "Time is up after %ld steps with a reward of %.1f.", env->game.step,
               side->reward);
  } else if (result->unlocked) {
    snprintf(side->message, sizeof(side->message), "Unlocked %s (reward %+.1f).", unlocked,
             result->reward);
  } else if (reason && result->reward != 0) {
    snprintf(side->message, sizeof(side->message), "%s  Health %d (reward %+.1f).", reason,
             player->inventory[CRAFTER_HEALTH], result->reward);
  } else if (reason) {
    snprintf(side->message, sizeof(side->message), "%s", reason);
  } else if (result->reward != 0) {
    snprintf(side->message, sizeof(side->message), "Health %d (reward %+.1f).",
             player->inventory[CRAFTER_HEALTH], result->reward);
  } else if (player->sleeping && !was_sleeping) {
    snprintf(side->message, sizeof(side->message), "You fall asleep.");
  } else if (!player->sleeping && was_sleeping) {
    snprintf(side->message, sizeof(side->message), "You wake up.");
  } else if (action == CRAFTER_NOOP) {
    memcpy(side->message, previous, sizeof(previous));
  }
}

void crafter_play_game_act_players(crafter_play_game *game, const int *actions) {
  if (game->players == 1) {
    crafter_play_game_act(game, actions[0]);
    return;
  }
  if (game->over) return;
  crafter_env *env = crafter_episode_env(game->runner);
  int played[CRAFTER_PLAYERS_MAX], was_sleeping[CRAFTER_PLAYERS_MAX];
  action_watch watch[CRAFTER_PLAYERS_MAX];
  int watched[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < game->players; p++) {
    played[p] = actions[p] >= 0 && actions[p] < CRAFTER_ACTION_COUNT ? actions[p] : CRAFTER_NOOP;
    was_sleeping[p] = crafter_game_player_const(&env->game, p)->sleeping;
    /* Only an action the player chose has a reason to fail. */
    watched[p] = played[p] != CRAFTER_NOOP && game->side[p].over != CRAFTER_TRAJ_DIED &&
                 crafter_game_body(&env->game, p);
    if (watched[p]) watch_action(&watch[p], env, p, played[p]);
  }
  crafter_step_outcome results[CRAFTER_PLAYERS_MAX];
  if (crafter_episode_step_players(game->runner, played, results) < 0)
    record_failure(game, "out of memory while recording");
  for (int p = 0; p < game->players; p++) {
    if (game->side[p].over == CRAFTER_TRAJ_DIED) continue; /* it acts no more */
    side_message(game, p, played[p], watched[p] ? &watch[p] : NULL, was_sleeping[p], &results[p]);
  }
  if (!results[0].over) return;
  game->over = game->side[0].over ? game->side[0].over : CRAFTER_TRAJ_TIME_LIMIT;
  char next[64];
  if (game->run->level_set)
    snprintf(next, sizeof(next), "the next level");
  else
    snprintf(next, sizeof(next), "episode %lld", (long long)env->episode + 1);
  for (int p = 0; p < game->players; p++) {
    crafter_play_side *side = &game->side[p];
    size_t used = strlen(side->message);
    snprintf(side->message + used, sizeof(side->message) - used,
             "%sAny key starts %s; q quits.", used ? "  " : "", next);
  }
}

int crafter_play_game_player_active(crafter_play_game *game, int p) {
  if (game->over || p < 0 || p >= game->players) return 0;
  if (game->players == 1) return 1;
  return game->side[p].over != CRAFTER_TRAJ_DIED &&
         crafter_game_body(&crafter_play_game_env(game)->game, p) != NULL;
}

int crafter_play_game_asleep(crafter_play_game *game) {
  const crafter_env *env = crafter_play_game_env(game);
  int active = 0;
  for (int p = 0; p < game->players; p++) {
    if (!crafter_play_game_player_active(game, p)) continue;
    if (!crafter_game_player_const(&env->game, p)->sleeping) return 0;
    active++;
  }
  return active > 0;
}

int crafter_play_game_next_episode(crafter_play_game *game, char *error, size_t error_size) {
  if (crafter_episode_unfinished(game->runner)) store_episode(game);
  return start_episode(game, error, error_size);
}

int crafter_play_game_finish(crafter_play_game *game, char *error, size_t error_size) {
  if (game->writer) {
    char problem[300];
    if (game->runner && crafter_episode_unfinished(game->runner)) store_episode(game);
    if (crafter_traj_writer_close(game->writer, problem, sizeof(problem)) < 0)
      record_failure(game, problem);
    game->writer = NULL;
  }
  crafter_episode_free(game->runner);
  game->runner = NULL;
  int status = 0;
  if (game->record_failed) {
    snprintf(error, error_size, "%s", game->record_error);
    status = -1;
  }
  return status;
}

/* ---- a replay ---- */

static int replay_restart(crafter_play_replay *replay, char *error, size_t error_size) {
  const crafter_traj_episode *stored[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < replay->players; p++) stored[p] = &replay->episodes[p];
  if (crafter_stored_world_start(&replay->replayed, &replay->env, &replay->header, stored,
                                 replay->data, error, error_size) < 0)
    return -1;
  replay->t = 0;
  replay->reward = 0;
  char player[64] = "";
  if (replay->players > 1)
    snprintf(player, sizeof(player), ", player %d of %d", replay->player, replay->players);
  snprintf(replay->message, sizeof(replay->message), "Episode %lld (index %zu%s), %u steps, %s.",
           (long long)replay->episode.episode, replay->index, player, replay->episode.steps,
           crafter_traj_end_name(replay->episode.end));
  if (replay->env.world_seed != replay->episode.world_seed && replay->mismatch < 0) {
    replay->mismatch = 0;
    snprintf(replay->mismatch_reason, sizeof(replay->mismatch_reason),
             "the world seed %lld differs from the recording's %lld",
             (long long)replay->env.world_seed, (long long)replay->episode.world_seed);
    snprintf(replay->message, sizeof(replay->message), "Beware: %s.", replay->mismatch_reason);
  }
  return 0;
}

/* Players '@' of a world map: its first objects. */
static int map_players(const crafter_world_map *map) {
  int players = 0;
  while (players < map->object_count && map->objects[players].kind == CRAFTER_PLAYER) players++;
  return players;
}

int crafter_play_replay_open(crafter_play_replay *replay, const char *path, size_t index,
                             const crafter_config *config, const crafter_world_map *world,
                             char *error, size_t error_size) {
  memset(replay, 0, sizeof(*replay));
  replay->mismatch = -1;
  replay->index = index;
  replay->world = world;
  replay->reader = crafter_traj_open(path, error, error_size);
  if (!replay->reader) return 1;
  replay->header = *crafter_traj_header_of(replay->reader);
  size_t count = crafter_traj_episode_count(replay->reader);
  if (index >= count) {
    if (count == 0)
      snprintf(error, error_size, "%s holds no episode", path);
    else
      snprintf(error, error_size, "%s holds %zu episode%s; index %zu is not among 0..%zu", path,
               count, count == 1 ? "" : "s", index, count - 1);
    crafter_play_replay_free(replay);
    return 1;
  }
  replay->episode = *crafter_traj_episode_at(replay->reader, index);
  /* The reader lists whole worlds, each a chunk per player in a row. */
  replay->players = replay->header.players;
  replay->player = replay->players > 1 ? replay->episode.player : 0;
  replay->first = index - (size_t)replay->player;
  for (int p = 0; p < replay->players; p++)
    replay->episodes[p] = *crafter_traj_episode_at(replay->reader, replay->first + (size_t)p);
  /* A file that keeps its rules is replayed by them. */
  if ((config && replay->header.config) || (world && replay->header.world)) {
    snprintf(error, error_size, "%s keeps the %s it was played by: replay it without %s", path,
             config && replay->header.config ? "configuration" : "world",
             config && replay->header.config ? "--config" : "--world");
    crafter_play_replay_free(replay);
    return 1;
  }
  if (world && map_players(world) > replay->players) {
    snprintf(error, error_size,
             "the world has %d players '@' but %s holds games of %d player%s: replay it with "
             "the world it was recorded on",
             map_players(world), path, replay->players, replay->players == 1 ? "" : "s");
    crafter_play_replay_free(replay);
    return 1;
  }
  if (replay->header.config) config = replay->header.config;
  if (replay->header.world) world = replay->header.world;
  replay->world = world;
  replay->header.world = world; /* where crafter_episode_start_stored starts it */
  char problem[300];
  for (int p = 0; p < replay->players; p++) {
    if (crafter_traj_read_steps(replay->reader, replay->first + (size_t)p, &replay->data[p],
                                problem, sizeof(problem)) < 0) {
      snprintf(error, error_size, "%s: episode %zu: %s", path, replay->first + (size_t)p,
               problem);
      crafter_play_replay_free(replay);
      return 1;
    }
  }
  replay->length = replay->data[replay->player].steps_count;
  crafter_params params = replay->header.params;
  params.seed = replay->episode.seed;
  if (world && (world->width != params.area[0] || world->height != params.area[1])) {
    snprintf(error, error_size, "the world is %dx%d but %s was recorded in an area of %dx%d",
             world->width, world->height, path, params.area[0], params.area[1]);
    crafter_play_replay_free(replay);
    return 1;
  }
  if (crafter_env_init_config(&replay->env, &params, config, problem, sizeof(problem)) < 0 ||
      crafter_env_set_players(&replay->env, replay->players, problem, sizeof(problem)) < 0) {
    snprintf(error, error_size, "%s: %s", path, problem);
    crafter_play_replay_free(replay);
    return 1;
  }
  if (replay_restart(replay, error, error_size) < 0) {
    crafter_play_replay_free(replay);
    return -1;
  }
  return 0;
}

/* The first field of a replayed step that differs from the stored one. */
static const char *step_difference(const crafter_step_result *result, int goal,
                                   const crafter_traj_step *stored) {
  return result->info_reward != stored->reward                   ? "reward"
         : (result->done != 0) != (stored->done != 0)            ? "done"
         : result->unlocked != stored->unlocked                  ? "achievements"
         : (result->discount == 0.0) != (stored->died != 0)      ? "death"
         : goal != (stored->goal != 0)                           ? "goal"
                                                                 : NULL;
}

int crafter_play_replay_seek(crafter_play_replay *replay, long t, char *error,
                             size_t error_size) {
  if (t < 0) t = 0;
  if (t > (long)replay->length) t = (long)replay->length;
  if (t < replay->t && replay_restart(replay, error, error_size) < 0) return -1;
  int shown = replay->player;
  while (replay->t < t) {
    crafter_stored_world *replayed = &replay->replayed;
    crafter_env *env = &replay->env;
    action_watch watch;
    watch_action(&watch, env, shown, replay->data[shown].steps[replay->t].action);
    crafter_stored_world_step(replayed, env);
    const crafter_step_result *result = &replayed->results[shown];
    const char *failure = action_failure(&watch, env, shown);
    replay->reward += result->info_reward;
    replay->t++;
    char unlocked[400];
    achievement_list(result->unlocked, unlocked, sizeof(unlocked));
    replay->message[0] = '\0';
    /* Every player who played the step is compared, the one shown first. */
    const char *differs = NULL;
    int who = shown;
    for (int k = 0; k < replay->players && !differs; k++) {
      who = k == 0 ? shown : k <= shown ? k - 1 : k;
      if (crafter_stored_world_played(replayed, who))
        differs = step_difference(&replayed->results[who], replayed->goal[who],
                                  &replay->data[who].steps[replay->t - 1]);
    }
    if (differs && replay->mismatch < 0) {
      char whose[64] = "";
      if (replay->players > 1) snprintf(whose, sizeof(whose), "player %d's ", who);
      replay->mismatch = replay->t;
      snprintf(replay->mismatch_reason, sizeof(replay->mismatch_reason),
               "step %ld differs from the recording (%s%s): was it made with another --config "
               "or --world?",
               replay->t, whose, differs);
      snprintf(replay->message, sizeof(replay->message), "Beware: %s", replay->mismatch_reason);
    } else if (result->unlocked) {
      snprintf(replay->message, sizeof(replay->message), "Unlocked %s.", unlocked);
    } else if (failure) {
      snprintf(replay->message, sizeof(replay->message), "%s", failure);
    }
  }
  if (replay->t == (long)replay->length && replay->mismatch < 0 && !replay->message[0]) {
    const char *end = replay->episode.end == CRAFTER_TRAJ_DIED         ? "the player died"
                      : replay->episode.end == CRAFTER_TRAJ_TIME_LIMIT ? "the time limit"
                      : replay->episode.end == CRAFTER_TRAJ_GOAL       ? "its goal was met"
                                                                       : "the recording stopped";
    snprintf(replay->message, sizeof(replay->message), "End of the episode: %s.", end);
  }
  return 0;
}

void crafter_play_replay_free(crafter_play_replay *replay) {
  crafter_stored_world_free(&replay->replayed);
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_traj_data_free(&replay->data[p]);
  if (replay->reader) crafter_traj_close(replay->reader);
  crafter_env_free(&replay->env);
  replay->reader = NULL;
}

const char crafter_play_help[] =
    "move: w a s d or arrows  do: space  sleep: tab  place: t table, r stone, f furnace, "
    "p plant  make: 1 wood, 2 stone, 3 iron pickaxe; 4 wood, 5 stone, 6 iron sword  "
    "wait: . or n  quit: q";

const char crafter_play_two_help[] =
    "player 0 (left): move w a s d  do: space  sleep: tab  place: r stone, t table, "
    "f furnace, p plant  make: 1 2 3 wood, stone, iron pickaxe; 4 5 6 sword  "
    "player 1 (right): move arrows  do: enter  sleep: backspace  place: h stone, j table, "
    "k furnace, l plant  make: 7 8 9 pickaxe; u i o sword  both wait: . or n  quit: q";

const char crafter_play_replay_help[] =
    "pause/resume: space  step: . or right  back: , or left  faster: +  slower: -  quit: q";

const char *crafter_play_replay_instruction(const crafter_play_replay *replay) {
  const crafter_task_set *tasks = replay->header.tasks;
  const crafter_traj_episode *episode = &replay->episode;
  if (!tasks || episode->task < 0 || episode->task >= tasks->count) return NULL;
  const crafter_task *task = &tasks->tasks[episode->task];
  return episode->text >= 0 && episode->text < task->text_count ? task->text[episode->text] : NULL;
}

/* ---- the program: crafter-play ---- */

static const int speeds[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
enum { SPEED_COUNT = sizeof(speeds) / sizeof(speeds[0]) };

typedef struct app {
  int replaying;
  crafter_play_game game;
  crafter_play_replay replay;
  crafter_play_screen *screen;
  int interactive;  /* a terminal in raw mode, not --keys or --no-wait */
  int columns, rows;
  int paused;
  int speed;        /* steps per second: of a replay, of sleep, or in real time */
  int real_time;    /* play goes on by itself, a frame at a time (--fps) */
  crafter_play_frames frames;
  int quit;
  int clear;        /* clear the screen before the next frame */
  crafter_play_text frame;
  char title[200], progress[200];
  char error[512];
  int failed;       /* 1 on an error that ends the program */
  int suspend, continued, resized; /* what signals asked for, not yet done */
  int players;      /* sharing the world in play: 1, or 2 on one keyboard */
  char side_title[CRAFTER_PLAYERS_MAX][200], side_progress[CRAFTER_PLAYERS_MAX][200];
} app;

static crafter_env *app_env(app *a) {
  return a->replaying ? &a->replay.env : crafter_play_game_env(&a->game);
}

static void describe(app *a, crafter_play_status *status) {
  memset(status, 0, sizeof(*status));
  if (a->replaying) {
    const crafter_play_replay *replay = &a->replay;
    char player[48] = "";
    if (replay->players > 1)
      snprintf(player, sizeof(player), "  player %d", replay->player);
    snprintf(a->title, sizeof(a->title), "Replay  episode %lld  seed %lld%s  (index %zu)",
             (long long)replay->episode.episode, (long long)replay->episode.seed, player,
             replay->index);
    int at_end = replay->t == (long)replay->length;
    if (!a->interactive)
      snprintf(a->progress, sizeof(a->progress), "of %u", replay->length);
    else
      snprintf(a->progress, sizeof(a->progress), "of %u, %s at %d steps/s",
               replay->length,
               at_end ? "at the end" : a->paused ? "paused" : "playing", a->speed);
    status->reward = replay->reward;
    status->message = replay->message;
    status->help = crafter_play_replay_help;
    status->instruction = crafter_play_replay_instruction(replay);
  } else {
    crafter_play_game *game = &a->game;
    const crafter_env *env = crafter_play_game_env(game);
    if (game->run->level_set)
      snprintf(a->title, sizeof(a->title), "Crafter  seed %lld  level %lld%s",
               (long long)env->params.seed, (long long)env->episode,
               game->writer ? "  (recording)" : "");
    else
      snprintf(a->title, sizeof(a->title), "Crafter  seed %lld  episode %lld%s",
               (long long)env->params.seed, (long long)env->episode,
               game->writer ? "  (recording)" : "");
    a->progress[0] = '\0';
    if (a->real_time)
      snprintf(a->progress, sizeof(a->progress), "(real time, %d steps/s)", a->speed);
    else if (a->interactive && crafter_game_player_const(&env->game, 0)->sleeping && !game->over)
      snprintf(a->progress, sizeof(a->progress), "(time passes at %d steps/s)", a->speed);
    status->reward = game->reward;
    status->message = game->record_failed ? game->record_error : game->message;
    status->help = crafter_play_help;
    status->instruction = crafter_play_game_instruction(game);
  }
  status->title = a->title;
  status->progress = a->progress[0] ? a->progress : NULL;
}

/* What player p's half of the frame says in a game of several players. */
static void describe_side(app *a, int p, crafter_play_status *status) {
  memset(status, 0, sizeof(*status));
  crafter_play_game *game = &a->game;
  const crafter_env *env = crafter_play_game_env(game);
  const crafter_play_side *side = &game->side[p];
  snprintf(a->side_title[p], sizeof(a->side_title[p]), "Player %d  seed %lld  %s %lld", p,
           (long long)env->params.seed, game->run->level_set ? "level" : "episode",
           (long long)env->episode);
  const char *end = side->over == CRAFTER_TRAJ_DIED        ? "died"
                    : side->over == CRAFTER_TRAJ_GOAL      ? "goal met"
                    : side->over == CRAFTER_TRAJ_TIME_LIMIT ? "time is up"
                                                           : NULL;
  a->side_progress[p][0] = '\0';
  if (end)
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(%s)", end);
  else if (a->real_time)
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(real time, %d steps/s)",
             a->speed);
  else if (a->interactive && crafter_play_game_asleep(game))
    snprintf(a->side_progress[p], sizeof(a->side_progress[p]), "(time passes at %d steps/s)",
             a->speed);
  status->title = a->side_title[p];
  status->progress = a->side_progress[p][0] ? a->side_progress[p] : NULL;
  status->reward = side->reward;
  status->message = game->record_failed ? game->record_error : side->message;
  status->instruction = crafter_play_game_player_instruction(game, p);
}

/* The frame of play by several players into a->frame: 0, or -1 when
 * memory ran out. */
static int draw_sides(app *a) {
  crafter_play_status status[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < a->players; p++) describe_side(a, p, &status[p]);
  return crafter_play_draw_players(a->screen, app_env(a), a->players, status,
                                   crafter_play_two_help, a->columns, a->rows, &a->frame);
}

/* Draws the frame: over the whole terminal, or on standard output. */
static void show(app *a) {
  crafter_play_status status;
  describe(a, &status);
  if (a->interactive && crafter_terminal_take_window_change()) {
    crafter_terminal_size(&a->columns, &a->rows);
    a->clear = 1;
  }
  int drawn = a->players > 1 && !a->replaying
                  ? draw_sides(a)
                  : crafter_play_draw(a->screen, app_env(a), a->replaying ? a->replay.player : 0,
                                      &status, a->columns, a->rows, &a->frame);
  if (drawn < 0) {
    snprintf(a->error, sizeof(a->error), "out of memory");
    a->failed = 1;
    a->quit = 1;
    return;
  }
  if (!a->interactive) {
    fwrite(a->frame.data, 1, a->frame.length, stdout);
    fputc('\n', stdout);
    return;
  }
  /* Line by line from the top, each erased to its end, then the rest of
   * the screen: no flicker, and nothing scrolls. */
  char *text = a->frame.data;
  size_t size = a->frame.length + 64;
  for (size_t i = 0; i < a->frame.length; i++)
    if (text[i] == '\n') size += 8;
  char *buffer = malloc(size);
  if (!buffer) {
    snprintf(a->error, sizeof(a->error), "out of memory");
    a->failed = 1;
    a->quit = 1;
    return;
  }
  size_t used = 0;
  const char *home = a->clear ? "\033[0m\033[H\033[2J" : "\033[H";
  a->clear = 0;
  memcpy(buffer, home, strlen(home));
  used += strlen(home);
  for (size_t i = 0; i < a->frame.length; i++) {
    if (text[i] == '\n') {
      memcpy(buffer + used, "\033[0m\033[K\r\n", 9);
      used += 9;
    } else {
      buffer[used++] = text[i];
    }
  }
  memcpy(buffer + used, "\033[0m\033[K\033[J", 10);
  used += 10;
  crafter_terminal_write_all(STDOUT_FILENO, buffer, used);
  free(buffer);
}

static int faster(int speed) {
  for (int i = 0; i < SPEED_COUNT; i++)
    if (speeds[i] > speed) return speeds[i];
  return speed;
}

static int slower(int speed) {
  for (int i = SPEED_COUNT - 1; i >= 0; i--)
    if (speeds[i] < speed) return speeds[i];
  return speed;
}

static void replay_seek(app *a, long t) {
  if (crafter_play_replay_seek(&a->replay, t, a->error, sizeof(a->error)) < 0) {
    a->failed = 1;
    a->quit = 1;
  }
}

/* One key; returns 1 when the frame changed. */
static int press(app *a, int key) {
  int command = crafter_play_command_of_key(key, a->replaying);
  switch (command) {
    case CRAFTER_PLAY_QUIT: a->quit = 1; return 0;
    case CRAFTER_PLAY_REDRAW: a->clear = 1; return 1;
    case CRAFTER_PLAY_FASTER:
    case CRAFTER_PLAY_SLOWER:
      a->speed = command == CRAFTER_PLAY_FASTER ? faster(a->speed) : slower(a->speed);
      if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
      return 1;
    default: break;
  }
  if (a->replaying) {
    crafter_play_replay *replay = &a->replay;
    switch (command) {
      case CRAFTER_PLAY_PAUSE:
        if (replay->t == (long)replay->length) { /* again from the start */
          replay_seek(a, 0);
          a->paused = 0;
        } else {
          a->paused = !a->paused;
        }
        return 1;
      case CRAFTER_PLAY_FORWARD: a->paused = 1; replay_seek(a, replay->t + 1); return 1;
      case CRAFTER_PLAY_BACK: a->paused = 1; replay_seek(a, replay->t - 1); return 1;
      default: return 0;
    }
  }
  crafter_play_game *game = &a->game;
  if (game->over) { /* any key starts the next episode */
    if (crafter_play_game_next_episode(game, a->error, sizeof(a->error)) < 0) {
      a->failed = 1;
      a->quit = 1;
    }
    if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
    return 1;
  }
  if (a->players > 1) {
    int player;
    int action = crafter_play_player_action_of_key(key, a->players, &player);
    if (action < 0) return 0;
    if (player >= 0 && !crafter_play_game_player_active(game, player)) return 0; /* it died */
    if (a->real_time) { /* the frame takes it when it ends; a wait is everyone's */
      for (int p = 0; p < a->players; p++)
        if (p == player || player < 0) crafter_play_frames_key_player(&a->frames, p, action);
      return 0;
    }
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    if (player >= 0) actions[player] = action;
    crafter_play_game_act_players(game, actions);
    return 1;
  }
  int action = crafter_play_action_of_key(key);
  if (action < 0) return 0;
  if (a->real_time) { /* the frame takes it when it ends */
    crafter_play_frames_key(&a->frames, action);
    return 0;
  }
  crafter_play_game_act(game, action);
  return 1;
}

/* Feeds bytes to the keys; returns the bytes used (an unfinished escape
 * sequence stays unless `final`). */
static size_t press_bytes(app *a, const uint8_t *bytes, size_t length, int final, int *changed) {
  size_t used = 0;
  while (used < length && !a->quit) {
    int key;
    size_t taken = crafter_play_decode_key(bytes + used, length - used, final, &key);
    if (taken == 0) break;
    used += taken;
    *changed |= press(a, key);
  }
  return used;
}

/* The interval until the next step that happens by itself, -1 for none. */
static long tick_interval(app *a) {
  if (a->replaying) {
    if (a->paused || a->replay.t >= (long)a->replay.length) return -1;
  } else if (a->game.over || !crafter_play_game_asleep(&a->game) || a->real_time) {
    return -1;
  }
  return 1000 / a->speed;
}

/* Real-time play: steps whose frames have ended.  Returns 1 when the
 * game moved. */
static int run_frames(app *a) {
  if (!a->real_time || a->replaying || a->game.over) return 0;
  int actions[CRAFTER_PLAYERS_MAX];
  if (!crafter_play_frames_take_players(&a->frames, crafter_terminal_now_ms(), a->players,
                                        actions))
    return 0;
  crafter_play_game_act_players(&a->game, actions);
  return 1;
}

static void tick(app *a) {
  if (a->replaying) {
    replay_seek(a, a->replay.t + 1);
    if (a->replay.t >= (long)a->replay.length) a->paused = 1;
  } else {
    int actions[CRAFTER_PLAYERS_MAX] = {0}; /* every player waits */
    crafter_play_game_act_players(&a->game, actions);
  }
}

static void run_interactive(app *a) {
  crafter_terminal_size(&a->columns, &a->rows);
  if (a->real_time) crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
  show(a);
  uint8_t pending[256];
  size_t pending_length = 0;
  long next_tick = -1;
  while (!a->quit) {
    long interval = tick_interval(a);
    if (interval < 0) {
      next_tick = -1;
    } else if (next_tick < 0) {
      next_tick = crafter_terminal_now_ms() + interval;
    }
    int timeout = -1;
    if (next_tick >= 0) {
      long left = next_tick - crafter_terminal_now_ms();
      timeout = left < 0 ? 0 : (int)left;
    }
    if (a->real_time && !a->replaying && !a->game.over) {
      long left = crafter_play_frames_wait(&a->frames, crafter_terminal_now_ms());
      if (timeout < 0 || left < timeout) timeout = (int)left;
    }
    /* Half an escape sequence waits a moment for the rest. */
    int waiting_for_sequence = pending_length > 0;
    if (waiting_for_sequence && (timeout < 0 || timeout > 30)) timeout = 30;
    struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {crafter_terminal_wake_fd(), POLLIN, 0}};
    int ready = 0;
    if (!crafter_terminal_quit_signal() && !a->suspend && !a->continued && !a->resized) {
      ready = poll(fds, 2, timeout);
      if (ready < 0 && errno != EINTR) {
        snprintf(a->error, sizeof(a->error), "waiting for keys: %s", strerror(errno));
        a->failed = 1;
        break;
      }
    }
    crafter_terminal_drain_wake();
    a->suspend |= crafter_terminal_take_suspend();
    a->continued |= crafter_terminal_take_continued();
    a->resized |= crafter_terminal_take_window_change();
    /* Keys that arrived before a signal are still the player's. */
    int changed = 0;
    if (crafter_terminal_input_waiting()) {
      ssize_t got = read(STDIN_FILENO, pending + pending_length, sizeof(pending) - pending_length);
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) { /* the terminal is gone */
        a->quit = 1;
        break;
      }
      if (got > 0) pending_length += (size_t)got;
      size_t used = press_bytes(a, pending, pending_length, pending_length == sizeof(pending),
                                &changed);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    } else if (ready == 0 && waiting_for_sequence) {
      size_t used = press_bytes(a, pending, pending_length, 1, &changed);
      memmove(pending, pending + used, pending_length - used);
      pending_length -= used;
    }
    if (a->quit || crafter_terminal_quit_signal()) break;
    if (next_tick >= 0 && crafter_terminal_now_ms() >= next_tick && tick_interval(a) >= 0) {
      tick(a);
      changed = 1;
      next_tick += tick_interval(a) > 0 ? tick_interval(a) : 0;
      if (next_tick < crafter_terminal_now_ms()) next_tick = crafter_terminal_now_ms(); /* fell behind: do not hurry */
    }
    changed |= run_frames(a);
    if (changed) show(a);
    if (a->suspend) {
      a->suspend = 0;
      crafter_terminal_suspend();
      a->continued = 1;
    }
    if (a->continued || a->resized) {
      if (!crafter_terminal_raw()) crafter_terminal_setup();
      /* Back from ^Z: the time away is not played. */
      if (a->continued && a->real_time)
        crafter_play_frames_start(&a->frames, a->speed, crafter_terminal_now_ms());
      a->continued = a->resized = 0;
      crafter_terminal_note_window_change();
      a->clear = 1;
      show(a);
    }
  }
}


/* The textures and the screen to draw on: 0, or 1 after saying why not. */
static int open_screen(app *p, const crafter_play_options *a, crafter_textures *textures,
                       int *have_textures) {
  char error[1024];
  /* Into a pipe or a file, letters unless an option asks for colour. */
  int colour_asked = a->cell_rows || a->run.textures;
  int mode = a->glyphs        ? CRAFTER_PLAY_GLYPHS
             : a->colors >= 0 ? a->colors
                              : crafter_play_mode_for_terminal(
                                    isatty(STDOUT_FILENO) || colour_asked, getenv("COLORTERM"),
                                    getenv("TERM"));
  if (mode != CRAFTER_PLAY_GLYPHS) {
    int loaded = crafter_textures_load(textures, a->run.textures, error, sizeof(error));
    if (loaded < 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      return 1;
    }
    *have_textures = 1;
  }
  p->screen = crafter_play_screen_new(&app_env(p)->params, mode, *have_textures ? textures : NULL,
                                      a->cell_rows, error, sizeof(error));
  if (!p->screen) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    return 1;
  }
  return 0;
}

/* Plays: in the terminal, or without one the keys given (or the whole
 * replay), then prints the last frame.  0, or 1 after saying what failed. */
static int play(app *p, const crafter_play_options *a) {
  if (!a->interactive) {
    /* On a terminal the frame fits it. */
    if (isatty(STDOUT_FILENO)) crafter_terminal_size(&p->columns, &p->rows);
    if (a->no_wait) replay_seek(p, (long)p->replay.length);
    if (a->keys) {
      int changed = 0;
      press_bytes(p, (const uint8_t *)a->keys, strlen(a->keys), 1, &changed);
    }
    if (!p->failed) show(p);
    if (fflush(stdout) != 0) {
      snprintf(p->error, sizeof(p->error), "writing standard output: %s", strerror(errno));
      p->failed = 1;
    }
  } else if (crafter_terminal_open() < 0) {
    snprintf(p->error, sizeof(p->error), "cannot set up the terminal: %s", strerror(errno));
    p->failed = 1;
  } else {
    run_interactive(p);
    crafter_terminal_restore();
  }
  int status = 0;
  if (p->failed) {
    fprintf(stderr, "%s: %s\n", a->program, p->error);
    status = 1;
  }
  if (p->replaying && p->replay.mismatch >= 0) {
    fprintf(stderr, "%s: %s: %s\n", a->program, a->replay_path, p->replay.mismatch_reason);
    status = 1;
  }
  return status;
}

int crafter_play_main(crafter_play_options *a) {
  char error[1024];
  crafter_run *run = &a->run;
  int status = crafter_run_open_rules(run, error, sizeof(error));
  if (status != 0) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    crafter_run_free(run);
    return status;
  }
  if (!a->replay_path) {
    if (crafter_params_check(&run->params, error, sizeof(error)) < 0) {
      crafter_usage_error(a->program, "%s", error);
    }
    if ((status = crafter_run_open_tasks(run, error, sizeof(error))) == 0)
      status = crafter_run_open_levels(run, error, sizeof(error));
    if (status != 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      crafter_run_free(run);
      return status;
    }
  }
  static app p;
  memset(&p, 0, sizeof(p));
  p.interactive = a->interactive;
  p.speed = a->fps ? a->fps : a->speed;
  p.real_time = a->fps > 0;
  p.replaying = a->replay_path != NULL;
  p.players = run->players > 1 && !p.replaying ? run->players : 1;
  status = 0;
  if (p.replaying) {
    if (crafter_play_replay_open(&p.replay, a->replay_path, (size_t)a->episode_index, run->config,
                                 run->world, error, sizeof(error)) != 0) {
      fprintf(stderr, "%s: %s\n", a->program, error);
      status = 1;
    }
    p.paused = a->keys != NULL;
  } else if (crafter_play_game_init(&p.game, run, error, sizeof(error)) < 0) {
    fprintf(stderr, "%s: %s\n", a->program, error);
    status = 1;
  }
  crafter_textures textures;
  int have_textures = 0;
  int started = status == 0;
  if (status == 0) status = open_screen(&p, a, &textures, &have_textures);
  if (status == 0) status = play(&p, a);
  if (started && p.replaying) {
    crafter_play_replay_free(&p.replay);
  } else if (started && crafter_play_game_finish(&p.game, error, sizeof(error)) < 0) {
    fprintf(stderr, "%s: %s: %s\n", a->program, run->record_path, error);
    status = 1;
  }
  crafter_play_screen_free(p.screen);
  if (have_textures) crafter_textures_free(&textures);
  crafter_play_text_free(&p.frame);
  crafter_run_free(run);
  crafter_terminal_reraise(); /* finish as a signal would have, now that all is saved */
  return crafter_close_stdout(a->program, status);
}
