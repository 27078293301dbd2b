/* Fuzz target: Craftax-Classic's level-file reader (crafter-levels(5),
 * version 2).  A set it accepts must be playable: an env starts an
 * episode on every level and steps it, and the set is written back out. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "game/cc_env.h"
#include "run/jlevels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_jlevel_set set;
  char error[512];
  const crafter_jgame *game = crafter_jgame_of(CRAFTER_GAME_CRAFTAX_CLASSIC);
  if (crafter_jlevels_parse(&set, game, data, size, "fuzz.lvl", error, sizeof error) != 0)
    return 0;
  crafter_cc_env *env = calloc(1, sizeof *env);
  if (!env) abort();
  env->seed = set.seed;
  crafter_cc_schedule_start(set.seed, &env->key);
  for (int i = 0; i < set.count && i < 8; i++) {
    crafter_jlevels_start(env, &set, i);
    crafter_cc_outcome outcome;
    for (int t = 0; t < 40; t++)
      if (crafter_cc_env_act(env, t % 17, &outcome) != 0) abort();
  }
  free(env);
  if (crafter_jlevels_save(&set, "/dev/null", error, sizeof error) != 0) abort();
  crafter_jlevels_free(&set);
  return 0;
}
