/* worldfile: a world as a text file (crafter-world(5)): one character per
 * cell, `@` for the player, letters for creatures, so that a person can
 * draw or edit a map; and episodes that start from such a world.
 *
 * Promise: a world saved from a fresh episode and read back is the same
 * grid and the same objects in the same order, and an episode started
 * from it with the seed and episode it came from plays exactly as the
 * generated one.  A reader never accepts a map it cannot represent: every
 * error names the line and column and says what was expected. */
#ifndef CRAFTER_WORLDFILE_H
#define CRAFTER_WORLDFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/cc_worldgen.h"
#include "game/env.h"

#define CRAFTER_WORLDFILE_VERSION 1
#define CRAFTER_WORLDFILE_MAX_SIDE 4096
/* The largest file a reader takes: 4096 rows of 4096 cells, and room for
 * comments and line ends. */
#define CRAFTER_WORLDFILE_MAX_BYTES \
  ((size_t)(CRAFTER_WORLDFILE_MAX_SIDE + 2) * CRAFTER_WORLDFILE_MAX_SIDE * 2)

/* A world's grid and objects, without the game around it. */
typedef struct crafter_world_map {
  int width, height;
  uint8_t *materials;       /* width * height, index x * height + y */
  crafter_object *objects;  /* the player first, then the others by x, then y */
  int object_count;
} crafter_world_map;

/* The character of a material (0 for none, which a map cannot hold). */
char crafter_material_char(int material);

/* The character of an object (arrows by their direction). */
char crafter_object_char(const crafter_object *object);

/* The material an object of this character stands on unless the file
 * says otherwise: path for skeletons and arrows, grass for the rest. */
int crafter_object_default_ground(int kind);

/* Writes the legend, each line starting with `prefix`. */
void crafter_world_legend(FILE *out, const char *prefix);

/* Reads a world file from memory; `name` stands for it in errors.
 * Returns 0, or -1 with "NAME:LINE:COLUMN: what was wrong" in `error`. */
int crafter_world_map_parse(crafter_world_map *map, const char *text, size_t length,
                            const char *name, char *error, size_t error_size);

/* Reads a world file ("-" for standard input). */
int crafter_world_map_load(crafter_world_map *map, const char *path, char *error,
                           size_t error_size);

/* The same, keeping the file's bytes in *text (to free) and *length: what
 * a recording stores to be replayed on the same world. */
int crafter_world_map_load_text(crafter_world_map *map, const char *path, char **text,
                                size_t *length, char *error, size_t error_size);

/* The current grid and objects of a game. */
int crafter_world_map_from_game(crafter_world_map *map, const crafter_game *game);

/* The map of a Craftax-Classic state (game/cc_worldgen.h) in Crafter's
 * terms, to be shown as Crafter's are: each block the material of its
 * name (a plant or ripe plant: grass under a plant object, ripe past
 * Crafter's ripeness; Craftax's wood, invalid and out-of-bounds blocks,
 * which its worlds never hold: none), the player facing its direction,
 * then the live creatures, arrows and growing plants of the state's slots
 * by x, then y (x the column, y the row). */
int crafter_world_map_from_cc(crafter_world_map *map, const crafter_cc_state *state);

/* Writes the world file; `comment` (may be NULL) goes on a comment line. */
int crafter_world_map_write(FILE *out, const crafter_world_map *map, const char *comment);

/* Writes the world file to `path` ("-" for standard output) whole, as
 * outfile.h promises: a failed write leaves what the path held before.
 * Returns 0, or -1 with "cannot write PATH: why" in `error`. */
int crafter_world_map_save(const crafter_world_map *map, const char *path, const char *comment,
                           char *error, size_t error_size);

void crafter_world_map_free(crafter_world_map *map);

/* Starts the next episode on the map's world: the episode's generator is
 * seeded and advanced as for the generated world of the env's seed and
 * episode, then the terrain and objects are the map's, each creature fresh
 * (full health, counters at 0), the player at `@` with the initial
 * inventory.  The map must have the env's area and stay alive only for the
 * call.  Returns 0, or -1 with a reason; CRAFTER_PLAYERS_UNFIT (game.h)
 * with the reason when the map has more players '@' than the env, or no
 * room for every player of the env. */
int crafter_world_map_start(crafter_env *env, const crafter_world_map *map, char *error,
                            size_t error_size);

#endif
