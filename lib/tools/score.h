/* score: success rates and the Crafter score of runs, computed as the
 * reference's analysis scripts compute them (danijar/crafter,
 * analysis/common.py), so the numbers are those of the paper.
 *
 * A run is one seed of one method: a sequence of episodes, each with its
 * length, return and achievement counts.  Runs come from two kinds of file,
 * told apart by their content:
 *
 *   - Crafter's stats.jsonl log: one JSON object per episode and line, with
 *     "length", "reward" and "achievement_<name>" counts; a file is one run.
 *   - a trajectory file (crafter-trajectory(5)), told by its magic: the
 *     file is one run of the episodes that ended (cut ones are left out),
 *     in file order; a damaged file gives the episodes that can be read.
 *     Its method is the agent the file records, its seed the Env seed.
 *   - a run file of the analysis scripts: a JSON list of runs (or one run),
 *     each an object with "method", "seed", "xs" (env steps at the end of
 *     each episode), and lists "length", "reward", "achievement_<name>" of
 *     one value per episode.
 *
 * A stats log records no method: it takes the one it is given (the
 * name of its directory, for Crafter's logdirs are named after the
 * method) and, unless given a seed, its number among that method's runs.
 *
 * Only episodes that end within the step budget count (xs <= budget, with
 * xs the running sum of lengths for a stats log).  For each run, the
 * success rate of an achievement is the percentage of those episodes that
 * unlocked it at least once; the run's score is the geometric mean of
 * 1 + rate over the 22 achievements, minus 1.  A method's score is the mean
 * and population standard deviation (numpy's default, ddof 0) of its runs'
 * scores; its success rates, returns and lengths are means over its runs
 * of each run's mean.  A run without episodes in the budget counts for
 * nothing, as NaN does in the reference's nanmean.  The deviation of a
 * single seed is not known, not 0 as numpy says: it is NaN.
 *
 * Trajectory files of Craftax-Classic (crafter-trajectory(5) version 5,
 * crafter-games(7)) are read as Crafter's are: its 22 achievements are
 * Crafter's, reported in Crafter's order and names, so success rates and
 * the Crafter score are computed alike.  Beside them the measure of the
 * Craftax paper and of craftax's scoreboard: a method's mean return as a
 * percentage of the most an episode can return (22: one for each
 * achievement; the health's share never adds to it), 100 * reward_mean /
 * 22, reward_mean being the mean over seeds of each seed's mean return
 * (the sum of its episode's float32 rewards, added in double precision).
 * Files of two games are not scored together: the trajectory files of a
 * set are of one game (a stats log or run file records none, and joins
 * any).
 *
 * A set may also split the episodes of trajectory files by the level
 * they played (crafter-levels(5)): those of a range of episodes of one
 * Env seed, the levels an agent trained on, from all the others, the
 * unseen levels it is tested on.  Each side is then scored as a whole
 * set is, over the runs with episodes on that side. */
#ifndef CRAFTER_SCORE_H
#define CRAFTER_SCORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/config.h" /* crafter_params */
#include "game/game.h"
#include "game/tasks.h"

/* How a run's method was found. */
enum crafter_score_origin {
  CRAFTER_SCORE_FROM_RUN_FILE = 0, /* the "method" of the run in a run file */
  CRAFTER_SCORE_FROM_AGENT,        /* the agent a trajectory file records */
  CRAFTER_SCORE_FROM_DIRECTORY,    /* a stats log's: the name of its directory */
  CRAFTER_SCORE_FROM_STDIN,        /* a stats log's on standard input: "stdin" */
  CRAFTER_SCORE_FROM_OPTION        /* given (--method) */
};

/* Names of the origins in reports: "run file", "agent", "directory name",
 * "standard input", "--method". */
const char *crafter_score_origin_name(int origin);

/* Goals met, from trajectory files recorded with goals (crafter-task(5)):
 * episodes and goals met overall and in each group of goals: per family,
 * per difficulty, per split (crafter_score_goal_group). */
#define CRAFTER_SCORE_GOAL_GROUPS \
  (CRAFTER_TASK_FAMILY_COUNT + CRAFTER_DIFFICULTY_COUNT + CRAFTER_SPLIT_COUNT)

typedef struct crafter_score_goals {
  long episodes, met;
  long group_episodes[CRAFTER_SCORE_GOAL_GROUPS], group_met[CRAFTER_SCORE_GOAL_GROUPS];
} crafter_score_goals;

/* Group g: its kind ("family", "difficulty" or "split") and name. */
const char *crafter_score_goal_group_kind(int group);
const char *crafter_score_goal_group_name(int group);

/* The levels an agent trained on: episodes first .. first+count-1 of
 * the Env seed `seed` (level k of a set is episode k of its seed, so a
 * fresh world of that seed and episode is the same level). */
typedef struct crafter_score_levels {
  int64_t seed;
  int64_t first;
  int64_t count; /* 0: no split */
} crafter_score_levels;

/* Whether episode `episode` of the Env seed `seed` is one of `levels`. */
int crafter_score_levels_hold(const crafter_score_levels *levels, int64_t seed, int64_t episode);

/* The training levels of a level file (crafter-levels(5)): its seed,
 * first level and count.  Returns 0, or -1 with a reason naming the
 * path. */
int crafter_score_levels_of_file(crafter_score_levels *levels, const char *path, char *error,
                                 size_t error_size);

/* The two sides of a split: episodes on training levels and on the
 * others. */
enum { CRAFTER_SCORE_TRAIN = 0, CRAFTER_SCORE_UNSEEN, CRAFTER_SCORE_SIDES };

/* "train" or "unseen". */
const char *crafter_score_side_name(int side);

/* Episodes of one side of a run, and of those the ones that unlocked
 * each achievement. */
typedef struct crafter_score_tally {
  long episodes;
  long successes[CRAFTER_ACHIEVEMENT_COUNT];
} crafter_score_tally;

typedef struct crafter_score_run {
  char *method;
  char *seed;
  char *file;    /* the file it was read from; NULL when read from text */
  int origin;    /* enum crafter_score_origin */
  char *agent;   /* the agent a trajectory file records, else NULL */
  int seed_recorded; /* 1 when the seed is the one a trajectory file records */
  int game;      /* enum crafter_game_id (game/games.h) of a trajectory file's episodes;
                    -1 for a stats log or run file, which records none */
  int has_params;        /* 1 when the file records the env's parameters */
  crafter_params params; /* then those (a trajectory file's header) */
  long episodes; /* episodes that ended within the budget */
  long successes[CRAFTER_ACHIEVEMENT_COUNT]; /* of those, the ones that unlocked each */
  double reward_sum, length_sum;             /* over those episodes */
  crafter_score_goals goals; /* of those with a goal */
  crafter_score_tally sides[CRAFTER_SCORE_SIDES]; /* of those, the ones on training
                                                     levels and the others, when the
                                                     set splits them */
  /* Those episodes one at a time, in the order read, for the measures of
   * language-model suites: the achievements each unlocked (count >= 1),
   * and SmartPlay's score of each (crafter_score_smartplay_of_steps),
   * NaN where the file holds no steps (a stats log, a run file) or the
   * set reads none. */
  uint8_t *episode_unlocked;
  double *episode_smartplay;
  size_t episode_room;
} crafter_score_run;

typedef struct crafter_score_set {
  double budget; /* env steps */
  /* Set after crafter_score_set_init to split the episodes by level: only
   * trajectory files are read then (the others do not record the levels
   * played), and files of one method and seed are one run, a training
   * and a test recording of one agent. */
  crafter_score_levels train_levels;
  crafter_score_run *runs;
  size_t count, capacity;
  /* What the last file read lacks: a damaged trajectory's damage and the
   * episodes left out; "" when nothing. */
  char note[512];
  /* The game of the trajectory files read (all are of one), -1 before any
   * is. */
  int game;
  /* Set after crafter_score_set_init to report the measures of
   * language-model suites (BALROG's progression, SmartPlay's score) too:
   * the steps of every episode of a trajectory file are then read (and
   * checked) for SmartPlay's score. */
  int llm;
} crafter_score_set;

/* What a method scores on one side of a split, as for the whole method:
 * the mean and deviation of its seeds' scores, the mean success rates,
 * the episodes and the seeds with episodes on that side. */
typedef struct crafter_score_side {
  double score_mean, score_std;
  double success[CRAFTER_ACHIEVEMENT_COUNT]; /* percent */
  long episodes, seeds;
} crafter_score_side;

/* What the paper reports for one method.  NaN where it has no episodes. */
typedef struct crafter_score_method {
  const char *name; /* points into the set */
  double score_mean, score_std;
  double success[CRAFTER_ACHIEVEMENT_COUNT]; /* percent */
  double reward_mean, length_mean;
  int game;                  /* the set's game (-1: no trajectory file read) */
  double return_percent_max; /* of Craftax-Classic: 100 * reward_mean / 22; else NaN */
  long episodes; /* within the budget, over all runs */
  long seeds;    /* runs with at least one episode within the budget */
  crafter_score_goals goals; /* the episodes with a goal of all its runs together: a
                                success rate of goals is goals met over episodes */
  crafter_score_levels train_levels; /* the set's: count 0 when it splits no levels */
  crafter_score_side sides[CRAFTER_SCORE_SIDES]; /* when it does */
  double gap; /* the score on training levels minus that on unseen ones */
  /* With the set's llm (else 0 and NaN), the measures language-model
   * suites report, over the method's episodes within the budget, of all
   * its runs together in the order read:
   *   BALROG's progression (balrog-ai/BALROG, utils.py and the Crafter
   *   wrapper's get_stats): each episode's share of the 22 achievements
   *   unlocked, k / 22; their mean, adding in order as Python's sum
   *   before 3.12, and its standard error, the population deviation
   *   (dividing by the episodes) over the square root of the episodes,
   *   0 for a single episode; both in percent, as BALROG's summary.
   *   SmartPlay's score (microsoft/SmartPlay, crafter_env.py and
   *   eval.py): each episode's sum over its steps of the achievements
   *   unlocked by then; the mean of those and of those over 2680 (its
   *   human score, the minimum being 0), each as numpy's mean adds
   *   (pairwise); NaN when an episode's steps are not known. */
  int llm;
  double progression, progression_se; /* percent */
  double smartplay_score, smartplay_normalized;
} crafter_score_method;

void crafter_score_set_init(crafter_score_set *set, double budget);
void crafter_score_set_free(crafter_score_set *set);

/* Adds the runs in text[0..length).  `method`, when not NULL, is the
 * method of a stats log or trajectory file, over what the file says (a
 * run file's runs keep theirs); a stats log without it takes `log_method`
 * ("unknown" if NULL).  `seed`, when not NULL, is likewise their seed; a
 * stats log without it takes its index, the number of runs of its method
 * added before it.  The same method and seed twice is an error, not a
 * silent overwrite as in the reference (unless the set splits levels).
 * Returns 0, or -1 with "line N: what is wrong" in `error` (a stats log
 * or run file in a set that splits levels: why it cannot be split); the
 * set is unchanged then. */
int crafter_score_read(crafter_score_set *set, const char *text, size_t length,
                       const char *method, const char *log_method, const char *seed,
                       char *error, size_t error_size);

/* crafter_score_read on a file, "-" for standard input, its runs marked
 * with the path.  A stats log's method without `method` is the name of
 * the directory holding the file ("stdin" for "-").  Errors read "PATH:
 * line N: what is wrong" ("standard input: ..." for -).  In a set that
 * splits levels, a path read before is an error: its episodes would
 * count twice in the run they join. */
int crafter_score_read_file(crafter_score_set *set, const char *path, const char *method,
                            const char *seed, char *error, size_t error_size);

/* crafter_score_of_rates (crafter/crafter.h): the Crafter score of success
 * rates. */

/* SmartPlay's score of an episode from the achievements each of its
 * `steps` steps unlocked first (bit i for achievement i): the sum over
 * the steps of the achievements unlocked so far, that is, for each
 * achievement, the steps from the one that unlocked it to the last. */
double crafter_score_smartplay_of_steps(const uint32_t *unlocked, size_t steps);

/* SmartPlay's human score, which its normalised score divides by. */
#define CRAFTER_SCORE_SMARTPLAY_HUMAN 2680

/* numpy's sum of n doubles (pairwise, as np.add.reduce adds a contiguous
 * float64 array), which np.mean divides. */
double crafter_score_numpy_sum(const double *values, size_t n);

/* Groups the runs by method, in the order methods first appear; runs of
 * one method and seed (only in a set that splits levels) are pooled into
 * one seed.  Returns a malloc'ed array of *count methods (free() it), or
 * NULL when out of memory or when the set is empty. */
crafter_score_method *crafter_score_summarize(const crafter_score_set *set, size_t *count);

/* Whether any of the methods has episodes with goals. */
int crafter_score_any_goals(const crafter_score_method *methods, size_t count);

/* Episodes with a goal in group `group` (crafter_score_goal_group_kind;
 * -1: all of them), and the percentage of them that met their goal (NaN
 * for none). */
long crafter_score_goal_episodes(const crafter_score_goals *goals, int group);
double crafter_score_goal_rate(const crafter_score_goals *goals, int group);

#endif
