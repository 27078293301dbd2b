/* run: one description of a run, whichever program makes it: the env
 * parameters and seeds, how many episodes, envs, threads and players, the
 * observations and their textures, the configuration and world files,
 * goals, a level set and a recording.  The programs fill it from their
 * command lines with the options they share (envopts.h) and embed it in
 * their own options; the library opens the files it names and makes of
 * it the options every episode runner shares and the header of the
 * trajectory file it records, each in one place. */
#ifndef CRAFTER_RUN_H
#define CRAFTER_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"
#include "game/config.h"
#include "game/tasks.h"
#include "run/episode.h"
#include "run/jlevels.h"
#include "run/levels.h"
#include "run/traj.h"
#include "run/worldfile.h"
#include "view/textures.h"

/* Goals for the episodes (crafter-task(5)): --tasks FILE, --split NAME,
 * --task ID. */
typedef struct crafter_task_options {
  const char *path; /* NULL: no goals */
  int split;        /* enum crafter_task_split, -1 for every split */
  const char *id;   /* one task, or NULL */
} crafter_task_options;

/* Level sets (crafter-levels(5)): --levels N or FILE, --start-level K,
 * --level-order random|sequential. */
typedef struct crafter_level_options {
  int count;          /* --levels N: generate N levels; 0 for none or a file */
  const char *path;   /* --levels FILE: load them */
  int64_t start;      /* --start-level: the episode of the first level; 0: not given (1) */
  int order;          /* enum crafter_level_order */
  int order_given;
  int threads;        /* threads generating the levels; 0: one per core, at most 16 */
} crafter_level_options;

/* Whether the options ask for a level set at all. */
static inline int crafter_level_options_wanted(const crafter_level_options *options) {
  return options->count || options->path;
}

/* What the open functions allocated (run.c). */
typedef struct crafter_run_files crafter_run_files;

typedef struct crafter_run {
  /* What the command line says.  Each program says what the counts mean
   * to it where it differs. */
  int game;                   /* enum crafter_game_id (game/games.h): --game, Crafter's 0 */
  int game_given;             /* --game was given */
  crafter_params params;      /* env i plays seed params.seed + i */
  unsigned given;             /* enum crafter_given: the parameters the command line set,
                                 which a configuration's env section does not override */
  int64_t first_episode;      /* the episode counter of the first episode (1) */
  int first_episode_given;
  int64_t episodes;           /* episodes to play in all */
  int envs;                   /* environments side by side (1) */
  int threads;                /* threads; 0: the program's default */
  int players;                /* players sharing each world (0 or 1: Crafter's one) */
  int obs_kind;               /* enum crafter_obs_kind */
  crafter_obs_settings obs_settings; /* how observations are made (BALROG's settings);
                                        all zero: the defaults */
  const char *textures;       /* folder of PNG files pixels are drawn with; NULL: the one
                                 $CRAFTER_TEXTURES names, else the built-in set */
  const char *config_path;    /* a configuration file (crafter-config(5)), or NULL */
  const char *world_path;     /* a world file (crafter-world(5)) every episode starts on,
                                 or NULL */
  crafter_task_options tasks; /* goals */
  crafter_level_options levels; /* a level set */
  const char *record_path;    /* the trajectory file every episode is written to
                                 (crafter-trajectory(5)), or NULL */

  /* What the run plays by: made by the open functions from the files
   * named above, or set by the caller (who then keeps them alive).  Each
   * NULL for none. */
  const crafter_config *config;   /* the file's over Crafter's */
  const char *config_text;        /* the configuration file's bytes, for recordings */
  size_t config_bytes;
  const crafter_world_map *world; /* every episode on this map */
  const char *world_text;         /* the world file's bytes, for recordings */
  size_t world_bytes;
  const crafter_task_pool *task_pool; /* a goal for every episode (crafter_task_draw from
                                         the env's seed and episode) */
  const crafter_level_set *level_set; /* every episode on a level of this set; its seed is
                                         params.seed */
  const crafter_jlevel_set *jlevel_set; /* the same for a JAX game (run/jlevels.h) */
  crafter_run_files *files;   /* what the open functions allocated, for crafter_run_free */
} crafter_run;

/* Crafter's parameters, episode 1, one env, no more: no threads, players,
 * observations, files, goals, levels or recording. */
void crafter_run_init(crafter_run *run);

/* Opens what the run names, each into the run.  Each returns 0 (also when
 * the run names nothing of its kind); 1 with a message for a file that
 * cannot be read or is malformed, or when memory runs out; 2 for options
 * that contradict a file.  Free with crafter_run_free in any case.
 *
 * rules: the configuration over Crafter's, whose env section becomes
 * params' where `given` says the command line gave nothing; the world
 * map, whose area becomes params', which must agree with a given --area.
 * tasks: the task file and the pool of goals of the split or task (2 when
 * it has no such split or task).  levels: the level set, for envs of
 * params and the configuration (opened before): generated, or loaded and
 * checked against them; a file's seed, area and view become params',
 * unless the command line gave others: those must be the file's. */
int crafter_run_open_rules(crafter_run *run, char *error, size_t error_size);
int crafter_run_open_tasks(crafter_run *run, char *error, size_t error_size);
int crafter_run_open_levels(crafter_run *run, char *error, size_t error_size);
void crafter_run_free(crafter_run *run);

/* What every episode runner of the run shares: its parameters, rules,
 * world, levels (one runner in their sequential order: a batch says how
 * many), goals, observations drawn with `textures` (NULL: no pixels),
 * and `recording` (a header, or NULL: no recording). */
void crafter_run_episode_options(const crafter_run *run, const crafter_textures *textures,
                                 const crafter_traj_header *recording,
                                 crafter_episode_options *options);

/* The header of the trajectory file of the run's episodes: its
 * parameters, observations (pixels drawn with `textures`), goals, levels,
 * rules, world and players, played by `agent` ("random", "external"). */
void crafter_run_header(const crafter_run *run, const char *agent,
                        const crafter_textures *textures, crafter_traj_header *header);

#endif
