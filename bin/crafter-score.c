/* crafter-score: success rates and Crafter scores from Crafter's stats.jsonl
 * logs, the run files of its analysis scripts and trajectory files.
 * Options are parsed here; the library (score) reads, computes, writes and
 * plots. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "run/envopts.h"
#include "run/levels.h"
#include "tools/score_main.h"
#include "tools/score_plot.h"

#define PROGRAM "crafter-score"

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

/* The training levels the options name into the request: --train-levels
 * N with --train-seed and --train-start, or a level file's, whose seed
 * and first level those two must then match (the library checks that
 * once it reads the file).  Exits with status 2 on options that
 * contradict each other. */
static void training_levels(crafter_score_request *request, const char *levels, const char *seed,
                            const char *start) {
  crafter_score_levels training = {0, 1, 0};
  request->levels = training;
  if (!levels) {
    if (seed || start) usage_error("%s", "--train-seed and --train-start need --train-levels");
    return;
  }
  if (seed)
    training.seed =
        crafter_option_int64(PROGRAM, "training seed", seed, CRAFTER_SEED_MIN, CRAFTER_SEED_MAX);
  if (start)
    training.first =
        crafter_option_int64(PROGRAM, "first training level", start, 1, CRAFTER_EPISODE_MAX);
  /* Digits only are a count, as crafter-step's --levels reads them. */
  if (strspn(levels, "0123456789") == strlen(levels)) {
    training.count =
        crafter_option_int64(PROGRAM, "number of training levels", levels, 1, CRAFTER_LEVELS_MAX);
    if (training.first > (int64_t)CRAFTER_EPISODE_MAX - (training.count - 1))
      usage_error("%s", "--train-start and --train-levels go past episode 2**31-1");
  } else {
    request->levels_file = levels;
    request->seed_given = seed != NULL;
    request->first_given = start != NULL;
  }
  request->levels = training;
}

/* What the command line says: the request, and the training levels as
 * given (training_levels reads them into the request). */
typedef struct arguments {
  crafter_score_request request;
  const char *train_levels, *train_seed, *train_start;
} arguments;

static void read_budget(const crafter_opt_parser *parser, const crafter_opt *entry,
                        const char *argument) {
  arguments *a = parser->own;
  /* A number, so the reference's 1e6 reads too. */
  char *end;
  a->request.budget = strtod(argument, &end);
  if (end == argument || *end || !isfinite(a->request.budget) || a->request.budget < 0)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
}

static void read_plot(const crafter_opt_parser *parser, const crafter_opt *entry,
                      const char *argument) {
  arguments *a = parser->own;
  if (crafter_score_plot_format(argument) < 0)
    crafter_opt_fail(parser, entry, entry->invalid, argument);
  a->request.plot = argument;
}

#define OWN(field) .offset = offsetof(arguments, field)

static const crafter_opt entries[] = {
    CRAFTER_OPT_TEXT(
        "Usage: " PROGRAM " [OPTION]... [FILE]...\n"
        "Print the success rate of every achievement and the Crafter score of each\n"
        "method, as the Crafter paper computes them.  A FILE is a stats.jsonl log of\n"
        "Crafter's Recorder (one episode per line; the file is one run), a run file\n"
        "of Crafter's analysis scripts (a JSON list of runs), or a trajectory file\n"
        "(crafter-trajectory(5), one run); the content tells which.\n"
        "With no FILE, or when FILE is -, read standard input.\n"
        "\n"
        "Runs are grouped into methods by what the files record: a run file's\n"
        "\"method\", a trajectory file's agent; a stats.jsonl log records none and\n"
        "takes the name of its directory.  The table and JSON list each run's file,\n"
        "method and seed; a method whose files record different agents or env\n"
        "parameters is warned of.  The deviation of a single seed shows as n/a.\n"
        "\n"),
    {.letter = 'm', .name = "method", .argument = "NAME", .store = crafter_opt_string,
     OWN(request.method), .invalid = "the method name is empty",
     .help = "the method of stats.jsonl logs and trajectory files\n"
             "(default: as above)"},
    {.letter = 's', .name = "seed", .argument = "SEED", .store = crafter_opt_string,
     OWN(request.seed), .invalid = "the seed is empty",
     .help = "their seed (default: a trajectory's Env seed; for a\n"
             "log, the number of runs of its method read before it)"},
    {.letter = 'B', .name = "budget", .argument = "STEPS", .store = read_budget,
     .invalid = "invalid budget '%s' (expected a number of env steps)",
     .help = "count only episodes that end within STEPS env steps\n"
             "(default 1000000)"},
    {.letter = 'f', .name = "format", .argument = "KIND", .store = crafter_opt_keyword,
     OWN(request.format),
     .words = (const crafter_opt_word[]){{"table", CRAFTER_SCORE_TABLE},
                                         {"json", CRAFTER_SCORE_JSON},
                                         {"csv", CRAFTER_SCORE_CSV}, {NULL}},
     .invalid = "invalid format '%s' (expected table, json or csv)",
     .help = "table (default), json or csv"},
    {.letter = 'p', .name = "plot", .argument = "FILE", .store = read_plot,
     .invalid = "invalid plot file '%s' (expected a name ending in .png or .svg)",
     .help = "also draw the success rates to FILE (.png or .svg) and\n"
             "the scores to FILE with -scores before the extension,\n"
             "with gnuplot; runs with goals add the goals met per\n"
             "family, difficulty and split (-goals), and\n"
             "--train-levels the scores on training and unseen\n"
             "levels (-levels)"},
    {.name = "llm", .store = crafter_opt_flag, OWN(request.llm),
     .help = "also what language-model suites report: BALROG's\n"
             "progression with its standard error, and SmartPlay's\n"
             "score and normalised score (reading every step of\n"
             "trajectory files)"},
    {.name = "train-levels", .argument = "N|FILE", .store = crafter_opt_string,
     OWN(train_levels), .invalid = "the training levels are empty",
     .help = "score the episodes of trajectory files on training\n"
             "levels apart from those on unseen ones: the levels\n"
             "K..K+N-1 of Env seed S, or those of the level file\n"
             "FILE (crafter-levels(5)); every other level is unseen"},
    {.name = "train-seed", .argument = "S", .store = crafter_opt_string, OWN(train_seed),
     .help = "the Env seed S of --train-levels N (default 0)"},
    {.name = "train-start", .argument = "K", .store = crafter_opt_string, OWN(train_start),
     .help = "the first level K of --train-levels N (default 1)"},
    CRAFTER_SHARED(HELP),
    CRAFTER_SHARED(VERSION),
    CRAFTER_OPT_TEXT(
        "\n"
        "Exit status: 0 on success, also when gnuplot is missing (the plot is then\n"
        "skipped with a message); 1 on bad input or a failed plot; 2 on bad options.\n"
        "See crafter-score(1).\n"),
    CRAFTER_OPT_END,
};

static const crafter_opt_table table = {PROGRAM, 22, entries, NULL};

int main(int argc, char **argv) {
  static arguments a;
  crafter_score_request *request = &a.request;
  request->budget = 1e6;
  request->format = CRAFTER_SCORE_TABLE;
  int operands = crafter_opt_parse(&table, argc, argv, NULL, &a);
  training_levels(request, a.train_levels, a.train_seed, a.train_start);
  request->files = (const char *const *)(argv + operands);
  request->file_count = (size_t)(argc - operands);
  return crafter_close_stdout(PROGRAM, crafter_score_main(PROGRAM, request, stdout, stderr));
}
