#include "worldgen.h"

#include <math.h>
#include <stdlib.h>

#include "config.h"
#include "noise.h"

/* Crafter's _simplex(x, y, z, size): one octave, coordinates divided by
 * the size; a single weight of 1 leaves the value unchanged. */
static double octave(const crafter_noise *noise, double x, double y, double z, double size) {
  return crafter_noise3(noise, x / size, y / size, z);
}

static double uniform(crafter_game *game) { return crafter_rng_uniform(&game->rng); }

/* The numbers are the config's; with Crafter's (config.c) every
 * expression is the reference's, operation for operation. */
static int choose_material(crafter_game *game, const crafter_worldgen_config *config,
                           const crafter_noise *noise, int x, int y, int player_x, int player_y,
                           uint8_t *tunnel) {
  double dx = x - player_x, dy = y - player_y;
  double start = config->start_radius - sqrt(dx * dx + dy * dy);
  start += 2 * octave(noise, x, y, 8, 3);
  start = 1 / (1 + exp(-start));
  /* Near the spawn the answer is grass whatever the other fields say, and
   * no draw depends on them: skip their noise. */
  if (start > config->start_threshold) return CRAFTER_GRASS;
  double water = octave(noise, x, y, 3, 15) + 0.15 * octave(noise, x, y, 3, 5) + 0.1;
  water -= 2 * start;
  double mountain = (octave(noise, x, y, 0, 15) + 0.3 * octave(noise, x, y, 0, 5)) / (1 + 0.3);
  mountain -= 4 * start + 0.3 * water;

  if (mountain > config->mountain) {
    /* The reference tests the noise first; both tests are pure, so the
     * cheap one goes first. */
    if (mountain > config->cave_mountain &&
        octave(noise, x, y, 6, config->cave_size) > config->cave_noise)
      return CRAFTER_PATH; /* cave */
    if (octave(noise, 2 * x, y / 5.0, 7, 3) > config->tunnel_noise) { /* horizontal tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (octave(noise, x / 5.0, 2 * y, 7, 3) > config->tunnel_noise) { /* vertical tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (octave(noise, x, y, 1, config->coal_size) > config->coal_noise &&
        uniform(game) > config->coal_draw)
      return CRAFTER_COAL;
    if (octave(noise, x, y, 2, config->iron_size) > config->iron_noise &&
        uniform(game) > config->iron_draw)
      return CRAFTER_IRON;
    if (mountain > config->diamond_mountain && uniform(game) > config->diamond_draw)
      return CRAFTER_DIAMOND;
    if (mountain > config->lava_mountain &&
        octave(noise, x, y, 6, config->lava_size) > config->lava_noise)
      return CRAFTER_LAVA;
    return CRAFTER_STONE;
  }
  if (config->sand_water_min < water && water <= config->sand_water_max &&
      octave(noise, x, y, 4, config->sand_size) > config->sand_noise)
    return CRAFTER_SAND;
  if (config->water < water) return CRAFTER_WATER;
  if (octave(noise, x, y, 5, config->tree_size) > config->tree_noise &&
      uniform(game) > config->tree_draw)
    return CRAFTER_TREE;
  return CRAFTER_GRASS;
}

static void place_creature(crafter_game *game, const crafter_worldgen_config *config,
                           unsigned walkable, int x, int y, int player_x, int player_y,
                           int tunnel) {
  int material = crafter_world_material(&game->world, x, y);
  if (!(walkable & (1u << material))) return;
  double dx = x - player_x, dy = y - player_y;
  double distance = sqrt(dx * dx + dy * dy);
  if (distance > config->cow_distance && material == CRAFTER_GRASS &&
      uniform(game) > config->cow_draw)
    crafter_game_add_creature(game, CRAFTER_COW, x, y);
  else if (distance > config->zombie_distance && uniform(game) > config->zombie_draw)
    crafter_game_add_creature(game, CRAFTER_ZOMBIE, x, y);
  else if (material == CRAFTER_PATH && tunnel && uniform(game) > config->skeleton_draw)
    crafter_game_add_creature(game, CRAFTER_SKELETON, x, y);
}

int crafter_generate_world(crafter_game *game) {
  crafter_world *world = &game->world;
  const crafter_config *config = game->config ? game->config : &crafter_config_builtin;
  int width = world->width, height = world->height;
  int player_x = world->objects[0].x, player_y = world->objects[0].y;
  crafter_world_recount(world); /* all none, so that creatures can be placed */
  crafter_noise noise;
  crafter_noise_init(&noise, crafter_rng_randint(&game->rng, 0, 2147483647));
  uint8_t *tunnels = calloc((size_t)width * (size_t)height, 1);
  if (!tunnels) return -1;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      size_t cell = (size_t)x * (size_t)height + (size_t)y;
      world->materials[cell] =
          (uint8_t)choose_material(game, &config->worldgen, &noise, x, y, player_x, player_y,
                                   &tunnels[cell]);
    }
  crafter_world_recount(world);
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++)
      place_creature(game, &config->worldgen, config->walkable, x, y, player_x, player_y,
                     tunnels[(size_t)x * (size_t)height + (size_t)y]);
  free(tunnels);
  world->change_count = 0;
  return 0;
}
