#include "tools/play_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "run/traj_writer.h"

/* ---- what an action did ---- */

void crafter_play_achievement_list(uint32_t bits, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (bits & (1u << i)) {
      int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                             crafter_achievement_names[i]);
      if (written < 0 || (size_t)written >= size - used) break;
      used += (size_t)written;
    }
}

void crafter_play_watch_action(crafter_play_watch *watch, const crafter_env *env, int p,
                               int action) {
  watch->outlook = crafter_game_player_outlook(&env->game, p, action, watch->reason,
                                               sizeof(watch->reason));
  memcpy(watch->items, crafter_game_player_const(&env->game, p)->inventory, sizeof(watch->items));
  watch->x = crafter_game_body(&env->game, p)->x;
  watch->y = crafter_game_body(&env->game, p)->y;
}

const char *crafter_play_watch_failure(const crafter_play_watch *watch, const crafter_env *env,
                                       int p) {
  const int32_t *items = crafter_game_player_const(&env->game, p)->inventory;
  const crafter_object *body = crafter_game_body(&env->game, p);
  int unchanged = body && watch->x == body->x && watch->y == body->y &&
                  memcmp(watch->items + CRAFTER_SAPLING, items + CRAFTER_SAPLING,
                         sizeof(items[0]) * (CRAFTER_ITEM_COUNT - CRAFTER_SAPLING)) == 0;
  return watch->outlook != CRAFTER_ACTION_POSSIBLE && unchanged ? watch->reason : NULL;
}

/* ---- a game that records ---- */

static void record_failure(crafter_play_game *game, const char *reason) {
  if (game->record_failed) return;
  game->record_failed = 1;
  snprintf(game->record_error, sizeof(game->record_error), "%s", reason);
}

/* Stores the episode in the recording (once it ended, or cut short). */
static void store_episode(crafter_play_game *game) {
  if (!game->writer || game->record_failed) return;
  char problem[300];
  if (crafter_traj_writer_add(game->writer, crafter_episode_recorder(game->runner), problem,
                              sizeof(problem)) < 0)
    record_failure(game, problem);
}

static int start_episode(crafter_play_game *game, char *error, size_t error_size) {
  if (crafter_episode_start(game->runner, NULL, error, error_size) < 0) return -1;
  const crafter_env *env = crafter_episode_env(game->runner);
  game->reward = 0;
  game->over = 0;
  if (game->run->level_set)
    snprintf(game->message, sizeof(game->message), "Level %lld begins.",
             (long long)crafter_episode_level(game->runner));
  else
    snprintf(game->message, sizeof(game->message), "Episode %lld begins (world seed %lld).",
             (long long)env->episode, (long long)env->world_seed);
  for (int p = 0; p < game->players; p++) {
    crafter_play_side *side = &game->side[p];
    side->reward = 0;
    side->over = 0;
    memcpy(side->message, game->message, sizeof(side->message));
  }
  return 0;
}

crafter_env *crafter_play_game_env(crafter_play_game *game) {
  return crafter_episode_env(game->runner);
}

const char *crafter_play_game_instruction(const crafter_play_game *game) {
  return crafter_episode_instruction(game->runner);
}

const char *crafter_play_game_player_instruction(const crafter_play_game *game, int p) {
  return crafter_episode_player_instruction(game->runner, p);
}

int crafter_play_game_init(crafter_play_game *game, const crafter_run *run, char *error,
                           size_t error_size) {
  memset(game, 0, sizeof(*game));
  game->run = run;
  game->players = run->players > 1 ? run->players : 1;
  if (game->players > CRAFTER_PLAYERS_MAX) {
    snprintf(error, error_size, "at most %d players share a world", CRAFTER_PLAYERS_MAX);
    return -1;
  }
  if (run->record_path) crafter_run_header(run, "human", NULL, &game->header);
  crafter_episode_options *e = &game->episode;
  crafter_run_episode_options(run, NULL, run->record_path ? &game->header : NULL, e);
  game->runner = crafter_episode_new(e, 0, NULL, error, error_size);
  if (!game->runner) return -1;
  if (run->record_path) {
    game->writer = crafter_traj_writer_create(run->record_path, &game->header, error, error_size);
    if (!game->writer) {
      crafter_episode_free(game->runner);
      game->runner = NULL;
      return -1;
    }
  }
  if (start_episode(game, error, error_size) < 0) {
    char ignored[64];
    crafter_play_game_finish(game, ignored, sizeof(ignored));
    return -1;
  }
  return 0;
}

/* The message of a step that did not end the player's episode, into
 * message[size] (left as it is when there is nothing to say): what was
 * unlocked, why the action failed, a change of health, falling asleep or
 * waking; a wait where nothing happens keeps `previous`, the message
 * before the step (in real time most steps are waits). */
static void step_message(char *message, size_t size, const char *previous, const char *reason,
                         const crafter_step_outcome *result, const crafter_player *player,
                         int was_sleeping, int action) {
  if (result->unlocked) {
    char unlocked[400];
    crafter_play_achievement_list(result->unlocked, unlocked, sizeof(unlocked));
    snprintf(message, size, "Unlocked %s (reward %+.1f).", unlocked, result->reward);
  } else if (reason && result->reward != 0) {
    snprintf(message, size, "%s  Health %d (reward %+.1f).", reason,
             player->inventory[CRAFTER_HEALTH], result->reward);
  } else if (reason) {
    snprintf(message, size, "%s", reason);
  } else if (result->reward != 0) {
    snprintf(message, size, "Health %d (reward %+.1f).", player->inventory[CRAFTER_HEALTH],
             result->reward);
  } else if (player->sleeping && !was_sleeping) {
    snprintf(message, size, "You fall asleep.");
  } else if (!player->sleeping && was_sleeping) {
    snprintf(message, size, "You wake up.");
  } else if (action == CRAFTER_NOOP) {
    memcpy(message, previous, size);
  }
}

void crafter_play_game_act(crafter_play_game *game, int action) {
  if (game->over || action < 0 || action >= CRAFTER_ACTION_COUNT) return;
  if (game->players > 1) {
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    actions[0] = action;
    crafter_play_game_act_players(game, actions);
    return;
  }
  crafter_env *env = crafter_episode_env(game->runner);
  const crafter_player *player = crafter_game_player_const(&env->game, 0);
  int was_sleeping = player->sleeping;
  crafter_play_watch watch;
  crafter_play_watch_action(&watch, env, 0, action);
  crafter_step_outcome result;
  if (crafter_episode_step(game->runner, action, &result) < 0)
    record_failure(game, "out of memory while recording");
  const char *reason = crafter_play_watch_failure(&watch, env, 0);
  game->reward += result.reward;
  if (result.finished) store_episode(game);
  /* The message before the step, which a wait keeps (step_message). */
  char previous[sizeof(game->message)];
  memcpy(previous, game->message, sizeof(previous));
  game->message[0] = '\0';
  if (result.done) {
    int died = result.discount == 0.0 && !result.goal;
    game->over = result.goal ? CRAFTER_TRAJ_GOAL
                 : died      ? CRAFTER_TRAJ_DIED
                             : CRAFTER_TRAJ_TIME_LIMIT;
    char next[64];
    if (game->run->level_set)
      snprintf(next, sizeof(next), "the next level");
    else
      snprintf(next, sizeof(next), "episode %lld", (long long)env->episode + 1);
    snprintf(game->message, sizeof(game->message),
             "%s after %ld steps with a reward of %.1f.  Any key starts %s; q quits.",
             result.goal ? "Goal met" : died ? "You died" : "Time is up", env->game.step,
             game->reward, next);
  } else {
    step_message(game->message, sizeof(game->message), previous, reason, &result, player,
                 was_sleeping, action);
  }
}

/* A player's message after a step of several players, as
 * crafter_play_game_act words one player's. */
static void side_message(crafter_play_game *game, int p, int action,
                         const crafter_play_watch *watch, int was_sleeping,
                         const crafter_step_outcome *result) {
  crafter_env *env = crafter_episode_env(game->runner);
  crafter_play_side *side = &game->side[p];
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  const char *reason = watch ? crafter_play_watch_failure(watch, env, p) : NULL;
  if (!side->over) side->reward += result->reward;
  char previous[sizeof(side->message)];
  memcpy(previous, side->message, sizeof(previous));
  side->message[0] = '\0';
  if (result->finished) {
    int died = result->discount == 0.0 && !result->goal;
    side->over = result->goal ? CRAFTER_TRAJ_GOAL : died ? CRAFTER_TRAJ_DIED
                                                         : CRAFTER_TRAJ_TIME_LIMIT;
    if (result->goal)
      snprintf(side->message, sizeof(side->message),
               "Player %d met the goal after %ld steps with a reward of %.1f.", p,
               env->game.step, side->reward);
    else if (died)
      snprintf(side->message, sizeof(side->message),
               "Player %d died after %ld steps with a reward of %.1f.", p, env->game.step,
               side->reward);
    else
      snprintf(side->message, sizeof(side->message),
               "Time is up after %ld steps with a reward of %.1f.", env->game.step,
               side->reward);
  } else {
    step_message(side->message, sizeof(side->message), previous, reason, result, player,
                 was_sleeping, action);
  }
}

void crafter_play_game_act_players(crafter_play_game *game, const int *actions) {
  if (game->players == 1) {
    crafter_play_game_act(game, actions[0]);
    return;
  }
  if (game->over) return;
  crafter_env *env = crafter_episode_env(game->runner);
  int played[CRAFTER_PLAYERS_MAX], was_sleeping[CRAFTER_PLAYERS_MAX];
  crafter_play_watch watch[CRAFTER_PLAYERS_MAX];
  int watched[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < game->players; p++) {
    played[p] = actions[p] >= 0 && actions[p] < CRAFTER_ACTION_COUNT ? actions[p] : CRAFTER_NOOP;
    was_sleeping[p] = crafter_game_player_const(&env->game, p)->sleeping;
    /* Only an action the player chose has a reason to fail. */
    watched[p] = played[p] != CRAFTER_NOOP && game->side[p].over != CRAFTER_TRAJ_DIED &&
                 crafter_game_body(&env->game, p);
    if (watched[p]) crafter_play_watch_action(&watch[p], env, p, played[p]);
  }
  crafter_step_outcome results[CRAFTER_PLAYERS_MAX];
  if (crafter_episode_step_players(game->runner, played, results) < 0)
    record_failure(game, "out of memory while recording");
  for (int p = 0; p < game->players; p++) {
    if (game->side[p].over == CRAFTER_TRAJ_DIED) continue; /* it acts no more */
    side_message(game, p, played[p], watched[p] ? &watch[p] : NULL, was_sleeping[p], &results[p]);
  }
  if (!results[0].over) return;
  game->over = game->side[0].over ? game->side[0].over : CRAFTER_TRAJ_TIME_LIMIT;
  char next[64];
  if (game->run->level_set)
    snprintf(next, sizeof(next), "the next level");
  else
    snprintf(next, sizeof(next), "episode %lld", (long long)env->episode + 1);
  for (int p = 0; p < game->players; p++) {
    crafter_play_side *side = &game->side[p];
    size_t used = strlen(side->message);
    snprintf(side->message + used, sizeof(side->message) - used,
             "%sAny key starts %s; q quits.", used ? "  " : "", next);
  }
}

int crafter_play_game_player_active(crafter_play_game *game, int p) {
  if (game->over || p < 0 || p >= game->players) return 0;
  if (game->players == 1) return 1;
  return game->side[p].over != CRAFTER_TRAJ_DIED &&
         crafter_game_body(&crafter_play_game_env(game)->game, p) != NULL;
}

int crafter_play_game_asleep(crafter_play_game *game) {
  const crafter_env *env = crafter_play_game_env(game);
  int active = 0;
  for (int p = 0; p < game->players; p++) {
    if (!crafter_play_game_player_active(game, p)) continue;
    if (!crafter_game_player_const(&env->game, p)->sleeping) return 0;
    active++;
  }
  return active > 0;
}

int crafter_play_game_next_episode(crafter_play_game *game, char *error, size_t error_size) {
  if (crafter_episode_unfinished(game->runner)) store_episode(game);
  return start_episode(game, error, error_size);
}

int crafter_play_game_finish(crafter_play_game *game, char *error, size_t error_size) {
  if (game->writer) {
    char problem[300];
    if (game->runner && crafter_episode_unfinished(game->runner)) store_episode(game);
    if (crafter_traj_writer_close(game->writer, problem, sizeof(problem)) < 0)
      record_failure(game, problem);
    game->writer = NULL;
  }
  crafter_episode_free(game->runner);
  game->runner = NULL;
  int status = 0;
  if (game->record_failed) {
    snprintf(error, error_size, "%s", game->record_error);
    status = -1;
  }
  return status;
}
