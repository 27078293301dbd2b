#include "game/worldgen.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "game/config.h"
#include "kernels/fastgen.h"
#include "kernels/kernels.h"
#include "kernels/noise.h"
#include "kernels/terrain.h"

/* The terrain fields' numbers (terrain.h). */
#define T crafter_terrain_fields

/* Crafter's _simplex(x, y, z, size): one octave, coordinates divided by
 * the size; a single weight of 1 leaves the value unchanged. */
static double octave(const crafter_noise *noise, double x, double y, double z, double size) {
  return crafter_noise3(noise, x / size, y / size, z);
}

static inline double uniform(crafter_game *game) { return crafter_rng_uniform_inline(&game->rng); }

/* The noise tests that depend on one field each, exactly as the reference
 * makes them (the fast path refines its facts with them too). */
static int cave_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.cave_z, c->cave_size) > c->cave_noise;
}
static int tunnel_x_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x,
                       int y) {
  return octave(noise, T.tunnel_stretch * x, y / T.tunnel_squeeze, T.tunnel_z, T.tunnel_size) >
         c->tunnel_noise;
}
static int tunnel_y_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x,
                       int y) {
  return octave(noise, x / T.tunnel_squeeze, T.tunnel_stretch * y, T.tunnel_z, T.tunnel_size) >
         c->tunnel_noise;
}
static int coal_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.coal_z, c->coal_size) > c->coal_noise;
}
static int iron_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.iron_z, c->iron_size) > c->iron_noise;
}
static int lava_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.lava_z, c->lava_size) > c->lava_noise;
}
static int sand_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.sand_z, c->sand_size) > c->sand_noise;
}
static int tree_at(const crafter_noise *noise, const crafter_worldgen_config *c, int x, int y) {
  return octave(noise, x, y, T.tree_z, c->tree_size) > c->tree_noise;
}

/* The numbers are the config's; with Crafter's (config.c) every
 * expression is the reference's, operation for operation. */
static int choose_material(crafter_game *game, const crafter_worldgen_config *config,
                           const crafter_noise *noise, int x, int y, int player_x, int player_y,
                           uint8_t *tunnel) {
  double dx = x - player_x, dy = y - player_y;
  double start = config->start_radius - sqrt(dx * dx + dy * dy);
  start += T.start.weight * octave(noise, x, y, T.start.z, T.start.size);
  start = 1 / (1 + exp(-start));
  /* Near the spawn the answer is grass whatever the other fields say, and
   * no draw depends on them: skip their noise. */
  if (start > config->start_threshold) return CRAFTER_GRASS;
  double water = T.water[0].weight * octave(noise, x, y, T.water[0].z, T.water[0].size) +
                 T.water[1].weight * octave(noise, x, y, T.water[1].z, T.water[1].size) +
                 T.water_offset;
  water -= T.water_start * start;
  double mountain =
      (T.mountain[0].weight * octave(noise, x, y, T.mountain[0].z, T.mountain[0].size) +
       T.mountain[1].weight * octave(noise, x, y, T.mountain[1].z, T.mountain[1].size)) /
      T.mountain_divisor;
  mountain -= T.mountain_start * start + T.mountain_water * water;

  if (mountain > config->mountain) {
    /* The reference tests the noise first; both tests are pure, so the
     * cheap one goes first. */
    if (mountain > config->cave_mountain && cave_at(noise, config, x, y))
      return CRAFTER_PATH; /* cave */
    if (tunnel_x_at(noise, config, x, y)) { /* horizontal tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (tunnel_y_at(noise, config, x, y)) { /* vertical tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (coal_at(noise, config, x, y) && uniform(game) > config->coal_draw) return CRAFTER_COAL;
    if (iron_at(noise, config, x, y) && uniform(game) > config->iron_draw) return CRAFTER_IRON;
    if (mountain > config->diamond_mountain && uniform(game) > config->diamond_draw)
      return CRAFTER_DIAMOND;
    if (mountain > config->lava_mountain && lava_at(noise, config, x, y)) return CRAFTER_LAVA;
    return CRAFTER_STONE;
  }
  if (config->sand_water_min < water && water <= config->sand_water_max &&
      sand_at(noise, config, x, y))
    return CRAFTER_SAND;
  if (config->water < water) return CRAFTER_WATER;
  if (tree_at(noise, config, x, y) && uniform(game) > config->tree_draw) return CRAFTER_TREE;
  return CRAFTER_GRASS;
}

/* The game's uniform draws, worked out a run at a time ahead of use: the
 * same values in the same order as one uniform() after another.  Settle
 * before anything else draws from the generator. */
typedef struct draws {
  crafter_rng *rng;
  int ready, used;
  double *ahead; /* DRAWS_AHEAD values, apart from the struct: the struct
                  * never escapes, so its counters can stay in registers */
} draws;
#define DRAWS_AHEAD 128

static inline void settle(draws *d) {
  crafter_rng_advance_words(d->rng, 2 * d->used);
  d->ready = d->used = 0;
}

static inline double draw(draws *d) {
  if (d->used == d->ready) {
    settle(d);
    d->ready = crafter_rng_peek_uniform(d->rng, d->ahead, DRAWS_AHEAD);
    if (d->ready == 0) return crafter_rng_uniform(d->rng); /* a new block of words */
  }
  return d->ahead[d->used++];
}

/* The creature the reference puts on a cell, if any: only on walkable
 * cells, by the cell's Euclidean distance from the spawn and its draws.
 * Inlined: it runs for every cell, and a call each time shows. */
static inline __attribute__((always_inline)) void place_creature(
    crafter_game *game, draws *d, const crafter_worldgen_config *config, unsigned walkable, int x,
    int y, double distance, int tunnel) {
  int material = crafter_world_material(&game->world, x, y);
  if (!(walkable & (1u << material))) return;
  if (distance > config->cow_distance && material == CRAFTER_GRASS &&
      draw(d) > config->cow_draw)
    crafter_game_add_creature(game, CRAFTER_COW, x, y);
  else if (distance > config->zombie_distance && draw(d) > config->zombie_draw)
    crafter_game_add_creature(game, CRAFTER_ZOMBIE, x, y);
  else if (material == CRAFTER_PATH && tunnel && draw(d) > config->skeleton_draw)
    crafter_game_add_creature(game, CRAFTER_SKELETON, x, y);
}

/* The plain path once the world's noise is drawn. */
static int generate_plain(crafter_game *game, const crafter_noise *noise) {
  crafter_world *world = &game->world;
  const crafter_config *config = game->config ? game->config : &crafter_config_builtin;
  int width = world->width, height = world->height;
  const crafter_object *body = crafter_game_body(game, 0);
  int player_x = body->x, player_y = body->y;
  uint8_t *tunnels = calloc((size_t)width * (size_t)height, 1);
  if (!tunnels) return -1;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      size_t cell = (size_t)x * (size_t)height + (size_t)y;
      world->materials[cell] =
          (uint8_t)choose_material(game, &config->worldgen, noise, x, y, player_x, player_y,
                                   &tunnels[cell]);
    }
  crafter_world_recount(world);
  double ahead[DRAWS_AHEAD];
  draws d = {&game->rng, 0, 0, ahead};
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      double dx = x - player_x, dy = y - player_y;
      place_creature(game, &d, &config->worldgen, config->walkable, x, y,
                     sqrt(dx * dx + dy * dy), tunnels[(size_t)x * (size_t)height + (size_t)y]);
    }
  settle(&d);
  free(tunnels);
  world->change_count = 0;
  return 0;
}

int crafter_generate_world_plain(crafter_game *game) {
  crafter_noise noise;
  crafter_noise_init(&noise, crafter_rng_randint(&game->rng, 0, 2147483647));
  return generate_plain(game, &noise);
}

/* ---- The fast path ----
 *
 * The noise values themselves are never seen: only which side of a
 * threshold each falls on decides the materials, the draws and so the
 * whole episode.  So the fast path computes every field for the whole
 * area at once (crafter_noise_field_add), which is within a known bound of
 * the reference's values, and knows a comparison's answer whenever the
 * value is farther than that bound from the threshold (fastgen.c).  A cell
 * where a comparison it needs is too close to call is decided by the plain
 * path above, exactly.  Either way each cell's draws happen in cell order,
 * as the reference makes them. */

static inline int known(crafter_facts f, int p) { return f >> p & 1; }
static inline int is_true(crafter_facts f, int p) {
  return (f & (CRAFTER_KNOWN(p) | CRAFTER_TRUTH(p))) == (CRAFTER_KNOWN(p) | CRAFTER_TRUTH(p));
}
static inline int is_false(crafter_facts f, int p) {
  return (f & (CRAFTER_KNOWN(p) | CRAFTER_TRUTH(p))) == CRAFTER_KNOWN(p);
}

/* Rock whose ore and lava tests are known (CRAFTER_FASTGEN_ROCK_ bits of
 * those that came out true): coal, iron and diamonds each by a draw, in
 * the reference's order, then lava or stone.  For decide() and for the
 * cells settle() marks. */
static inline uint8_t rock(draws *d, const crafter_worldgen_config *config, unsigned tests) {
  if ((tests & CRAFTER_FASTGEN_ROCK_COAL) && draw(d) > config->coal_draw) return CRAFTER_COAL;
  if ((tests & CRAFTER_FASTGEN_ROCK_IRON) && draw(d) > config->iron_draw) return CRAFTER_IRON;
  if ((tests & CRAFTER_FASTGEN_ROCK_DIAMOND) && draw(d) > config->diamond_draw)
    return CRAFTER_DIAMOND;
  return tests & CRAFTER_FASTGEN_ROCK_LAVA ? CRAFTER_LAVA : CRAFTER_STONE;
}

/* The material of a cell whose every needed comparison is known, drawing
 * as the plain path draws; -1, before any draw, if one is not known, with
 * the first such comparison in *missing.  Inlined, so that the draws'
 * counters stay in registers. */
static inline __attribute__((always_inline)) int decide(draws *drawn,
                                                       const crafter_worldgen_config *config,
                                                       crafter_facts f, uint8_t *tunnel,
                                                       int *missing) {
  enum {
    SPAWN = CRAFTER_FACT_SPAWN, MOUNTAIN = CRAFTER_FACT_MOUNTAIN,
    CAVE_DEPTH = CRAFTER_FACT_CAVE_DEPTH, CAVE = CRAFTER_FACT_CAVE,
    TUNNEL_X = CRAFTER_FACT_TUNNEL_X, TUNNEL_Y = CRAFTER_FACT_TUNNEL_Y,
    COAL = CRAFTER_FACT_COAL, IRON = CRAFTER_FACT_IRON,
    DIAMOND_DEPTH = CRAFTER_FACT_DIAMOND_DEPTH, LAVA_DEPTH = CRAFTER_FACT_LAVA_DEPTH,
    LAVA = CRAFTER_FACT_LAVA, SAND_ABOVE = CRAFTER_FACT_SAND_ABOVE,
    SAND_BELOW = CRAFTER_FACT_SAND_BELOW, SAND = CRAFTER_FACT_SAND,
    WATER = CRAFTER_FACT_WATER, TREE = CRAFTER_FACT_TREE,
  };
#define UNKNOWN(p) \
  do {               \
    *missing = (p);  \
    return -1;       \
  } while (0)
  if (!known(f, SPAWN)) UNKNOWN(SPAWN);
  if (is_true(f, SPAWN)) return CRAFTER_GRASS;
  if (!known(f, MOUNTAIN)) UNKNOWN(MOUNTAIN);
  if (is_true(f, MOUNTAIN)) {
    if (!known(f, CAVE_DEPTH)) UNKNOWN(CAVE_DEPTH);
    if (is_true(f, CAVE_DEPTH) && !known(f, CAVE)) UNKNOWN(CAVE);
    if (is_true(f, CAVE_DEPTH) && is_true(f, CAVE)) return CRAFTER_PATH;
    if (!known(f, TUNNEL_X)) UNKNOWN(TUNNEL_X);
    if (is_true(f, TUNNEL_X)) {
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (!known(f, TUNNEL_Y)) UNKNOWN(TUNNEL_Y);
    if (is_true(f, TUNNEL_Y)) {
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    /* From here a draw may decide, so everything after it must be known first. */
    if (!known(f, DIAMOND_DEPTH)) UNKNOWN(DIAMOND_DEPTH);
    if (!known(f, LAVA_DEPTH)) UNKNOWN(LAVA_DEPTH);
    if (!known(f, COAL)) UNKNOWN(COAL);
    if (!known(f, IRON)) UNKNOWN(IRON);
    if (is_true(f, LAVA_DEPTH) && !known(f, LAVA)) UNKNOWN(LAVA);
    return rock(drawn, config,
                (is_true(f, COAL) ? CRAFTER_FASTGEN_ROCK_COAL : 0u) |
                    (is_true(f, IRON) ? CRAFTER_FASTGEN_ROCK_IRON : 0u) |
                    (is_true(f, DIAMOND_DEPTH) ? CRAFTER_FASTGEN_ROCK_DIAMOND : 0u) |
                    (is_true(f, LAVA_DEPTH) && is_true(f, LAVA) ? CRAFTER_FASTGEN_ROCK_LAVA : 0u));
  }
  if (!known(f, SAND_ABOVE)) UNKNOWN(SAND_ABOVE);
  if (is_true(f, SAND_ABOVE) && !known(f, SAND_BELOW)) UNKNOWN(SAND_BELOW);
  if (is_true(f, SAND_ABOVE) && is_false(f, SAND_BELOW)) {
    if (!known(f, SAND)) UNKNOWN(SAND);
    if (is_true(f, SAND)) return CRAFTER_SAND;
  }
  if (!known(f, WATER)) UNKNOWN(WATER);
  if (is_true(f, WATER)) return CRAFTER_WATER;
  if (!known(f, TREE)) UNKNOWN(TREE);
  if (is_true(f, TREE) && draw(drawn) > config->tree_draw) return CRAFTER_TREE;
  return CRAFTER_GRASS;
#undef UNKNOWN
}

/* The working memory: each thread keeps its own from one world to the
 * next, since fresh pages on every call would cost more than generating
 * the world.  It holds the tunnel flags too. */
typedef struct scratch {
  crafter_fastgen gen;
  uint8_t *tunnels; /* width x stride */
  uint8_t *settled; /* width x stride: what the facts fix (fastgen.h) */
} scratch;

static void scratch_free(scratch *s) {
  if (!s) return;
  crafter_fastgen_forget(&s->gen);
  free(s->gen.start);
  free(s->gen.facts);
  free(s->gen.wanted);
  free(s->gen.slots);
  free(s->tunnels);
  free(s->settled);
  free(s);
}

static scratch *scratch_new(int width, int height) {
  scratch *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  crafter_fastgen *g = &s->gen;
  g->width = width;
  g->height = height;
  g->stride = (height + 7) & ~7;
  g->blocks = g->stride / 8;
  size_t plane = (size_t)width * (size_t)g->stride;
  if (posix_memalign((void **)&g->start, 64, 7 * plane * sizeof(double)) != 0) g->start = NULL;
  if (posix_memalign((void **)&g->facts, 64, plane * sizeof(crafter_facts)) != 0)
    g->facts = NULL;
  g->wanted = malloc((size_t)width * (size_t)g->blocks);
  g->slots = malloc((size_t)width * (size_t)g->blocks * sizeof *g->slots);
  s->tunnels = malloc(plane);
  s->settled = malloc(plane);
  if (!g->start || !g->facts || !g->wanted || !g->slots || !s->tunnels || !s->settled) {
    scratch_free(s);
    return NULL;
  }
  g->water = g->start + plane;
  g->mountain = g->water + plane;
  g->field = g->mountain + plane;
  g->distance = g->field + plane;
  g->start_low = g->distance + plane;
  g->start_high = g->start_low + plane;
  g->distance_x = g->distance_y = -1;
  memset(g->field, 0, plane * sizeof(double));
  return s;
}

static pthread_key_t scratch_key;
static int scratch_key_made;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_destroy(void *s) { scratch_free(s); }
static void scratch_make_key(void) {
  scratch_key_made = pthread_key_create(&scratch_key, scratch_destroy) == 0;
}

/* This thread's scratch for the area, with the noise sums cleared; NULL
 * if memory ran out.  Give it back with scratch_release. */
static scratch *scratch_take(int width, int height) {
  pthread_once(&scratch_once, scratch_make_key);
  scratch *s = scratch_key_made ? pthread_getspecific(scratch_key) : NULL;
  if (s && (s->gen.width != width || s->gen.height != height)) {
    pthread_setspecific(scratch_key, NULL);
    scratch_free(s);
    s = NULL;
  }
  if (!s) {
    s = scratch_new(width, height);
    if (!s) return NULL;
    if (scratch_key_made && pthread_setspecific(scratch_key, s) != 0) {
      scratch_free(s);
      return NULL;
    }
  }
  memset(s->gen.start, 0, 3 * (size_t)width * (size_t)s->gen.stride * sizeof(double));
  return s;
}

/* Frees the scratch unless the thread keeps it. */
static void scratch_release(scratch *s) {
  if (!scratch_key_made) scratch_free(s);
}

/* Which of eight settled cells are left to draws or decide() (a byte of
 * 0xe0 or more): the top bit of each such byte, exactly. */
static inline uint64_t visits_in_eight(const uint8_t *settled) {
  const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;
  uint64_t word;
  memcpy(&word, settled, sizeof word);
  uint64_t rest = ~(word | 0x1f1f1f1f1f1f1f1fu); /* zero bytes where 0xe0 or more */
  return ~(((rest & low7) + low7) | rest | low7);
}

int crafter_generate_world(crafter_game *game) {
  /* The exact test of each comparison on one field alone. */
  typedef int exact_test(const crafter_noise *, const crafter_worldgen_config *, int, int);
  static exact_test *const exact_tests[16] = {
      [CRAFTER_FACT_CAVE] = cave_at, [CRAFTER_FACT_TUNNEL_X] = tunnel_x_at,
      [CRAFTER_FACT_TUNNEL_Y] = tunnel_y_at, [CRAFTER_FACT_COAL] = coal_at,
      [CRAFTER_FACT_IRON] = iron_at, [CRAFTER_FACT_LAVA] = lava_at,
      [CRAFTER_FACT_SAND] = sand_at, [CRAFTER_FACT_TREE] = tree_at,
  };
  if (crafter_kernels_plain()) return crafter_generate_world_plain(game);
  crafter_world *world = &game->world;
  const crafter_config *config = game->config ? game->config : &crafter_config_builtin;
  const crafter_worldgen_config *wg = &config->worldgen;
  int width = world->width, height = world->height;
  const crafter_object *body = crafter_game_body(game, 0);
  int player_x = body->x, player_y = body->y;
  scratch *s = scratch_take(width, height);
  if (!s) return -1;
  crafter_noise noise;
  crafter_noise_init(&noise, crafter_rng_randint(&game->rng, 0, 2147483647));
  if (crafter_kernels_fastgen()->facts(&s->gen, &noise, wg, player_x, player_y) < 0) {
    /* Too fine a field for the fast path: the plain one, on the same noise. */
    scratch_release(s);
    return generate_plain(game, &noise);
  }
  int stride = s->gen.stride;
  double ahead[DRAWS_AHEAD];
  draws d = {&game->rng, 0, 0, ahead};
  /* Most cells' facts fix their material with no draw: those are copied a
   * row at a time, and only the rest visited, in order. */
  crafter_kernels_fastgen()->settle(s->gen.facts, (size_t)width * (size_t)stride, s->settled,
                                        s->tunnels);
  for (int x = 0; x < width; x++) {
    const uint8_t *settled = s->settled + (size_t)x * (size_t)stride;
    uint8_t *row = world->materials + (size_t)x * (size_t)height;
    memcpy(row, settled, (size_t)height);
    for (int y0 = 0; y0 < height; y0 += 8)
      for (uint64_t visits = visits_in_eight(settled + y0); visits; visits &= visits - 1) {
        int y = y0 + __builtin_ctzll(visits) / 8;
        if (y >= height) break;
        if (settled[y] == CRAFTER_FASTGEN_TREE_DRAW) {
          row[y] = draw(&d) > wg->tree_draw ? CRAFTER_TREE : CRAFTER_GRASS;
          continue;
        }
        if (settled[y] < CRAFTER_FASTGEN_ROCK + 16) {
          row[y] = rock(&d, wg, settled[y] - CRAFTER_FASTGEN_ROCK);
          continue;
        }
        size_t at = (size_t)x * (size_t)stride + (size_t)y;
        crafter_facts facts = s->gen.facts[at];
        int missing, material;
        /* A comparison on one field too close to call is made exactly, on its
         * own; one on start, water or mountain takes the plain path. */
        while ((material = decide(&d, wg, facts, &s->tunnels[at], &missing)) < 0) {
          exact_test *exact = exact_tests[missing];
          if (!exact) {
            settle(&d);
            material =
                choose_material(game, wg, &noise, x, y, player_x, player_y, &s->tunnels[at]);
            break;
          }
          facts |= CRAFTER_KNOWN(missing);
          if (exact(&noise, wg, x, y)) facts |= CRAFTER_TRUTH(missing);
        }
        row[y] = (uint8_t)material;
      }
  }
  crafter_world_recount(world);
  /* The distances are worked out already: the same square roots of the
   * same whole numbers. */
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      size_t at = (size_t)x * (size_t)stride + (size_t)y;
      place_creature(game, &d, wg, config->walkable, x, y, s->gen.distance[at], s->tunnels[at]);
    }
  settle(&d);
  scratch_release(s);
  world->change_count = 0;
  return 0;
}
