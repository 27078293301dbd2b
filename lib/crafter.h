/* crafter: the public interface of libcrafter, for C programs.
 *
 *   #include <crafter/crafter.h>
 *   cc prog.c $(pkg-config --cflags --libs crafter)
 *
 * env.h is the game (crafter.Env: reset, step, reward, achievements),
 * render.h its observations, batch.h many envs across threads, traj.h
 * trajectory files, worldfile.h hand-made worlds, state.h saved states
 * (save, try actions, come back), score.h success rates and Crafter
 * scores.  The other modules of the library are internal and not
 * installed. */
#ifndef CRAFTER_CRAFTER_H
#define CRAFTER_CRAFTER_H

#include "batch.h"
#include "config.h"
#include "env.h"
#include "levels.h"
#include "render.h"
#include "game.h"
#include "score.h"
#include "state.h"
#include "tasks.h"
#include "textures.h"
#include "traj.h"
#include "worldfile.h"

#endif
