/* traj_reader: reading trajectory files (crafter-trajectory(5)): a
 * reader opens a file, finds its intact episodes (by the index, or by
 * scanning past damage), reports what is wrong with the file, and reads
 * and checks each episode's steps and observations. */
#ifndef CRAFTER_TRAJ_READER_H
#define CRAFTER_TRAJ_READER_H

#include <stddef.h>
#include <stdint.h>

#include "run/traj.h"

/* How the episodes were found and what is wrong with the file. */
typedef struct crafter_traj_status {
  uint64_t file_bytes;
  int indexed;            /* 1: the index and trailer listed the chunks; 0: found by scanning */
  char index_note[160];   /* why the chunks were scanned for, "" when indexed */
  int damaged;            /* 1 when some bytes are not part of a good chunk, index or trailer */
  uint64_t damage_offset; /* the first such byte */
  char damage[200];       /* what is wrong there */
  long damaged_regions;   /* stretches of bytes skipped over */
  uint64_t damaged_bytes; /* their total size */
  long duplicates;        /* chunks left out as repeats of an earlier one */
  uint64_t duplicate_offset; /* the first of them */
  /* Files of several players: world episodes some of whose players'
   * chunks are missing (damaged, or never written) are damage too; their
   * remaining chunks are left out, so that the episodes listed are whole
   * worlds, each a chunk per player in the players' order. */
  long partial_worlds;    /* world episodes left out */
  long partial_chunks;    /* their chunks that were there */
  uint64_t partial_offset; /* the first of those chunks */
  char partial[200];      /* what the first such world lacks */
  uint64_t checked_bytes; /* bytes checksummed to open the file: the work done, a
                             small multiple of the file's size whatever its bytes */
} crafter_traj_status;

/* crafter_traj_open (crafter/crafter.h) opens a file, reads its header
 * and finds its episodes.  Only a file whose header cannot be read fails
 * (NULL with a reason); damage further on is reported by
 * crafter_traj_status_of.
 *
 * Every chunk's checksums are checked on opening (the file is read once
 * whole), with or without an index, so that the episodes listed are
 * exactly the intact ones and every program reports the same damage: a
 * damaged chunk is left out and counted as damage, and the episodes after
 * it are found by scanning.  A chunk whose header equals an earlier one's
 * is the same episode again and is left out too (status.duplicates).
 * In a file of several players the episodes listed are whole world
 * episodes only: the chunks of players 0..P-1 of a world, one after the
 * other; a world missing a chunk is left out (status.partial_worlds).
 * crafter_traj_close frees the reader. */

/* crafter_traj_open (the public function) opens a file of Crafter's
 * episodes only: a file of another game (format version 5) is refused,
 * as "PATH: a trajectory of craftax-classic (format version 5), not of
 * crafter".  crafter_traj_open_game opens a file of `game` (enum
 * crafter_game_id) the same way, refusing one of another game, or of any
 * game with -1 (the header's game then says which). */
crafter_traj_reader *crafter_traj_open_game(const char *path, int game, char *error,
                                            size_t error_size);

/* crafter_traj_open over bytes in memory, which must outlive the reader;
 * a file of any game. */
crafter_traj_reader *crafter_traj_open_memory(const uint8_t *data, size_t size, char *error,
                                              size_t error_size);

const crafter_traj_header *crafter_traj_header_of(const crafter_traj_reader *reader);
const crafter_traj_status *crafter_traj_status_of(const crafter_traj_reader *reader);
const crafter_traj_episode *crafter_traj_episode_at(const crafter_traj_reader *reader,
                                                    size_t index);

/* The steps of an episode: steps[steps_count], and (steps_count + 1)
 * observations (the first after the reset), obs_bytes each, or NULL. */
typedef struct crafter_traj_data {
  uint32_t steps_count;
  crafter_traj_step *steps;
  uint8_t *obs;
} crafter_traj_data;

/* Reads and checks episode `index`: the chunk's CRC, the compressed
 * stream, its exact length and every step against the chunk header (the
 * actions in range, done on the last step only, the sum of the rewards
 * and the union of the unlocked achievements).  Returns 0, or -1 with a
 * reason; data is then empty. */
int crafter_traj_read_episode(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                              char *error, size_t error_size);
void crafter_traj_data_free(crafter_traj_data *data);

/* The same checks, keeping the steps only (data->obs is NULL): what
 * re-simulating an episode needs, in memory of 16 bytes a step whatever
 * the size of the observations.  crafter_traj_read_episode's memory too
 * follows what the compressed stream really holds, never what a header
 * claims. */
int crafter_traj_read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                            char *error, size_t error_size);

/* The raw bytes of episode `index`'s chunk, CRC-checked (malloc'ed). */
int crafter_traj_read_chunk(crafter_traj_reader *reader, size_t index, uint8_t **chunk,
                            size_t *bytes, char *error, size_t error_size);

#endif
