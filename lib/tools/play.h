/* play: crafter-play, the program: opens what its options name, then
 * plays in the terminal with the keyboard (play_keys.h), drawing frames
 * (play_screen.h) of a game that records (play_game.h) or of a replay
 * (play_replay.h); the terminal's raw mode, signals and time are its
 * own. */
#ifndef CRAFTER_PLAY_H
#define CRAFTER_PLAY_H

#include <stdint.h>

#include "run/run.h"

/* ---- the program ---- */

/* What crafter-play's command line asks for. */
typedef struct crafter_play_options {
  const char *program;      /* for messages: "crafter-play" */
  crafter_run run;          /* what is played: its players 0 or 1 for one, 2 for two on one
                               keyboard; its textures those the screen draws with */
  int64_t episode_index;
  int glyphs, colors, cell_rows, speed, no_wait, fps;
  int interactive;          /* a terminal to take: not --keys, not --no-wait */
  const char *replay_path, *keys;
} crafter_play_options;

/* Runs crafter-play: opens what the options name, then plays in the
 * terminal (or the keys of --keys, or the replay), giving the terminal back
 * however it ends.  Returns the exit status, after saying what failed. */
int crafter_play_main(crafter_play_options *options);


#endif
