#include "tools/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cli.h"
#include "base/errors.h"
#include "base/gnuplot.h"
#include "game/games.h"
#include "run/jbatch.h"
#include "game/config.h"
#include "game/tasks.h"
#include "kernels/kernels.h"
#include "run/levels.h"
#include "run/proto.h"
#include "run/traj_writer.h"
#include "view/textures.h"

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

/* With --record: the episodes that end go to the writer. */
typedef struct recording {
  crafter_traj_writer *writer;
  int failed;
  char error[300];
} recording;

static void store(recording *r, crafter_episode *episode) {
  if (r->failed) return;
  if (crafter_episode_store(episode, r->writer, r->error, sizeof(r->error)) < 0)
    r->failed = 1;
}

static int store_left(void *context, int i, crafter_episode *episode, int finished) {
  (void)i;
  if (finished || crafter_episode_unfinished(episode)) store(context, episode);
  return 1;
}

typedef struct buffers {
  uint8_t *actions, *started;
  crafter_step_outcome *records;
} buffers;

/* Steps every env with random actions for `steps` env steps (or
 * `seconds`); 0, or -1 with a reason when an episode could not start or
 * be recorded. */
static int timed_run(crafter_batch *batch, int envs, long steps, double seconds,
                     uint64_t *random_state, buffers *b, recording *r, run *measured,
                     char *error, size_t error_size) {
  *measured = (run){0, 0, 0};
  double start = crafter_now();
  int players = crafter_batch_players(batch);
  for (;;) {
    draw_actions(random_state, b->actions, envs * players);
    crafter_batch_advance(batch, b->actions, b->records, b->started, r ? store_left : NULL, r);
    measured->steps += envs;
    for (int i = 0; i < envs; i++) measured->resets += b->started[i];
    if (seconds > 0) {
      if ((measured->steps / envs) % 64 == 0 && crafter_now() - start >= seconds) break;
    } else if (measured->steps >= steps) {
      break;
    }
  }
  measured->seconds = crafter_now() - start;
  const char *failure = crafter_batch_failure(batch);
  if (failure) return crafter_fail(error, error_size, "%s", failure);
  if (r && r->failed) return crafter_fail(error, error_size, "%s", r->error);
  return 0;
}

static int compare_doubles(const void *left, const void *right) {
  double a = *(const double *)left, b = *(const double *)right;
  return (a > b) - (a < b);
}

/* Median time of one reset on its own: repetitions of a batch of starts
 * of one runner playing by the same options (a fresh world, a level
 * copied, a world file, a goal drawn), with no observation. */
static double time_resets(const crafter_batch_options *run_options, int repeats, char *error,
                          size_t error_size) {
  crafter_batch_options options = *run_options;
  options.envs = 1;
  options.threads = 1;
  options.episode.obs_kind = CRAFTER_OBS_NONE;
  options.episode.textures = NULL;
  options.episode.recording = NULL;
  crafter_batch *batch = crafter_batch_new(&options, error, error_size);
  if (!batch) return -1;
  const int RESETS = options.episode.levels || options.episode.world ? 2000 : 20;
  double *times = malloc(sizeof(double) * (size_t)repeats);
  if (!times) {
    crafter_batch_free(batch);
    crafter_fail(error, error_size, "out of memory");
    return -1;
  }
  uint8_t which = 1;
  crafter_batch_start(batch, &which); /* warm-up */
  for (int r = 0; r < repeats; r++) {
    double start = crafter_now();
    for (int i = 0; i < RESETS; i++) crafter_batch_start(batch, &which);
    times[r] = (crafter_now() - start) / RESETS;
  }
  qsort(times, (size_t)repeats, sizeof(double), compare_doubles);
  double median = times[repeats / 2];
  free(times);
  const char *failure = crafter_batch_failure(batch);
  if (failure) crafter_fail(error, error_size, "%s", failure);
  crafter_batch_free(batch);
  return failure ? -1 : median * 1e6;
}

/* Median times of one save and one load of an env's state (state.h):
 * one runner playing by the run's options and observation kind, after
 * 300 random steps, its state saved into memory and loaded back,
 * repetitions of 2000 each.  0, or -1 with a reason. */
static int time_states(const crafter_bench_options *run_options, int repeats,
                       crafter_bench_result *result, char *error, size_t error_size) {
  crafter_batch_options options = run_options->batch;
  options.envs = 1;
  options.threads = 1;
  options.episode.recording = NULL;
  crafter_batch *batch = crafter_batch_new(&options, error, error_size);
  if (!batch) return -1;
  enum { WARM_STEPS = 300, STATES = 2000 };
  uint64_t random_state = run_options->action_seed * 2 + 1;
  uint8_t actions[CRAFTER_PLAYERS_MAX];
  crafter_step_result results[CRAFTER_PLAYERS_MAX];
  int players = crafter_batch_players(batch);
  for (int t = 0; t < WARM_STEPS; t++) {
    draw_actions(&random_state, actions, players);
    crafter_batch_step(batch, actions, results, NULL);
  }
  size_t size = crafter_batch_save_state(batch, 0, NULL, 0);
  uint8_t *state = malloc(size);
  double *times = malloc(2 * sizeof(double) * (size_t)repeats);
  int status = 0;
  if (!state || !times) status = crafter_fail(error, error_size, "out of memory");
  for (int r = 0; r < repeats && status == 0; r++) {
    double start = crafter_now();
    for (int k = 0; k < STATES; k++) crafter_batch_save_state(batch, 0, state, size);
    double saved = crafter_now();
    for (int k = 0; k < STATES && status == 0; k++)
      status = crafter_batch_load_state(batch, 0, state, size, error, error_size);
    times[r] = (saved - start) / STATES;
    times[repeats + r] = (crafter_now() - saved) / STATES;
  }
  if (status == 0) {
    qsort(times, (size_t)repeats, sizeof(double), compare_doubles);
    qsort(times + repeats, (size_t)repeats, sizeof(double), compare_doubles);
    result->save_microseconds = times[repeats / 2] * 1e6;
    result->restore_microseconds = times[repeats + repeats / 2] * 1e6;
    result->state_bytes = size;
  }
  free(state);
  free(times);
  crafter_batch_free(batch);
  return status;
}

/* crafter_bench_run for a JAX game: its batch (run/jbatch.h) with
 * the same random actions, repetitions and median; a reset is the next
 * episode's world made from the schedule's key. */
static int jgame_bench_run(const crafter_bench_options *options, crafter_bench_result *result,
                        char *error, size_t error_size) {
  int envs = options->batch.envs;
  int repeats = options->repeats > 0 ? options->repeats : 1;
  const crafter_jgame *g = crafter_jgame_of(options->game);
  crafter_jbatch_options batch_options = {
      .game = g,
      .obs_kind = options->batch.episode.obs_kind,
      .envs = envs,
      .threads = options->batch.threads,
      .seed = options->seed,
      .first_episode = 1,
      .symbolic = options->batch.episode.obs_kind == CRAFTER_OBS_SYMBOLIC,
      .levels = options->jlevels,
      .level_order = options->level_order,
      .pixels = options->batch.episode.obs_kind == CRAFTER_OBS_PIXELS ? options->jtextures : NULL,
  };
  crafter_jbatch *batch = crafter_jbatch_new(&batch_options, error, error_size);
  if (!batch) return -1;
  uint8_t *actions = malloc((size_t)envs), *started = malloc((size_t)envs);
  crafter_jgame_outcome *outcomes = malloc(sizeof *outcomes * (size_t)envs);
  run *runs = malloc(sizeof(run) * (size_t)repeats);
  double *rates = malloc(sizeof(double) * (size_t)repeats);
  int status = 0;
  if (!actions || !started || !outcomes || !runs || !rates)
    status = crafter_fail(error, error_size, "out of memory");
  uint64_t random_state = options->action_seed * 2 + 1;
  long warm_steps = options->steps / 10 > envs ? options->steps / 10 : envs;
  for (int k = -1; k < repeats && status == 0; k++) {
    run measured = {0, 0, 0};
    long steps = k < 0 ? warm_steps : options->steps;
    double seconds = options->seconds > 0 ? (k < 0 ? options->seconds / 10 : options->seconds) : 0;
    double start = crafter_now();
    for (;;) {
      draw_actions(&random_state, actions, envs);
      if (crafter_jbatch_step(batch, actions, outcomes, started) != 0) {
        status = crafter_fail(error, error_size, "out of memory");
        break;
      }
      measured.steps += envs;
      for (int i = 0; i < envs; i++) measured.resets += started[i];
      if (seconds > 0) {
        if ((measured.steps / envs) % 64 == 0 && crafter_now() - start >= seconds) break;
      } else if (measured.steps >= steps) {
        break;
      }
    }
    measured.seconds = crafter_now() - start;
    if (k >= 0) {
      runs[k] = measured;
      rates[k] = measured.steps / measured.seconds;
    }
  }
  if (status == 0) {
    double sorted[64];
    int counted = repeats < 64 ? repeats : 64;
    memcpy(sorted, rates, sizeof(double) * (size_t)counted);
    qsort(sorted, (size_t)counted, sizeof(double), compare_doubles);
    int chosen = 0;
    for (int k = 0; k < repeats; k++)
      if (rates[k] == sorted[counted / 2]) chosen = k;
    result->steps_per_second = sorted[counted / 2];
    result->steps = runs[chosen].steps;
    result->resets = runs[chosen].resets;
    result->seconds = runs[chosen].seconds;
    result->resets_per_second = runs[chosen].resets / runs[chosen].seconds;
    result->bytes_per_env = g->env_size + crafter_jbatch_obs_bytes(batch);
    result->envs = envs;
    result->players = 1;
    result->threads = options->batch.threads < envs ? options->batch.threads : envs;
    /* Resets on their own: the world of the next episode, 200 a repetition,
     * or with levels a level's state copied, 2000 a repetition. */
    void *env = crafter_jbatch_env(batch, 0);
    const crafter_jlevel_set *levels = options->jlevels;
    int resets = levels ? 2000 : 200;
    for (int k = 0; k < repeats && status == 0; k++) {
      double begin = crafter_now();
      for (int r = 0; r < resets && status == 0; r++)
        if (levels)
          crafter_jlevels_start(env, levels, r % levels->count);
        else if (g->restart(env) != 0)
          status = crafter_fail(error, error_size, "out of memory");
      rates[k] = (crafter_now() - begin) / resets;
    }
    qsort(rates, (size_t)repeats, sizeof(double), compare_doubles);
    result->reset_microseconds = rates[repeats / 2] * 1e6;
    result->starts = envs + (int64_t)result->resets;
  }
  crafter_jbatch_free(batch);
  free(actions), free(started), free(outcomes), free(runs), free(rates);
  return status < 0 ? -1 : 0;
}

int crafter_bench_run(const crafter_bench_options *options, crafter_bench_result *result,
                      char *error, size_t error_size) {
  memset(result, 0, sizeof(*result));
  if (crafter_jgame_of(options->game)) return jgame_bench_run(options, result, error, error_size);
  int envs = options->batch.envs;
  int repeats = options->repeats > 0 ? options->repeats : 1;
  crafter_batch *batch = crafter_batch_new(&options->batch, error, error_size);
  if (!batch) return -1;
  size_t agents = (size_t)envs * (size_t)crafter_batch_players(batch);
  buffers b = {malloc(agents), malloc((size_t)envs), malloc(sizeof(crafter_step_outcome) * agents)};
  run *runs = malloc(sizeof(run) * (size_t)repeats);
  double *rates = malloc(sizeof(double) * (size_t)repeats);
  int status = 0;
  if (!b.actions || !b.started || !b.records || !runs || !rates) {
    status = crafter_fail(error, error_size, "out of memory");
    goto done;
  }
  recording record = {options->writer, 0, ""};
  recording *r = options->writer ? &record : NULL;
  uint64_t random_state = options->action_seed * 2 + 1;
  /* Warm-up: a tenth of a repetition, at least one step of every env. */
  long warm_steps = options->steps / 10 > envs ? options->steps / 10 : envs;
  run warm;
  status = timed_run(batch, envs, warm_steps, options->seconds > 0 ? options->seconds / 10 : 0,
                     &random_state, &b, r, &warm, error, error_size);
  for (int k = 0; k < repeats && status == 0; k++) {
    status = timed_run(batch, envs, options->steps, options->seconds, &random_state, &b, r,
                       &runs[k], error, error_size);
    rates[k] = runs[k].steps / runs[k].seconds;
  }
  if (r) { /* the episodes under way are kept, cut */
    for (int i = 0; i < envs; i++)
      if (crafter_episode_unfinished(crafter_batch_episode(batch, i)))
        store(r, crafter_batch_episode(batch, i));
    if (status == 0 && r->failed) status = crafter_fail(error, error_size, "%s", r->error);
  }
  if (status < 0) goto done;
  /* Report the repetition with the median rate. */
  double sorted[64];
  int counted = repeats < 64 ? repeats : 64;
  memcpy(sorted, rates, sizeof(double) * (size_t)counted);
  qsort(sorted, (size_t)counted, sizeof(double), compare_doubles);
  double median = sorted[counted / 2];
  int chosen = 0;
  for (int k = 0; k < repeats; k++)
    if (rates[k] == median) chosen = k;
  result->steps_per_second = median;
  result->steps = runs[chosen].steps;
  result->resets = runs[chosen].resets;
  result->seconds = runs[chosen].seconds;
  result->resets_per_second = runs[chosen].resets / runs[chosen].seconds;
  result->bytes_per_env = crafter_batch_bytes_per_env(batch);
  result->envs = envs;
  result->players = crafter_batch_players(batch);
  result->starts = crafter_batch_starts(batch, &result->prepared_starts);
  result->threads = options->batch.threads < envs ? options->batch.threads : envs;
done:
  crafter_batch_free(batch);
  free(b.actions), free(b.started), free(b.records), free(runs), free(rates);
  if (status < 0) return -1;
  result->reset_microseconds = time_resets(&options->batch, repeats, error, error_size);
  if (result->reset_microseconds < 0) return -1;
  return options->state ? time_states(options, repeats, result, error, error_size) : 0;
}

/* ---- crafter-bench ---- */

void crafter_bench_cpu_name(const char *cpuinfo_path, char *out, size_t size) {
  snprintf(out, size, "unknown");
  FILE *info = fopen(cpuinfo_path, "r");
  if (!info) return;
  char line[512];
  while (fgets(line, sizeof(line), info)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    char *colon = strchr(line, ':');
    if (!colon) break;
    colon += colon[1] == ' ' ? 2 : 1;
    colon[strcspn(colon, "\n")] = '\0';
    snprintf(out, size, "%s", colon);
    break;
  }
  fclose(info);
}

void crafter_bench_write_json(crafter_json_writer *json, const crafter_bench_options *options,
                              const crafter_bench_result *result, const char *cpu,
                              const char *kernels) {
  crafter_json_begin_object(json);
  crafter_json_key(json, "sps");
  crafter_json_fixed(json, result->steps_per_second, 1);
  crafter_json_key(json, "resets_per_s");
  crafter_json_fixed(json, result->resets_per_second, 1);
  crafter_json_key(json, "reset_us");
  crafter_json_fixed(json, result->reset_microseconds, 2);
  crafter_json_key(json, "envs");
  crafter_json_int(json, result->envs);
  crafter_json_key(json, "threads");
  crafter_json_int(json, result->threads);
  if (options->game != CRAFTER_GAME_CRAFTER) { /* Crafter's results stay as they were */
    crafter_json_key(json, "game");
    crafter_json_string(json, crafter_game_info_of(options->game)->name);
  }
  crafter_json_key(json, "obs");
  crafter_json_string(json, crafter_obs_kind_name(options->batch.episode.obs_kind));
  crafter_json_key(json, "steps");
  crafter_json_int(json, result->steps);
  crafter_json_key(json, "seconds");
  crafter_json_fixed(json, result->seconds, 4);
  crafter_json_key(json, "resets");
  crafter_json_int(json, result->resets);
  crafter_json_key(json, "repeats");
  crafter_json_int(json, options->repeats);
  crafter_json_key(json, "bytes_per_env");
  crafter_json_uint(json, result->bytes_per_env);
  crafter_json_key(json, "cpu");
  crafter_json_string(json, cpu);
  crafter_json_key(json, "kernels");
  crafter_json_string(json, kernels);
  crafter_json_key(json, "players");
  crafter_json_int(json, result->players);
  crafter_json_key(json, "player_sps");
  crafter_json_fixed(json, result->steps_per_second * result->players, 1);
  crafter_json_key(json, "starts");
  crafter_json_int(json, result->starts);
  crafter_json_key(json, "prepared_starts");
  crafter_json_int(json, result->prepared_starts);
  if (options->state) {
    crafter_json_key(json, "save_us");
    crafter_json_fixed(json, result->save_microseconds, 2);
    crafter_json_key(json, "restore_us");
    crafter_json_fixed(json, result->restore_microseconds, 2);
    crafter_json_key(json, "state_bytes");
    crafter_json_uint(json, result->state_bytes);
  }
  crafter_json_end_object(json);
}

/* With several players a world, two more columns: the players, and the
 * player-steps a second (steps/s counts world steps). */
static void write_text_row(FILE *out, const crafter_bench_options *options,
                           const crafter_bench_result *result) {
  fprintf(out, "%-10s %5d %7d %14.0f %14.1f %11.1f %13zu",
          crafter_obs_kind_name(options->batch.episode.obs_kind), result->envs, result->threads,
          result->steps_per_second, result->resets_per_second, result->reset_microseconds,
          result->bytes_per_env);
  if (result->players > 1)
    fprintf(out, " %7d %15.0f", result->players, result->steps_per_second * result->players);
  if (options->state)
    fprintf(out, " %9.2f %10.2f %11zu", result->save_microseconds, result->restore_microseconds,
            result->state_bytes);
  fprintf(out, "\n");
}

static void write_text_head(FILE *out, int players, int state) {
  fprintf(out, "%-10s %5s %7s %14s %14s %11s %13s", "obs", "envs", "threads", "steps/s",
          "resets/s", "reset us", "bytes/env");
  if (players > 1) fprintf(out, " %7s %15s", "players", "player-steps/s");
  if (state) fprintf(out, " %9s %10s %11s", "save us", "restore us", "state bytes");
  fprintf(out, "\n");
}

static const char *const compare_keys[3] = {"sps", "resets_per_s", "reset_us"};

/* Reads the figures of an earlier --format json result (a result, or the
 * first of a sweep's); 0, or -1 after saying what is wrong. */
static int compare_load(const char *program, const char *path, double old[3], FILE *err) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(err, "%s: %s: %s\n", program, path, strerror(errno));
    return -1;
  }
  char text[65536];
  size_t length = fread(text, 1, sizeof(text), file);
  fclose(file);
  crafter_json_document document;
  char error[200];
  if (crafter_json_parse(&document, text, length, error, sizeof(error)) < 0) {
    fprintf(err, "%s: %s: %s\n", program, path, error);
    return -1;
  }
  const crafter_json *root = &document.root;
  if (root->type == CRAFTER_JSON_OBJECT && crafter_json_get(root, "results")) {
    const crafter_json *results = crafter_json_get(root, "results");
    root = results->type == CRAFTER_JSON_ARRAY && results->length ? &results->items[0] : NULL;
  }
  int status = 0;
  for (int i = 0; i < 3; i++) {
    const crafter_json *value = crafter_json_get(root, compare_keys[i]);
    if (!value || value->type != CRAFTER_JSON_NUMBER || value->number <= 0) {
      fprintf(err, "%s: %s: no positive number for \"%s\"\n", program, path, compare_keys[i]);
      status = -1;
      continue;
    }
    old[i] = value->number;
  }
  crafter_json_free(&document);
  return status;
}

static void compare_print(FILE *out, const double old[3], const crafter_bench_result *result) {
  double now[3] = {result->steps_per_second, result->resets_per_second,
                   result->reset_microseconds};
  fprintf(out, "%-14s %14s %14s %8s\n", "figure", "old", "new", "new/old");
  for (int i = 0; i < 3; i++)
    fprintf(out, "%-14s %14.1f %14.1f %8.3f\n", compare_keys[i], old[i], now[i], now[i] / old[i]);
}

/* Steps per second against the swept value, through gnuplot; 0, or -1
 * after saying what went wrong. */
static int plot(const char *program, const char *path, const char *what, const double *x,
                const double *y, int count, FILE *err) {
  const char *dot = strrchr(path, '.');
  const char *terminal = dot && strcmp(dot, ".svg") == 0 ? "svg size 640,400"
                                                          : "pngcairo size 640,400";
  char error[4200];
  crafter_gnuplot plot;
  if (crafter_gnuplot_open(&plot, "crafter-bench", error, sizeof(error)) < 0) {
    fprintf(err, "%s: %s\n", program, error);
    return -1;
  }
  FILE *script = plot.script;
  fprintf(script, "set terminal %s\nset output ", terminal);
  crafter_gnuplot_string(script, path);
  fprintf(script, "\nset title 'Crafter steps per second by %s'\nset xlabel '%s'\n", what, what);
  fprintf(script, "set ylabel 'env steps per second'\nset grid\nset key off\nset yrange [0:*]\n");
  fprintf(script, "set logscale x 2\nplot '-' with linespoints lw 2 pt 7\n");
  for (int i = 0; i < count; i++) fprintf(script, "%g %g\n", x[i], y[i]);
  fprintf(script, "e\n");
  switch (crafter_gnuplot_run(&plot, error, sizeof(error))) {
    case CRAFTER_GNUPLOT_OK: return 0;
    case CRAFTER_GNUPLOT_MISSING:
      fprintf(err, "%s: gnuplot is not installed (Debian package gnuplot-nox); no plot\n",
              program);
      return -1;
    case CRAFTER_GNUPLOT_REFUSED:
      fprintf(err, "%s: gnuplot failed to write %s\n", program, path);
      return -1;
    default: fprintf(err, "%s: %s\n", program, error); return -1;
  }
}

enum { MOST_POINTS = 32 };

/* The values a sweep measures (threads 1..T, or envs 1, 2, 4, .. N), or
 * the one point measured without a sweep; returns how many. */
static int sweep_points(const crafter_bench_request *request, int values[MOST_POINTS]) {
  values[0] = 0;
  int points = 0;
  switch (request->sweep) {
    case CRAFTER_BENCH_SWEEP_THREADS:
      for (int t = 1; t <= request->run.threads && points < MOST_POINTS; t++)
        values[points++] = t;
      return points;
    case CRAFTER_BENCH_SWEEP_ENVS:
      for (int n = 1; n < request->run.envs && points < MOST_POINTS - 1; n *= 2)
        values[points++] = n;
      values[points++] = request->run.envs;
      return points;
    default: return 1;
  }
}

static const char *sweep_name(int sweep) {
  return sweep == CRAFTER_BENCH_SWEEP_THREADS ? "threads"
         : sweep == CRAFTER_BENCH_SWEEP_ENVS  ? "envs"
                                              : "none";
}

/* Measures every point and prints it, then plots and compares; 0, or 1
 * after saying what failed. */
static int measure(const char *program, const crafter_bench_request *request,
                   const crafter_bench_options *options, const double *compare_old, FILE *out,
                   FILE *err) {
  char error[512], cpu[256];
  crafter_bench_cpu_name("/proc/cpuinfo", cpu, sizeof(cpu));
  int sweep = request->sweep;
  int values[MOST_POINTS];
  int points = sweep_points(request, values);
  double xs[MOST_POINTS], ys[MOST_POINTS];
  crafter_bench_result first = {0};
  int status = 0;
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  if (request->json && sweep) {
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "sweep");
    crafter_json_string(&json, sweep_name(sweep));
    crafter_json_key(&json, "results");
    crafter_json_begin_array(&json);
  }
  for (int p = 0; p < points; p++) {
    crafter_bench_options run = *options;
    if (sweep == CRAFTER_BENCH_SWEEP_THREADS) run.batch.threads = values[p];
    if (sweep == CRAFTER_BENCH_SWEEP_ENVS) run.batch.envs = values[p];
    crafter_bench_result result;
    if (crafter_bench_run(&run, &result, error, sizeof(error)) < 0) {
      fprintf(err, "%s: %s\n", program, error);
      status = 1;
      break;
    }
    if (p == 0) first = result;
    xs[p] = values[p];
    ys[p] = result.steps_per_second;
    if (request->json) {
      crafter_bench_write_json(&json, &run, &result, cpu, crafter_kernels_name());
      if (!sweep) crafter_json_newline(&json);
      crafter_json_writer_flush(&json);
    } else {
      if (p == 0) {
        fprintf(out, "cpu: %s, kernels: %s\n", cpu, crafter_kernels_name());
        write_text_head(out, run.batch.episode.players, run.state);
      }
      write_text_row(out, &run, &result);
    }
    errno = 0;
    if (fflush(out) != 0 || ferror(out)) { /* said now, while errno knows why */
      fprintf(err, "%s: write error: %s\n", program, strerror(errno ? errno : EIO));
      status = 1;
      break;
    }
  }
  if (request->json && sweep) {
    /* A failed point ends the list where it stands: the text stays JSON. */
    crafter_json_end_array(&json);
    crafter_json_end_object(&json);
    crafter_json_newline(&json);
  }
  if (status == 0 && request->plot_path &&
      plot(program, request->plot_path, sweep_name(sweep), xs, ys, points, err) < 0)
    status = 1;
  if (status == 0 && request->compare_path) compare_print(out, compare_old, &first);
  return status;
}

/* A usage error found once the files are read: said as crafter_usage_error
 * says it, but returned rather than exited. */
static int usage_failure(const char *program, const char *message, FILE *err) {
  char shown[1024];
  fprintf(err, "%s: %s\nTry '%s --help' for more information.\n", program,
          crafter_escape(shown, sizeof(shown), message, strlen(message)), program);
  return 2;
}

int crafter_bench_main(const char *program, const crafter_bench_request *request, FILE *out,
                       FILE *err) {
  char error[512];
  crafter_run run = request->run;
  crafter_bench_options options;
  memset(&options, 0, sizeof(options));
  options.steps = (long)request->steps;
  options.seconds = request->seconds;
  options.repeats = request->repeats;
  options.state = request->state;
  crafter_textures textures;
  int have_textures = 0;
  crafter_traj_header header;
  options.game = run.game;
  options.seed = run.params.seed;
  const crafter_jgame *jgame = crafter_jgame_of(run.game);
  if (jgame) {
    if (request->state) {
      fprintf(err, "%s: --state: saving and loading states of %s is not measured yet\n", program,
              crafter_game_info_of(run.game)->title);
      crafter_run_free(&run);
      return 2;
    }
    int opened = crafter_run_open_levels(&run, error, sizeof(error));
    if (opened != 0) {
      fprintf(err, "%s: %s\n", program, error);
      crafter_run_free(&run);
      return opened;
    }
    options.seed = run.params.seed; /* a level file's */
    options.action_seed = (uint64_t)run.params.seed;
    options.batch.envs = run.envs;
    options.batch.threads = run.threads;
    options.batch.episode.obs_kind = run.obs_kind;
    options.jlevels = run.jlevel_set;
    options.level_order = run.levels.order;
    void *cc_textures = NULL;
    if (run.obs_kind == CRAFTER_OBS_PIXELS) { /* the reference's assets folder, or the built-in */
      cc_textures = malloc(jgame->textures_size);
      int loaded = !cc_textures ? crafter_fail(error, sizeof(error), "out of memory")
                   : run.textures
                       ? jgame->textures_load(cc_textures, run.textures, error, sizeof(error))
                       : jgame->textures_builtin(cc_textures, error, sizeof(error));
      if (loaded < 0) {
        fprintf(err, "%s: %s%s\n", program, run.textures ? "--textures: " : "", error);
        free(cc_textures);
        crafter_run_free(&run);
        return 1;
      }
      options.jtextures = cc_textures;
    }
    double compare_old[3];
    int status = request->compare_path &&
                         compare_load(program, request->compare_path, compare_old, err) < 0
                     ? 1
                     : measure(program, request, &options, compare_old, out, err);
    free(cc_textures);
    crafter_run_free(&run);
    return status;
  }
  int status = crafter_run_open_rules(&run, error, sizeof(error));
  if (status != 0) {
    fprintf(err, "%s: %s\n", program, error);
    goto done;
  }
  options.action_seed = (uint64_t)run.params.seed;
  if (crafter_params_check(&run.params, error, sizeof(error)) < 0) {
    status = usage_failure(program, error, err);
    goto done;
  }
  status = crafter_run_open_tasks(&run, error, sizeof(error));
  if (status != 0) {
    fprintf(err, "%s: %s\n", program, error);
    goto done;
  }
  if (run.obs_kind == CRAFTER_OBS_PIXELS) {
    int loaded = crafter_textures_load(&textures, run.textures, error, sizeof(error));
    if (loaded < 0) {
      fprintf(err, "%s: %s\n", program, error);
      status = 2;
      goto done;
    }
    have_textures = 1;
  }
  status = crafter_run_open_levels(&run, error, sizeof(error));
  if (status != 0) {
    fprintf(err, "%s: %s\n", program, error);
    goto done;
  }
  double compare_old[3];
  if (request->compare_path && compare_load(program, request->compare_path, compare_old, err) < 0) {
    status = 1;
    goto done;
  }
  if (run.record_path) {
    crafter_run_header(&run, "random", have_textures ? &textures : NULL, &header);
    options.writer = crafter_traj_writer_create(run.record_path, &header, error, sizeof(error));
    if (!options.writer) {
      fprintf(err, "%s: %s\n", program, error);
      status = 1;
      goto done;
    }
  }
  crafter_run_episode_options(&run, have_textures ? &textures : NULL,
                              run.record_path ? &header : NULL, &options.batch.episode);
  options.batch.envs = run.envs;
  options.batch.threads = run.threads;
  status = measure(program, request, &options, compare_old, out, err);
  if (options.writer && crafter_traj_writer_close(options.writer, error, sizeof(error)) < 0) {
    fprintf(err, "%s: %s\n", program, error);
    status = 1;
  }
done:
  if (have_textures) crafter_textures_fini(&textures);
  crafter_run_free(&run);
  return status;
}
