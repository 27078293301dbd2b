/* The configuration: data/crafter.yaml is exactly the built-in values,
 * files lay over the defaults, bad files are refused with the line and
 * what was expected, and changed values change the game as documented. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game/config.h"
#include "game/env.h"
#include "game/game.h"
#include "tap.h"

static char error[1024];

static int load(const char *text, crafter_config *config) {
  crafter_config_default(config);
  return crafter_config_load_string(text, strlen(text), "test.yaml", config, error,
                                    sizeof(error));
}

/* Loads text that must fail and checks the message holds `expected`. */
static void refused(const char *text, const char *expected, const char *what) {
  crafter_config config;
  int status = load(text, &config);
  int mentions = strstr(error, expected) != NULL;
  ok(status < 0 && mentions, "refused: %s", what);
  if (status == 0 || !mentions) printf("#   message: %s\n#   expected: %s\n", error, expected);
}

static int count_material(const crafter_env *env, int material) {
  const crafter_world *world = &env->game.world;
  return crafter_world_count_in(world, 0, world->width, 0, world->height, material);
}

static int count_kind(const crafter_env *env, int kind) {
  int count = 0;
  for (int i = 0; i < env->game.world.object_count; i++)
    count += env->game.world.objects[i].kind == kind;
  return count;
}

/* A 9x9 beach with the player in the middle, facing down, under a config. */
static crafter_game game;
static void beach(const crafter_config *config) {
  crafter_world_free(&game.world);
  memset(&game, 0, sizeof(game));
  game.config = config;
  crafter_world_init(&game.world, 9, 9, 12, 12);
  memset(game.world.materials, CRAFTER_SAND, 81);
  crafter_world_recount(&game.world);
  crafter_rng_seed(&game.rng, 1);
  crafter_game_place_player(&game, 4, 4);
  game.update_distance = 18;
}

static void put(int x, int y, int material) {
  crafter_world_set_material(&game.world, x, y, material);
}

int main(int argc, char **argv) {
  const char *data = argc > 1 ? argv[1] : "data/crafter.yaml";
  crafter_config config, builtin;
  crafter_config_default(&builtin);

  /* data/crafter.yaml is the built-in config, to the last bit. */
  crafter_config_default(&config);
  int status = crafter_config_load(data, &config, error, sizeof(error));
  ok(status == 0, "%s loads", data);
  if (status) printf("#   %s\n", error);
  ok(memcmp(&config, &builtin, sizeof(config)) == 0, "%s equals crafter_config_default", data);
  ok(builtin.worldgen.coal_draw == 0.85 && builtin.worldgen.tree_draw == 0.8 &&
         builtin.worldgen.diamond_draw == 0.994 && builtin.worldgen.cow_draw == 0.985,
     "probabilities are kept as the reference's thresholds");
  ok(config.worldgen.coal_draw == 0.85 && config.worldgen.iron_draw == 0.75 &&
         config.worldgen.zombie_draw == 0.993 && config.worldgen.skeleton_draw == 0.95,
     "a probability p in the file becomes exactly the literal 1 - p");
  ok(config.reward.health_divisor == 10, "reward.health 0.1 is a divisor of exactly 10");
  ok(load("", &config) == 0 && memcmp(&config, &builtin, sizeof(config)) == 0,
     "an empty file changes nothing");
  ok(load("# only a comment\n", &config) == 0 && memcmp(&config, &builtin, sizeof(config)) == 0,
     "a file of comments changes nothing");

  /* Crafter's own data.yaml, with its fixed lists, loads too. */
  ok(load("actions: [noop, move_left, move_right, move_up, move_down, do, sleep, place_stone,\n"
          "  place_table, place_furnace, place_plant, make_wood_pickaxe, make_stone_pickaxe,\n"
          "  make_iron_pickaxe, make_wood_sword, make_stone_sword, make_iron_sword]\n"
          "materials: [water, grass, stone, path, sand, tree, lava, coal, iron, diamond,\n"
          "  table, furnace]\n"
          "walkable: [grass, path, sand]\n"
          "items:\n  health: {max: 9, initial: 9}\n"
          "collect:\n  tree: {require: {}, receive: {wood: 1}, leaves: grass}\n",
          &config) == 0 &&
         memcmp(&config, &builtin, sizeof(config)) == 0,
     "data.yaml's own layout loads and matches");

  /* Overlays. */
  ok(load("worldgen:\n  tree: {probability: 0}\n", &config) == 0 &&
         config.worldgen.tree_draw == 1.0 && config.worldgen.tree_noise == 0 &&
         config.worldgen.coal_draw == 0.85,
     "one key changes one value and keeps the rest");
  ok(load("items: {wood: {max: 3}}\n", &config) == 0 && config.items[CRAFTER_WOOD].max == 3 &&
         config.items[CRAFTER_WOOD].initial == 0 && config.items[CRAFTER_STONE].max == 9,
     "items overlay per field");
  ok(load("collect: {tree: {receive: {wood: 2, sapling: 1}}}\n", &config) == 0 &&
         config.collect[CRAFTER_TREE].receive_count == 2 &&
         config.collect[CRAFTER_TREE].receive[0].amount == 2 &&
         config.collect[CRAFTER_TREE].leaves == CRAFTER_GRASS,
     "a collect rule's map is replaced whole, its other fields kept");
  ok(load("collect: {tree: null, sand: {receive: {stone: 1}, leaves: path}}\n", &config) == 0 &&
         !config.collect[CRAFTER_TREE].present && config.collect[CRAFTER_SAND].present &&
         config.collect[CRAFTER_SAND].probability == 1 &&
         config.collect[CRAFTER_SAND].require_count == 0,
     "null removes a rule; a new rule starts from nothing needed, probability 1");
  ok(load("env: {area: [32, 48], view: 7, length: null, reward: false, seed: -5}\n", &config) ==
             0 &&
         config.params.area[0] == 32 && config.params.area[1] == 48 &&
         config.params.view[0] == 7 && config.params.view[1] == 7 && config.params.length == 0 &&
         !config.params.reward && config.params.seed == -5,
     "env: pairs, single numbers, null length, booleans, negative seeds");
  ok(load("reward: {health: 0, combine: sum, achievements: {collect_wood: 2.5}}\n", &config) ==
             0 &&
         config.reward.health_divisor == 0 && config.reward.combine == CRAFTER_COMBINE_SUM &&
         config.reward.achievements[CRAFTER_COLLECT_WOOD] == 2.5 &&
         config.reward.achievements[CRAFTER_EAT_COW] == 1,
     "reward: health, combine, achievements");
  ok(load("balance: {interval: 5, chunk: [8, 16], cow: {material: sand, max: {daylight: 2}}}\n",
          &config) == 0 &&
         config.balance_interval == 5 && config.chunk[0] == 8 && config.chunk[1] == 16 &&
         config.balance[CRAFTER_BALANCE_COW].material == CRAFTER_SAND &&
         config.balance[CRAFTER_BALANCE_COW].max_daylight == 2 &&
         config.balance[CRAFTER_BALANCE_COW].max_base == 1.5,
     "balance overlays nested keys");
  ok(load("place: {table: {uses: {wood: 1, stone: 1}, where: [grass]}}\n"
          "make: {wood_sword: {gives: 3, nearby: []}}\n",
          &config) == 0 &&
         config.place[1].use_count == 2 && config.place[1].where == (1u << CRAFTER_GRASS) &&
         config.make[3].gives == 3 && config.make[3].nearby == 0,
     "place and make rules");

  /* Bad files. */
  refused("worldgen:\n  treee: {probability: 0}\n",
          "test.yaml:2:3: unknown key 'treee' in worldgen (expected one of: start,",
          "an unknown key, with its line, column and the keys expected");
  refused("worldgen:\n  tree: {probability: 1.5}\n",
          "test.yaml:2:23: worldgen.tree.probability: expected a number from 0 to 1, got '1.5'",
          "a probability above 1");
  refused("items:\n  wood: {max: many}\n", "test.yaml:2:15: items: max: expected an integer",
          "a word for a number");
  refused("walkable: [grass, lava, mud]\n",
          "test.yaml:1:25: walkable: unknown name 'mud' (expected one of: water, grass,",
          "an unknown material");
  refused("items: {food: {initial: 9, max: 4}}\n", "initial count 9 is more than the max 4",
          "initial above max");
  refused("collect: {tree: {receive: {gold: 1}}}\n", "unknown name 'gold'", "an unknown item");
  refused("reward: {achievements: {win_game: 1}}\n", "unknown key 'win_game'",
          "an unknown achievement");
  refused("env: {area: [64, 64]}\nenv: {seed: 1}\n", "test.yaml:2:1: key 'env' is given twice",
          "a key given twice");
  refused("env: [1, 2\n", "test.yaml:2:1: did not find expected ',' or ']'",
          "a YAML syntax error, with libyaml's mark");
  refused("env: {view: [9, 1]}\n", "view", "a view too short for the inventory");
  refused("version: 2\n", "version 2 is not known", "an unknown version");
  refused("materials: [water, grass]\n", "materials are fixed", "a changed fixed list");
  refused("- a\n- b\n", "the top level: expected a mapping", "a list at the top level");
  refused("place: {plant: {type: material}}\n", "the type is fixed", "a place type change");
  refused("collect: {none: {}}\n", "'none' cannot be collected", "collecting none");
  refused("worldgen: {coal: {size: 0}}\n", "expected a size more than 0", "a noise size of 0");
  refused("a: 1\n---\nb: 2\n", "unknown key 'a'", "unknown keys in a first document");
  refused("env: {}\n---\nenv: {}\n", "more than one YAML document", "two documents");
  refused("daylight: {length: .nan}\n", "expected an integer", "not a number");
  crafter_config_default(&config);
  config.items[CRAFTER_WOOD].max = 7;
  crafter_config kept = config;
  ok(crafter_config_load_string("items: {wood: {max: 5}}\nbogus: 1\n", 31, "x", &config, error,
                                sizeof(error)) < 0 &&
         memcmp(&config, &kept, sizeof(config)) == 0,
     "a failed load leaves the config as it was");
  ok(crafter_config_load("/nonexistent/crafter.yaml", &config, error, sizeof(error)) < 0 &&
         strstr(error, "/nonexistent/crafter.yaml: No such file") != NULL,
     "a missing file names the path and the reason");

  /* Changed values change the game. */
  crafter_params params;
  crafter_params_default(&params);
  params.seed = 3;
  crafter_env env;
  ok(crafter_env_init(&env, &params, error, sizeof(error)) == 0 && crafter_env_reset(&env) == 0,
     "an env with Crafter's rules");
  int trees = count_material(&env, CRAFTER_TREE), coal = count_material(&env, CRAFTER_COAL);
  int cows = count_kind(&env, CRAFTER_COW);
  crafter_env_fini(&env);
  ok(trees > 0 && coal > 0 && cows > 0, "Crafter's world of seed 3 has trees, coal and cows");

  load("worldgen: {tree: {probability: 0}, cow: {probability: 0}}\n", &config);
  ok(crafter_env_init_config(&env, &params, &config, error, sizeof(error)) == 0 &&
         crafter_env_reset(&env) == 0,
     "an env with a config");
  ok(count_material(&env, CRAFTER_TREE) == 0 && count_kind(&env, CRAFTER_COW) == 0,
     "tree and cow probabilities of 0 give no trees and no cows");
  crafter_env_fini(&env);

  load("worldgen: {tree: {probability: 1, noise: -1}}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  int grass = count_material(&env, CRAFTER_GRASS);
  ok(count_material(&env, CRAFTER_TREE) > trees && grass < 600,
     "a tree probability of 1 everywhere turns the open grassland into forest (%d trees)",
     count_material(&env, CRAFTER_TREE));
  crafter_env_fini(&env);

  load("worldgen: {coal: {probability: 1}}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  ok(count_material(&env, CRAFTER_COAL) > 2 * coal, "more coal with a coal probability of 1");
  crafter_env_fini(&env);

  /* Daylight. */
  load("daylight: {length: 100}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  for (int i = 0; i < 50; i++) {
    crafter_step_result result;
    crafter_env_step(&env, CRAFTER_NOOP, &result);
  }
  ok(env.game.daylight == crafter_daylight_cycle(50, 100) &&
         env.game.daylight == crafter_daylight(150) && env.game.daylight != crafter_daylight(50),
     "a day of 100 steps: daylight at step 50 is Crafter's at step 150");
  crafter_env_fini(&env);
  load("daylight: {length: 0}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  int always = 1;
  for (int i = 0; i < 200; i++) {
    crafter_step_result result;
    crafter_env_step(&env, CRAFTER_NOOP, &result);
    always &= env.game.daylight == 1.0;
  }
  ok(always, "a day length of 0 is always day");
  crafter_env_fini(&env);
  ok(crafter_daylight_cycle(77, 300) == crafter_daylight(77), "a day of 300 is Crafter's");

  /* The rules of data.yaml. */
  load("items: {wood: {max: 3}}\n", &config);
  beach(&config);
  for (int i = 0; i < 5; i++) {
    put(4, 5, CRAFTER_TREE);
    crafter_game_update(&game, CRAFTER_DO);
  }
  ok(game.players[0].inventory[CRAFTER_WOOD] == 3, "an item max of 3 clamps wood at 3");
  beach(NULL);
  for (int i = 0; i < 12; i++) {
    put(4, 5, CRAFTER_TREE);
    crafter_game_update(&game, CRAFTER_DO);
  }
  ok(game.players[0].inventory[CRAFTER_WOOD] == 9, "Crafter's max clamps wood at 9");

  load("items: {food: {initial: 2}, wood: {initial: 4}}\n", &config);
  beach(&config);
  ok(game.players[0].inventory[CRAFTER_FOOD] == 2 && game.players[0].inventory[CRAFTER_WOOD] == 4 &&
         game.players[0].inventory[CRAFTER_HEALTH] == 9,
     "initial counts");

  load("collect: {tree: {receive: {wood: 2, sapling: 1}, leaves: sand}}\n", &config);
  beach(&config);
  put(4, 5, CRAFTER_TREE);
  crafter_game_update(&game, CRAFTER_DO);
  ok(game.players[0].inventory[CRAFTER_WOOD] == 2 && game.players[0].inventory[CRAFTER_SAPLING] == 1 &&
         game.players[0].achievements[CRAFTER_COLLECT_WOOD] == 1 &&
         game.players[0].achievements[CRAFTER_COLLECT_SAPLING] == 1 &&
         crafter_world_material(&game.world, 4, 5) == CRAFTER_SAND,
     "a collect rule gives what it says, counts collect_<item> and leaves its material");

  load("collect: {stone: {require: {wood_pickaxe: 2}}}\n", &config);
  beach(&config);
  game.players[0].inventory[CRAFTER_WOOD_PICKAXE] = 1;
  put(4, 5, CRAFTER_STONE);
  crafter_game_update(&game, CRAFTER_DO);
  ok(game.players[0].inventory[CRAFTER_ITEM_STONE] == 0, "a requirement of two pickaxes holds");

  load("place: {table: {uses: {wood: 1, stone: 1}, where: [sand]}}\n", &config);
  beach(&config);
  game.players[0].inventory[CRAFTER_WOOD] = 1;
  crafter_game_update(&game, CRAFTER_PLACE_TABLE);
  ok(crafter_world_material(&game.world, 4, 5) == CRAFTER_SAND, "a table needs its stone too");
  game.players[0].inventory[CRAFTER_ITEM_STONE] = 1;
  crafter_game_update(&game, CRAFTER_PLACE_TABLE);
  ok(crafter_world_material(&game.world, 4, 5) == CRAFTER_TABLE &&
         game.players[0].inventory[CRAFTER_WOOD] == 0 &&
         game.players[0].inventory[CRAFTER_ITEM_STONE] == 0 &&
         game.players[0].achievements[CRAFTER_PLACE_TABLE_ACH] == 1,
     "placing uses what the rule says");

  load("make: {wood_pickaxe: {uses: {sapling: 1}, nearby: [], gives: 2}}\n", &config);
  beach(&config);
  game.players[0].inventory[CRAFTER_SAPLING] = 1;
  crafter_game_update(&game, CRAFTER_MAKE_WOOD_PICKAXE);
  ok(game.players[0].inventory[CRAFTER_WOOD_PICKAXE] == 2 &&
         game.players[0].inventory[CRAFTER_SAPLING] == 0 &&
         game.players[0].achievements[CRAFTER_MAKE_WOOD_PICKAXE_ACH] == 1,
     "making needs nothing nearby and gives two when so configured");

  load("walkable: [sand, water]\n", &config);
  beach(&config);
  put(4, 5, CRAFTER_WATER);
  crafter_game_update(&game, CRAFTER_MOVE_DOWN);
  ok(game.world.objects[0].y == 5, "walkable water lets the player walk on water");

  ok(load("items: {energy: {max: 5, initial: 5}}\n", &config) == 0, "energy max 5 loads");
  beach(&config);
  game.players[0].inventory[CRAFTER_ENERGY] = 5;
  crafter_game_update(&game, CRAFTER_SLEEP);
  ok(!game.players[0].sleeping, "sleep is refused at the configured energy max");

  /* Rewards. */
  load("reward: {health: 0, achievements: {collect_wood: 5}}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  env.game.players[0].achievements[CRAFTER_COLLECT_WOOD] = 1;
  env.game.players[0].inventory[CRAFTER_HEALTH] = 5;
  crafter_step_result result;
  crafter_env_step(&env, CRAFTER_NOOP, &result);
  ok(result.reward == 5.0 && result.unlocked == (1u << CRAFTER_COLLECT_WOOD),
     "an achievement's own reward, and no health term");
  crafter_env_fini(&env);

  load("reward: {combine: sum, achievements: {collect_wood: 2, collect_stone: 3}}\n", &config);
  crafter_env_init_config(&env, &params, &config, error, sizeof(error));
  crafter_env_reset(&env);
  env.game.players[0].achievements[CRAFTER_COLLECT_WOOD] = 1;
  env.game.players[0].achievements[CRAFTER_COLLECT_STONE] = 1;
  crafter_env_step(&env, CRAFTER_NOOP, &result);
  ok(result.reward == 5.0, "combine: sum adds the rewards of a step's unlocks");
  crafter_env_fini(&env);

  crafter_env_init(&env, &params, error, sizeof(error));
  crafter_env_reset(&env);
  env.game.players[0].achievements[CRAFTER_COLLECT_WOOD] = 1;
  env.game.players[0].achievements[CRAFTER_COLLECT_STONE] = 1;
  crafter_env_step(&env, CRAFTER_NOOP, &result);
  ok(result.reward == 1.0, "Crafter gives +1 however many unlock at once");
  crafter_env_fini(&env);

  load("balance: {chunk: 1}\n", &config);
  params.area[0] = params.area[1] = 4096;
  ok(crafter_env_init_config(&env, &params, &config, error, sizeof(error)) < 0 &&
         strstr(error, "chunks") != NULL,
     "too many chunks is an error, not a crash");

  crafter_world_free(&game.world);
  return tap_done();
}
