/* Batches give the same results whatever the number of threads, and the
 * same as envs stepped one by one; with several threads every start after
 * an env's first plays the world a helper made ahead for it. */
#include <stdlib.h>
#include <string.h>

#include "run/batch.h"
#include "run/proto.h"
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
  crafter_params_default(&options.episode.params);
  options.episode.params.seed = 21;
  options.episode.params.length = 150; /* several resets */
  options.episode.first_episode = 1;
  options.envs = ENVS;
  options.threads = threads;
  options.episode.obs_kind = CRAFTER_OBS_SYMBOLIC;
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

static crafter_batch *prepared_batch(int envs, char *error, size_t error_size) {
  crafter_batch_options options;
  memset(&options, 0, sizeof(options));
  crafter_params_default(&options.episode.params);
  options.episode.params.seed = 5;
  options.episode.params.length = 40;
  options.episode.first_episode = 1;
  options.envs = envs;
  options.threads = 2;
  options.episode.obs_kind = CRAFTER_OBS_NONE;
  return crafter_batch_new(&options, error, error_size);
}

/* The worlds made ahead are the ones the envs start next: with every
 * queued world made before each step (settle), every start but each env's
 * first takes one.  And the queue keeps every env: envs queued while an
 * env restarts again and again before its world is made (hold) all get
 * theirs. */
static void test_prepared(void) {
  char error[200];
  crafter_batch *batch = prepared_batch(3, error, sizeof(error));
  uint8_t actions[3] = {0, 0, 0};
  crafter_step_result results[3];
  for (int t = 0; batch && t < 300; t++) {
    crafter_batch_settle(batch);
    crafter_batch_step(batch, actions, results, NULL);
  }
  int64_t prepared = 0, starts = batch ? crafter_batch_starts(batch, &prepared) : 0;
  ok(batch && starts > 3 * 5 && prepared == starts - 3,
     "settled: %lld of %lld starts on a prepared world (all but each env's first)",
     (long long)prepared, (long long)starts);
  crafter_batch_free(batch);

  batch = prepared_batch(3, error, sizeof(error));
  const uint8_t all[3] = {1, 1, 1}, first[3] = {1, 0, 0};
  int64_t before = 0, after = 0;
  if (batch) {
    crafter_batch_settle(batch);
    crafter_batch_hold(batch, 1);
    crafter_batch_start(batch, all); /* the three worlds taken, three queued */
    for (int k = 0; k < 4; k++) crafter_batch_start(batch, first); /* env 0 without one */
    crafter_batch_hold(batch, 0);
    crafter_batch_settle(batch);
    crafter_batch_starts(batch, &before);
    crafter_batch_start(batch, all);
    crafter_batch_starts(batch, &after);
  }
  ok(batch && after - before == 3,
     "env 0 restarted 4 times before its world was made: still all 3 envs start on theirs "
     "(%lld)", (long long)(after - before));
  crafter_batch_free(batch);
}

int main(void) {
  test_prepared();
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
  crafter_env_fini(&env);
  free(one), free(two), free(three);
  return tap_done();
}
