/* state: an environment's whole state as bytes (crafter-state(5)), for
 * planning: save a state, try actions, come back.
 *
 * A state holds everything the game goes on from: the grid, the objects
 * in creation order (updates and despawns go in that order), the world's
 * random generator, the counters (step, episode counter, Env seed, world
 * seed, each player's last health and unlocked achievements, the chunks
 * in the order balancing walks them), and every player (body, inventory,
 * vitals, hidden counters, kills).  A runner's state (crafter_episode)
 * also holds what the runner keeps: whether the episode and each player's
 * episode ended, its steps, each player's goal and tracker (what it
 * placed, its inventory before the step, whether and when the goal was
 * met), the level picker's generator, and with pixel observations the
 * pictures last drawn.  Loaded into an env of the same parameters, it
 * goes on byte for byte as the env it was saved from under the same
 * actions: observations of every kind, rewards, achievements, records,
 * the end of the episode and the next episodes.
 *
 * A state is versioned, sized and checksummed; a reader checks the whole
 * of it (every length, count and value) before it changes anything, so
 * bad bytes are refused with a reason and never half loaded. */
#ifndef CRAFTER_STATE_H
#define CRAFTER_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "run/episode.h"

#define CRAFTER_STATE_MAGIC "CRAFTSTA"
#define CRAFTER_STATE_VERSION 1
/* The format version of the states of games other than Crafter (their
 * layout is their own: run/cc_state.h for Craftax-Classic). */
#define CRAFTER_GAME_STATE_VERSION 2
#define CRAFTER_STATE_HEADER_BYTES 96

/* Flags of a state's header. */
#define CRAFTER_STATE_RUNNER 1u /* an episode runner's state: its own part follows the env's */
#define CRAFTER_STATE_PIXELS 2u /* the runner's last pixel observations end the state */
#define CRAFTER_STATE_GOALS 4u  /* the runner's episodes have goals */
#define CRAFTER_STATE_LEVELS 8u /* the runner plays a level set */
#define CRAFTER_STATE_WORLD 16u /* the runner starts every episode on a world file */

/* crafter_state_save (crafter/crafter.h) writes the state of a plain env
 * (no runner around it).  crafter_state_load loads it into an env that
 * must have the parameters of the env it was saved from (area, view,
 * size, length, reward, players, the configuration's values; the seed
 * comes with the state); the env's observer is not called: the
 * observation of the loaded state is the caller's to keep. */

/* The same for an episode runner: its env and what the runner keeps. */
size_t crafter_state_save_episode(crafter_episode *episode, uint8_t *out, size_t capacity);

/* Loads a runner's state into `episode`, whose options must match the
 * saver's (the env's parameters as above; the same goals, level set and
 * world file, or none of them; the observation kind may differ).  A
 * runner that records its episodes refuses: a recording cannot hold a
 * jump in state.  The runner's observation is the saver's pictures when
 * the state carries pixels; else it is made from the state (pixels drawn
 * with noise that does not come out of the game's generator, so the game
 * is not changed).  0, or -1 with a reason, the runner untouched. */
int crafter_state_load_episode(crafter_episode *episode, const uint8_t *state, size_t size,
                               char *error, size_t error_size);

/* The most bytes a state of this runner may take: a reader of states
 * from a pipe refuses a longer one before reading it. */
size_t crafter_state_episode_limit(const crafter_episode *episode);

/* The game a saved state of `size` bytes says it holds (enum
 * crafter_game_id: a state of version 1 is Crafter's), or -1 when it is
 * not a state of a version this toolkit reads. */
int crafter_state_game(const uint8_t *state, size_t size);

#endif
