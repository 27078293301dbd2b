/* crafter-score: success rates and Crafter scores from Crafter's stats.jsonl
 * logs, the run files of its analysis scripts and trajectory files.
 * Options are parsed here; the library (score) reads, computes, writes and
 * plots. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "levels.h"
#include "score.h"

#define PROGRAM "crafter-score"

static void usage(FILE *out) {
  fprintf(out,
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
          "\n"
          "  -m, --method=NAME   the method of stats.jsonl logs and trajectory files\n"
          "                      (default: as above)\n"
          "  -s, --seed=SEED     their seed (default: a trajectory's Env seed; for a\n"
          "                      log, the number of runs of its method read before it)\n"
          "  -B, --budget=STEPS  count only episodes that end within STEPS env steps\n"
          "                      (default 1000000)\n"
          "  -f, --format=KIND   table (default), json or csv\n"
          "  -p, --plot=FILE     also draw the success rates to FILE (.png or .svg) and\n"
          "                      the scores to FILE with -scores before the extension,\n"
          "                      with gnuplot; runs with goals add the goals met per\n"
          "                      family, difficulty and split (-goals), and\n"
          "                      --train-levels the scores on training and unseen\n"
          "                      levels (-levels)\n"
          "      --train-levels=N|FILE\n"
          "                      score the episodes of trajectory files on training\n"
          "                      levels apart from those on unseen ones: the levels\n"
          "                      K..K+N-1 of Env seed S, or those of the level file\n"
          "                      FILE (crafter-levels(5)); every other level is unseen\n"
          "      --train-seed=S  the Env seed S of --train-levels N (default 0)\n"
          "      --train-start=K\n"
          "                      the first level K of --train-levels N (default 1)\n"
          "  -h, --help          show this help and exit\n"
          "  -V, --version       show the version and exit\n"
          "\n"
          "Exit status: 0 on success, also when gnuplot is missing (the plot is then\n"
          "skipped with a message); 1 on bad input or a failed plot; 2 on bad options.\n"
          "See crafter-score(1).\n");
}

static void usage_error(const char *format, const char *argument) {
  crafter_usage_error(PROGRAM, format, argument);
}

/* Codes of the long options without a letter. */
enum { OPTION_TRAIN_LEVELS = 0x100, OPTION_TRAIN_SEED, OPTION_TRAIN_START };

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

int main(int argc, char **argv) {
  const char *train_levels = NULL, *train_seed = NULL, *train_start = NULL;
  crafter_score_request request;
  memset(&request, 0, sizeof(request));
  request.budget = 1e6;
  request.format = CRAFTER_SCORE_TABLE;
  static const struct option long_options[] = {
      {"method", required_argument, NULL, 'm'}, {"seed", required_argument, NULL, 's'},
      {"budget", required_argument, NULL, 'B'}, {"format", required_argument, NULL, 'f'},
      {"plot", required_argument, NULL, 'p'},   {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {"train-levels", required_argument, NULL, OPTION_TRAIN_LEVELS},
      {"train-seed", required_argument, NULL, OPTION_TRAIN_SEED},
      {"train-start", required_argument, NULL, OPTION_TRAIN_START},
      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "m:s:B:f:p:hV", long_options, NULL)) != -1) {
    switch (option) {
      case 'm':
        if (!*optarg) usage_error("%s", "the method name is empty");
        request.method = optarg;
        break;
      case 's':
        if (!*optarg) usage_error("%s", "the seed is empty");
        request.seed = optarg;
        break;
      case 'B': {
        /* A number, so the reference's 1e6 reads too. */
        char *end;
        request.budget = strtod(optarg, &end);
        if (end == optarg || *end || !isfinite(request.budget) || request.budget < 0)
          usage_error("invalid budget '%s' (expected a number of env steps)", optarg);
        break;
      }
      case 'f':
        if (strcmp(optarg, "table") == 0)
          request.format = CRAFTER_SCORE_TABLE;
        else if (strcmp(optarg, "json") == 0)
          request.format = CRAFTER_SCORE_JSON;
        else if (strcmp(optarg, "csv") == 0)
          request.format = CRAFTER_SCORE_CSV;
        else
          usage_error("invalid format '%s' (expected table, json or csv)", optarg);
        break;
      case 'p':
        if (crafter_score_plot_format(optarg) < 0)
          usage_error("invalid plot file '%s' (expected a name ending in .png or .svg)", optarg);
        request.plot = optarg;
        break;
      case OPTION_TRAIN_LEVELS:
        if (!*optarg) usage_error("%s", "the training levels are empty");
        train_levels = optarg;
        break;
      case OPTION_TRAIN_SEED: train_seed = optarg; break;
      case OPTION_TRAIN_START: train_start = optarg; break;
      case 'h': usage(stdout); return crafter_close_stdout(PROGRAM, 0);
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        return crafter_close_stdout(PROGRAM, 0);
      default: fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n"); return 2;
    }
  }
  training_levels(&request, train_levels, train_seed, train_start);
  request.files = (const char *const *)(argv + optind);
  request.file_count = (size_t)(argc - optind);
  return crafter_close_stdout(PROGRAM, crafter_score_main(PROGRAM, &request, stdout, stderr));
}
