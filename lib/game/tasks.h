/* tasks: goals in words, checked by the game (crafter-task(5)).
 *
 * A task file is a YAML list of goals, each with a family, the checker's
 * arguments, an instruction and its paraphrases, a difficulty and a split.
 * A checker looks at the game after every step (and at what it was
 * before) and says when the goal is met.  Checkers only look: an episode
 * played with a task is, step for step, the episode played without one;
 * the task adds its reward and ends the episode when the goal is met.
 *
 * Where a goal says "build" or "place", only blocks the agent placed in
 * this episode count (crafter_task_tracker keeps them), never the natural
 * terrain. */
#ifndef CRAFTER_TASKS_H
#define CRAFTER_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"

enum crafter_task_family {
  CRAFTER_TASK_ACHIEVEMENTS = 0, /* unlock some achievements, avoid others */
  CRAFTER_TASK_LOCALIZATION,     /* a thing on one side of another, in the window */
  CRAFTER_TASK_CONDITIONAL,      /* spend an item below a threshold while enough blocks stand */
  CRAFTER_TASK_LINE,             /* a line of placed blocks */
  CRAFTER_TASK_SQUARE,           /* a filled square of placed blocks, an empty ring around */
  CRAFTER_TASK_CROSS,            /* a cross or a star of placed blocks */
  CRAFTER_TASK_TIMED,            /* near a placed block while the daylight is in a window */
  CRAFTER_TASK_EXPLORE,          /* come near something */
  CRAFTER_TASK_FAMILY_COUNT
};

extern const char *const crafter_task_family_names[CRAFTER_TASK_FAMILY_COUNT];

enum crafter_task_split {
  CRAFTER_SPLIT_TRAIN = 0,
  CRAFTER_SPLIT_TEST_PARAPHRASE,
  CRAFTER_SPLIT_TEST_NEW_OBJECTS,
  CRAFTER_SPLIT_COUNT
};

extern const char *const crafter_task_split_names[CRAFTER_SPLIT_COUNT];

enum crafter_task_difficulty {
  CRAFTER_DIFFICULTY_EASY = 0,
  CRAFTER_DIFFICULTY_MEDIUM,
  CRAFTER_DIFFICULTY_HARD,
  CRAFTER_DIFFICULTY_COUNT
};

extern const char *const crafter_task_difficulty_names[CRAFTER_DIFFICULTY_COUNT];

/* A thing on a cell: a material, or a kind of object standing there. */
typedef struct crafter_thing {
  uint8_t is_object; /* 0: material, 1: object kind */
  uint8_t id;        /* enum crafter_material or enum crafter_object_kind */
} crafter_thing;

enum crafter_task_side { CRAFTER_SIDE_LEFT = 0, CRAFTER_SIDE_RIGHT, CRAFTER_SIDE_UP,
                         CRAFTER_SIDE_DOWN };

/* The checker's arguments; which fields count depends on the family. */
typedef struct crafter_task_check {
  uint32_t unlock, avoid;     /* achievements: bit sets of achievement ids */
  crafter_thing object, target;
  int side;                   /* localization: enum crafter_task_side */
  int distance;               /* localization: cells apart; explore: at most this far */
  int placed;                 /* localization: the object must be one the agent placed */
  int item, threshold, count; /* conditional */
  int length;                 /* line: cells; cross: arm length beyond the centre */
  int size;                   /* square: side */
  int diagonal;               /* line, cross: diagonal instead of straight */
  int radius;                 /* timed: cells (Chebyshev) from the player */
  double daylight[2];         /* timed: the window of daylight, inclusive */
} crafter_task_check;

/* The windows the checkers look in, centred on the player: 11x11 for
 * localization and conditional goals, 21x21 for shapes. */
#define CRAFTER_TASK_NEAR_RADIUS 5
#define CRAFTER_TASK_SHAPE_RADIUS 10

#define CRAFTER_TASK_ID_MAX 64
#define CRAFTER_TASK_TEXT_MAX 256
#define CRAFTER_TASK_PARAPHRASES_MAX 16

typedef struct crafter_task {
  char id[CRAFTER_TASK_ID_MAX];
  int family, difficulty, split;
  crafter_task_check check;
  long steps;     /* time limit of an episode with this goal; 0: the env's */
  double reward;  /* given the step the goal is met */
  int text_count; /* the instruction, then its paraphrases */
  char text[1 + CRAFTER_TASK_PARAPHRASES_MAX][CRAFTER_TASK_TEXT_MAX];
} crafter_task;

typedef struct crafter_task_set {
  crafter_task *tasks;
  int count;
  char *source;        /* the file's bytes as read (a trajectory file keeps them) */
  size_t source_bytes;
} crafter_task_set;

/* The most a task file may hold. */
#define CRAFTER_TASKS_MAX 10000
#define CRAFTER_TASKS_MAX_BYTES (16 << 20)

/* Reads a task file.  0, or -1 with "PATH:LINE:COLUMN: what was wrong"
 * in `error`; *set is then empty.  Free with crafter_task_set_free. */
int crafter_tasks_load(const char *path, crafter_task_set *set, char *error, size_t error_size);
int crafter_tasks_load_string(const char *text, size_t length, const char *name,
                              crafter_task_set *set, char *error, size_t error_size);
void crafter_task_set_free(crafter_task_set *set);

/* The split of this name ("train"), or -1. */
int crafter_task_split_from_name(const char *name);

/* The index of the task with this id, or -1. */
int crafter_task_find(const crafter_task_set *set, const char *id);

/* What a checker needs beyond the game: the cells the agent placed a
 * block on in this episode (and not lost since), the inventory before the
 * step, and whether the goal is met. */
typedef struct crafter_task_tracker {
  const crafter_task *task;
  int width, height;
  uint8_t *placed;   /* width*height, x*height + y: 1 where the agent placed */
  int32_t before[CRAFTER_ITEM_COUNT];
  int met;           /* 1 from the step the goal is met */
  long met_step;
} crafter_task_tracker;

/* The tracker follows one player's goal: the functions below take the
 * player whose goal it is (0 in Crafter's game of one), the same at every
 * call of an episode, and read that player's place, inventory and
 * achievements. */

/* Starts tracking `task` of player `player` on the env's current episode
 * (call after each reset).  0, or -1 when out of memory. */
int crafter_task_begin(crafter_task_tracker *tracker, const crafter_task *task,
                       const crafter_env *env, int player);

/* Looks at the env after a step taken with `action`: returns 1 when the
 * goal is met at this step (once; later calls return 0). */
int crafter_task_observe(crafter_task_tracker *tracker, const crafter_env *env, int player,
                         int action);

/* Whether the goal holds in the env's state now (the check of
 * crafter_task_observe without the step's events). */
int crafter_task_holds(const crafter_task_tracker *tracker, const crafter_env *env, int player);

void crafter_task_tracker_free(crafter_task_tracker *tracker);

/* ---- episodes with a goal ---- */

/* The goals episodes draw from: the tasks of a split, or one task, and
 * the table of their instructions (every text of every candidate, in
 * file order: a task's instruction, then its paraphrases). */
typedef struct crafter_task_pool {
  const crafter_task_set *set;
  int count;        /* candidates */
  int *tasks;       /* their indices in set */
  int *first_text;  /* per candidate: the index of its first text in the table */
  int instructions; /* texts in the table */
} crafter_task_pool;

/* A pool of the tasks of `split` (-1: every split) or, when id is not
 * NULL, of that task alone.  0, or -1 with a reason (no such task, a
 * split without tasks, out of memory). */
int crafter_task_pool_init(crafter_task_pool *pool, const crafter_task_set *set, int split,
                           const char *id, char *error, size_t error_size);
void crafter_task_pool_free(crafter_task_pool *pool);

/* Loads a task file and makes the pool of goals of `split` (-1: all) or
 * of the task `id` (when not NULL).  0; -1 when the file cannot be read,
 * -2 when it has no such task or split, with a reason naming the file;
 * set and pool are then empty. */
int crafter_tasks_open(const char *path, int split, const char *id, crafter_task_set *set,
                       crafter_task_pool *pool, char *error, size_t error_size);

/* The goal of an episode: a candidate (index in the pool) and one of its
 * texts, drawn uniformly by a hash of the Env seed and the episode
 * counter, so that an episode's goal depends on nothing else. */
void crafter_task_draw(const crafter_task_pool *pool, int64_t seed, int64_t episode,
                       int *candidate, int *text);

/* The goal of player `player` of a game of several: player 0's is
 * crafter_task_draw's; player p > 0 draws from that hash mixed with p. */
void crafter_task_draw_player(const crafter_task_pool *pool, int64_t seed, int64_t episode,
                              int player, int *candidate, int *text);

/* Draws the goal of player `player` in the env's episode just reset
 * (crafter_task_draw_player from its seed and episode counter: for player
 * 0, crafter_task_draw's) and starts tracking it: tracker->task is the
 * goal, *candidate its index in the pool, *text its wording.  0, or -1
 * when out of memory. */
int crafter_task_pool_begin(const crafter_task_pool *pool, crafter_task_tracker *tracker,
                            const crafter_env *env, int player, int *candidate, int *text);

/* After crafter_env_step with `action`: looks at the goal and ends the
 * episode (result->done) when it is met or the task's time limit is
 * reached.  Returns 1 when the goal is met at this step.  The reward and
 * the discount are left as the game made them: the caller adds the
 * task's reward, and reports a discount of 0 (a terminal state), on the
 * step the goal is met. */
int crafter_task_step(crafter_task_tracker *tracker, const crafter_env *env, int player,
                      int action, crafter_step_result *result);

#endif
