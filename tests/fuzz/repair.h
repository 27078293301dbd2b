/* Checksum repair and structure-aware mutation for the fuzz targets of
 * the checksummed formats: trajectories (crafter-trajectory(5)) and level
 * files (crafter-levels(5)).
 *
 * Random bytes, and mutations of a valid file, almost never carry valid
 * CRC-32s, so a reader refuses them at its first checksum and the parser
 * behind it is never reached.  The -repair targets therefore rewrite every
 * checksum of their input before handing it to the reader:
 *
 *   trajectories  every chunk found by its tag, anywhere in the input
 *                 ("TASK", "RULE", "EPSD", "INDX", the trailer
 *                 "CRAFTEND") gets the CRC-32 of its payload (when the
 *                 payload it claims is in the input) and of its header;
 *                 the file header gets its own.  Chunks are repaired
 *                 from the last to the first, so a chunk's checksum
 *                 covers whatever repairs were made inside it.
 *   level files   the payload's size field becomes the bytes after the
 *                 header; when the payload is one whole zlib stream, its
 *                 inflated size and CRC-32 are written in; then the
 *                 header's CRC-32.
 *
 * The payloads are zlib streams, so a mutated byte in them is mostly a
 * broken stream.  LLVMFuzzerCustomMutator (repair_*_mutate below) lets
 * libFuzzer mutate what they hold instead: half the time it inflates one
 * stream (an episode's steps, the task table or the rules, the
 * levels), mutates the inflated bytes with LLVMFuzzerMutate, deflates
 * them again and splices them back, moving the sizes and offsets that
 * point past them (the header's table sizes, the index, the trailer);
 * the other half it mutates the bytes as they are.  The target then
 * repairs the checksums as above.  driver.c supplies a simple
 * LLVMFuzzerMutate, so tests/fuzz.t runs the mutators over the seed
 * corpora too. */
#ifndef CRAFTER_FUZZ_REPAIR_H
#define CRAFTER_FUZZ_REPAIR_H

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "fuzz.h"

/* The most a mutator inflates; more is left alone. */
#define REPAIR_INFLATE_MAX ((size_t)16 << 20)

static inline uint32_t repair_crc(const uint8_t *data, size_t size) {
  return crafter_crc32(data, size);
}

/* ---- trajectories ---- */

static inline void repair_traj(uint8_t *data, size_t size) {
  for (size_t at = size; at-- > 0;) {
    uint8_t *chunk = data + at;
    size_t left = size - at;
    if (left >= 32 && memcmp(chunk, "CRAFTEND", 8) == 0) {
      crafter_put_u32(chunk + 28, repair_crc(chunk, 28));
    } else if (left >= 32 && (memcmp(chunk, "TASK", 4) == 0 || memcmp(chunk, "RULE", 4) == 0 ||
                              memcmp(chunk, "INDX", 4) == 0)) {
      /* The task table and the rules: P at 8; the index: its
       * entries' bytes, 8N, at 16. */
      uint64_t payload = crafter_get_u64(chunk + (chunk[0] == 'I' ? 16 : 8));
      if (payload <= left - 32)
        crafter_put_u32(chunk + 24, repair_crc(chunk + 32, (size_t)payload));
      crafter_put_u32(chunk + 28, repair_crc(chunk, 28));
    } else if (left >= 256 && memcmp(chunk, "EPSD", 4) == 0) {
      uint64_t payload = crafter_get_u64(chunk + 8);
      if (payload <= left - 256)
        crafter_put_u32(chunk + 248, repair_crc(chunk + 256, (size_t)payload));
      crafter_put_u32(chunk + 252, repair_crc(chunk, 252));
    }
  }
  if (size >= 128 && memcmp(data, "CRAFTTRJ", 8) == 0)
    crafter_put_u32(data + 124, repair_crc(data, 124));
}

/* ---- zlib streams ---- */

/* Inflates one whole zlib stream of exactly `size` bytes into a new
 * buffer with room for `extra` bytes more; NULL when it is not one. */
static inline uint8_t *repair_inflate(const uint8_t *data, size_t size, size_t extra,
                                      size_t *inflated) {
  size_t capacity = 4096, have = 0;
  uint8_t *out = malloc(capacity + extra);
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  if (!out || inflateInit(&stream) != Z_OK) {
    free(out);
    return NULL;
  }
  stream.next_in = (Bytef *)(uintptr_t)data;
  stream.avail_in = (uInt)(size < UINT32_MAX ? size : UINT32_MAX);
  int status = Z_OK;
  while (status == Z_OK) {
    if (have == capacity) {
      uint8_t *grown = capacity < REPAIR_INFLATE_MAX ? realloc(out, capacity * 2 + extra) : NULL;
      if (!grown) break;
      out = grown, capacity *= 2;
    }
    stream.next_out = out + have;
    stream.avail_out = (uInt)(capacity - have);
    status = inflate(&stream, Z_NO_FLUSH);
    have = capacity - stream.avail_out;
  }
  int whole = status == Z_STREAM_END && stream.avail_in == 0;
  inflateEnd(&stream);
  if (!whole) {
    free(out);
    return NULL;
  }
  *inflated = have;
  return out;
}

/* The size and CRC-32 of what one whole zlib stream inflates to, without
 * keeping it; 0 when it is not one. */
static inline int repair_inflated_crc(const uint8_t *data, size_t size, uint64_t *inflated,
                               uint32_t *crc) {
  uint8_t window[1 << 15];
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  if (inflateInit(&stream) != Z_OK) return 0;
  stream.next_in = (Bytef *)(uintptr_t)data;
  stream.avail_in = (uInt)(size < UINT32_MAX ? size : UINT32_MAX);
  uint64_t have = 0;
  uint32_t sum = 0;
  int status = Z_OK;
  while (status == Z_OK && have < REPAIR_INFLATE_MAX) {
    stream.next_out = window;
    stream.avail_out = sizeof(window);
    status = inflate(&stream, Z_NO_FLUSH);
    size_t got = sizeof(window) - stream.avail_out;
    sum = crafter_crc32_update(sum, window, got);
    have += got;
  }
  int whole = status == Z_STREAM_END && stream.avail_in == 0;
  inflateEnd(&stream);
  *inflated = have, *crc = sum;
  return whole;
}

/* Deflated `raw`, in a new buffer; NULL when out of memory. */
static inline uint8_t *repair_deflate(const uint8_t *raw, size_t size, size_t *packed) {
  uLongf bound = compressBound((uLong)size);
  uint8_t *out = malloc(bound);
  if (!out || compress2(out, &bound, raw, (uLong)size, Z_DEFAULT_COMPRESSION) != Z_OK) {
    free(out);
    return NULL;
  }
  *packed = bound;
  return out;
}

/* xorshift64*, seeded from libFuzzer's seed. */
static inline uint64_t repair_draw(uint64_t *state) {
  *state ^= *state >> 12, *state ^= *state << 25, *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

/* Mutates the `size` inflated bytes of raw (room for `capacity`):
 * mostly keeping their size, which the formats tie to other fields. */
static inline size_t repair_mutate_raw(uint8_t *raw, size_t size, size_t capacity, int keep_size) {
  if (size == 0) return 0;
  size_t mutated = LLVMFuzzerMutate(raw, size, keep_size ? size : capacity);
  if (keep_size && mutated < size) memset(raw + mutated, 0, size - mutated);
  return keep_size ? size : mutated;
}

/* ---- level files ---- */

static inline void repair_levels(uint8_t *data, size_t size) {
  if (size < 128 || memcmp(data, "CRAFTLVL", 8) != 0) return;
  crafter_put_u64(data + 64, (uint64_t)(size - 128));
  uint64_t raw;
  uint32_t crc;
  if (repair_inflated_crc(data + 128, size - 128, &raw, &crc)) {
    crafter_put_u64(data + 72, raw);
    crafter_put_u32(data + 80, crc);
  }
  crafter_put_u32(data + 124, repair_crc(data, 124));
}

static inline size_t repair_levels_mutate(uint8_t *data, size_t size, size_t max_size,
                                          unsigned seed) {
  uint64_t state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
  if (size <= 128 || memcmp(data, "CRAFTLVL", 8) != 0 || repair_draw(&state) % 2)
    return LLVMFuzzerMutate(data, size, max_size);
  size_t raw_bytes, extra = 256;
  uint8_t *raw = repair_inflate(data + 128, size - 128, extra, &raw_bytes);
  if (!raw) return LLVMFuzzerMutate(data, size, max_size);
  raw_bytes = repair_mutate_raw(raw, raw_bytes, raw_bytes + extra, repair_draw(&state) % 4 != 0);
  size_t packed_bytes;
  uint8_t *packed = repair_deflate(raw, raw_bytes, &packed_bytes);
  free(raw);
  if (!packed || 128 + packed_bytes > max_size) {
    free(packed);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  memcpy(data + 128, packed, packed_bytes);
  free(packed);
  return 128 + packed_bytes;
}

/* ---- trajectories' streams ---- */

typedef struct repair_stream {
  size_t header;     /* offset of the chunk */
  size_t header_bytes;
  size_t payload;    /* bytes of its compressed payload */
  int size_field;    /* a table: the file header's field of its size; an episode: 0 */
} repair_stream;

static inline size_t repair_traj_mutate(uint8_t *data, size_t size, size_t max_size,
                                        unsigned seed) {
  uint64_t state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
  if (size < 128 || memcmp(data, "CRAFTTRJ", 8) != 0 || repair_draw(&state) % 2)
    return LLVMFuzzerMutate(data, size, max_size);
  /* The streams, walked as a reader walks a whole file. */
  repair_stream streams[64];
  int count = 0;
  size_t at = 128;
  /* The tables after the header: the task table, whose size the header
   * gives at 104, and the rules (a configuration and a world file), at 120. */
  static const struct { const char *tag; int size_field; } tables[] = {{"TASK", 104},
                                                                        {"RULE", 120}};
  for (int k = 0; k < 2; k++)
    if (size - at >= 32 && memcmp(data + at, tables[k].tag, 4) == 0) {
      uint64_t payload = crafter_get_u64(data + at + 8);
      if (payload > size - at - 32) break;
      streams[count++] = (repair_stream){at, 32, (size_t)payload, tables[k].size_field};
      at += 32 + (size_t)payload;
    }
  while (count < 64 && size - at >= 256 && memcmp(data + at, "EPSD", 4) == 0) {
    uint64_t payload = crafter_get_u64(data + at + 8);
    if (payload > size - at - 256) break;
    streams[count++] = (repair_stream){at, 256, (size_t)payload, 0};
    at += 256 + (size_t)payload;
  }
  if (count == 0) return LLVMFuzzerMutate(data, size, max_size);
  repair_stream chosen = streams[repair_draw(&state) % (uint64_t)count];
  size_t start = chosen.header + chosen.header_bytes;
  size_t raw_bytes, extra = 256;
  uint8_t *raw = repair_inflate(data + start, chosen.payload, extra, &raw_bytes);
  if (!raw) return LLVMFuzzerMutate(data, size, max_size);
  /* An episode's size is tied to its steps: kept mostly. */
  int keep = !chosen.size_field && repair_draw(&state) % 4 != 0;
  raw_bytes = repair_mutate_raw(raw, raw_bytes, raw_bytes + extra, keep);
  size_t packed_bytes;
  uint8_t *packed = repair_deflate(raw, raw_bytes, &packed_bytes);
  free(raw);
  size_t after = start + chosen.payload;
  size_t total = start + packed_bytes + (size - after);
  if (!packed || total > max_size) {
    free(packed);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  memmove(data + start + packed_bytes, data + after, size - after);
  memcpy(data + start, packed, packed_bytes);
  free(packed);
  uint8_t *chunk = data + chosen.header;
  crafter_put_u64(chunk + 8, (uint64_t)packed_bytes);
  crafter_put_u64(chunk + 16, (uint64_t)raw_bytes);
  /* What points past the stream moves with it. */
  int64_t delta = (int64_t)packed_bytes - (int64_t)chosen.payload;
  if (chosen.size_field) crafter_put_u32(data + chosen.size_field, (uint32_t)(32 + packed_bytes));
  size_t index = at + (size_t)delta;
  if (total - index >= 32 && memcmp(data + index, "INDX", 4) == 0) {
    uint64_t entries = crafter_get_u64(data + index + 8);
    for (uint64_t k = 0; k < entries && k < (total - index - 32) / 8; k++) {
      uint8_t *entry = data + index + 32 + 8 * k;
      if (crafter_get_u64(entry) > chosen.header)
        crafter_put_u64(entry, crafter_get_u64(entry) + (uint64_t)delta);
    }
  }
  if (total >= 32 && memcmp(data + total - 32, "CRAFTEND", 8) == 0 &&
      crafter_get_u64(data + total - 24) > chosen.header)
    crafter_put_u64(data + total - 24, crafter_get_u64(data + total - 24) + (uint64_t)delta);
  return total;
}

/* A copy of the input for repairing, with room for nothing more. */
static inline uint8_t *repair_copy(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  if (copy && size) memcpy(copy, data, size);
  return copy;
}

#endif
