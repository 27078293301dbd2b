/* agent-actions: the actions a built-in agent (lib/tools/agents.h) takes in one
 * episode on the engine, one per line, for the differential tests against
 * the reference (tests/reference/fuzz.py plays them there too).
 *
 *   agent-actions AGENT SEED EPISODE AREA VIEW SIZE LENGTH [CONFIG]
 *
 * AGENT is random or scripted; AREA, VIEW and SIZE are W,H; CONFIG a
 * crafter-config(5) file or '-' for none.  Stops when the episode ends. */
#include <stdio.h>
#include <stdlib.h>

#include "base/cli.h"
#include "game/config.h"
#include "game/env.h"
#include "tools/agents.h"

static void fail(const char *what, const char *text) {
  fprintf(stderr, "agent-actions: %s: %s\n", what, text);
  exit(2);
}

int main(int argc, char **argv) {
  if (argc != 8 && argc != 9) {
    fprintf(stderr, "usage: agent-actions AGENT SEED EPISODE AREA VIEW SIZE LENGTH [CONFIG]\n");
    return 2;
  }
  int kind = crafter_agent_from_name(argv[1]);
  if (kind < 0) fail("unknown agent", argv[1]);
  crafter_params params;
  crafter_params_default(&params);
  int64_t seed, episode, length;
  if (crafter_parse_int64(argv[2], INT64_MIN / 2, INT64_MAX / 2, &seed) < 0) fail("bad seed", argv[2]);
  if (crafter_parse_int64(argv[3], 1, INT64_MAX / 2, &episode) < 0) fail("bad episode", argv[3]);
  if (crafter_parse_pair(argv[4], 1, 4096, params.area) < 0) fail("bad area", argv[4]);
  if (crafter_parse_pair(argv[5], 1, 4096, params.view) < 0) fail("bad view", argv[5]);
  if (crafter_parse_pair(argv[6], 1, 4096, params.size) < 0) fail("bad size", argv[6]);
  if (crafter_parse_int64(argv[7], 0, 1000000000, &length) < 0) fail("bad length", argv[7]);
  params.seed = seed;
  params.length = (long)length;
  static crafter_config config;
  crafter_config_default(&config);
  char error[512];
  if (argc == 9 && argv[8][0] != '-' &&
      crafter_config_load(argv[8], &config, error, sizeof(error)) < 0)
    fail("config", error);
  crafter_env env;
  if (crafter_env_init_config(&env, &params, &config, error, sizeof(error)) < 0) fail("env", error);
  crafter_env_set_next_episode(&env, episode);
  crafter_agent *agent = crafter_agent_new(kind, &params);
  if (!agent || crafter_env_reset(&env) < 0) fail("agent-actions", "out of memory");
  crafter_agent_reset(agent, &env);
  crafter_step_result result = {0};
  /* Without a time limit, a million steps at most. */
  for (long t = 0; !result.done && t < 1000000; t++) {
    int action = crafter_agent_act(agent, &env, 0);
    printf("%d\n", action);
    crafter_env_step(&env, action, &result);
  }
  crafter_agent_free(agent);
  crafter_env_fini(&env);
  return fclose(stdout) == 0 ? 0 : 1;
}
