/* dataset: what crafter-dataset does with trajectory files: record
 * episodes of the built-in agents, describe, list and verify files (with
 * an exact re-simulation of every episode), merge shards, export to
 * Crafter's stats.jsonl and episode .npz files, draw frames as PNG files
 * or a video.
 *
 * Files of Crafter and of Craftax-Classic (crafter-trajectory(5) version
 * 5, crafter-games(7)): record plays Craftax-Classic's random agent, and
 * every command but frames and video (which need pixels, which
 * Craftax-Classic does not have yet) reads its files.  The reading
 * functions take `game`, the game the files must hold (enum
 * crafter_game_id), or -1 for any: a file of another game is refused with
 * a message naming both.
 *
 * Every function returns 0 on success, 1 on bad input or a failed check
 * (the reason in `error`, or, for checks, lines on `out`), 2 when the
 * options cannot work. */
#ifndef CRAFTER_DATASET_H
#define CRAFTER_DATASET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/env.h"
#include "game/tasks.h"
#include "run/levels.h"
#include "run/run.h"
#include "run/worldfile.h"

typedef struct crafter_dataset_record_options {
  crafter_run run;        /* what is recorded: run.game the game (Craftax-Classic: the
                             random agent, observations none or symbolic, run.envs envs,
                             env e playing seed + e's schedule, episode i of the dataset
                             env i % envs's (i / envs)-th; a shard takes whole envs);
                             run.params' seed is the Env seed and its
                             length the steps per episode at most; run.first_episode the
                             episode counter of the dataset's first episode; run.episodes
                             the episodes of the whole dataset, all shards together;
                             run.threads episodes played at once (the file does not depend
                             on them); run.players players a world, each played by an
                             agent of the kind with its own generator; observations none,
                             pixels, semantic or symbolic; on a level set, episode i plays
                             a level picked for i alone (so shards agree); the file to
                             write is run.record_path */
  int shard_index;        /* 1..shard_count: this shard takes the episodes */
  int shard_count;        /* whose index (from 0) is shard_index - 1 modulo shard_count */
  int agent;              /* enum crafter_agent_kind */
  FILE *progress;         /* a progress bar is drawn here when not NULL */
} crafter_dataset_record_options;

/* Records the episodes of one shard into a new file: episode counters
 * first_episode + i for i in [0, episodes) with i % shard_count ==
 * shard_index - 1, each a chunk written and flushed when it ends. */
int crafter_dataset_record(const crafter_dataset_record_options *options, char *error,
                           size_t error_size);

/* The header, counts, returns, success rates and integrity of a file. */
int crafter_dataset_info(const char *path, int game, FILE *out, char *error, size_t error_size);

/* One tab-separated line per episode under a header line: index, seed,
 * episode, world_seed, length, reward, end, unlocked achievements.  A
 * missing index or damage is noted on `notes`. */
int crafter_dataset_list(const char *path, int game, FILE *out, FILE *notes, char *error,
                         size_t error_size);

/* Checks checksums, lengths and the consistency of every step; with
 * resimulate, replays every episode from its seeds and actions and
 * compares every stored field.  Writes a line per problem and a summary
 * to out; returns 1 when anything is wrong. */
int crafter_dataset_verify(const char *path, int game, int resimulate, const char *textures,
                           FILE *out, char *error, size_t error_size);

/* Merges files of one header into `output`, episodes ordered by seed and
 * episode counter (then by content), so the result does not depend on the
 * order of the inputs.  Every intact episode of a damaged input is taken,
 * and a chunk repeated within an input once, with a note on `notes`
 * (`program: note: ...`).  The output is written whole (lib/base/outfile.h): a
 * failed merge leaves it as it was. */
int crafter_dataset_merge(const char *const *inputs, int count, int game, const char *output,
                          FILE *notes, const char *program, char *error, size_t error_size);

/* The stats.jsonl lines Crafter's Recorder writes, one per ended episode.
 * Exports take the intact episodes; a missing index, damage or repeated
 * chunks are noted on `notes` when not NULL, as list notes them. */
int crafter_dataset_export_stats(const char *path, int game, FILE *out, FILE *notes,
                                 char *error, size_t error_size);

/* One .npz file per ended episode in `directory`, with the arrays of
 * Crafter's EpisodeRecorder; images are the stored pixels or, when the
 * file has none, rendered with `textures` (NULL: built-in).  Of
 * Craftax-Classic, the same arrays but the image and semantic ones, and
 * "symbolic": the symbolic observation of every step, stored or
 * re-simulated.  Writes the names of the files to `out` when not NULL. */
int crafter_dataset_export_npz(const char *path, int game, const char *directory,
                               const char *textures, FILE *out, FILE *notes, char *error,
                               size_t error_size);

/* What frames and video draw: steps of one episode, from the stored
 * pixels or, when the file stores none, re-simulated and rendered. */
typedef struct crafter_frames_options {
  long episode;            /* the episode's index in the file, from 0 */
  const char *steps;       /* "all" or a list such as "0,10,20-30" (step 0: the first
                            * observation) */
  int size[2];             /* the pictures' width and height, scaled from the
                            * observation's by nearest neighbour as Pillow does;
                            * 0,0: the observation's own */
  const char *textures;    /* draw with these when the file stores no pixels; NULL:
                            * built-in */
  double fps;              /* video: frames a second */
  const char *format;      /* video: gif, mp4, ... (video.h); NULL: by the extension */
  const char *ffmpeg;      /* video: the encoder program for formats other than GIF;
                            * NULL: ffmpeg */
  int game;                /* the game the file must hold; -1 (or 0 as in a zeroed struct,
                            * Crafter): a file of Craftax-Classic is refused for having
                            * no pixels */
} crafter_frames_options;

/* PNG images, named episode-I-step-SSSSS.png in `directory`.  Writes the
 * names of the files to `out` when not NULL. */
int crafter_dataset_frames(const char *path, const crafter_frames_options *options,
                           const char *directory, FILE *out, char *error, size_t error_size);

/* One video file of the steps (video.h: GIF by the toolkit, other formats
 * through ffmpeg), written whole: a failure leaves no partial file. */
int crafter_dataset_video(const char *path, const crafter_frames_options *options,
                          const char *video, char *error, size_t error_size);

#endif
