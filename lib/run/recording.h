/* recording: a program's recording of an env's episodes to a trajectory
 * file (crafter_recording_open, _start, _step, _close: their contracts
 * are in crafter/crafter.h).  Each player's episode is kept as
 * crafter-step --record keeps it -- the actions and what each step
 * returned, no observations -- and a world's episode is written, every
 * player's chunk in the players' order, once every player's has ended.
 * The library's own programs record through their episode runners
 * (episode.h); this is the same file from a program's loop. */
#ifndef CRAFTER_RECORDING_H
#define CRAFTER_RECORDING_H

#include "crafter/crafter.h"

#endif
