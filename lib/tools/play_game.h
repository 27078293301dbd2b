/* play_game: the game crafter-play plays: an episode runner that records
 * what it plays to a trajectory file, and says why an action did nothing;
 * with several players each player's reward, end and message. */
#ifndef CRAFTER_PLAY_GAME_H
#define CRAFTER_PLAY_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "run/episode.h"
#include "run/run.h"
#include "run/traj.h"
#include "run/traj_writer.h"

/* ---- what an action did ---- */

/* The names of the achievements in a bit set, joined by commas. */
void crafter_play_achievement_list(uint32_t bits, char *out, size_t size);

/* Why an action may come to nothing, taken from the state before the
 * step, and what the step could change. */
typedef struct crafter_play_watch {
  int outlook;
  char reason[300];
  int32_t items[CRAFTER_ITEM_COUNT];
  int x, y;
} crafter_play_watch;

/* Watches player p's action (p's body must be in the world), before the
 * step. */
void crafter_play_watch_action(crafter_play_watch *watch, const crafter_env *env, int p,
                               int action);

/* After the step: the reason when player p's action did nothing (the
 * player still there, no item gained or spent: the vitals go their own
 * way), else NULL. */
const char *crafter_play_watch_failure(const crafter_play_watch *watch, const crafter_env *env,
                                       int p);

/* ---- a game that records ---- */

/* What a game of several players keeps of each player's episode. */
typedef struct crafter_play_side {
  double reward;      /* of the player's episode so far */
  int over;           /* the player's episode has ended: 0, or enum crafter_traj_end */
  char message[512];  /* the player's latest event, or why its action did nothing */
} crafter_play_side;

typedef struct crafter_play_game {
  crafter_episode *runner;  /* the env, its episodes, goals and recording */
  crafter_episode_options episode;
  crafter_traj_header header;
  const crafter_run *run;   /* what is played (its observations none, its players at most
                               CRAFTER_PLAYERS_MAX, its recording of one player only); must
                               outlive the game with its files */
  crafter_traj_writer *writer;
  double reward;            /* of the episode so far (one player) */
  int over;                 /* the episode has ended: 0, or enum crafter_traj_end (with
                               several players: every player's has, and this is
                               player 0's end) */
  char message[512];        /* the latest event, or why the action did nothing (one
                               player) */
  int record_failed;
  char record_error[300];
  int players;              /* players sharing the world: 1, or more */
  crafter_play_side side[CRAFTER_PLAYERS_MAX]; /* each player's, with several players */
} crafter_play_game;

/* Makes the env, opens the recording and starts the first episode.
 * Returns 0, or -1 with a reason (the game is then freed). */
int crafter_play_game_init(crafter_play_game *game, const crafter_run *run, char *error,
                           size_t error_size);

/* One step with an action; records it; when the episode ends (death, the
 * time limit, or its goal met) stores it and sets `over`.  Does nothing
 * once the episode is over.  With several players it is player 0's
 * action, the others waiting (noop). */
void crafter_play_game_act(crafter_play_game *game, int action);

/* One step of every player, actions[p] for player p (one player: as
 * crafter_play_game_act).  Each player's reward, end and message go to
 * side[p]: a player's episode ends at its death, the time limit or its
 * goal, and the game's (`over`) when every player's has, the others
 * playing on meanwhile.  Does nothing once the game is over. */
void crafter_play_game_act_players(crafter_play_game *game, const int *actions);

/* Whether player p still acts: the game is not over and p has not died. */
int crafter_play_game_player_active(crafter_play_game *game, int p);

/* Whether time should pass by itself: some player still acts, and every
 * player who still acts sleeps. */
int crafter_play_game_asleep(crafter_play_game *game);

/* The game's env, and its episode's goal in words (NULL without tasks). */
crafter_env *crafter_play_game_env(crafter_play_game *game);
const char *crafter_play_game_instruction(const crafter_play_game *game);
const char *crafter_play_game_player_instruction(const crafter_play_game *game, int p);

/* Starts the next episode.  Returns 0, or -1 with a reason. */
int crafter_play_game_next_episode(crafter_play_game *game, char *error, size_t error_size);

/* Stores an episode cut short (if it has steps), closes the recording and
 * frees the game.  Returns 0, or -1 with a reason when recording failed at
 * any time. */
int crafter_play_game_finish(crafter_play_game *game, char *error, size_t error_size);

#endif
