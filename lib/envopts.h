/* envopts: the options of crafter.Env's arguments, which the programs
 * share: one code for each, and one parser, so that every program reads
 * --seed, --area, --view, --size, --length and --no-reward alike and
 * refuses a bad value with the same message. */
#ifndef CRAFTER_ENVOPTS_H
#define CRAFTER_ENVOPTS_H

#include "params.h"

/* getopt_long codes, beyond any character.  (-s is --seed.) */
enum crafter_env_option_code {
  CRAFTER_OPTION_AREA = 0x1000,
  CRAFTER_OPTION_VIEW,
  CRAFTER_OPTION_SIZE,
  CRAFTER_OPTION_LENGTH,
  CRAFTER_OPTION_NO_REWARD,
  CRAFTER_OPTION_TASKS,
  CRAFTER_OPTION_SPLIT,
  CRAFTER_OPTION_TASK,
  CRAFTER_OPTION_LEVELS,
  CRAFTER_OPTION_LEVEL_ORDER,
  CRAFTER_OPTION_START_LEVEL
};

/* The entries of struct option for them. */
#define CRAFTER_OPTION_SEED_ENTRY {"seed", required_argument, NULL, 's'}
#define CRAFTER_OPTION_AREA_ENTRY {"area", required_argument, NULL, CRAFTER_OPTION_AREA}
#define CRAFTER_OPTION_VIEW_ENTRY {"view", required_argument, NULL, CRAFTER_OPTION_VIEW}
#define CRAFTER_OPTION_SIZE_ENTRY {"size", required_argument, NULL, CRAFTER_OPTION_SIZE}
#define CRAFTER_OPTION_LENGTH_ENTRY {"length", required_argument, NULL, CRAFTER_OPTION_LENGTH}
#define CRAFTER_OPTION_NO_REWARD_ENTRY {"no-reward", no_argument, NULL, CRAFTER_OPTION_NO_REWARD}

/* Goals for the episodes (crafter-task(5)): --tasks FILE, --split NAME,
 * --task ID. */
#define CRAFTER_OPTION_TASK_ENTRIES                                        \
  {"tasks", required_argument, NULL, CRAFTER_OPTION_TASKS},                \
      {"split", required_argument, NULL, CRAFTER_OPTION_SPLIT},            \
      {"task", required_argument, NULL, CRAFTER_OPTION_TASK}

typedef struct crafter_task_options {
  const char *path; /* NULL: no goals */
  int split;        /* enum crafter_task_split, -1 for every split */
  const char *id;   /* one task, or NULL */
} crafter_task_options;

/* Sets options to none: no file, every split, no single task. */
void crafter_task_options_init(crafter_task_options *options);

/* If `option` is one of the task options, stores it and returns 1; else
 * returns 0.  A bad value exits with status 2 as crafter_env_option does. */
int crafter_task_option(const char *program, int option, const char *argument,
                        crafter_task_options *options);

/* Checks that --split and --task come with --tasks (exits with status 2
 * if not). */
void crafter_task_options_check(const char *program, const crafter_task_options *options);

/* Level sets (crafter-levels(5)): --levels N or FILE, --start-level K,
 * --level-order random|sequential. */
#define CRAFTER_OPTION_LEVEL_ENTRIES                                       \
  {"levels", required_argument, NULL, CRAFTER_OPTION_LEVELS},              \
      {"start-level", required_argument, NULL, CRAFTER_OPTION_START_LEVEL}, \
      {"level-order", required_argument, NULL, CRAFTER_OPTION_LEVEL_ORDER}

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

void crafter_level_options_init(crafter_level_options *options);

/* If `option` is one of the level options, stores it and returns 1; else
 * returns 0.  A bad value exits with status 2.  An argument of digits
 * only is a count; anything else names a file (write ./200 for a file
 * named 200). */
int crafter_level_option(const char *program, int option, const char *argument,
                         crafter_level_options *options);

/* Checks that --start-level and --level-order come with --levels (exits
 * with status 2 if not). */
void crafter_level_options_check(const char *program, const crafter_level_options *options);

struct crafter_config;
struct crafter_level_set;
struct crafter_world_map;

/* Makes the set the options name, for envs of `params` (their seed the
 * levels' seed) and `config`: generates it, or loads the file and checks
 * it against them.  A file's seed, area and view become params', unless
 * `given` (enum crafter_given) says the command line gave others: those
 * must be the file's.  Returns
 * 0; 1 with a message for a bad or mismatched file; 2 for options that
 * contradict the file. */
int crafter_level_options_open(const crafter_level_options *options, crafter_params *params,
                               unsigned given, const struct crafter_config *config,
                               struct crafter_level_set *set, char *error, size_t error_size);

/* If `option` (a getopt_long result) is one of these or 's', stores its
 * argument in params, marks it in *given (enum crafter_given of config.h;
 * given may be NULL) and returns 1; else returns 0.  A bad value prints
 * `program: invalid ...` and a hint to --help, and exits with status 2. */
int crafter_env_option(const char *program, int option, const char *argument,
                       crafter_params *params, unsigned *given);

/* The rules and the world a run plays by, from --config FILE and --world
 * FILE. */
typedef struct crafter_rules {
  struct crafter_config *config; /* the file's over Crafter's, or NULL without a file */
  char *config_text;             /* the file's bytes, for recordings; NULL without */
  size_t config_bytes;
  struct crafter_world_map *world; /* the map, or NULL without a file */
  char *world_text;              /* the world file's bytes, for recordings; NULL without */
  size_t world_bytes;
} crafter_rules;

/* Opens what --config (config_path) and --world (world_path) name, either
 * NULL: the configuration over Crafter's, whose env section becomes
 * params' where `given` says the command line gave nothing; the world map,
 * whose area becomes params', which must agree with a given --area.
 * Returns 0; 1 with a message for a file that cannot be read or is
 * malformed, or when memory runs out; 2 for a given --area the world
 * contradicts.  Free with crafter_rules_free in any case. */
int crafter_rules_open(const char *config_path, const char *world_path, crafter_params *params,
                       unsigned given, crafter_rules *rules, char *error, size_t error_size);
void crafter_rules_free(crafter_rules *rules);

#endif
