#include "tools/score_plot.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/gnuplot.h"
#include "base/json.h"

#define ACHIEVEMENTS CRAFTER_ACHIEVEMENT_COUNT

int crafter_score_plot_format(const char *path) {
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/') || strlen(dot) != 4) return -1;
  char extension[4];
  for (int i = 0; i < 3; i++) extension[i] = (char)tolower((unsigned char)dot[i + 1]);
  extension[3] = '\0';
  if (strcmp(extension, "png") == 0) return CRAFTER_PLOT_PNG;
  if (strcmp(extension, "svg") == 0) return CRAFTER_PLOT_SVG;
  return -1;
}

/* `path` with `suffix` before its extension; malloc'ed. */
static char *suffixed_path(const char *path, const char *suffix) {
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) dot = path + strlen(path);
  size_t stem = (size_t)(dot - path);
  char *named = malloc(strlen(path) + strlen(suffix) + 1);
  if (named) sprintf(named, "%.*s%s%s", (int)stem, path, suffix, dot);
  return named;
}

char *crafter_score_plot_scores_path(const char *path) { return suffixed_path(path, "-scores"); }

char *crafter_score_plot_goals_path(const char *path) { return suffixed_path(path, "-goals"); }

char *crafter_score_plot_levels_path(const char *path) { return suffixed_path(path, "-levels"); }

static void write_gnuplot_number(FILE *out, double value) {
  char text[40];
  if (!isfinite(value))
    fputs("NaN", out); /* gnuplot reads it as a missing point */
  else {
    crafter_json_format_double(text, value);
    fputs(text, out);
  }
}

/* The palette of the reference's plots. */
static const char *const plot_colors[] = {"#377eb8", "#5fc35d", "#984ea3", "#bf3217",
                                          "#de9f42", "#6a554d", "#cccccc"};
#define PLOT_COLORS (sizeof(plot_colors) / sizeof(plot_colors[0]))

static void write_terminal(FILE *out, int format, int width, int height) {
  /* noenhanced: names like unsup_rnd would otherwise show subscripts. */
  if (format == CRAFTER_PLOT_SVG)
    fprintf(out, "set terminal svg noenhanced size %d,%d font 'sans,12' background rgb 'white'\n",
            width, height);
  else
    fprintf(out,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "  set terminal pngcairo noenhanced size %d,%d font 'sans,10'\n"
            "} else {\n"
            "  set terminal png noenhanced size %d,%d\n"
            "}\n",
            width, height, width, height);
}

/* Bars of `data` (column 1 the group, column 2 + m series m's value) in
 * groups, one bar per series from `bottom` up to value(column), each bar
 * a box (boxes from 0 would not show on a log axis), the series titled
 * `titles`. */
static void write_bars(FILE *out, const char *data, const char *value, const char *bottom,
                       const char *const *titles, size_t count) {
  fprintf(out, "width = 0.7 / %zu\nleft(m) = column(1) - 0.35 + width * m\nplot \\\n", count);
  for (size_t m = 0; m < count; m++) {
    fprintf(out,
            "  %s using (left(%zu.5)):(%s(%zu)):(left(%zu)):(left(%zu)):(%s):(%s(%zu))"
            " with boxxyerror lc rgb '%s' title ",
            data, m, value, m + 2, m, m + 1, bottom, value, m + 2, plot_colors[m % PLOT_COLORS]);
    crafter_gnuplot_string(out, titles[m]);
    fputs(m + 1 < count ? ", \\\n" : "\n", out);
  }
}

/* The goals met: a group of bars per group of goals that has episodes
 * (the families, then the difficulties and the splits), one bar per
 * method, on a linear axis from 0 to 100%. */
static void write_goals_plot(FILE *out, int format, const char *path,
                             const crafter_score_method *methods, size_t count) {
  int shown[CRAFTER_SCORE_GOAL_GROUPS], groups = 0;
  for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
    long seen = 0;
    for (size_t m = 0; m < count; m++) seen += methods[m].goals.group_episodes[g];
    if (seen) shown[groups++] = g;
  }
  fputs("$goals << EOD\n", out);
  for (int i = 0; i < groups; i++) {
    fprintf(out, "%d", i);
    for (size_t m = 0; m < count; m++) {
      fputc(' ', out);
      write_gnuplot_number(out, crafter_score_goal_rate(&methods[m].goals, shown[i]));
    }
    fputc('\n', out);
  }
  fputs("EOD\n", out);
  write_terminal(out, format, 300 + 60 * groups * (int)(count < 2 ? 2 : count), 460);
  fputs("set output ", out);
  crafter_gnuplot_string(out, path);
  fputs("\nunset logscale y\nset key outside top center horizontal\nset yrange [0:100]\n"
        "set ytics auto\nset ylabel 'Goals met (%)'\n",
        out);
  fprintf(out, "set xrange [-0.6:%d.6]\nset xtics rotate by 45 right (", groups - 1);
  for (int i = 0; i < groups; i++) {
    char label[64];
    snprintf(label, sizeof(label), "%s %s", crafter_score_goal_group_kind(shown[i]),
             crafter_score_goal_group_name(shown[i]));
    fprintf(out, "%s", i ? ", " : "");
    crafter_gnuplot_string(out, label);
    fprintf(out, " %d", i);
  }
  fputs(")\n", out);
  const char *names[count];
  for (size_t m = 0; m < count; m++) names[m] = methods[m].name;
  write_bars(out, "$goals", "column", "0", names, count);
  fputs("unset output\n", out);
}

/* The x axis labelled with the methods' names, one tic each. */
static void write_method_tics(FILE *out, const crafter_score_method *methods, size_t count) {
  fputs("set xtics rotate by 45 right (", out);
  for (size_t m = 0; m < count; m++) {
    fprintf(out, "%s", m ? ", " : "");
    crafter_gnuplot_string(out, methods[m].name);
    fprintf(out, " %zu", m);
  }
  fputc(')', out);
}

/* Training against unseen levels: a group of two bars per method, its
 * score on each, on a linear axis from 0. */
static void write_levels_plot(FILE *out, int format, const char *path,
                              const crafter_score_method *methods, size_t count) {
  fputs("$levels << EOD\n", out);
  for (size_t m = 0; m < count; m++) {
    fprintf(out, "%zu", m);
    for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
      fputc(' ', out);
      write_gnuplot_number(out, methods[m].sides[side].score_mean);
    }
    fputc('\n', out);
  }
  fputs("EOD\n", out);
  int width = 260 + 120 * (int)count;
  write_terminal(out, format, width < 420 ? 420 : width, 460);
  fputs("set output ", out);
  crafter_gnuplot_string(out, path);
  fputs("\nunset logscale y\nset key outside top center horizontal\nset yrange [0:*]\n"
        "set ytics auto\nset ylabel 'Crafter score (%)'\n",
        out);
  fprintf(out, "set xrange [-0.6:%zu.6]\n", count - 1);
  write_method_tics(out, methods, count);
  fputs("\n", out);
  static const char *const titles[CRAFTER_SCORE_SIDES] = {"training levels", "unseen levels"};
  write_bars(out, "$levels", "column", "0", titles, CRAFTER_SCORE_SIDES);
  fputs("unset output\n", out);
}

static void write_plot_script(FILE *out, int format, const char *path, const char *scores_path,
                              const char *goals_path, const char *levels_path,
                              const crafter_score_method *methods, size_t count) {
  fputs("$rates << EOD\n", out);
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    fprintf(out, "%d", k);
    for (size_t m = 0; m < count; m++) {
      fputc(' ', out);
      write_gnuplot_number(out, methods[m].success[k]);
    }
    fputc('\n', out);
  }
  fputs("EOD\n$scores << EOD\n", out);
  for (size_t m = 0; m < count; m++) {
    fprintf(out, "%zu ", m);
    write_gnuplot_number(out, methods[m].score_mean);
    fputc(' ', out);
    write_gnuplot_number(out, methods[m].score_std);
    fprintf(out, " 0x%s\n", plot_colors[m % PLOT_COLORS] + 1);
  }
  fputs("EOD\n", out);

  /* The spectrum: the reference draws it on a log axis from 0.01 to 100%;
   * bars are boxes from 0.01 up, so a rate of 0 shows as no bar. */
  write_terminal(out, format, 1100, 460);
  fputs("set output ", out);
  crafter_gnuplot_string(out, path);
  fputs("\nset border 3\nset tics nomirror\nset grid ytics\n"
        "set style fill solid 1.0 noborder\n"
        "set key outside top center horizontal\n"
        "set ylabel 'Success rate (%)'\n"
        "set logscale y\nset yrange [0.01:100]\n"
        "set ytics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100)\n",
        out);
  fprintf(out, "set xrange [-0.6:%d.6]\nset xtics rotate by 45 right (", ACHIEVEMENTS - 1);
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    fprintf(out, "%s", k ? ", " : "");
    crafter_gnuplot_string(out, crafter_achievement_names[k]);
    fprintf(out, " %d", k);
  }
  fputs(")\nfloor = 0.01\nrate(c) = column(c) > floor ? column(c) : floor\n", out);
  const char *names[count];
  for (size_t m = 0; m < count; m++) names[m] = methods[m].name;
  write_bars(out, "$rates", "rate", "floor", names, count);

  /* The scores: one bar per method with its deviation over seeds. */
  int width = 260 + 90 * (int)count;
  write_terminal(out, format, width < 420 ? 420 : width, 420);
  fputs("set output ", out);
  crafter_gnuplot_string(out, scores_path);
  fputs("\nunset logscale y\nunset key\nset yrange [0:*]\nset ytics auto\n"
        "set ylabel 'Crafter score (%)'\n",
        out);
  fprintf(out, "set xrange [-0.6:%zu.4]\n", count - 1);
  write_method_tics(out, methods, count);
  fputs("\nset errorbars 4\nset pointintervalbox 0\n"
        "plot $scores using 1:2:(0.7):4 with boxes lc rgb variable, \\\n"
        "  $scores using 1:2:3 with yerrorbars lc rgb 'black' pointtype 7 pointsize 0.5\n"
        "unset output\n",
        out);
  if (goals_path) write_goals_plot(out, format, goals_path, methods, count);
  if (levels_path) write_levels_plot(out, format, levels_path, methods, count);
}

int crafter_score_plot(const char *path, const crafter_score_method *methods, size_t count,
                       char *error, size_t error_size) {
  int format = crafter_score_plot_format(path);
  if (format < 0)
    return crafter_fail(error, error_size, "%s: the plot file must end in .png or .svg", path);
  size_t with_seeds = 0;
  for (size_t m = 0; m < count; m++) with_seeds += methods[m].seeds > 0;
  /* gnuplot refuses a plot with no point at all. */
  if (with_seeds == 0)
    return crafter_fail(error, error_size, "nothing to plot: no episode ends within the budget");
  char *scores_path = crafter_score_plot_scores_path(path);
  if (!scores_path) return crafter_fail(error, error_size, "out of memory");
  crafter_gnuplot plot;
  if (crafter_gnuplot_open(&plot, "crafter-score", error, error_size) < 0) {
    free(scores_path);
    return CRAFTER_PLOT_FAILED;
  }
  char *goals_path = crafter_score_any_goals(methods, count) ? crafter_score_plot_goals_path(path) : NULL;
  char *levels_path =
      methods[0].train_levels.count ? crafter_score_plot_levels_path(path) : NULL;
  write_plot_script(plot.script, format, path, scores_path, goals_path, levels_path, methods,
                    count);
  free(scores_path);
  free(goals_path);
  free(levels_path);
  switch (crafter_gnuplot_run(&plot, error, error_size)) {
    case CRAFTER_GNUPLOT_OK: return CRAFTER_PLOT_OK;
    case CRAFTER_GNUPLOT_MISSING: return CRAFTER_PLOT_NO_GNUPLOT;
    case CRAFTER_GNUPLOT_REFUSED:
      return crafter_fail(error, error_size, "gnuplot failed; its message is above");
    default: return CRAFTER_PLOT_FAILED;
  }
}
