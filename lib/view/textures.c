#include "view/textures.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"

const char *const crafter_texture_names[CRAFTER_TEXTURE_COUNT] = {
    "unknown",       "water",        "grass",       "stone",         "path",
    "sand",          "tree",         "lava",        "coal",          "iron",
    "diamond",       "table",        "furnace",     "player-left",   "player-right",
    "player-up",     "player-down",  "player-sleep", "cow",          "zombie",
    "skeleton",      "arrow-left",   "arrow-right", "arrow-up",      "arrow-down",
    "plant",         "plant-ripe",   "health",      "food",          "drink",
    "energy",        "sapling",      "wood",        "wood_pickaxe",  "stone_pickaxe",
    "iron_pickaxe",  "wood_sword",   "stone_sword", "iron_sword",    "1",
    "2",             "3",            "4",           "5",             "6",
    "7",             "8",            "9",            "teammate-left", "teammate-right",
    "teammate-up",   "teammate-down", "teammate-sleep",
};

/* The other players' textures a folder need not have: the player's, red
 * and blue swapped. */
static int is_teammate(int texture) { return texture >= CRAFTER_TEX_TEAMMATE_LEFT; }

static int derive_teammate(crafter_textures *textures, int texture) {
  const crafter_image *from =
      &textures->images[CRAFTER_TEX_PLAYER_LEFT + (texture - CRAFTER_TEX_TEAMMATE_LEFT)];
  crafter_image *to = &textures->images[texture];
  size_t bytes = (size_t)from->width * (size_t)from->height * (size_t)from->channels;
  to->pixels = malloc(bytes ? bytes : 1);
  if (!to->pixels) return -1;
  to->width = from->width;
  to->height = from->height;
  to->channels = from->channels;
  memcpy(to->pixels, from->pixels, bytes);
  for (size_t at = 0; at + 2 < bytes; at += (size_t)from->channels) {
    uint8_t red = to->pixels[at];
    to->pixels[at] = to->pixels[at + 2];
    to->pixels[at + 2] = red;
  }
  return 0;
}

/* The embedded PNG files of data/textures, made at build time. */
typedef struct builtin_texture {
  const char *name;
  const unsigned char *data;
  size_t size;
} builtin_texture;
extern const builtin_texture crafter_builtin_textures[];
extern const size_t crafter_builtin_texture_count;

#define MAX_PNG_BYTES (16u << 20)
#define MAX_SIDE 4096

typedef struct memory_reader {
  const uint8_t *data;
  size_t size, position;
} memory_reader;

static void read_memory(png_structp png, png_bytep out, png_size_t length) {
  memory_reader *reader = png_get_io_ptr(png);
  if (reader->size - reader->position < length) png_error(png, "truncated PNG data");
  memcpy(out, reader->data + reader->position, length);
  reader->position += length;
}

static void quiet_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

typedef struct decode_state {
  char message[160];
} decode_state;

static void raise_error(png_structp png, png_const_charp message) {
  decode_state *state = png_get_error_ptr(png);
  snprintf(state->message, sizeof(state->message), "%s", message);
  png_longjmp(png, 1);
}

int crafter_image_decode_png(crafter_image *image, const uint8_t *data, size_t size, char *error,
                             size_t error_size) {
  memset(image, 0, sizeof(*image));
  if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
    snprintf(error, error_size, "not a PNG file");
    return -1;
  }
  decode_state state = {{0}};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, raise_error,
                                           quiet_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_read_struct(&png, &info, NULL);
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  memory_reader reader = {data, size, 0};
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    free(pixels);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    snprintf(error, error_size, "bad PNG: %s", state.message);
    return -1;
  }
  png_set_read_fn(png, &reader, read_memory);
  png_read_info(png, info);
  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  if (width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE)
    png_error(png, "image size out of range");
  int color = png_get_color_type(png, info);
  /* Eight bits per channel, palettes and grey expanded to RGB, with an
   * alpha channel only when the file has transparency; no gamma
   * correction, as the reference reads the stored values. */
  png_set_strip_16(png);
  png_set_packing(png);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_expand_gray_1_2_4_to_8(png);
    png_set_gray_to_rgb(png);
  }
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  int channels = png_get_channels(png, info);
  if (channels != 3 && channels != 4) png_error(png, "unsupported channel layout");
  size_t stride = (size_t)width * (size_t)channels;
  if (png_get_rowbytes(png, info) != stride) png_error(png, "unexpected row size");
  pixels = malloc(stride * height);
  rows = malloc(sizeof(png_bytep) * height);
  if (!pixels || !rows) png_error(png, "out of memory");
  for (png_uint_32 row = 0; row < height; row++) rows[row] = pixels + row * stride;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  image->width = (int)width;
  image->height = (int)height;
  image->channels = channels;
  image->pixels = pixels;
  return 0;
}

static int read_file(const char *path, uint8_t **data, size_t *size, char *error,
                     size_t error_size) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    snprintf(error, error_size, "%s: %s", path, strerror(errno));
    return -1;
  }
  size_t capacity = 65536, used = 0;
  uint8_t *buffer = malloc(capacity);
  while (buffer) {
    size_t got = fread(buffer + used, 1, capacity - used, file);
    used += got;
    if (got == 0) break;
    if (used == capacity) {
      if (capacity >= MAX_PNG_BYTES) {
        free(buffer);
        fclose(file);
        snprintf(error, error_size, "%s: file too large for a texture", path);
        return -1;
      }
      uint8_t *grown = realloc(buffer, capacity * 2);
      if (!grown) {
        free(buffer);
        buffer = NULL;
        break;
      }
      buffer = grown;
      capacity *= 2;
    }
  }
  int failed = ferror(file);
  fclose(file);
  if (!buffer || failed) {
    free(buffer);
    snprintf(error, error_size, "%s: %s", path, buffer ? "read error" : "out of memory");
    return -1;
  }
  *data = buffer;
  *size = used;
  return 0;
}

int crafter_textures_load_dir(crafter_textures *textures, const char *directory, char *error,
                              size_t error_size) {
  memset(textures, 0, sizeof(*textures));
  struct stat status;
  const char *reason = NULL;
  if (stat(directory, &status) != 0)
    reason = errno == ENOENT ? "does not exist" : "cannot be read";
  else if (!S_ISDIR(status.st_mode))
    reason = "is not a folder";
  if (reason) {
    snprintf(error, error_size, "textures folder %s %s", directory, reason);
    return -1;
  }
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.png", directory, crafter_texture_names[i]);
    if (is_teammate(i) && access(path, F_OK) != 0) {
      if (derive_teammate(textures, i) < 0) {
        snprintf(error, error_size, "out of memory");
        crafter_textures_fini(textures);
        return -1;
      }
      continue;
    }
    if (crafter_image_read_png(&textures->images[i], path, error, error_size) < 0) {
      crafter_textures_fini(textures);
      return -1;
    }
  }
  return 0;
}

int crafter_image_read_png(crafter_image *image, const char *path, char *error,
                           size_t error_size) {
  uint8_t *data;
  size_t size;
  if (read_file(path, &data, &size, error, error_size) < 0) return -1;
  char reason[200];
  int status = crafter_image_decode_png(image, data, size, reason, sizeof(reason));
  free(data);
  if (status < 0) {
    snprintf(error, error_size, "%s: %s", path, reason);
    return -1;
  }
  return 0;
}

int crafter_textures_load_builtin(crafter_textures *textures, char *error, size_t error_size) {
  memset(textures, 0, sizeof(*textures));
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    const builtin_texture *found = NULL;
    for (size_t j = 0; j < crafter_builtin_texture_count; j++)
      if (strcmp(crafter_builtin_textures[j].name, crafter_texture_names[i]) == 0)
        found = &crafter_builtin_textures[j];
    char reason[200];
    if (!found && is_teammate(i)) {
      if (derive_teammate(textures, i) < 0) {
        snprintf(error, error_size, "out of memory");
        crafter_textures_fini(textures);
        return -1;
      }
      continue;
    }
    if (!found) {
      snprintf(error, error_size, "built-in texture %s is missing", crafter_texture_names[i]);
      crafter_textures_fini(textures);
      return -1;
    }
    if (crafter_image_decode_png(&textures->images[i], found->data, found->size, reason,
                                 sizeof(reason)) < 0) {
      snprintf(error, error_size, "built-in texture %s: %s", crafter_texture_names[i], reason);
      crafter_textures_fini(textures);
      return -1;
    }
  }
  return 0;
}

int crafter_builtin_texture_png(const char *name, const uint8_t **data, size_t *size) {
  for (size_t j = 0; j < crafter_builtin_texture_count; j++)
    if (strcmp(crafter_builtin_textures[j].name, name) == 0) {
      *data = crafter_builtin_textures[j].data;
      *size = crafter_builtin_textures[j].size;
      return 0;
    }
  return -1;
}

int crafter_textures_load(crafter_textures *textures, const char *folder, char *error,
                          size_t error_size) {
  if (folder) return crafter_textures_load_dir(textures, folder, error, error_size);
  const char *named = getenv(CRAFTER_TEXTURES_VARIABLE);
  if (!named || !*named) return crafter_textures_load_builtin(textures, error, error_size);
  char reason[4096 + 200];
  if (crafter_textures_load_dir(textures, named, reason, sizeof(reason)) == 0) return 0;
  snprintf(error, error_size, CRAFTER_TEXTURES_VARIABLE ": %s", reason);
  return -1;
}

void crafter_textures_fini(crafter_textures *textures) {
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) free(textures->images[i].pixels);
  memset(textures, 0, sizeof(*textures));
}

crafter_textures *crafter_textures_new(const char *folder, char *error, size_t error_size) {
  crafter_textures *textures = calloc(1, sizeof(*textures));
  if (!textures) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  int status = folder ? crafter_textures_load_dir(textures, folder, error, error_size)
                      : crafter_textures_load_builtin(textures, error, error_size);
  if (status < 0) {
    crafter_textures_free(textures);
    return NULL;
  }
  return textures;
}

void crafter_textures_free(crafter_textures *textures) {
  if (!textures) return;
  crafter_textures_fini(textures);
  free(textures);
}

int crafter_write_png_rows(const char *path, int width, int height, crafter_png_rows rows,
                           void *context, char *error, size_t error_size) {
  crafter_outfile out;
  if (crafter_outfile_open(&out, path, error, error_size) < 0) return -1;
  decode_state state = {{0}};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, raise_error,
                                            quiet_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    crafter_outfile_abort(&out);
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    crafter_outfile_abort(&out);
    snprintf(error, error_size, "%s: %s", path, state.message);
    return -1;
  }
  png_init_io(png, out.file);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int row = 0; row < height; row++) {
    const uint8_t *pixels = rows(context, row);
    if (!pixels) {
      png_destroy_write_struct(&png, &info);
      crafter_outfile_abort(&out);
      snprintf(error, error_size, "%s: out of memory while drawing", path);
      return -1;
    }
    png_write_row(png, (png_const_bytep)pixels);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return crafter_outfile_commit(&out, error, error_size);
}

typedef struct whole_picture {
  const uint8_t *rgb;
  size_t row_bytes;
} whole_picture;

static const uint8_t *whole_picture_row(void *context, int row) {
  const whole_picture *picture = context;
  return picture->rgb + (size_t)row * picture->row_bytes;
}

int crafter_write_png(const char *path, const uint8_t *rgb, int width, int height, char *error,
                      size_t error_size) {
  whole_picture picture = {rgb, (size_t)width * 3};
  return crafter_write_png_rows(path, width, height, whole_picture_row, &picture, error,
                                error_size);
}
