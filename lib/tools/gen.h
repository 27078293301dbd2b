/* gen: looking at worlds, the library half of crafter-gen: the ASCII map,
 * the semantic grid, a picture of the whole map, and statistics over the
 * worlds of many seeds, generated in parallel threads. */
#ifndef CRAFTER_GEN_H
#define CRAFTER_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/config.h"
#include "run/worldfile.h"
#include "view/textures.h"

/* The map, one character per cell (rows are y, top first), then a blank
 * line and the legend. */
void crafter_gen_write_ascii(FILE *out, const crafter_world_map *map);

/* The semantic grid as info['semantic'] holds it (material ids 1..12,
 * objects 13 + kind), one line per y, numbers separated by spaces. */
void crafter_gen_write_semantic(FILE *out, const crafter_world_map *map);

/* Draws the whole map into the PNG file `path`, `unit` pixels a cell,
 * materials opaque and objects blended over them as Crafter draws its
 * view (the player facing down, in daylight).  The picture is made a band
 * of cells at a time: the memory it takes is one row of cells, whatever
 * the map's height.  The file is written whole.  Returns 0, or -1 with a
 * reason. */
int crafter_gen_write_png(const crafter_world_map *map, const crafter_textures *textures,
                          int unit, const char *path, char *error, size_t error_size);

/* What the statistics count: the materials water..furnace (1..12 as the
 * ids), then cows, zombies and skeletons. */
#define CRAFTER_GEN_THINGS (CRAFTER_MATERIAL_COUNT - 1 + 3)
extern const char *const crafter_gen_thing_names[CRAFTER_GEN_THINGS];

typedef struct crafter_gen_stats_options {
  int game;                       /* enum crafter_game_id: Crafter's worlds, or the first
                                     worlds of Craftax-Classic's seeds (crafter-games(7)) */
  crafter_params params;          /* area; the seed is each of the range */
  const crafter_config *config;   /* NULL: Crafter's */
  int64_t first_seed, last_seed;  /* Env seeds, inclusive */
  int64_t episode;                /* the episode of each seed (1: the first reset) */
  int threads;                    /* worker threads, 1 or more */
} crafter_gen_stats_options;

typedef struct crafter_gen_thing_stats {
  double count_mean;           /* cells or creatures a world */
  long count_min, count_max;
  long worlds_without;         /* worlds without any */
  /* Manhattan distance from the spawn to the nearest one, over the worlds
   * that have one. */
  double nearest_mean;
  long nearest_median, nearest_max;
} crafter_gen_thing_stats;

typedef struct crafter_gen_stats {
  long worlds;
  int threads;
  double seconds;                 /* wall-clock time of generating and counting */
  crafter_gen_thing_stats things[CRAFTER_GEN_THINGS];
} crafter_gen_stats;

/* Generates the world of every seed and counts; 0, or -1 with a reason. */
int crafter_gen_stats_run(const crafter_gen_stats_options *options, crafter_gen_stats *stats,
                          char *error, size_t error_size);

/* The statistics as a table, or as one line of JSON (json's writer):
 * {"worlds", "first_seed", "last_seed", "episode", "area", "seconds",
 * "threads", "ms_per_world", "things": {NAME: {"count": {"mean", "min",
 * "max"}, "worlds_without", "nearest": {"mean", "median", "max"} or
 * null}}}, seconds and ms_per_world with 6 decimals, means with 4. */
void crafter_gen_stats_write_text(FILE *out, const crafter_gen_stats_options *options,
                                  const crafter_gen_stats *stats);
void crafter_gen_stats_write_json(FILE *out, const crafter_gen_stats_options *options,
                                  const crafter_gen_stats *stats);

#endif
