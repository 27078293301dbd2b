/* realpath() is an X/Open function, beyond the POSIX base the build asks for. */
#define _XOPEN_SOURCE 700

#include "cli.h"
#include "errors.h"
#include "score.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "levels.h"
#include "traj.h"
#include "traj_reader.h"

extern char **environ; /* for posix_spawnp; unistd.h declares it only for _GNU_SOURCE */

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

static void add_episode(crafter_score_run *run, double reward, double length,
                        const double counts[ACHIEVEMENTS]) {
  run->episodes++;
  run->reward_sum += reward;
  run->length_sum += length;
  /* The reference counts an achievement as unlocked when its count is >= 1. */
  for (int k = 0; k < ACHIEVEMENTS; k++) run->successes[k] += counts[k] >= 1;
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
  return -1;
}

/* A stats.jsonl log: one episode per line, the file one run. */
static int read_stats(crafter_score_set *set, const char *text, size_t length, const char *method,
                      const char *log_method, const char *seed, char *error, size_t error_size) {
  crafter_score_run run = {0};
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
      if (crafter_json_parse(&document, text + start, end - start, message, sizeof(message)) < 0)
        return parse_failure(error, error_size, message, text, length, start);
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
        if (steps <= set->budget) add_episode(&run, reward->number, steps_value->number, counts);
      }
      crafter_json_free(&document);
      if (status < 0) return status;
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
  /* The reference writes seeds as strings; a number is taken as its text. */
  char number[32];
  if (is_count(seed))
    snprintf(number, sizeof(number), "%.0f", seed->number);
  else if (!seed || seed->type != CRAFTER_JSON_STRING)
    return crafter_fail(problem, problem_size, "\"seed\" is missing or not a string");
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
  /* xs is sorted, so the episodes within the budget are the first ones. */
  for (size_t i = 0; i < episodes && xs->items[i].number <= budget; i++) {
    double counts[ACHIEVEMENTS];
    for (int k = 0; k < ACHIEVEMENTS; k++) counts[k] = lists[k]->items[i].number;
    add_episode(run, rewards->items[i].number, lengths->items[i].number, counts);
  }
  run->method = copy_text(method->string);
  run->seed = copy_text(seed->type == CRAFTER_JSON_STRING ? seed->string : number);
  if (run->method && run->seed) return 0;
  free(run->method);
  free(run->seed);
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
}

static void truncate_set(crafter_score_set *set, size_t count) {
  while (set->count > count) {
    crafter_score_run *run = &set->runs[--set->count];
    free(run->method);
    free(run->seed);
    free(run->file);
    free(run->agent);
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
    add_episode(&run, episode->reward, episode->steps, counts);
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
  if (status == 0) return 0;
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

static int any_goals(const crafter_score_method *methods, size_t count) {
  for (size_t m = 0; m < count; m++)
    if (methods[m].goals.episodes) return 1;
  return 0;
}

/* Episodes of a group of goals (-1: all), and the percentage met (NaN
 * for none). */
static long goal_episodes(const crafter_score_goals *goals, int group) {
  return group < 0 ? goals->episodes : goals->group_episodes[group];
}

static double goal_rate(const crafter_score_goals *goals, int group) {
  long episodes = goal_episodes(goals, group);
  long met = group < 0 ? goals->met : goals->group_met[group];
  return episodes ? 100.0 * (double)met / (double)episodes : NAN;
}

enum { TABLE_LABEL = 20 };

static void write_goals_table(FILE *out, const crafter_score_method *methods, size_t count,
                              const int *widths);
static void write_levels_table(FILE *out, const crafter_score_method *methods, size_t count,
                               const int *widths);

void crafter_score_write_table(FILE *out, const crafter_score_method *methods, size_t count) {
  enum { LABEL = TABLE_LABEL, MINIMUM = 12 };
  int widths[count ? count : 1];
  for (size_t m = 0; m < count; m++) {
    int name = display_width(methods[m].name);
    widths[m] = 2 + (name > MINIMUM ? name : MINIMUM);
  }
  static const char *const rows[] = {"score (%)", "return", "length", "episodes", "seeds"};
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
  if (any_goals(methods, count)) write_goals_table(out, methods, count, widths);
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
    for (size_t m = 0; m < count; m++) seen += goal_episodes(&methods[m].goals, g);
    if (!seen) continue;
    if (g >= 0 && kind != crafter_score_goal_group_kind(g)) {
      kind = crafter_score_goal_group_kind(g);
      fprintf(out, "%s\n", kind);
    }
    fprintf(out, "  %-*s", LABEL - 2, g < 0 ? "all" : crafter_score_goal_group_name(g));
    for (size_t m = 0; m < count; m++) {
      char cell[64];
      long episodes = goal_episodes(&methods[m].goals, g);
      if (episodes)
        snprintf(cell, sizeof(cell), "%.1f (%ld)", goal_rate(&methods[m].goals, g), episodes);
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
  crafter_json_int(json, goal_episodes(goals, group));
  crafter_json_key(json, "met");
  crafter_json_int(json, group < 0 ? goals->met : goals->group_met[group]);
  crafter_json_key(json, "success");
  crafter_json_double(json, goal_rate(goals, group));
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
  crafter_json_key(&json, "methods");
  crafter_json_begin_array(&json);
  int goals = any_goals(methods, count);
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
    crafter_json_key(&json, "length_mean");
    crafter_json_double(&json, method->length_mean);
    crafter_json_key(&json, "episodes");
    crafter_json_int(&json, method->episodes);
    crafter_json_key(&json, "seeds");
    crafter_json_int(&json, method->seeds);
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
  fputs("method,score_mean,score_std,reward_mean,length_mean,episodes,seeds", out);
  for (int k = 0; k < ACHIEVEMENTS; k++) fprintf(out, ",%s", crafter_achievement_names[k]);
  int goals = any_goals(methods, count);
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
    for (int k = 0; k < ACHIEVEMENTS; k++) {
      fputc(',', out);
      write_csv_number(out, method->success[k]);
    }
    if (goals) {
      fprintf(out, ",%ld,", method->goals.episodes);
      write_csv_number(out, goal_rate(&method->goals, -1));
      for (int g = 0; g < CRAFTER_SCORE_GOAL_GROUPS; g++) {
        fputc(',', out);
        write_csv_number(out, goal_rate(&method->goals, g));
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
    fputc('\n', out);
  }
}

/* Plotting. */

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

/* A gnuplot single-quoted string: no escapes but '' for a quote; a line
 * break would end the command, so control characters become '?'. */
static void write_gnuplot_string(FILE *out, const char *text) {
  fputc('\'', out);
  for (; *text; text++) {
    if (*text == '\'') fputc('\'', out);
    fputc((unsigned char)*text < 0x20 ? '?' : *text, out);
  }
  fputc('\'', out);
}

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
    write_gnuplot_string(out, titles[m]);
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
      write_gnuplot_number(out, goal_rate(&methods[m].goals, shown[i]));
    }
    fputc('\n', out);
  }
  fputs("EOD\n", out);
  write_terminal(out, format, 300 + 60 * groups * (int)(count < 2 ? 2 : count), 460);
  fputs("set output ", out);
  write_gnuplot_string(out, path);
  fputs("\nunset logscale y\nset key outside top center horizontal\nset yrange [0:100]\n"
        "set ytics auto\nset ylabel 'Goals met (%)'\n",
        out);
  fprintf(out, "set xrange [-0.6:%d.6]\nset xtics rotate by 45 right (", groups - 1);
  for (int i = 0; i < groups; i++) {
    char label[64];
    snprintf(label, sizeof(label), "%s %s", crafter_score_goal_group_kind(shown[i]),
             crafter_score_goal_group_name(shown[i]));
    fprintf(out, "%s", i ? ", " : "");
    write_gnuplot_string(out, label);
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
    write_gnuplot_string(out, methods[m].name);
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
  write_gnuplot_string(out, path);
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
  write_gnuplot_string(out, path);
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
    write_gnuplot_string(out, crafter_achievement_names[k]);
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
  write_gnuplot_string(out, scores_path);
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
  /* The script goes through a temporary file rather than a pipe, so a
   * gnuplot that dies early cannot kill us with SIGPIPE. */
  const char *directory = getenv("TMPDIR");
  char script_path[4096];
  snprintf(script_path, sizeof(script_path), "%s/crafter-score-XXXXXX",
           directory && *directory ? directory : "/tmp");
  int descriptor = mkstemp(script_path);
  FILE *script = descriptor < 0 ? NULL : fdopen(descriptor, "w");
  if (!script) {
    int saved = errno;
    if (descriptor >= 0) {
      close(descriptor);
      unlink(script_path);
    }
    free(scores_path);
    return crafter_fail(error, error_size, "cannot write the gnuplot script: %s", strerror(saved));
  }
  char *goals_path = any_goals(methods, count) ? crafter_score_plot_goals_path(path) : NULL;
  char *levels_path =
      methods[0].train_levels.count ? crafter_score_plot_levels_path(path) : NULL;
  write_plot_script(script, format, path, scores_path, goals_path, levels_path, methods, count);
  int write_failed = ferror(script);
  if (fclose(script) != 0) write_failed = 1;
  free(scores_path);
  free(goals_path);
  free(levels_path);
  if (write_failed) {
    unlink(script_path);
    return crafter_fail(error, error_size, "cannot write the gnuplot script %s", script_path);
  }

  char program[] = "gnuplot";
  char *arguments[] = {program, script_path, NULL};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  /* gnuplot must not take our standard input, which may be a data pipe. */
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  fflush(NULL); /* our output first, then anything gnuplot says */
  pid_t child;
  int spawned = posix_spawnp(&child, program, &actions, NULL, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (spawned == 0)
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) continue;
  unlink(script_path);
  /* A libc that cannot report a failed exec makes the child exit 127. */
  if (spawned == ENOENT || (spawned == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127))
    return CRAFTER_PLOT_NO_GNUPLOT;
  if (spawned != 0) return crafter_fail(error, error_size, "cannot run gnuplot: %s", strerror(spawned));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return crafter_fail(error, error_size, "gnuplot failed; its message is above");
  return CRAFTER_PLOT_OK;
}

/* ---- crafter-score ---- */

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
