/* crafter-score: success rates and Crafter scores from Crafter's stats.jsonl
 * logs and the run files of its analysis scripts.  Options are parsed
 * here; the library reads, computes, writes and plots. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
          "                      family, difficulty and split (-goals)\n"
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

enum { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV };

int main(int argc, char **argv) {
  const char *method = NULL, *seed = NULL, *plot = NULL;
  double budget = 1e6;
  int format = FORMAT_TABLE;
  static const struct option long_options[] = {
      {"method", required_argument, NULL, 'm'}, {"seed", required_argument, NULL, 's'},
      {"budget", required_argument, NULL, 'B'}, {"format", required_argument, NULL, 'f'},
      {"plot", required_argument, NULL, 'p'},   {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0},
  };
  int option;
  while ((option = getopt_long(argc, argv, "m:s:B:f:p:hV", long_options, NULL)) != -1) {
    switch (option) {
      case 'm':
        if (!*optarg) usage_error("%s", "the method name is empty");
        method = optarg;
        break;
      case 's':
        if (!*optarg) usage_error("%s", "the seed is empty");
        seed = optarg;
        break;
      case 'B': {
        /* A number, so the reference's 1e6 reads too. */
        char *end;
        budget = strtod(optarg, &end);
        if (end == optarg || *end || !isfinite(budget) || budget < 0)
          usage_error("invalid budget '%s' (expected a number of env steps)", optarg);
        break;
      }
      case 'f':
        if (strcmp(optarg, "table") == 0)
          format = FORMAT_TABLE;
        else if (strcmp(optarg, "json") == 0)
          format = FORMAT_JSON;
        else if (strcmp(optarg, "csv") == 0)
          format = FORMAT_CSV;
        else
          usage_error("invalid format '%s' (expected table, json or csv)", optarg);
        break;
      case 'p':
        if (crafter_score_plot_format(optarg) < 0)
          usage_error("invalid plot file '%s' (expected a name ending in .png or .svg)", optarg);
        plot = optarg;
        break;
      case 'h': usage(stdout); return crafter_close_stdout(PROGRAM, 0);
      case 'V':
        printf(PROGRAM " (Crafter toolkit) " CRAFTER_VERSION "\n");
        return crafter_close_stdout(PROGRAM, 0);
      default: fprintf(stderr, "Try '" PROGRAM " --help' for more information.\n"); return 2;
    }
  }

  crafter_score_set set;
  crafter_score_set_init(&set, budget);
  char error[1024];
  int status = 0;
  char *stdin_only[] = {"-"};
  char **files = optind < argc ? argv + optind : stdin_only;
  int file_count = optind < argc ? argc - optind : 1;
  for (int i = 0; i < file_count && status == 0; i++)
    if (crafter_score_read_file(&set, files[i], method, seed, error, sizeof(error)) < 0) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
    } else if (set.note[0]) {
      fprintf(stderr, PROGRAM ": note: %s\n", set.note);
    }
  size_t count = 0;
  crafter_score_method *methods = status ? NULL : crafter_score_summarize(&set, &count);
  if (status == 0 && !methods) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    status = 1;
  }
  if (status == 0) {
    crafter_score_write_warnings(stderr, PROGRAM, &set);
    if (format == FORMAT_JSON)
      crafter_score_write_json(stdout, methods, count, &set);
    else if (format == FORMAT_CSV)
      crafter_score_write_csv(stdout, methods, count);
    else {
      crafter_score_write_table(stdout, methods, count);
      crafter_score_write_runs(stdout, &set);
    }
  }
  if (status == 0 && plot) {
    int plotted = crafter_score_plot(plot, methods, count, error, sizeof(error));
    if (plotted == CRAFTER_PLOT_NO_GNUPLOT)
      fprintf(stderr, PROGRAM ": gnuplot is not installed (or not on PATH); no plot drawn\n");
    else if (plotted != CRAFTER_PLOT_OK) {
      fprintf(stderr, PROGRAM ": %s\n", error);
      status = 1;
    }
  }
  free(methods);
  crafter_score_set_free(&set);
  return crafter_close_stdout(PROGRAM, status);
}
