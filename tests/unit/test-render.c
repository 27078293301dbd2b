/* The fast pixel path gives the bytes of the plain path, by day, by night
 * and asleep, for several views and sizes; and renders consume the
 * generator as the reference does.  Textures are made up here: random
 * opaque and transparent images, so no file is needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "tap.h"
#include "view/render.h"

typedef struct dual {
  crafter_renderer *renderer;
  uint8_t *fast, *plain;
  size_t bytes;
  long frames, differences, draws_differ, nights, sleeps;
} dual;

static void observe_both(void *observer, crafter_env *env) {
  dual *d = observer;
  crafter_rng before = env->game.rng;
  crafter_render_pixels_reference(d->renderer, env, 0, d->plain);
  crafter_rng after_plain = env->game.rng;
  env->game.rng = before;
  crafter_render_pixels(d->renderer, env, 0, d->fast);
  d->frames++;
  d->nights += env->game.daylight < 0.5;
  d->sleeps += env->game.players[0].sleeping;
  if (memcmp(d->fast, d->plain, d->bytes) != 0) d->differences++;
  if (memcmp(&after_plain, &env->game.rng, sizeof(crafter_rng)) != 0) d->draws_differ++;
}

static void make_textures(crafter_textures *textures, unsigned seed) {
  memset(textures, 0, sizeof(*textures));
  srand(seed);
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    crafter_image *image = &textures->images[i];
    image->width = 8 + rand() % 12;
    image->height = 8 + rand() % 12;
    image->channels = i % 3 == 0 ? 3 : 4;
    size_t bytes = (size_t)image->width * (size_t)image->height * (size_t)image->channels;
    image->pixels = malloc(bytes);
    for (size_t b = 0; b < bytes; b++) image->pixels[b] = (uint8_t)rand();
    if (image->channels == 4)
      for (size_t p = 3; p < bytes; p += 4) {
        int kind = rand() % 3; /* transparent, opaque or in between */
        image->pixels[p] = kind == 0 ? 0 : kind == 1 ? 255 : (uint8_t)rand();
      }
  }
}

static void check(const char *name, int area, int view_w, int view_h, int size_w, int size_h) {
  crafter_textures textures;
  make_textures(&textures, (unsigned)(view_w * 31 + size_h));
  crafter_params params;
  crafter_params_default(&params);
  params.seed = view_w + size_w;
  params.area[0] = params.area[1] = area;
  params.view[0] = view_w;
  params.view[1] = view_h;
  params.size[0] = size_w;
  params.size[1] = size_h;
  char error[200];
  crafter_env env;
  dual d = {0};
  d.renderer = crafter_renderer_new(&textures, &params, error, sizeof(error));
  d.bytes = (size_t)size_w * (size_t)size_h * 3;
  d.fast = malloc(d.bytes);
  d.plain = malloc(d.bytes);
  crafter_env_init(&env, &params, error, sizeof(error));
  crafter_env_set_observer(&env, observe_both, &d);
  crafter_env_reset(&env);
  srand(7);
  for (int t = 0; t < 700; t++) {
    crafter_step_result result;
    /* sleep often, so that some frames are asleep */
    int action = rand() % 4 == 0 ? CRAFTER_SLEEP : rand() % CRAFTER_ACTION_COUNT;
    crafter_env_step(&env, action, &result);
    if (result.done) crafter_env_reset(&env);
  }
  ok(d.differences == 0 && d.draws_differ == 0 && d.nights > 0 && d.sleeps > 0,
     "%s: %ld frames (%ld at night, %ld asleep), %ld differ, %ld draw differently", name,
     d.frames, d.nights, d.sleeps, d.differences, d.draws_differ);
  crafter_env_fini(&env);
  crafter_renderer_free(d.renderer);
  free(d.fast);
  free(d.plain);
  crafter_textures_fini(&textures);
}

int main(void) {
  /* Every copy of the shading kernel this processor can run (shade.h). */
  static const int levels[] = {0, 3, 4};
  for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
    if (crafter_kernels_set_level(levels[i]) != levels[i]) {
      for (int k = 0; k < 4; k++)
        skip("kernels of level %d: this processor or build does not run them", levels[i]);
      continue;
    }
    char name[4][80];
    snprintf(name[0], sizeof(name[0]), "level %d, default 9x9 view at 64x64", levels[i]);
    snprintf(name[1], sizeof(name[1]), "level %d, 7x7 view at 84x84", levels[i]);
    snprintf(name[2], sizeof(name[2]), "level %d, 11x9 view at 64x96", levels[i]);
    snprintf(name[3], sizeof(name[3]), "level %d, 9x12 view at 200x150", levels[i]);
    check(name[0], 64, 9, 9, 64, 64);
    check(name[1], 48, 7, 7, 84, 84);
    check(name[2], 96, 11, 9, 64, 96);
    check(name[3], 20, 9, 12, 200, 150);
  }
  crafter_kernels_set_level(-1);
  return tap_done();
}
