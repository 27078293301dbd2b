/* jplay: crafter-play with the --game of a JAX game (run/jgame.h): one
 * step per key in the terminal, or the keys of --keys and the last frame
 * printed.  Each game has its look: Craftax-Classic's frames of letters,
 * as crafter-play --glyphs draws Crafter's (Craftax's 9x7 view around the
 * player, its vitals, light, inventory and achievements) and Crafter's
 * keys; Craftax's frames its text observation (view/cx_text.h) under a
 * line of the seed, episode and reward, its keys Craftax's own (the
 * frame lists them).  While the player sleeps (or, in Craftax, rests),
 * time passes by itself at --speed steps a second. */
#ifndef CRAFTER_JPLAY_H
#define CRAFTER_JPLAY_H

#include <stdio.h>

#include "run/jgame.h"
#include "tools/play.h"

/* crafter-play for a JAX game (the options checked by
 * crafter_game_options_check).  Returns the exit status. */
int crafter_jplay_main(crafter_play_options *options);

#endif
