/* One test per mechanic of the rules, on small hand-made worlds.  The
 * expectations come from the rules of crafter 1.8.3 (objects.py, env.py and
 * data.yaml), worked out by hand for each scene. */
#include <string.h>

#include "game/env.h"
#include "game/game.h"
#include "tap.h"

static crafter_game game;

/* A 9x9 beach with the player in the middle, facing down.  Sand keeps
 * chunk balancing from drawing: it spawns only where there is grass or
 * path. */
static void meadow(void) {
  crafter_world_free(&game.world);
  memset(&game, 0, sizeof(game));
  crafter_world_init(&game.world, 9, 9, 12, 12);
  memset(game.world.materials, CRAFTER_SAND, 81);
  crafter_world_recount(&game.world);
  crafter_rng_seed(&game.rng, 1);
  crafter_game_place_player(&game, 4, 4);
  game.update_distance = 18;
}

static void put(int x, int y, int material) { crafter_world_set_material(&game.world, x, y, material); }
static int at(int x, int y) { return crafter_world_material(&game.world, x, y); }
static int px(void) { return game.world.objects[0].x; }
static int py(void) { return game.world.objects[0].y; }
static int32_t *inventory(void) { return game.players[0].inventory; }
static int32_t *achievements(void) { return game.players[0].achievements; }

/* The outlook of an action and its sentence, as expected; an action the
 * rules call impossible then changes nothing when the game takes it: no
 * item, achievement, position or material differs after the step (the
 * vitals follow the clock, not the action). */
static void expect_outlook(int action, int outlook, const char *sentence, const char *name) {
  char reason[300];
  int got = crafter_game_action_outlook(&game, action, reason, sizeof(reason));
  int same = got == outlook && strcmp(reason, sentence) == 0;
  if (!same) printf("# got %d \"%s\"\n", got, reason);
  if (same && outlook == CRAFTER_ACTION_IMPOSSIBLE) {
    crafter_player before = game.players[0];
    int x = px(), y = py();
    uint8_t materials[81];
    memcpy(materials, game.world.materials, sizeof(materials));
    crafter_game_update(&game, action);
    same = memcmp(before.inventory + CRAFTER_SAPLING, inventory() + CRAFTER_SAPLING,
                  sizeof(int32_t) * (CRAFTER_ITEM_COUNT - CRAFTER_SAPLING)) == 0 &&
           memcmp(before.achievements, achievements(), sizeof(before.achievements)) == 0 &&
           x == px() && y == py() && memcmp(materials, game.world.materials, 81) == 0;
    if (!same) printf("# the step changed the game\n");
  }
  ok(same, "%s", name);
}

static void place_player(int x, int y) { crafter_world_move(&game.world, 0, x, y); }

/* The meadow with one cell of another material. */
static void meadow_with(int x, int y, int material) {
  meadow();
  put(x, y, material);
}

/* Each reason the rules give for an action that does nothing, worked out
 * from data.yaml: stone, coal need a wood pickaxe, iron a stone pickaxe;
 * grass gives a sapling with probability 0.1; a table uses 2 wood and
 * goes on grass, sand or path (said in the order of the
 * materials: grass, path or sand); a plant goes on grass; a stone goes on
 * grass, sand, path, water or lava; the tools need a table nearby, the
 * iron ones a furnace too; energy is at most 9. */
static void test_outlook(void) {
  meadow();
  expect_outlook(CRAFTER_MOVE_LEFT, CRAFTER_ACTION_POSSIBLE, "", "sand ahead: moving is possible");
  meadow_with(3, 4, CRAFTER_WATER);
  expect_outlook(CRAFTER_MOVE_LEFT, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot move left: water is in the way.", "water blocks a move");
  meadow_with(5, 4, CRAFTER_TREE);
  expect_outlook(CRAFTER_MOVE_RIGHT, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot move right: a tree is in the way.", "a tree blocks a move");
  meadow();
  crafter_game_add_creature(&game, CRAFTER_COW, 4, 3);
  expect_outlook(CRAFTER_MOVE_UP, CRAFTER_ACTION_IMPOSSIBLE, "Cannot move up: a cow is in the way.",
                 "a cow blocks a move");
  meadow();
  place_player(4, 8);
  expect_outlook(CRAFTER_MOVE_DOWN, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot move down: the edge of the world is in the way.",
                 "the edge blocks a move");

  meadow();
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_IMPOSSIBLE, "Nothing to collect from sand.",
                 "do on sand: nothing to collect");
  meadow_with(4, 5, CRAFTER_STONE);
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot collect stone: needs 1 wood pickaxe (you have 0).",
                 "stone without a wood pickaxe");
  inventory()[CRAFTER_WOOD_PICKAXE] = 1;
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_POSSIBLE, "", "stone with a wood pickaxe");
  meadow_with(4, 5, CRAFTER_IRON);
  inventory()[CRAFTER_WOOD_PICKAXE] = 1;
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot collect iron: needs 1 stone pickaxe (you have 0).",
                 "iron needs a stone pickaxe, not a wood one");
  meadow_with(4, 5, CRAFTER_GRASS);
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_BY_CHANCE,
                 "No sapling this time: grass gives it with a probability of 10%.",
                 "grass gives a sapling by chance");
  meadow_with(4, 5, CRAFTER_WATER);
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_POSSIBLE, "", "do on water drinks");
  meadow();
  crafter_game_add_creature(&game, CRAFTER_PLANT, 4, 5);
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_IMPOSSIBLE, "Cannot eat the plant: it is not ripe yet.",
                 "a young plant cannot be eaten");
  meadow();
  place_player(4, 8);
  expect_outlook(CRAFTER_DO, CRAFTER_ACTION_IMPOSSIBLE, "Nothing to do: the edge of the world.",
                 "do facing the edge");

  meadow();
  expect_outlook(CRAFTER_SLEEP, CRAFTER_ACTION_IMPOSSIBLE, "You are not tired: energy 9 of 9.",
                 "sleep with full energy");
  inventory()[CRAFTER_ENERGY] = 5;
  expect_outlook(CRAFTER_SLEEP, CRAFTER_ACTION_POSSIBLE, "", "sleep when tired");
  meadow();
  inventory()[CRAFTER_ENERGY] = 3;
  game.players[0].sleeping = 1;
  expect_outlook(CRAFTER_MOVE_LEFT, CRAFTER_ACTION_IMPOSSIBLE,
                 "You are asleep (energy 3 of 9): you wake when rested or hurt.",
                 "asleep, a move is not taken");

  meadow();
  expect_outlook(CRAFTER_PLACE_TABLE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot place a table: needs 2 wood (you have 0).", "a table without wood");
  meadow_with(4, 5, CRAFTER_WATER);
  inventory()[CRAFTER_WOOD] = 2;
  expect_outlook(CRAFTER_PLACE_TABLE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot place a table: it goes on grass, path or sand, not water.",
                 "a table on water");
  inventory()[CRAFTER_WOOD] = 1;
  expect_outlook(CRAFTER_PLACE_TABLE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot place a table: needs 2 wood (you have 1); it goes on grass, path or "
                 "sand, not water.",
                 "too little wood and the wrong ground: both said");
  inventory()[CRAFTER_ITEM_STONE] = 1;
  expect_outlook(CRAFTER_PLACE_STONE, CRAFTER_ACTION_POSSIBLE, "", "a stone goes on water");
  meadow();
  inventory()[CRAFTER_SAPLING] = 1;
  expect_outlook(CRAFTER_PLACE_PLANT, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot place a plant: it goes on grass, not sand.", "a sapling on sand");
  meadow();
  inventory()[CRAFTER_ITEM_STONE] = 1;
  crafter_game_add_creature(&game, CRAFTER_ZOMBIE, 4, 5);
  expect_outlook(CRAFTER_PLACE_STONE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot place a stone: a zombie is in the way.", "a zombie in the way of a stone");

  meadow();
  inventory()[CRAFTER_WOOD] = 1;
  expect_outlook(CRAFTER_MAKE_WOOD_PICKAXE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot make a wood pickaxe: needs a table nearby.", "a pickaxe without a table");
  meadow_with(5, 5, CRAFTER_TABLE);
  expect_outlook(CRAFTER_MAKE_WOOD_PICKAXE, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot make a wood pickaxe: needs 1 wood (you have 0).",
                 "a pickaxe without wood, a table on the diagonal");
  inventory()[CRAFTER_WOOD] = 1;
  expect_outlook(CRAFTER_MAKE_WOOD_PICKAXE, CRAFTER_ACTION_POSSIBLE, "",
                 "wood and a table: a pickaxe can be made");
  meadow();
  expect_outlook(CRAFTER_MAKE_IRON_SWORD, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot make an iron sword: needs 1 wood (you have 0), 1 coal (you have 0), "
                 "1 iron (you have 0), a table and a furnace nearby.",
                 "an iron sword from nothing: every need listed");
  /* The reference's slice of the area wraps at its low edge and comes out
   * empty: a table right beside a player in column 0 is not nearby. */
  meadow();
  place_player(0, 4);
  put(1, 4, CRAFTER_TABLE);
  inventory()[CRAFTER_WOOD] = 1;
  expect_outlook(CRAFTER_MAKE_WOOD_SWORD, CRAFTER_ACTION_IMPOSSIBLE,
                 "Cannot make a wood sword: needs a table nearby.",
                 "at the low edge the table is not nearby, as in the reference");
  expect_outlook(CRAFTER_NOOP, CRAFTER_ACTION_POSSIBLE, "", "noop is always possible");
}

/* The index of each chunk's objects by kind holds, for every chunk and
 * kind, the slots of the objects there in slot order, removed ones left
 * out: what walking the whole table finds.  Checked on a crowded 61x47
 * grass world (chunks cut at both edges) as the game moves, adds and
 * removes creatures and balancing despawns the surplus. */
static int index_matches_table(const crafter_world *world) {
  int chunks = world->chunks_x * world->chunks_y;
  for (int chunk = 0; chunk < chunks; chunk++)
    for (int kind = 0; kind < CRAFTER_OBJECT_KIND_COUNT; kind++) {
      int found = 0;
      for (int slot = 0; slot < world->object_count; slot++) {
        const crafter_object *object = &world->objects[slot];
        if (object->removed || object->kind != kind ||
            crafter_world_chunk_of(world, object->x, object->y) != chunk)
          continue;
        if (found >= crafter_world_indexed_count(world, chunk, kind) ||
            crafter_world_indexed_slot(world, chunk, kind, found) != slot)
          return 0;
        found++;
      }
      if (found != crafter_world_indexed_count(world, chunk, kind)) return 0;
    }
  return 1;
}

static void test_chunk_index(void) {
  crafter_world_free(&game.world);
  memset(&game, 0, sizeof(game));
  int width = 61, height = 47;
  crafter_world_init(&game.world, width, height, 12, 12);
  memset(game.world.materials, CRAFTER_GRASS, (size_t)width * height);
  crafter_world_recount(&game.world);
  crafter_rng_seed(&game.rng, 7);
  crafter_game_place_player(&game, width / 2, height / 2);
  game.update_distance = 1000;
  int kinds[] = {CRAFTER_ZOMBIE, CRAFTER_COW, CRAFTER_SKELETON, CRAFTER_PLANT};
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++)
      if ((x + 2 * y) % 3 == 0 && crafter_world_object_slot(&game.world, x, y) < 0)
        crafter_game_add_creature(&game, kinds[(x / 3 + y) % 4], x, y);
  int created = game.world.object_count;
  crafter_world_index_chunks(&game.world);
  int matches = index_matches_table(&game.world);
  /* Removed but not yet compacted objects are left out. */
  for (int slot = 5; slot < game.world.object_count; slot += 9)
    crafter_world_remove(&game.world, slot);
  crafter_world_index_chunks(&game.world);
  matches &= game.world.removed_pending > 0 && index_matches_table(&game.world);
  crafter_world_compact(&game.world);
  for (int step = 0; step < 40; step++) {
    crafter_game_update(&game, CRAFTER_NOOP);
    crafter_world_index_chunks(&game.world);
    matches &= index_matches_table(&game.world);
  }
  ok(matches, "each chunk's objects by kind, indexed, are the table's in slot order");
  ok(game.world.object_count < created,
     "balancing despawned creatures of crowded chunks (%d objects of %d left)",
     game.world.object_count, created);
}

int main(void) {
  /* Movement. */
  meadow();
  crafter_game_update(&game, CRAFTER_MOVE_LEFT);
  ok(px() == 3 && py() == 4 && game.players[0].facing_x == -1, "move_left walks onto grass");
  put(2, 4, CRAFTER_WATER);
  crafter_game_update(&game, CRAFTER_MOVE_LEFT);
  ok(px() == 3, "water blocks the player");
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  ok(px() == 3 && py() == 0, "the player stops at the edge of the area");
  ok(game.players[0].facing_x == 0 && game.players[0].facing_y == -1, "a blocked move still turns");

  /* Lava kills. */
  meadow();
  put(5, 4, CRAFTER_LAVA);
  crafter_game_update(&game, CRAFTER_MOVE_RIGHT);
  ok(px() == 5 && inventory()[CRAFTER_HEALTH] == 0, "walking into lava sets health to 0");

  /* Collecting. */
  meadow();
  put(4, 5, CRAFTER_TREE);
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_WOOD] == 1 && achievements()[CRAFTER_COLLECT_WOOD] == 1,
     "do on a tree gives wood and collect_wood");
  ok(at(4, 5) == CRAFTER_GRASS, "the tree leaves grass");
  put(4, 5, CRAFTER_SAND);
  put(4, 5, CRAFTER_STONE);
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_ITEM_STONE] == 0 && at(4, 5) == CRAFTER_STONE,
     "stone needs a wood pickaxe");
  inventory()[CRAFTER_WOOD_PICKAXE] = 1;
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_ITEM_STONE] == 1 && at(4, 5) == CRAFTER_PATH,
     "with a wood pickaxe stone is collected and leaves path");
  put(4, 5, CRAFTER_IRON);
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_ITEM_IRON] == 0, "iron needs a stone pickaxe");
  put(4, 5, CRAFTER_WATER);
  inventory()[CRAFTER_DRINK] = 5;
  game.players[0].thirst = 10;
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_DRINK] == 6 && at(4, 5) == CRAFTER_WATER,
     "drinking adds one drink and leaves the water");
  ok(game.players[0].thirst == 1, "drinking resets thirst before it grows by one");

  /* Saplings come with probability 0.1 from grass: one uniform per try. */
  meadow();
  put(4, 5, CRAFTER_GRASS);
  crafter_rng reference;
  crafter_rng_seed(&reference, 1);
  int expected_saplings = 0;
  for (int i = 0; i < 50; i++) {
    expected_saplings += crafter_rng_uniform(&reference) <= 0.1;
    crafter_game_update(&game, CRAFTER_DO);
    inventory()[CRAFTER_SAPLING] = inventory()[CRAFTER_SAPLING] > 8 ? 0 : inventory()[CRAFTER_SAPLING];
  }
  ok(achievements()[CRAFTER_COLLECT_SAPLING] == expected_saplings && expected_saplings > 0,
     "collect_sapling follows uniform() <= 0.1 (%d of 50)", expected_saplings);

  /* Placing. */
  meadow();
  crafter_game_update(&game, CRAFTER_PLACE_TABLE);
  ok(at(4, 5) == CRAFTER_SAND, "a table needs wood");
  inventory()[CRAFTER_WOOD] = 3;
  crafter_game_update(&game, CRAFTER_PLACE_TABLE);
  ok(at(4, 5) == CRAFTER_TABLE && inventory()[CRAFTER_WOOD] == 1 &&
         achievements()[CRAFTER_PLACE_TABLE_ACH] == 1,
     "place_table uses two wood");
  put(4, 5, CRAFTER_WATER);
  inventory()[CRAFTER_ITEM_STONE] = 1;
  crafter_game_update(&game, CRAFTER_PLACE_STONE);
  ok(at(4, 5) == CRAFTER_STONE && inventory()[CRAFTER_ITEM_STONE] == 0,
     "stone can be placed on water");
  put(4, 5, CRAFTER_SAND);
  inventory()[CRAFTER_SAPLING] = 1;
  crafter_game_update(&game, CRAFTER_PLACE_PLANT);
  ok(game.world.object_count == 1, "a sapling is planted only on grass");
  put(4, 5, CRAFTER_GRASS);
  crafter_game_update(&game, CRAFTER_PLACE_PLANT);
  ok(game.world.object_count == 2 && game.world.objects[1].kind == CRAFTER_PLANT &&
         achievements()[CRAFTER_PLACE_PLANT_ACH] == 1,
     "place_plant adds a plant object");

  /* Making tools needs a table within one cell, and a furnace for iron. */
  meadow();
  inventory()[CRAFTER_WOOD] = 5;
  crafter_game_update(&game, CRAFTER_MAKE_WOOD_PICKAXE);
  ok(inventory()[CRAFTER_WOOD_PICKAXE] == 0, "no table, no pickaxe");
  put(5, 5, CRAFTER_TABLE);
  crafter_game_update(&game, CRAFTER_MAKE_WOOD_PICKAXE);
  ok(inventory()[CRAFTER_WOOD_PICKAXE] == 1 && inventory()[CRAFTER_WOOD] == 4,
     "a diagonal table is nearby");
  inventory()[CRAFTER_ITEM_COAL] = 1;
  inventory()[CRAFTER_ITEM_IRON] = 1;
  crafter_game_update(&game, CRAFTER_MAKE_IRON_SWORD);
  ok(inventory()[CRAFTER_IRON_SWORD] == 0, "an iron sword needs a furnace too");
  put(3, 3, CRAFTER_FURNACE);
  crafter_game_update(&game, CRAFTER_MAKE_IRON_SWORD);
  ok(inventory()[CRAFTER_IRON_SWORD] == 1 && inventory()[CRAFTER_ITEM_COAL] == 0 &&
         achievements()[CRAFTER_MAKE_IRON_SWORD_ACH] == 1,
     "make_iron_sword with table and furnace");
  /* At x = 0 numpy's slice x-1:x+2 wraps to an empty range: no table. */
  meadow();
  game.world.objects[0].x = 0;
  game.world.object_at[4 * 9 + 4] = 0;
  game.world.object_at[0 * 9 + 4] = 1;
  put(1, 4, CRAFTER_TABLE);
  inventory()[CRAFTER_WOOD] = 1;
  crafter_game_update(&game, CRAFTER_MAKE_WOOD_SWORD);
  ok(inventory()[CRAFTER_WOOD_SWORD] == 0, "at the left edge nothing is nearby");

  /* Vitals: food drops after 25 steps' hunger, energy after 30 awake. */
  meadow();
  for (int i = 0; i < 26; i++) crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_FOOD] == 8 && game.players[0].hunger == 0, "food drops after 26 steps");
  ok(inventory()[CRAFTER_DRINK] == 8 && game.players[0].thirst == 5, "drink drops after 21 steps");
  for (int i = 0; i < 5; i++) crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_ENERGY] == 8, "energy drops after 31 steps awake");
  ok(game.players[0].recover == 5, "recover grew by one per step and reset at 26");

  /* Sleeping: only when tired; wakes when energy is full. */
  meadow();
  crafter_game_update(&game, CRAFTER_SLEEP);
  ok(!game.players[0].sleeping, "a rested player does not fall asleep");
  inventory()[CRAFTER_ENERGY] = 8;
  crafter_game_update(&game, CRAFTER_SLEEP);
  ok(game.players[0].sleeping, "a tired player sleeps");
  ok(game.players[0].hunger == 1.5, "hunger grows by half while asleep");
  int steps = 0;
  while (game.players[0].sleeping && steps < 100) {
    crafter_game_update(&game, CRAFTER_MOVE_LEFT);
    steps++;
  }
  ok(px() == 3 && steps > 5, "asleep the player ignores actions; the waking step acts");
  ok(achievements()[CRAFTER_WAKE_UP] == 1 && inventory()[CRAFTER_ENERGY] == 9,
     "wakes up with full energy after %d steps", steps);

  /* Combat: a cow has 3 health, a wood sword hits for 2. */
  meadow();
  int cow = crafter_game_add_creature(&game, CRAFTER_COW, 4, 5);
  inventory()[CRAFTER_FOOD] = 2;
  game.update_distance = 1; /* only the player updates: the cow stays */
  crafter_game_update(&game, CRAFTER_DO);
  ok(game.world.objects[cow].health == 2, "a bare hand hits for 1");
  inventory()[CRAFTER_WOOD_SWORD] = 1;
  crafter_game_update(&game, CRAFTER_DO);
  ok(game.world.objects[cow].health == 0 && inventory()[CRAFTER_FOOD] == 8 &&
         achievements()[CRAFTER_EAT_COW] == 1,
     "a wood sword hits for 2 and the cow is eaten");

  /* A zombie next to the player attacks, then cools down for 5 updates. */
  meadow();
  put(4, 6, CRAFTER_STONE);
  put(3, 5, CRAFTER_STONE);
  put(5, 5, CRAFTER_STONE);
  crafter_game_add_creature(&game, CRAFTER_ZOMBIE, 4, 5);
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_HEALTH] == 7 && game.world.objects[1].counter == 5,
     "an adjacent zombie deals 2 damage");
  for (int i = 0; i < 5; i++) crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_HEALTH] == 7 && game.world.objects[1].counter == 0,
     "the zombie cools down for five steps");
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_HEALTH] == 5, "then attacks again");

  /* Arrows fly straight, hurt what they hit and break tables. */
  meadow();
  crafter_object arrow = {0};
  arrow.kind = CRAFTER_ARROW;
  arrow.x = 1;
  arrow.y = 4;
  arrow.facing_x = 1;
  crafter_world_add(&game.world, &arrow);
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(game.world.objects[1].x == 2, "an arrow moves one cell a step");
  crafter_game_update(&game, CRAFTER_NOOP);
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(game.world.object_count == 1 && inventory()[CRAFTER_HEALTH] == 7,
     "an arrow hitting the player deals 2 damage and disappears");
  arrow.x = 6;
  arrow.y = 1;
  crafter_world_add(&game.world, &arrow);
  put(7, 1, CRAFTER_TABLE);
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(at(7, 1) == CRAFTER_PATH && game.world.object_count == 1, "an arrow turns a table into path");

  /* Plants ripen after 300 updates and are eaten for 4 food. */
  meadow();
  put(4, 5, CRAFTER_GRASS);
  int plant = crafter_game_add_creature(&game, CRAFTER_PLANT, 4, 5);
  inventory()[CRAFTER_FOOD] = 1;
  for (int i = 0; i < 300; i++) game.world.objects[plant].counter++;
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_FOOD] == 1, "an unripe plant gives nothing");
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_FOOD] == 5 && achievements()[CRAFTER_EAT_PLANT] == 1 &&
         game.world.objects[plant].counter == 1,
     "a ripe plant gives 4 food and starts over");
  crafter_game_add_creature(&game, CRAFTER_COW, 5, 5);
  crafter_game_update(&game, CRAFTER_NOOP);
  ok(game.world.object_count == 2 && game.world.objects[1].kind == CRAFTER_COW,
     "a cow next to a plant eats it");

  test_outlook();

  /* Chunk balancing happens every tenth step, in first-touched order. */
  crafter_world_free(&game.world);
  crafter_env env;
  crafter_params params;
  char error[200];
  crafter_params_default(&params);
  params.seed = 3;
  ok(crafter_env_init(&env, &params, error, sizeof(error)) == 0 && crafter_env_reset(&env) == 0,
     "an env of seed 3 resets");
  ok(env.game.world.chunk_touched > 0 && env.game.world.chunk_order[0] ==
         crafter_world_chunk_of(&env.game.world, 32, 32),
     "the player's chunk is the first touched");
  int same_daylight = env.game.daylight_steps == 300;
  for (long step = 0; step < env.game.daylight_steps; step++)
    same_daylight &= env.game.daylight_by_step[step] == crafter_daylight(step);
  ok(same_daylight, "the env works out the daylight of the first day's 300 steps ahead");
  crafter_step_result result;
  crafter_env_step(&env, CRAFTER_NOOP, &result);
  ok(result.reward == 0.0 && !result.done && result.discount == 1.0, "a quiet first step");
  crafter_env_fini(&env);

  /* Chunk ids are looked up: the divisions they stand for, chunks cut
   * at the edge of the area included. */
  crafter_world odd;
  int same_chunks = crafter_world_init(&odd, 37, 29, 12, 8) == 0;
  for (int x = 0; same_chunks && x < 37; x++)
    for (int y = 0; y < 29; y++)
      same_chunks &= crafter_world_chunk_of(&odd, x, y) == x / 12 * odd.chunks_y + y / 8;
  ok(same_chunks, "a cell's chunk is (x / 12) * 4 + y / 8 in a 37x29 area of 12x8 chunks");
  crafter_world_free(&odd);

  test_chunk_index();

  /* Invalid parameters are refused with a reason. */
  crafter_params_default(&params);
  params.view[0] = 3;
  params.view[1] = 3;
  ok(crafter_params_check(&params, error, sizeof(error)) < 0 && strstr(error, "inventory"),
     "a 3x3 view leaves no room for the local view: %s", error);
  crafter_params_default(&params);
  params.size[0] = 4;
  ok(crafter_params_check(&params, error, sizeof(error)) < 0, "a size below the view is refused");
  return tap_done();
}
