#include "tools/play_screen.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/worldfile.h" /* the letters of materials and objects */
#include "view/render.h"

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
