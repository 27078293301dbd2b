/* The score module: the score formula on values worked out by hand, and
 * reading, budgets, grouping and errors on small texts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/levels.h"
#include "run/proto.h"
#include "run/traj.h"
#include "run/traj_writer.h"
#include "tap.h"
#include "tools/score.h"
#include "tools/score_plot.h"
#include "tools/score_report.h"

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

/* A trajectory file of one episode of noops on a 16x16 world, cut by the
 * time limit `length`, recorded as by `agent` with Env seed `seed`. */
static int record_noops(const char *path, const char *agent, int seed, int length) {
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = params.area[1] = 16;
  params.length = length;
  params.seed = seed;
  crafter_env env;
  char error[256];
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0) return -1;
  crafter_traj_header header;
  crafter_traj_header_init(&header, &params, CRAFTER_OBS_NONE, agent, NULL);
  crafter_traj_writer *writer = crafter_traj_writer_create(path, &header, error, sizeof(error));
  crafter_traj_recorder *recorder = crafter_traj_recorder_new(&header);
  int status = writer && recorder && crafter_env_reset(&env) == 0 &&
                       crafter_traj_recorder_start(recorder, &env, 0, NULL) == 0
                   ? 0
                   : -1;
  crafter_step_result result = {0};
  while (status == 0 && !result.done) {
    crafter_env_step(&env, CRAFTER_NOOP, &result);
    status = crafter_traj_recorder_step(recorder, &env, 0, CRAFTER_NOOP, &result, NULL);
  }
  if (status == 0) status = crafter_traj_writer_add(writer, recorder, error, sizeof(error));
  if (writer && crafter_traj_writer_close(writer, error, sizeof(error)) < 0) status = -1;
  crafter_traj_recorder_free(recorder);
  crafter_env_fini(&env);
  return status;
}

/* What crafter_score_write_warnings says of a set, in out[size]. */
static int warnings_of(const crafter_score_set *set, char *out, size_t size) {
  FILE *file = tmpfile();
  if (!file) return -1;
  int count = crafter_score_write_warnings(file, "prog", set);
  rewind(file);
  size_t got = fread(out, 1, size - 1, file);
  out[got] = '\0';
  fclose(file);
  return count;
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
  ok(crafter_score_read(&set, all, strlen(all), "m", NULL, NULL, error, sizeof(error)) == 0 &&
         crafter_score_read(&set, none, strlen(none), "m", NULL, NULL, error, sizeof(error)) == 0,
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

  ok(crafter_score_read(&set, none, strlen(none), "m", NULL, "1", error, sizeof(error)) < 0 &&
         strstr(error, "seed '1' is already read") && set.count == 2,
     "the same method and seed twice is refused: %s", error);

  /* A bad third line: the message names it, and nothing is added. */
  snprintf(text, sizeof(text), "%s\n%s{\"length\": 5}\n", all, none);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 4: ", 8) == 0 && set.count == 2,
     "a bad line is named and the set left alone: %s", error);
  snprintf(text, sizeof(text), "%s%.20s", all, none);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: ", 8) == 0 && strstr(error, "truncated"),
     "a log cut in a string is refused: %s", error);
  snprintf(text, sizeof(text), "%s{\"length\": 100", all);
  ok(crafter_score_read(&set, text, strlen(text), "n", NULL, NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: ", 8) == 0 && strstr(error, "truncated"),
     "a log cut after a value is refused: %s", error);
  crafter_score_set_free(&set);

  /* The budget: lengths 100 and 200 end at steps 100 and 300. */
  crafter_score_set_init(&set, 299);
  snprintf(text, sizeof(text), "%s", all);
  stats_line(text + strlen(text), sizeof(text) - strlen(text), 200, 0, 0);
  ok(crafter_score_read(&set, text, strlen(text), "m", NULL, "7", error, sizeof(error)) == 0 &&
         set.runs[0].episodes == 1 && set.runs[0].successes[CRAFTER_WAKE_UP] == 1,
     "only episodes ending within the budget count");
  crafter_score_set_free(&set);

  /* A run file: collect_wood in one of two episodes, the rest never:
   * rates 50 and 0, score 51^(1/22) - 1. */
  crafter_score_set_init(&set, 1e6);
  run_text(text, sizeof(text), "[1, 0]");
  ok(crafter_score_read(&set, text, strlen(text), NULL, NULL, NULL, error, sizeof(error)) == 0,
     "reads a run file");
  methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 1 && strcmp(methods[0].name, "r") == 0 &&
         near(methods[0].score_mean, pow(51, 1.0 / 22) - 1) &&
         near(methods[0].success[CRAFTER_COLLECT_WOOD], 50) && near(methods[0].reward_mean, 1.5),
     "its score is 51^(1/22) - 1");
  free(methods);
  run_text(text, sizeof(text), "[1, \"x\"]");
  ok(crafter_score_read(&set, text, strlen(text), NULL, NULL, NULL, error, sizeof(error)) < 0 &&
         strncmp(error, "line 2: run 1: ", 15) == 0 && set.count == 1,
     "a bad value names the line and run: %s", error);
  crafter_score_set_free(&set);

  /* One seed: the mean is its score, the deviation unknown (NaN), not 0. */
  crafter_score_set_init(&set, 1e6);
  ok(crafter_score_read(&set, all, strlen(all), NULL, "logdir", NULL, error, sizeof(error)) == 0 &&
         strcmp(set.runs[0].method, "logdir") == 0 &&
         set.runs[0].origin == CRAFTER_SCORE_FROM_DIRECTORY && !set.runs[0].agent,
     "a stats log without --method takes the method it is given, as its directory's name");
  ok(crafter_score_read(&set, all, strlen(all), NULL, NULL, NULL, error, sizeof(error)) == 0 &&
         strcmp(set.runs[1].method, "unknown") == 0,
     "and without one it is \"unknown\"");
  methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 2 && near(methods[0].score_mean, 100) && methods[0].seeds == 1 &&
         isnan(methods[0].score_std),
     "a single seed scores its own score, its deviation NaN");
  free(methods);
  crafter_score_set_free(&set);

  /* Trajectory files: grouped by the agent they record, their seed the
   * Env seed. */
  const char *directory = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char random1[512], scripted2[512], random3[512], random1_again[512];
  snprintf(random1, sizeof(random1), "%s/test-score-%ld-a.traj", directory, (long)getpid());
  snprintf(scripted2, sizeof(scripted2), "%s/test-score-%ld-b.traj", directory, (long)getpid());
  snprintf(random3, sizeof(random3), "%s/test-score-%ld-c.traj", directory, (long)getpid());
  snprintf(random1_again, sizeof(random1_again), "%s/test-score-%ld-d.traj", directory,
           (long)getpid());
  ok(record_noops(random1, "random", 1, 5) == 0 && record_noops(scripted2, "scripted", 2, 5) == 0 &&
         record_noops(random3, "random", 3, 7) == 0 &&
         record_noops(random1_again, "random", 1, 5) == 0,
     "four trajectory files are written");
  crafter_score_set_init(&set, 1e6);
  ok(crafter_score_read_file(&set, random1, NULL, NULL, error, sizeof(error)) == 0 &&
         crafter_score_read_file(&set, scripted2, NULL, NULL, error, sizeof(error)) == 0,
     "two files of different agents in one directory are read: %s", error);
  methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 2 && strcmp(methods[0].name, "random") == 0 &&
         strcmp(methods[1].name, "scripted") == 0 && methods[0].seeds == 1 &&
         methods[1].seeds == 1 && methods[0].episodes == 1,
     "they are two methods, named by their agents, not by the directory");
  free(methods);
  ok(strcmp(set.runs[0].seed, "1") == 0 && strcmp(set.runs[1].seed, "2") == 0 &&
         set.runs[0].origin == CRAFTER_SCORE_FROM_AGENT && strcmp(set.runs[0].file, random1) == 0 &&
         set.runs[0].has_params && set.runs[0].params.length == 5,
     "each run keeps its Env seed, its file, its origin and its parameters");
  ok(warnings_of(&set, text, sizeof(text)) == 0, "nothing to warn of: %s", text);
  ok(crafter_score_read_file(&set, random3, NULL, NULL, error, sizeof(error)) == 0 &&
         warnings_of(&set, text, sizeof(text)) == 1 &&
         strstr(text, "prog: warning: method 'random' groups different parameters: ") &&
         strstr(text, "a.traj was recorded with length 5, ") && strstr(text, "c.traj with length 7\n"),
     "a third file of the same agent with another time limit is warned of: %s", text);
  ok(crafter_score_read_file(&set, random1_again, NULL, NULL, error, sizeof(error)) < 0 &&
         strstr(error, "method 'random' seed '1' is already read from ") &&
         strstr(error, "shards of one recording?") && set.count == 3,
     "the same agent and Env seed twice is refused: %s", error);
  crafter_score_set_free(&set);

  /* --method puts different agents in one group: a warning says so. */
  crafter_score_set_init(&set, 1e6);
  ok(crafter_score_read_file(&set, random1, "w", NULL, error, sizeof(error)) == 0 &&
         crafter_score_read_file(&set, scripted2, "w", NULL, error, sizeof(error)) == 0 &&
         set.runs[1].origin == CRAFTER_SCORE_FROM_OPTION && strcmp(set.runs[1].method, "w") == 0,
     "--method overrides the agent");
  ok(warnings_of(&set, text, sizeof(text)) == 1 &&
         strstr(text, "method 'w' groups different agents: ") &&
         strstr(text, "a.traj records 'random', ") && strstr(text, "b.traj 'scripted'"),
     "and different agents in one method are warned of: %s", text);
  crafter_score_set_free(&set);

  /* Training levels: episode 1 of seed 1.  Files of one agent and seed
   * are one run then, split by the levels their episodes played. */
  crafter_score_levels train = {1, 1, 1};
  ok(crafter_score_levels_hold(&train, 1, 1) && !crafter_score_levels_hold(&train, 1, 2) &&
         !crafter_score_levels_hold(&train, 2, 1) && !crafter_score_levels_hold(&train, 0, 0),
     "the training levels hold episode 1 of seed 1 only");
  crafter_score_set_init(&set, 1e6);
  set.train_levels = train;
  ok(crafter_score_read_file(&set, random1, NULL, NULL, error, sizeof(error)) == 0 &&
         crafter_score_read_file(&set, random1_again, NULL, NULL, error, sizeof(error)) == 0 &&
         crafter_score_read_file(&set, scripted2, NULL, NULL, error, sizeof(error)) == 0 &&
         set.count == 3 && set.runs[0].sides[CRAFTER_SCORE_TRAIN].episodes == 1 &&
         set.runs[0].sides[CRAFTER_SCORE_UNSEEN].episodes == 0 &&
         set.runs[2].sides[CRAFTER_SCORE_UNSEEN].episodes == 1,
     "split by levels, one agent and Env seed twice is one run, not an error: %s", error);
  ok(crafter_score_read_file(&set, random1, NULL, NULL, error, sizeof(error)) < 0 &&
         strstr(error, "the file is given twice") && set.count == 3,
     "but the same file twice is: %s", error);
  ok(crafter_score_read(&set, all, strlen(all), "m", NULL, NULL, error, sizeof(error)) < 0 &&
         strstr(error, "a stats.jsonl log does not record which levels") && set.count == 3,
     "a stats log cannot be split: %s", error);
  run_text(text, sizeof(text), "[1, 0]");
  ok(crafter_score_read(&set, text, strlen(text), NULL, NULL, NULL, error, sizeof(error)) < 0 &&
         strstr(error, "a run file does not record which levels") && set.count == 3,
     "nor a run file: %s", error);
  methods = crafter_score_summarize(&set, &count);
  ok(methods && count == 2 && methods[0].seeds == 1 && methods[0].episodes == 2 &&
         methods[0].sides[CRAFTER_SCORE_TRAIN].episodes == 2 &&
         methods[0].sides[CRAFTER_SCORE_TRAIN].seeds == 1 &&
         near(methods[0].sides[CRAFTER_SCORE_TRAIN].score_mean, methods[0].score_mean) &&
         methods[0].sides[CRAFTER_SCORE_UNSEEN].seeds == 0 &&
         isnan(methods[0].sides[CRAFTER_SCORE_UNSEEN].score_mean) && isnan(methods[0].gap) &&
         methods[1].sides[CRAFTER_SCORE_UNSEEN].episodes == 1 &&
         methods[1].sides[CRAFTER_SCORE_TRAIN].episodes == 0 &&
         methods[1].train_levels.count == 1,
     "the two files of one seed pool into one seed with its episodes on training levels");
  free(methods);
  crafter_score_set_free(&set);
  unlink(random1);
  unlink(scripted2);
  unlink(random3);
  unlink(random1_again);

  /* A level file gives its seed, first level and count.  More levels
   * than one env generates at once keep chunk entries of earlier worlds,
   * which the file must not carry. */
  char level_path[512];
  snprintf(level_path, sizeof(level_path), "%s/test-score-%ld.lvl", directory, (long)getpid());
  crafter_params level_params;
  crafter_params_default(&level_params);
  level_params.area[0] = level_params.area[1] = 16;
  level_params.seed = 3;
  crafter_level_set levels;
  ok(crafter_levels_generate(&levels, &level_params, NULL, 5, 12, 1, error, sizeof(error)) == 0 &&
         crafter_levels_save(&levels, level_path, error, sizeof(error)) == 0,
     "a level file of levels 5..16 of seed 3 is written: %s", error);
  crafter_levels_free(&levels);
  crafter_score_levels from_file = {0, 0, 0};
  ok(crafter_score_levels_of_file(&from_file, level_path, error, sizeof(error)) == 0 &&
         from_file.seed == 3 && from_file.first == 5 && from_file.count == 12,
     "its training levels are seed 3, levels 5..16: %s", error);
  unlink(level_path);
  ok(crafter_score_levels_of_file(&from_file, level_path, error, sizeof(error)) < 0 &&
         strstr(error, level_path),
     "a missing level file is an error naming it: %s", error);

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
