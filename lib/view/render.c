#include "view/render.h"

#include "kernels/kernels.h"
#include "kernels/shade.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A texture scaled to one size, addressed [x][y] like the reference's
 * transposed arrays. */
typedef struct scaled {
  int width, height, channels;
  uint8_t *pixels; /* (x * height + y) * channels */
} scaled;

/* What every renderer of the same parameters and textures shares: sizes,
 * the scaled textures and the vignette.  Read only once made. */
typedef struct render_assets {
  crafter_params params;
  int unit[2];
  int grid[2];       /* the local view in cells */
  int item_rows;
  int local[2];      /* the local view in pixels */
  int border[2];
  int item_size[2], digit_size[2];
  scaled cell[CRAFTER_TEXTURE_COUNT];  /* scaled to a cell */
  scaled item[CRAFTER_TEXTURE_COUNT];  /* 0.8 of a cell */
  scaled digit[CRAFTER_TEXTURE_COUNT]; /* 0.6 of a cell */
  double *vignette;  /* local[0] * local[1], [x][y] */
  /* Every material's cell, alone and under every object texture, and the
   * grey cell outside the world, composed once: cell_bytes each,
   * [x][y][3] like the canvas; see composed_cell() and outside_cell(). */
  uint8_t *composed;
  size_t cell_bytes;
} render_assets;

/* The textures object_texture() gives: the objects' (contiguous in
 * textures.h), then the unknown one.  A material's cells are: alone, then
 * under each of these. */
#define FIRST_OBJECT_TEXTURE CRAFTER_TEX_PLAYER_LEFT
#define PLAIN_OBJECT_TEXTURES (CRAFTER_TEX_PLANT_RIPE - CRAFTER_TEX_PLAYER_LEFT + 1)
#define TEAMMATE_TEXTURES (CRAFTER_TEX_TEAMMATE_SLEEP - CRAFTER_TEX_TEAMMATE_LEFT + 1)
#define OBJECT_TEXTURES (PLAIN_OBJECT_TEXTURES + TEAMMATE_TEXTURES + 1)
#define CELLS_PER_MATERIAL (OBJECT_TEXTURES + 1)

/* The texture of a material's cell under object texture column c > 0:
 * the objects', the other players', then the unknown one. */
static int column_texture(int column) {
  if (column == OBJECT_TEXTURES) return CRAFTER_TEX_UNKNOWN;
  if (column > PLAIN_OBJECT_TEXTURES)
    return CRAFTER_TEX_TEAMMATE_LEFT + column - 1 - PLAIN_OBJECT_TEXTURES;
  return FIRST_OBJECT_TEXTURE + column - 1;
}

/* A material's cell under a texture object_texture() gives (or alone, for
 * -1), as the plain path composes it. */
static const uint8_t *composed_cell(const render_assets *a, int material, int texture) {
  int column = texture >= CRAFTER_TEX_TEAMMATE_LEFT
                   ? PLAIN_OBJECT_TEXTURES + 1 + texture - CRAFTER_TEX_TEAMMATE_LEFT
                   : texture - FIRST_OBJECT_TEXTURE + 1;
  if (texture < 0) column = 0;
  if (texture == CRAFTER_TEX_UNKNOWN) column = OBJECT_TEXTURES;
  return a->composed + ((size_t)material * CELLS_PER_MATERIAL + (size_t)column) * a->cell_bytes;
}

/* The cell drawn where the view leaves the world: grey 127. */
static const uint8_t *outside_cell(const render_assets *a) {
  return a->composed + (size_t)CRAFTER_MATERIAL_COUNT * CELLS_PER_MATERIAL * a->cell_bytes;
}

struct crafter_renderer {
  const render_assets *a;
  render_assets *owned; /* the assets, when this renderer made them */
  double *noise;     /* the night's noise of each pixel, [x][y] */
  uint8_t *canvas;   /* local view, [x][y][3] */
  uint8_t *lit_cells; /* a lit cell per material, the outside and a scratch */
  /* The rows below the local view as last drawn, for the inventory they
   * show: the panel depends on nothing else. */
  uint8_t *panel;
  int32_t panel_inventory[CRAFTER_ITEM_COUNT];
  int panel_ready;
  uint8_t *pixels;   /* where attached renders go */
};

/* The coordinate starts half a step in and grows by repeated addition,
 * with its rounding, as in Pillow's affine nearest filter. */
void crafter_nearest_map(int in, int out, int *map) {
  double step = (double)in / out;
  double position = step * 0.5;
  for (int i = 0; i < out; i++) {
    int index = (int)position;
    map[i] = index < in ? index : in - 1;
    position += step;
  }
}

static int scale_image(const crafter_image *image, int width, int height, scaled *out) {
  memset(out, 0, sizeof(*out));
  if (width <= 0 || height <= 0) return 0; /* nothing to draw */
  int *map_x = malloc(sizeof(int) * (size_t)width);
  int *map_y = malloc(sizeof(int) * (size_t)height);
  out->pixels = malloc((size_t)width * (size_t)height * (size_t)image->channels);
  if (!map_x || !map_y || !out->pixels) {
    free(map_x);
    free(map_y);
    free(out->pixels);
    out->pixels = NULL;
    return -1;
  }
  crafter_nearest_map(image->width, width, map_x);
  crafter_nearest_map(image->height, height, map_y);
  out->width = width;
  out->height = height;
  out->channels = image->channels;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      const uint8_t *from =
          image->pixels + ((size_t)map_y[y] * (size_t)image->width + (size_t)map_x[x]) *
                              (size_t)image->channels;
      memcpy(out->pixels + ((size_t)x * (size_t)height + (size_t)y) * (size_t)image->channels,
             from, (size_t)image->channels);
    }
  free(map_x);
  free(map_y);
  return 0;
}

/* Pillow's ImageEnhance.Color(image).enhance(0.4) of a channel value v in
 * a pixel of grey g, (uint8)(g + 0.4f * (v - g)), for every g and v: the
 * table holds the same single-precision results, worked out once. */
static uint8_t faded_table[256][256];
/* (float)v / 255.0f for every byte v: the blends' quotients, divided once. */
static float over_255[256];
static pthread_once_t faded_once = PTHREAD_ONCE_INIT;

static void fill_faded_table(void) {
  for (int g = 0; g < 256; g++)
    for (int v = 0; v < 256; v++) faded_table[g][v] = (uint8_t)(g + 0.4f * (v - g));
  for (int v = 0; v < 256; v++) over_255[v] = (float)v / 255.0f;
}

static void free_assets(render_assets *assets) {
  if (!assets) return;
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    free(assets->cell[i].pixels);
    free(assets->item[i].pixels);
    free(assets->digit[i].pixels);
  }
  free(assets->vignette);
  free(assets->composed);
  free(assets);
}

void crafter_renderer_free(crafter_renderer *renderer) {
  if (!renderer) return;
  free_assets(renderer->owned);
  free(renderer->noise);
  free(renderer->canvas);
  free(renderer->lit_cells);
  free(renderer->panel);
  free(renderer);
}

/* The observation's rows below the local view, in bytes. */
static size_t panel_bytes(const render_assets *a) {
  return (size_t)(a->params.size[1] - a->border[1] - a->local[1]) * (size_t)a->params.size[0] * 3;
}

size_t crafter_renderer_bytes(const crafter_renderer *renderer) {
  const render_assets *a = renderer->a;
  size_t local = (size_t)a->local[0] * (size_t)a->local[1];
  size_t cell = (size_t)a->unit[0] * (size_t)a->unit[1] * 3;
  size_t bytes = sizeof(*renderer) + local * (sizeof(double) + 3) +
                 cell * (CRAFTER_MATERIAL_COUNT + 2) + panel_bytes(a);
  if (renderer->owned) {
    bytes += sizeof(render_assets) + local * sizeof(double) +
             a->cell_bytes * (CRAFTER_MATERIAL_COUNT * CELLS_PER_MATERIAL + 1);
    for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
      const scaled *sets[3] = {&a->cell[i], &a->item[i], &a->digit[i]};
      for (int k = 0; k < 3; k++)
        bytes += (size_t)sets[k]->width * (size_t)sets[k]->height * (size_t)sets[k]->channels;
    }
  }
  return bytes;
}

/* np.linspace(-1, 1, count)[index] */
static double linspace(int index, int count) {
  if (count == 1) return -1.0;
  if (index == count - 1) return 1.0;
  return index * (2.0 / (count - 1)) + -1.0;
}

/* The per-env buffers of a renderer whose assets are set. */
static crafter_renderer *with_buffers(crafter_renderer *renderer) {
  const render_assets *a = renderer->a;
  size_t local_pixels = (size_t)a->local[0] * (size_t)a->local[1];
  renderer->noise = malloc(sizeof(double) * (local_pixels ? local_pixels : 1));
  renderer->canvas = malloc(3 * (local_pixels ? local_pixels : 1));
  renderer->lit_cells =
      malloc((size_t)a->unit[0] * (size_t)a->unit[1] * 3 * (CRAFTER_MATERIAL_COUNT + 2));
  renderer->panel = malloc(panel_bytes(a) ? panel_bytes(a) : 1);
  if (!renderer->noise || !renderer->canvas || !renderer->lit_cells || !renderer->panel) {
    crafter_renderer_free(renderer);
    return NULL;
  }
  return renderer;
}

static int compose_cells(render_assets *a);

static render_assets *make_assets(const crafter_textures *textures, const crafter_params *params,
                                  char *error, size_t error_size) {
  render_assets *a = calloc(1, sizeof(*a));
  if (!a) goto out_of_memory;
  a->params = *params;
  a->item_rows = (CRAFTER_ITEM_COUNT + params->view[0] - 1) / params->view[0];
  a->grid[0] = params->view[0];
  a->grid[1] = params->view[1] - a->item_rows;
  for (int axis = 0; axis < 2; axis++) {
    a->unit[axis] = params->size[axis] / params->view[axis];
    a->local[axis] = a->grid[axis] * a->unit[axis];
    a->border[axis] = (params->size[axis] - a->unit[axis] * params->view[axis]) / 2;
    /* The reference sizes these as int(0.8 * unit) and int(0.6 * unit). */
    a->item_size[axis] = (int)(0.8 * a->unit[axis]);
    a->digit_size[axis] = (int)(0.6 * a->unit[axis]);
  }
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    const crafter_image *image = &textures->images[i];
    if (!image->pixels) {
      snprintf(error, error_size, "texture %s is not loaded", crafter_texture_names[i]);
      free_assets(a);
      return NULL;
    }
    if (scale_image(image, a->unit[0], a->unit[1], &a->cell[i]) < 0 ||
        scale_image(image, a->item_size[0], a->item_size[1], &a->item[i]) < 0 ||
        scale_image(image, a->digit_size[0], a->digit_size[1], &a->digit[i]) < 0)
      goto out_of_memory;
  }
  size_t local_pixels = (size_t)a->local[0] * (size_t)a->local[1];
  pthread_once(&faded_once, fill_faded_table);
  a->vignette = malloc(sizeof(double) * (local_pixels ? local_pixels : 1));
  if (!a->vignette) goto out_of_memory;
  for (int x = 0; x < a->local[0]; x++) {
    double along_x = linspace(x, a->local[0]);
    for (int y = 0; y < a->local[1]; y++) {
      double along_y = linspace(y, a->local[1]);
      /* 1 - exp(-0.5 * (x**2 + y**2) / stddev**2) with stddev 0.5 */
      a->vignette[(size_t)x * (size_t)a->local[1] + (size_t)y] =
          1 - exp(-0.5 * (along_x * along_x + along_y * along_y) / 0.25);
    }
  }
  if (compose_cells(a) < 0) goto out_of_memory;
  return a;

out_of_memory:
  free_assets(a);
  snprintf(error, error_size, "out of memory");
  return NULL;
}

crafter_renderer *crafter_renderer_new(const crafter_textures *textures,
                                       const crafter_params *params, char *error,
                                       size_t error_size) {
  if (crafter_params_check(params, error, error_size) < 0) return NULL;
  render_assets *assets = make_assets(textures, params, error, error_size);
  if (!assets) return NULL;
  crafter_renderer *renderer = calloc(1, sizeof(*renderer));
  if (!renderer) {
    free_assets(assets);
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  renderer->a = renderer->owned = assets;
  if (!with_buffers(renderer)) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  return renderer;
}

crafter_renderer *crafter_renderer_share(const crafter_renderer *original, char *error,
                                         size_t error_size) {
  crafter_renderer *renderer = calloc(1, sizeof(*renderer));
  if (renderer) {
    renderer->a = original->a;
    renderer = with_buffers(renderer);
  }
  if (!renderer) snprintf(error, error_size, "out of memory");
  return renderer;
}

/* Where drawing goes: pixel (x, y) at base + x * x_stride + y * y_stride,
 * three bytes.  The local canvas is x-major like the reference's arrays;
 * the observation is row-major. */
typedef struct surface {
  uint8_t *base;
  ptrdiff_t x_stride, y_stride;
} surface;

/* Copies the colour channels of a texture, ignoring any alpha, as the
 * reference draws materials. */
static void draw_opaque(surface to_surface, int left, int top, const scaled *texture) {
  for (int x = 0; x < texture->width; x++) {
    const uint8_t *from = texture->pixels + (size_t)x * (size_t)texture->height * (size_t)texture->channels;
    uint8_t *to = to_surface.base + (left + x) * to_surface.x_stride + top * to_surface.y_stride;
    if (texture->channels == 3 && to_surface.y_stride == 3) {
      memcpy(to, from, (size_t)texture->height * 3);
      continue;
    }
    for (int y = 0; y < texture->height; y++) {
      memcpy(to, from, 3);
      from += texture->channels;
      to += to_surface.y_stride;
    }
  }
}

/* Alpha compositing in single precision, truncated, as the reference's
 * numpy float32 arithmetic does; opaque images are copied. */
static void draw_blended(surface to_surface, int left, int top, const scaled *texture) {
  if (texture->channels != 4) {
    draw_opaque(to_surface, left, top, texture);
    return;
  }
  for (int x = 0; x < texture->width; x++)
    for (int y = 0; y < texture->height; y++) {
      const uint8_t *from = texture->pixels + ((size_t)x * (size_t)texture->height + (size_t)y) * 4;
      uint8_t *to = to_surface.base + (left + x) * to_surface.x_stride + (top + y) * to_surface.y_stride;
      if (from[3] == 0) continue; /* alpha 0 leaves the pixel: (255 * (c / 255)) truncates to c */
      float alpha = over_255[from[3]];
      for (int c = 0; c < 3; c++) {
        float source = over_255[from[c]];
        float current = over_255[to[c]];
        float blended = alpha * source + (1.0f - alpha) * current;
        to[c] = (uint8_t)(255.0f * blended);
      }
    }
}

/* Fills a->composed: each material's cell drawn opaque, then each object
 * texture blended over it, as draw_local_view() draws them. */
static int compose_cells(render_assets *a) {
  a->cell_bytes = (size_t)a->unit[0] * (size_t)a->unit[1] * 3;
  size_t count = (size_t)CRAFTER_MATERIAL_COUNT * CELLS_PER_MATERIAL + 1;
  size_t bytes = count * a->cell_bytes;
  a->composed = malloc(bytes ? bytes : 1);
  if (!a->composed) return -1;
  for (int material = 0; material < CRAFTER_MATERIAL_COUNT; material++)
    for (int column = 0; column < CELLS_PER_MATERIAL; column++) {
      int texture = column ? column_texture(column) : -1;
      uint8_t *cell = (uint8_t *)composed_cell(a, material, texture);
      surface to = {cell, (ptrdiff_t)a->unit[1] * 3, 3};
      draw_opaque(to, 0, 0, &a->cell[material]); /* material ids are texture ids */
      if (texture >= 0) draw_blended(to, 0, 0, &a->cell[texture]);
    }
  memset((uint8_t *)outside_cell(a), 127, a->cell_bytes);
  return 0;
}

static surface canvas_surface(const crafter_renderer *renderer) {
  surface canvas = {renderer->canvas, (ptrdiff_t)renderer->a->local[1] * 3, 3};
  return canvas;
}

/* An object's texture in the view of player `viewer`: the viewer is drawn
 * as Crafter's player, the others with the teammate textures. */
static int object_texture(const crafter_env *env, int viewer, const crafter_object *object) {
  switch (object->kind) {
    case CRAFTER_PLAYER: {
      int p = crafter_game_player_of_slot(&env->game, (int)(object - env->game.world.objects));
      if (p < 0) p = viewer;
      const crafter_player *player = crafter_game_player_const(&env->game, p);
      int base = p == viewer ? CRAFTER_TEX_PLAYER_LEFT : CRAFTER_TEX_TEAMMATE_LEFT;
      if (player->sleeping) return base + 4;
      if (player->facing_x < 0) return base;
      if (player->facing_x > 0) return base + 1;
      return base + (player->facing_y < 0 ? 2 : 3);
    }
    case CRAFTER_COW: return CRAFTER_TEX_COW;
    case CRAFTER_ZOMBIE: return CRAFTER_TEX_ZOMBIE;
    case CRAFTER_SKELETON: return CRAFTER_TEX_SKELETON;
    case CRAFTER_ARROW:
      if (object->facing_x < 0) return CRAFTER_TEX_ARROW_LEFT;
      if (object->facing_x > 0) return CRAFTER_TEX_ARROW_RIGHT;
      return object->facing_y < 0 ? CRAFTER_TEX_ARROW_UP : CRAFTER_TEX_ARROW_DOWN;
    case CRAFTER_PLANT:
      return crafter_plant_ripe(&env->game, object) ? CRAFTER_TEX_PLANT_RIPE : CRAFTER_TEX_PLANT;
    default: return CRAFTER_TEX_UNKNOWN;
  }
}

/* Texture of each inventory slot: the item's own picture. */
static const int item_textures[] = {
    CRAFTER_TEX_HEALTH,        CRAFTER_TEX_FOOD,          CRAFTER_TEX_DRINK,
    CRAFTER_TEX_ENERGY,        CRAFTER_TEX_SAPLING,       CRAFTER_TEX_WOOD,
    CRAFTER_TEX_STONE,         CRAFTER_TEX_COAL,          CRAFTER_TEX_IRON,
    CRAFTER_TEX_DIAMOND,       CRAFTER_TEX_WOOD_PICKAXE,  CRAFTER_TEX_STONE_PICKAXE,
    CRAFTER_TEX_IRON_PICKAXE,  CRAFTER_TEX_WOOD_SWORD,    CRAFTER_TEX_STONE_SWORD,
    CRAFTER_TEX_IRON_SWORD,
};
_Static_assert(sizeof item_textures / sizeof item_textures[0] == CRAFTER_ITEM_COUNT,
               "an item without a texture");

static void draw_local_view(crafter_renderer *renderer, const crafter_env *env, int viewer) {
  const crafter_world *world = &env->game.world;
  int height = renderer->a->local[1];
  memset(renderer->canvas, 127, (size_t)renderer->a->local[0] * (size_t)height * 3);
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  int center_x = center->x, center_y = center->y;
  int offset_x = renderer->a->grid[0] / 2, offset_y = renderer->a->grid[1] / 2;
  for (int x = 0; x < renderer->a->grid[0]; x++)
    for (int y = 0; y < renderer->a->grid[1]; y++) {
      int world_x = center_x + x - offset_x, world_y = center_y + y - offset_y;
      if (!crafter_world_inside(world, world_x, world_y)) continue;
      int material = crafter_world_material(world, world_x, world_y);
      draw_opaque(canvas_surface(renderer), x * renderer->a->unit[0], y * renderer->a->unit[1],
                  &renderer->a->cell[material]); /* material ids are texture ids */
    }
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    int x = object->x - center_x + offset_x, y = object->y - center_y + offset_y;
    if (x < 0 || y < 0 || x >= renderer->a->grid[0] || y >= renderer->a->grid[1]) continue;
    draw_blended(canvas_surface(renderer), x * renderer->a->unit[0], y * renderer->a->unit[1],
                 &renderer->a->cell[object_texture(env, viewer, object)]);
  }
}

static inline uint8_t grey_of(const uint8_t *rgb) {
  return (uint8_t)((rgb[0] * 19595 + rgb[1] * 38470 + rgb[2] * 7471 + 0x8000) >> 16);
}

/* The light of one pixel: daylight mixes the colour with its night look
 * (the colour, or at night its noisy version `dark`, faded to 40% colour
 * and tinted blue), then sleep turns it grey and dark blue.  The
 * arithmetic is the reference's: numpy doubles, Pillow's single-precision
 * blends, truncation to bytes where the reference converts to uint8. */
static const double night_tint[3] = {0, 16, 64};

/* The last of the light: asleep, grey tinted dark blue; then bytes. */
static inline __attribute__((always_inline)) void finish_light(double *lit, int sleeping,
                                                               uint8_t *out) {
  static const double sleep_tint[3] = {0, 0, 16};
  if (sleeping) {
    /* Pillow's enhance(0.0) leaves the grey in every channel. */
    uint8_t truncated[3] = {(uint8_t)lit[0], (uint8_t)lit[1], (uint8_t)lit[2]};
    uint8_t grey = grey_of(truncated);
    for (int c = 0; c < 3; c++) lit[c] = (1 - 0.5) * grey + 0.5 * sleep_tint[c];
  }
  for (int c = 0; c < 3; c++) out[c] = (uint8_t)lit[c];
}

static inline __attribute__((always_inline)) void shade(const uint8_t *colour,
                                                        const uint8_t *dark, double daylight,
                                                        int sleeping, uint8_t *out) {
  const uint8_t *fade = faded_table[grey_of(dark)];
  const uint8_t faded[3] = {fade[dark[0]], fade[dark[1]], fade[dark[2]]};
  double lit[3];
  for (int c = 0; c < 3; c++) {
    double tinted = (1 - 0.5) * faded[c] + 0.5 * night_tint[c];
    lit[c] = daylight * colour[c] + (1 - daylight) * tinted;
  }
  finish_light(lit, sleeping, out);
}

/* Daylight, night noise, tint and sleep, pixel by pixel over the composed
 * canvas, written into the observation at the local view's place.  At
 * night the noise is drawn in the reference's order, x-major. */
static void light_local_view(crafter_renderer *renderer, crafter_env *env, int viewer,
                             uint8_t *pixels) {
  double daylight = env->game.daylight;
  int night = daylight < 0.5;
  double amount = 2 * (0.5 - daylight);
  int sleeping = crafter_game_player_const(&env->game, viewer)->sleeping;
  int height = renderer->a->local[1];
  int width = renderer->a->params.size[0];
  if (!night) {
    for (int x = 0; x < renderer->a->local[0]; x++)
      for (int y = 0; y < height; y++) {
        const uint8_t *colour = renderer->canvas + ((size_t)x * (size_t)height + (size_t)y) * 3;
        uint8_t *out = pixels + ((size_t)(renderer->a->border[1] + y) * (size_t)width +
                                 (size_t)(renderer->a->border[0] + x)) * 3;
        shade(colour, colour, daylight, sleeping, out);
      }
    return;
  }
  /* The noise of every pixel, drawn first: the same draws in the same
   * order (x-major) as one at a time. */
  crafter_rng_fill_uniform(&env->game.rng, 32, 127, renderer->noise,
                           (long)renderer->a->local[0] * height);
  /* shade()'s two products for every value they can take this frame,
   * worked out once: daylight * colour, and (1 - daylight) * tinted for a
   * faded value of each channel.  The sum of the two is shade()'s. */
  double by_day[256], by_night[3][256];
  for (int v = 0; v < 256; v++) {
    by_day[v] = daylight * v;
    for (int c = 0; c < 3; c++)
      by_night[c][v] = (1 - daylight) * ((1 - 0.5) * v + 0.5 * night_tint[c]);
  }
  for (int x = 0; x < renderer->a->local[0]; x++) {
    size_t column = (size_t)x * (size_t)height;
    const uint8_t *colours = renderer->canvas + column * 3;
    const double *noises = renderer->noise + column, *vignette = renderer->a->vignette + column;
    uint8_t *out = pixels + ((size_t)renderer->a->border[1] * (size_t)width +
                             (size_t)(renderer->a->border[0] + x)) * 3;
    for (int y = 0; y < height; y++, out += (size_t)width * 3) {
      const uint8_t *colour = colours + (size_t)y * 3;
      double mask = amount * vignette[y], noise = noises[y];
      uint8_t dark[3];
      for (int c = 0; c < 3; c++) dark[c] = (uint8_t)((1 - mask) * colour[c] + mask * noise);
      const uint8_t *fade = faded_table[grey_of(dark)];
      double lit[3];
      for (int c = 0; c < 3; c++) lit[c] = by_day[colour[c]] + by_night[c][fade[dark[c]]];
      finish_light(lit, sleeping, out);
    }
  }
}

/* The inventory panel, drawn straight into the (zeroed) observation below
 * the local view: the reference composes it on a black canvas of its own,
 * which comes to the same bytes. */
static void draw_inventory(crafter_renderer *renderer, const crafter_env *env, int viewer,
                           uint8_t *pixels) {
  int width = renderer->a->params.size[0];
  surface panel = {pixels + ((size_t)(renderer->a->border[1] + renderer->a->local[1]) * (size_t)width +
                             (size_t)renderer->a->border[0]) * 3,
                   3, (ptrdiff_t)width * 3};
  const int32_t *inventory = crafter_game_player_const(&env->game, viewer)->inventory;
  for (int index = 0; index < CRAFTER_ITEM_COUNT; index++) {
    int amount = inventory[index];
    if (amount < 1) continue;
    int column = index % renderer->a->grid[0], row = index / renderer->a->grid[0];
    const scaled *icon = &renderer->a->item[item_textures[index]];
    if (icon->pixels)
      draw_blended(panel, (int)(column * renderer->a->unit[0] + 0.1 * renderer->a->unit[0]),
                   (int)(row * renderer->a->unit[1] + 0.1 * renderer->a->unit[1]), icon);
    int digit = amount <= 9 ? CRAFTER_TEX_DIGIT_1 + amount - 1 : CRAFTER_TEX_UNKNOWN;
    const scaled *count = &renderer->a->digit[digit];
    if (count->pixels)
      draw_blended(panel, (int)(column * renderer->a->unit[0] + 0.4 * renderer->a->unit[0]),
                   (int)(row * renderer->a->unit[1] + 0.4 * renderer->a->unit[1]), count);
  }
}

/* Zeroes what the local view does not cover: the margins and the panel. */
static void clear_outside_local_view(const crafter_renderer *renderer, uint8_t *pixels) {
  int width = renderer->a->params.size[0], height = renderer->a->params.size[1];
  int left = renderer->a->border[0], top = renderer->a->border[1];
  int right = left + renderer->a->local[0], bottom = top + renderer->a->local[1];
  for (int row = 0; row < height; row++) {
    uint8_t *line = pixels + (size_t)row * (size_t)width * 3;
    if (row < top || row >= bottom) {
      memset(line, 0, (size_t)width * 3);
      continue;
    }
    memset(line, 0, (size_t)left * 3);
    memset(line + (size_t)right * 3, 0, (size_t)(width - right) * 3);
  }
}

void crafter_render_pixels_reference(crafter_renderer *renderer, crafter_env *env, int player,
                                     uint8_t *pixels) {
  clear_outside_local_view(renderer, pixels);
  draw_local_view(renderer, env, player);
  light_local_view(renderer, env, player, pixels);
  draw_inventory(renderer, env, player, pixels);
}

/* By day the light of a pixel depends on its colour alone, so a cell
 * showing only its material looks the same wherever it is: each material
 * in view is lit once, a cell with a creature on it is composed and lit on
 * its own, and the rest are copies. */
/* Lights a composed cell (x-major) into rows (y-major) ready to copy,
 * column by column through the vector kernel. */
static void light_cell(const uint8_t *colours, int width, int height, double daylight,
                       int sleeping, uint8_t *rows) {
  crafter_shade_fn shade_run = crafter_kernels_shade();
  for (int x = 0; x < width; x++)
    shade_run(colours + (size_t)x * (size_t)height * 3, height, daylight, sleeping, 0, NULL, NULL,
              rows + (size_t)x * 3, (ptrdiff_t)width * 3);
}

/* memcpy for the short rows of a cell, without a call for each. */
static inline void copy_row(uint8_t *to, const uint8_t *from, size_t bytes) {
  /* Two moves of 8 or of 16 bytes, the second ending at the row's end and
   * overlapping the first as needed. */
  if (bytes >= 16 && bytes <= 32) {
    uint8_t head[16], tail[16];
    memcpy(head, from, 16);
    memcpy(tail, from + bytes - 16, 16);
    memcpy(to, head, 16);
    memcpy(to + bytes - 16, tail, 16);
    return;
  }
  if (bytes >= 8 && bytes < 16) {
    uint64_t head, tail;
    memcpy(&head, from, 8);
    memcpy(&tail, from + bytes - 8, 8);
    memcpy(to, &head, 8);
    memcpy(to + bytes - 8, &tail, 8);
    return;
  }
  memcpy(to, from, bytes);
}

static void render_by_cells(crafter_renderer *renderer, crafter_env *env, int viewer,
                            uint8_t *pixels) {
  const crafter_world *world = &env->game.world;
  double daylight = env->game.daylight;
  int sleeping = crafter_game_player_const(&env->game, viewer)->sleeping;
  int unit_w = renderer->a->unit[0], unit_h = renderer->a->unit[1];
  int width = renderer->a->params.size[0];
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  int center_x = center->x, center_y = center->y;
  int offset_x = renderer->a->grid[0] / 2, offset_y = renderer->a->grid[1] / 2;
  size_t cell_bytes = (size_t)unit_w * (size_t)unit_h * 3;
  uint8_t *outside = renderer->lit_cells + (size_t)CRAFTER_MATERIAL_COUNT * cell_bytes;
  uint8_t *scratch = outside + cell_bytes;
  uint32_t lit_done = 0; /* bit m: material m lit this frame; bit 31: the outside */
  for (int gx = 0; gx < renderer->a->grid[0]; gx++)
    for (int gy = 0; gy < renderer->a->grid[1]; gy++) {
      int world_x = center_x + gx - offset_x, world_y = center_y + gy - offset_y;
      const uint8_t *source;
      if (!crafter_world_inside(world, world_x, world_y)) {
        if (!(lit_done & (1u << 31))) {
          light_cell(outside_cell(renderer->a), unit_w, unit_h, daylight, sleeping, outside);
          lit_done |= 1u << 31;
        }
        source = outside;
      } else {
        int material = crafter_world_material(world, world_x, world_y);
        int slot = crafter_world_object_slot(world, world_x, world_y);
        if (slot >= 0) {
          int texture = object_texture(env, viewer, &world->objects[slot]);
          light_cell(composed_cell(renderer->a, material, texture), unit_w, unit_h, daylight,
                     sleeping, scratch);
          source = scratch;
        } else {
          uint8_t *lit = renderer->lit_cells + (size_t)material * cell_bytes;
          if (!(lit_done & (1u << material))) {
            light_cell(composed_cell(renderer->a, material, -1), unit_w, unit_h, daylight,
                       sleeping, lit);
            lit_done |= 1u << material;
          }
          source = lit;
        }
      }
      uint8_t *row = pixels + ((size_t)(renderer->a->border[1] + gy * unit_h) * (size_t)width +
                               (size_t)(renderer->a->border[0] + gx * unit_w)) * 3;
      size_t row_bytes = (size_t)unit_w * 3;
      for (int y = 0; y < unit_h; y++, row += (size_t)width * 3, source += row_bytes)
        copy_row(row, source, row_bytes);
    }
}

/* draw_local_view() from the composed cells: each cell's columns copied
 * into the canvas, the outside grey. */
static void compose_local_view(crafter_renderer *renderer, const crafter_env *env, int viewer) {
  const render_assets *a = renderer->a;
  const crafter_world *world = &env->game.world;
  int unit_w = a->unit[0], unit_h = a->unit[1], height = a->local[1];
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  int center_x = center->x, center_y = center->y;
  int offset_x = a->grid[0] / 2, offset_y = a->grid[1] / 2;
  size_t column_bytes = (size_t)unit_h * 3;
  for (int gx = 0; gx < a->grid[0]; gx++)
    for (int gy = 0; gy < a->grid[1]; gy++) {
      int world_x = center_x + gx - offset_x, world_y = center_y + gy - offset_y;
      uint8_t *to = renderer->canvas + ((size_t)gx * (size_t)unit_w * (size_t)height +
                                        (size_t)gy * (size_t)unit_h) * 3;
      const uint8_t *cell = outside_cell(a);
      if (crafter_world_inside(world, world_x, world_y)) {
        int slot = crafter_world_object_slot(world, world_x, world_y);
        cell = composed_cell(a, crafter_world_material(world, world_x, world_y),
                             slot >= 0 ? object_texture(env, viewer, &world->objects[slot]) : -1);
      }
      for (int x = 0; x < unit_w; x++)
        memcpy(to + (size_t)x * (size_t)height * 3, cell + (size_t)x * column_bytes, column_bytes);
    }
}

/* At night every pixel has its own noise: the canvas is composed as the
 * plain path does, then lit a column at a time by the vector kernel. */
static void render_night(crafter_renderer *renderer, crafter_env *env, int viewer,
                         uint8_t *pixels) {
  compose_local_view(renderer, env, viewer);
  int height = renderer->a->local[1], width = renderer->a->params.size[0];
  crafter_rng_fill_uniform(&env->game.rng, 32, 127, renderer->noise,
                           (long)renderer->a->local[0] * height);
  double daylight = env->game.daylight, amount = 2 * (0.5 - daylight);
  int sleeping = crafter_game_player_const(&env->game, viewer)->sleeping;
  crafter_shade_fn shade_run = crafter_kernels_shade();
  for (int x = 0; x < renderer->a->local[0]; x++) {
    size_t column = (size_t)x * (size_t)height;
    uint8_t *out = pixels + ((size_t)renderer->a->border[1] * (size_t)width +
                             (size_t)(renderer->a->border[0] + x)) * 3;
    shade_run(renderer->canvas + column * 3, height, daylight, sleeping, amount,
                   renderer->a->vignette + column, renderer->noise + column, out,
                   (ptrdiff_t)width * 3);
  }
}

/* The inventory panel, copied when the inventory is the one last drawn. */
static void draw_inventory_kept(crafter_renderer *renderer, const crafter_env *env, int viewer,
                                uint8_t *pixels) {
  const render_assets *a = renderer->a;
  uint8_t *rows = pixels + (size_t)(a->border[1] + a->local[1]) * (size_t)a->params.size[0] * 3;
  const int32_t *inventory = crafter_game_player_const(&env->game, viewer)->inventory;
  if (renderer->panel_ready &&
      memcmp(renderer->panel_inventory, inventory, sizeof(renderer->panel_inventory)) == 0) {
    memcpy(rows, renderer->panel, panel_bytes(a));
    return;
  }
  draw_inventory(renderer, env, viewer, pixels);
  memcpy(renderer->panel, rows, panel_bytes(a));
  memcpy(renderer->panel_inventory, inventory, sizeof(renderer->panel_inventory));
  renderer->panel_ready = 1;
}

void crafter_render_pixels(crafter_renderer *renderer, crafter_env *env, int player,
                           uint8_t *pixels) {
  if (crafter_kernels_plain()) {
    crafter_render_pixels_reference(renderer, env, player, pixels);
    return;
  }
  clear_outside_local_view(renderer, pixels);
  if (env->game.daylight < 0.5)
    render_night(renderer, env, player, pixels);
  else
    render_by_cells(renderer, env, player, pixels);
  draw_inventory_kept(renderer, env, player, pixels);
}

/* Crafter's one player's view. */
static void observe(void *observer, crafter_env *env) {
  crafter_renderer *renderer = observer;
  crafter_render_pixels(renderer, env, 0, renderer->pixels);
}

void crafter_render_players(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels) {
  size_t bytes = (size_t)env->params.size[0] * (size_t)env->params.size[1] * 3;
  for (int p = 0; p < env->players; p++) {
    uint8_t *view = pixels + bytes * (size_t)p;
    if (crafter_game_body_slot(&env->game, p) < 0) {
      memset(view, 0, bytes); /* gone from the world: a black view */
      continue;
    }
    crafter_render_pixels(renderer, env, p, view);
  }
}

static void observe_players(void *observer, crafter_env *env) {
  crafter_renderer *renderer = observer;
  crafter_render_players(renderer, env, renderer->pixels);
}

void crafter_renderer_attach(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels) {
  renderer->pixels = pixels;
  crafter_env_set_observer(env, env->players > 1 ? observe_players : observe, renderer);
}

/* ---- symbolic ---- */

enum {
  BLOCK_INVALID = 0, BLOCK_OUT_OF_BOUNDS, BLOCK_GRASS, BLOCK_WATER, BLOCK_STONE, BLOCK_TREE,
  BLOCK_WOOD, BLOCK_PATH, BLOCK_COAL, BLOCK_IRON, BLOCK_DIAMOND, BLOCK_TABLE, BLOCK_FURNACE,
  BLOCK_SAND, BLOCK_LAVA, BLOCK_PLANT, BLOCK_RIPE_PLANT, BLOCK_COUNT
};

int crafter_symbolic_block(int material) {
  static const int blocks[] = {
      BLOCK_INVALID, BLOCK_WATER, BLOCK_GRASS, BLOCK_STONE, BLOCK_PATH,  BLOCK_SAND,   BLOCK_TREE,
      BLOCK_LAVA,    BLOCK_COAL,  BLOCK_IRON,  BLOCK_DIAMOND, BLOCK_TABLE, BLOCK_FURNACE,
  };
  _Static_assert(sizeof blocks / sizeof blocks[0] == CRAFTER_MATERIAL_COUNT,
                 "a material without a symbolic block");
  return material >= 0 && material < CRAFTER_MATERIAL_COUNT ? blocks[material] : BLOCK_INVALID;
}

/* The value nearest to `value` among IEEE binary16 numbers (ties to even),
 * as a float: Craftax-Classic keeps inventory and vitals as float16 and
 * divides them by 10 in float16.  Where halves are normal (from 2^-14)
 * the float's 23 bits of mantissa are rounded to the half's 10 in
 * integers, a carry going on into the exponent; below, halves are the
 * multiples of 2^-24, which adding and taking away 0.5 (whose floats
 * step by 2^-24) rounds to. */
float crafter_round_to_half(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint32_t sign = bits & 0x80000000U, magnitude = bits & 0x7FFFFFFFU;
  if (magnitude >= 0x477FF000U) /* 65520 and beyond round to infinity; NaN stays NaN */
    return magnitude > 0x7F800000U ? value : sign ? -INFINITY : INFINITY;
  if (magnitude < 0x38800000U) { /* below 2^-14 */
    float tiny;
    memcpy(&tiny, &magnitude, sizeof tiny);
    tiny = (tiny + 0.5f) - 0.5f;
    memcpy(&magnitude, &tiny, sizeof magnitude);
  } else {
    magnitude = (magnitude + 0x0FFFU + ((magnitude >> 13) & 1U)) & ~0x1FFFU;
  }
  bits = sign | magnitude;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/* count / 10 as Craftax-Classic computes it.  Its float16 division by the
 * constant 10 is compiled (XLA, jitted or not) into a product with the
 * half nearest 0.1, 0.0999755859375, rounded to half: 3 gives
 * 0.2998046875 where the quotient rounded would be 0.300048828125.  The
 * product of two halves is exact in a float, so one rounding follows. */
float crafter_tenth_in_half(int count) {
  /* The counts an inventory and vitals hold, worked out (test-observe
   * holds the table to the formula below). */
  static const float tenths[10] = {0.0f,          0.0999755859375f, 0.199951171875f,
                                   0.2998046875f, 0.39990234375f,   0.5f,
                                   0.599609375f,  0.69970703125f,   0.7998046875f,
                                   0.89990234375f};
  if (count >= 0 && count < 10) return tenths[count];
  return crafter_round_to_half(crafter_round_to_half((float)count) * crafter_round_to_half(0.1f));
}

#define SYMBOLIC_ROWS CRAFTER_SYMBOLIC_ROWS
#define SYMBOLIC_COLUMNS CRAFTER_SYMBOLIC_COLUMNS
#define SYMBOLIC_CHANNELS (BLOCK_COUNT + 4)
_Static_assert(BLOCK_COUNT == CRAFTER_SYMBOLIC_BLOCKS, "Craftax-Classic has 17 block types");
_Static_assert(CRAFTER_SYMBOLIC_SIZE == 1345, "Craftax-Classic's vector has 1345 values");

static void render_symbolic_one(const crafter_env *env, int viewer, float *out) {
  const crafter_world *world = &env->game.world;
  const crafter_player *player = crafter_game_player_const(&env->game, viewer);
  memset(out, 0, sizeof(float) * CRAFTER_SYMBOLIC_SIZE);
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  int center_x = center->x, center_y = center->y;
  for (int row = 0; row < SYMBOLIC_ROWS; row++)
    for (int column = 0; column < SYMBOLIC_COLUMNS; column++) {
      int x = center_x + column - SYMBOLIC_COLUMNS / 2, y = center_y + row - SYMBOLIC_ROWS / 2;
      float *cell = out + (row * SYMBOLIC_COLUMNS + column) * SYMBOLIC_CHANNELS;
      if (!crafter_world_inside(world, x, y)) {
        cell[BLOCK_OUT_OF_BOUNDS] = 1;
        continue;
      }
      int block = crafter_symbolic_block(crafter_world_material(world, x, y));
      int slot = crafter_world_object_slot(world, x, y);
      if (slot >= 0) {
        const crafter_object *object = &world->objects[slot];
        switch (object->kind) {
          case CRAFTER_ZOMBIE: cell[BLOCK_COUNT + 0] = 1; break;
          case CRAFTER_COW: cell[BLOCK_COUNT + 1] = 1; break;
          case CRAFTER_SKELETON: cell[BLOCK_COUNT + 2] = 1; break;
          case CRAFTER_ARROW: cell[BLOCK_COUNT + 3] = 1; break;
          case CRAFTER_PLANT:
            block = crafter_plant_ripe(&env->game, object) ? BLOCK_RIPE_PLANT : BLOCK_PLANT;
            break;
          default: break;
        }
      }
      cell[block] = 1;
    }
  float *rest = out + SYMBOLIC_ROWS * SYMBOLIC_COLUMNS * SYMBOLIC_CHANNELS;
  static const int inventory_order[] = {
      CRAFTER_WOOD,          CRAFTER_ITEM_STONE,    CRAFTER_ITEM_COAL,    CRAFTER_ITEM_IRON,
      CRAFTER_ITEM_DIAMOND,  CRAFTER_SAPLING,       CRAFTER_WOOD_PICKAXE, CRAFTER_STONE_PICKAXE,
      CRAFTER_IRON_PICKAXE,  CRAFTER_WOOD_SWORD,    CRAFTER_STONE_SWORD,  CRAFTER_IRON_SWORD,
  };
  for (size_t i = 0; i < sizeof inventory_order / sizeof inventory_order[0]; i++)
    *rest++ = crafter_tenth_in_half(player->inventory[inventory_order[i]]);
  for (int i = CRAFTER_HEALTH; i <= CRAFTER_ENERGY; i++)
    *rest++ = crafter_tenth_in_half(player->inventory[i]);
  int facing = player->facing_x < 0 ? 0 : player->facing_x > 0 ? 1 : player->facing_y < 0 ? 2 : 3;
  rest[facing] = 1;
  rest += 4;
  *rest++ = (float)env->game.daylight;
  *rest = player->sleeping ? 1.0f : 0.0f;
}

size_t crafter_symbolic_size(int players) {
  return CRAFTER_SYMBOLIC_SIZE + (players > 1 ? CRAFTER_SYMBOLIC_ROWS * CRAFTER_SYMBOLIC_COLUMNS : 0);
}

void crafter_render_symbolic(const crafter_env *env, int viewer, float *out) {
  render_symbolic_one(env, viewer, out);
  if (env->game.player_count <= 1) return;
  float *others = out + CRAFTER_SYMBOLIC_SIZE;
  memset(others, 0, sizeof(float) * SYMBOLIC_ROWS * SYMBOLIC_COLUMNS);
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  for (int p = 0; p < env->game.player_count; p++) {
    const crafter_object *body = crafter_game_body(&env->game, p);
    if (p == viewer || !body) continue;
    int column = body->x - center->x + SYMBOLIC_COLUMNS / 2;
    int row = body->y - center->y + SYMBOLIC_ROWS / 2;
    if (column >= 0 && column < SYMBOLIC_COLUMNS && row >= 0 && row < SYMBOLIC_ROWS)
      others[row * SYMBOLIC_COLUMNS + column] = 1;
  }
}

/* ---- text ---- */

typedef struct text_buffer {
  char *out;
  size_t size, used;
} text_buffer;

static void put(text_buffer *text, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void put(text_buffer *text, const char *format, ...) {
  char line[512];
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(line, sizeof(line), format, arguments);
  va_end(arguments);
  if (length < 0) return;
  if ((size_t)length >= sizeof(line)) length = (int)sizeof(line) - 1;
  if (text->used < text->size) {
    size_t room = text->size - text->used - 1;
    size_t copy = (size_t)length < room ? (size_t)length : room;
    memcpy(text->out + text->used, line, copy);
    text->out[text->used + copy] = '\0';
  }
  text->used += (size_t)length;
}

static const char material_letters[] = {
    '?', '~', '.', '#', '_', ':', 'T', '%', 'c', 'i', 'd', 't', 'f',
};
_Static_assert(sizeof material_letters / sizeof material_letters[0] == CRAFTER_MATERIAL_COUNT,
               "a material without a letter");
static const char object_letters[] = {'@', 'C', 'Z', 'S', '*', 'p'};
_Static_assert(sizeof object_letters / sizeof object_letters[0] == CRAFTER_OBJECT_KIND_COUNT,
               "an object kind without a letter");

static void describe_offset(text_buffer *text, int dx, int dy) {
  if (dx == 0 && dy == 0) {
    put(text, "here");
    return;
  }
  if (dx) put(text, "%d %s", abs(dx), dx < 0 ? "left" : "right");
  if (dx && dy) put(text, ", ");
  if (dy) put(text, "%d %s", abs(dy), dy < 0 ? "up" : "down");
}

size_t crafter_render_text(const crafter_env *env, int viewer, char *out, size_t size) {
  text_buffer text = {out, size, 0};
  if (size) out[0] = '\0';
  const crafter_world *world = &env->game.world;
  const crafter_player *player = crafter_game_player_const(&env->game, viewer);
  int width = env->params.view[0], height = env->params.view[1] - env->item_rows;
  const crafter_object *center = crafter_game_body(&env->game, viewer);
  int center_x = center->x, center_y = center->y;
  static const char *const directions[4] = {"left", "right", "up", "down"};
  int facing = player->facing_x < 0 ? 0 : player->facing_x > 0 ? 1 : player->facing_y < 0 ? 2 : 3;
  put(&text, "Step %ld. It is %s. You are %s, facing %s.\n", env->game.step,
      env->game.daylight < 0.5 ? "night" : "day", player->sleeping ? "asleep" : "awake",
      directions[facing]);
  put(&text, "Map (you are @; rows top to bottom, columns left to right):\n");
  int viewer_slot = crafter_game_body_slot(&env->game, viewer);
  int several = env->game.player_count > 1;
  int seen[CRAFTER_MATERIAL_COUNT] = {0};
  for (int row = 0; row < height; row++) {
    for (int column = 0; column < width; column++) {
      int x = center_x + column - width / 2, y = center_y + row - height / 2;
      char letter = ' ';
      if (crafter_world_inside(world, x, y)) {
        int material = crafter_world_material(world, x, y);
        int slot = crafter_world_object_slot(world, x, y);
        seen[material] = 1;
        letter = slot >= 0 ? object_letters[world->objects[slot].kind] : material_letters[material];
        if (slot >= 0 && slot != viewer_slot && world->objects[slot].kind == CRAFTER_PLAYER)
          letter = 'P';
      }
      put(&text, "%c", letter);
    }
    put(&text, "\n");
  }
  put(&text, "Legend: @ you,%s C cow, Z zombie, S skeleton, * arrow, p plant",
      several ? " P another player," : "");
  for (int material = 1; material < CRAFTER_MATERIAL_COUNT; material++)
    if (seen[material])
      put(&text, ", %c %s", material_letters[material], crafter_material_names[material]);
  put(&text, ", blank outside the world.\n");
  int target_x = center_x + player->facing_x, target_y = center_y + player->facing_y;
  int target_slot = crafter_world_object_slot(world, target_x, target_y);
  if (target_slot >= 0)
    put(&text, "Facing: %s.\n", crafter_object_kind_names[world->objects[target_slot].kind]);
  else if (crafter_world_inside(world, target_x, target_y))
    put(&text, "Facing: %s.\n",
        crafter_material_names[crafter_world_material(world, target_x, target_y)]);
  else
    put(&text, "Facing: the edge of the world.\n");
  for (int slot = 0; slot < world->object_count; slot++) {
    if (slot == viewer_slot) continue;
    const crafter_object *object = &world->objects[slot];
    int dx = object->x - center_x, dy = object->y - center_y;
    if (abs(dx) > width / 2 || abs(dy) > height / 2) continue;
    if (object->kind == CRAFTER_PLAYER)
      put(&text, "player %d: ", crafter_game_player_of_slot(&env->game, slot));
    else
      put(&text, "%s: ", crafter_object_kind_names[object->kind]);
    describe_offset(&text, dx, dy);
    put(&text, "\n");
  }
  put(&text, "Vitals: health: %d, food: %d, drink: %d, energy: %d\n",
      player->inventory[CRAFTER_HEALTH], player->inventory[CRAFTER_FOOD],
      player->inventory[CRAFTER_DRINK], player->inventory[CRAFTER_ENERGY]);
  put(&text, "Inventory:");
  int any = 0;
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    if (player->inventory[item] > 0) {
      put(&text, "%s %s: %d", any ? "," : "", crafter_item_names[item], player->inventory[item]);
      any = 1;
    }
  put(&text, "%s\n", any ? "" : " nothing");
  return text.used;
}
