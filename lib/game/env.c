#include "game/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/worldgen.h"

/* Steps of daylight an env works out ahead: a day of Crafter's 300, or
 * the first 1,024 steps of a longer one (8 KiB). */
#define DAYLIGHT_TABLE_STEPS 1024

int crafter_env_init(crafter_env *env, const crafter_params *params, char *error,
                     size_t error_size) {
  return crafter_env_init_config(env, params, NULL, error, error_size);
}

int crafter_env_init_config(crafter_env *env, const crafter_params *params,
                            const crafter_config *config, char *error, size_t error_size) {
  memset(env, 0, sizeof(*env));
  if (crafter_params_check(params, error, error_size) < 0) return -1;
  if (!config) config = &crafter_config_builtin;
  if (config != &crafter_config_builtin && crafter_config_check(config, error, error_size) < 0)
    return -1;
  env->params = *params;
  env->config = config;
  env->game.config = config;
  const int *chunk = config->chunk;
  long chunks = (long)((params->area[0] + chunk[0] - 1) / chunk[0]) *
                ((params->area[1] + chunk[1] - 1) / chunk[1]);
  if (chunks > INT16_MAX) {
    snprintf(error, error_size, "an area of %dx%d in chunks of %dx%d makes %ld chunks; at most %d",
             params->area[0], params->area[1], chunk[0], chunk[1], chunks, INT16_MAX);
    return -1;
  }
  if (crafter_world_init(&env->game.world, params->area[0], params->area[1], chunk[0],
                         chunk[1]) < 0) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  int widest = params->view[0] > params->view[1] ? params->view[0] : params->view[1];
  env->game.update_distance = 2 * widest;
  /* The daylight of the first day's steps, up to a bound on the memory,
   * worked out once; without the memory for it, every step works it out. */
  long table_steps = config->day_length < DAYLIGHT_TABLE_STEPS ? config->day_length
                                                               : DAYLIGHT_TABLE_STEPS;
  if (table_steps > 0) env->daylight_table = crafter_daylight_table(config->day_length, table_steps);
  if (env->daylight_table) {
    env->game.daylight_by_step = env->daylight_table;
    env->game.daylight_steps = table_steps;
  }
  env->players = 1;
  env->item_rows = crafter_params_item_rows(params->view[0]);
  for (int axis = 0; axis < 2; axis++) env->unit[axis] = params->size[axis] / params->view[axis];
  env->local_pixels[0] = params->view[0] * env->unit[0];
  env->local_pixels[1] = (params->view[1] - env->item_rows) * env->unit[1];
  return 0;
}

void crafter_env_fini(crafter_env *env) {
  crafter_world_free(&env->game.world);
  free(env->daylight_table);
  env->daylight_table = NULL;
}

crafter_env *crafter_env_new(const crafter_params *params, const crafter_config *config,
                             char *error, size_t error_size) {
  crafter_env *env = malloc(sizeof(*env));
  if (!env) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  crafter_params defaults;
  if (!params) {
    crafter_params_default(&defaults);
    params = &defaults;
  }
  if (crafter_env_init_config(env, params, config, error, error_size) < 0) {
    crafter_env_fini(env);
    free(env);
    return NULL;
  }
  return env;
}

void crafter_env_free(crafter_env *env) {
  if (!env) return;
  crafter_env_fini(env);
  free(env);
}

/* ---- what a program reads of an env (crafter/crafter.h) ---- */

void crafter_env_params(const crafter_env *env, crafter_params *params) { *params = env->params; }

int crafter_env_players(const crafter_env *env) { return env->players; }

int64_t crafter_env_episode(const crafter_env *env) { return env->episode; }

int64_t crafter_env_world_seed(const crafter_env *env) { return env->world_seed; }

long crafter_env_steps(const crafter_env *env) { return env->game.step; }

double crafter_env_daylight(const crafter_env *env) { return env->game.daylight; }

int crafter_env_material(const crafter_env *env, int x, int y) {
  return crafter_world_material(&env->game.world, x, y);
}

/* Player p of the game, or NULL for one the game does not have. */
static const crafter_player *player_of(const crafter_env *env, int p) {
  return p >= 0 && p < env->game.player_count ? crafter_game_player_const(&env->game, p) : NULL;
}

int32_t crafter_env_inventory(const crafter_env *env, int player, int item) {
  const crafter_player *p = player_of(env, player);
  return p && item >= 0 && item < CRAFTER_ITEM_COUNT ? p->inventory[item] : 0;
}

int32_t crafter_env_achievement(const crafter_env *env, int player, int achievement) {
  const crafter_player *p = player_of(env, player);
  return p && achievement >= 0 && achievement < CRAFTER_ACHIEVEMENT_COUNT
             ? p->achievements[achievement]
             : 0;
}

int crafter_env_sleeping(const crafter_env *env, int player) {
  const crafter_player *p = player_of(env, player);
  return p ? p->sleeping : 0;
}

int crafter_env_position(const crafter_env *env, int player, int *x, int *y) {
  if (!player_of(env, player)) return -1;
  const crafter_object *body = crafter_game_body(&env->game, player);
  if (!body) return -1;
  *x = body->x;
  *y = body->y;
  return 0;
}

int crafter_env_facing(const crafter_env *env, int player, int *dx, int *dy) {
  const crafter_player *p = player_of(env, player);
  if (!p || !crafter_game_body(&env->game, player)) return -1;
  *dx = p->facing_x;
  *dy = p->facing_y;
  return 0;
}

int crafter_env_set_players(crafter_env *env, int players, char *error, size_t error_size) {
  if (players < 1 || players > CRAFTER_PLAYERS_MAX) {
    snprintf(error, error_size, "players must be 1 to %d, not %d", CRAFTER_PLAYERS_MAX, players);
    return -1;
  }
  env->players = players;
  return 0;
}

void crafter_env_set_next_episode(crafter_env *env, int64_t episode) {
  env->episode = episode - 1;
}

void crafter_env_set_observer(crafter_env *env, crafter_observe_fn observe, void *observer) {
  env->observe = observe;
  env->observer = observe ? observer : NULL;
}

long crafter_env_night_draws(const crafter_env *env) {
  return (long)env->local_pixels[0] * env->local_pixels[1];
}

/* Rendering at night draws one noise value per pixel of the local view
 * from the world's generator, whether or not anyone looks. */
static void observe_or_skip(crafter_env *env) {
  if (env->observe)
    env->observe(env->observer, env);
  else if (env->game.daylight < 0.5)
    crafter_rng_skip_uniform(&env->game.rng, crafter_env_night_draws(env) *
                                                 __builtin_popcount(env->game.present));
}

int crafter_env_reset(crafter_env *env) { return crafter_env_reset_custom(env, NULL, NULL); }

/* The fresh game of an episode: generator seeded, player placed, world
 * generated.  Reads only the env's parameters and config, so other
 * threads may prepare games for an env that is being stepped. */
static int generate_game(const crafter_env *env, int64_t world_seed, crafter_game *game) {
  crafter_world_clear(&game->world);
  crafter_rng_seed(&game->rng, (uint32_t)world_seed);
  game->step = 0;
  game->daylight = crafter_daylight_cycle(0, env->config->day_length);
  if (crafter_game_place_player(game, game->world.width / 2, game->world.height / 2) < 0)
    return -1;
  return crafter_generate_world(game);
}

/* What every reset does once the game is in place: the other players
 * join, then the first observation.  Returns 0, -1 when memory ran out, or
 * CRAFTER_PLAYERS_UNFIT when the world has no room for them all (those it has
 * room for are in: crafter_env_no_room says why). */
static int begin_episode(crafter_env *env) {
  int status = 0;
  if (env->players > env->game.player_count) {
    char error[256];
    status = crafter_game_spread_players(&env->game, env->players, error, sizeof(error));
  }
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) {
    env->last_health[p] = crafter_game_player_const(&env->game, p)->inventory[CRAFTER_HEALTH];
    env->unlocked[p] = 0;
  }
  observe_or_skip(env);
  return status;
}

int crafter_env_reset_custom(crafter_env *env, crafter_build_fn build, void *context) {
  env->episode += 1;
  env->world_seed = crafter_world_seed(env->params.seed, env->episode);
  if (generate_game(env, env->world_seed, &env->game) < 0) return -1;
  if (build && build(&env->game, context) < 0) return -1;
  return begin_episode(env);
}

int crafter_env_no_room(const crafter_env *env, char *error, size_t error_size) {
  if (env->game.player_count >= env->players) return 0;
  return crafter_game_no_room(&env->game, env->players, error, error_size);
}

void crafter_env_begin_restored(crafter_env *env, int64_t episode, int64_t world_seed) {
  env->episode = episode;
  env->world_seed = world_seed;
  (void)begin_episode(env);
}

int crafter_prepared_init(crafter_prepared *prepared, const crafter_env *env) {
  memset(prepared, 0, sizeof(*prepared));
  const crafter_world *world = &env->game.world;
  if (crafter_world_init(&prepared->game.world, world->width, world->height, world->chunk_width,
                         world->chunk_height) < 0)
    return -1;
  prepared->game.config = env->game.config;
  prepared->game.update_distance = env->game.update_distance;
  prepared->game.daylight_by_step = env->game.daylight_by_step;
  prepared->game.daylight_steps = env->game.daylight_steps;
  return 0;
}

void crafter_prepared_free(crafter_prepared *prepared) {
  crafter_world_free(&prepared->game.world);
}

int crafter_env_prepare(const crafter_env *env, int64_t episode, crafter_prepared *prepared) {
  prepared->seed = env->params.seed;
  prepared->episode = episode;
  prepared->world_seed = crafter_world_seed(env->params.seed, episode);
  prepared->ready = generate_game(env, prepared->world_seed, &prepared->game) == 0;
  return prepared->ready ? 0 : -1;
}

int crafter_env_reset_prepared(crafter_env *env, crafter_prepared *prepared) {
  if (!prepared->ready || prepared->episode != env->episode + 1 ||
      prepared->seed != env->params.seed)
    return crafter_env_reset(env);
  crafter_game swap = env->game;
  env->game = prepared->game;
  prepared->game = swap;
  prepared->ready = 0;
  env->episode = prepared->episode;
  env->world_seed = prepared->world_seed;
  return begin_episode(env);
}

/* The achievements the player has, as bits (bit i: achievement i), four
 * at a time without a branch each: every step asks, and most steps unlock
 * nothing new. */
static uint32_t achievements_held(const int32_t *achievements) {
  typedef int32_t lanes4 __attribute__((vector_size(16)));
  lanes4 held = {0, 0, 0, 0};
  int i = 0;
  for (; i + 4 <= CRAFTER_ACHIEVEMENT_COUNT; i += 4) {
    lanes4 counts;
    memcpy(&counts, achievements + i, sizeof counts);
    held |= (counts > 0) & ((lanes4){1, 2, 4, 8} << i);
  }
  uint32_t bits = (uint32_t)(held[0] | held[1] | held[2] | held[3]);
  for (; i < CRAFTER_ACHIEVEMENT_COUNT; i++) bits |= (uint32_t)(achievements[i] > 0) << i;
  return bits;
}

/* Player p's reward for the step: its health's change and its first
 * unlocks, by the config's reward keys. */
static inline double player_reward(crafter_env *env, int p, uint32_t *unlocked_now) {
  const crafter_reward_config *rewards = &env->config->reward;
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  int32_t health = player->inventory[CRAFTER_HEALTH];
  double reward = rewards->health_divisor != 0
                      ? (double)(health - env->last_health[p]) / rewards->health_divisor
                      : 0.0;
  env->last_health[p] = health;
  uint32_t unlocked = achievements_held(player->achievements) & ~env->unlocked[p];
  double unlock_reward = 0;
  for (uint32_t rest = unlocked; rest; rest &= rest - 1) {
    /* In the order of the achievements.  Crafter adds 1 however many
     * unlock at once: the max of ones. */
    int i = __builtin_ctz(rest);
    double value = rewards->achievements[i];
    if (rest == unlocked)
      unlock_reward = value;
    else if (rewards->combine == CRAFTER_COMBINE_SUM)
      unlock_reward += value;
    else if (value > unlock_reward)
      unlock_reward = value;
  }
  if (unlocked) {
    env->unlocked[p] |= unlocked;
    reward += unlock_reward;
  }
  *unlocked_now = unlocked;
  return reward;
}

static inline void player_result(const crafter_env *env, int p, double reward, uint32_t unlocked,
                          crafter_step_result *result) {
  int dead = crafter_game_player_const(&env->game, p)->inventory[CRAFTER_HEALTH] <= 0;
  int over = env->params.length && env->game.step >= env->params.length;
  result->done = dead || over;
  result->discount = 1 - (double)dead;
  result->unlocked = unlocked;
  result->info_reward = reward;
  result->reward = env->params.reward ? reward : 0.0;
}

void crafter_env_step(crafter_env *env, int action, crafter_step_result *result) {
  if (env->game.player_count > 1) {
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    crafter_step_result results[CRAFTER_PLAYERS_MAX];
    actions[0] = action;
    crafter_env_step_players(env, actions, results);
    *result = results[0];
    return;
  }
  crafter_game_update(&env->game, action);
  observe_or_skip(env);
  uint32_t unlocked;
  double reward = player_reward(env, 0, &unlocked);
  player_result(env, 0, reward, unlocked, result);
}

void crafter_env_step_players(crafter_env *env, const int *actions, crafter_step_result *results) {
  int players = env->game.player_count;
  if (players <= 1) {
    crafter_env_step(env, actions[0], results);
    return;
  }
  int running[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < players; p++) running[p] = env->last_health[p] > 0;
  crafter_game_update_players(&env->game, actions);
  observe_or_skip(env);
  double rewards[CRAFTER_PLAYERS_MAX], team = 0;
  uint32_t unlocked[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < players; p++) {
    rewards[p] = player_reward(env, p, &unlocked[p]);
    if (running[p]) team += rewards[p];
  }
  for (int p = 0; p < players; p++) {
    double reward = env->config->team.shared && running[p] ? team : rewards[p];
    player_result(env, p, reward, unlocked[p], &results[p]);
  }
}

void crafter_env_semantic(const crafter_env *env, int player, uint8_t *out) {
  const crafter_world *world = &env->game.world;
  memcpy(out, world->materials, (size_t)world->width * (size_t)world->height);
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    out[(size_t)object->x * (size_t)world->height + (size_t)object->y] =
        (uint8_t)(CRAFTER_MATERIAL_COUNT + object->kind);
  }
  /* Other players than the one who looks (games of several players). */
  int own_slot = crafter_game_body_slot(&env->game, player);
  for (int slot = 0, bodies = __builtin_popcount(env->game.present); slot < bodies; slot++) {
    const crafter_object *object = &world->objects[slot];
    if (slot != own_slot)
      out[(size_t)object->x * (size_t)world->height + (size_t)object->y] =
          CRAFTER_SEMANTIC_OTHER_PLAYER;
  }
}
