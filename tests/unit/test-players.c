/* Games of several players, scene by scene on small hand-made worlds:
 * where the players start, that they block each other, whom a zombie
 * chases, that a dead player leaves the world while the others play on,
 * damage and rewards between players by the config's players: keys, and
 * that the world of a seed does not depend on the number of players.
 * The expectations follow from the rules in crafter(7), SEVERAL PLAYERS,
 * worked out by hand for each scene. */
#include <string.h>

#include "game/config.h"
#include "game/env.h"
#include "game/game.h"
#include "tap.h"

static crafter_game game;
static crafter_config config;

/* A 9x9 beach with player 0 in the middle, facing down; sand keeps
 * balancing from spawning anything. */
static void beach(void) {
  crafter_world_free(&game.world);
  memset(&game, 0, sizeof(game));
  crafter_config_default(&config);
  game.config = &config;
  crafter_world_init(&game.world, 9, 9, 12, 12);
  memset(game.world.materials, CRAFTER_SAND, 81);
  crafter_world_recount(&game.world);
  crafter_rng_seed(&game.rng, 1);
  crafter_game_place_player(&game, 4, 4);
  game.update_distance = 18;
}

static const crafter_object *body(int p) { return crafter_game_body(&game, p); }

static int at(int p, int x, int y) {
  const crafter_object *b = body(p);
  return b && b->x == x && b->y == y;
}

static void step2(int a0, int a1) {
  int actions[2] = {a0, a1};
  crafter_game_update_players(&game, actions);
}

/* Player p >= 1 starts on the first free cell a creature could walk on,
 * going out from player 0 by Manhattan distance, at each distance by x
 * then y: (3,4), (4,3), (4,5), (5,4) around (4,4); a tree or a cow on
 * one of them moves the rest on, and distance 2 starts at (2,4). */
static void test_start_cells(void) {
  char error[200];
  beach();
  int status = crafter_game_spread_players(&game, 5, error, sizeof(error));
  ok(status == 0 && game.player_count == 5 && at(1, 3, 4) && at(2, 4, 3) && at(3, 4, 5) &&
         at(4, 5, 4),
     "players 1..4 start at distance 1, by x then y");
  ok(game.world.object_count == 5 && game.world.objects[0].kind == CRAFTER_PLAYER &&
         game.world.objects[4].kind == CRAFTER_PLAYER,
     "the bodies are the first objects");
  beach();
  crafter_world_set_material(&game.world, 3, 4, CRAFTER_TREE);
  crafter_game_add_creature(&game, CRAFTER_COW, 4, 5);
  status = crafter_game_spread_players(&game, 4, error, sizeof(error));
  ok(status == 0 && at(1, 4, 3) && at(2, 5, 4) && at(3, 2, 4),
     "a tree and a cow take no start: the next cells do, then distance 2 from (2,4)");
  ok(game.world.objects[game.world.object_count - 1].kind == CRAFTER_COW &&
         crafter_world_object_slot(&game.world, 4, 5) == game.world.object_count - 1,
     "the creature moves behind the bodies and keeps its cell");
  beach();
  memset(game.world.materials, CRAFTER_WATER, 81);
  crafter_world_recount(&game.world);
  status = crafter_game_spread_players(&game, 2, error, sizeof(error));
  ok(status == CRAFTER_PLAYERS_UNFIT &&
         strstr(error, "no room for 2 players in the 9x9 world: each starts on a cell of grass, "
                       "path or sand without a creature, and it has 0") != NULL,
     "a world without room says so: %s", error);
}

/* Players are obstacles: two facing each other and moving into each
 * other stay where they are, each turned toward the other. */
static void test_blocking(void) {
  char error[200];
  beach();
  crafter_game_spread_players(&game, 2, error, sizeof(error)); /* player 1 at (3,4) */
  step2(CRAFTER_MOVE_LEFT, CRAFTER_MOVE_RIGHT);
  ok(at(0, 4, 4) && at(1, 3, 4) && game.players[0].facing_x == -1 &&
         game.players[1].facing_x == 1,
     "players block each other");
  step2(CRAFTER_MOVE_UP, CRAFTER_MOVE_RIGHT);
  ok(at(0, 4, 3) && at(1, 4, 4),
     "players act in order: player 1 walks into the cell player 0 left in the same step");
  step2(CRAFTER_MOVE_DOWN, CRAFTER_NOOP);
  ok(at(0, 4, 3) && game.players[0].facing_y == 1, "and now blocks player 0's way back");
}

/* A zombie chases the nearer player: with the chase certain and along the
 * longer axis, a zombie at (6,1) goes down toward player 1 at (6,4)
 * (distance 3), not left toward player 0 at (2,4) (distance 7).  Placed
 * at equal distances it goes for the lower index. */
static void test_zombie_target(void) {
  char error[200];
  beach();
  config.zombie.chase_probability = 1;
  config.zombie.long_axis = 1;
  crafter_world_move(&game.world, 0, 2, 4);
  crafter_game_add_player(&game, 6, 4);
  int slot = crafter_game_add_creature(&game, CRAFTER_ZOMBIE, 6, 1);
  step2(CRAFTER_NOOP, CRAFTER_NOOP);
  const crafter_object *zombie = &game.world.objects[slot];
  ok(zombie->x == 6 && zombie->y == 2, "the zombie steps toward the nearer player 1: (%d,%d)",
     zombie->x, zombie->y);
  step2(CRAFTER_NOOP, CRAFTER_NOOP);
  step2(CRAFTER_NOOP, CRAFTER_NOOP); /* next to player 1 from the second step: it bites */
  ok(game.players[1].inventory[CRAFTER_HEALTH] < 9 && game.players[0].inventory[CRAFTER_HEALTH] == 9,
     "it bites player 1 (health %d), not player 0 (%d)",
     game.players[1].inventory[CRAFTER_HEALTH], game.players[0].inventory[CRAFTER_HEALTH]);
  beach();
  config.zombie.chase_probability = 1;
  config.zombie.long_axis = 1;
  crafter_world_move(&game.world, 0, 1, 4);
  crafter_game_add_player(&game, 7, 4);
  slot = crafter_game_add_creature(&game, CRAFTER_ZOMBIE, 4, 4);
  step2(CRAFTER_NOOP, CRAFTER_NOOP);
  zombie = &game.world.objects[slot];
  ok(zombie->x == 3 && zombie->y == 4, "at equal distances it goes for player 0: (%d,%d)",
     zombie->x, zombie->y);
  (void)error;
}

/* Damage between players: off by default; with players.damage 3 a do at
 * a facing player takes 3 health, and the last hit counts a kill. */
static void test_damage(void) {
  char error[200];
  beach();
  crafter_game_spread_players(&game, 2, error, sizeof(error)); /* player 1 at (3,4) */
  step2(CRAFTER_MOVE_LEFT, CRAFTER_NOOP); /* player 0 turns to face player 1 */
  step2(CRAFTER_DO, CRAFTER_NOOP);
  ok(game.players[1].inventory[CRAFTER_HEALTH] == 9, "by default a do hurts no player");
  char reason[200];
  ok(crafter_game_player_outlook(&game, 0, CRAFTER_DO, reason, sizeof(reason)) ==
             CRAFTER_ACTION_IMPOSSIBLE &&
         strcmp(reason, "Nothing to do with a player.") == 0,
     "and the outlook says so: %s", reason);
  config.team.damage = 3;
  step2(CRAFTER_DO, CRAFTER_NOOP);
  ok(game.players[1].inventory[CRAFTER_HEALTH] == 6 && game.players[0].kills == 0,
     "with players.damage 3 it takes 3 health (%d left)", game.players[1].inventory[CRAFTER_HEALTH]);
  step2(CRAFTER_DO, CRAFTER_NOOP);
  step2(CRAFTER_DO, CRAFTER_NOOP);
  ok(game.players[1].inventory[CRAFTER_HEALTH] == 0 && game.players[0].kills == 1,
     "the hit that takes the last health counts a kill");
  step2(CRAFTER_NOOP, CRAFTER_NOOP);
  ok(crafter_game_body(&game, 1) == NULL && game.world.object_count == 1 && at(0, 4, 4),
     "the dead player's body leaves the world at the next step");
}

/* Player 0 dies and leaves: player 1, now the only body (slot 0), moves
 * by its own action, never by player 0's, and player 0's state stays as
 * it died. */
static void test_first_leaves(void) {
  char error[200];
  beach();
  crafter_game_spread_players(&game, 2, error, sizeof(error)); /* player 1 at (3,4) */
  crafter_world_set_material(&game.world, 4, 5, CRAFTER_LAVA);
  step2(CRAFTER_MOVE_DOWN, CRAFTER_NOOP); /* player 0 walks into lava */
  step2(CRAFTER_NOOP, CRAFTER_NOOP);      /* and leaves the world */
  ok(crafter_game_body(&game, 0) == NULL && at(1, 3, 4) && game.world.object_count == 1,
     "player 0 died in lava and left; player 1 is the only body");
  step2(CRAFTER_MOVE_UP, CRAFTER_NOOP);
  ok(at(1, 3, 4) && game.players[0].inventory[CRAFTER_HEALTH] == 0 &&
         game.players[0].facing_y == 1,
     "player 0's action moves nobody and changes nothing of player 0");
  step2(CRAFTER_NOOP, CRAFTER_MOVE_UP);
  ok(at(1, 3, 3), "player 1 moves by its own action");
}

/* The env: a player's death ends its episode, not the others'; the
 * world's ends with the last player's.  Rewards are each player's own,
 * or with players.reward shared the team's sum for every player still
 * playing (a dead one gets nothing of it). */
static void test_env(void) {
  char error[200];
  crafter_params params;
  crafter_params_default(&params);
  crafter_config_default(&config);
  config.team.damage = 2;
  crafter_env env;
  ok(crafter_env_init_config(&env, &params, &config, error, sizeof(error)) == 0 &&
         crafter_env_set_players(&env, 2, error, sizeof(error)) == 0 &&
         crafter_env_reset(&env) == 0 && env.game.player_count == 2,
     "an env of two players starts");
  /* Face player 1 (to the left of player 0 when the cell is free). */
  const crafter_object *one = crafter_game_body(&env.game, 1);
  const crafter_object *zero = crafter_game_body(&env.game, 0);
  int dx = one->x - zero->x, dy = one->y - zero->y;
  int face = dx < 0 ? CRAFTER_MOVE_LEFT : dx > 0 ? CRAFTER_MOVE_RIGHT
           : dy < 0 ? CRAFTER_MOVE_UP : CRAFTER_MOVE_DOWN;
  int actions[2] = {face, CRAFTER_NOOP};
  crafter_step_result results[2];
  crafter_env_step_players(&env, actions, results);
  actions[0] = CRAFTER_DO;
  crafter_env_step_players(&env, actions, results);
  ok(results[1].reward < -0.19 && results[1].reward > -0.21 && results[0].reward == 0,
     "a hit of 2 costs player 1 a reward of -0.2 and player 0 nothing (%g, %g)",
     results[0].reward, results[1].reward);
  config.team.shared = 1;
  crafter_env_step_players(&env, actions, results);
  ok(results[1].reward < -0.19 && results[1].reward > -0.21 && results[0].reward == results[1].reward,
     "with shared rewards both get the team's -0.2 (%g, %g)", results[0].reward,
     results[1].reward);
  config.team.shared = 0;
  int steps = 0;
  while (!results[1].done && steps++ < 10) crafter_env_step_players(&env, actions, results);
  ok(results[1].done && results[1].discount == 0 && !results[0].done,
     "player 1 dies: its episode ends, player 0's goes on");
  actions[0] = CRAFTER_NOOP;
  crafter_env_step_players(&env, actions, results);
  ok(results[1].done && results[1].reward == 0 && !results[0].done &&
         crafter_game_body(&env.game, 1) == NULL,
     "next step: gone from the world, done again with a reward of 0");
  /* Shared rewards go to the players still running: player 0 collects
   * wood from a tree put where player 1 stood (its first: a reward of 1),
   * and dead player 1 gets nothing of it. */
  config.team.shared = 1;
  const crafter_player *hitter = &env.game.players[0];
  zero = crafter_game_body(&env.game, 0);
  crafter_world_set_material(&env.game.world, zero->x + hitter->facing_x,
                             zero->y + hitter->facing_y, CRAFTER_TREE);
  actions[0] = CRAFTER_DO;
  crafter_env_step_players(&env, actions, results);
  ok(results[0].reward == 1 && results[1].reward == 0 && results[1].done,
     "shared: player 0's wood gives player 0 a reward of 1 and dead player 1 none (%g, %g)",
     results[0].reward, results[1].reward);
  config.team.shared = 0;
  crafter_env_fini(&env);
}

/* The world of a seed does not depend on the number of players: the
 * grid, the creatures and player 0's start are those of one player, and
 * stay so over a night's steps of noops (nobody near them moves). */
static void test_same_world(void) {
  char error[200];
  crafter_params params;
  crafter_params_default(&params);
  crafter_env one, four;
  crafter_env_init(&one, &params, error, sizeof(error));
  crafter_env_init(&four, &params, error, sizeof(error));
  crafter_env_set_players(&four, 4, error, sizeof(error));
  crafter_env_reset(&one);
  crafter_env_reset(&four);
  const crafter_world *a = &one.game.world, *b = &four.game.world;
  int same = memcmp(a->materials, b->materials, 64 * 64) == 0 &&
             b->object_count == a->object_count + 3 &&
             a->objects[0].x == b->objects[0].x && a->objects[0].y == b->objects[0].y;
  for (int i = 1; same && i < a->object_count; i++)
    same = a->objects[i].kind == b->objects[i + 3].kind && a->objects[i].x == b->objects[i + 3].x &&
           a->objects[i].y == b->objects[i + 3].y;
  ok(same, "seed 0 with 4 players: the world and creatures of 1 player, 3 more bodies after "
           "player 0's");
  ok(memcmp(&one.game.rng, &four.game.rng, sizeof(one.game.rng)) == 0,
     "placing the other players takes no draw from the world's generator");
  uint8_t semantic[64 * 64];
  const crafter_object *zero = crafter_game_body(&four.game, 0), *two = crafter_game_body(&four.game, 2);
  crafter_env_semantic(&four, 2, semantic);
  int marked = semantic[zero->x * 64 + zero->y] == CRAFTER_SEMANTIC_OTHER_PLAYER &&
               semantic[two->x * 64 + two->y] == CRAFTER_MATERIAL_COUNT + CRAFTER_PLAYER;
  crafter_env_semantic(&four, 0, semantic);
  marked = marked && semantic[zero->x * 64 + zero->y] == CRAFTER_MATERIAL_COUNT + CRAFTER_PLAYER &&
           semantic[two->x * 64 + two->y] == CRAFTER_SEMANTIC_OTHER_PLAYER;
  ok(marked && CRAFTER_SEMANTIC_OTHER_PLAYER == 19,
     "the semantic map marks the player who looks 13 and the other players 19");
  crafter_env_fini(&one);
  crafter_env_fini(&four);
}

int main(void) {
  test_start_cells();
  test_blocking();
  test_zombie_target();
  test_damage();
  test_first_leaves();
  test_env();
  test_same_world();
  crafter_world_free(&game.world);
  return tap_done();
}
