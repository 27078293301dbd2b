#include "run/run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "game/games.h"

struct crafter_run_files {
  crafter_config config;
  char *config_text;
  crafter_world_map world;
  int have_world;
  char *world_text;
  crafter_task_set task_set;
  crafter_task_pool task_pool;
  int have_tasks;
  crafter_level_set level_set;
  crafter_jlevel_set jlevel_set;
};

void crafter_run_init(crafter_run *run) {
  memset(run, 0, sizeof(*run));
  crafter_params_default(&run->params);
  run->first_episode = 1;
  run->envs = 1;
  run->tasks.split = -1;
  run->levels.order = CRAFTER_LEVEL_ORDER_RANDOM;
}

/* The run's files, made on first use; NULL when memory ran out. */
static crafter_run_files *files_of(crafter_run *run, char *error, size_t error_size) {
  if (!run->files && !(run->files = calloc(1, sizeof(*run->files))))
    crafter_fail(error, error_size, "out of memory");
  return run->files;
}

int crafter_run_open_rules(crafter_run *run, char *error, size_t error_size) {
  if (!run->config_path && !run->world_path) return 0;
  crafter_run_files *files = files_of(run, error, error_size);
  if (!files) return 1;
  crafter_params *params = &run->params;
  if (run->config_path) {
    crafter_config_default(&files->config);
    size_t bytes = 0;
    if (crafter_config_load_text(run->config_path, &files->config, &files->config_text, &bytes,
                                 error, error_size) < 0)
      return 1;
    run->config = &files->config;
    run->config_text = files->config_text;
    run->config_bytes = bytes;
    /* The file's env section, under the options given on the command line. */
    crafter_params_take_unset(params, &files->config.params, run->given);
  }
  if (run->world_path) {
    size_t bytes = 0;
    files->have_world = 1;
    if (crafter_world_map_load_text(&files->world, run->world_path, &files->world_text, &bytes,
                                    error, error_size) < 0)
      return 1;
    run->world = &files->world;
    run->world_text = files->world_text;
    run->world_bytes = bytes;
    if ((run->given & CRAFTER_GIVEN_AREA) &&
        (params->area[0] != files->world.width || params->area[1] != files->world.height)) {
      crafter_fail(error, error_size, "--area %d,%d does not match the %dx%d world of %s",
                   params->area[0], params->area[1], files->world.width, files->world.height,
                   run->world_path);
      return 2;
    }
    params->area[0] = files->world.width;
    params->area[1] = files->world.height;
  }
  return 0;
}

int crafter_run_open_tasks(crafter_run *run, char *error, size_t error_size) {
  if (!run->tasks.path) return 0;
  crafter_run_files *files = files_of(run, error, error_size);
  if (!files) return 1;
  int opened = crafter_tasks_open(run->tasks.path, run->tasks.split, run->tasks.id,
                                  &files->task_set, &files->task_pool, error, error_size);
  if (opened < 0) return opened == -2 ? 2 : 1;
  files->have_tasks = 1;
  run->task_pool = &files->task_pool;
  return 0;
}

/* The threads that generate a level set. */
static int level_threads(const crafter_level_options *options) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return options->threads ? options->threads
         : cores < 1      ? 1
         : cores > 16     ? 16
                          : (int)cores;
}

/* crafter_run_open_levels for a JAX game (run/jlevels.h). */
static int open_jlevels(crafter_run *run, crafter_run_files *files, char *error,
                          size_t error_size) {
  const crafter_level_options *options = &run->levels;
  crafter_jlevel_set *set = &files->jlevel_set;
  const crafter_jgame *game = crafter_jgame_of(run->game);
  crafter_params *params = &run->params;
  if (options->count) {
    if (crafter_jlevels_generate(set, game, params->seed, options->start ? options->start : 1,
                                 options->count, level_threads(options), error,
                                 error_size) < 0)
      return 1;
    run->jlevel_set = set;
    return 0;
  }
  if (crafter_jlevels_load(set, game, options->path, error, error_size) < 0) return 1;
  int status = 0;
  if ((run->given & CRAFTER_GIVEN_SEED) && params->seed != set->seed)
    status = crafter_fail(error, error_size, "%s holds levels of seed %lld, not of --seed %lld",
                          options->path, (long long)set->seed, (long long)params->seed);
  else if (options->start && options->start != set->first)
    status = crafter_fail(error, error_size, "%s starts at level %lld, not at --start-level %lld",
                          options->path, (long long)set->first, (long long)options->start);
  if (status < 0) {
    crafter_jlevels_free(set);
    return 2;
  }
  params->seed = set->seed;
  run->jlevel_set = set;
  return 0;
}

int crafter_run_open_levels(crafter_run *run, char *error, size_t error_size) {
  const crafter_level_options *options = &run->levels;
  if (!crafter_level_options_wanted(options)) return 0;
  crafter_run_files *files = files_of(run, error, error_size);
  if (!files) return 1;
  crafter_level_set *set = &files->level_set;
  crafter_params *params = &run->params;
  if (crafter_jgame_of(run->game)) return open_jlevels(run, files, error, error_size);
  if (options->count) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = options->threads ? options->threads
                  : cores < 1      ? 1
                  : cores > 16     ? 16
                                   : (int)cores;
    if (crafter_levels_generate(set, params, run->config, options->start ? options->start : 1,
                                options->count, threads, error, error_size) < 0)
      return 1;
    run->level_set = set;
    return 0;
  }
  if (crafter_levels_load(set, options->path, error, error_size) < 0) return 1;
  /* The file's area and view, unless the command line says otherwise. */
  unsigned given = run->given;
  if (!(given & CRAFTER_GIVEN_AREA)) params->area[0] = set->area[0], params->area[1] = set->area[1];
  if (!(given & CRAFTER_GIVEN_VIEW)) params->view[0] = set->view[0], params->view[1] = set->view[1];
  char why[300];
  if (crafter_levels_check(set, params, run->config, why, sizeof(why)) < 0) {
    crafter_fail(error, error_size, "%s: %s", options->path, why);
    crafter_levels_free(set);
    return 1;
  }
  if ((given & CRAFTER_GIVEN_SEED) && params->seed != set->seed) {
    crafter_fail(error, error_size, "%s holds levels of seed %lld, not of --seed %lld",
                 options->path, (long long)set->seed, (long long)params->seed);
    crafter_levels_free(set);
    return 2;
  }
  if (options->start && options->start != set->first) {
    crafter_fail(error, error_size, "%s starts at level %lld, not at --start-level %lld",
                 options->path, (long long)set->first, (long long)options->start);
    crafter_levels_free(set);
    return 2;
  }
  params->seed = set->seed;
  run->level_set = set;
  return 0;
}

void crafter_run_free(crafter_run *run) {
  crafter_run_files *files = run->files;
  if (files) {
    free(files->config_text);
    free(files->world_text);
    if (files->have_world) crafter_world_map_free(&files->world);
    if (files->have_tasks) {
      crafter_task_pool_free(&files->task_pool);
      crafter_task_set_free(&files->task_set);
    }
    crafter_levels_free(&files->level_set);
    if (files->jlevel_set.game) crafter_jlevels_free(&files->jlevel_set);
    free(files);
  }
  run->files = NULL;
  run->config = NULL;
  run->config_text = NULL;
  run->config_bytes = 0;
  run->world = NULL;
  run->world_text = NULL;
  run->world_bytes = 0;
  run->task_pool = NULL;
  run->level_set = NULL;
}

void crafter_run_episode_options(const crafter_run *run, const crafter_textures *textures,
                                 const crafter_traj_header *recording,
                                 crafter_episode_options *options) {
  memset(options, 0, sizeof(*options));
  options->params = run->params;
  options->config = run->config;
  options->obs_kind = run->obs_kind;
  options->obs_settings = run->obs_settings;
  options->textures = textures;
  options->first_episode = run->first_episode;
  options->world = run->world;
  options->levels = run->level_set;
  options->level_order = run->levels.order;
  options->level_envs = 1;
  options->tasks = run->task_pool;
  options->recording = recording;
  options->players = run->players;
}

void crafter_run_header(const crafter_run *run, const char *agent,
                        const crafter_textures *textures, crafter_traj_header *header) {
  crafter_traj_header_init(header, &run->params, run->obs_kind, agent, textures);
  header->tasks = run->task_pool ? run->task_pool->set : NULL;
  crafter_traj_header_set_levels(header, run->level_set, run->levels.order);
  crafter_traj_header_set_rules(header, run->config_text, run->config_bytes, run->config,
                                run->world_text, run->world_bytes, run->world);
  crafter_traj_header_set_players(header, run->players);
}
