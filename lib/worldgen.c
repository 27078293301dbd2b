#include "worldgen.h"

#include <math.h>
#include <stdlib.h>

#include "noise.h"

/* Crafter's _simplex(x, y, z, size): one octave, coordinates divided by
 * the size; a single weight of 1 leaves the value unchanged. */
static double octave(const crafter_noise *noise, double x, double y, double z, double size) {
  return crafter_noise3(noise, x / size, y / size, z);
}

static double uniform(crafter_game *game) { return crafter_rng_uniform(&game->rng); }

static int choose_material(crafter_game *game, const crafter_noise *noise, int x, int y,
                           int player_x, int player_y, uint8_t *tunnel) {
  double dx = x - player_x, dy = y - player_y;
  double start = 4 - sqrt(dx * dx + dy * dy);
  start += 2 * octave(noise, x, y, 8, 3);
  start = 1 / (1 + exp(-start));
  /* Near the spawn the answer is grass whatever the other fields say, and
   * no draw depends on them: skip their noise. */
  if (start > 0.5) return CRAFTER_GRASS;
  double water = octave(noise, x, y, 3, 15) + 0.15 * octave(noise, x, y, 3, 5) + 0.1;
  water -= 2 * start;
  double mountain = (octave(noise, x, y, 0, 15) + 0.3 * octave(noise, x, y, 0, 5)) / (1 + 0.3);
  mountain -= 4 * start + 0.3 * water;

  if (mountain > 0.15) {
    if (octave(noise, x, y, 6, 7) > 0.15 && mountain > 0.3) return CRAFTER_PATH; /* cave */
    if (octave(noise, 2 * x, y / 5.0, 7, 3) > 0.4) { /* horizontal tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (octave(noise, x / 5.0, 2 * y, 7, 3) > 0.4) { /* vertical tunnel */
      *tunnel = 1;
      return CRAFTER_PATH;
    }
    if (octave(noise, x, y, 1, 8) > 0 && uniform(game) > 0.85) return CRAFTER_COAL;
    if (octave(noise, x, y, 2, 6) > 0.4 && uniform(game) > 0.75) return CRAFTER_IRON;
    if (mountain > 0.18 && uniform(game) > 0.994) return CRAFTER_DIAMOND;
    if (mountain > 0.3 && octave(noise, x, y, 6, 5) > 0.35) return CRAFTER_LAVA;
    return CRAFTER_STONE;
  }
  if (0.25 < water && water <= 0.35 && octave(noise, x, y, 4, 9) > -0.2) return CRAFTER_SAND;
  if (0.3 < water) return CRAFTER_WATER;
  if (octave(noise, x, y, 5, 7) > 0 && uniform(game) > 0.8) return CRAFTER_TREE;
  return CRAFTER_GRASS;
}

static void place_creature(crafter_game *game, int x, int y, int player_x, int player_y,
                           int tunnel) {
  int material = crafter_world_material(&game->world, x, y);
  if (material != CRAFTER_GRASS && material != CRAFTER_SAND && material != CRAFTER_PATH) return;
  double dx = x - player_x, dy = y - player_y;
  double distance = sqrt(dx * dx + dy * dy);
  if (distance > 3 && material == CRAFTER_GRASS && uniform(game) > 0.985)
    crafter_game_add_creature(game, CRAFTER_COW, x, y);
  else if (distance > 10 && uniform(game) > 0.993)
    crafter_game_add_creature(game, CRAFTER_ZOMBIE, x, y);
  else if (material == CRAFTER_PATH && tunnel && uniform(game) > 0.95)
    crafter_game_add_creature(game, CRAFTER_SKELETON, x, y);
}

int crafter_generate_world(crafter_game *game) {
  crafter_world *world = &game->world;
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
          (uint8_t)choose_material(game, &noise, x, y, player_x, player_y, &tunnels[cell]);
    }
  crafter_world_recount(world);
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++)
      place_creature(game, x, y, player_x, player_y,
                     tunnels[(size_t)x * (size_t)height + (size_t)y]);
  free(tunnels);
  world->change_count = 0;
  return 0;
}
