#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double crafter_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* A small fast generator for the benchmark's actions (xorshift64*); the
 * actions only need to be uniform and repeatable, not numpy's. */
static uint64_t next_random(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ULL;
}

static void draw_actions(uint64_t *state, uint8_t *actions, int count) {
  for (int i = 0; i < count; i++)
    actions[i] = (uint8_t)((next_random(state) >> 32) % CRAFTER_ACTION_COUNT);
}

typedef struct run {
  long steps, resets;
  double seconds;
} run;

static run timed_run(crafter_batch *batch, int envs, long steps, double seconds,
                     uint64_t *random_state, uint8_t *actions, crafter_step_result *results,
                     uint8_t *reset) {
  run measured = {0, 0, 0};
  double start = crafter_now();
  for (;;) {
    draw_actions(random_state, actions, envs);
    crafter_batch_step(batch, actions, results, reset);
    measured.steps += envs;
    for (int i = 0; i < envs; i++) measured.resets += reset[i];
    if (seconds > 0) {
      if ((measured.steps / envs) % 64 == 0 && crafter_now() - start >= seconds) break;
    } else if (measured.steps >= steps) {
      break;
    }
  }
  measured.seconds = crafter_now() - start;
  return measured;
}

static int compare_doubles(const void *left, const void *right) {
  double a = *(const double *)left, b = *(const double *)right;
  return (a > b) - (a < b);
}

/* Median time of one reset: repetitions of a batch of resets of one env;
 * with a level set, of resets onto its levels in turn. */
static double time_resets(const crafter_params *params, const crafter_config *config,
                          const crafter_level_set *levels, int repeats, char *error,
                          size_t error_size) {
  crafter_env env;
  if (crafter_env_init_config(&env, params, config, error, error_size) < 0) return -1;
  const int RESETS = levels ? 2000 : 20;
  int next_level = 0;
  double *times = malloc(sizeof(double) * (size_t)repeats);
  if (!times) {
    crafter_env_free(&env);
    return -1;
  }
  crafter_env_reset(&env); /* warm-up */
  for (int r = 0; r < repeats; r++) {
    double start = crafter_now();
    if (levels)
      for (int i = 0; i < RESETS; i++) {
        crafter_env_reset_level(&env, levels, next_level);
        next_level = (next_level + 1) % levels->count;
      }
    else
      for (int i = 0; i < RESETS; i++) crafter_env_reset(&env);
    times[r] = (crafter_now() - start) / RESETS;
  }
  qsort(times, (size_t)repeats, sizeof(double), compare_doubles);
  double median = times[repeats / 2];
  free(times);
  crafter_env_free(&env);
  return median * 1e6;
}

int crafter_bench_run(const crafter_bench_options *options, crafter_bench_result *result,
                      char *error, size_t error_size) {
  memset(result, 0, sizeof(*result));
  int envs = options->batch.envs;
  int repeats = options->repeats > 0 ? options->repeats : 1;
  crafter_batch *batch = crafter_batch_new(&options->batch, error, error_size);
  if (!batch) return -1;
  uint8_t *actions = malloc((size_t)envs);
  uint8_t *reset = malloc((size_t)envs);
  crafter_step_result *results = malloc(sizeof(*results) * (size_t)envs);
  run *runs = malloc(sizeof(run) * (size_t)repeats);
  double *rates = malloc(sizeof(double) * (size_t)repeats);
  if (!actions || !reset || !results || !runs || !rates) {
    snprintf(error, error_size, "out of memory");
    crafter_batch_free(batch);
    free(actions), free(reset), free(results), free(runs), free(rates);
    return -1;
  }
  uint64_t random_state = options->action_seed * 2 + 1;
  /* Warm-up: a tenth of a repetition, at least one step of every env. */
  long warm_steps = options->steps / 10 > envs ? options->steps / 10 : envs;
  timed_run(batch, envs, warm_steps, options->seconds > 0 ? options->seconds / 10 : 0,
            &random_state, actions, results, reset);
  for (int r = 0; r < repeats; r++) {
    runs[r] = timed_run(batch, envs, options->steps, options->seconds, &random_state, actions,
                        results, reset);
    rates[r] = runs[r].steps / runs[r].seconds;
  }
  /* Report the repetition with the median rate. */
  double sorted[64];
  int counted = repeats < 64 ? repeats : 64;
  memcpy(sorted, rates, sizeof(double) * (size_t)counted);
  qsort(sorted, (size_t)counted, sizeof(double), compare_doubles);
  double median = sorted[counted / 2];
  int chosen = 0;
  for (int r = 0; r < repeats; r++)
    if (rates[r] == median) chosen = r;
  result->steps_per_second = median;
  result->steps = runs[chosen].steps;
  result->resets = runs[chosen].resets;
  result->seconds = runs[chosen].seconds;
  result->resets_per_second = runs[chosen].resets / runs[chosen].seconds;
  result->bytes_per_env = crafter_batch_bytes_per_env(batch);
  result->envs = envs;
  result->threads = options->batch.threads < envs ? options->batch.threads : envs;
  crafter_batch_free(batch);
  free(actions), free(reset), free(results), free(runs), free(rates);
  result->reset_microseconds = time_resets(&options->batch.params, options->batch.config,
                                           options->batch.levels, repeats, error, error_size);
  return result->reset_microseconds < 0 ? -1 : 0;
}
