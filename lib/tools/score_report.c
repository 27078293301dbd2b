#include "tools/score_report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "base/json.h"
#include "game/cc_game.h"
#include "game/games.h"

#define ACHIEVEMENTS CRAFTER_ACHIEVEMENT_COUNT

/* Appends "and " (after the first) and a formatted part to out[size]. */
static void append_part(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void append_part(char *out, size_t size, const char *format, ...) {
  size_t used = strlen(out);
  if (used && used + 5 < size) {
    memcpy(out + used, " and ", 6);
    used += 5;
  }
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(out + used, size - used, format, arguments);
  va_end(arguments);
}

/* The parameters in which `p` differs from `other`, as "area 64x64 and
 * length 10" with p's values; empty when none do. */
static void describe_difference(char *out, size_t size, const crafter_params *p,
                                const crafter_params *other) {
  out[0] = '\0';
  if (p->area[0] != other->area[0] || p->area[1] != other->area[1])
    append_part(out, size, "area %dx%d", p->area[0], p->area[1]);
  if (p->view[0] != other->view[0] || p->view[1] != other->view[1])
    append_part(out, size, "view %dx%d", p->view[0], p->view[1]);
  if (p->size[0] != other->size[0] || p->size[1] != other->size[1])
    append_part(out, size, "size %dx%d", p->size[0], p->size[1]);
  if (p->length != other->length) append_part(out, size, "length %ld", p->length);
  if (p->reward != other->reward) append_part(out, size, "reward %s", p->reward ? "on" : "off");
}

static const char *shown_file(char *out, size_t size, const crafter_score_run *run) {
  const char *file = run->file ? run->file : "(text)";
  return crafter_escape(out, size, file, strlen(file));
}

int crafter_score_write_warnings(FILE *out, const char *program, const crafter_score_set *set) {
  int warnings = 0;
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *first = &set->runs[i];
    size_t earlier = 0;
    while (earlier < i && strcmp(set->runs[earlier].method, first->method) != 0) earlier++;
    if (earlier < i) continue; /* not the method's first run */
    const crafter_score_run *agent = NULL, *params = NULL; /* the first that differ */
    const crafter_score_run *agent_base = NULL, *params_base = NULL;
    for (size_t j = i; j < set->count; j++) {
      const crafter_score_run *run = &set->runs[j];
      if (strcmp(run->method, first->method) != 0) continue;
      if (run->agent && !agent_base) agent_base = run;
      else if (run->agent && !agent && strcmp(run->agent, agent_base->agent) != 0) agent = run;
      if (run->has_params && !params_base) params_base = run;
      else if (run->has_params && !params) {
        char difference[160];
        describe_difference(difference, sizeof(difference), &run->params, &params_base->params);
        if (difference[0]) params = run;
      }
    }
    char method[128], file_a[256], file_b[256];
    crafter_escape(method, sizeof(method), first->method, strlen(first->method));
    if (agent) {
      char agent_a[64], agent_b[64];
      fprintf(out, "%s: warning: method '%s' groups different agents: %s records '%s', %s '%s'\n",
              program, method, shown_file(file_a, sizeof(file_a), agent_base),
              crafter_escape(agent_a, sizeof(agent_a), agent_base->agent, strlen(agent_base->agent)),
              shown_file(file_b, sizeof(file_b), agent),
              crafter_escape(agent_b, sizeof(agent_b), agent->agent, strlen(agent->agent)));
      warnings++;
    }
    if (params) {
      char params_a[160], params_b[160];
      describe_difference(params_a, sizeof(params_a), &params_base->params, &params->params);
      describe_difference(params_b, sizeof(params_b), &params->params, &params_base->params);
      fprintf(out,
              "%s: warning: method '%s' groups different parameters: %s was recorded with %s, "
              "%s with %s\n",
              program, method, shown_file(file_a, sizeof(file_a), params_base), params_a,
              shown_file(file_b, sizeof(file_b), params), params_b);
      warnings++;
    }
  }
  return warnings;
}

void crafter_score_write_runs(FILE *out, const crafter_score_set *set) {
  fputs("\nruns: file -> method (taken from), seed\n", out);
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    char file[512];
    fprintf(out, "  %s -> %s (%s), seed %s", shown_file(file, sizeof(file), run), run->method,
            crafter_score_origin_name(run->origin), run->seed);
    if (set->train_levels.count)
      fprintf(out, ", %ld on training levels, %ld unseen",
              run->sides[CRAFTER_SCORE_TRAIN].episodes, run->sides[CRAFTER_SCORE_UNSEEN].episodes);
    fputc('\n', out);
  }
}

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static int display_width(const char *text) {
  int width = 0;
  for (; *text; text++) width += ((unsigned char)*text & 0xc0) != 0x80;
  return width;
}

static void write_cell(FILE *out, const char *text, int width) {
  for (int pad = width - display_width(text); pad > 0; pad--) fputc(' ', out);
  fputs(text, out);
}

static void format_fixed(char *out, size_t size, double value, int decimals) {
  if (isnan(value))
    snprintf(out, size, "-");
  else
    snprintf(out, size, "%.*f", decimals, value);
}

/* A score as "mean ± deviation", "n/a" for a deviation not known. */
static void format_score(char *out, size_t size, double mean, double deviation) {
  if (isnan(mean))
    snprintf(out, size, "-");
  else if (isnan(deviation))
    snprintf(out, size, "%.1f \xc2\xb1 n/a", mean);
  else
    snprintf(out, size, "%.1f \xc2\xb1 %.1f", mean, deviation);
}


enum { TABLE_LABEL = 20 };

static void write_goals_table(FILE *out, const crafter_score_method *methods, size_t count,
                              const int *widths);
static void write_levels_table(FILE *out, const crafter_score_method *methods, size_t count,
                               const int *widths);

/* BALROG's progression as its summary prints it, "mean ± error" in
 * percent with two decimals, and SmartPlay's score and normalised
 * score. */
static void write_suites_rows(FILE *out, const crafter_score_method *methods, size_t count,
                              const int *widths) {
  enum { LABEL = TABLE_LABEL };
  static const char *const rows[] = {"progression (%)", "SmartPlay score", "SmartPlay (norm.)"};
  for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
    fprintf(out, "%-*s", LABEL, rows[row]);
    for (size_t m = 0; m < count; m++) {
      const crafter_score_method *method = &methods[m];
      char cell[96];
      if (row == 0 && !isnan(method->progression))
        snprintf(cell, sizeof(cell), "%.2f \xc2\xb1 %.2f", method->progression,
                 method->progression_se);
      else if (row == 0)
        snprintf(cell, sizeof(cell), "-");
      else if (row == 1)
        format_fixed(cell, sizeof(cell), method->smartplay_score, 1);
      else
        format_fixed(cell, sizeof(cell), method->smartplay_normalized, 4);
      write_cell(out, cell, widths[m]);
    }
    fputc('\n', out);
  }
}

/* Whether the methods are scored from the files of a game whose most an
 * episode can return is known (the games table's max_return: the JAX
 * games'): their mean return is then also given as a percentage of it. */
static int craftax_methods(const crafter_score_method *methods, size_t count) {
  const crafter_game_info *game = count ? crafter_game_info_of(methods[0].game) : NULL;
  return game && game->max_return > 0;
}

void crafter_score_write_table(FILE *out, const crafter_score_method *methods, size_t count) {
  enum { LABEL = TABLE_LABEL, MINIMUM = 12 };
  int widths[count ? count : 1];
  for (size_t m = 0; m < count; m++) {
    int name = display_width(methods[m].name);
    widths[m] = 2 + (name > MINIMUM ? name : MINIMUM);
  }
  static const char *const rows[] = {"score (%)", "return", "length", "episodes", "seeds"};
  int craftax = craftax_methods(methods, count);
  if (craftax)
    fprintf(out,
            "game: %s; return (%% max) is 100 x return / %d, the measure Craftax reports\n\n",
            crafter_game_info_of(methods[0].game)->title, CRAFTER_CC_MAX_RETURN);
  fprintf(out, "%-*s", LABEL, "method");
  for (size_t m = 0; m < count; m++) write_cell(out, methods[m].name, widths[m]);
  fputc('\n', out);
  for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
    fprintf(out, "%-*s", LABEL, rows[row]);
    for (size_t m = 0; m < count; m++) {
      const crafter_score_method *method = &methods[m];
      char cell[96];
      switch (row) {
        case 0: format_score(cell, sizeof(cell), method->score_mean, method->score_std); break;
        case 1: format_fixed(cell, sizeof(cell), method->reward_mean, 2); break;
        case 2: format_fixed(cell, sizeof(cell), method->length_mean, 1); break;
        case 3: snprintf(cell, sizeof(cell), "%ld", method->episodes); break;
        default: snprintf(cell, sizeof(cell), "%ld", method->seeds); break;
      }
      write_cell(out, cell, widths[m]);
    }
    fputc('\n', out);
    if (row == 4 && count && methods[0].llm) write_suites_rows(out, methods, count, widths);
    if (row == 1 && craftax) {
      fprintf(out, "%-*s", LABEL, "return (% max)");
      for (size_t m = 0; m < count; m++) {
        char cell[96];
        format_fixed(cell, sizeof(cell), methods[m].return_percent_max, 2);
        write_cell(out, cell, widths[m]);
      }
      fputc('\n', out);
    }
  }
  fprintf(out, "\nsuccess rate (%%)\n");
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    fprintf(out, "%-*s", LABEL, crafter_achievement_names[k]);
    for (size_t m = 0; m < count; m++) {
      char cell[64];
      format_fixed(cell, sizeof(cell), methods[m].success[k], 1);
      write_cell(out, cell, widths[m]);
    }
    fputc('\n', out);
  }
  if (crafter_score_any_goals(methods, count)) write_goals_table(out, methods, count, widths);
  if (count && methods[0].train_levels.count) write_levels_table(out, methods, count, widths);
}

/* Goals: the rate of goals met and, in brackets, the episodes. */
static void write_goals_table(FILE *out, const crafter_score_method *methods, size_t count,
                              const int *widths) {
  enum { LABEL = TABLE_LABEL };
  fprintf(out, "\ngoals met (%%)\n");
  const char *kind = NULL;
  for (int g = -1; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
    long seen = 0;
    for (size_t m = 0; m < count; m++) seen += crafter_score_goal_episodes(&methods[m].goals, g);
    if (!seen) continue;
    if (g >= 0 && kind != crafter_score_goal_group_kind(g)) {
      kind = crafter_score_goal_group_kind(g);
      fprintf(out, "%s\n", kind);
    }
    fprintf(out, "  %-*s", LABEL - 2, g < 0 ? "all" : crafter_score_goal_group_name(g));
    for (size_t m = 0; m < count; m++) {
      char cell[64];
      long episodes = crafter_score_goal_episodes(&methods[m].goals, g);
      if (episodes)
        snprintf(cell, sizeof(cell), "%.1f (%ld)", crafter_score_goal_rate(&methods[m].goals, g), episodes);
      else
        snprintf(cell, sizeof(cell), "-");
      write_cell(out, cell, widths[m]);
    }
    fputc('\n', out);
  }
}

/* Training and unseen levels: two columns per method, each as wide as
 * the method's column above, and the gap across both. */
static void write_levels_table(FILE *out, const crafter_score_method *methods, size_t count,
                               const int *widths) {
  enum { LABEL = TABLE_LABEL };
  const crafter_score_levels *levels = &methods[0].train_levels;
  if (levels->count == 1)
    fprintf(out, "\nlevels: training = episode %lld of seed %lld; unseen = all others\n",
            (long long)levels->first, (long long)levels->seed);
  else
    fprintf(out, "\nlevels: training = episodes %lld..%lld of seed %lld; unseen = all others\n",
            (long long)levels->first, (long long)(levels->first + levels->count - 1),
            (long long)levels->seed);
  fprintf(out, "%-*s", LABEL, "method");
  for (size_t m = 0; m < count; m++) write_cell(out, methods[m].name, 2 * widths[m]);
  fprintf(out, "\n%-*s", LABEL, "");
  for (size_t m = 0; m < count; m++)
    for (int side = 0; side < CRAFTER_SCORE_SIDES; side++)
      write_cell(out, crafter_score_side_name(side), widths[m]);
  fputc('\n', out);
  static const char *const rows[] = {"score (%)", "gap (train-unseen)", "episodes", "seeds"};
  for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
    fprintf(out, "%-*s", LABEL, rows[row]);
    for (size_t m = 0; m < count; m++) {
      char cell[96];
      if (row == 1) {
        format_fixed(cell, sizeof(cell), methods[m].gap, 1);
        write_cell(out, cell, 2 * widths[m]);
        continue;
      }
      for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
        const crafter_score_side *scored = &methods[m].sides[side];
        if (row == 0)
          format_score(cell, sizeof(cell), scored->score_mean, scored->score_std);
        else
          snprintf(cell, sizeof(cell), "%ld", row == 2 ? scored->episodes : scored->seeds);
        write_cell(out, cell, widths[m]);
      }
    }
    fputc('\n', out);
  }
  fprintf(out, "\nsuccess rate (%%) on training and unseen levels\n");
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    fprintf(out, "%-*s", LABEL, crafter_achievement_names[k]);
    for (size_t m = 0; m < count; m++)
      for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
        char cell[64];
        format_fixed(cell, sizeof(cell), methods[m].sides[side].success[k], 1);
        write_cell(out, cell, widths[m]);
      }
    fputc('\n', out);
  }
}

static void write_json_success(crafter_json_writer *json, const double success[ACHIEVEMENTS]) {
  crafter_json_begin_object(json);
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    crafter_json_key(json, crafter_achievement_names[k]);
    crafter_json_double(json, success[k]);
  }
  crafter_json_end_object(json);
}

static void write_json_string_or_null(crafter_json_writer *json, const char *text) {
  if (text)
    crafter_json_string(json, text);
  else
    crafter_json_null(json);
}

static void write_json_pair(crafter_json_writer *json, const char *key, const int pair[2]) {
  crafter_json_key(json, key);
  crafter_json_begin_array(json);
  crafter_json_int(json, pair[0]);
  crafter_json_int(json, pair[1]);
  crafter_json_end_array(json);
}

static void write_json_params(crafter_json_writer *json, const crafter_score_run *run) {
  if (!run->has_params) {
    crafter_json_null(json);
    return;
  }
  const crafter_params *params = &run->params;
  crafter_json_begin_object(json);
  write_json_pair(json, "area", params->area);
  write_json_pair(json, "view", params->view);
  write_json_pair(json, "size", params->size);
  crafter_json_key(json, "length");
  crafter_json_int(json, params->length);
  crafter_json_key(json, "reward");
  crafter_json_bool(json, params->reward);
  crafter_json_end_object(json);
}

static void write_json_runs(crafter_json_writer *json, const crafter_score_set *set) {
  crafter_json_key(json, "runs");
  crafter_json_begin_array(json);
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    crafter_json_begin_object(json);
    crafter_json_key(json, "file");
    write_json_string_or_null(json, run->file);
    crafter_json_key(json, "method");
    crafter_json_string(json, run->method);
    crafter_json_key(json, "method_from");
    crafter_json_string(json, crafter_score_origin_name(run->origin));
    crafter_json_key(json, "seed");
    crafter_json_string(json, run->seed);
    crafter_json_key(json, "agent");
    write_json_string_or_null(json, run->agent);
    crafter_json_key(json, "params");
    write_json_params(json, run);
    crafter_json_key(json, "episodes");
    crafter_json_int(json, run->episodes);
    if (set->train_levels.count) {
      crafter_json_key(json, "train_episodes");
      crafter_json_int(json, run->sides[CRAFTER_SCORE_TRAIN].episodes);
      crafter_json_key(json, "unseen_episodes");
      crafter_json_int(json, run->sides[CRAFTER_SCORE_UNSEEN].episodes);
    }
    crafter_json_end_object(json);
  }
  crafter_json_end_array(json);
}

/* "episodes", "met" and "success" of a group of goals (-1: all). */
static void write_json_goal_counts(crafter_json_writer *json, const crafter_score_goals *goals,
                                   int group) {
  crafter_json_key(json, "episodes");
  crafter_json_int(json, crafter_score_goal_episodes(goals, group));
  crafter_json_key(json, "met");
  crafter_json_int(json, group < 0 ? goals->met : goals->group_met[group]);
  crafter_json_key(json, "success");
  crafter_json_double(json, crafter_score_goal_rate(goals, group));
}

/* "goals": {episodes, met, success, then an object per kind of group
 * ("family", "difficulty", "split") holding each group's counts}. */
static void write_json_goals(crafter_json_writer *json, const crafter_score_goals *goals) {
  crafter_json_key(json, "goals");
  crafter_json_begin_object(json);
  write_json_goal_counts(json, goals, -1);
  const char *kind = NULL;
  for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
    if (kind != crafter_score_goal_group_kind(g)) {
      if (kind) crafter_json_end_object(json);
      kind = crafter_score_goal_group_kind(g);
      crafter_json_key(json, kind);
      crafter_json_begin_object(json);
    }
    crafter_json_key(json, crafter_score_goal_group_name(g));
    crafter_json_begin_object(json);
    write_json_goal_counts(json, goals, g);
    crafter_json_end_object(json);
  }
  crafter_json_end_object(json); /* the last kind */
  crafter_json_end_object(json);
}

/* "train": {...}, "unseen": {...}, "gap": x of a method. */
static void write_json_sides(crafter_json_writer *json, const crafter_score_method *method) {
  for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
    const crafter_score_side *scored = &method->sides[side];
    crafter_json_key(json, crafter_score_side_name(side));
    crafter_json_begin_object(json);
    crafter_json_key(json, "score_mean");
    crafter_json_double(json, scored->score_mean);
    crafter_json_key(json, "score_std");
    crafter_json_double(json, scored->score_std);
    crafter_json_key(json, "success");
    write_json_success(json, scored->success);
    crafter_json_key(json, "episodes");
    crafter_json_int(json, scored->episodes);
    crafter_json_key(json, "seeds");
    crafter_json_int(json, scored->seeds);
    crafter_json_end_object(json);
  }
  crafter_json_key(json, "gap");
  crafter_json_double(json, method->gap);
}

void crafter_score_write_json(FILE *out, const crafter_score_method *methods, size_t count,
                              const crafter_score_set *set) {
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  if (craftax_methods(methods, count)) {
    crafter_json_key(&json, "game");
    crafter_json_string(&json, crafter_game_info_of(methods[0].game)->name);
  }
  crafter_json_key(&json, "methods");
  crafter_json_begin_array(&json);
  int goals = crafter_score_any_goals(methods, count);
  for (size_t m = 0; m < count; m++) {
    const crafter_score_method *method = &methods[m];
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "name");
    crafter_json_string(&json, method->name);
    crafter_json_key(&json, "score_mean");
    crafter_json_double(&json, method->score_mean);
    crafter_json_key(&json, "score_std");
    crafter_json_double(&json, method->score_std);
    crafter_json_key(&json, "success");
    write_json_success(&json, method->success);
    crafter_json_key(&json, "reward_mean");
    crafter_json_double(&json, method->reward_mean);
    if (craftax_methods(method, 1)) {
      crafter_json_key(&json, "return_percent_max");
      crafter_json_double(&json, method->return_percent_max);
    }
    crafter_json_key(&json, "length_mean");
    crafter_json_double(&json, method->length_mean);
    crafter_json_key(&json, "episodes");
    crafter_json_int(&json, method->episodes);
    crafter_json_key(&json, "seeds");
    crafter_json_int(&json, method->seeds);
    if (method->llm) {
      crafter_json_key(&json, "balrog");
      crafter_json_begin_object(&json);
      crafter_json_key(&json, "progression");
      crafter_json_double(&json, method->progression);
      crafter_json_key(&json, "standard_error");
      crafter_json_double(&json, method->progression_se);
      crafter_json_end_object(&json);
      crafter_json_key(&json, "smartplay");
      crafter_json_begin_object(&json);
      crafter_json_key(&json, "score");
      crafter_json_double(&json, method->smartplay_score);
      crafter_json_key(&json, "normalized");
      crafter_json_double(&json, method->smartplay_normalized);
      crafter_json_end_object(&json);
    }
    if (goals) write_json_goals(&json, &method->goals);
    if (method->train_levels.count) write_json_sides(&json, method);
    crafter_json_end_object(&json);
  }
  crafter_json_end_array(&json);
  if (count && methods[0].train_levels.count) {
    const crafter_score_levels *levels = &methods[0].train_levels;
    crafter_json_key(&json, "train_levels");
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "seed");
    crafter_json_int(&json, levels->seed);
    crafter_json_key(&json, "first");
    crafter_json_int(&json, levels->first);
    crafter_json_key(&json, "count");
    crafter_json_int(&json, levels->count);
    crafter_json_end_object(&json);
  }
  if (set) write_json_runs(&json, set);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}

/* A number in CSV: the shortest digits that read back to the same double
 * (as in JSON); an empty field for one that cannot be computed. */
static void write_csv_number(FILE *out, double value) {
  char text[40];
  if (!isfinite(value)) return;
  crafter_json_format_double(text, value);
  fputs(text, out);
}

void crafter_score_write_csv(FILE *out, const crafter_score_method *methods, size_t count) {
  int craftax = craftax_methods(methods, count);
  fputs("method,score_mean,score_std,reward_mean,length_mean,episodes,seeds", out);
  if (craftax) fputs(",return_percent_max", out);
  for (int k = 0; k < ACHIEVEMENTS; k++) fprintf(out, ",%s", crafter_achievement_names[k]);
  int goals = crafter_score_any_goals(methods, count);
  if (goals) {
    fputs(",goal_episodes,goal_success", out);
    for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++)
      fprintf(out, ",%s_%s", crafter_score_goal_group_kind(g), crafter_score_goal_group_name(g));
  }
  int split = count && methods[0].train_levels.count;
  if (split) {
    for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
      const char *name = crafter_score_side_name(side);
      fprintf(out, ",%s_score_mean,%s_score_std,%s_episodes,%s_seeds", name, name, name, name);
      for (int k = 0; k < ACHIEVEMENTS; k++)
        fprintf(out, ",%s_%s", name, crafter_achievement_names[k]);
    }
    fputs(",score_gap", out);
  }
  int llm = count && methods[0].llm;
  if (llm) fputs(",progression,progression_se,smartplay_score,smartplay_normalized", out);
  fputc('\n', out);
  for (size_t m = 0; m < count; m++) {
    const crafter_score_method *method = &methods[m];
    /* RFC 4180: a field with a comma, quote or line break is quoted. */
    if (strpbrk(method->name, ",\"\r\n")) {
      fputc('"', out);
      for (const char *c = method->name; *c; c++) {
        if (*c == '"') fputc('"', out);
        fputc(*c, out);
      }
      fputc('"', out);
    } else {
      fputs(method->name, out);
    }
    double values[] = {method->score_mean, method->score_std, method->reward_mean,
                       method->length_mean};
    for (int i = 0; i < 4; i++) {
      fputc(',', out);
      write_csv_number(out, values[i]);
    }
    fprintf(out, ",%ld,%ld", method->episodes, method->seeds);
    if (craftax) {
      fputc(',', out);
      write_csv_number(out, method->return_percent_max);
    }
    for (int k = 0; k < ACHIEVEMENTS; k++) {
      fputc(',', out);
      write_csv_number(out, method->success[k]);
    }
    if (goals) {
      fprintf(out, ",%ld,", method->goals.episodes);
      write_csv_number(out, crafter_score_goal_rate(&method->goals, -1));
      for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
        fputc(',', out);
        write_csv_number(out, crafter_score_goal_rate(&method->goals, g));
      }
    }
    if (split) {
      for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
        const crafter_score_side *scored = &method->sides[side];
        fputc(',', out);
        write_csv_number(out, scored->score_mean);
        fputc(',', out);
        write_csv_number(out, scored->score_std);
        fprintf(out, ",%ld,%ld", scored->episodes, scored->seeds);
        for (int k = 0; k < ACHIEVEMENTS; k++) {
          fputc(',', out);
          write_csv_number(out, scored->success[k]);
        }
      }
      fputc(',', out);
      write_csv_number(out, method->gap);
    }
    if (llm) {
      double values[] = {method->progression, method->progression_se, method->smartplay_score,
                         method->smartplay_normalized};
      for (int i = 0; i < 4; i++) {
        fputc(',', out);
        write_csv_number(out, values[i]);
      }
    }
    fputc('\n', out);
  }
}
