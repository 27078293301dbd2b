/* crafter-bench: how fast the engine runs: steps per second, resets per
 * second, the time of one reset, scaling over threads and envs.  Options
 * are parsed here; the library (bench) measures, prints, plots and
 * compares. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "game/games.h"
#include "run/envopts.h"
#include "run/proto.h"
#include "tools/bench.h"

#define PROGRAM "crafter-bench"

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

static void read_seconds(const crafter_opt_parser *parser, const crafter_opt *entry,
                         const char *argument) {
  crafter_bench_request *a = parser->own;
  char *end;
  a->seconds = strtod(argument, &end);
  if (*end || !(a->seconds > 0 && a->seconds < 86400))
    crafter_opt_fail(parser, entry, entry->invalid, argument);
}

#define OWN(field) .offset = offsetof(crafter_bench_request, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT("Usage: " PROGRAM " [OPTION]...\n"
                     "Measure how fast Crafter runs: random actions from a fixed seed, every\n"
                     "env resetting itself when its episode ends.\n"
                     "\n"),
    CRAFTER_SHARED(OBS, .help = "observation made every step: none (default),\n"
                                "semantic, symbolic or pixels",
                   .flags = CRAFTER_OPT_LIMITS, .minimum = CRAFTER_OBS_NONE,
                   .maximum = CRAFTER_OBS_SYMBOLIC,
                   .invalid = "invalid observation kind '%s' (expected none, semantic, symbolic "
                              "or pixels)"),
    CRAFTER_SHARED(ENVS, .help = "environments stepped together (default 1)",
                   .flags = CRAFTER_OPT_LIMITS, .minimum = 1, .maximum = 100000,
                   .invalid = "invalid number of envs '%s' (expected 1..100000)"),
    CRAFTER_SHARED(THREADS, .help = "worker threads (default 1)"),
    {.letter = 'S', .name = "steps", .argument = "S", .store = crafter_opt_int64, OWN(steps),
     .minimum = 1, .maximum = INT64_MAX / 2, .invalid = "invalid step count '%s'",
     .help = "env steps per repetition, all envs together\n"
             "(default 1000000)"},
    {.name = "seconds", .argument = "X", .store = read_seconds,
     .invalid = "invalid duration '%s' (expected seconds, more than 0)",
     .help = "time each repetition instead of counting steps"},
    {.letter = 'R', .name = "repeats", .argument = "R", .store = crafter_opt_int, OWN(repeats),
     .minimum = 1, .maximum = 63, .invalid = "invalid repeat count '%s' (expected 1..63)",
     .help = "timed repetitions; the median is reported (default 5)"},
    CRAFTER_SHARED(GAME),
    CRAFTER_SHARED(SEED, .help = "env seed (env i uses N+i) and action seed (default 0)",
                   .flags = CRAFTER_OPT_LIMITS, .minimum = 0, .maximum = INT32_MAX),
    CRAFTER_OPT_TEXT("      --area=W,H --view=W,H --size=W,H --length=L   env parameters\n"),
    CRAFTER_SHARED(AREA, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(VIEW, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(SIZE, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(LENGTH, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(LEVELS, .help = "episodes start on a level set (crafter-levels(5)):\n"
                                   "N levels of --seed made before timing, or a file"),
    CRAFTER_OPT_TEXT(
        "      --start-level=K --level-order=random|sequential   as crafter-step's\n"),
    CRAFTER_SHARED(START_LEVEL, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(LEVEL_ORDER, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(CONFIG, .help = "play by the configuration FILE (crafter-config(5));\n"
                                   "the options above override its env section"),
    CRAFTER_SHARED(WORLD, .help = "start every episode on the world in FILE\n"
                                  "(crafter-world(5)); its size is the area"),
    CRAFTER_SHARED(TASKS, .help = "give every episode a goal from the task file FILE"),
    CRAFTER_OPT_TEXT("      --split=NAME --task=ID   the tasks drawn from, as crafter-step's\n"),
    CRAFTER_SHARED(SPLIT, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(TASK, .flags = CRAFTER_OPT_HIDDEN),
    CRAFTER_SHARED(RECORD, .help = "record every episode in the trajectory file FILE\n"
                                   "(crafter-trajectory(5)): the figures include it",
                   .flags = CRAFTER_OPT_LIMITS), /* an empty name is the writer's to refuse */
    CRAFTER_SHARED(PLAYERS, .help = "P players share each world (1..16, default 1):\n"
                                    "steps/s counts world steps, player-steps/s P times\n"
                                    "as many"),
    {.name = "state", .store = crafter_opt_flag, OWN(state),
     .help = "also time saving and loading an env's state\n"
             "(crafter-state(5))"},
    CRAFTER_SHARED(TEXTURES, .help = "textures for pixels (default: the folder\n"
                                     "$CRAFTER_TEXTURES names, else built-in;\n"
                                     "craftax-classic: Craftax's assets folder,\n"
                                     "else built-in)"),
    {.letter = 'f', .name = "format", .argument = "F", .store = crafter_opt_keyword, OWN(json),
     .words = (const crafter_opt_word[]){{"text", 0}, {"json", 1}, {NULL}},
     .invalid = "invalid format '%s' (expected text or json)",
     .help = "text (default) or json"},
    {.name = "sweep", .argument = "WHAT", .store = crafter_opt_keyword, OWN(sweep),
     .words = (const crafter_opt_word[]){{"threads", CRAFTER_BENCH_SWEEP_THREADS},
                                         {"envs", CRAFTER_BENCH_SWEEP_ENVS}, {NULL}},
     .invalid = "invalid sweep '%s' (expected threads or envs)",
     .help = "threads: measure 1..T threads; envs: 1, 2, 4, .. N envs"},
    {.letter = 'p', .name = "plot", .argument = "FILE", .store = crafter_opt_string,
     OWN(plot_path),
     .help = "with --sweep, draw steps per second (PNG or SVG,\n"
             "needs gnuplot)"},
    {.name = "compare", .argument = "OLD", .store = crafter_opt_string, OWN(compare_path),
     .help = "print ratios against an earlier --format json result"},
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT(
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
        "See crafter-bench(1).\n"),
    CRAFTER_OPT_END,
};

/* The order getopt_long has always been given the long options in, which
 * is the order it lists an ambiguous abbreviation's candidates in. */
static const char *const getopt_order[] = {
    "obs",    "envs",        "threads",     "steps",    "seconds", "repeats", "seed",
    "area",   "view",        "size",        "length",   "levels",  "start-level",
    "level-order", "textures", "format",    "sweep",    "plot",    "compare", "help",
    "config", "version",     "world",       "record",   "players", "state",   "tasks",
    "split",  "task",        NULL,
};

static const crafter_opt_table table = {PROGRAM, 23, entries, getopt_order};

/* Parses the command line into *a, or exits: 0 after --help or
 * --version, 2 on a bad option. */
static void parse_options(int argc, char **argv, crafter_bench_request *a) {
  memset(a, 0, sizeof(*a));
  crafter_run *run = &a->run;
  crafter_run_init(run);
  run->threads = 1;
  a->steps = 1000000;
  a->repeats = 5;
  int operands = crafter_opt_parse(&table, argc, argv, run, a);
  if (operands < argc) usage_error("unexpected argument '%s'", argv[operands]);
  if (a->plot_path && !a->sweep) usage_error("%s", "--plot needs --sweep");
  crafter_game_options_check_allowing(PROGRAM, run,
                                      CRAFTER_GAME_ALLOW_PIXELS | CRAFTER_GAME_ALLOW_LEVELS);
  if (run->game != CRAFTER_GAME_CRAFTER && run->record_path) {
    char message[200];
    snprintf(message, sizeof(message),
             "--record with --game %s: crafter-bench records Crafter's episodes only "
             "(crafter-step --record and crafter-dataset record write %s's)",
             crafter_game_info_of(run->game)->name, crafter_game_info_of(run->game)->title);
    usage_error("%s", message);
  }
  crafter_level_options_check(PROGRAM, &run->levels);
  crafter_task_options_check(PROGRAM, &run->tasks);
  if (crafter_level_options_wanted(&run->levels) && run->world_path)
    usage_error("%s", "--levels chooses each episode's world: not with --world");
}

int main(int argc, char **argv) {
  crafter_bench_request request;
  parse_options(argc, argv, &request);
  /* A temporary being written goes when a signal ends the program. */
  crafter_outfile_remove_on_signals();
  return crafter_close_stdout(PROGRAM, crafter_bench_main(PROGRAM, &request, stdout, stderr));
}
