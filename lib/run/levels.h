/* levels: level sets, Procgen-style.  Level k of the set of Env seed S
 * is the world crafter.Env(seed=S) makes for its k-th episode, stored as
 * the game's whole start state: the grid, the creatures in creation
 * order, the chunk bookkeeping, the player and the world generator as
 * generation left it.  An episode on level k starts from a copy of that
 * state, so it plays exactly as the k-th episode of Env(seed=S) does with
 * the same actions, without generating the world again.
 *
 * A set lives in memory (crafter_levels_generate) or in a level file
 * (crafter-levels(5)): a header with the parameters the start states
 * depend on, then the states, compressed and checksummed.  A reader
 * checks the checksums and every value it reads, and refuses a set made
 * for another area, view or configuration. */
#ifndef CRAFTER_LEVELS_H
#define CRAFTER_LEVELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/config.h"
#include "game/env.h"

#define CRAFTER_LEVELS_MAGIC "CRAFTLVL"
#define CRAFTER_LEVELS_VERSION 1
#define CRAFTER_LEVELS_HEADER_BYTES 128
/* The most levels a set holds. */
#define CRAFTER_LEVELS_MAX 1000000

/* One start state. */
typedef struct crafter_level {
  int64_t episode;      /* the Env's episode counter this world belongs to */
  int64_t world_seed;   /* hash((seed, episode)) % (2**31 - 1) */
  uint8_t *materials;   /* area cells, index x * height + y */
  crafter_object *objects; /* the player first, the rest in creation order */
  int object_count;
  int16_t *chunk_order; /* chunk ids in the order they were first touched */
  int chunk_touched;
  uint16_t *chunk_materials; /* per chunk, a count of each material */
  crafter_rng rng;      /* the world generator after generation */
  crafter_player player;
  double daylight;
  int action;
} crafter_level;

typedef struct crafter_level_set {
  int64_t seed;         /* the Env seed the levels come from */
  int64_t first;        /* level i (from 0) is episode first + i */
  int count;
  int area[2], view[2];
  int chunk[2];
  uint32_t config_crc;  /* crafter_config_crc of the configuration */
  crafter_level *levels;
  void *memory;         /* one block for every level's arrays */
} crafter_level_set;

/* How episodes choose their level. */
enum crafter_level_order {
  CRAFTER_LEVEL_ORDER_RANDOM = 0,   /* uniformly, from the env's own generator */
  CRAFTER_LEVEL_ORDER_SEQUENTIAL    /* env i of N plays levels i, i+N, i+2N, ... cycling */
};

/* "random" or "sequential" to an order; -1 for anything else. */
int crafter_level_order_from_name(const char *name);
const char *crafter_level_order_name(int order);

/* Generates levels first .. first+count-1 of the Env seed params->seed,
 * with params' area and view and `config` (NULL: Crafter's), on
 * `threads` threads.  Returns 0, or -1 with a reason: a set that would
 * take more memory than the process can have (the machine's, or less
 * under a ulimit) is refused before anything is generated, with how
 * much it would take. */
int crafter_levels_generate(crafter_level_set *set, const crafter_params *params,
                            const crafter_config *config, int64_t first, int count, int threads,
                            char *error, size_t error_size);

/* The bytes a set of `count` levels of set's area and chunk takes in
 * memory, with `objects` objects in all (crafter_levels_generate refuses
 * a set that would take more than the process can have, saying how much;
 * a reader, one whose levels would not fit once inflated). */
uint64_t crafter_levels_memory(const crafter_level_set *set, int64_t count, uint64_t objects);

/* Writes the set to `path` ("-" for standard output) whole, as outfile.h
 * promises, deflating one level at a time.  Returns 0, or -1 with a
 * reason (a write's ends with the system's reason). */
int crafter_levels_save(const crafter_level_set *set, const char *path, char *error,
                        size_t error_size);

/* Generates the levels crafter_levels_generate would and writes them to
 * `path` as crafter_levels_save would (the same bytes), or lists them to
 * `out` as crafter_levels_write_list would, never holding more than 64
 * levels a thread: memory stays that of a batch, whatever the count.
 * `threads` 0 takes one a core, at most 16.  Returns 0, or -1 with a
 * reason. */
int crafter_levels_generate_save(const crafter_params *params, const crafter_config *config,
                                 int64_t first, int count, int threads, const char *path,
                                 char *error, size_t error_size);
int crafter_levels_generate_list(FILE *out, const crafter_params *params,
                                 const crafter_config *config, int64_t first, int count,
                                 int threads, char *error, size_t error_size);

/* Reads a level file, checking its checksums, its version and every
 * state in it.  Returns 0, or -1 with a reason naming the path. */
int crafter_levels_load(crafter_level_set *set, const char *path, char *error,
                        size_t error_size);

/* The same for a file's bytes in memory; `name` stands for the path. */
int crafter_levels_parse(crafter_level_set *set, const uint8_t *bytes, size_t size,
                         const char *name, char *error, size_t error_size);

/* The checks a level file's header passes whatever its game: the magic,
 * a whole header, the header's checksum.  Returns the file's format
 * version, or -1 with a reason naming `name`. */
long crafter_levels_header_version(const uint8_t *bytes, size_t size, const char *name,
                                   char *error, size_t error_size);

/* Whether the set's levels are those of envs with these parameters and
 * this configuration: the same area, view and configuration.  Returns 0,
 * or -1 with a sentence naming what differs. */
int crafter_levels_check(const crafter_level_set *set, const crafter_params *params,
                         const crafter_config *config, char *error, size_t error_size);

void crafter_levels_free(crafter_level_set *set);

/* Lists the set: a line of its parameters, then a line per level (its
 * episode, world seed and creatures). */
void crafter_levels_write_list(FILE *out, const crafter_level_set *set);

/* The level of an episode, by its episode number; -1 when the set has
 * none. */
int crafter_levels_find(const crafter_level_set *set, int64_t episode);

/* Starts env's next episode on level `index` (from 0) of the set: the
 * env then plays episode set->first + index of the Env seed set->seed
 * (env->params.seed becomes the set's).  The env must have the set's
 * area (crafter_levels_check).  Returns 0, or -1 if memory ran out. */
int crafter_levels_start(crafter_env *env, const crafter_level_set *set, int index);

/* Which level each episode of an env plays: a generator of its own,
 * seeded from the set's seed and the env's index, so that the draws are
 * the same however many threads step the envs and whatever the worlds
 * do. */
typedef struct crafter_level_picker {
  int order;
  int count;
  uint64_t state;   /* random: the generator */
  int64_t next;     /* sequential: the next level */
  int stride;       /* sequential: envs sharing the set */
} crafter_level_picker;

void crafter_level_picker_init(crafter_level_picker *picker, const crafter_level_set *set,
                               int order, int env_index, int envs);

/* Pickers for `envs` envs sharing the set, env i's at [i]: a new array
 * to free, or NULL when memory ran out. */
crafter_level_picker *crafter_level_pickers_new(const crafter_level_set *set, int order, int envs);

/* The index (from 0) of the next episode's level. */
int crafter_level_pick(crafter_level_picker *picker);

#endif
