/* Batches give the same results whatever the number of threads, and the
 * same as envs stepped one by one. */
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "proto.h"
#include "tap.h"

enum { ENVS = 5, STEPS = 400 };

typedef struct trace {
  crafter_step_result results[STEPS][ENVS];
  uint8_t reset[STEPS][ENVS];
  float last_obs[ENVS][1345];
} trace;

static int run(int threads, trace *out) {
  crafter_batch_options options;
  memset(&options, 0, sizeof(options));
  crafter_params_default(&options.params);
  options.params.seed = 21;
  options.params.length = 150; /* several resets */
  options.first_episode = 1;
  options.envs = ENVS;
  options.threads = threads;
  options.obs_kind = CRAFTER_OBS_SYMBOLIC;
  char error[200];
  crafter_batch *batch = crafter_batch_new(&options, error, sizeof(error));
  if (!batch) return -1;
  uint64_t state = 99;
  for (int t = 0; t < STEPS; t++) {
    uint8_t actions[ENVS];
    for (int i = 0; i < ENVS; i++) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      actions[i] = (uint8_t)((state >> 33) % 17);
    }
    crafter_batch_step(batch, actions, out->results[t], out->reset[t]);
  }
  for (int i = 0; i < ENVS; i++)
    memcpy(out->last_obs[i], crafter_batch_observation(batch, i), sizeof(out->last_obs[i]));
  crafter_batch_free(batch);
  return 0;
}

static int same(const trace *a, const trace *b) {
  for (int t = 0; t < STEPS; t++)
    for (int i = 0; i < ENVS; i++) {
      const crafter_step_result *x = &a->results[t][i], *y = &b->results[t][i];
      if (x->reward != y->reward || x->done != y->done || x->unlocked != y->unlocked ||
          a->reset[t][i] != b->reset[t][i])
        return 0;
    }
  return memcmp(a->last_obs, b->last_obs, sizeof(a->last_obs)) == 0;
}

int main(void) {
  trace *one = calloc(1, sizeof(trace)), *two = calloc(1, sizeof(trace)),
        *three = calloc(1, sizeof(trace));
  ok(run(1, one) == 0 && run(2, two) == 0 && run(3, three) == 0, "batches of 5 envs run");
  ok(same(one, two), "two threads give the results of one");
  ok(same(one, three), "three threads give the results of one");
  int resets = 0;
  for (int t = 0; t < STEPS; t++)
    for (int i = 0; i < ENVS; i++) resets += one->reset[t][i];
  ok(resets >= ENVS * 2, "envs reset themselves (%d resets)", resets);

  /* Env 3 of the batch is an env of seed 24 on its own. */
  crafter_env env;
  crafter_params params;
  char error[200];
  crafter_params_default(&params);
  params.seed = 24;
  params.length = 150;
  crafter_env_init(&env, &params, error, sizeof(error));
  crafter_env_reset(&env);
  uint64_t state = 99;
  int matches = 1;
  for (int t = 0; t < STEPS; t++) {
    int action = 0;
    for (int i = 0; i < ENVS; i++) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      if (i == 3) action = (int)((state >> 33) % 17);
    }
    crafter_step_result result;
    crafter_env_step(&env, action, &result);
    matches &= result.reward == one->results[t][3].reward && result.done == one->results[t][3].done;
    if (result.done) crafter_env_reset(&env);
  }
  ok(matches, "env 3 of the batch equals an env of seed + 3");
  crafter_env_free(&env);
  free(one), free(two), free(three);
  return tap_done();
}
