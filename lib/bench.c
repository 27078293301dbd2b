#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "config.h"
#include "kernels.h"
#include "levels.h"
#include "proto.h"
#include "textures.h"

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
  crafter_json_key(json, "obs");
  crafter_json_string(json, crafter_obs_kind_name(options->batch.obs_kind));
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
  crafter_json_end_object(json);
}

static void write_text_row(FILE *out, const crafter_bench_options *options,
                           const crafter_bench_result *result) {
  fprintf(out, "%-10s %5d %7d %14.0f %14.1f %11.1f %13zu\n",
          crafter_obs_kind_name(options->batch.obs_kind), result->envs, result->threads,
          result->steps_per_second, result->resets_per_second, result->reset_microseconds,
          result->bytes_per_env);
}

static void write_text_head(FILE *out) {
  fprintf(out, "%-10s %5s %7s %14s %14s %11s %13s\n", "obs", "envs", "threads", "steps/s",
          "resets/s", "reset us", "bytes/env");
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

/* A gnuplot single-quoted string: '' for a quote; a line break would end
 * the command, so control characters become '?'. */
static void write_gnuplot_string(FILE *out, const char *text) {
  fputc('\'', out);
  for (; *text; text++) {
    if (*text == '\'') fputc('\'', out);
    fputc((unsigned char)*text < 0x20 ? '?' : *text, out);
  }
  fputc('\'', out);
}

/* Steps per second against the swept value, through gnuplot; 0, or -1
 * after saying what went wrong. */
static int plot(const char *program, const char *path, const char *what, const double *x,
                const double *y, int count, FILE *err) {
  const char *dot = strrchr(path, '.');
  const char *terminal = dot && strcmp(dot, ".svg") == 0 ? "svg size 640,400"
                                                          : "pngcairo size 640,400";
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fprintf(err, "%s: gnuplot is not installed (Debian package gnuplot-nox); no plot\n", program);
    return -1;
  }
  fflush(NULL); /* our output first, then anything gnuplot says */
  FILE *pipe = popen("gnuplot", "w");
  if (!pipe) {
    fprintf(err, "%s: cannot run gnuplot: %s\n", program, strerror(errno));
    return -1;
  }
  fprintf(pipe, "set terminal %s\nset output ", terminal);
  write_gnuplot_string(pipe, path);
  fprintf(pipe, "\nset title 'Crafter steps per second by %s'\nset xlabel '%s'\n", what, what);
  fprintf(pipe, "set ylabel 'env steps per second'\nset grid\nset key off\nset yrange [0:*]\n");
  fprintf(pipe, "set logscale x 2\nplot '-' with linespoints lw 2 pt 7\n");
  for (int i = 0; i < count; i++) fprintf(pipe, "%g %g\n", x[i], y[i]);
  fprintf(pipe, "e\n");
  int status = pclose(pipe);
  if (status != 0) {
    fprintf(err, "%s: gnuplot failed to write %s\n", program, path);
    return -1;
  }
  return 0;
}

enum { MOST_POINTS = 32 };

/* The values a sweep measures (threads 1..T, or envs 1, 2, 4, .. N), or
 * the one point measured without a sweep; returns how many. */
static int sweep_points(const crafter_bench_request *request, int values[MOST_POINTS]) {
  values[0] = 0;
  int points = 0;
  switch (request->sweep) {
    case CRAFTER_BENCH_SWEEP_THREADS:
      for (int t = 1; t <= request->options.batch.threads && points < MOST_POINTS; t++)
        values[points++] = t;
      return points;
    case CRAFTER_BENCH_SWEEP_ENVS:
      for (int n = 1; n < request->options.batch.envs && points < MOST_POINTS - 1; n *= 2)
        values[points++] = n;
      values[points++] = request->options.batch.envs;
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
        write_text_head(out);
      }
      write_text_row(out, &run, &result);
    }
    fflush(out);
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
  crafter_bench_options options = request->options;
  crafter_config *config = NULL;
  crafter_textures textures;
  int have_textures = 0;
  crafter_level_set levels;
  memset(&levels, 0, sizeof(levels));
  int status = 0;
  if (request->config_path) {
    config = malloc(sizeof(*config));
    if (!config) {
      fprintf(err, "%s: out of memory\n", program);
      return 1;
    }
    crafter_config_default(config);
    if (crafter_config_load(request->config_path, config, error, sizeof(error)) < 0) {
      fprintf(err, "%s: %s\n", program, error);
      free(config);
      return 1;
    }
    crafter_params_take_unset(&options.batch.params, &config->params, request->given);
    options.action_seed = (uint64_t)options.batch.params.seed;
    options.batch.config = config;
  }
  if (crafter_params_check(&options.batch.params, error, sizeof(error)) < 0) {
    status = usage_failure(program, error, err);
    goto done;
  }
  if (options.batch.obs_kind == CRAFTER_OBS_PIXELS) {
    int loaded =
        request->textures_dir
            ? crafter_textures_load_dir(&textures, request->textures_dir, error, sizeof(error))
            : crafter_textures_load_builtin(&textures, error, sizeof(error));
    if (loaded < 0) {
      fprintf(err, "%s: %s\n", program, error);
      status = 2;
      goto done;
    }
    have_textures = 1;
    options.batch.textures = &textures;
  }
  if (crafter_level_options_wanted(&request->levels)) {
    int opened = crafter_level_options_open(&request->levels, &options.batch.params,
                                            request->given, options.batch.config, &levels, error,
                                            sizeof(error));
    if (opened != 0) {
      fprintf(err, "%s: %s\n", program, error);
      status = opened;
      goto done;
    }
    options.batch.levels = &levels;
  }
  options.batch.level_order = request->levels.order;
  double compare_old[3];
  if (request->compare_path && compare_load(program, request->compare_path, compare_old, err) < 0)
    status = 1;
  else
    status = measure(program, request, &options, compare_old, out, err);
done:
  if (have_textures) crafter_textures_free(&textures);
  crafter_levels_free(&levels);
  free(config);
  return status;
}
