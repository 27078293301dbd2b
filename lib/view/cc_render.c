/* cc_render: Craftax-Classic's symbolic observation of a Craftax-Classic
 * state.  cc_render.h says the layout and what is promised. */
#include "view/cc_render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/jaxrng.h"
#include "view/render.h"
#include "view/textures.h"

enum {
  ROWS = CRAFTER_SYMBOLIC_ROWS,
  COLUMNS = CRAFTER_SYMBOLIC_COLUMNS,
  BLOCKS = CRAFTER_SYMBOLIC_BLOCKS,
  CHANNELS = CRAFTER_SYMBOLIC_BLOCKS + 4,
  MAP = CRAFTER_CC_MAP_SIZE
};
_Static_assert(CRAFTER_CC_RIPE_PLANT + 1 == CRAFTER_SYMBOLIC_BLOCKS,
               "Craftax-Classic's block types are the symbolic observation's");

/* A window index as numpy's indexing takes it: a negative one counts once
 * from the end; -1 when it is outside even so (the scatter drops it). */
static inline int window_index(int32_t index, int size) {
  if (index < 0) index += size;
  return index >= 0 && index < size ? (int)index : -1;
}

/* The creatures' channels, slot by slot.  A slot whose place falls
 * outside the window writes to a float of its own instead of branching
 * on it: the slots' places are hard to predict. */
static void put_mobs_at(const crafter_cc_state *state, const crafter_cc_mobs *mobs, int slots,
                        int channel, float *out, int16_t *written) {
  float dropped;
  int32_t pr = state->player_position[0] - ROWS / 2, pc = state->player_position[1] - COLUMNS / 2;
  for (int k = 0; k < slots; k++) {
    int32_t row = mobs->position[k][0] - pr, column = mobs->position[k][1] - pc;
    int visible = (uint32_t)row < ROWS && (uint32_t)column < COLUMNS && mobs->mask[k];
    int r = window_index(row, ROWS), c = window_index(column, COLUMNS);
    int index = r >= 0 && c >= 0 ? (r * COLUMNS + c) * CHANNELS + BLOCKS + channel : -1;
    float *at = index >= 0 ? &out[index] : &dropped;
    *at = visible ? 1.0f : 0.0f;
    if (written) written[k] = (int16_t)index;
  }
}

static void put_mobs(const crafter_cc_state *state, const crafter_cc_mobs *mobs, int slots,
                     int channel, float *out) {
  put_mobs_at(state, mobs, slots, channel, out, NULL);
}

static float tenth(int32_t count, enum crafter_cc_render_way way) {
  return way == CRAFTER_CC_RENDER_FLOAT32_TENTHS ? (float)count / 10.0f
                                                 : crafter_tenth_in_half(count);
}

/* A count / 10 in float16 as Craftax computes it: the counts 0..9 a
 * capped inventory and the vitals hold from a table of
 * crafter_tenth_in_half's values, others from it. */
static inline float tenth_as_craftax(int32_t count) {
  static const float tenths[10] = {0.0f,          0.0999755859375f, 0.199951171875f,
                                   0.2998046875f, 0.39990234375f,   0.5f,
                                   0.599609375f,  0.69970703125f,   0.7998046875f,
                                   0.89990234375f};
  return (uint32_t)count < 10 ? tenths[count] : crafter_tenth_in_half(count);
}

/* The block channels of one row of the window, map row y (on the map),
 * its first column x (the window's columns x..x+8, some maybe off the
 * map): the block's channel set in cells already zero.  A block number
 * outside the classes sets none, as one_hot does. */
static inline void put_row(const uint8_t map_row[MAP], int32_t x, float *out) {
  if (x >= 0 && x + COLUMNS <= MAP) {
    const uint8_t *cells = map_row + x;
    for (int column = 0; column < COLUMNS; column++) {
      unsigned block = cells[column];
      if (block < BLOCKS) out[column * CHANNELS + block] = 1.0f;
    }
    return;
  }
  for (int column = 0; column < COLUMNS; column++) {
    int32_t at = x + column;
    unsigned block = at >= 0 && at < MAP ? map_row[at] : CRAFTER_CC_OUT_OF_BOUNDS;
    if (block < BLOCKS) out[column * CHANNELS + block] = 1.0f;
  }
}

static void put_creatures(const crafter_cc_state *state, float *out, int16_t *written);
static void put_rest(const crafter_cc_state *state, float *out);

/* The observation's map part: the window's block channels, the creature
 * channels zero. */
static void put_window(const crafter_cc_state *state, float *out) {
  memset(out, 0, sizeof(float) * ROWS * COLUMNS * CHANNELS);
  int32_t y0 = state->player_position[0] - ROWS / 2, x0 = state->player_position[1] - COLUMNS / 2;
  for (int row = 0; row < ROWS; row++) {
    float *cells = out + row * COLUMNS * CHANNELS;
    int32_t y = y0 + row;
    if (y >= 0 && y < MAP)
      put_row(state->map[y], x0, cells);
    else
      for (int column = 0; column < COLUMNS; column++)
        cells[column * CHANNELS + CRAFTER_CC_OUT_OF_BOUNDS] = 1.0f;
  }
}

/* The observation as Craftax draws it, its arithmetic and indexing the
 * fast way (crafter_cc_render_symbolic's). */
static void render_as_craftax(const crafter_cc_state *state, float *out) {
  put_window(state, out);
  put_creatures(state, out, NULL);
  put_rest(state, out);
}

/* The creatures' channels on a window whose creature channels are zero;
 * with `written`, the index each slot wrote (-1 none) in slot order. */
static void put_creatures(const crafter_cc_state *state, float *out, int16_t *written) {
  enum { Z = CRAFTER_CC_MAX_ZOMBIES, C = CRAFTER_CC_MAX_COWS, S = CRAFTER_CC_MAX_SKELETONS };
  put_mobs_at(state, &state->zombies, Z, 0, out, written);
  put_mobs_at(state, &state->cows, C, 1, out, written ? written + Z : NULL);
  put_mobs_at(state, &state->skeletons, S, 2, out, written ? written + Z + C : NULL);
  put_mobs_at(state, &state->arrows, CRAFTER_CC_MAX_ARROWS, 3, out,
              written ? written + Z + C + S : NULL);
}

/* The values after the map: inventory, vitals, direction, light, sleep. */
static void put_rest(const crafter_cc_state *state, float *out) {
  float *rest = out + ROWS * COLUMNS * CHANNELS;
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) rest[k] = tenth_as_craftax(state->inventory[k]);
  rest += CRAFTER_CC_INVENTORY;
  rest[0] = tenth_as_craftax(state->player_health);
  rest[1] = tenth_as_craftax(state->player_food);
  rest[2] = tenth_as_craftax(state->player_drink);
  rest[3] = tenth_as_craftax(state->player_energy);
  rest += 4;
  int32_t facing = state->player_direction - 1;
  for (int k = 0; k < 4; k++) rest[k] = facing == k ? 1.0f : 0.0f;
  rest += 4;
  rest[0] = state->light_level;
  rest[1] = state->is_sleeping ? 1.0f : 0.0f;
}

void crafter_cc_render_symbolic_way(const crafter_cc_state *state, enum crafter_cc_render_way way,
                                    float *out) {
  if (way == CRAFTER_CC_RENDER_AS_CRAFTAX) {
    render_as_craftax(state, out);
    return;
  }
  memset(out, 0, sizeof(float) * CRAFTER_SYMBOLIC_SIZE);
  for (int row = 0; row < ROWS; row++)
    for (int column = 0; column < COLUMNS; column++) {
      int y = state->player_position[0] + row - ROWS / 2;
      int x = state->player_position[1] + column - COLUMNS / 2;
      int block = CRAFTER_CC_OUT_OF_BOUNDS;
      if (y >= 0 && y < MAP && x >= 0 && x < MAP)
        block = way == CRAFTER_CC_RENDER_TRANSPOSED ? state->map[x][y] : state->map[y][x];
      /* one_hot of a number outside its classes is all zeros */
      if (block < BLOCKS) out[(row * COLUMNS + column) * CHANNELS + block] = 1.0f;
    }
  put_mobs(state, &state->zombies, CRAFTER_CC_MAX_ZOMBIES, 0, out);
  put_mobs(state, &state->cows, CRAFTER_CC_MAX_COWS, 1, out);
  put_mobs(state, &state->skeletons, CRAFTER_CC_MAX_SKELETONS, 2, out);
  put_mobs(state, &state->arrows, CRAFTER_CC_MAX_ARROWS, 3, out);

  float *rest = out + ROWS * COLUMNS * CHANNELS;
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) *rest++ = tenth(state->inventory[k], way);
  *rest++ = tenth(state->player_health, way);
  *rest++ = tenth(state->player_food, way);
  *rest++ = tenth(state->player_drink, way);
  *rest++ = tenth(state->player_energy, way);
  int facing = state->player_direction - 1;
  if (facing >= 0 && facing < 4) rest[facing] = 1.0f;
  rest += 4;
  *rest++ = state->light_level;
  *rest = state->is_sleeping ? 1.0f : 0.0f;
}

void crafter_cc_render_symbolic(const crafter_cc_state *state, float *out) {
  crafter_cc_render_symbolic_way(state, CRAFTER_CC_RENDER_AS_CRAFTAX, out);
}

/* The block number drawn at a window cell: the map's, OUT_OF_BOUNDS off
 * it. */
static inline uint8_t window_block(const crafter_cc_state *state, int32_t y, int32_t x) {
  return y >= 0 && y < MAP && x >= 0 && x < MAP ? state->map[y][x]
                                                : (uint8_t)CRAFTER_CC_OUT_OF_BOUNDS;
}

void crafter_cc_render_symbolic_memo(const crafter_cc_state *state, crafter_cc_render_memo *memo,
                                     float *out) {
  _Static_assert(sizeof memo->window == ROWS * COLUMNS, "the memo holds the window's blocks");
  _Static_assert(sizeof memo->written / sizeof memo->written[0] ==
                     CRAFTER_CC_MAX_ZOMBIES + CRAFTER_CC_MAX_COWS + CRAFTER_CC_MAX_SKELETONS +
                         CRAFTER_CC_MAX_ARROWS,
                 "the memo holds a place for every creature slot");
  int32_t y0 = state->player_position[0] - ROWS / 2, x0 = state->player_position[1] - COLUMNS / 2;
  if (!memo->valid || memo->player[0] != state->player_position[0] ||
      memo->player[1] != state->player_position[1]) {
    put_window(state, out);
    put_creatures(state, out, memo->written);
    put_rest(state, out);
    for (int row = 0; row < ROWS; row++)
      for (int column = 0; column < COLUMNS; column++)
        memo->window[row][column] = window_block(state, y0 + row, x0 + column);
    memo->player[0] = state->player_position[0];
    memo->player[1] = state->player_position[1];
    memo->valid = 1;
    return;
  }
  /* The same window: the cells whose block changed, then the creatures'
   * places of the last drawing cleared and this state's written as the
   * full drawing writes them (a place no slot writes now is zero). */
  int inside = x0 >= 0 && x0 + COLUMNS <= MAP;
  for (int row = 0; row < ROWS; row++) {
    int32_t y = y0 + row;
    /* a row on the map, its blocks as drawn: nothing to do (most rows) */
    if (inside && y >= 0 && y < MAP && memcmp(&state->map[y][x0], memo->window[row], COLUMNS) == 0)
      continue;
    for (int column = 0; column < COLUMNS; column++) {
      uint8_t now = window_block(state, y, x0 + column), was = memo->window[row][column];
      if (now == was) continue;
      float *cell = out + (row * COLUMNS + column) * CHANNELS;
      if (was < BLOCKS) cell[was] = 0.0f;
      if (now < BLOCKS) cell[now] = 1.0f;
      memo->window[row][column] = now;
    }
  }
  enum { SLOTS = sizeof memo->written / sizeof memo->written[0] };
  for (int k = 0; k < SLOTS; k++)
    if (memo->written[k] >= 0) out[memo->written[k]] = 0.0f;
  put_creatures(state, out, memo->written);
  put_rest(state, out);
}

/* ---- the pixel observation ---- */


enum { BP = CRAFTER_CC_BLOCK_PIXELS, IP = CRAFTER_CC_ITEM_PIXELS, DP = CRAFTER_CC_DIGIT_PIXELS };

/* A 16x16 image as RGBA bytes (an image without alpha opaque); `what`
 * names it in an error. */
static int image_rgba(const crafter_image *image, const char *what, uint8_t rgba[16][16][4],
                      char *error, size_t error_size) {
  if (image->width != 16 || image->height != 16) {
    snprintf(error, error_size, "%s is %dx%d, not 16x16", what, image->width, image->height);
    return -1;
  }
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      for (int c = 0; c < 4; c++)
        rgba[y][x][c] = c < image->channels ? image->pixels[(y * 16 + x) * image->channels + c] : 255;
  return 0;
}

/* A 16x16 PNG of the folder as RGBA bytes. */
static int folder_rgba(const char *folder, const char *name, uint8_t rgba[16][16][4], char *error,
                       size_t error_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  crafter_image image = {0};
  if (crafter_image_read_png(&image, path, error, error_size) != 0) return -1;
  int status = image_rgba(&image, path, rgba, error, error_size);
  free(image.pixels);
  return status;
}

/* One of the toolkit's own textures (data/textures, built in) by its
 * name without .png, as RGBA bytes. */
static int builtin_one(const char *name, uint8_t rgba[16][16][4], char *error, size_t error_size) {
  const uint8_t *data;
  size_t size;
  if (crafter_builtin_texture_png(name, &data, &size) != 0) {
    snprintf(error, error_size, "built-in texture %s is missing", name);
    return -1;
  }
  crafter_image image = {0};
  char reason[200];
  if (crafter_image_decode_png(&image, data, size, reason, sizeof reason) != 0) {
    snprintf(error, error_size, "built-in texture %s: %s", name, reason);
    return -1;
  }
  char what[64];
  snprintf(what, sizeof what, "built-in texture %s", name);
  int status = image_rgba(&image, what, rgba, error, error_size);
  free(image.pixels);
  return status;
}

/* The built-in texture standing for Craftax's file `name` ("grass.png"):
 * the one of the same name; for the three files Crafter's assets lack,
 * debug_tile.png is unknown.png, and plant_on_grass.png and
 * ripe_plant_on_grass.png are plant.png and plant-ripe.png over
 * grass.png (colour * alpha + grass * (255 - alpha), / 255 rounded to
 * nearest, opaque), as Craftax's own two files are made of its plant and
 * grass. */
static int builtin_rgba(const char *name, uint8_t rgba[16][16][4], char *error,
                        size_t error_size) {
  char base[64];
  snprintf(base, sizeof base, "%.*s", (int)strcspn(name, "."), name);
  const char *plant = strcmp(base, "plant_on_grass") == 0        ? "plant"
                      : strcmp(base, "ripe_plant_on_grass") == 0 ? "plant-ripe"
                                                                 : NULL;
  if (!plant) return builtin_one(strcmp(base, "debug_tile") == 0 ? "unknown" : base, rgba, error,
                                 error_size);
  uint8_t over[16][16][4];
  if (builtin_one("grass", rgba, error, error_size) != 0 ||
      builtin_one(plant, over, error, error_size) != 0)
    return -1;
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++) {
      int alpha = over[y][x][3];
      for (int c = 0; c < 3; c++)
        rgba[y][x][c] = (uint8_t)((over[y][x][c] * alpha + rgba[y][x][c] * (255 - alpha) + 127) / 255);
      rgba[y][x][3] = 255;
    }
  return 0;
}

/* A texture of Craftax's assets folder, or (folder NULL) the built-in
 * one standing for it. */
static int read_rgba(const char *folder, const char *name, uint8_t rgba[16][16][4], char *error,
                     size_t error_size) {
  return folder ? folder_rgba(folder, name, rgba, error, error_size)
                : builtin_rgba(name, rgba, error, error_size);
}

/* The source pixel of each of n pixels in PIL's NEAREST resize from 16:
 * the centre of each pixel stepped by 16 / n in double, truncated. */
static void nearest(int n, int source[BP]) {
  double step = 16.0 / n, at = step * 0.5;
  for (int k = 0; k < n; k++, at += step) source[k] = (int)at;
}

enum alpha_kind { ALPHA_CLAMPED, ALPHA_KEPT };

/* A texture of the folder scaled to n pixels: RGB into rgb[n*n*3], the
 * alpha (clamped to alpha / 255 in integers, or kept) into alpha[n*n]. */
static int load_scaled(const char *folder, const char *name, int n, enum alpha_kind kind,
                       float *rgb, int *alpha, char *error, size_t error_size) {
  uint8_t rgba[16][16][4];
  if (read_rgba(folder, name, rgba, error, error_size) != 0) return -1;
  int source[BP];
  nearest(n, source);
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      const uint8_t *p = rgba[source[y]][source[x]];
      for (int c = 0; c < 3; c++) rgb[(y * n + x) * 3 + c] = p[c];
      alpha[y * n + x] = kind == ALPHA_CLAMPED ? p[3] / 255 : p[3];
    }
  return 0;
}

static int load_textures(crafter_cc_textures *t, const char *folder, char *error,
                         size_t error_size);

static const char *const block_files[CRAFTER_SYMBOLIC_BLOCKS] = {
    "debug_tile.png", "debug_tile.png", "grass.png",  "water.png",          "stone.png",
    "tree.png",       "wood.png",       "path.png",   "coal.png",           "iron.png",
    "diamond.png",    "table.png",      "furnace.png", "sand.png",          "lava.png",
    "plant_on_grass.png", "ripe_plant_on_grass.png"};

int crafter_cc_textures_load(crafter_cc_textures *t, const char *folder, char *error,
                             size_t error_size) {
  if (!folder) {
    snprintf(error, error_size, "no folder of textures named");
    return -1;
  }
  return load_textures(t, folder, error, error_size);
}

int crafter_cc_textures_load_builtin(crafter_cc_textures *t, char *error, size_t error_size) {
  return load_textures(t, NULL, error, error_size);
}

static int load_textures(crafter_cc_textures *t, const char *folder, char *error,
                         size_t error_size) {
  int alpha[BP * BP];
  for (int b = 0; b < CRAFTER_SYMBOLIC_BLOCKS; b++) {
    if (load_scaled(folder, block_files[b], BP, ALPHA_CLAMPED, &t->block[b][0][0][0], alpha,
                    error, error_size) != 0 ||
        load_scaled(folder, block_files[b], IP, ALPHA_CLAMPED, &t->item_block[b][0][0][0], alpha,
                    error, error_size) != 0)
      return -1;
  }
  /* OUT_OF_BOUNDS is grey */
  for (int k = 0; k < BP * BP * 3; k++) (&t->block[1][0][0][0])[k] = 128.0f;

  static const char *const figures[9] = {"player-left.png", "player-right.png", "player-up.png",
                                         "player-down.png", "player-sleep.png", "zombie.png",
                                         "cow.png",         "skeleton.png",     "arrow-up.png"};
  for (int f = 0; f < 9; f++) {
    int arrow = f == 8;
    float *rgb = &t->figure[f][0][0][0];
    if (load_scaled(folder, figures[f], BP, arrow ? ALPHA_CLAMPED : ALPHA_KEPT, rgb, alpha, error,
                    error_size) != 0)
      return -1;
    for (int k = 0; k < BP * BP; k++) {
      if (arrow) { /* the colour times the clamped alpha; the alpha 0 or 1 */
        for (int c = 0; c < 3; c++) rgb[k * 3 + c] = (float)((int)rgb[k * 3 + c] * alpha[k]);
        (&t->figure_alpha[f][0][0])[k] = (float)alpha[k];
      } else {
        (&t->figure_alpha[f][0][0])[k] = (float)alpha[k] / 255.0f;
      }
    }
  }

  /* the vitals, the sapling and the wood pickaxe take their colour as it
   * is; the other tools the colour times the clamped alpha */
  static const char *const items[11] = {
      "health.png",        "food.png",       "drink.png",       "energy.png",
      "sapling.png",       "wood_pickaxe.png", "stone_pickaxe.png", "iron_pickaxe.png",
      "wood_sword.png",    "stone_sword.png",  "iron_sword.png"};
  for (int i = 0; i < 11; i++) {
    float *rgb = &t->item[i][0][0][0];
    if (load_scaled(folder, items[i], IP, ALPHA_CLAMPED, rgb, alpha, error, error_size) != 0)
      return -1;
    if (i >= 6)
      for (int k = 0; k < IP * IP; k++)
        for (int c = 0; c < 3; c++) rgb[k * 3 + c] = (float)((int)rgb[k * 3 + c] * alpha[k]);
  }

  memset(t->digit, 0, sizeof t->digit);
  memset(t->digit_alpha, 0, sizeof t->digit_alpha);
  for (int d = 1; d <= 9; d++) {
    char name[16];
    snprintf(name, sizeof name, "%d.png", d);
    float *rgb = &t->digit[d][0][0][0];
    if (load_scaled(folder, name, DP, ALPHA_CLAMPED, rgb, alpha, error, error_size) != 0)
      return -1;
    for (int k = 0; k < DP * DP; k++) {
      for (int c = 0; c < 3; c++) rgb[k * 3 + c] = (float)((int)rgb[k * 3 + c] * alpha[k]);
      (&t->digit_alpha[d][0][0])[k] = (float)alpha[k];
    }
  }

  /* numpy's linspace(-1, 1, n): i * (2 / (n - 1)) - 1, the last 1 */
  for (int y = 0; y < ROWS * BP; y++)
    for (int x = 0; x < COLUMNS * BP; x++) {
      double ys = y == ROWS * BP - 1 ? 1.0 : (double)y * (2.0 / (ROWS * BP - 1)) + -1.0;
      double xs = x == COLUMNS * BP - 1 ? 1.0 : (double)x * (2.0 / (COLUMNS * BP - 1)) + -1.0;
      t->night_noise[y][x] = (float)(1.0 - exp(-0.5 * (ys * ys + xs * xs) / (0.5 * 0.5)));
    }
  return 0;
}

typedef float pixel_map[ROWS * BP][COLUMNS * BP][3];

/* A figure over the block at window cell (row, column), Craftax's
 * background * (1 - alpha) + colour * alpha. */
static void draw_figure(pixel_map pixels, int row, int column, const float rgb[BP][BP][3],
                        const float alpha[BP][BP], int flip, int transpose) {
  for (int y = 0; y < BP; y++)
    for (int x = 0; x < BP; x++) {
      int sy = transpose ? x : y, sx = transpose ? y : x;
      if (flip) sy = BP - 1 - sy;
      float a = alpha[sy][sx];
      float *p = pixels[row * BP + y][column * BP + x];
      for (int c = 0; c < 3; c++) p[c] = (1.0f - a) * p[c] + rgb[sy][sx][c] * a;
    }
}

static void draw_mobs(pixel_map pixels, const crafter_cc_state *state,
                      const crafter_cc_mobs *mobs, int slots, const crafter_cc_textures *t,
                      int figure) {
  for (int k = 0; k < slots; k++) {
    int row = mobs->position[k][0] - state->player_position[0] + ROWS / 2;
    int column = mobs->position[k][1] - state->player_position[1] + COLUMNS / 2;
    /* a creature off the window or dead draws nothing: Craftax blends it
     * with an alpha of 0 */
    if (!(row >= 0 && row < ROWS && column >= 0 && column < COLUMNS && mobs->mask[k])) continue;
    int flip = 0, transpose = 0;
    if (figure == 8) {
      const int32_t *d = state->arrow_directions[k];
      flip = d[0] > 0 || d[1] > 0;
      transpose = d[1] != 0;
    }
    draw_figure(pixels, row, column, t->figure[figure], t->figure_alpha[figure], flip, transpose);
  }
}

/* One item of the inventory: its texture (or nothing when the count is
 * 0) at the top left of block (x, y) of the inventory, and its count's
 * digit (Craftax reads past 9 as 9, below 0 as 0). */
static void draw_item(float inventory[2 * BP][COLUMNS * BP][3], const float item[IP][IP][3],
                      int32_t count, int x, int y, const crafter_cc_textures *t) {
  for (int r = 0; r < IP; r++)
    for (int c = 0; c < IP; c++)
      for (int k = 0; k < 3; k++)
        inventory[y * BP + r][x * BP + c][k] = count > 0 ? item[r][c][k] : 0.0f;
  int digit = count < 0 ? 0 : count > 9 ? 9 : (int)count;
  int top = y * BP + (BP - DP) - 1, left = x * BP + (BP - DP) - 1;
  for (int r = 0; r < DP; r++)
    for (int c = 0; c < DP; c++)
      for (int k = 0; k < 3; k++) {
        float *p = &inventory[top + r][left + c][k];
        *p = *p * (1.0f - t->digit_alpha[digit][r][c]);
        *p = *p + t->digit[digit][r][c][k];
      }
}

int crafter_cc_render_pixels(const crafter_cc_state *state, const crafter_cc_textures *t,
                             float *out) {
  float daylight = state->light_level;
  _Static_assert(sizeof(pixel_map) == sizeof(float) * ROWS * BP * COLUMNS * BP * 3, "packed");
  float(*pixels)[COLUMNS * BP][3] = (float(*)[COLUMNS * BP][3])out;
  for (int row = 0; row < ROWS; row++)
    for (int column = 0; column < COLUMNS; column++) {
      int y = state->player_position[0] + row - ROWS / 2;
      int x = state->player_position[1] + column - COLUMNS / 2;
      int block = CRAFTER_CC_OUT_OF_BOUNDS;
      if (y >= 0 && y < MAP && x >= 0 && x < MAP) block = state->map[y][x];
      for (int r = 0; r < BP; r++)
        for (int c = 0; c < BP; c++)
          for (int k = 0; k < 3; k++)
            pixels[row * BP + r][column * BP + c][k] =
                block < BLOCKS ? t->block[block][r][c][k] : 0.0f;
    }
  int player = state->is_sleeping ? 4 : state->player_direction - 1;
  if (player >= 0 && player < 5)
    draw_figure(pixels, ROWS / 2, COLUMNS / 2, t->figure[player], t->figure_alpha[player], 0, 0);
  draw_mobs(pixels, state, &state->zombies, CRAFTER_CC_MAX_ZOMBIES, t, 5);
  draw_mobs(pixels, state, &state->cows, CRAFTER_CC_MAX_COWS, t, 6);
  draw_mobs(pixels, state, &state->skeletons, CRAFTER_CC_MAX_SKELETONS, t, 7);
  draw_mobs(pixels, state, &state->arrows, CRAFTER_CC_MAX_ARROWS, t, 8);

  /* Daylight: the picture blended with its night version, which is the
   * picture (with static at night) enhanced and tinted; then sleep's
   * grey.  XLA compiles these into a few loops and the CPU's code
   * generator fuses a multiply into the add that follows it: the fmaf
   * calls are those fusions, found in the code XLA generates for
   * env.reset and env.step and held to JAX's episodes, each needed for
   * the bits (the static's blend fuses its second product, the others
   * their first). */
  static const float night_tint[3] = {0.0f, 16.0f, 64.0f};
  float asleep = state->is_sleeping ? 1.0f : 0.0f;
  /* Night: the picture blended with static first, uniform(state_rng) *
   * 95 + 32 a pixel, as much as the intensity texture says times how
   * dark it is (by day Craftax selects the picture itself). */
  int night = daylight < 0.5f;
  float noise[ROWS * BP * COLUMNS * BP];
  float intensity = fmaxf(2.0f * (0.5f - daylight), 0.0f);
  if (night) crafter_jax_uniform(state->state_rng, noise, ROWS * BP * COLUMNS * BP, 0.0f, 1.0f);
  for (int y = 0; y < ROWS * BP; y++)
    for (int x = 0; x < COLUMNS * BP; x++) {
      float *p = pixels[y][x];
      float q[3] = {p[0], p[1], p[2]};
      if (night) {
        float value = fmaf(noise[y * COLUMNS * BP + x], 95.0f, 32.0f);
        float mask = intensity * t->night_noise[y][x];
        for (int k = 0; k < 3; k++) q[k] = fmaf(mask, value, (1.0f - mask) * p[k]);
      }
      float lum = fmaf(0.114f, q[2], fmaf(0.299f, q[0], 0.587f * q[1]));
      float m[3];
      for (int k = 0; k < 3; k++) {
        float dark = fmaf(q[k], 0.4f, lum * 0.6f);
        dark = 0.5f * dark + 0.5f * night_tint[k];
        m[k] = fmaf(daylight, p[k], (1.0f - daylight) * dark);
      }
      /* asleep is 0 or 1, so the sum is exact however it is fused */
      float grey = 0.5f * fmaf(0.114f, m[2], fmaf(0.299f, m[0], 0.587f * m[1]));
      for (int k = 0; k < 3; k++) {
        float sleep = grey + (k == 2 ? 8.0f : 0.0f);
        p[k] = (1.0f - asleep) * m[k] + asleep * sleep;
      }
    }

  float(*inventory)[COLUMNS * BP][3] = pixels + ROWS * BP;
  memset(inventory, 0, sizeof(float) * 2 * BP * COLUMNS * BP * 3);
  draw_item(inventory, t->item[0], state->player_health, 0, 0, t);
  draw_item(inventory, t->item[1], state->player_food, 1, 0, t);
  draw_item(inventory, t->item[2], state->player_drink, 2, 0, t);
  draw_item(inventory, t->item[3], state->player_energy, 3, 0, t);
  const int32_t *inv = state->inventory; /* wood stone coal iron diamond sapling tools */
  draw_item(inventory, t->item_block[CRAFTER_CC_WOOD], inv[0], 5, 0, t);
  draw_item(inventory, t->item_block[CRAFTER_CC_STONE], inv[1], 6, 0, t);
  draw_item(inventory, t->item_block[CRAFTER_CC_COAL], inv[2], 7, 0, t);
  draw_item(inventory, t->item_block[CRAFTER_CC_IRON], inv[3], 8, 0, t);
  draw_item(inventory, t->item_block[CRAFTER_CC_DIAMOND], inv[4], 0, 1, t);
  draw_item(inventory, t->item[4], inv[5], 4, 0, t);
  for (int tool = 0; tool < 6; tool++) draw_item(inventory, t->item[5 + tool], inv[6 + tool], 1 + tool, 1, t);

  const float scale = 1.0f / 255.0f;
  for (int k = 0; k < CRAFTER_CC_PIXELS_SIZE; k++) out[k] = out[k] * scale; /* / 255 as XLA compiles it */
  return 0;
}
