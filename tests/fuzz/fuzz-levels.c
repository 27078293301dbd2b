/* Fuzz target: the level-file reader (crafter-levels(5)).  A set it
 * accepts must be playable: an env of its parameters starts an episode on
 * every level and steps it, and the set is written back out. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "run/levels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_level_set set;
  char error[512];
  if (crafter_levels_parse(&set, data, size, "fuzz.lvl", error, sizeof error) != 0) return 0;
  crafter_params params;
  crafter_params_default(&params);
  params.seed = set.seed;
  params.area[0] = set.area[0], params.area[1] = set.area[1];
  params.view[0] = set.view[0], params.view[1] = set.view[1];
  crafter_env env;
  /* A set of another configuration is refused before it is played. */
  if (crafter_levels_check(&set, &params, NULL, error, sizeof error) == 0 &&
      crafter_env_init(&env, &params, error, sizeof error) == 0) {
    for (int i = 0; i < set.count && i < 8; i++) {
      if (crafter_levels_start(&env, &set, i) != 0) abort();
      crafter_step_result result;
      for (int t = 0; t < 40; t++) crafter_env_step(&env, t % CRAFTER_ACTION_COUNT, &result);
    }
    crafter_env_fini(&env);
  }
  if (crafter_levels_save(&set, "/dev/null", error, sizeof error) != 0) abort();
  crafter_levels_free(&set);
  return 0;
}
