/* score_report: what crafter-score writes of a set of runs: warnings of
 * methods whose files disagree, how the files were grouped into runs, and
 * the methods' results as a table for people, as JSON or as CSV. */
#ifndef CRAFTER_SCORE_REPORT_H
#define CRAFTER_SCORE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "tools/score.h"

/* Warns on `out`, one line "program: warning: ..." each, of every method
 * whose runs come from files that record different agents or different
 * parameters (area, view, size, length, reward).  Returns the number of
 * warnings. */
int crafter_score_write_warnings(FILE *out, const char *program, const crafter_score_set *set);

/* How the files were grouped, one line a run: "FILE -> METHOD (origin),
 * seed SEED" under a heading "runs", with ", N on training levels, M
 * unseen" when the set splits levels. */
void crafter_score_write_runs(FILE *out, const crafter_score_set *set);

/* The results as a table for people (a deviation that is not known as
 * "n/a"), as JSON {"methods": [{"name", "score_mean", "score_std",
 * "success", "reward_mean", "length_mean", "episodes", "seeds"}], "runs":
 * [{"file", "method", "method_from", "seed", "agent", "params",
 * "episodes"}]} (NaN and what a file does not record as null; runs only
 * when `set` is not NULL), or as CSV with a header and one line per
 * method.  Goals met and a split of levels add a section to the table,
 * keys to each method in JSON ("goals"; "train", "unseen" and "gap", and
 * to each run "train_episodes" and "unseen_episodes") and columns to
 * CSV. */
void crafter_score_write_table(FILE *out, const crafter_score_method *methods, size_t count);
void crafter_score_write_json(FILE *out, const crafter_score_method *methods, size_t count,
                              const crafter_score_set *set);
void crafter_score_write_csv(FILE *out, const crafter_score_method *methods, size_t count);

#endif
