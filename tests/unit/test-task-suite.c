/* The toolkit's instruction-task suite (data/tasks/crafter-tasks.yaml,
 * assembled by data/tasks/generate.sh from the sentences of
 * data/tasks/wordings): it loads, and it is the suite it says it is.
 *
 * The goals: every family, difficulty and split present, the
 * test-paraphrase goals being training goals in sentences no training goal
 * says, the test-new-objects goals being checks no training goal has,
 * sixteen paraphrases to a training goal, no sentence said twice by a
 * goal, lowercase ids.
 *
 * The language: at least MIN_TEXTS sentences over at least MIN_WORDS
 * distinct words, no opening of three words starting more than
 * MAX_OPENING_PERCENT of them, every test-paraphrase sentence holding a
 * word its training twin never says; the figures are printed.
 *
 * The words stay true to the checker: every sentence names each thing
 * its goal checks (objects, items, achievements), and its numbers,
 * directions, shapes and times, in one of the words the synonym table
 * (data/tasks/synonyms.txt) lists for it; a sentence about placed blocks,
 * places or things near names no other thing.  A sentence with one of its
 * things, numbers or directions swapped for another fails that check.
 *
 * Words are counted case-insensitively: a word is a run of ASCII letters
 * and apostrophes, without the apostrophes at its ends ("don't" is one
 * word, "2x2" holds the word "x", digits are no word).  An opening is the
 * first three words as written (digits included), lowercased, without
 * punctuation.
 *
 * Usage: test-task-suite TASK-FILE [DATA-DIR]; DATA-DIR (default: the
 * task file's folder) holds synonyms.txt and wordings/. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crafter/ids.h"
#include "game/tasks.h"
#include "tap.h"

#define MIN_GOALS 240
#define MIN_TEXTS 4000
#define MIN_WORDS 3500
#define MAX_OPENING_PERCENT 2.0
/* The parser asks five paraphrases of every goal (and allows sixteen); the
 * suite gives each training goal sixteen. */
#define MIN_TRAIN_PARAPHRASES 16

static char error[1024];

/* Copies `from` into `to` of `size` bytes, cut short if need be. */
static void copy(char *to, size_t size, const char *from) {
  size_t n = strlen(from);
  if (n >= size) n = size - 1;
  memcpy(to, from, n);
  to[n] = 0;
}
static crafter_task_set set;

/* ---- the goals ---- */

/* Whether two tasks have the same checker: the family and every argument. */
static int same_check(const crafter_task *a, const crafter_task *b) {
  const crafter_task_check *x = &a->check, *y = &b->check;
  return a->family == b->family && x->unlock == y->unlock && x->avoid == y->avoid &&
         x->object.is_object == y->object.is_object && x->object.id == y->object.id &&
         x->target.is_object == y->target.is_object && x->target.id == y->target.id &&
         x->side == y->side && x->distance == y->distance && x->placed == y->placed &&
         x->item == y->item && x->threshold == y->threshold && x->count == y->count &&
         x->length == y->length && x->size == y->size && x->diagonal == y->diagonal &&
         x->radius == y->radius && x->daylight[0] == y->daylight[0] &&
         x->daylight[1] == y->daylight[1];
}

/* Whether a training task says `text`. */
static int said_in_training(const char *text) {
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    if (t->split != CRAFTER_SPLIT_TRAIN) continue;
    for (int j = 0; j < t->text_count; j++)
      if (strcmp(t->text[j], text) == 0) return 1;
  }
  return 0;
}

/* The index of a training task with the same check as `task`, or -1. */
static int training_twin(const crafter_task *task) {
  for (int i = 0; i < set.count; i++)
    if (set.tasks[i].split == CRAFTER_SPLIT_TRAIN && same_check(&set.tasks[i], task)) return i;
  return -1;
}

/* Ids are lowercase: letters, digits, '.', '_' and '-'. */
static int lowercase_id(const char *id) {
  return strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(id);
}

static int total_texts(void) {
  int texts = 0;
  for (int i = 0; i < set.count; i++) texts += set.tasks[i].text_count;
  return texts;
}

static void counts(void) {
  int families[CRAFTER_TASK_FAMILY_COUNT] = {0};
  int difficulties[CRAFTER_DIFFICULTY_COUNT] = {0}, splits[CRAFTER_SPLIT_COUNT] = {0};
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    families[t->family]++;
    difficulties[t->difficulty]++;
    splits[t->split]++;
  }
  ok(set.count >= MIN_GOALS, "at least %d goals (%d)", MIN_GOALS, set.count);
  for (int f = 0; f < CRAFTER_TASK_FAMILY_COUNT; f++)
    ok(families[f] > 0, "family %s present (%d goals)", crafter_task_family_names[f],
       families[f]);
  for (int d = 0; d < CRAFTER_DIFFICULTY_COUNT; d++)
    ok(difficulties[d] > 0, "difficulty %s present (%d goals)", crafter_task_difficulty_names[d],
       difficulties[d]);
  for (int s = 0; s < CRAFTER_SPLIT_COUNT; s++)
    ok(splits[s] > 0, "split %s present (%d goals)", crafter_task_split_names[s], splits[s]);
}

static void ids(void) {
  int bad = 0;
  for (int i = 0; i < set.count; i++)
    if (!lowercase_id(set.tasks[i].id)) {
      if (bad++ < 5) printf("#   %s\n", set.tasks[i].id);
    }
  ok(bad == 0, "every id is lowercase (%d are not)", bad);
}

static void training(void) {
  int few = 0, repeated = 0;
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    if (t->split == CRAFTER_SPLIT_TRAIN && t->text_count - 1 < MIN_TRAIN_PARAPHRASES) {
      if (few++ < 5) printf("#   %s: %d paraphrases\n", t->id, t->text_count - 1);
    }
    for (int j = 0; j < t->text_count; j++)
      for (int k = 0; k < j; k++)
        if (strcmp(t->text[j], t->text[k]) == 0) {
          if (repeated++ < 5) printf("#   %s says twice: %s\n", t->id, t->text[j]);
        }
  }
  ok(few == 0, "every training goal has at least %d paraphrases (%d have fewer)",
     MIN_TRAIN_PARAPHRASES, few);
  ok(repeated == 0, "no goal says a sentence twice (%d repeats)", repeated);
}

static void test_paraphrase(void) {
  int orphans = 0, seen = 0, goals = 0;
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    if (t->split != CRAFTER_SPLIT_TEST_PARAPHRASE) continue;
    goals++;
    if (training_twin(t) < 0) {
      if (orphans++ < 5) printf("#   %s: no training goal has its family and check\n", t->id);
    }
    for (int j = 0; j < t->text_count; j++)
      if (said_in_training(t->text[j])) {
        if (seen++ < 5) printf("#   %s: said in training: %s\n", t->id, t->text[j]);
      }
  }
  ok(orphans == 0, "every test-paraphrase goal is a training goal (%d of %d are not)", orphans,
     goals);
  ok(seen == 0, "no test-paraphrase sentence is said by a training goal (%d are)", seen);
}

static void test_new_objects(void) {
  int known = 0, goals = 0;
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    if (t->split != CRAFTER_SPLIT_TEST_NEW_OBJECTS) continue;
    goals++;
    int twin = training_twin(t);
    if (twin >= 0) {
      if (known++ < 5) printf("#   %s: the check of training goal %s\n", t->id, set.tasks[twin].id);
    }
  }
  ok(known == 0, "no test-new-objects goal has the check of a training goal (%d of %d do)", known,
     goals);
}

/* ---- words ---- */

typedef struct word_list {
  char **words;
  int count, capacity;
} word_list;

static void list_add(word_list *list, const char *word) {
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? 2 * list->capacity : 1024;
    list->words = realloc(list->words, (size_t)list->capacity * sizeof(char *));
    if (!list->words) abort();
  }
  size_t n = strlen(word) + 1;
  char *copy = malloc(n);
  if (!copy) abort();
  memcpy(copy, word, n);
  list->words[list->count++] = copy;
}

static int compare_words(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts a list and drops the repeats. */
static void list_unique(word_list *list) {
  if (list->count == 0) return;
  qsort(list->words, (size_t)list->count, sizeof(char *), compare_words);
  int kept = 1;
  for (int i = 1; i < list->count; i++) {
    if (strcmp(list->words[i], list->words[kept - 1]) == 0) {
      free(list->words[i]);
    } else {
      list->words[kept++] = list->words[i];
    }
  }
  list->count = kept;
}

static int list_has(const word_list *list, const char *word) {
  return list->count && bsearch(&word, list->words, (size_t)list->count, sizeof(char *),
                                compare_words) != NULL;
}

static void list_free(word_list *list) {
  for (int i = 0; i < list->count; i++) free(list->words[i]);
  free(list->words);
  memset(list, 0, sizeof(*list));
}

/* Adds the words of `text` (runs of letters and apostrophes, lowercased,
 * without apostrophes at their ends) to `list`. */
static void add_words(word_list *list, const char *text) {
  char word[CRAFTER_TASK_TEXT_MAX];
  const char *p = text;
  while (*p) {
    if (!isalpha((unsigned char)*p) && *p != '\'') {
      p++;
      continue;
    }
    int n = 0;
    while (*p && (isalpha((unsigned char)*p) || *p == '\'')) word[n++] = (char)tolower(*p++);
    word[n] = 0;
    int start = 0;
    while (word[start] == '\'') start++;
    while (n > start && word[n - 1] == '\'') word[--n] = 0;
    if (n > start) list_add(list, word + start);
  }
}

/* The first three words of `text` as written, lowercased, punctuation
 * dropped. */
static void opening(const char *text, char *out, size_t size) {
  size_t n = 0;
  int words = 0;
  const char *p = text;
  while (*p && words < 3) {
    while (*p == ' ') p++;
    if (!*p) break;
    if (words && n + 1 < size) out[n++] = ' ';
    while (*p && *p != ' ') {
      if ((isalnum((unsigned char)*p) || *p == '\'') && n + 1 < size)
        out[n++] = (char)tolower((unsigned char)*p);
      p++;
    }
    words++;
  }
  out[n] = 0;
}

static void language(void) {
  word_list all = {0}, per_split[CRAFTER_SPLIT_COUNT] = {{0}}, openings = {0};
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    for (int j = 0; j < t->text_count; j++) {
      add_words(&all, t->text[j]);
      add_words(&per_split[t->split], t->text[j]);
      char open[CRAFTER_TASK_TEXT_MAX];
      opening(t->text[j], open, sizeof(open));
      list_add(&openings, open);
    }
  }
  int texts = total_texts();
  list_unique(&all);
  for (int s = 0; s < CRAFTER_SPLIT_COUNT; s++) list_unique(&per_split[s]);

  /* The most frequent opening. */
  qsort(openings.words, (size_t)openings.count, sizeof(char *), compare_words);
  int best = 0, distinct_openings = 0;
  const char *best_opening = "";
  for (int i = 0, run = 0; i < openings.count; i++) {
    run = i && strcmp(openings.words[i], openings.words[i - 1]) == 0 ? run + 1 : 1;
    if (run == 1) distinct_openings++;
    if (run > best) {
      best = run;
      best_opening = openings.words[i];
    }
  }
  double share = texts ? 100.0 * best / texts : 0;

  /* The words of test-paraphrase sentences also said in training. */
  const word_list *train = &per_split[CRAFTER_SPLIT_TRAIN];
  const word_list *para = &per_split[CRAFTER_SPLIT_TEST_PARAPHRASE];
  int shared = 0;
  for (int i = 0; i < para->count; i++) shared += list_has(train, para->words[i]);

  printf("# instructions: %d (%d goals)\n", texts, set.count);
  printf("# distinct words: %d (train %d, test-paraphrase %d, test-new-objects %d)\n", all.count,
         train->count, para->count, per_split[CRAFTER_SPLIT_TEST_NEW_OBJECTS].count);
  printf("# openings of three words: %d distinct; the most frequent, \"%s\", starts %d (%.2f%%)\n",
         distinct_openings, best_opening, best, share);
  printf("# train/test-paraphrase vocabulary: %d words shared, %d only in test-paraphrase "
         "(%.1f%% of its %d), %d only in train; Jaccard overlap %.3f\n",
         shared, para->count - shared, para->count ? 100.0 * (para->count - shared) / para->count : 0,
         para->count, train->count - shared,
         (double)shared / (train->count + para->count - shared));
  ok(texts >= MIN_TEXTS, "at least %d instructions (%d)", MIN_TEXTS, texts);
  ok(all.count >= MIN_WORDS, "at least %d distinct words (%d)", MIN_WORDS, all.count);
  ok(share <= MAX_OPENING_PERCENT, "no opening of three words starts more than %.0f%% of them "
     "(at most %.2f%%: \"%s\")", MAX_OPENING_PERCENT, share, best_opening);

  /* Each test-paraphrase sentence says a word its training twin does not. */
  int goals = 0, plain = 0, novel_words = 0, twin_words_total = 0;
  double novelty = 0;
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    int twin = training_twin(t);
    if (t->split != CRAFTER_SPLIT_TEST_PARAPHRASE || twin < 0) continue;
    word_list twin_words = {0}, own = {0};
    for (int j = 0; j < set.tasks[twin].text_count; j++)
      add_words(&twin_words, set.tasks[twin].text[j]);
    list_unique(&twin_words);
    for (int j = 0; j < t->text_count; j++) {
      word_list words = {0};
      add_words(&words, t->text[j]);
      add_words(&own, t->text[j]);
      int fresh = 0;
      for (int k = 0; k < words.count; k++) fresh += !list_has(&twin_words, words.words[k]);
      if (!fresh && plain++ < 5) printf("#   %s: no word its twin does not say: %s\n", t->id, t->text[j]);
      list_free(&words);
    }
    list_unique(&own);
    int fresh = 0;
    for (int k = 0; k < own.count; k++) fresh += !list_has(&twin_words, own.words[k]);
    novelty += own.count ? (double)fresh / own.count : 0;
    novel_words += fresh;
    twin_words_total += own.count;
    goals++;
    list_free(&twin_words);
    list_free(&own);
  }
  printf("# test-paraphrase goals: on average %.1f%% of a goal's distinct words are never said by "
         "its training twin (%d of %d)\n",
         goals ? 100.0 * novelty / goals : 0, novel_words, twin_words_total);
  ok(goals > 0 && plain == 0,
     "every test-paraphrase sentence says a word its training twin never says (%d do not)", plain);

  list_free(&all);
  for (int s = 0; s < CRAFTER_SPLIT_COUNT; s++) list_free(&per_split[s]);
  list_free(&openings);
}

/* ---- the synonym table ---- */

#define MAX_CONCEPTS 256
#define MAX_ALTERNATIVES 4096
#define MAX_REFS 4

/* An alternative is a phrase (normalised) or, when refs > 0, a list of
 * concepts that must all be named. */
typedef struct alternative {
  char phrase[96];
  int refs, ref[MAX_REFS];
} alternative;

typedef struct concept {
  char key[64];
  int first, count;
} concept;

static concept concepts[MAX_CONCEPTS];
static int concept_count;
static alternative alternatives[MAX_ALTERNATIVES];
static int alternative_count;

/* Lowercase words of letters and digits, one space apart, a space at
 * each end; '+' is the word "plus", anything else a space. */
static void normalise(const char *in, char *out, size_t size) {
  size_t n = 0;
  out[n++] = ' ';
  for (const char *p = in; *p && n + 6 < size; p++) {
    unsigned char c = (unsigned char)*p;
    if (isalnum(c)) {
      out[n++] = (char)tolower(c);
    } else if (c == '+') {
      if (out[n - 1] != ' ') out[n++] = ' ';
      memcpy(out + n, "plus ", 5);
      n += 5;
    } else if (out[n - 1] != ' ') {
      out[n++] = ' ';
    }
  }
  if (out[n - 1] != ' ') out[n++] = ' ';
  out[n] = 0;
}

static int find_concept(const char *key) {
  for (int i = 0; i < concept_count; i++)
    if (strcmp(concepts[i].key, key) == 0) return i;
  return -1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = 0;
  return s;
}

/* Reads the table: "key: alternative | alternative ...", an alternative
 * being a phrase or "@key & @key". */
static int load_synonyms(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("#   cannot open %s\n", path);
    return -1;
  }
  char line[8192];
  static char refs_text[MAX_ALTERNATIVES][128];
  int number = 0, bad = 0;
  while (fgets(line, sizeof(line), f)) {
    number++;
    char *s = trim(line);
    if (*s == 0 || *s == '#') continue;
    char *colon = strchr(s, ':');
    if (!colon || concept_count == MAX_CONCEPTS) {
      printf("#   %s:%d: expected key: alternatives\n", path, number);
      bad++;
      continue;
    }
    *colon = 0;
    concept *c = &concepts[concept_count++];
    copy(c->key, sizeof(c->key), trim(s));
    c->first = alternative_count;
    for (char *alt = strtok(colon + 1, "|"); alt; alt = strtok(NULL, "|")) {
      alt = trim(alt);
      if (!*alt || alternative_count == MAX_ALTERNATIVES) continue;
      alternative *a = &alternatives[alternative_count];
      memset(a, 0, sizeof(*a));
      if (*alt == '@') {
        copy(refs_text[alternative_count], sizeof(refs_text[0]), alt);
        a->refs = -1; /* resolved below */
      } else {
        char norm[256];
        normalise(alt, norm, sizeof(norm));
        size_t n = strlen(norm);
        if (n < 3 || n - 2 >= sizeof(a->phrase)) {
          printf("#   %s:%d: a bad phrase '%s'\n", path, number, alt);
          bad++;
          continue;
        }
        memcpy(a->phrase, norm + 1, n - 2); /* without the spaces at the ends */
        a->phrase[n - 2] = 0;
      }
      alternative_count++;
    }
    c->count = alternative_count - c->first;
  }
  fclose(f);
  for (int i = 0; i < alternative_count; i++) {
    alternative *a = &alternatives[i];
    if (a->refs != -1) continue;
    a->refs = 0;
    char text[128];
    copy(text, sizeof(text), refs_text[i]);
    for (char *ref = strtok(text, "&"); ref; ref = strtok(NULL, "&")) {
      ref = trim(ref);
      int k = *ref == '@' ? find_concept(ref + 1) : -1;
      if (k < 0 || a->refs == MAX_REFS) {
        printf("#   %s: a bad reference '%s'\n", path, ref);
        bad++;
        continue;
      }
      a->ref[a->refs++] = k;
    }
  }
  return bad ? -1 : 0;
}

/* Whether the phrase (normalised, no spaces at its ends) is said in the
 * normalised text: as whole words, its last one maybe with "s" or "es". */
static int phrase_in(const char *text, const char *phrase) {
  char needle[128];
  snprintf(needle, sizeof(needle), " %s", phrase);
  size_t n = strlen(needle);
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
    const char *end = p + n;
    if (*end == ' ' || (end[0] == 's' && end[1] == ' ') ||
        (end[0] == 'e' && end[1] == 's' && end[2] == ' '))
      return 1;
  }
  return 0;
}

static int names(int concept_index, const char *text, int depth) {
  const concept *c = &concepts[concept_index];
  if (depth > 8) return 0;
  for (int i = c->first; i < c->first + c->count; i++) {
    const alternative *a = &alternatives[i];
    if (a->refs == 0) {
      if (phrase_in(text, a->phrase)) return 1;
      continue;
    }
    int all = 1;
    for (int r = 0; r < a->refs && all; r++) all = names(a->ref[r], text, depth + 1);
    if (all) return 1;
  }
  return 0;
}

/* ---- what a goal must name ---- */

/* The things a check can name, by their keys in the table. */
static const char *const things[] = {"water", "grass", "stone",   "path",  "sand",  "tree",
                                     "lava",  "coal",  "iron",    "diamond", "table", "furnace",
                                     "plant", "cow",   "zombie",  "skeleton"};
#define THING_COUNT ((int)(sizeof(things) / sizeof(things[0])))

enum kind { KIND_THING, KIND_NUMBER, KIND_SIDE, KIND_OTHER };

typedef struct requirement {
  int concept;
  int kind;
} requirement;

typedef struct goal_words {
  requirement need[16];
  int needs;
  int allowed[THING_COUNT]; /* things the sentences may name (checked when strict) */
  int strict;               /* whether naming another thing is wrong */
} goal_words;

static int missing_keys;

static void need(goal_words *g, const char *key, int kind) {
  int c = find_concept(key);
  if (c < 0) {
    if (missing_keys++ < 10) printf("#   the synonym table has no key %s\n", key);
    return;
  }
  if (g->needs < 16) g->need[g->needs++] = (requirement){c, kind};
}

static void need_number(goal_words *g, long n) {
  char key[32];
  snprintf(key, sizeof(key), "%ld", n);
  need(g, key, KIND_NUMBER);
}

static const char *thing_name(crafter_thing thing) {
  return thing.is_object ? crafter_object_kind_names[thing.id] : crafter_material_names[thing.id];
}

static void allow(goal_words *g, const char *name) {
  for (int i = 0; i < THING_COUNT; i++)
    if (strcmp(things[i], name) == 0) g->allowed[i] = 1;
}

static void need_thing(goal_words *g, crafter_thing thing) {
  need(g, thing_name(thing), KIND_THING);
  allow(g, thing_name(thing));
}

static const char *const side_keys[] = {"left", "right", "up", "down"};

/* The near words of a distance or radius: "on", "near1" or a number. */
static void need_distance(goal_words *g, int distance) {
  if (distance == 0) need(g, "on", KIND_OTHER);
  else if (distance == 1) need(g, "near1", KIND_OTHER);
  else need_number(g, distance);
}

/* What every sentence of `t` must name; `reversed`: a localization goal
 * said from the target's side. */
static void goal_words_of(const crafter_task *t, int reversed, goal_words *g) {
  const crafter_task_check *c = &t->check;
  memset(g, 0, sizeof(*g));
  char key[64];
  switch (t->family) {
  case CRAFTER_TASK_ACHIEVEMENTS:
    for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
      if (c->unlock & (1u << a)) need(g, crafter_achievement_names[a], KIND_THING);
    if (c->avoid) {
      need(g, "not", KIND_OTHER);
      /* A set of achievements to avoid may have words of its own
       * ("any sword"); else each is named. */
      snprintf(key, sizeof(key), "avoid");
      for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
        if (c->avoid & (1u << a))
          snprintf(key + strlen(key), sizeof(key) - strlen(key), "%c%s",
                   strcmp(key, "avoid") == 0 ? ' ' : ',', crafter_achievement_names[a]);
      if (find_concept(key) >= 0) {
        need(g, key, KIND_THING);
      } else {
        for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
          if (c->avoid & (1u << a)) need(g, crafter_achievement_names[a], KIND_THING);
      }
    }
    if (t->steps > 0) need_number(g, t->steps);
    break;
  case CRAFTER_TASK_LOCALIZATION:
    g->strict = 1;
    need_thing(g, c->object);
    need_thing(g, c->target);
    need(g, side_keys[reversed ? c->side ^ 1 : c->side], KIND_SIDE);
    need_distance(g, c->distance);
    break;
  case CRAFTER_TASK_CONDITIONAL:
    g->strict = 1;
    need(g, crafter_item_names[c->item], KIND_THING);
    allow(g, crafter_item_names[c->item]);
    if (c->item == CRAFTER_SAPLING) allow(g, "plant");
    if (c->threshold == 1) need(g, "none", KIND_OTHER);
    else need_number(g, c->threshold);
    need_thing(g, c->object);
    if (c->count > 1) need_number(g, c->count);
    break;
  case CRAFTER_TASK_LINE:
    g->strict = 1;
    need_thing(g, c->object);
    need_number(g, c->length);
    need(g, c->diagonal ? "diagonal" : "straight", KIND_OTHER);
    break;
  case CRAFTER_TASK_SQUARE:
    g->strict = 1;
    need_thing(g, c->object);
    snprintf(key, sizeof(key), "square.%d", c->size);
    need(g, key, KIND_NUMBER);
    need(g, "ring", KIND_OTHER);
    break;
  case CRAFTER_TASK_CROSS:
    g->strict = 1;
    need_thing(g, c->object);
    snprintf(key, sizeof(key), "cross.%d", c->length);
    need(g, key, KIND_NUMBER);
    need(g, c->diagonal ? "star" : "plus", KIND_OTHER);
    break;
  case CRAFTER_TASK_TIMED: {
    static const struct {
      double low, high;
      const char *key;
    } windows[] = {{0, 0.3, "night"},    {0.7, 1, "day"},  {0, 0.1, "midnight"},
                   {0.9, 1, "noon"},     {0.3, 0.7, "twilight"}};
    g->strict = 1;
    need_thing(g, c->object);
    need_distance(g, c->radius);
    const char *when = "no daylight window of the table";
    for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++)
      if (c->daylight[0] == windows[w].low && c->daylight[1] == windows[w].high)
        when = windows[w].key;
    need(g, when, KIND_OTHER);
    break;
  }
  case CRAFTER_TASK_EXPLORE:
    g->strict = 1;
    need_thing(g, c->target);
    need_distance(g, c->distance);
    break;
  }
}

/* The first requirement `text` (normalised) does not meet, or a thing it
 * should not name (as -2 - thing), or -1 when it says what it should. */
static int first_wrong(const goal_words *g, const char *text) {
  for (int i = 0; i < g->needs; i++)
    if (!names(g->need[i].concept, text, 0)) return i;
  if (g->strict)
    for (int i = 0; i < THING_COUNT; i++) {
      int c = find_concept(things[i]);
      if (!g->allowed[i] && c >= 0 && names(c, text, 0)) return -2 - i;
    }
  return -1;
}

static void describe_wrong(const goal_words *g, int wrong, char *out, size_t size) {
  if (wrong >= 0) snprintf(out, size, "names no %s", concepts[g->need[wrong].concept].key);
  else snprintf(out, size, "names %s, which its goal does not check", things[-2 - wrong]);
}

/* ---- the sentences' marks, from the wordings files ---- */

#define MAX_MARKED 8192
typedef struct mark {
  char id[CRAFTER_TASK_ID_MAX];
  int index, reversed, typo;
} mark;
static mark marks[MAX_MARKED];
static int mark_count;

static int load_marks(const char *dir) {
  static const char *const files[] = {"achievements", "localization", "conditional", "line",
                                      "square",       "cross",        "timed",       "explore"};
  int bad = 0;
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    char path[4096], line[1024], id[CRAFTER_TASK_ID_MAX] = "";
    int index = 0;
    if (snprintf(path, sizeof(path), "%s/wordings/%s.txt", dir, files[i]) >= (int)sizeof(path))
      return -1;
    FILE *f = fopen(path, "r");
    if (!f) {
      printf("#   cannot open %s\n", path);
      return -1;
    }
    while (fgets(line, sizeof(line), f)) {
      line[strcspn(line, "\n")] = 0;
      if (line[0] == 0 || line[0] == '#') continue;
      if (line[0] == '=' && line[1] == ' ') {
        copy(id, sizeof(id), line + 2);
        index = 0;
        continue;
      }
      int reversed = 0, typo = 0;
      char *text = line;
      for (;;) {
        if (strncmp(text, "[reversed] ", 11) == 0) {
          reversed = 1;
          text += 11;
        } else if (strncmp(text, "[typo] ", 7) == 0) {
          typo = 1;
          text += 7;
        } else {
          break;
        }
      }
      int t = crafter_task_find(&set, id);
      if (t < 0 || index >= set.tasks[t].text_count || strcmp(set.tasks[t].text[index], text)) {
        if (bad++ < 5) printf("#   %s: sentence %d of %s is not the suite's\n", path, index + 1, id);
      } else if ((reversed || typo) && mark_count < MAX_MARKED) {
        marks[mark_count++] = (mark){"", index, reversed, typo};
        copy(marks[mark_count - 1].id, sizeof(marks[0].id), id);
      }
      index++;
    }
    fclose(f);
  }
  return bad ? -1 : 0;
}

static const mark *mark_of(const char *id, int index) {
  for (int i = 0; i < mark_count; i++)
    if (marks[i].index == index && strcmp(marks[i].id, id) == 0) return &marks[i];
  return NULL;
}

/* ---- mutations ---- */

/* Collects the phrases naming concept c (for an alternative of several
 * concepts, those of its first). */
static int phrases_of(int c, const char **out, int max, int depth) {
  int n = 0;
  if (depth > 8) return 0;
  for (int i = concepts[c].first; i < concepts[c].first + concepts[c].count && n < max; i++) {
    const alternative *a = &alternatives[i];
    if (a->refs == 0) out[n++] = a->phrase;
    else n += phrases_of(a->ref[0], out + n, max - n, depth + 1);
  }
  return n;
}

/* Replaces in the normalised `text` every phrase naming concept c (the
 * longest first) with `with`. */
static void swap(const char *text, int c, const char *with, char *out, size_t size) {
  const char *phrases[512];
  int n = phrases_of(c, phrases, 512, 0);
  /* Longest first. */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && strlen(phrases[j]) > strlen(phrases[j - 1]); j--) {
      const char *x = phrases[j];
      phrases[j] = phrases[j - 1];
      phrases[j - 1] = x;
    }
  char work[1024];
  copy(work, sizeof(work), text);
  for (int i = 0; i < n; i++) {
    char needle[128], result[1024];
    snprintf(needle, sizeof(needle), " %s ", phrases[i]);
    size_t len = strlen(needle), r = 0;
    const char *p = work;
    for (const char *hit; (hit = strstr(p, needle)) != NULL && r + 300 < sizeof(result);) {
      memcpy(result + r, p, (size_t)(hit - p));
      r += (size_t)(hit - p);
      r += (size_t)snprintf(result + r, sizeof(result) - r, " %s ", with);
      p = hit + len - 1; /* keep the space after the phrase */
    }
    copy(result + r, sizeof(result) - r, p);
    /* Plurals: the phrase followed by s or es. */
    copy(work, sizeof(work), result);
    for (const char *suffix = "s"; suffix; suffix = strcmp(suffix, "s") == 0 ? "es" : NULL) {
      snprintf(needle, sizeof(needle), " %s%s ", phrases[i], suffix);
      len = strlen(needle);
      r = 0;
      p = work;
      for (const char *hit; (hit = strstr(p, needle)) != NULL && r + 300 < sizeof(result);) {
        memcpy(result + r, p, (size_t)(hit - p));
        r += (size_t)(hit - p);
        r += (size_t)snprintf(result + r, sizeof(result) - r, " %s ", with);
        p = hit + len - 1;
      }
      copy(result + r, sizeof(result) - r, p);
      copy(work, sizeof(work), result);
    }
  }
  copy(out, size, work);
}

/* A stand-in of the same kind for requirement r of goal g: another thing
 * neither the goal nor the sentence names, another number, the side
 * across. */
static const char *stand_in(const goal_words *g, const requirement *r, const char *text) {
  switch (r->kind) {
  case KIND_THING:
    /* A thing the sentence does not name. */
    for (int i = THING_COUNT - 1; i >= 0; i--) {
      int c = find_concept(things[i]);
      if (c >= 0 && !g->allowed[i] && !names(c, text, 0)) return things[i];
    }
    return "lava";
  case KIND_NUMBER:
    return "seventeen";
  case KIND_SIDE: {
    const char *key = concepts[r->concept].key;
    return strcmp(key, "left") == 0 || strcmp(key, "right") == 0 ? "above" : "left";
  }
  default:
    return NULL;
  }
}

/* ---- the checks ---- */

static void synonyms(const char *dir) {
  char path[4096];
  if (snprintf(path, sizeof(path), "%s/synonyms.txt", dir) >= (int)sizeof(path)) path[0] = 0;
  ok(load_synonyms(path) == 0, "the synonym table %s reads (%d keys, %d words and phrases)", path,
     concept_count, alternative_count);
  ok(load_marks(dir) == 0, "the sentences of %s/wordings are the suite's", dir);

  /* No phrase names two things. */
  int shared = 0;
  for (int i = 0; i < THING_COUNT; i++)
    for (int j = 0; j < i; j++) {
      int a = find_concept(things[i]), b = find_concept(things[j]);
      if (a < 0 || b < 0) continue;
      for (int x = concepts[a].first; x < concepts[a].first + concepts[a].count; x++)
        for (int y = concepts[b].first; y < concepts[b].first + concepts[b].count; y++)
          if (alternatives[x].refs == 0 && alternatives[y].refs == 0 &&
              strcmp(alternatives[x].phrase, alternatives[y].phrase) == 0) {
            if (shared++ < 5)
              printf("#   '%s' names both %s and %s\n", alternatives[x].phrase, things[i], things[j]);
          }
    }
  ok(shared == 0, "no word of the synonym table names two things (%d do)", shared);

  int texts = 0, wrong = 0, typos = 0, reversed = 0, mutations = 0, survivors = 0;
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    for (int j = 0; j < t->text_count; j++) {
      const mark *m = mark_of(t->id, j);
      int back = m && m->reversed;
      typos += m && m->typo;
      reversed += back;
      goal_words g;
      goal_words_of(t, back, &g);
      char text[1024];
      normalise(t->text[j], text, sizeof(text));
      texts++;
      int w = first_wrong(&g, text);
      if (w != -1) {
        char why[160];
        describe_wrong(&g, w, why, sizeof(why));
        if (wrong++ < 200) printf("#   %s: %s: %s\n", t->id, why, t->text[j]);
        continue;
      }
      /* Each thing, number or direction swapped for another. */
      for (int k = 0; k < g.needs; k++) {
        const char *with = stand_in(&g, &g.need[k], text);
        if (!with) continue;
        char swapped[1024];
        swap(text, g.need[k].concept, with, swapped, sizeof(swapped));
        mutations++;
        if (first_wrong(&g, swapped) == -1) {
          if (survivors++ < 5)
            printf("#   %s: with %s for %s it still passes:%s\n", t->id, with,
                   concepts[g.need[k].concept].key, swapped);
        }
      }
    }
  }
  ok(missing_keys == 0, "the synonym table has a key for everything a goal checks (%d missing)",
     missing_keys);
  printf("# %d sentences marked [typo], %d [reversed] (a localization goal from the target's side)\n",
         typos, reversed);
  ok(wrong == 0,
     "every sentence names its goal's things, numbers, directions, shapes and times, "
     "and no thing the goal does not check (%d of %d do not)", wrong, texts);
  ok(mutations > 0 && survivors == 0,
     "a sentence with a thing, number or direction swapped for another fails that check "
     "(%d swaps, %d pass)", mutations, survivors);

  /* Sentences written wrong on purpose, each beside the right one. */
  static const struct {
    const char *id, *right, *wrong;
  } cases[] = {
      {"loc.stone.left.water.1", "Put a stone directly to the left of the water.",
       "Put a table directly to the left of the water."},
      {"loc.stone.left.water.1", "Put a stone directly to the left of the water.",
       "Put a stone directly above the water."},
      {"loc.table.up.water.2", "Build a workbench two cells north of a pond.",
       "Build a workbench three cells north of a pond."},
      {"line.stone.4", "Lay four stones side by side in a row.",
       "Lay three stones side by side in a row."},
      {"line.stone.diag.3", "Set three rocks corner to corner on a diagonal.",
       "Set three saplings corner to corner on a diagonal."},
      {"square.table.2", "Fill a 2x2 square with workbenches, no other table around it.",
       "Fill a 2x2 square with furnaces, no other furnace around it."},
      {"cross.stone.diag.1", "Make an X of five stones.", "Make a plus of five stones."},
      {"timed.stone.1.night", "At night, stand right next to a stone you placed.",
       "At noon, stand right next to a stone you placed."},
      {"explore.zombie.2", "Get within two cells of a zombie.",
       "Get within two cells of a skeleton."},
      {"explore.sand.0", "Stand on the beach sand.", "Stand on the grass."},
      {"cond.drink.5.water.1", "Let your thirst dip under five beside a lake.",
       "Let your hunger dip under five beside a lake."},
      {"cond.stone.1.stone.3", "Spend your last stone with three stones you placed nearby.",
       "Spend your last coal with three stones you placed nearby."},
      {"ach.make_wood_pickaxe", "Craft a wooden pickaxe.", "Craft a wooden sword."},
      {"ach.make_iron_pickaxe", "Forge an iron pickaxe.", "Forge a stone pickaxe."},
      {"ach.eat_cow.before_drink", "Eat a cow before you drink anything.",
       "Eat a cow and drink something."},
      {"ach.collect_wood.fast", "Collect wood within 100 steps.", "Collect wood within 200 steps."},
  };
  int right_fail = 0, wrong_pass = 0;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int t = crafter_task_find(&set, cases[i].id);
    if (t < 0) {
      right_fail++;
      printf("#   no goal %s\n", cases[i].id);
      continue;
    }
    goal_words g;
    goal_words_of(&set.tasks[t], 0, &g);
    char text[1024];
    normalise(cases[i].right, text, sizeof(text));
    if (first_wrong(&g, text) != -1) {
      right_fail++;
      printf("#   %s: fails: %s\n", cases[i].id, cases[i].right);
    }
    normalise(cases[i].wrong, text, sizeof(text));
    if (first_wrong(&g, text) == -1) {
      wrong_pass++;
      printf("#   %s: passes: %s\n", cases[i].id, cases[i].wrong);
    }
  }
  ok(right_fail == 0 && wrong_pass == 0,
     "%d sentences written with a thing, number, side, shape or time swapped fail the check, "
     "and the right ones pass (%d right ones fail, %d wrong ones pass)",
     (int)(sizeof(cases) / sizeof(cases[0])), right_fail, wrong_pass);
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: test-task-suite TASK-FILE [DATA-DIR]\n");
    return 2;
  }
  int status = crafter_tasks_load(argv[1], &set, error, sizeof(error));
  ok(status == 0, "%s loads (%d tasks)", argv[1], set.count);
  if (status) {
    printf("#   %s\n", error);
    return tap_done();
  }
  char dir[4096];
  if (argc == 3) {
    copy(dir, sizeof(dir), argv[2]);
  } else {
    copy(dir, sizeof(dir), argv[1]);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof(dir), ".");
  }
  counts();
  ids();
  training();
  test_paraphrase();
  test_new_objects();
  language();
  synonyms(dir);
  crafter_task_set_free(&set);
  return tap_done();
}
