/* bench: how fast the engine runs, measured the way crafter-bench reports
 * it.  Random actions come from a fixed seed, every env resets itself,
 * and each figure is the median of several timed repetitions after a
 * warm-up run. */
#ifndef CRAFTER_BENCH_H
#define CRAFTER_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json.h"
#include "run/batch.h"
#include "run/run.h"
#include "run/traj.h"
#include "run/traj_writer.h"

typedef struct crafter_bench_options {
  int game;         /* enum crafter_game_id: Crafter plays batch; another game plays
                       batch.envs envs of its own on batch.threads threads from seed
                       `seed`, with batch.episode.obs_kind's observations */
  int64_t seed;
  crafter_batch_options batch;
  long steps;       /* env steps per repetition (all envs together) */
  double seconds;   /* instead of steps when > 0: time per repetition */
  int repeats;      /* timed repetitions, the median is reported */
  uint64_t action_seed;
  crafter_traj_writer *writer; /* with batch.episode.recording (its header): every
                                  episode that ends, and at the end every one under way,
                                  cut, is written here; NULL: nothing is recorded */
  int state;        /* also time saving and loading an env's state (state.h) */
  /* another game with pixels: the textures they are drawn with (view/cc_render.h) */
  const void *jtextures;    /* a JAX game's pixel textures (run/jgame.h), NULL: none */
  const crafter_jlevel_set *jlevels; /* a JAX game's episodes on this level set
                                        (run/jlevels.h), NULL: none */
  int level_order;  /* with jlevels: enum crafter_level_order */
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
  int players;                /* players a world: steps_per_second counts world steps,
                                 each of which steps every player */
  int64_t starts;             /* episodes started over the whole measurement (the warm-up
                                 and every repetition), each env's first included */
  int64_t prepared_starts;    /* of them, those on a world a helper thread made ahead */
  /* With options.state: one save of an env's state into memory and one
   * load of it, in microseconds (the medians of repetitions of 2000 each,
   * after 300 random steps, observations of the run's kind), and the
   * state's bytes. */
  double save_microseconds, restore_microseconds;
  size_t state_bytes;
} crafter_bench_result;

/* Runs the benchmark; returns 0, or -1 with a reason. */
int crafter_bench_run(const crafter_bench_options *options, crafter_bench_result *result,
                      char *error, size_t error_size);

/* Monotonic time in seconds. */
double crafter_now(void);

/* What crafter-bench does, for its main() to call once it has read the
 * command line. */

enum crafter_bench_sweep {
  CRAFTER_BENCH_SWEEP_NONE = 0,
  CRAFTER_BENCH_SWEEP_THREADS, /* 1, 2, .. batch.threads threads */
  CRAFTER_BENCH_SWEEP_ENVS     /* 1, 2, 4, .. batch.envs envs */
};

typedef struct crafter_bench_request {
  crafter_run run;               /* what runs, at a sweep's largest point: run.envs envs on
                                  run.threads threads, whose seed is also the actions'; a
                                  recording (run.record_path) includes every episode */
  int64_t steps;                 /* env steps per repetition (all envs together) */
  double seconds;                /* instead of steps when > 0: time per repetition */
  int repeats;                   /* timed repetitions, the median is reported */
  int state;                     /* also time saving and loading an env's state */
  int json;                      /* 1: one JSON object (text: a table) */
  int sweep;                     /* enum crafter_bench_sweep */
  const char *plot_path;         /* with a sweep: steps per second drawn here */
  const char *compare_path;      /* an earlier JSON result to print ratios against */
} crafter_bench_request;

/* Loads the configuration, world, tasks, textures and levels the request
 * names, creates the recording, reads
 * the result to compare with (before anything is measured, so that a bad
 * file costs no benchmark), measures every point, prints the results on
 * `out` (flushed after each point), draws the plot and prints the
 * comparison.  Failures are said on `err` as "program: what went wrong".
 * Returns the exit status: 0, 1 on a failure, 2 on options that cannot
 * work together. */
int crafter_bench_main(const char *program, const crafter_bench_request *request, FILE *out,
                       FILE *err);

/* The CPU's "model name" in a /proc/cpuinfo-like file, or "unknown". */
void crafter_bench_cpu_name(const char *cpuinfo_path, char *out, size_t size);

/* One result as crafter-bench --format json writes it: {"sps",
 * "resets_per_s", "reset_us", "envs", "threads", "obs", "steps",
 * "seconds", "resets", "repeats", "bytes_per_env", "cpu", "kernels",
 * "players", "player_sps", "starts", "prepared_starts"}, with options.state
 * also "save_us", "restore_us" and "state_bytes"; the rates with 1
 * decimal, the microseconds with 2, seconds with 4. */
void crafter_bench_write_json(crafter_json_writer *json, const crafter_bench_options *options,
                              const crafter_bench_result *result, const char *cpu,
                              const char *kernels);

#endif
