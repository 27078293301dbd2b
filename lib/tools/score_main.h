/* score_main: crafter-score, the program, once its command line is read:
 * reads the files, scores the runs and writes and draws the results
 * (score.h, score_report.h, score_plot.h). */
#ifndef CRAFTER_SCORE_MAIN_H
#define CRAFTER_SCORE_MAIN_H

#include <stddef.h>
#include <stdio.h>

#include "tools/score.h"

/* What crafter-score does, for its main() to call once it has read the
 * command line. */

enum crafter_score_format { CRAFTER_SCORE_TABLE = 0, CRAFTER_SCORE_JSON, CRAFTER_SCORE_CSV };

typedef struct crafter_score_request {
  const char *const *files; /* paths, "-" for standard input */
  size_t file_count;        /* 0: standard input */
  const char *method;       /* --method, or NULL */
  const char *seed;         /* --seed, or NULL */
  double budget;            /* env steps */
  int format;               /* enum crafter_score_format */
  const char *plot;         /* a .png or .svg to draw to, or NULL */
  /* The training levels: levels.count of them from levels.first of Env
   * seed levels.seed; or, with levels_file, those of a level file
   * (crafter-levels(5)), whose seed and first level must then be
   * levels.seed and levels.first where seed_given and first_given say
   * the user gave them. */
  crafter_score_levels levels;
  const char *levels_file;
  int seed_given, first_given;
  int llm; /* also BALROG's progression and SmartPlay's score (score.h) */
} crafter_score_request;

/* Reads the training levels, then every file in turn (stopping at the
 * first that cannot be read, notes of damage on `err`), scores the runs,
 * warns of mixed methods on `err`, writes the result on `out` in the
 * format asked (the table followed by the runs) and draws the plots.
 * Failures are said on `err` as "program: what went wrong"; a missing
 * gnuplot is said and skipped.  Returns the exit status: 0; 1 on bad
 * input or a failed plot; 2 when a level file contradicts the options. */
int crafter_score_main(const char *program, const crafter_score_request *request, FILE *out,
                       FILE *err);

#endif
