#include "envopts.h"

#include <stdio.h>

#include "cli.h"
#include "config.h"
#include "tasks.h"

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
