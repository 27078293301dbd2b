/* textures: the images the pixel renderer draws, either the toolkit's own
 * (built into the library) or a folder of Crafter-compatible PNG files,
 * loaded by name: grass.png, player-left.png, 1.png, ...
 *
 * Images keep the channels of their file (RGB or RGBA), because the
 * reference draws opaque and transparent images differently. */
#ifndef CRAFTER_TEXTURES_H
#define CRAFTER_TEXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "crafter/crafter.h"

enum crafter_texture {
  /* materials */
  CRAFTER_TEX_UNKNOWN = 0,
  CRAFTER_TEX_WATER,
  CRAFTER_TEX_GRASS,
  CRAFTER_TEX_STONE,
  CRAFTER_TEX_PATH,
  CRAFTER_TEX_SAND,
  CRAFTER_TEX_TREE,
  CRAFTER_TEX_LAVA,
  CRAFTER_TEX_COAL,
  CRAFTER_TEX_IRON,
  CRAFTER_TEX_DIAMOND,
  CRAFTER_TEX_TABLE,
  CRAFTER_TEX_FURNACE,
  /* objects */
  CRAFTER_TEX_PLAYER_LEFT,
  CRAFTER_TEX_PLAYER_RIGHT,
  CRAFTER_TEX_PLAYER_UP,
  CRAFTER_TEX_PLAYER_DOWN,
  CRAFTER_TEX_PLAYER_SLEEP,
  CRAFTER_TEX_COW,
  CRAFTER_TEX_ZOMBIE,
  CRAFTER_TEX_SKELETON,
  CRAFTER_TEX_ARROW_LEFT,
  CRAFTER_TEX_ARROW_RIGHT,
  CRAFTER_TEX_ARROW_UP,
  CRAFTER_TEX_ARROW_DOWN,
  CRAFTER_TEX_PLANT,
  CRAFTER_TEX_PLANT_RIPE,
  /* inventory items that are not materials */
  CRAFTER_TEX_HEALTH,
  CRAFTER_TEX_FOOD,
  CRAFTER_TEX_DRINK,
  CRAFTER_TEX_ENERGY,
  CRAFTER_TEX_SAPLING,
  CRAFTER_TEX_WOOD,
  CRAFTER_TEX_WOOD_PICKAXE,
  CRAFTER_TEX_STONE_PICKAXE,
  CRAFTER_TEX_IRON_PICKAXE,
  CRAFTER_TEX_WOOD_SWORD,
  CRAFTER_TEX_STONE_SWORD,
  CRAFTER_TEX_IRON_SWORD,
  /* digits 1..9 */
  CRAFTER_TEX_DIGIT_1,
  CRAFTER_TEX_DIGIT_9 = CRAFTER_TEX_DIGIT_1 + 8,
  /* the other players, in a game of several (teammate-left.png, ...):
   * a folder's own, or the player's with red and blue swapped */
  CRAFTER_TEX_TEAMMATE_LEFT,
  CRAFTER_TEX_TEAMMATE_RIGHT,
  CRAFTER_TEX_TEAMMATE_UP,
  CRAFTER_TEX_TEAMMATE_DOWN,
  CRAFTER_TEX_TEAMMATE_SLEEP,
  CRAFTER_TEXTURE_COUNT
};

/* File name (without .png) of each texture. */
extern const char *const crafter_texture_names[CRAFTER_TEXTURE_COUNT];

typedef struct crafter_image {
  int width, height, channels; /* channels 3 (RGB) or 4 (RGBA) */
  uint8_t *pixels;             /* row-major: pixels[(row * width + column) * channels] */
} crafter_image;

typedef struct crafter_textures {
  crafter_image images[CRAFTER_TEXTURE_COUNT];
} crafter_textures;

/* Loads every texture from a folder of PNG files named as Crafter's assets.
 * Returns 0, or -1 with a sentence in `error` (naming the file). */
int crafter_textures_load_dir(crafter_textures *textures, const char *directory, char *error,
                              size_t error_size);

/* The environment variable naming a folder of textures that programs draw
 * with when no folder is given (--textures). */
#define CRAFTER_TEXTURES_VARIABLE "CRAFTER_TEXTURES"

/* Loads the textures a program draws with: the folder given (--textures),
 * else the folder the environment variable CRAFTER_TEXTURES names when it
 * is set and not empty (an error then says so), else the built-in ones.
 * Returns 0, or -1 with a sentence in `error`. */
int crafter_textures_load(crafter_textures *textures, const char *folder, char *error,
                          size_t error_size);

/* Loads the toolkit's own textures, built into the library. */
int crafter_textures_load_builtin(crafter_textures *textures, char *error, size_t error_size);

/* The PNG file the build embedded for the built-in texture `name` (its
 * file name in data/textures without .png: "grass", "debug"): 0 with
 * *data and *size set, or -1 when there is none. */
int crafter_builtin_texture_png(const char *name, const uint8_t **data, size_t *size);

/* Frees the images a load put into textures in the caller's memory.  (A
 * program's handle comes from crafter_textures_new, crafter/crafter.h.) */
void crafter_textures_fini(crafter_textures *textures);

/* Decodes one PNG from memory into RGB or RGBA (by its alpha channel). */
int crafter_image_decode_png(crafter_image *image, const uint8_t *data, size_t size, char *error,
                             size_t error_size);

/* Reads the PNG file at `path` (a texture's size at most) and decodes it
 * as crafter_image_decode_png does; 0, or -1 with "PATH: reason". */
int crafter_image_read_png(crafter_image *image, const char *path, char *error,
                           size_t error_size);

/* Writes an RGB image (row-major, width*height*3 bytes) as a PNG file;
 * returns 0, or -1 with a reason. */
int crafter_write_png(const char *path, const uint8_t *rgb, int width, int height, char *error,
                      size_t error_size);

/* The same, a row at a time: rows(context, row) hands back row `row`
 * (width*3 bytes, read before the next call), rows in order from 0, or
 * NULL to give up (out of memory).  The file is written whole
 * (lib/base/outfile.h): a failure leaves the path as it was. */
typedef const uint8_t *(*crafter_png_rows)(void *context, int row);
int crafter_write_png_rows(const char *path, int width, int height, crafter_png_rows rows,
                           void *context, char *error, size_t error_size);

#endif
