/* score_plot: crafter-score's plots, drawn by gnuplot: the ability
 * spectrum, the scores, and the goals and levels when there are some. */
#ifndef CRAFTER_SCORE_PLOT_H
#define CRAFTER_SCORE_PLOT_H

#include <stddef.h>

#include "tools/score.h"

enum { CRAFTER_PLOT_OK = 0, CRAFTER_PLOT_FAILED = -1, CRAFTER_PLOT_NO_GNUPLOT = 1 };

/* Draws with gnuplot (base/gnuplot): the ability spectrum (success
 * rate per achievement on a log axis, one bar per method in each group) to
 * `path`, and the scores with their standard deviations as error bars to
 * the same name with "-scores" before the extension (and the goals and
 * levels plots below when the methods have goals or split levels).  The extension picks
 * the format: .png or .svg.  Returns CRAFTER_PLOT_OK, CRAFTER_PLOT_FAILED
 * with a message, or CRAFTER_PLOT_NO_GNUPLOT when gnuplot cannot be run. */
int crafter_score_plot(const char *path, const crafter_score_method *methods, size_t count,
                       char *error, size_t error_size);

enum { CRAFTER_PLOT_PNG = 0, CRAFTER_PLOT_SVG = 1 };

/* The format a plot path asks for by its extension (.png or .svg, in any
 * case), -1 for any other. */
int crafter_score_plot_format(const char *path);

/* The second plot's path for `path`: "-scores" before the extension
 * (runs.png gives runs-scores.png); malloc'ed, NULL if out of memory. */
char *crafter_score_plot_scores_path(const char *path);

/* The third plot's, drawn when runs have goals: the goals met per family,
 * difficulty and split, one bar per method: "-goals" before the
 * extension. */
char *crafter_score_plot_goals_path(const char *path);

/* The fourth plot's, drawn when the set splits levels: each method's
 * score on training and on unseen levels side by side: "-levels" before
 * the extension. */
char *crafter_score_plot_levels_path(const char *path);

#endif
