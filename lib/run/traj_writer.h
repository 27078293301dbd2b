/* traj_writer: writing trajectory files (crafter-trajectory(5)): a
 * recorder builds one episode in memory, compressing as it goes; a writer
 * appends each episode's chunk to the file as soon as it ends, flushed,
 * and the index and trailer when it is closed. */
#ifndef CRAFTER_TRAJ_WRITER_H
#define CRAFTER_TRAJ_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "run/jgame.h"
#include "run/traj.h"

/* Builds one episode in memory, compressing as it goes. */
typedef struct crafter_traj_recorder crafter_traj_recorder;

crafter_traj_recorder *crafter_traj_recorder_new(const crafter_traj_header *header);
void crafter_traj_recorder_free(crafter_traj_recorder *recorder);

/* Starts an episode of player `player` (0 in Crafter's game of one) after
 * crafter_env_reset; obs is its first observation (obs_bytes of the
 * header; ignored when there are none).  In a file of several players the
 * chunk is that player's; every step after is given the same player, whose
 * achievements and inventory the episode ends with.  Returns 0, or -1 when
 * memory ran out. */
int crafter_traj_recorder_start(crafter_traj_recorder *recorder, const crafter_env *env,
                                int player, const void *obs);

/* Adds a step of player `player` after crafter_env_step with its action
 * and result; obs is the observation after it.  Returns 0, or -1 when
 * memory ran out. */
int crafter_traj_recorder_step(crafter_traj_recorder *recorder, const crafter_env *env,
                               int player, int action, const crafter_step_result *result,
                               const void *obs);

/* For a header of a JAX game (crafter_traj_header_init_game; run/jgame.h,
 * Craftax-Classic's for now: the file stores its 22 achievements and
 * Crafter's inventory): starts
 * the episode env has just begun (started, restarted, or auto-reset after
 * the step that ended the one before), with its seed, episode counter,
 * world key and schedule key, obs its first observation (ignored when the
 * header stores none); then adds a step with its action and outcome, obs
 * the observation of the state after it: for the step that ended the
 * episode, the state it ended in (the row's act_only_many's, before the
 * auto-reset), as for Crafter.  Returns 0, or -1 when memory ran out. */
int crafter_traj_recorder_start_jgame(crafter_traj_recorder *recorder, const crafter_jgame *g,
                                      void *env, const void *obs);
int crafter_traj_recorder_step_jgame(crafter_traj_recorder *recorder, int action,
                                     const crafter_jgame_outcome *outcome, const void *obs);

/* Gives the episode begun by crafter_traj_recorder_start a goal: task
 * index `task` of the header's task set, worded by its text `text`. */
void crafter_traj_recorder_set_task(crafter_traj_recorder *recorder, int task, int text);

/* On a level set: gives the episode begun by crafter_traj_recorder_start
 * its world episode's place (from 1) in the whole dataset, so that the
 * shards of a dataset carry the places the dataset recorded at once has.
 * Without it, a writer numbers world episodes in the order they come. */
void crafter_traj_recorder_set_place(crafter_traj_recorder *recorder, uint32_t place);

/* crafter_traj_recorder_step for an episode with a goal: `goal` is 1 on
 * the step that met it (result->done then set), and result holds the
 * game's reward and discount, without the task's. */
int crafter_traj_recorder_step_goal(crafter_traj_recorder *recorder, const crafter_env *env,
                                    int player, int action, const crafter_step_result *result,
                                    const void *obs, int goal);

/* Finishes the compression of the episode, which takes no more steps: the
 * work crafter_traj_writer_add would do, done beforehand on the thread
 * that played the episode.  0, or -1 when memory ran out. */
int crafter_traj_recorder_seal(crafter_traj_recorder *recorder);

/* Steps added since the start; -1 when no episode is started. */
long crafter_traj_recorder_steps(const crafter_traj_recorder *recorder);

typedef struct crafter_traj_writer crafter_traj_writer;

/* Creates a file and writes its header.  NULL with a reason.  Onto a
 * non-empty regular file that is there, the recording is written to a
 * temporary beside it (lib/base/outfile.h) that takes the path once a whole
 * world episode that ended has been added, and grows there: stopped before,
 * the old file stays as it was; stopped after, the path holds every
 * episode added.  Adding chunks and closing hold the signals
 * (crafter_outfile_hold_signals), so a signal that ends the process leaves
 * whole chunks and whole worlds. */
crafter_traj_writer *crafter_traj_writer_create(const char *path,
                                                const crafter_traj_header *header, char *error,
                                                size_t error_size);

/* The same, for a file written whole (lib/base/outfile.h): the chunks go to a
 * temporary file renamed over the path by crafter_traj_writer_close, so a
 * failed or interrupted write leaves the path as it was.  For copies such
 * as merges, where a partial file is worth nothing. */
crafter_traj_writer *crafter_traj_writer_create_whole(const char *path,
                                                      const crafter_traj_header *header,
                                                      char *error, size_t error_size);

/* Gives up a writer: closes the file (a file written whole is removed)
 * and frees the writer. */
void crafter_traj_writer_abort(crafter_traj_writer *writer);

/* Finishes the recorder's episode, appends its chunk and flushes it to
 * the system, so the episode survives the process being killed.  The
 * recorder is then empty until the next start.  Returns 0, or -1 with a
 * reason. */
int crafter_traj_writer_add(crafter_traj_writer *writer, crafter_traj_recorder *recorder,
                            char *error, size_t error_size);

/* Appends a chunk read with crafter_traj_read_chunk from a file of the
 * same header. */
int crafter_traj_writer_add_chunk(crafter_traj_writer *writer, const uint8_t *chunk,
                                  size_t bytes, char *error, size_t error_size);

/* Writes the index and trailer and closes the file; frees the writer
 * whatever happens.  Returns 0, or -1 with a reason. */
int crafter_traj_writer_close(crafter_traj_writer *writer, char *error, size_t error_size);

#endif
