/* bench: how fast the engine runs, measured the way crafter-bench reports
 * it.  Random actions come from a fixed seed, every env resets itself,
 * and each figure is the median of several timed repetitions after a
 * warm-up run. */
#ifndef CRAFTER_BENCH_H
#define CRAFTER_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"

typedef struct crafter_bench_options {
  crafter_batch_options batch;
  long steps;       /* env steps per repetition (all envs together) */
  double seconds;   /* instead of steps when > 0: time per repetition */
  int repeats;      /* timed repetitions, the median is reported */
  uint64_t action_seed;
} crafter_bench_options;

typedef struct crafter_bench_result {
  double steps_per_second;    /* env steps per second, all envs together */
  double resets_per_second;   /* episode ends (each followed by a reset) per second */
  double reset_microseconds;  /* one reset on its own: a world generated, or with a
                                 level set a level's start state copied */
  long steps;                 /* env steps of the median repetition */
  long resets;
  double seconds;             /* its duration */
  size_t bytes_per_env;
  int envs, threads;
} crafter_bench_result;

/* Runs the benchmark; returns 0, or -1 with a reason. */
int crafter_bench_run(const crafter_bench_options *options, crafter_bench_result *result,
                      char *error, size_t error_size);

/* Monotonic time in seconds. */
double crafter_now(void);

#endif
