/* Behaviours a mutation study found the suite did not pin down, each on a
 * hand-made world (crafter-world(5)).
 *
 * The square task (crafter-task(5), family square): the filled square of
 * placed blocks must have a ring free of that block, "placed or not" -- a
 * natural block of the square's material in the ring spoils it, wherever
 * in the ring (beside, at a corner, outside the 21x21 window), and mining
 * it away completes the square; a natural block of another material does
 * not matter. */
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

/* A task of one square of `block` and size `size`; kept to the end. */
static const crafter_task *square_task(const char *block, int size) {
  char text[1024];
  snprintf(text, sizeof(text),
           "tasks:\n"
           "  - id: s\n"
           "    family: square\n"
           "    check: {block: %s, size: %d}\n"
           "    instruction: Build a square.\n"
           "    paraphrases: [One., Two., Three., Four., Five.]\n"
           "    difficulty: easy\n"
           "    split: train\n",
           block, size);
  crafter_task_set_free(&set);
  if (crafter_tasks_load_string(text, strlen(text), "s.yaml", &set, error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    return NULL;
  }
  static crafter_task kept[8];
  static int used;
  if (used == 8) return NULL;
  kept[used] = set.tasks[0];
  return &kept[used++];
}

/* Starts an episode on `map` (rows of crafter-world(5) characters, each
 * ending in a newline) with nine of every item, tracking `goal`. */
static int play(const char *map, const crafter_task *goal) {
  char text[4096];
  int width = (int)strcspn(map, "\n"), height = 0;
  for (const char *p = map; *p; p++) height += *p == '\n';
  snprintf(text, sizeof(text), "crafter-world 1\nsize %d %d\nmap\n%s", width, height, map);
  crafter_world_map world;
  if (crafter_world_map_parse(&world, text, strlen(text), "map", error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    return -1;
  }
  crafter_env_fini(&env);
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = width;
  params.area[1] = height;
  params.length = 0;
  int status = 0;
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0 ||
      crafter_world_map_start(&env, &world, error, sizeof(error)) < 0) {
    printf("# %s\n", error);
    status = -1;
  }
  crafter_world_map_free(&world);
  if (status) return -1;
  for (int item = CRAFTER_SAPLING; item < CRAFTER_ITEM_COUNT; item++)
    env.game.players[0].inventory[item] = 9;
  return goal && crafter_task_begin(&tracker, goal, &env, 0) == 0 ? 0 : -1;
}

/* One step; 1 when it meets the goal. */
static int act(int action) {
  crafter_step_result result;
  crafter_env_step(&env, action, &result);
  return crafter_task_observe(&tracker, &env, 0, action);
}

/* Moves the player to (x, y) (a test's shortcut, not a move). */
static void stand(int x, int y) { crafter_world_move(&env.game.world, 0, x, y); }

/* Acts on the cell below (x, y - 1 standing): places or mines (x, y). */
static int act_on(int x, int y, int action) {
  stand(x, y - 1);
  env.game.players[0].facing_x = 0;
  env.game.players[0].facing_y = 1;
  return act(action);
}

/* Places the 2x2 square of cells x..x+1, y..y+1 with `action`, the lower
 * row first (each placed from the cell above it); 1 when a placement met
 * the goal, and *last whether the last one did. */
static int build_square(int x, int y, int action, int *last) {
  int met = 0;
  met |= act_on(x, y + 1, action);
  met |= act_on(x + 1, y + 1, action);
  met |= act_on(x, y, action);
  *last = act_on(x + 1, y, action);
  return met;
}

static int material(int x, int y) { return crafter_world_material(&env.game.world, x, y); }

static void squares_and_natural_blocks(void) {
  const crafter_task *stone = square_task("stone", 2);
  const crafter_task *table = square_task("table", 2);
  int last = 0, early;

  /* Control: the square alone, on sand, is met at its last block. */
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n"
       ":::::::::\n:::::::::\n:::::::::\n:::::::::\n",
       stone);
  early = build_square(3, 6, CRAFTER_PLACE_STONE, &last);
  ok(!early && last, "square: 2x2 of placed stone on open sand is met at the last block");

  /* Natural stone beside the square, in its ring at (5, 6). */
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n"
       ":::::::::\n:::::#:::\n:::::::::\n:::::::::\n",
       stone);
  early = build_square(3, 6, CRAFTER_PLACE_STONE, &last);
  ok(!early && !last && !crafter_task_holds(&tracker, &env, 0),
     "square: natural stone in the ring (beside it) spoils a square of placed stone");
  /* Mined away with the pickaxe: the ring is free and the square stands. */
  int mined = act_on(5, 6, CRAFTER_DO);
  ok(material(5, 6) == CRAFTER_PATH && mined && crafter_task_holds(&tracker, &env, 0),
     "square: mining the natural stone from the ring meets the goal at that step");

  /* Natural stone at a corner of the ring, (2, 5). */
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n"
       "::#::::::\n:::::::::\n:::::::::\n:::::::::\n",
       stone);
  early = build_square(3, 6, CRAFTER_PLACE_STONE, &last);
  ok(!early && !last && !crafter_task_holds(&tracker, &env, 0),
     "square: natural stone at a corner of the ring spoils it");

  /* A natural block of another material in the ring does not matter. */
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n"
       ":::::::::\n:::::T:::\n:::::::::\n:::::::::\n",
       stone);
  early = build_square(3, 6, CRAFTER_PLACE_STONE, &last);
  ok(!early && last, "square: a tree in the ring of a stone square does not spoil it");

  /* A square of tables with a natural table in its ring. */
  play(":::::::::\n:::::::::\n:::::::::\n:::::::::\n::::@::::\n"
       ":::::::::\n:::::t:::\n:::::::::\n:::::::::\n",
       table);
  early = build_square(3, 6, CRAFTER_PLACE_TABLE, &last);
  ok(material(3, 6) == CRAFTER_TABLE && material(4, 7) == CRAFTER_TABLE && !early && !last &&
         !crafter_task_holds(&tracker, &env, 0),
     "square of tables: a natural table in the ring spoils it");

  /* The ring may leave the 21x21 window: the player back at (4, 4), the
   * window reaches x = 14, the square is at x = 13..14, and natural stone
   * at (15, 6) lies in its ring outside the window. */
  const char *wide =
      ":::::::::::::::::::::::::\n"
      ":::::::::::::::::::::::::\n"
      ":::::::::::::::::::::::::\n"
      ":::::::::::::::::::::::::\n"
      "::::@::::::::::::::::::::\n"
      ":::::::::::::::::::::::::\n"
      ":::::::::::::::#:::::::::\n"
      ":::::::::::::::::::::::::\n"
      ":::::::::::::::::::::::::\n";
  play(wide, stone);
  early = build_square(13, 6, CRAFTER_PLACE_STONE, &last);
  stand(4, 4);
  ok(!early && !last && !crafter_task_holds(&tracker, &env, 0),
     "square: natural stone in the ring outside the window still spoils it");
  mined = act_on(15, 6, CRAFTER_DO);
  stand(4, 4);
  ok(material(15, 6) == CRAFTER_PATH && mined && crafter_task_holds(&tracker, &env, 0),
     "square: ... and mining it meets the goal");
}

int main(void) {
  squares_and_natural_blocks();
  crafter_task_tracker_free(&tracker);
  crafter_task_set_free(&set);
  crafter_env_fini(&env);
  return tap_done();
}
