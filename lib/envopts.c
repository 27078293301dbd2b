#include "envopts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "errors.h"
#include "config.h"
#include "levels.h"
#include "tasks.h"
#include "worldfile.h"

static void pair(const char *program, const char *what, const char *argument, int out[2]) {
  if (crafter_parse_pair(argument, 1, 4096, out) < 0) {
    char format[96];
    snprintf(format, sizeof(format), "invalid %s '%%s' (expected W,H from 1 to 4096)", what);
    crafter_usage_error(program, format, argument);
  }
}

int crafter_env_option(const char *program, int option, const char *argument,
                       crafter_params *params, unsigned *given) {
  unsigned mark;
  switch (option) {
    case 's':
      params->seed = crafter_option_int64(program, "seed", argument, CRAFTER_SEED_MIN,
                                          CRAFTER_SEED_MAX);
      mark = CRAFTER_GIVEN_SEED;
      break;
    case CRAFTER_OPTION_AREA:
      pair(program, "area", argument, params->area);
      mark = CRAFTER_GIVEN_AREA;
      break;
    case CRAFTER_OPTION_VIEW:
      pair(program, "view", argument, params->view);
      mark = CRAFTER_GIVEN_VIEW;
      break;
    case CRAFTER_OPTION_SIZE:
      pair(program, "size", argument, params->size);
      mark = CRAFTER_GIVEN_SIZE;
      break;
    case CRAFTER_OPTION_LENGTH:
      params->length = (long)crafter_option_int64(program, "length", argument, 0,
                                                  CRAFTER_LENGTH_MAX);
      mark = CRAFTER_GIVEN_LENGTH;
      break;
    case CRAFTER_OPTION_NO_REWARD:
      params->reward = 0;
      mark = CRAFTER_GIVEN_REWARD;
      break;
    default: return 0;
  }
  if (given) *given |= mark;
  return 1;
}

void crafter_task_options_init(crafter_task_options *options) {
  options->path = NULL;
  options->split = -1;
  options->id = NULL;
}

int crafter_task_option(const char *program, int option, const char *argument,
                        crafter_task_options *options) {
  switch (option) {
    case CRAFTER_OPTION_TASKS:
      if (!*argument) crafter_usage_error(program, "%s", "the task file is empty");
      options->path = argument;
      return 1;
    case CRAFTER_OPTION_SPLIT:
      options->split = crafter_task_split_from_name(argument);
      if (options->split < 0)
        crafter_usage_error(program,
                            "invalid split '%s' (expected train, test-paraphrase or "
                            "test-new-objects)",
                            argument);
      return 1;
    case CRAFTER_OPTION_TASK:
      if (!*argument) crafter_usage_error(program, "%s", "the task id is empty");
      options->id = argument;
      return 1;
    default: return 0;
  }
}

void crafter_task_options_check(const char *program, const crafter_task_options *options) {
  if (!options->path && (options->split >= 0 || options->id))
    crafter_usage_error(program, "%s", "--split and --task need --tasks FILE");
}

void crafter_level_options_init(crafter_level_options *options) {
  memset(options, 0, sizeof(*options));
  options->order = CRAFTER_LEVEL_ORDER_RANDOM;
}

int crafter_level_option(const char *program, int option, const char *argument,
                         crafter_level_options *options) {
  switch (option) {
    case CRAFTER_OPTION_LEVELS:
      if (!*argument) crafter_usage_error(program, "%s", "the level file is empty");
      if (strspn(argument, "0123456789") == strlen(argument)) {
        options->count = (int)crafter_option_int64(program, "level count", argument, 1,
                                                   CRAFTER_LEVELS_MAX);
        options->path = NULL;
      } else {
        options->path = argument;
        options->count = 0;
      }
      return 1;
    case CRAFTER_OPTION_START_LEVEL:
      options->start = crafter_option_int64(program, "start level", argument, 1,
                                            CRAFTER_EPISODE_MAX);
      return 1;
    case CRAFTER_OPTION_LEVEL_ORDER:
      options->order = crafter_level_order_from_name(argument);
      if (options->order < 0)
        crafter_usage_error(program, "invalid level order '%s' (expected random or sequential)",
                            argument);
      options->order_given = 1;
      return 1;
    default: return 0;
  }
}

void crafter_level_options_check(const char *program, const crafter_level_options *options) {
  if (!crafter_level_options_wanted(options) && (options->start || options->order_given))
    crafter_usage_error(program, "%s", "--start-level and --level-order need --levels N or FILE");
  if (options->count && options->start &&
      options->start > (int64_t)CRAFTER_EPISODE_MAX - (options->count - 1))
    crafter_usage_error(program, "%s",
                        "--start-level and --levels go past episode 2**31-1");
}

int crafter_level_options_open(const crafter_level_options *options, crafter_params *params,
                               unsigned given, const crafter_config *config,
                               crafter_level_set *set, char *error, size_t error_size) {
  if (options->count) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = options->threads ? options->threads
                  : cores < 1      ? 1
                  : cores > 16     ? 16
                                   : (int)cores;
    return crafter_levels_generate(set, params, config, options->start ? options->start : 1,
                                   options->count, threads, error, error_size) < 0;
  }
  if (crafter_levels_load(set, options->path, error, error_size) < 0) return 1;
  /* The file's area and view, unless the command line says otherwise. */
  if (!(given & CRAFTER_GIVEN_AREA)) params->area[0] = set->area[0], params->area[1] = set->area[1];
  if (!(given & CRAFTER_GIVEN_VIEW)) params->view[0] = set->view[0], params->view[1] = set->view[1];
  char why[300];
  if (crafter_levels_check(set, params, config, why, sizeof(why)) < 0) {
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
  return 0;
}

int crafter_rules_open(const char *config_path, const char *world_path, crafter_params *params,
                       unsigned given, crafter_rules *rules, char *error, size_t error_size) {
  memset(rules, 0, sizeof(*rules));
  if (config_path) {
    rules->config = malloc(sizeof(*rules->config));
    if (!rules->config) {
      crafter_fail(error, error_size, "out of memory");
      return 1;
    }
    crafter_config_default(rules->config);
    if (crafter_config_load_text(config_path, rules->config, &rules->config_text,
                                 &rules->config_bytes, error, error_size) < 0)
      return 1;
    /* The file's env section, under the options given on the command line. */
    crafter_params_take_unset(params, &rules->config->params, given);
  }
  if (world_path) {
    rules->world = calloc(1, sizeof(*rules->world));
    if (!rules->world) {
      crafter_fail(error, error_size, "out of memory");
      return 1;
    }
    if (crafter_world_map_load_text(rules->world, world_path, &rules->world_text,
                                    &rules->world_bytes, error, error_size) < 0)
      return 1;
    if ((given & CRAFTER_GIVEN_AREA) &&
        (params->area[0] != rules->world->width || params->area[1] != rules->world->height)) {
      snprintf(error, error_size, "--area %d,%d does not match the %dx%d world of %s",
               params->area[0], params->area[1], rules->world->width, rules->world->height,
               world_path);
      return 2;
    }
    params->area[0] = rules->world->width;
    params->area[1] = rules->world->height;
  }
  return 0;
}

void crafter_rules_free(crafter_rules *rules) {
  free(rules->config);
  free(rules->config_text);
  free(rules->world_text);
  if (rules->world) crafter_world_map_free(rules->world);
  free(rules->world);
  memset(rules, 0, sizeof(*rules));
}
