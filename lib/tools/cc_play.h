/* cc_play: crafter-play with --game craftax-classic: one step per key in
 * the terminal (Crafter's keys), or the keys of --keys and the last frame
 * printed; frames of letters, as crafter-play --glyphs draws Crafter's:
 * Craftax's 9x7 view around the player, its vitals, light, inventory and
 * achievements.  While the player sleeps, time passes by itself at
 * --speed steps a second. */
#ifndef CRAFTER_CC_PLAY_H
#define CRAFTER_CC_PLAY_H

#include <stdio.h>

#include "game/cc_env.h"
#include "tools/play.h"

/* The frame of env after a step whose outcome is `last` (NULL before the
 * first), with `message` under it (may be NULL), into out. */
void crafter_cc_play_frame(FILE *out, const crafter_cc_env *env, const crafter_cc_outcome *last,
                           const char *message);

/* crafter-play for Craftax-Classic (the options checked by
 * crafter_game_options_check).  Returns the exit status. */
int crafter_cc_play_main(crafter_play_options *options);

#endif
