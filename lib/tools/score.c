/* realpath() is an X/Open function, beyond the POSIX base the build asks for. */
#define _XOPEN_SOURCE 700

#include "tools/score.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/errors.h"
#include "base/json.h"
#include "game/cc_game.h"
#include "game/games.h"
#include "run/levels.h"
#include "run/traj.h"
#include "run/traj_reader.h"

#define ACHIEVEMENTS CRAFTER_ACHIEVEMENT_COUNT

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static long line_at(const char *text, size_t offset) {
  long line = 1;
  for (size_t i = 0; i < offset; i++) line += text[i] == '\n';
  return line;
}

/* The JSON reader says "what at byte K" (K counted from `base` in text);
 * people look for a line and a column. */
static int parse_failure(char *error, size_t error_size, const char *message, const char *text,
                         size_t length, size_t base) {
  const char *at = strstr(message, " at byte ");
  if (!at) return crafter_fail(error, error_size, "line %ld: %s", line_at(text, base), message);
  size_t offset = base + (size_t)strtoull(at + strlen(" at byte "), NULL, 10);
  if (offset > length) offset = length;
  size_t line_start = offset;
  while (line_start > 0 && text[line_start - 1] != '\n') line_start--;
  /* A cut-off file fails at the end of its last line, or in a string
   * that never ends; say so rather than leave the reader to count. */
  int cut = offset == length || text[offset] == '\n' || text[offset] == '\r' ||
            strncmp(message, "unterminated", strlen("unterminated")) == 0;
  return crafter_fail(error, error_size, "line %ld: %.*s at column %zu%s", line_at(text, offset),
               (int)(at - message), message, offset - line_start + 1,
               cut ? " (is the input truncated?)" : "");
}

/* Line of the start of element `index` of the top-level array of a valid
 * JSON text: the reader keeps no positions, and a run file holds many. */
static long element_line(const char *text, size_t length, size_t index) {
  int depth = 0, element_next = 0;
  size_t seen = 0;
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (is_space(c)) continue;
    if (element_next && depth == 1) {
      if (seen++ == index) return line_at(text, i);
      element_next = 0;
    }
    if (c == '"') {
      for (i++; i < length && text[i] != '"'; i++)
        if (text[i] == '\\') i++;
    } else if (c == '[' || c == '{') {
      if (++depth == 1) element_next = 1;
    } else if (c == ']' || c == '}') {
      depth--;
    } else if (c == ',' && depth == 1) {
      element_next = 1;
    }
  }
  return line_at(text, length);
}

static int is_count(const crafter_json *value) {
  return value && value->type == CRAFTER_JSON_NUMBER && value->number >= 0 &&
         value->number <= 1e15 && value->number == floor(value->number);
}

static int is_finite_number(const crafter_json *value) {
  return value && value->type == CRAFTER_JSON_NUMBER && isfinite(value->number);
}

int crafter_score_levels_hold(const crafter_score_levels *levels, int64_t seed, int64_t episode) {
  return seed == levels->seed && episode >= levels->first &&
         episode - levels->first < levels->count;
}

int crafter_score_levels_of_file(crafter_score_levels *levels, const char *path, char *error,
                                 size_t error_size) {
  /* Loading the whole set checks the file; it takes a few milliseconds
   * per hundred levels. */
  crafter_level_set set;
  if (crafter_levels_load(&set, path, error, error_size) < 0) return -1;
  levels->seed = set.seed;
  levels->first = set.first;
  levels->count = set.count;
  crafter_levels_free(&set);
  return 0;
}

const char *crafter_score_side_name(int side) {
  return side == CRAFTER_SCORE_TRAIN ? "train" : side == CRAFTER_SCORE_UNSEEN ? "unseen" : "?";
}

static void add_to_tally(crafter_score_tally *tally, const double counts[ACHIEVEMENTS]) {
  tally->episodes++;
  for (int k = 0; k < ACHIEVEMENTS; k++) tally->successes[k] += counts[k] >= 1;
}

static void free_episode_lists(crafter_score_run *run) {
  free(run->episode_unlocked);
  free(run->episode_smartplay);
  run->episode_unlocked = NULL;
  run->episode_smartplay = NULL;
  run->episode_room = 0;
}

/* Adds an episode; `smartplay` is its SmartPlay score, NaN when not
 * known.  Returns 0, or -1 when out of memory (the run unchanged). */
static int add_episode(crafter_score_run *run, double reward, double length,
                       const double counts[ACHIEVEMENTS], double smartplay) {
  if ((size_t)run->episodes == run->episode_room) {
    size_t room = run->episode_room ? 2 * run->episode_room : 64;
    uint8_t *unlocked = realloc(run->episode_unlocked, room);
    if (unlocked) run->episode_unlocked = unlocked;
    double *scores = unlocked ? realloc(run->episode_smartplay, room * sizeof(*scores)) : NULL;
    if (!scores) return -1;
    run->episode_smartplay = scores;
    run->episode_room = room;
  }
  int unlocked = 0;
  /* The reference counts an achievement as unlocked when its count is >= 1. */
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    run->successes[k] += counts[k] >= 1;
    unlocked += counts[k] >= 1;
  }
  run->episode_unlocked[run->episodes] = (uint8_t)unlocked;
  run->episode_smartplay[run->episodes] = smartplay;
  run->episodes++;
  run->reward_sum += reward;
  run->length_sum += length;
  return 0;
}

/* Adds a run to the set unless its method and seed are there already. */
static int add_run(crafter_score_set *set, const crafter_score_run *run, char *problem,
                   size_t problem_size) {
  /* With a split of levels a training and a test recording of one agent
   * share its method and seed: they are one run, pooled when scored. */
  for (size_t i = 0; i < set->count && !set->train_levels.count; i++) {
    const crafter_score_run *other = &set->runs[i];
    if (strcmp(other->method, run->method) != 0 || strcmp(other->seed, run->seed) != 0) continue;
    char shown[256] = "";
    if (other->file) {
      char file[200];
      snprintf(shown, sizeof(shown), " from %s",
               crafter_escape(file, sizeof(file), other->file, strlen(other->file)));
    }
    /* Two recordings of one agent and seed: most likely shards of one
     * (unless the seed is the user's). */
    int same_agent = run->agent && other->agent && strcmp(run->agent, other->agent) == 0 &&
                     run->seed_recorded && other->seed_recorded;
    return crafter_fail(problem, problem_size, "method '%s' seed '%s' is already read%s%s",
                        run->method, run->seed, shown,
                        same_agent ? " (shards of one recording? crafter-dataset merge joins them)"
                                   : "");
  }
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? set->capacity * 2 : 16;
    crafter_score_run *runs = realloc(set->runs, capacity * sizeof(*runs));
    if (!runs) return crafter_fail(problem, problem_size, "out of memory");
    set->runs = runs;
    set->capacity = capacity;
  }
  set->runs[set->count++] = *run;
  return 0;
}

static char *copy_text(const char *text) {
  char *copy = malloc(strlen(text) + 1);
  if (copy) strcpy(copy, text);
  return copy;
}

static size_t runs_of_method(const crafter_score_set *set, const char *method) {
  size_t count = 0;
  for (size_t i = 0; i < set->count; i++) count += strcmp(set->runs[i].method, method) == 0;
  return count;
}

/* Names a run read from one file, by the seed given or else by its number
 * among the method's runs, and adds it to the set; on failure frees the
 * names and leaves the reason in problem. */
static int add_named_run(crafter_score_set *set, crafter_score_run *run, const char *method,
                         const char *seed, char *problem, size_t problem_size) {
  char index[32];
  if (!seed) {
    snprintf(index, sizeof(index), "%zu", runs_of_method(set, method));
    seed = index;
  }
  run->method = copy_text(method);
  run->seed = copy_text(seed);
  if (run->method && run->seed && add_run(set, run, problem, problem_size) == 0) return 0;
  if (!run->method || !run->seed) snprintf(problem, problem_size, "out of memory");
  free(run->method);
  free(run->seed);
  free(run->agent);
  free_episode_lists(run);
  return -1;
}

/* A stats.jsonl log: one episode per line, the file one run. */
static int read_stats(crafter_score_set *set, const char *text, size_t length, const char *method,
                      const char *log_method, const char *seed, char *error, size_t error_size) {
  crafter_score_run run = {0};
  run.game = -1;
  run.origin = method ? CRAFTER_SCORE_FROM_OPTION : CRAFTER_SCORE_FROM_DIRECTORY;
  if (!method) method = log_method ? log_method : "unknown";
  double steps = 0;
  long line = 0;
  for (size_t start = 0; start < length;) {
    const char *newline = memchr(text + start, '\n', length - start);
    size_t end = newline ? (size_t)(newline - text) : length;
    line++;
    size_t first = start;
    while (first < end && is_space(text[first])) first++;
    if (first < end) {
      crafter_json_document document;
      char message[256];
      if (crafter_json_parse(&document, text + start, end - start, message, sizeof(message)) < 0) {
        free_episode_lists(&run);
        return parse_failure(error, error_size, message, text, length, start);
      }
      const crafter_json *episode = &document.root;
      const crafter_json *steps_value = crafter_json_get(episode, "length");
      const crafter_json *reward = crafter_json_get(episode, "reward");
      double counts[ACHIEVEMENTS];
      int status = 0;
      if (episode->type != CRAFTER_JSON_OBJECT)
        status = crafter_fail(error, error_size, "line %ld: expected an episode object", line);
      else if (!is_count(steps_value))
        status = crafter_fail(error, error_size, "line %ld: \"length\" is missing or not a count", line);
      else if (!is_finite_number(reward))
        status = crafter_fail(error, error_size, "line %ld: \"reward\" is missing or not a number", line);
      for (int k = 0; k < ACHIEVEMENTS && status == 0; k++) {
        char key[64];
        snprintf(key, sizeof(key), "achievement_%s", crafter_achievement_names[k]);
        const crafter_json *count = crafter_json_get(episode, key);
        if (!is_count(count))
          status =
              crafter_fail(error, error_size, "line %ld: \"%s\" is missing or not a count", line, key);
        else
          counts[k] = count->number;
      }
      if (status == 0) {
        /* xs of the analysis scripts: env steps when the episode ended. */
        steps += steps_value->number;
        if (steps <= set->budget &&
            add_episode(&run, reward->number, steps_value->number, counts, NAN) < 0)
          status = crafter_fail(error, error_size, "line %ld: out of memory", line);
      }
      crafter_json_free(&document);
      if (status < 0) {
        free_episode_lists(&run);
        return status;
      }
    }
    start = end + 1;
  }
  char problem[256];
  if (add_named_run(set, &run, method, seed, problem, sizeof(problem)) == 0) return 0;
  return crafter_fail(error, error_size, "line 1: %s", problem);
}

/* A list of per-episode values: each a count, or each a finite number. */
static const crafter_json *episode_list(const crafter_json *run, const char *key, size_t episodes,
                                        int counts, char *problem, size_t problem_size) {
  const crafter_json *list = crafter_json_get(run, key);
  if (!list || list->type != CRAFTER_JSON_ARRAY) {
    snprintf(problem, problem_size, "\"%s\" is missing or not a list", key);
    return NULL;
  }
  if (list->length != episodes) {
    snprintf(problem, problem_size, "\"%s\" has %zu values for %zu episodes in \"xs\"", key,
             list->length, episodes);
    return NULL;
  }
  for (size_t i = 0; i < episodes; i++)
    if (counts ? !is_count(&list->items[i]) : !is_finite_number(&list->items[i])) {
      snprintf(problem, problem_size, "\"%s\" value %zu is not a %s", key, i + 1,
               counts ? "count" : "number");
      return NULL;
    }
  return list;
}

/* One run of a run file; on a problem returns -1 with it in `problem`. */
static int read_run(const crafter_json *object, double budget, crafter_score_run *run,
                    char *problem, size_t problem_size) {
  if (object->type != CRAFTER_JSON_OBJECT)
    return crafter_fail(problem, problem_size, "expected a run object");
  const crafter_json *method = crafter_json_get(object, "method");
  const crafter_json *seed = crafter_json_get(object, "seed");
  const crafter_json *xs = crafter_json_get(object, "xs");
  if (!method || method->type != CRAFTER_JSON_STRING)
    return crafter_fail(problem, problem_size, "\"method\" is missing or not a string");
  /* Names are compared as C strings: one cut at a NUL would pool with
   * every name that begins alike. */
  if (strlen(method->string) != method->length)
    return crafter_fail(problem, problem_size, "\"method\" holds a NUL character (\\u0000)");
  /* The reference writes seeds as strings; a number is taken as its text. */
  char number[32];
  if (is_count(seed))
    snprintf(number, sizeof(number), "%.0f", seed->number);
  else if (!seed || seed->type != CRAFTER_JSON_STRING)
    return crafter_fail(problem, problem_size, "\"seed\" is missing or not a string");
  else if (strlen(seed->string) != seed->length)
    return crafter_fail(problem, problem_size, "\"seed\" holds a NUL character (\\u0000)");
  if (!xs || xs->type != CRAFTER_JSON_ARRAY)
    return crafter_fail(problem, problem_size, "\"xs\" is missing or not a list");
  size_t episodes = xs->length;
  if (!episode_list(object, "xs", episodes, 1, problem, problem_size)) return -1;
  for (size_t i = 1; i < episodes; i++)
    if (xs->items[i].number < xs->items[i - 1].number)
      return crafter_fail(problem, problem_size, "\"xs\" decreases at value %zu", i + 1);
  const crafter_json *lengths = episode_list(object, "length", episodes, 1, problem, problem_size);
  const crafter_json *rewards =
      lengths ? episode_list(object, "reward", episodes, 0, problem, problem_size) : NULL;
  if (!rewards) return -1;
  const crafter_json *lists[ACHIEVEMENTS];
  for (int k = 0; k < ACHIEVEMENTS; k++) {
    char key[64];
    snprintf(key, sizeof(key), "achievement_%s", crafter_achievement_names[k]);
    lists[k] = episode_list(object, key, episodes, 1, problem, problem_size);
    if (!lists[k]) return -1;
  }
  memset(run, 0, sizeof(*run));
  run->game = -1;
  /* xs is sorted, so the episodes within the budget are the first ones. */
  int status = 0;
  for (size_t i = 0; i < episodes && xs->items[i].number <= budget && status == 0; i++) {
    double counts[ACHIEVEMENTS];
    for (int k = 0; k < ACHIEVEMENTS; k++) counts[k] = lists[k]->items[i].number;
    status = add_episode(run, rewards->items[i].number, lengths->items[i].number, counts, NAN);
  }
  run->method = status == 0 ? copy_text(method->string) : NULL;
  run->seed = status == 0 ? copy_text(seed->type == CRAFTER_JSON_STRING ? seed->string : number)
                          : NULL;
  if (run->method && run->seed) return 0;
  free(run->method);
  free(run->seed);
  free_episode_lists(run);
  return crafter_fail(problem, problem_size, "out of memory");
}

/* A run file: a list of runs, or one run object. */
static int read_run_file(crafter_score_set *set, const char *text, size_t length,
                         const crafter_json *root, char *error, size_t error_size) {
  int is_list = root->type == CRAFTER_JSON_ARRAY;
  size_t count = is_list ? root->length : 1;
  if (count == 0) return crafter_fail(error, error_size, "line 1: the list of runs is empty");
  for (size_t i = 0; i < count; i++) {
    crafter_score_run run;
    char problem[256];
    int status =
        read_run(is_list ? &root->items[i] : root, set->budget, &run, problem, sizeof(problem));
    if (status == 0 && add_run(set, &run, problem, sizeof(problem)) < 0) {
      free(run.method);
      free(run.seed);
      free_episode_lists(&run);
      status = -1;
    }
    if (status < 0) {
      /* Found only now: a long run file would be scanned once per run. */
      size_t first = 0;
      while (first < length && text[first] != '{') first++;
      long line = is_list ? element_line(text, length, i) : line_at(text, first);
      return crafter_fail(error, error_size, "line %ld: run %zu: %s", line, i + 1, problem);
    }
  }
  return 0;
}

void crafter_score_set_init(crafter_score_set *set, double budget) {
  memset(set, 0, sizeof(*set));
  set->budget = budget;
  set->game = -1;
}

static void truncate_set(crafter_score_set *set, size_t count) {
  while (set->count > count) {
    crafter_score_run *run = &set->runs[--set->count];
    free(run->method);
    free(run->seed);
    free(run->file);
    free(run->agent);
    free_episode_lists(run);
  }
}

void crafter_score_set_free(crafter_score_set *set) {
  truncate_set(set, 0);
  free(set->runs);
  memset(set, 0, sizeof(*set));
}

/* A trajectory file (crafter-trajectory(5)): the file is one run, its
 * episodes those that ended (not cut), in file order. */
const char *crafter_score_goal_group_kind(int group) {
  if (group < CRAFTER_TASK_FAMILY_COUNT) return "family";
  if (group < CRAFTER_TASK_FAMILY_COUNT + CRAFTER_DIFFICULTY_COUNT) return "difficulty";
  return "split";
}

const char *crafter_score_goal_group_name(int group) {
  if (group < CRAFTER_TASK_FAMILY_COUNT) return crafter_task_family_names[group];
  group -= CRAFTER_TASK_FAMILY_COUNT;
  if (group < CRAFTER_DIFFICULTY_COUNT) return crafter_task_difficulty_names[group];
  return crafter_task_split_names[group - CRAFTER_DIFFICULTY_COUNT];
}

static void add_goal(crafter_score_goals *goals, const crafter_task *task, int met) {
  int groups[3] = {task->family, CRAFTER_TASK_FAMILY_COUNT + task->difficulty,
                   CRAFTER_TASK_FAMILY_COUNT + CRAFTER_DIFFICULTY_COUNT + task->split};
  goals->episodes++;
  goals->met += met;
  for (int i = 0; i < 3; i++) {
    goals->group_episodes[groups[i]]++;
    goals->group_met[groups[i]] += met;
  }
}

static void add_goals(crafter_score_goals *to, const crafter_score_goals *from) {
  to->episodes += from->episodes;
  to->met += from->met;
  for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
    to->group_episodes[g] += from->group_episodes[g];
    to->group_met[g] += from->group_met[g];
  }
}

/* The run of a trajectory file's episodes (player `player`'s, or all for
 * -1); `given`: the method comes from the command line. */
static int read_player(crafter_score_set *set, crafter_traj_reader *reader, int player,
                       const char *method, int given, const char *seed, char *problem,
                       size_t problem_size) {
  const crafter_traj_header *header = crafter_traj_header_of(reader);
  crafter_score_run run = {0};
  run.game = header->game;
  run.origin = given ? CRAFTER_SCORE_FROM_OPTION : CRAFTER_SCORE_FROM_AGENT;
  run.agent = copy_text(header->agent[0] ? header->agent : "unknown");
  run.has_params = 1;
  run.params = header->params;
  run.seed_recorded = seed == NULL;
  char recorded_seed[32];
  snprintf(recorded_seed, sizeof(recorded_seed), "%lld", (long long)header->params.seed);
  if (!method) method = run.agent ? run.agent : "unknown";
  if (!seed) seed = recorded_seed;
  double steps = 0;
  for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
    const crafter_traj_episode *episode = crafter_traj_episode_at(reader, i);
    if (episode->end == CRAFTER_TRAJ_CUT || (player >= 0 && episode->player != player)) continue;
    double counts[ACHIEVEMENTS];
    for (int k = 0; k < ACHIEVEMENTS; k++) counts[k] = episode->achievements[k];
    steps += episode->steps;
    if (steps > set->budget) continue;
    double smartplay = NAN;
    if (set->llm) {
      /* The steps, read and checked, for SmartPlay's score. */
      crafter_traj_data data;
      char why[256];
      if (crafter_traj_read_steps(reader, i, &data, why, sizeof(why)) < 0) {
        free(run.agent);
        free_episode_lists(&run);
        return crafter_fail(problem, problem_size, "episode %zu (seed %lld, episode %lld): %s",
                            i + 1, (long long)episode->seed, (long long)episode->episode, why);
      }
      uint32_t *unlocked = malloc((data.steps_count ? data.steps_count : 1) * sizeof(*unlocked));
      if (unlocked) {
        for (size_t t = 0; t < data.steps_count; t++) unlocked[t] = data.steps[t].unlocked;
        smartplay = crafter_score_smartplay_of_steps(unlocked, data.steps_count);
      }
      crafter_traj_data_free(&data);
      free(unlocked);
      if (!unlocked) {
        free(run.agent);
        free_episode_lists(&run);
        return crafter_fail(problem, problem_size, "out of memory");
      }
    }
    if (add_episode(&run, episode->reward, episode->steps, counts, smartplay) < 0) {
      free(run.agent);
      free_episode_lists(&run);
      return crafter_fail(problem, problem_size, "out of memory");
    }
    if (set->train_levels.count)
      add_to_tally(&run.sides[crafter_score_levels_hold(&set->train_levels, episode->seed,
                                                        episode->episode)
                                  ? CRAFTER_SCORE_TRAIN
                                  : CRAFTER_SCORE_UNSEEN],
                   counts);
    if (header->tasks && episode->task >= 0)
      add_goal(&run.goals, &header->tasks->tasks[episode->task],
               episode->end == CRAFTER_TRAJ_GOAL);
  }
  return run.agent ? add_named_run(set, &run, method, seed, problem, problem_size)
                   : crafter_fail(problem, problem_size, "out of memory");
}

static int read_trajectory(crafter_score_set *set, const char *text, size_t length,
                           const char *method, const char *seed, char *error, size_t error_size) {
  char problem[300];
  crafter_traj_reader *reader =
      crafter_traj_open_memory((const uint8_t *)text, length, problem, sizeof(problem));
  if (!reader) return crafter_fail(error, error_size, "%s", problem);
  /* Files of two games are scored apart. */
  int game = crafter_traj_header_of(reader)->game;
  if (set->game >= 0 && set->game != game) {
    const char *other = "another file";
    for (size_t i = 0; i < set->count; i++)
      if (set->runs[i].game == set->game && set->runs[i].file) {
        other = set->runs[i].file;
        break;
      }
    char shown[256];
    crafter_escape(shown, sizeof(shown), other, strlen(other));
    crafter_traj_close(reader);
    return crafter_fail(error, error_size,
                        "a trajectory of %s, but %s holds %s's: files of two games are not "
                        "scored together (give each game's files to crafter-score apart)",
                        crafter_game_info_of(game)->name, shown,
                        crafter_game_info_of(set->game)->name);
  }
  const crafter_traj_status *damage = crafter_traj_status_of(reader);
  size_t noted = 0;
  if (damage->damaged)
    noted = (size_t)snprintf(set->note, sizeof(set->note),
                             "damaged from byte %llu: %s; only its %zu intact episodes are scored",
                             (unsigned long long)damage->damage_offset, damage->damage,
                             crafter_traj_episode_count(reader));
  if (damage->duplicates && noted < sizeof(set->note))
    noted += (size_t)snprintf(
        set->note + noted, sizeof(set->note) - noted,
        "%s%ld chunk%s repeat%s an episode already in the file; each episode is scored once",
        noted ? "; " : "", damage->duplicates, damage->duplicates == 1 ? "" : "s",
        damage->duplicates == 1 ? "s" : "");
  /* Several players: a world episode missing a player's chunk is damage,
   * none of its players' episodes scored. */
  if (damage->partial_worlds && noted < sizeof(set->note))
    snprintf(set->note + noted, sizeof(set->note) - noted,
             "%sdamaged: %ld world episode%s lack%s a player's chunk (from byte %llu: %s); "
             "no player's episode of %s is scored",
             noted ? "; " : "", damage->partial_worlds, damage->partial_worlds == 1 ? "" : "s",
             damage->partial_worlds == 1 ? "s" : "", (unsigned long long)damage->partial_offset,
             damage->partial, damage->partial_worlds == 1 ? "it" : "them");
  const crafter_traj_header *header = crafter_traj_header_of(reader);
  /* A file of several players gives a run per player, its method named
   * "METHOD player P": each player's success rates and score apart. */
  int players = header->players > 1 ? header->players : 1;
  int status = 0;
  for (int p = 0; p < players && status == 0; p++) {
    char named[300];
    const char *player_method = method;
    if (players > 1) {
      snprintf(named, sizeof(named), "%s player %d",
               method ? method : header->agent[0] ? header->agent : "unknown", p);
      player_method = named;
    }
    status = read_player(set, reader, players > 1 ? p : -1, player_method, method != NULL, seed,
                         problem, sizeof(problem));
  }
  crafter_traj_close(reader);
  if (status == 0) {
    set->game = game;
    return 0;
  }
  return crafter_fail(error, error_size, "%s", problem);
}

int crafter_score_read(crafter_score_set *set, const char *text, size_t length, const char *method,
                       const char *log_method, const char *seed, char *error, size_t error_size) {
  set->note[0] = '\0';
  if (crafter_traj_is_trajectory(text, length))
    return read_trajectory(set, text, length, method, seed, error, error_size);
  size_t first = 0;
  while (first < length && is_space(text[first])) first++;
  if (first == length) return crafter_fail(error, error_size, "line 1: empty input: no episodes or runs");
  if (text[first] != '[' && text[first] != '{')
    return crafter_fail(error, error_size,
                 "line %ld: not JSON: expected a stats.jsonl episode or a list of runs",
                 line_at(text, first));
  size_t before = set->count;
  crafter_json_document document;
  char message[256];
  int status;
  /* A run file is one JSON document; a stats log with more than one
   * episode is not (it stops parsing at the end of its first line). */
  int whole = crafter_json_parse(&document, text, length, message, sizeof(message)) == 0;
  int is_run_file =
      whole && (document.root.type == CRAFTER_JSON_ARRAY || crafter_json_get(&document.root, "xs"));
  /* Counting them all as unseen would pass training episodes off as a
   * test: better no numbers than wrong ones. */
  if (set->train_levels.count && (is_run_file || text[first] != '['))
    status = crafter_fail(error, error_size,
                          "a %s does not record which levels its episodes played: only "
                          "trajectory files can be split into training and unseen levels",
                          is_run_file ? "run file" : "stats.jsonl log");
  else if (is_run_file)
    status = read_run_file(set, text, length, &document.root, error, error_size);
  else if (text[first] == '[')
    status = parse_failure(error, error_size, message, text, length, 0);
  else
    status = read_stats(set, text, length, method, log_method, seed, error, error_size);
  if (whole) crafter_json_free(&document);
  if (status < 0) truncate_set(set, before);
  return status;
}

/* The name of the directory holding path: Crafter's logdirs are named
 * after the method. */
static char *directory_name(const char *path) {
  char *full = realpath(path, NULL);
  if (!full) return copy_text("unknown");
  char *slash = strrchr(full, '/');
  if (slash) *slash = '\0';
  slash = strrchr(full, '/');
  char *name = copy_text(slash && slash[1] ? slash + 1 : "/");
  free(full);
  return name;
}

int crafter_score_read_file(crafter_score_set *set, const char *path, const char *method,
                            const char *seed, char *error, size_t error_size) {
  int is_stdin = strcmp(path, "-") == 0;
  /* Files of one method and seed join one run when levels are split, so
   * nothing else stops a file from counting twice. */
  for (size_t i = 0; set->train_levels.count && !is_stdin && i < set->count; i++)
    if (set->runs[i].file && strcmp(set->runs[i].file, path) == 0)
      return crafter_fail(error, error_size, "%s: the file is given twice", path);
  FILE *file = is_stdin ? stdin : fopen(path, "rb");
  if (!file) return crafter_fail(error, error_size, "%s: %s", path, strerror(errno));
  char *text = NULL;
  size_t length = 0, capacity = 0;
  int read_error = 0;
  for (;;) {
    if (capacity - length < 65536) {
      capacity = capacity ? capacity * 2 : 65536;
      char *grown = realloc(text, capacity);
      if (!grown) {
        read_error = ENOMEM;
        break;
      }
      text = grown;
    }
    size_t got = fread(text + length, 1, capacity - length, file);
    length += got;
    if (got == 0) {
      if (ferror(file)) read_error = errno ? errno : EIO;
      break;
    }
  }
  if (!is_stdin) fclose(file);
  if (read_error) {
    free(text);
    return crafter_fail(error, error_size, "%s: %s", is_stdin ? "standard input" : path,
                 strerror(read_error));
  }
  char *directory = method ? NULL : is_stdin ? copy_text("stdin") : directory_name(path);
  char message[512];
  int status = -1;
  size_t before = set->count;
  if (method || directory)
    status = crafter_score_read(set, text, length, method, directory, seed, message,
                                sizeof(message));
  else
    snprintf(message, sizeof(message), "out of memory");
  for (size_t i = before; status == 0 && i < set->count; i++) {
    crafter_score_run *run = &set->runs[i];
    if (is_stdin && run->origin == CRAFTER_SCORE_FROM_DIRECTORY)
      run->origin = CRAFTER_SCORE_FROM_STDIN;
    run->file = copy_text(is_stdin ? "standard input" : path);
    if (!run->file) {
      truncate_set(set, before);
      status = crafter_fail(message, sizeof(message), "out of memory");
    }
  }
  if (status < 0)
    crafter_fail(error, error_size, "%s: %s", is_stdin ? "standard input" : path, message);
  if (status == 0 && set->note[0]) {
    const char *name = is_stdin ? "standard input" : path;
    size_t name_length = strlen(name);
    if (name_length + 2 < sizeof(set->note)) {
      size_t note_length = strnlen(set->note, sizeof(set->note) - name_length - 3);
      memmove(set->note + name_length + 2, set->note, note_length);
      set->note[name_length + 2 + note_length] = '\0';
      memcpy(set->note, name, name_length);
      memcpy(set->note + name_length, ": ", 2);
    }
  }
  free(directory);
  free(text);
  return status;
}

const char *crafter_score_origin_name(int origin) {
  static const char *const names[] = {"run file", "agent", "directory name", "standard input",
                                      "--method"};
  return origin >= 0 && origin <= CRAFTER_SCORE_FROM_OPTION ? names[origin] : "?";
}

double crafter_score_of_rates(const double *percents, size_t count) {
  double sum = 0;
  size_t used = 0;
  for (size_t i = 0; i < count; i++) {
    if (isnan(percents[i])) continue;
    sum += log(1 + percents[i]);
    used++;
  }
  return used ? exp(sum / (double)used) - 1 : NAN;
}

double crafter_score_smartplay_of_steps(const uint32_t *unlocked, size_t steps) {
  uint32_t so_far = 0;
  double score = 0;
  for (size_t t = 0; t < steps; t++) {
    so_far |= unlocked[t];
    score += __builtin_popcount(so_far);
  }
  return score;
}

/* numpy 1.24's pairwise summation (pairwise_sum of loops_utils.h): runs
 * of fewer than 8 added in order, up to 128 in eight interleaved sums,
 * longer ones split in two halves of a multiple of 8. */
static double pairwise(const double *values, size_t n) {
  if (n < 8) {
    double sum = 0.;
    for (size_t i = 0; i < n; i++) sum += values[i];
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; j++) r[j] = values[j];
    size_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; j++) r[j] += values[i + j];
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) sum += values[i];
    return sum;
  }
  size_t half = n / 2;
  half -= half % 8;
  return pairwise(values, half) + pairwise(values + half, n - half);
}

double crafter_score_numpy_sum(const double *values, size_t n) {
  /* The reduction starts from add's identity, 0, and adds the pairwise
   * sum of the whole array to it. */
  return 0. + pairwise(values, n);
}

static void tally_rates(long episodes, const long successes[ACHIEVEMENTS],
                        double percents[ACHIEVEMENTS]) {
  for (int k = 0; k < ACHIEVEMENTS; k++)
    percents[k] = 100.0 * (double)successes[k] / (double)episodes;
}

/* The episodes of a seed, all of them (side -1) or one side's. */
static long seed_episodes(const crafter_score_run *seed, int side) {
  return side < 0 ? seed->episodes : seed->sides[side].episodes;
}

static const long *seed_successes(const crafter_score_run *seed, int side) {
  return side < 0 ? seed->successes : seed->sides[side].successes;
}

/* Scores seeds as the paper scores runs, over those with episodes (on
 * `side`, or all of them for -1): the mean and population deviation of
 * their scores and the mean of each success rate. */
static void score_seeds(const crafter_score_run *seeds, size_t count, int side,
                        crafter_score_side *out) {
  double score_sum = 0, success_sum[ACHIEVEMENTS] = {0};
  memset(out, 0, sizeof(*out));
  for (size_t i = 0; i < count; i++) {
    long episodes = seed_episodes(&seeds[i], side);
    if (episodes == 0) continue;
    double percents[ACHIEVEMENTS];
    tally_rates(episodes, seed_successes(&seeds[i], side), percents);
    score_sum += crafter_score_of_rates(percents, ACHIEVEMENTS);
    for (int k = 0; k < ACHIEVEMENTS; k++) success_sum[k] += percents[k];
    out->episodes += episodes;
    out->seeds++;
  }
  double used = out->seeds ? (double)out->seeds : NAN; /* no seeds: NaN, as nanmean */
  out->score_mean = score_sum / used;
  for (int k = 0; k < ACHIEVEMENTS; k++) out->success[k] = success_sum[k] / used;
  /* numpy's nanstd: the population deviation (ddof 0), as the paper. */
  double squares = 0;
  for (size_t i = 0; i < count; i++) {
    long episodes = seed_episodes(&seeds[i], side);
    if (episodes == 0) continue;
    double percents[ACHIEVEMENTS];
    tally_rates(episodes, seed_successes(&seeds[i], side), percents);
    double deviation = crafter_score_of_rates(percents, ACHIEVEMENTS) - out->score_mean;
    squares += deviation * deviation;
  }
  /* One seed says nothing of the spread; numpy's 0 would claim none. */
  out->score_std = out->seeds > 1 ? sqrt(squares / used) : NAN;
}

static int same_seed(const crafter_score_run *a, const crafter_score_run *b) {
  return strcmp(a->method, b->method) == 0 && strcmp(a->seed, b->seed) == 0;
}

/* Pools run `first` and the later runs of its method and seed (there are
 * such only in a set that splits levels) into one seed. */
static void pool_seed(const crafter_score_set *set, size_t first, crafter_score_run *seed) {
  *seed = set->runs[first];
  for (size_t i = first + 1; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    if (!same_seed(run, seed)) continue;
    seed->episodes += run->episodes;
    for (int k = 0; k < ACHIEVEMENTS; k++) seed->successes[k] += run->successes[k];
    seed->reward_sum += run->reward_sum;
    seed->length_sum += run->length_sum;
    add_goals(&seed->goals, &run->goals);
    for (int side = 0; side < CRAFTER_SCORE_SIDES; side++) {
      seed->sides[side].episodes += run->sides[side].episodes;
      for (int k = 0; k < ACHIEVEMENTS; k++)
        seed->sides[side].successes[k] += run->sides[side].successes[k];
    }
  }
}

/* BALROG's progression and SmartPlay's score of a method's episodes,
 * all its runs in the order read (score.h says how each suite computes
 * them). */
static void summarize_suites(const crafter_score_set *set, crafter_score_method *method) {
  method->llm = set->llm;
  method->progression = method->progression_se = NAN;
  method->smartplay_score = method->smartplay_normalized = NAN;
  if (!set->llm) return;
  size_t n = 0;
  double sum = 0;
  int smartplay_known = 1;
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    if (strcmp(run->method, method->name) != 0) continue;
    for (long e = 0; e < run->episodes; e++) {
      sum += (double)run->episode_unlocked[e] / 22.0;
      smartplay_known &= !isnan(run->episode_smartplay[e]);
      n++;
    }
  }
  if (n == 0) return;
  double mean = sum / (double)n, squares = 0;
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    if (strcmp(run->method, method->name) != 0) continue;
    for (long e = 0; e < run->episodes; e++) {
      double deviation = (double)run->episode_unlocked[e] / 22.0 - mean;
      squares += deviation * deviation;
    }
  }
  double error = n > 1 ? sqrt(squares / (double)n) / sqrt((double)n) : 0.0;
  method->progression = 100 * mean;
  method->progression_se = 100 * error;
  if (!smartplay_known) return;
  double *scores = malloc(2 * n * sizeof(*scores));
  if (!scores) return; /* unknown, as it could not be computed */
  double *normalized = scores + n;
  size_t at = 0;
  for (size_t i = 0; i < set->count; i++) {
    const crafter_score_run *run = &set->runs[i];
    if (strcmp(run->method, method->name) != 0) continue;
    for (long e = 0; e < run->episodes; e++, at++) {
      scores[at] = run->episode_smartplay[e];
      normalized[at] = (scores[at] - 0) / (CRAFTER_SCORE_SMARTPLAY_HUMAN - 0);
    }
  }
  method->smartplay_score = crafter_score_numpy_sum(scores, n) / (double)n;
  method->smartplay_normalized = crafter_score_numpy_sum(normalized, n) / (double)n;
  free(scores);
}

/* `seeds` has room for every run of the set. */
static void summarize_method(const crafter_score_set *set, crafter_score_method *method,
                             crafter_score_run *seeds) {
  size_t count = 0;
  for (size_t i = 0; i < set->count; i++) {
    if (strcmp(set->runs[i].method, method->name) != 0) continue;
    size_t earlier = 0;
    while (earlier < i && !same_seed(&set->runs[earlier], &set->runs[i])) earlier++;
    if (earlier == i) pool_seed(set, i, &seeds[count++]);
  }
  crafter_score_side all;
  score_seeds(seeds, count, -1, &all);
  method->score_mean = all.score_mean;
  method->score_std = all.score_std;
  memcpy(method->success, all.success, sizeof(method->success));
  method->episodes = all.episodes;
  method->seeds = all.seeds;
  double reward_sum = 0, length_sum = 0;
  for (size_t i = 0; i < count; i++) {
    const crafter_score_run *seed = &seeds[i];
    if (seed->episodes == 0) continue;
    reward_sum += seed->reward_sum / (double)seed->episodes;
    length_sum += seed->length_sum / (double)seed->episodes;
    add_goals(&method->goals, &seed->goals);
  }
  double used = method->seeds ? (double)method->seeds : NAN;
  method->reward_mean = reward_sum / used;
  method->length_mean = length_sum / used;
  method->game = set->game;
  const crafter_game_info *game = crafter_game_info_of(set->game);
  method->return_percent_max = game && game->max_return > 0
                                   ? 100.0 * method->reward_mean / game->max_return
                                   : NAN;
  summarize_suites(set, method);
  method->train_levels = set->train_levels;
  if (!set->train_levels.count) return;
  for (int side = 0; side < CRAFTER_SCORE_SIDES; side++)
    score_seeds(seeds, count, side, &method->sides[side]);
  method->gap = method->sides[CRAFTER_SCORE_TRAIN].score_mean -
                method->sides[CRAFTER_SCORE_UNSEEN].score_mean;
}

crafter_score_method *crafter_score_summarize(const crafter_score_set *set, size_t *count) {
  *count = 0;
  if (set->count == 0) return NULL;
  crafter_score_method *methods = calloc(set->count, sizeof(*methods));
  crafter_score_run *seeds = malloc(set->count * sizeof(*seeds));
  if (!methods || !seeds) {
    free(methods);
    free(seeds);
    return NULL;
  }
  for (size_t i = 0; i < set->count; i++) {
    size_t m = 0;
    while (m < *count && strcmp(methods[m].name, set->runs[i].method) != 0) m++;
    if (m == *count) methods[(*count)++].name = set->runs[i].method;
  }
  for (size_t m = 0; m < *count; m++) summarize_method(set, &methods[m], seeds);
  free(seeds);
  return methods;
}

int crafter_score_any_goals(const crafter_score_method *methods, size_t count) {
  for (size_t m = 0; m < count; m++)
    if (methods[m].goals.episodes) return 1;
  return 0;
}

/* Episodes of a group of goals (-1: all), and the percentage met (NaN
 * for none). */
long crafter_score_goal_episodes(const crafter_score_goals *goals, int group) {
  return group < 0 ? goals->episodes : goals->group_episodes[group];
}

double crafter_score_goal_rate(const crafter_score_goals *goals, int group) {
  long episodes = crafter_score_goal_episodes(goals, group);
  long met = group < 0 ? goals->met : goals->group_met[group];
  return episodes ? 100.0 * (double)met / (double)episodes : NAN;
}
