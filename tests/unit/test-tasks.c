/* Instruction tasks (crafter-task(5)): the file format and its errors, and
 * every checker family on hand-made worlds (crafter-world(5)), each with a
 * success and near-misses: natural terrain that must not count, shapes
 * one block short or the wrong way, blocks mined again, the wrong time. */
#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "game/tasks.h"
#include "run/worldfile.h"
#include "tap.h"

static char error[1024];
static crafter_env env;
static crafter_task_set set;
static crafter_task_tracker tracker;

/* A task file of one task: `body` gives the family and the check.  The
 * task stays valid to the end of the program. */
static const crafter_task *task(const char *body) {
  char text[2048];
  snprintf(text, sizeof(text),
           "tasks:\n"
           "  - id: t\n"
           "    %s\n"
           "    instruction: Do it.\n"
           "    paraphrases: [One., Two., Three., Four., Five.]\n"
           "    difficulty: easy\n"
           "    split: train\n",
           body);
  crafter_task_set_free(&set);
  if (crafter_tasks_load_string(text, strlen(text), "t.yaml", &set, error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    return NULL;
  }
  /* Kept apart from the set, which the next call frees. */
  static crafter_task kept[64];
  static int used;
  if (used == 64) return NULL;
  kept[used] = set.tasks[0];
  return &kept[used++];
}

/* Starts an episode on `map` (rows of crafter-world(5) characters) and
 * tracks `goal` on it, with nine of every item. */
static void play(const char *map, const crafter_task *goal) {
  char text[4096];
  int width = (int)strcspn(map, "\n"), height = 0;
  for (const char *p = map; *p; p++) height += *p == '\n';
  snprintf(text, sizeof(text), "crafter-world 1\nsize %d %d\nmap\n%s", width, height, map);
  crafter_world_map world;
  if (crafter_world_map_parse(&world, text, strlen(text), "map", error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    return;
  }
  crafter_env_fini(&env);
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = width;
  params.area[1] = height;
  params.length = 0;
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0 ||
      crafter_world_map_start(&env, &world, error, sizeof(error)) < 0)
    printf("# %s\n", error);
  crafter_world_map_free(&world);
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    env.game.players[0].inventory[item] = 9;
  if (goal) crafter_task_begin(&tracker, goal, &env, 0);
}

/* One step; 1 when it meets the goal. */
static int act(int action) {
  crafter_step_result result;
  crafter_env_step(&env, action, &result);
  return crafter_task_observe(&tracker, &env, 0, action);
}

/* Moves the player to (x, y) (a test's shortcut, not a move). */
static void stand(int x, int y) { crafter_world_move(&env.game.world, 0, x, y); }

/* Places with `action` on the cell (dx, dy) from the player. */
static int place(int dx, int dy, int action) {
  env.game.players[0].facing_x = dx;
  env.game.players[0].facing_y = dy;
  return act(action);
}

/* Places at (x, y), standing on the cell above it. */
static int place_at(int x, int y, int action) {
  stand(x, y - 1);
  return place(0, 1, action);
}

static const char *const sand9 =
    ":::::::::\n"
    ":::::::::\n"
    ":::::::::\n"
    ":::::::::\n"
    "::::@::::\n"
    ":::::::::\n"
    ":::::::::\n"
    ":::::::::\n"
    ":::::::::\n";

static void format(void) {
  const crafter_task *t = task("family: line\n    check: {block: stone, length: 3}");
  ok(t && t->family == CRAFTER_TASK_LINE && t->check.length == 3 && t->text_count == 6 &&
         strcmp(t->text[0], "Do it.") == 0 && strcmp(t->text[5], "Five.") == 0 &&
         t->reward == 1 && t->steps == 0 && crafter_task_find(&set, "t") == 0,
     "a task is read with its instruction, paraphrases and defaults");
  struct {
    const char *body, *message;
  } bad[] = {
      {"family: lines\n    check: {}", "t.yaml:3:13: family: expected one of achievements"},
      {"family: line\n    check: {block: stone}", "the check of a line task needs 'length'"},
      {"family: line\n    check: {block: water, length: 3}",
       "check.block: expected one of stone, table, furnace, plant, got 'water'"},
      {"family: line\n    check: {block: stone, length: 1}",
       "check.length: expected an integer from 2 to 21"},
      {"family: square\n    check: {block: stone, size: 2, colour: red}",
       "unknown key 'colour' in the check of a square task"},
      {"family: achievements\n    check: {unlock: [eat_cow], avoid: [eat_cow]}",
       "both to unlock and to avoid"},
      {"family: localization\n    check: {object: table, target: lake, side: left, distance: 1}",
       "check.target: expected a material"},
      {"family: timed\n    check: {block: table, radius: 2, daylight: [0.5, 0.2]}",
       "the low end is above the high end"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    const crafter_task *refused = task(bad[i].body);
    ok(!refused && strstr(error, bad[i].message), "refused: %s", bad[i].message);
    if (refused || !strstr(error, bad[i].message)) printf("#   got: %s\n", error);
  }
  const char *few = "tasks:\n  - {id: a, family: explore, check: {target: water, distance: 1},\n"
                    "     instruction: Find water., paraphrases: [A., B.], difficulty: easy,\n"
                    "     split: train}\n";
  ok(crafter_tasks_load_string(few, strlen(few), "f.yaml", &set, error, sizeof(error)) < 0 &&
         strstr(error, "f.yaml:3:45: paraphrases: expected a list of 5 to 16 sentences"),
     "fewer than five paraphrases are refused, with line and column");
  if (!strstr(error, "f.yaml:3:45")) printf("#   got: %s\n", error);
  const char *twice =
      "tasks:\n"
      "  - {id: a, family: explore, check: {target: water, distance: 1}, instruction: x,\n"
      "     paraphrases: [a, b, c, d, e], difficulty: easy, split: train}\n"
      "  - {id: a, family: explore, check: {target: water, distance: 1}, instruction: x,\n"
      "     paraphrases: [a, b, c, d, e], difficulty: hard, split: test-paraphrase}\n";
  ok(crafter_tasks_load_string(twice, strlen(twice), "d.yaml", &set, error, sizeof(error)) < 0 &&
         strstr(error, "d.yaml:4:5: id 'a' is given to two tasks"),
     "two tasks with one id are refused");
  ok(crafter_tasks_load("/nonexistent/tasks.yaml", &set, error, sizeof(error)) < 0 &&
         strstr(error, "/nonexistent/tasks.yaml: No such file"),
     "a missing file names the path");
}

static void lines(void) {
  const crafter_task *straight = task("family: line\n    check: {block: stone, length: 3}");
  play(sand9, straight);
  int early = place_at(2, 6, CRAFTER_PLACE_STONE) || place_at(3, 6, CRAFTER_PLACE_STONE);
  ok(!early && place_at(4, 6, CRAFTER_PLACE_STONE), "line: three placed stones in a row meet it "
                                                   "at the third");

  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n:::::::::\n::##:::::\n"
       ":::::::::\n:::::::::\n", straight);
  ok(!place_at(4, 6, CRAFTER_PLACE_STONE) && !crafter_task_holds(&tracker, &env, 0),
     "line: natural stone does not count toward a built line");

  play(sand9, straight);
  place_at(2, 5, CRAFTER_PLACE_STONE);
  place_at(3, 6, CRAFTER_PLACE_STONE);
  ok(!place_at(4, 7, CRAFTER_PLACE_STONE), "line: a diagonal is not a straight line");
  const crafter_task *slanted =
      task("family: line\n    check: {block: stone, length: 3, diagonal: true}");
  tracker.task = slanted;
  ok(crafter_task_holds(&tracker, &env, 0), "line: ... and is a diagonal one");

  const crafter_task *two = task("family: line\n    check: {block: table, length: 2}");
  play(sand9, two);
  place_at(2, 6, CRAFTER_PLACE_TABLE);
  int apart = place_at(4, 6, CRAFTER_PLACE_TABLE);
  ok(!apart && place_at(3, 6, CRAFTER_PLACE_TABLE),
     "line of 2: two tables a cell apart are not a line, side by side they are");

  play(sand9, straight);
  for (int x = 2; x <= 4; x++) place_at(x, 6, CRAFTER_PLACE_STONE);
  stand(3, 5);
  place(0, 1, CRAFTER_DO); /* mined again with the pickaxe */
  ok(crafter_world_material(&env.game.world, 3, 6) == CRAFTER_PATH &&
         !crafter_task_holds(&tracker, &env, 0),
     "line: a block mined again no longer counts");
}

static void squares(void) {
  const crafter_task *goal = task("family: square\n    check: {block: stone, size: 2}");
  play(sand9, goal);
  int met = 0;
  /* The lower row first: each is placed from the cell above it. */
  met |= place_at(3, 7, CRAFTER_PLACE_STONE);
  met |= place_at(4, 7, CRAFTER_PLACE_STONE);
  met |= place_at(3, 6, CRAFTER_PLACE_STONE);
  ok(!met && place_at(4, 6, CRAFTER_PLACE_STONE), "square: a filled 2x2 of placed stone");

  play(sand9, goal);
  place_at(5, 6, CRAFTER_PLACE_STONE); /* touches the square's ring */
  place_at(3, 7, CRAFTER_PLACE_STONE);
  place_at(4, 7, CRAFTER_PLACE_STONE);
  place_at(3, 6, CRAFTER_PLACE_STONE);
  ok(!place_at(4, 6, CRAFTER_PLACE_STONE), "square: a stone beside it spoils the empty ring");

  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n:::::::::\n:::##::::\n"
       ":::##::::\n:::::::::\n", goal);
  ok(!act(CRAFTER_NOOP) && !crafter_task_holds(&tracker, &env, 0),
     "square: a square of natural stone is not built");
  const crafter_task *three = task("family: square\n    check: {block: stone, size: 3}");
  play(sand9, three);
  for (int x = 3; x <= 4; x++)
    for (int y = 7; y >= 6; y--) place_at(x, y, CRAFTER_PLACE_STONE);
  ok(!crafter_task_holds(&tracker, &env, 0), "square of 3: a 2x2 is too small");
}

static void crosses(void) {
  const crafter_task *plus = task("family: cross\n    check: {block: stone, length: 1}");
  play(sand9, plus);
  int met = 0;
  const int cells[5][2] = {{4, 7}, {4, 6}, {3, 6}, {5, 6}, {4, 5}};
  for (int i = 0; i < 4; i++) met |= place_at(cells[i][0], cells[i][1], CRAFTER_PLACE_STONE);
  ok(!met && place_at(cells[4][0], cells[4][1], CRAFTER_PLACE_STONE),
     "cross: the centre and four arms of one block, met at the last arm");

  const crafter_task *star =
      task("family: cross\n    check: {block: stone, length: 1, diagonal: true}");
  tracker.task = star;
  ok(!crafter_task_holds(&tracker, &env, 0), "star: a plus is not a star");
  play(sand9, star);
  const int corners[5][2] = {{4, 6}, {3, 5}, {5, 5}, {3, 7}, {5, 7}};
  met = 0;
  for (int i = 0; i < 5; i++) met |= place_at(corners[i][0], corners[i][1], CRAFTER_PLACE_STONE);
  ok(met, "star: the centre and four diagonal arms");

  const crafter_task *longer = task("family: cross\n    check: {block: stone, length: 2}");
  tracker.task = longer;
  ok(!crafter_task_holds(&tracker, &env, 0), "cross with arms of 2: arms of 1 fall short");
}

static void localization(void) {
  const char *lake =
      ":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n:::::::~:\n:::::::::\n"
      ":::::::::\n:::::::::\n";
  const crafter_task *left = task("family: localization\n    check: {object: table, target: water, "
                                  "side: left, distance: 1, placed: true}");
  play(lake, left);
  ok(place_at(6, 5, CRAFTER_PLACE_TABLE), "localization: a table placed left of the water");
  play(lake, left);
  ok(!place_at(8, 5, CRAFTER_PLACE_TABLE) && !place_at(7, 4, CRAFTER_PLACE_TABLE),
     "localization: right of it or above it is not left");
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n::::::t~:\n:::::::::\n"
       ":::::::::\n:::::::::\n", left);
  ok(!act(CRAFTER_NOOP), "localization: a table that was there does not count as placed");
  const crafter_task *far = task("family: localization\n    check: {object: table, target: water, "
                                 "side: left, distance: 2, placed: true}");
  play(lake, far);
  ok(!place_at(6, 5, CRAFTER_PLACE_TABLE) && place_at(5, 5, CRAFTER_PLACE_TABLE),
     "localization at distance 2: adjacent is too close, two cells is right");
  const crafter_task *cow = task("family: localization\n    check: {object: cow, target: water, "
                                 "side: up, distance: 1}");
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n:::::::~:\n:::::::::\n"
       ":::::::::\n:::::::::\n", cow);
  int before = act(CRAFTER_NOOP);
  crafter_game_add_creature(&env.game, CRAFTER_COW, 7, 4);
  ok(!before && crafter_task_holds(&tracker, &env, 0),
     "localization: a creature above the water, placed or not");
}

static void conditional(void) {
  const crafter_task *goal = task("family: conditional\n    check: {item: stone, threshold: 2, "
                                  "object: stone, count: 3}");
  play(sand9, goal);
  env.game.players[0].inventory[CRAFTER_ITEM_STONE] = 5;
  tracker.before[CRAFTER_ITEM_STONE] = 5;
  int met = 0;
  for (int x = 2; x <= 4; x++) met |= place_at(x, 6, CRAFTER_PLACE_STONE);
  ok(!met && env.game.players[0].inventory[CRAFTER_ITEM_STONE] == 2,
     "conditional: three stones placed, two left: not yet below 2");
  ok(place_at(5, 6, CRAFTER_PLACE_STONE),
     "conditional: the fourth drops stone below 2 with at least 3 placed");

  play(sand9, goal);
  env.game.players[0].inventory[CRAFTER_ITEM_STONE] = 2;
  tracker.before[CRAFTER_ITEM_STONE] = 2;
  met = place_at(2, 6, CRAFTER_PLACE_STONE);
  met |= place_at(3, 6, CRAFTER_PLACE_STONE);
  ok(!met, "conditional: spending below the threshold with too few placed does not meet it");
  ok(!place_at(4, 6, CRAFTER_PLACE_STONE),
     "conditional: ... nor does placing more once already below");
}

static void timed(void) {
  const crafter_task *night = task("family: timed\n    check: {block: table, radius: 2, "
                                   "daylight: [0, 0.3]}");
  play(sand9, night);
  ok(!place_at(4, 6, CRAFTER_PLACE_TABLE), "timed: a table placed by day does not meet it");
  env.game.step = 205; /* the next step is deep in the night */
  ok(act(CRAFTER_NOOP) && env.game.daylight < 0.3,
     "timed: night falls beside a placed table: met");
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n::::t::::\n:::::::::\n"
       ":::::::::\n:::::::::\n", night);
  env.game.step = 205;
  ok(!act(CRAFTER_NOOP), "timed: a table that was there does not count");
  play(sand9, night);
  place_at(4, 6, CRAFTER_PLACE_TABLE);
  stand(0, 0);
  env.game.step = 205;
  ok(!act(CRAFTER_NOOP), "timed: too far from it at night");
}

static void explore(void) {
  const crafter_task *goal = task("family: explore\n    check: {target: diamond, distance: 2}");
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n:@::::::d\n:::::::::\n:::::::::\n"
       ":::::::::\n:::::::::\n", goal);
  int met = act(CRAFTER_MOVE_RIGHT) || act(CRAFTER_MOVE_RIGHT) || act(CRAFTER_MOVE_RIGHT) ||
            act(CRAFTER_MOVE_RIGHT);
  ok(!met && act(CRAFTER_MOVE_RIGHT) && env.game.world.objects[0].x == 6,
     "explore: met on coming within 2 cells of the diamond");
}

static void achievements(void) {
  const crafter_task *goal = task("family: achievements\n    check: {unlock: [place_stone, "
                                  "place_table], avoid: [place_furnace]}");
  play(sand9, goal);
  ok(!place(0, 1, CRAFTER_PLACE_STONE) && place(1, 0, CRAFTER_PLACE_TABLE),
     "achievements: met when both are unlocked");
  play(sand9, goal);
  place(-1, 0, CRAFTER_PLACE_FURNACE);
  ok(!place(0, 1, CRAFTER_PLACE_STONE) && !place(1, 0, CRAFTER_PLACE_TABLE),
     "achievements: never met once one to avoid is unlocked");
  play(sand9, goal);
  place(0, 1, CRAFTER_PLACE_STONE);
  place(1, 0, CRAFTER_PLACE_TABLE);
  ok(!act(CRAFTER_NOOP) && tracker.met == 1, "a goal is met once: later steps say nothing new");
}

static void plants(void) {
  const crafter_task *goal = task("family: line\n    check: {block: plant, length: 2}");
  play(".........\n.........\n.........\n.........\n....@....\n.........\n.........\n"
       ".........\n.........\n", goal);
  ok(!place_at(3, 6, CRAFTER_PLACE_PLANT) && place_at(4, 6, CRAFTER_PLACE_PLANT),
     "line of plants: two saplings side by side");
}

int main(int argc, char **argv) {
  /* Files that must load: the example of crafter-task(5), the seeds of
   * the fuzz target. */
  for (int i = 1; i < argc; i++) {
    int status = crafter_tasks_load(argv[i], &set, error, sizeof(error));
    ok(status == 0 && set.count > 0, "%s loads (%d tasks)", argv[i], set.count);
    if (status) printf("#   %s\n", error);
    crafter_task_set_free(&set);
  }
  format();
  lines();
  squares();
  crosses();
  localization();
  conditional();
  timed();
  explore();
  achievements();
  plants();
  crafter_task_tracker_free(&tracker);
  crafter_task_set_free(&set);
  crafter_env_fini(&env);
  return tap_done();
}
