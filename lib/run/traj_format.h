/* traj_format: the byte layout of trajectory files (crafter-trajectory(5))
 * that the traj modules share: traj_format.c encodes and decodes the file
 * header and the chunk headers, traj_writer.c writes chunks, the index
 * and the trailer, traj_reader.c finds and checks them.  Internal to
 * those modules. */
#ifndef CRAFTER_TRAJ_FORMAT_H
#define CRAFTER_TRAJ_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "run/traj.h"
#include "view/obskind.h"

#define CHUNK_TAG "EPSD"
#define INDEX_TAG "INDX"
#define TASK_TAG "TASK"
#define RULES_TAG "RULE"
#define TRAILER_MAGIC "CRAFTEND"
#define INDEX_HEADER_BYTES 32
/* Raw bytes handed to deflate at a time.  Always whole stages, so the same
 * steps compress to the same bytes however they were recorded. */
#define STAGE_BYTES 65536
/* deflate cannot shrink data by more than about 1032:1; a header that
 * claims more is refused before anything is allocated for it. */
#define MAX_RATIO 1040
#define ALL_ACHIEVEMENTS ((1u << CRAFTER_ACHIEVEMENT_COUNT) - 1u)

/* Raw bytes of an episode of `steps` steps; 0 on overflow. */
static inline uint64_t crafter_traj_raw_bytes(uint64_t steps, uint32_t obs_bytes) {
  uint64_t per_step = CRAFTER_TRAJ_STEP_BYTES + (uint64_t)obs_bytes;
  if (steps > (UINT64_MAX - obs_bytes) / per_step) return 0;
  return obs_bytes + steps * per_step;
}

static inline int crafter_traj_host_is_little_endian(void) {
  uint16_t probe = 1;
  uint8_t first;
  memcpy(&first, &probe, 1);
  return first == 1;
}

/* Observations of float32 values (symbolic ones) are stored little-endian. */
static inline int crafter_traj_float_kind(int obs_kind) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(obs_kind);
  return kind && kind->element == CRAFTER_OBS_ELEMENT_FLOAT32;
}

/* Turns float32 values between the host's order and the file's
 * (little-endian) in place: nothing on a little-endian host. */
static inline void crafter_traj_little_endian_floats(uint8_t *data, size_t size) {
  if (crafter_traj_host_is_little_endian()) return;
  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint8_t swap = data[i];
    data[i] = data[i + 3];
    data[i + 3] = swap;
    swap = data[i + 1];
    data[i + 1] = data[i + 2];
    data[i + 2] = swap;
  }
}

/* The file header of `header`, with the sizes of the task and the rules
 * chunks that follow it (0 for none). */
void crafter_traj_encode_header(const crafter_traj_header *header, uint32_t task_chunk_bytes,
                                uint32_t config_chunk_bytes,
                                uint8_t out[CRAFTER_TRAJ_HEADER_BYTES]);

/* Reads a file header of `size` bytes into `header` and the sizes of the
 * chunks that follow it; 0, or -1 with a reason (not a trajectory, a
 * version or a checksum that is not right, values out of range). */
int crafter_traj_decode_header(const uint8_t *in, size_t size, crafter_traj_header *header,
                               uint32_t *task_chunk_bytes, uint32_t *config_chunk_bytes,
                               char *error, size_t error_size);

/* An episode's chunk header. */
void crafter_traj_encode_chunk_header(const crafter_traj_episode *episode,
                                      uint8_t out[CRAFTER_TRAJ_CHUNK_HEADER_BYTES]);

/* Decodes a chunk header at `offset` of a file of `file_bytes`; checks
 * everything that can be checked without the payload.  0, or -1 with a
 * reason. */
int crafter_traj_decode_chunk_header(const uint8_t *in, uint64_t offset, uint64_t file_bytes,
                                     const crafter_traj_header *header,
                                     crafter_traj_episode *episode, char *error,
                                     size_t error_size);

#endif
