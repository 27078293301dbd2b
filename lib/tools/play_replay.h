/* play_replay: the replay crafter-play shows: an episode of a trajectory
 * file re-simulated from its parameters, seeds and actions (in a file of
 * several players every player's, by its own chunk), stepped forward and
 * back, every step compared with the file. */
#ifndef CRAFTER_PLAY_REPLAY_H
#define CRAFTER_PLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "game/config.h"
#include "game/env.h"
#include "run/episode.h"
#include "run/traj.h"
#include "run/traj_reader.h"
#include "run/worldfile.h"
#include "tools/play_game.h" /* crafter_play_watch */

/* ---- a replay ---- */

typedef struct crafter_play_replay {
  crafter_env env;
  crafter_traj_reader *reader;
  crafter_traj_header header;
  crafter_traj_episode episode;   /* the episode shown */
  size_t index;                   /* of the episode in the file */
  /* A file of several players: the episode is player `player`'s, and its
   * world is replayed with every player acting by its own chunk (the
   * chunks of the world, `first` the index of player 0's); the view is
   * the player's, the others in it. */
  int players;
  int player;
  size_t first;
  crafter_traj_episode episodes[CRAFTER_PLAYERS_MAX]; /* of the world, each player's */
  crafter_traj_data data[CRAFTER_PLAYERS_MAX];        /* their steps */
  uint32_t length;                /* the steps of the episode shown */
  crafter_stored_world replayed;  /* the world as it is replayed, with every player's goal */
  const crafter_world_map *world;
  long t;                         /* steps taken */
  double reward;                  /* their info['reward'] summed */
  long mismatch;                  /* first step (from 1) that differs from the file, or -1 */
  char mismatch_reason[200];      /* what differs there */
  char message[512];
} crafter_play_replay;

/* Opens a trajectory file and starts episode `index` (from 0) at step 0,
 * re-simulated from its parameters, seeds and actions (in a file of
 * several players, its world's, every player's) with `config` and
 * `world` (as the recording was made; NULL for Crafter's own).  Returns
 * 0, 1 with a reason for a file that cannot be read or an index out of
 * range, -1 with a reason when memory ran out. */
int crafter_play_replay_open(crafter_play_replay *replay, const char *path, size_t index,
                             const crafter_config *config, const crafter_world_map *world,
                             char *error, size_t error_size);

/* Moves to step t (0 .. the episode's length), forward by stepping, back
 * by re-simulating from the start.  Each step is compared with the file,
 * every player's that played it: the reward, done, death, the goal and
 * the achievements unlocked; the first difference sets `mismatch` and the
 * message.  Returns 0, or -1 with a reason. */
int crafter_play_replay_seek(crafter_play_replay *replay, long t, char *error,
                             size_t error_size);

void crafter_play_replay_free(crafter_play_replay *replay);

/* The goal of the episode a replay plays, in the words the recording
 * gave it (NULL for none). */
const char *crafter_play_replay_instruction(const crafter_play_replay *replay);

#endif
