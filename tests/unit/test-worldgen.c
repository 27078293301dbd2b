/* The fast world generator against the plain one: for many seeds, areas,
 * configurations and every copy of the kernels this processor runs, both
 * must leave the same materials, the same creatures in the same order and
 * the generator in the same state.  The plain one is the reference's
 * algorithm operation for operation (the golden traces hold it to that). */
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "fastgen.h"
#include "tap.h"
#include "worldgen.h"

/* A fresh game for a world seed, generated one way or the other. */
static int generate(crafter_env *env, uint32_t seed, int plain) {
  crafter_game *game = &env->game;
  crafter_world_clear(&game->world);
  crafter_rng_seed(&game->rng, seed);
  game->step = 0;
  if (crafter_game_place_player(game, game->world.width / 2, game->world.height / 2) < 0)
    return -1;
  return plain ? crafter_generate_world_plain(game) : crafter_generate_world(game);
}

/* Where two games first differ, or NULL. */
static const char *difference(const crafter_game *a, const crafter_game *b) {
  const crafter_world *wa = &a->world, *wb = &b->world;
  size_t cells = (size_t)wa->width * (size_t)wa->height;
  if (memcmp(wa->materials, wb->materials, cells) != 0) return "materials";
  if (wa->object_count != wb->object_count) return "number of objects";
  for (int i = 0; i < wa->object_count; i++) {
    const crafter_object *p = &wa->objects[i], *q = &wb->objects[i];
    if (p->kind != q->kind || p->x != q->x || p->y != q->y || p->health != q->health ||
        p->counter != q->counter || p->removed != q->removed)
      return "objects";
  }
  if (memcmp(wa->object_at, wb->object_at, cells * sizeof *wa->object_at) != 0)
    return "object grid";
  size_t chunks = (size_t)wa->chunks_x * (size_t)wa->chunks_y;
  if (memcmp(wa->chunk_materials, wb->chunk_materials,
             chunks * CRAFTER_MATERIAL_COUNT * sizeof *wa->chunk_materials) != 0)
    return "chunk counts";
  if (a->rng.position != b->rng.position ||
      memcmp(a->rng.state, b->rng.state, sizeof a->rng.state) != 0)
    return "generator state";
  return NULL;
}

/* Generates `count` worlds both ways; returns how many differ and names
 * the first difference in `first`. */
static int compare_worlds(int width, int height, const crafter_config *config, uint32_t seed0,
                          int count, const char **first, uint32_t *first_seed) {
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = width;
  params.area[1] = height;
  char error[256];
  crafter_env fast, plain;
  if (crafter_env_init_config(&fast, &params, config, error, sizeof error) < 0) return -1;
  if (crafter_env_init_config(&plain, &params, config, error, sizeof error) < 0) return -1;
  int differ = 0;
  *first = NULL;
  for (int i = 0; i < count; i++) {
    uint32_t seed = seed0 + (uint32_t)i * 2654435761u;
    if (generate(&fast, seed, 0) < 0 || generate(&plain, seed, 1) < 0) {
      differ++;
      if (!*first) *first = "generation failed", *first_seed = seed;
      continue;
    }
    const char *where = difference(&fast.game, &plain.game);
    if (where) {
      differ++;
      if (!*first) *first = where, *first_seed = seed;
    }
  }
  crafter_env_free(&fast);
  crafter_env_free(&plain);
  return differ;
}

static void check(const char *what, int width, int height, const crafter_config *config,
                  uint32_t seed0, int count) {
  const char *first;
  uint32_t seed = 0;
  int differ = compare_worlds(width, height, config, seed0, count, &first, &seed);
  ok(differ == 0, "%s: %d worlds of %dx%d alike (level %d)%s%s", what, count, width, height,
     crafter_kernels_level(), differ ? ", first difference: " : "", differ ? first : "");
  if (differ > 0) printf("#   %d differ; the first at world seed %u\n", differ, seed);
}

int main(void) {
  const int levels[] = {4, 3, 0};
  int best = crafter_kernels_set_level(-1);
  crafter_config config;
  for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
    if (levels[l] > best) {
      skip("kernels of level %d: this processor or build does not run them", levels[l]);
      continue;
    }
    ok(crafter_kernels_set_level(levels[l]) == levels[l], "kernels of level %d chosen",
       levels[l]);
    check("Crafter's configuration", 64, 64, NULL, 1, 120);
    check("odd area", 48, 80, NULL, 7, 20);
    check("odd area", 100, 37, NULL, 9, 10);
    check("small area", 9, 13, NULL, 11, 40);
    check("large area", 150, 200, NULL, 17, 3); /* more than 64 rows and 16 blocks */
    check("one cell", 1, 1, NULL, 13, 5);

    /* Other sizes and thresholds, changed together so that every branch
     * of the terrain sees other numbers. */
    crafter_config_default(&config);
    crafter_worldgen_config *w = &config.worldgen;
    w->cave_size = 4;
    w->coal_size = 3.5;
    w->iron_size = 11;
    w->lava_size = 2.5;
    w->sand_size = 20;
    w->tree_size = 1.5;
    w->mountain = 0.05;
    w->cave_mountain = 0.2;
    w->tunnel_noise = 0.3;
    w->coal_noise = -0.1;
    w->iron_noise = 0.2;
    w->lava_noise = 0.2;
    w->sand_water_min = 0.1;
    w->tree_noise = 0.1;
    w->water = 0.2;
    check("another configuration", 64, 64, &config, 21, 30);

    /* A start threshold so low that the start field is needed everywhere,
     * and fields finer than a cell. */
    crafter_config_default(&config);
    config.worldgen.start_threshold = 1e-9;
    config.worldgen.start_radius = -30;
    config.worldgen.tree_size = 0.3;
    check("fine fields and a low start threshold", 40, 40, &config, 31, 10);

    /* Fields so fine that the fast path hands over to the plain one. */
    crafter_config_default(&config);
    config.worldgen.coal_size = 0.01;
    check("fields too fine for the fast path", 32, 32, &config, 41, 3);
  }
  crafter_kernels_set_level(-1);
  return tap_done();
}
