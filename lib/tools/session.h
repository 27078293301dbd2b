/* session: what crafter-step does between its options and its pipes: a
 * set of envs with auto-reset, observations of one kind, and the text or
 * binary protocol (crafter-protocol(5)). */
#ifndef CRAFTER_SESSION_H
#define CRAFTER_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/config.h"
#include "game/env.h"
#include "game/tasks.h"
#include "run/levels.h"
#include "run/run.h"
#include "run/worldfile.h"

typedef struct crafter_session_options {
  crafter_run run;           /* what runs: env i plays seed run.params.seed + i; the session
                                stops once run.episodes episodes ended in all (0: never);
                                run.threads threads step the envs, whatever else the run
                                does (the output does not depend on them); with
                                run.players players in each env's world, one record (frame
                                entry) and one action per player, env by env
                                (crafter-protocol(5)); records carry "level" on a level
                                set; run.record_path (or NULL) is written every episode, with
                                the observations of run.obs_kind unless they are text, an
                                episode the input cut short stored as cut */
  int info;                  /* what text records carry: enum crafter_info_kind */
  int binary;                /* binary protocol instead of JSON lines */
  int manual_reset;          /* binary protocol: an env whose episode ended waits for the
                                reset action (it plays on meanwhile) instead of starting
                                the next episode in the same step */
  int semantic_info;         /* binary protocol: frames carry the semantic map too */
  int shm_fd;                /* binary protocol: frames go to a ring of shm_slots frames
                                in this shared memory (sized and mapped here), the pipe
                                carries slot numbers; -1 for frames on the pipe */
  int shm_slots;
  int final_obs;             /* binary protocol without manual_reset: frames carry the
                                final observation of every episode that ended at the
                                step, in a section after the observations */
} crafter_session_options;

/* Whether the descriptor of --shm-fd may be sized to a ring of frames,
 * which empties what it held: shared memory (memfd_create(2),
 * shm_open(3), hugetlbfs), or an empty regular file, open for reading and
 * writing.  0, or -1 with the reason. */
int crafter_session_check_shm(int fd, char *error, size_t error_size);

/* The longest line of actions JSON lines accept for this many envs:
 * 4096 + 64 bytes per env. */
size_t crafter_session_line_limit(int envs);

#define CRAFTER_PROTOCOL_MAGIC "CRAFTSTP"
#define CRAFTER_PROTOCOL_VERSION 2
#define CRAFTER_PROTOCOL_HEADER_BYTES 128
/* Header flags. */
#define CRAFTER_PROTOCOL_AUTORESET 1u /* an ended episode is followed at once by the next */
#define CRAFTER_PROTOCOL_SEMANTIC 2u  /* frames carry the semantic map */
#define CRAFTER_PROTOCOL_SHM 4u       /* frames are in shared memory */
#define CRAFTER_PROTOCOL_TASKS 8u     /* episodes have goals: the header is followed by the
                                         task table, frames end with the task section */
#define CRAFTER_PROTOCOL_LEVELS 16u   /* episodes are played on a level set: an env's
                                         episode number is its level */
#define CRAFTER_PROTOCOL_FINAL 32u    /* frames carry the final observation of the episodes
                                         that ended at the step (the final section) */
#define CRAFTER_PROTOCOL_PLAYERS 64u  /* several players a world: N counts players, the
                                         players extension follows the header, frames
                                         carry the alive section */
#define CRAFTER_PROTOCOL_PLAYERS_BYTES 16 /* uint32 players, envs, alive's offset, 0 */
/* Bytes a client writes instead of a step's actions. */
#define CRAFTER_PROTOCOL_RENDER 253u  /* then uint32 env, width, height: that env's view
                                         drawn at that size, answered with its pixels */
#define CRAFTER_PROTOCOL_RENDER_BYTES 13
#define CRAFTER_PROTOCOL_SAVE 252u    /* then uint32 env: that env's state (crafter-state(5)),
                                          answered with uint32 L and its L bytes */
#define CRAFTER_PROTOCOL_SAVE_BYTES 5
#define CRAFTER_PROTOCOL_LOAD 251u    /* then uint32 env, uint32 L and L bytes of a state:
                                          loaded into that env, answered with uint32 status
                                          (0 loaded, 1 refused), uint32 M, M bytes of the
                                          reason, and when loaded a frame */
#define CRAFTER_PROTOCOL_LOAD_BYTES 9
/* A render request asks for at least 2 pixels a cell (what Crafter can
 * draw) and at most this many pixels on each axis. */
#define CRAFTER_PROTOCOL_RENDER_MAX 4096

/* The sections of a frame, in order; the header gives each one's offset. */
enum crafter_protocol_section {
  CRAFTER_SECTION_REWARD, CRAFTER_SECTION_DISCOUNT, CRAFTER_SECTION_DONE, CRAFTER_SECTION_RESET,
  CRAFTER_SECTION_UNLOCKED, CRAFTER_SECTION_EPISODE, CRAFTER_SECTION_STEP,
  CRAFTER_SECTION_INVENTORY, CRAFTER_SECTION_ACHIEVEMENTS, CRAFTER_SECTION_POSITION,
  CRAFTER_SECTION_SEMANTIC, CRAFTER_SECTION_OBS,
  CRAFTER_SECTION_FINAL, /* with final observations: per env, the observation that ended
                            its episode at this step (undefined for the others); at the
                            next multiple of 64 after the observations, given by no
                            header field */
  CRAFTER_SECTION_TASK, /* with goals: per env the instruction's index in the table and
                           whether the goal was met at this step (uint32 each) */
  CRAFTER_SECTION_ALIVE, /* with several players: per player, 1 while its episode runs */
  CRAFTER_PROTOCOL_SECTIONS
};

/* Runs until the input ends or the episodes are done.  Returns 0 on a
 * normal end, 1 on bad input or a write error, 2 for options that cannot
 * work (message in `error`). */
int crafter_session_run(const crafter_session_options *options, int input, FILE *output,
                        char *error, size_t error_size);

#endif
