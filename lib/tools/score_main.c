#include "tools/score_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/errors.h"
#include "tools/score_plot.h"
#include "tools/score_report.h"

/* The training levels the request names: its own, or a level file's,
 * checked against the seed and first level given with it.  Returns 0, or
 * the exit status after saying what is wrong. */
static int training_levels(const char *program, const crafter_score_request *request,
                           crafter_score_levels *training, FILE *err) {
  *training = request->levels;
  if (!request->levels_file) return 0;
  crafter_score_levels file;
  char error[512];
  if (crafter_score_levels_of_file(&file, request->levels_file, error, sizeof(error)) < 0) {
    fprintf(err, "%s: %s\n", program, error);
    return 1;
  }
  char shown[300];
  crafter_escape(shown, sizeof(shown), request->levels_file, strlen(request->levels_file));
  if (request->seed_given && request->levels.seed != file.seed) {
    fprintf(err, "%s: %s holds levels of seed %lld, not of --train-seed %lld\n", program, shown,
            (long long)file.seed, (long long)request->levels.seed);
    return 2;
  }
  if (request->first_given && request->levels.first != file.first) {
    fprintf(err, "%s: %s starts at level %lld, not at --train-start %lld\n", program, shown,
            (long long)file.first, (long long)request->levels.first);
    return 2;
  }
  *training = file;
  return 0;
}

int crafter_score_main(const char *program, const crafter_score_request *request, FILE *out,
                       FILE *err) {
  crafter_score_set set;
  crafter_score_set_init(&set, request->budget);
  set.llm = request->llm;
  int status = training_levels(program, request, &set.train_levels, err);
  if (status != 0) return status;
  char error[1024];
  static const char *const standard_input[] = {"-"};
  const char *const *files = request->file_count ? request->files : standard_input;
  size_t file_count = request->file_count ? request->file_count : 1;
  for (size_t i = 0; i < file_count && status == 0; i++)
    if (crafter_score_read_file(&set, files[i], request->method, request->seed, error,
                                sizeof(error)) < 0) {
      fprintf(err, "%s: %s\n", program, error);
      status = 1;
    } else if (set.note[0]) {
      fprintf(err, "%s: note: %s\n", program, set.note);
    }
  size_t count = 0;
  crafter_score_method *methods = status ? NULL : crafter_score_summarize(&set, &count);
  if (status == 0 && !methods) {
    fprintf(err, "%s: out of memory\n", program);
    status = 1;
  }
  if (status == 0) {
    crafter_score_write_warnings(err, program, &set);
    if (request->format == CRAFTER_SCORE_JSON)
      crafter_score_write_json(out, methods, count, &set);
    else if (request->format == CRAFTER_SCORE_CSV)
      crafter_score_write_csv(out, methods, count);
    else {
      crafter_score_write_table(out, methods, count);
      crafter_score_write_runs(out, &set);
    }
  }
  if (status == 0 && request->plot) {
    int plotted = crafter_score_plot(request->plot, methods, count, error, sizeof(error));
    if (plotted == CRAFTER_PLOT_NO_GNUPLOT)
      fprintf(err, "%s: gnuplot is not installed (or not on PATH); no plot drawn\n", program);
    else if (plotted != CRAFTER_PLOT_OK) {
      fprintf(err, "%s: %s\n", program, error);
      status = 1;
    }
  }
  free(methods);
  crafter_score_set_free(&set);
  return status;
}
