/* crafter-bench: how fast the engine runs: steps per second, resets per
 * second, the time of one reset, scaling over threads and envs. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "envopts.h"
#include "json.h"
#include "kernels.h"
#include "proto.h"
#include "textures.h"

#define PROGRAM "crafter-bench"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: " PROGRAM " [OPTION]...\n"
          "Measure how fast Crafter runs: random actions from a fixed seed, every\n"
          "env resetting itself when its episode ends.\n"
          "\n"
          "  -O, --obs=KIND       observation made every step: none (default),\n"
          "                       semantic, symbolic or pixels\n"
          "  -N, --envs=N         environments stepped together (default 1)\n"
          "  -T, --threads=T      worker threads (default 1)\n"
          "  -S, --steps=S        env steps per repetition, all envs together\n"
          "                       (default 1000000)\n"
          "      --seconds=X      time each repetition instead of counting steps\n"
          "  -R, --repeats=R      timed repetitions; the median is reported (default 5)\n"
          "  -s, --seed=N         env seed (env i uses N+i) and action seed (default 0)\n"
          "      --area=W,H --view=W,H --size=W,H --length=L   env parameters\n"
          "      --levels=N|FILE  episodes start on a level set (crafter-levels(5)):\n"
          "                       N levels of --seed made before timing, or a file\n"
          "      --start-level=K --level-order=random|sequential   as crafter-step's\n"
          "  -c, --config=FILE    play by the configuration FILE (crafter-config(5));\n"
          "                       the options above override its env section\n"
          "  -t, --textures=DIR   textures for pixels (default: built-in)\n"
          "  -f, --format=F       text (default) or json\n"
          "      --sweep=WHAT     threads: measure 1..T threads; envs: 1, 2, 4, .. N envs\n"
          "  -p, --plot=FILE      with --sweep, draw steps per second (PNG or SVG,\n"
          "                       needs gnuplot)\n"
          "      --compare=OLD    print ratios against an earlier --format json result\n"
          "  -h, --help           show this help and exit\n"
          "  -V, --version        show the version and exit\n"
          "\n"
          "Figures:\n"
          "  sps           env steps per second over all envs (median repetition)\n"
          "  resets_per_s  episodes ended, and worlds generated, per second in that run\n"
          "  reset_us      microseconds for one reset on its own, the median of\n"
          "                repetitions of 20 world generations, or with --levels\n"
          "                of 2000 copies of levels' start states\n"
          "  bytes_per_env state held per environment\n"
          "\n"
          "Reproduce a measurement by running the same command on an idle machine;\n"
          "compare two builds with --format json > old.json, then --compare old.json.\n"
          "See crafter-bench(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

static void cpu_name(char *out, size_t size) {
  snprintf(out, size, "unknown");
  FILE *info = fopen("/proc/cpuinfo", "r");
  if (!info) return;
  char line[512];
  while (fgets(line, sizeof(line), info)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    char *colon = strchr(line, ':');
    if (!colon) break;
    colon += 2;
    colon[strcspn(colon, "\n")] = '\0';
    snprintf(out, size, "%s", colon);
    break;
  }
  fclose(info);
}

static void print_json(FILE *out, const crafter_bench_options *options,
                       const crafter_bench_result *result, const char *cpu) {
  fprintf(out,
          "{\"sps\": %.1f, \"resets_per_s\": %.1f, \"reset_us\": %.2f, \"envs\": %d, "
          "\"threads\": %d, \"obs\": \"%s\", \"steps\": %ld, \"seconds\": %.4f, "
          "\"resets\": %ld, \"repeats\": %d, \"bytes_per_env\": %zu, \"cpu\": \"%s\", "
          "\"kernels\": \"%s\"}",
          result->steps_per_second, result->resets_per_second, result->reset_microseconds,
          result->envs, result->threads, crafter_obs_kind_name(options->batch.obs_kind),
          result->steps, result->seconds, result->resets, options->repeats,
          result->bytes_per_env, cpu, crafter_kernels_name());
}

static void print_text(const crafter_bench_options *options, const crafter_bench_result *result) {
  printf("%-10s %5s %7s %14s %14s %11s %13s\n", "obs", "envs", "threads", "steps/s",
         "resets/s", "reset us", "bytes/env");
  printf("%-10s %5d %7d %14.0f %14.1f %11.1f %13zu\n",
         crafter_obs_kind_name(options->batch.obs_kind), result->envs, result->threads,
         result->steps_per_second, result->resets_per_second, result->reset_microseconds,
         result->bytes_per_env);
}

static const char *const compare_keys[3] = {"sps", "resets_per_s", "reset_us"};

/* Reads the figures of an earlier --format json result, before anything is
 * measured, so that a bad file costs no benchmark. */
static int compare_load(const char *path, double old[3]) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, PROGRAM ": %s: %s\n", path, strerror(errno));
    return -1;
  }
  char text[65536];
  size_t length = fread(text, 1, sizeof(text), file);
  fclose(file);
  crafter_json_document document;
  char error[200];
  if (crafter_json_parse(&document, text, length, error, sizeof(error)) < 0) {
    fprintf(stderr, PROGRAM ": %s: %s\n", path, error);
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
      fprintf(stderr, PROGRAM ": %s: no positive number for \"%s\"\n", path, compare_keys[i]);
      status = -1;
      continue;
    }
    old[i] = value->number;
  }
  crafter_json_free(&document);
  return status;
}

static void compare_print(const double old[3], const crafter_bench_result *result) {
  double now[3] = {result->steps_per_second, result->resets_per_second,
                   result->reset_microseconds};
  printf("%-14s %14s %14s %8s\n", "figure", "old", "new", "new/old");
  for (int i = 0; i < 3; i++)
    printf("%-14s %14.1f %14.1f %8.3f\n", compare_keys[i], old[i], now[i], now[i] / old[i]);
}

static int plot(const char *path, const char *what, const double *x, const double *y, int count) {
  const char *dot = strrchr(path, '.');
  const char *terminal = dot && strcmp(dot, ".svg") == 0 ? "svg size 640,400"
                                                          : "pngcairo size 640,400";
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    fprintf(stderr, PROGRAM ": gnuplot is not installed (Debian package gnuplot-nox); no plot\n");
    return -1;
  }
  FILE *pipe = popen("gnuplot", "w");
  if (!pipe) {
    perror("gnuplot");
    return -1;
  }
  fprintf(pipe, "set terminal %s\nset output '%s'\n", terminal, path);
  fprintf(pipe, "set title 'Crafter steps per second by %s'\nset xlabel '%s'\n", what, what);
  fprintf(pipe, "set ylabel 'env steps per second'\nset grid\nset key off\nset yrange [0:*]\n");
  fprintf(pipe, "set logscale x 2\nplot '-' with linespoints lw 2 pt 7\n");
  for (int i = 0; i < count; i++) fprintf(pipe, "%g %g\n", x[i], y[i]);
  fprintf(pipe, "e\n");
  int status = pclose(pipe);
  if (status != 0) {
    fprintf(stderr, PROGRAM ": gnuplot failed to write %s\n", path);
    return -1;
  }
  return 0;
}

/* What the command line asks for. */
typedef struct arguments {
  crafter_bench_options options;
  unsigned given; /* enum crafter_given: env parameters that rule over --config */
  const char *textures_dir, *format, *sweep, *plot_path, *compare, *config_path;
  crafter_level_options levels;
} arguments;

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, arguments *a) {
  memset(a, 0, sizeof(*a));
  crafter_params_default(&a->options.batch.params);
  a->options.batch.first_episode = 1;
  a->options.batch.envs = 1;
  crafter_level_options_init(&a->levels);
  a->options.batch.threads = 1;
  a->options.steps = 1000000;
  a->options.repeats = 5;
  a->format = "text";
  enum { OPT_SECONDS = 256, OPT_SWEEP, OPT_COMPARE };
  static const struct option long_options[] = {
      {"obs", required_argument, NULL, 'O'},      {"envs", required_argument, NULL, 'N'},
      {"threads", required_argument, NULL, 'T'},  {"steps", required_argument, NULL, 'S'},
      {"seconds", required_argument, NULL, OPT_SECONDS},
      {"repeats", required_argument, NULL, 'R'},  {"seed", required_argument, NULL, 's'},
      CRAFTER_OPTION_AREA_ENTRY, CRAFTER_OPTION_VIEW_ENTRY,
      CRAFTER_OPTION_SIZE_ENTRY, CRAFTER_OPTION_LENGTH_ENTRY,
      CRAFTER_OPTION_LEVEL_ENTRIES,
      {"textures", required_argument, NULL, 't'}, {"format", required_argument, NULL, 'f'},
      {"sweep", required_argument, NULL, OPT_SWEEP}, {"plot", required_argument, NULL, 'p'},
      {"compare", required_argument, NULL, OPT_COMPARE}, {"help", no_argument, NULL, 'h'},
      {"config", required_argument, NULL, 'c'}, {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0},
  };
  int option;
  int64_t number;
  while ((option = getopt_long(argc, argv, "O:N:T:S:R:s:t:f:c:p:hV", long_options, NULL)) != -1) {
    switch (option) {
      case 'O':
        a->options.batch.obs_kind = crafter_obs_kind_from_name(optarg);
        if (a->options.batch.obs_kind < 0 || a->options.batch.obs_kind == CRAFTER_OBS_TEXT)
          usage_error("invalid observation kind '%s' (expected none, semantic, symbolic or "
                      "pixels)",
                      optarg);
        break;
      case 'N':
        if (crafter_parse_int64(optarg, 1, 100000, &number) < 0)
          usage_error("invalid number of envs '%s' (expected 1..100000)", optarg);
        a->options.batch.envs = (int)number;
        break;
      case 'T':
        if (crafter_parse_int64(optarg, 1, 1024, &number) < 0)
          usage_error("invalid number of threads '%s' (expected 1..1024)", optarg);
        a->options.batch.threads = (int)number;
        break;
      case 'S':
        if (crafter_parse_int64(optarg, 1, INT64_MAX / 2, &number) < 0)
          usage_error("invalid step count '%s'", optarg);
        a->options.steps = (long)number;
        break;
      case OPT_SECONDS: {
        char *end;
        a->options.seconds = strtod(optarg, &end);
        if (*end || !(a->options.seconds > 0 && a->options.seconds < 86400))
          usage_error("invalid duration '%s' (expected seconds, more than 0)", optarg);
        break;
      }
      case 'R':
        if (crafter_parse_int64(optarg, 1, 63, &number) < 0)
          usage_error("invalid repeat count '%s' (expected 1..63)", optarg);
        a->options.repeats = (int)number;
        break;
      case 's':
        a->options.batch.params.seed = crafter_option_int64(PROGRAM, "seed", optarg, 0, INT32_MAX);
        a->options.action_seed = (uint64_t)a->options.batch.params.seed;
        a->given |= CRAFTER_GIVEN_SEED;
        a->given |= CRAFTER_GIVEN_SEED;
        break;
      case 't': a->textures_dir = optarg; break;
      case 'f':
        if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0)
          usage_error("invalid format '%s' (expected text or json)", optarg);
        a->format = optarg;
        break;
      case OPT_SWEEP:
        if (strcmp(optarg, "threads") != 0 && strcmp(optarg, "envs") != 0)
          usage_error("invalid sweep '%s' (expected threads or envs)", optarg);
        a->sweep = optarg;
        break;
      case 'p': a->plot_path = optarg; break;
      case OPT_COMPARE: a->compare = optarg; break;
      case 'c': a->config_path = optarg; break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (option != 's' &&
            crafter_env_option(PROGRAM, option, optarg, &a->options.batch.params, &a->given))
          break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (a->plot_path && !a->sweep) usage_error("%s", "--plot needs --sweep");
  crafter_level_options_check(PROGRAM, &a->levels);
  a->options.batch.level_order = a->levels.order;
}

/* The values a sweep measures (threads 1..T, or envs 1, 2, 4, .. N), or
 * the one point measured without --sweep; returns how many. */
static int sweep_points(const arguments *a, int values[32]) {
  values[0] = 0;
  if (!a->sweep) return 1;
  int points = 0;
  if (strcmp(a->sweep, "threads") == 0) {
    for (int t = 1; t <= a->options.batch.threads && points < 32; t++) values[points++] = t;
  } else {
    for (int n = 1; n < a->options.batch.envs && points < 31; n *= 2) values[points++] = n;
    values[points++] = a->options.batch.envs;
  }
  return points;
}

/* Measures every point and prints it; 0, or 1 after saying what failed. */
static int measure(const arguments *a, const double *compare_old) {
  char error[512], cpu[256];
  cpu_name(cpu, sizeof(cpu));
  int json = strcmp(a->format, "json") == 0;
  const char *sweep = a->sweep;
  int values[32];
  int points = sweep_points(a, values);
  double xs[32], ys[32];
  crafter_bench_result first = {0};
  int status = 0;
  if (json && sweep) printf("{\"sweep\": \"%s\", \"results\": [", sweep);
  for (int p = 0; p < points; p++) {
    crafter_bench_options run = a->options;
    if (sweep && strcmp(sweep, "threads") == 0) run.batch.threads = values[p];
    if (sweep && strcmp(sweep, "envs") == 0) run.batch.envs = values[p];
    crafter_bench_result result;
    if (crafter_bench_run(&run, &result, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
      break;
    }
    if (p == 0) first = result;
    xs[p] = values[p];
    ys[p] = result.steps_per_second;
    if (json) {
      if (p) printf(", ");
      print_json(stdout, &run, &result, cpu);
      if (!sweep) printf("\n");
    } else {
      if (p == 0) printf("cpu: %s, kernels: %s\n", cpu, crafter_kernels_name());
      if (p == 0 || !sweep)
        print_text(&run, &result);
      else
        printf("%-10s %5d %7d %14.0f %14.1f %11.1f %13zu\n",
               crafter_obs_kind_name(run.batch.obs_kind), result.envs, result.threads,
               result.steps_per_second, result.resets_per_second, result.reset_microseconds,
               result.bytes_per_env);
    }
    fflush(stdout);
  }
  if (json && sweep) printf("]}\n");
  if (status == 0 && a->plot_path && plot(a->plot_path, sweep, xs, ys, points) < 0) status = 1;
  if (status == 0 && a->compare) compare_print(compare_old, &first);
  return status;
}

static int run(arguments *a) {
  char error[512];
  static crafter_config config;
  crafter_bench_options *options = &a->options;
  if (a->config_path) {
    crafter_config_default(&config);
    if (crafter_config_load(a->config_path, &config, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 1;
    }
    crafter_params_take_unset(&options->batch.params, &config.params, a->given);
    options->action_seed = (uint64_t)options->batch.params.seed;
    options->batch.config = &config;
  }
  if (crafter_params_check(&options->batch.params, error, sizeof(error)) < 0)
    usage_error("%s", error);
  crafter_textures textures;
  int have_textures = 0;
  if (options->batch.obs_kind == CRAFTER_OBS_PIXELS) {
    int status = a->textures_dir
                     ? crafter_textures_load_dir(&textures, a->textures_dir, error, sizeof(error))
                     : crafter_textures_load_builtin(&textures, error, sizeof(error));
    if (status < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      return 2;
    }
    have_textures = 1;
    options->batch.textures = &textures;
  }
  crafter_level_set levels;
  memset(&levels, 0, sizeof(levels));
  if (crafter_level_options_wanted(&a->levels)) {
    int opened = crafter_level_options_open(&a->levels, &options->batch.params, a->given,
                                            options->batch.config, &levels, error, sizeof(error));
    if (opened != 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      if (have_textures) crafter_textures_free(&textures);
      return opened;
    }
    options->batch.levels = &levels;
  }
  double compare_old[3];
  int status = a->compare && compare_load(a->compare, compare_old) < 0 ? 1 : measure(a, compare_old);
  if (have_textures) crafter_textures_free(&textures);
  crafter_levels_free(&levels);
  return crafter_close_stdout(PROGRAM, status);
}

int main(int argc, char **argv) {
  static arguments a;
  parse_options(argc, argv, &a);
  return run(&a);
}
