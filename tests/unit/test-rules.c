/* One test per mechanic of the rules, on small hand-made worlds.  The
 * expectations come from the rules of crafter 1.8.3 (objects.py, env.py and
 * data.yaml), worked out by hand for each scene. */
#include <string.h>

#include "env.h"
#include "rules.h"
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
static int32_t *inventory(void) { return game.player.inventory; }
static int32_t *achievements(void) { return game.player.achievements; }

int main(void) {
  /* Movement. */
  meadow();
  crafter_game_update(&game, CRAFTER_MOVE_LEFT);
  ok(px() == 3 && py() == 4 && game.player.facing_x == -1, "move_left walks onto grass");
  put(2, 4, CRAFTER_WATER);
  crafter_game_update(&game, CRAFTER_MOVE_LEFT);
  ok(px() == 3, "water blocks the player");
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  crafter_game_update(&game, CRAFTER_MOVE_UP);
  ok(px() == 3 && py() == 0, "the player stops at the edge of the area");
  ok(game.player.facing_x == 0 && game.player.facing_y == -1, "a blocked move still turns");

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
  game.player.thirst = 10;
  crafter_game_update(&game, CRAFTER_DO);
  ok(inventory()[CRAFTER_DRINK] == 6 && at(4, 5) == CRAFTER_WATER,
     "drinking adds one drink and leaves the water");
  ok(game.player.thirst == 1, "drinking resets thirst before it grows by one");

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
  ok(inventory()[CRAFTER_FOOD] == 8 && game.player.hunger == 0, "food drops after 26 steps");
  ok(inventory()[CRAFTER_DRINK] == 8 && game.player.thirst == 5, "drink drops after 21 steps");
  for (int i = 0; i < 5; i++) crafter_game_update(&game, CRAFTER_NOOP);
  ok(inventory()[CRAFTER_ENERGY] == 8, "energy drops after 31 steps awake");
  ok(game.player.recover == 5, "recover grew by one per step and reset at 26");

  /* Sleeping: only when tired; wakes when energy is full. */
  meadow();
  crafter_game_update(&game, CRAFTER_SLEEP);
  ok(!game.player.sleeping, "a rested player does not fall asleep");
  inventory()[CRAFTER_ENERGY] = 8;
  crafter_game_update(&game, CRAFTER_SLEEP);
  ok(game.player.sleeping, "a tired player sleeps");
  ok(game.player.hunger == 1.5, "hunger grows by half while asleep");
  int steps = 0;
  while (game.player.sleeping && steps < 100) {
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
  crafter_step_result result;
  crafter_env_step(&env, CRAFTER_NOOP, &result);
  ok(result.reward == 0.0 && !result.done && result.discount == 1.0, "a quiet first step");
  crafter_env_free(&env);

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
