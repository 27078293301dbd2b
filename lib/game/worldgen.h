/* worldgen: Crafter's terrain and initial creatures for a seeded world.
 *
 * Promise: given the game's generator right after seeding and the player
 * placed, the materials, objects and the generator's state afterwards are
 * those of crafter 1.8.3's generate_world.  The thresholds, probabilities
 * and distances are the game's config's (config.h, worldgen section). */
#ifndef CRAFTER_WORLDGEN_H
#define CRAFTER_WORLDGEN_H

#include "game/game.h"

/* Fills game->world around the player (object slot 0); returns 0, or -1 if
 * memory ran out. */
int crafter_generate_world(crafter_game *game);

/* The same world, computed the plain way: every noise value the reference
 * computes, in its order, cell by cell.  crafter_generate_world takes a
 * faster road to the same materials, creatures and generator state (see
 * worldgen.c); the tests hold the two side by side. */
int crafter_generate_world_plain(crafter_game *game);

#endif
