/* The score module: the score formula on values worked out by hand, and
 * reading, budgets, grouping and errors on small texts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"
#include "tap.h"

static int near(double value, double expected) { return fabs(value - expected) < 1e-9; }

/* A stats.jsonl line: every achievement count `all`, collect_wood `wood`. */
static void stats_line(char *out, size_t size, int length, int all, int wood) {
  int used = snprintf(out, size, "{\"length\": %d, \"reward\": 1.5", length);
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    used += snprintf(out + used, size - (size_t)used, ", \"achievement_%s\": %d",
                     crafter_achievement_names[k], k == CRAFTER_COLLECT_WOOD ? wood : all);
  snprintf(out + used, size - (size_t)used, "}\n");
}

/* A run file of one run over two episodes, collect_wood as `wood`, the
 * other achievements never. */
static void run_text(char *out, size_t size, const char *wood) {
  int used = snprintf(out, size,
                      "[\n{\"method\": \"r\", \"seed\": 0, \"xs\": [10, 30], \"length\": [10, 20], "
                      "\"reward\": [1, 2]");
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    used += snprintf(out + used, size - (size_t)used, ", \"achievement_%s\": %s",
                     crafter_achievement_names[k], k == CRAFTER_COLLECT_WOOD ? wood : "[0, 0]");
  snprintf(out + used, size - (size_t)used, "}\n]\n");
}

int main(void) {
  /* exp(mean(ln(1 + p))) - 1 by hand: */
  double rates[CRAFTER_ACHIEVEMENT_COUNT] = {0};
  ok(near(crafter_score_of_rates(rates, CRAFTER_ACHIEVEMENT_COUNT), 0),
     "nothing unlocked scores 0");
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) rates[k] = 100;
  ok(near(crafter_score_of_rates(rates, CRAFTER_ACHIEVEMENT_COUNT), 100),
     "everything always unlocked scores 100");
  double pair[] = {0, 99}; /* sqrt(1 * 100) - 1 */
  ok(near(crafter_score_of_rates(pair, 2), 9), "rates 0 and 99 score 9");
  double pair2[] = {3, 15}; /* sqrt(4 * 16) - 1 */
  ok(near(crafter_score_of_rates(pair2, 2), 7), "rates 3 and 15 score 7");
  double with_nan[] = {NAN, 3, 15};
  ok(near(crafter_score_of_rates(with_nan, 3), 7), "a NaN rate is left out, as by nanmean");
  double all_nan[] = {NAN, NAN};
  ok(isnan(crafter_score_of_rates(all_nan, 2)), "no rates give NaN");
  /* 75, 50, 25 and 19 zeros: (76 * 51 * 26)^(1/22) - 1 = 100776^(1/22) - 1;
   * ln 100776 = 11.52066, / 22 = 0.523666, exp = 1.688206. */
  double three[CRAFTER_ACHIEVEMENT_COUNT] = {75, 50, 25};
  ok(fabs(crafter_score_of_rates(three, CRAFTER_ACHIEVEMENT_COUNT) - 0.688206) < 1e-6,
     "rates 75, 50, 25 and 19 zeros score 0.688206");

  /* Two stats logs of one method: one unlocks everything, the other
   * nothing.  Scores 100 and 0: mean 50, population deviation 50 (the
   * sample deviation would be 70.7). */
  crafter_score_set set;
  crafter_score_set_init(&set, 1e6);
  char error[512], all[4096], none[4096], text[16384];
  stats_line(all, sizeof(all), 100, 1, 1);
  stats_line(none, sizeof(none), 100, 0, 0);
  ok(crafter_score_read(&set, all, strlen(all), "m", NULL, error, sizeof(error)) == 0 &&
         crafter_score_read(&set, none, strlen(none), "m", NULL, error, sizeof(error)) == 0,
     "reads stats lines");
  ok(set.count == 2 && strcmp(set.runs[0].seed, "0") == 0 && strcmp(set.runs[1].seed, "1") == 0,
     "stats logs without a seed are numbered 0, 1, ...");
  size_t count;
  crafter_score_method *methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 1 && near(methods[0].score_mean, 50) && near(methods[0].score_std, 50),
     "score 50 +- 50 over two seeds (ddof 0)");
  ok(methods && near(methods[0].success[CRAFTER_WAKE_UP], 50) && methods[0].episodes == 2 &&
         methods[0].seeds == 2 && near(methods[0].reward_mean, 1.5) &&
         near(methods[0].length_mean, 100),
     "success rates, return and length are means over seeds");
  free(methods);

  ok(crafter_score_read(&set, none, strlen(none), "m", "1", error, sizeof(error)) < 0 &&
         strstr(error, "seed '1' is already read") && set.count == 2,
     "the same method and seed twice is refused: %s", error);

  /* A bad third line: the message names it, and nothing is added. */
  snprintf(text, sizeof(text), "%s\n%s{\"length\": 5}\n", all, none);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 4: ", 8) == 0 && set.count == 2,
     "a bad line is named and the set left alone: %s", error);
  snprintf(text, sizeof(text), "%s%.20s", all, none);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: ", 8) == 0 && strstr(error, "truncated"),
     "a log cut in a string is refused: %s", error);
  snprintf(text, sizeof(text), "%s{\"length\": 100", all);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: ", 8) == 0 && strstr(error, "truncated"),
     "a log cut after a value is refused: %s", error);
  crafter_score_set_free(&set);

  /* The budget: lengths 100 and 200 end at steps 100 and 300. */
  crafter_score_set_init(&set, 299);
  snprintf(text, sizeof(text), "%s", all);
  stats_line(text + strlen(text), sizeof(text) - strlen(text), 200, 0, 0);
  ok(crafter_score_read(&set, text, strlen(text), "m", "7", error, sizeof(error)) == 0 &&
         set.runs[0].episodes == 1 && set.runs[0].successes[CRAFTER_WAKE_UP] == 1,
     "only episodes ending within the budget count");
  crafter_score_set_free(&set);

  /* A run file: collect_wood in one of two episodes, the rest never:
   * rates 50 and 0, score 51^(1/22) - 1. */
  crafter_score_set_init(&set, 1e6);
  run_text(text, sizeof(text), "[1, 0]");
  ok(crafter_score_read(&set, text, strlen(text), NULL, NULL, error, sizeof(error)) == 0,
     "reads a run file");
  methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 1 && strcmp(methods[0].name, "r") == 0 &&
         near(methods[0].score_mean, pow(51, 1.0 / 22) - 1) &&
         near(methods[0].success[CRAFTER_COLLECT_WOOD], 50) && near(methods[0].reward_mean, 1.5),
     "its score is 51^(1/22) - 1");
  free(methods);
  run_text(text, sizeof(text), "[1, \"x\"]");
  ok(crafter_score_read(&set, text, strlen(text), NULL, NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: run 1: ", 15) == 0 && set.count == 1,
     "a bad value names the line and run: %s", error);
  crafter_score_set_free(&set);

  ok(crafter_score_plot_format("a/b.png") == CRAFTER_PLOT_PNG &&
         crafter_score_plot_format("B.SVG") == CRAFTER_PLOT_SVG &&
         crafter_score_plot_format("c.pdf") < 0 && crafter_score_plot_format("d.png/e") < 0,
     "plot formats by extension");
  char *scores = crafter_score_plot_scores_path("out.d/plot.png");
  ok(scores && strcmp(scores, "out.d/plot-scores.png") == 0, "the scores plot's name: %s",
     scores);
  free(scores);
  return tap_done();
}
