/* The toolkit's instruction-task suite (data/tasks/crafter-tasks.yaml,
 * written by data/tasks/generate.sh): it loads, and it is the suite it says
 * it is.  Everything is derived from the file given as the first argument:
 * its size, every family, difficulty and split present, the
 * test-paraphrase goals being training goals in words no training goal
 * uses, the test-new-objects goals being checks no training goal has,
 * seven paraphrases to a training goal, no sentence said twice by a goal,
 * lowercase ids. */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tasks.h"

#define MIN_GOALS 120
#define MIN_TEXTS 700
/* The parser asks five paraphrases of every goal; the suite gives each
 * training goal seven. */
#define MIN_TRAIN_PARAPHRASES 7

static char error[1024];
static crafter_task_set set;

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

static void counts(void) {
  int texts = 0, families[CRAFTER_TASK_FAMILY_COUNT] = {0};
  int difficulties[CRAFTER_DIFFICULTY_COUNT] = {0}, splits[CRAFTER_SPLIT_COUNT] = {0};
  for (int i = 0; i < set.count; i++) {
    const crafter_task *t = &set.tasks[i];
    texts += t->text_count;
    families[t->family]++;
    difficulties[t->difficulty]++;
    splits[t->split]++;
  }
  ok(set.count >= MIN_GOALS, "at least %d goals (%d)", MIN_GOALS, set.count);
  ok(texts >= MIN_TEXTS, "at least %d instruction texts (%d)", MIN_TEXTS, texts);
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

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test-task-suite TASK-FILE\n");
    return 2;
  }
  int status = crafter_tasks_load(argv[1], &set, error, sizeof(error));
  ok(status == 0, "%s loads (%d tasks)", argv[1], set.count);
  if (status) {
    printf("#   %s\n", error);
    return tap_done();
  }
  counts();
  ids();
  training();
  test_paraphrase();
  test_new_objects();
  crafter_task_set_free(&set);
  return tap_done();
}
