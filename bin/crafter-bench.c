/* crafter-bench: how fast the engine runs: steps per second, resets per
 * second, the time of one reset, scaling over threads and envs.  Options
 * are parsed here; the library (bench) measures, prints, plots and
 * compares. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "envopts.h"
#include "outfile.h"
#include "proto.h"

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
          "  -w, --world=FILE     start every episode on the world in FILE\n"
          "                       (crafter-world(5)); its size is the area\n"
          "      --tasks=FILE     give every episode a goal from the task file FILE\n"
          "      --split=NAME --task=ID   the tasks drawn from, as crafter-step's\n"
          "      --record=FILE    record every episode in the trajectory file FILE\n"
          "                       (crafter-trajectory(5)): the figures include it\n"
          "      --players=P      P players share each world (1..16, default 1):\n"
          "                       steps/s counts world steps, player-steps/s P times\n"
          "                       as many\n"
          "      --state          also time saving and loading an env's state\n"
          "                       (crafter-state(5))\n"
          "  -t, --textures=DIR   textures for pixels (default: the folder\n"
          "                       $CRAFTER_TEXTURES names, else built-in)\n"
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
          "  save_us, restore_us  with --state: microseconds to save an env's state\n"
          "                into memory, and to load it back (medians of 2000 each,\n"
          "                after 300 steps); state_bytes, its size\n"
          "\n"
          "Reproduce a measurement by running the same command on an idle machine;\n"
          "compare two builds with --format json > old.json, then --compare old.json.\n"
          "See crafter-bench(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, crafter_bench_request *a) {
  memset(a, 0, sizeof(*a));
  crafter_params_default(&a->options.batch.params);
  a->options.batch.first_episode = 1;
  a->options.batch.envs = 1;
  crafter_level_options_init(&a->levels);
  crafter_task_options_init(&a->tasks);
  a->options.batch.threads = 1;
  a->options.steps = 1000000;
  a->options.repeats = 5;
  enum { OPT_SECONDS = 256, OPT_SWEEP, OPT_COMPARE, OPT_RECORD, OPT_PLAYERS, OPT_STATE };
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
      {"world", required_argument, NULL, 'w'},    {"record", required_argument, NULL, OPT_RECORD},
      {"players", required_argument, NULL, OPT_PLAYERS},
      {"state", no_argument, NULL, OPT_STATE},
      CRAFTER_OPTION_TASK_ENTRIES,
      {NULL, 0, NULL, 0},
  };
  int option;
  int64_t number;
  while ((option = getopt_long(argc, argv, "O:N:T:S:R:s:t:f:c:p:w:hV", long_options, NULL)) != -1) {
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
        break;
      case 't': a->textures_dir = optarg; break;
      case 'f':
        if (strcmp(optarg, "text") != 0 && strcmp(optarg, "json") != 0)
          usage_error("invalid format '%s' (expected text or json)", optarg);
        a->json = strcmp(optarg, "json") == 0;
        break;
      case OPT_SWEEP:
        if (strcmp(optarg, "threads") == 0)
          a->sweep = CRAFTER_BENCH_SWEEP_THREADS;
        else if (strcmp(optarg, "envs") == 0)
          a->sweep = CRAFTER_BENCH_SWEEP_ENVS;
        else
          usage_error("invalid sweep '%s' (expected threads or envs)", optarg);
        break;
      case 'p': a->plot_path = optarg; break;
      case OPT_COMPARE: a->compare_path = optarg; break;
      case 'c': a->config_path = optarg; break;
      case 'w': a->world_path = optarg; break;
      case OPT_RECORD: a->record_path = optarg; break;
      case OPT_PLAYERS: {
        int64_t players;
        if (crafter_parse_int64(optarg, 1, CRAFTER_PLAYERS_MAX, &players) < 0)
          usage_error("invalid number of players '%s' (expected 1..16)", optarg);
        a->options.batch.players = (int)players;
        break;
      }
      case OPT_STATE: a->options.state = 1; break;
      case 'h': usage(stdout); exit(crafter_close_stdout(PROGRAM, 0));
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        exit(crafter_close_stdout(PROGRAM, 0));
      default:
        if (option != 's' &&
            crafter_env_option(PROGRAM, option, optarg, &a->options.batch.params, &a->given))
          break;
        if (crafter_level_option(PROGRAM, option, optarg, &a->levels)) break;
        if (crafter_task_option(PROGRAM, option, optarg, &a->tasks)) break;
        fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n");
        exit(2);
    }
  }
  if (optind < argc) usage_error("unexpected argument '%s'", argv[optind]);
  if (a->plot_path && !a->sweep) usage_error("%s", "--plot needs --sweep");
  crafter_level_options_check(PROGRAM, &a->levels);
  crafter_task_options_check(PROGRAM, &a->tasks);
  if (crafter_level_options_wanted(&a->levels) && a->world_path)
    usage_error("%s", "--levels chooses each episode's world: not with --world");
  a->options.batch.level_order = a->levels.order;
}

int main(int argc, char **argv) {
  crafter_bench_request request;
  parse_options(argc, argv, &request);
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  return crafter_close_stdout(PROGRAM, crafter_bench_main(PROGRAM, &request, stdout, stderr));
}
