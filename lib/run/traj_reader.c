#include "run/traj_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "game/games.h"
#include "run/traj_format.h"
#include "run/worldfile.h"

/* ---- reader ---- */

/* The reader checksums byte ranges of the file through a table of the
 * CRC-32 of every prefix that ends at a multiple of CRC_BLOCK bytes, built
 * once as the ranges reach further: a range's CRC then costs at most two
 * partial blocks and a combination, whatever its length, so looking for
 * chunks past damage stays linear in the file's size even when the bytes
 * are full of chunk headers that claim long payloads.  The table takes
 * 4 bytes per CRC_BLOCK bytes of the file while it is opened. */
#define CRC_BLOCK 512

struct crafter_traj_reader {
  int fd;
  const uint8_t *memory;
  uint64_t size;
  crafter_traj_header header;
  crafter_task_set tasks;  /* the task table, when the file has one */
  crafter_config config;   /* the configuration, when the file has one */
  crafter_world_map world; /* the world, when the file has one */
  int have_world;
  char *rules_text;        /* the text of both */
  uint64_t start;          /* where the first episode chunk may be: after the header and
                              the task table */
  crafter_traj_status status;
  crafter_traj_episode *episodes;
  size_t count, capacity;
  uint32_t *prefix_crc;   /* [i]: CRC-32 of bytes [0, i * CRC_BLOCK); while opening */
  size_t prefix_count;
  /* Why opening could not check the file (out of memory, a read error):
   * such a failure is the reader's, not damage of the file. */
  char failure[160];
};

/* Reads exactly size bytes at offset; -1 past the end or on an error. */
static int read_at(const crafter_traj_reader *reader, uint64_t offset, void *buffer, size_t size) {
  if (offset > reader->size || size > reader->size - offset) return -1;
  if (reader->memory) {
    memcpy(buffer, reader->memory + offset, size);
    return 0;
  }
  uint8_t *at = buffer;
  while (size > 0) {
    ssize_t got = pread(reader->fd, at, size, (off_t)offset);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) errno = 0; /* the end came early: no error to name */
    if (got <= 0) return -1;
    at += got;
    size -= (size_t)got;
    offset += (uint64_t)got;
  }
  return 0;
}

/* Continues crc over size bytes at offset, read in pieces. */
static int crc_continue(crafter_traj_reader *reader, uint32_t crc, uint64_t offset, uint64_t size,
                        uint32_t *result) {
  if (offset > reader->size || size > reader->size - offset) return -1;
  reader->status.checked_bytes += size;
  if (reader->memory) {
    *result = crafter_crc32_update(crc, reader->memory + offset, (size_t)size);
    return 0;
  }
  uint8_t piece[CRC_BLOCK * 16];
  while (size > 0) {
    size_t piece_size = size < sizeof(piece) ? (size_t)size : sizeof(piece);
    if (read_at(reader, offset, piece, piece_size) < 0) {
      /* Within the size found on opening: the file shrank, or the read failed. */
      snprintf(reader->failure, sizeof(reader->failure), "cannot read at byte %llu: %s",
               (unsigned long long)offset, errno ? strerror(errno) : "the file got shorter");
      return -1;
    }
    crc = crafter_crc32_update(crc, piece, piece_size);
    offset += piece_size;
    size -= piece_size;
  }
  *result = crc;
  return 0;
}

/* The CRC-32 of bytes [0, offset). */
static int prefix_crc_at(crafter_traj_reader *reader, uint64_t offset, uint32_t *crc) {
  if (offset > reader->size) return -1;
  uint64_t block = offset / CRC_BLOCK;
  if (block >= reader->prefix_count) {
    if (!reader->prefix_crc) {
      reader->prefix_crc = malloc(((size_t)(reader->size / CRC_BLOCK) + 1) * sizeof(uint32_t));
      if (!reader->prefix_crc) {
        snprintf(reader->failure, sizeof(reader->failure), "out of memory");
        return -1;
      }
      reader->prefix_crc[0] = (uint32_t)crc32(0L, Z_NULL, 0);
      reader->prefix_count = 1;
    }
    while (reader->prefix_count <= block) {
      size_t i = reader->prefix_count;
      if (crc_continue(reader, reader->prefix_crc[i - 1], (uint64_t)(i - 1) * CRC_BLOCK,
                       CRC_BLOCK, &reader->prefix_crc[i]) < 0)
        return -1;
      reader->prefix_count++;
    }
  }
  return crc_continue(reader, reader->prefix_crc[block], block * CRC_BLOCK,
                      offset - block * CRC_BLOCK, crc);
}

/* The CRC-32 of size bytes at offset: from the prefixes before and after
 * it, since CRC(A B) = CRC(A) shifted by |B| bytes, XOR CRC(B). */
static int crc_at(crafter_traj_reader *reader, uint64_t offset, uint64_t size, uint32_t *crc) {
  uint32_t before, after;
  if (offset > reader->size || size > reader->size - offset) return -1;
  if (size == 0) {
    *crc = (uint32_t)crc32(0L, Z_NULL, 0);
    return 0;
  }
  if (prefix_crc_at(reader, offset, &before) < 0 || prefix_crc_at(reader, offset + size, &after) < 0)
    return -1;
  *crc = after ^ (uint32_t)crc32_combine(before, 0, (z_off_t)size);
  return 0;
}

static int add_episode(crafter_traj_reader *reader, const crafter_traj_episode *episode) {
  if (reader->count == reader->capacity) {
    size_t capacity = reader->capacity ? reader->capacity * 2 : 64;
    crafter_traj_episode *grown = realloc(reader->episodes, capacity * sizeof(*grown));
    if (!grown) return -1;
    reader->episodes = grown;
    reader->capacity = capacity;
  }
  reader->episodes[reader->count++] = *episode;
  return 0;
}

/* A whole, good episode chunk at offset, ending by `limit`: header and
 * payload CRC. */
static int chunk_at(crafter_traj_reader *reader, uint64_t offset, uint64_t limit,
                    crafter_traj_episode *episode, char *problem, size_t problem_size) {
  uint8_t bytes[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  if (limit - offset < CRAFTER_TRAJ_CHUNK_HEADER_BYTES) {
    if (limit - offset >= 4 && read_at(reader, offset, bytes, 4) == 0 &&
        memcmp(bytes, CHUNK_TAG, 4) == 0)
      return crafter_fail(problem, problem_size,
                   "an episode chunk's header is cut short: %llu of %d bytes",
                   (unsigned long long)(limit - offset), CRAFTER_TRAJ_CHUNK_HEADER_BYTES);
    return crafter_fail(problem, problem_size, "%llu byte%s that %s no chunk",
                        (unsigned long long)(limit - offset), limit - offset == 1 ? "" : "s",
                        limit - offset == 1 ? "is" : "are");
  }
  if (read_at(reader, offset, bytes, sizeof(bytes)) < 0)
    return crafter_fail(problem, problem_size, "cannot read: %s", strerror(errno));
  if (memcmp(bytes, CHUNK_TAG, 4) == 0) reader->status.checked_bytes += 252;
  if (crafter_traj_decode_chunk_header(bytes, offset, limit, &reader->header, episode, problem,
                          problem_size) < 0)
    return -1;
  const crafter_traj_header *header = &reader->header;
  if (header->level_count == 0 && episode->play)
    return crafter_fail(problem, problem_size, "reserved bytes of the chunk header are set");
  if (header->level_count > 0 &&
      (episode->play == 0 || episode->seed != header->params.seed ||
       episode->episode < header->level_first ||
       episode->episode - header->level_first >= header->level_count))
    return crafter_fail(problem, problem_size,
                        "the episode (seed %lld, episode %lld) is no level of the file's set",
                        (long long)episode->seed, (long long)episode->episode);
  uint32_t crc;
  if (crc_at(reader, offset + CRAFTER_TRAJ_CHUNK_HEADER_BYTES,
             episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES, &crc) < 0)
    return crafter_fail(problem, problem_size, "cannot read the episode chunk");
  if (crc != episode->payload_crc)
    return crafter_fail(problem, problem_size, "the episode chunk's checksum does not match (its steps "
                                        "are damaged)");
  return 0;
}

/* An index chunk at offset; its total size in *bytes, offsets if wanted. */
static int index_at(crafter_traj_reader *reader, uint64_t offset, uint64_t *bytes,
                    uint64_t **offsets, uint64_t *count) {
  uint8_t head[INDEX_HEADER_BYTES];
  if (read_at(reader, offset, head, sizeof(head)) < 0) return -1;
  if (memcmp(head, INDEX_TAG, 4) != 0 || crafter_get_u32(head + 28) != crafter_crc32(head, 28) ||
      crafter_get_u32(head + 4) != INDEX_HEADER_BYTES)
    return -1;
  uint64_t entries = crafter_get_u64(head + 8), entry_bytes = crafter_get_u64(head + 16);
  uint32_t crc;
  if (entries > reader->size / 8 || entry_bytes != entries * 8 ||
      entry_bytes > reader->size - offset - INDEX_HEADER_BYTES ||
      crc_at(reader, offset + INDEX_HEADER_BYTES, entry_bytes, &crc) < 0 ||
      crc != crafter_get_u32(head + 24))
    return -1;
  *bytes = INDEX_HEADER_BYTES + entry_bytes;
  if (offsets) {
    uint8_t *table = malloc(entry_bytes ? (size_t)entry_bytes : 1);
    *offsets = malloc(entries ? (size_t)entries * sizeof(uint64_t) : 1);
    if (!table || !*offsets ||
        read_at(reader, offset + INDEX_HEADER_BYTES, table, (size_t)entry_bytes) < 0) {
      free(table);
      free(*offsets);
      *offsets = NULL;
      return -1;
    }
    for (uint64_t i = 0; i < entries; i++) (*offsets)[i] = crafter_get_u64(table + 8 * i);
    free(table);
  }
  if (count) *count = entries;
  return 0;
}

static int trailer_at(const crafter_traj_reader *reader, uint64_t offset, uint64_t *index_offset,
                      uint64_t *count) {
  uint8_t bytes[CRAFTER_TRAJ_TRAILER_BYTES];
  if (reader->size - offset != CRAFTER_TRAJ_TRAILER_BYTES ||
      read_at(reader, offset, bytes, sizeof(bytes)) < 0)
    return -1;
  if (memcmp(bytes, TRAILER_MAGIC, 8) != 0 || crafter_get_u32(bytes + 28) != crafter_crc32(bytes, 28)) return -1;
  *index_offset = crafter_get_u64(bytes + 8);
  *count = crafter_get_u64(bytes + 16);
  return 0;
}

/* Lists the episodes from the index, every chunk checked whole; 0, or -1
 * with a note when the chunks must be scanned for. */
static int read_index(crafter_traj_reader *reader) {
  crafter_traj_status *status = &reader->status;
  uint64_t trailer = reader->size - CRAFTER_TRAJ_TRAILER_BYTES, index_offset, count;
  if (reader->size < reader->start + CRAFTER_TRAJ_TRAILER_BYTES ||
      trailer_at(reader, trailer, &index_offset, &count) < 0) {
    snprintf(status->index_note, sizeof(status->index_note),
             "no trailer at the end: the recording did not finish (killed, or still running) "
             "or the end is damaged");
    return -1;
  }
  uint64_t index_bytes, *offsets = NULL, listed;
  if (index_offset < reader->start || index_offset >= trailer ||
      index_at(reader, index_offset, &index_bytes, &offsets, &listed) < 0 || listed != count ||
      index_offset + index_bytes != trailer) {
    free(offsets);
    snprintf(status->index_note, sizeof(status->index_note), "the index is damaged");
    return -1;
  }
  uint64_t previous_end = reader->start;
  for (uint64_t i = 0; i < count; i++) {
    crafter_traj_episode episode;
    char problem[200];
    /* Chunks follow each other from the header to the index: bytes that
     * no entry covers are damage the scan will locate. */
    if (offsets[i] != previous_end ||
        chunk_at(reader, offsets[i], index_offset, &episode, problem, sizeof(problem)) < 0 ||
        add_episode(reader, &episode) < 0) {
      free(offsets);
      reader->count = 0;
      snprintf(status->index_note, sizeof(status->index_note),
               "the index lists a chunk that is not there or is damaged (entry %llu)",
               (unsigned long long)i + 1);
      return -1;
    }
    previous_end = offsets[i] + episode.bytes;
  }
  free(offsets);
  if (previous_end != index_offset) {
    reader->count = 0;
    snprintf(status->index_note, sizeof(status->index_note),
             "the index does not list every byte before it");
    return -1;
  }
  status->indexed = 1;
  return 0;
}

static void note_damage(crafter_traj_reader *reader, uint64_t start, uint64_t end,
                        const char *problem) {
  crafter_traj_status *status = &reader->status;
  if (!status->damaged) {
    status->damaged = 1;
    status->damage_offset = start;
    snprintf(status->damage, sizeof(status->damage), "%s", problem);
  }
  status->damaged_regions++;
  status->damaged_bytes += end - start;
}

/* The next offset after `from` where a good episode chunk, index or
 * trailer starts, or the size of the file. */
static uint64_t resynchronize(crafter_traj_reader *reader, uint64_t from) {
  enum { WINDOW = 1 << 16 };
  uint8_t window[WINDOW];
  for (uint64_t base = from; base + 4 <= reader->size; base += WINDOW - 3) {
    size_t length = reader->size - base < WINDOW ? (size_t)(reader->size - base) : WINDOW;
    if (read_at(reader, base, window, length) < 0) break;
    for (size_t i = 0; i + 4 <= length; i++) {
      crafter_traj_episode episode;
      char problem[200];
      uint64_t bytes, index_offset, count;
      if (window[i] == 'E' && memcmp(window + i, CHUNK_TAG, 4) == 0 &&
          chunk_at(reader, base + i, reader->size, &episode, problem, sizeof(problem)) == 0)
        return base + i;
      if (window[i] == 'I' && memcmp(window + i, INDEX_TAG, 4) == 0 &&
          index_at(reader, base + i, &bytes, NULL, NULL) == 0)
        return base + i;
      if (window[i] == 'C' && trailer_at(reader, base + i, &index_offset, &count) == 0)
        return base + i;
    }
    if (length < WINDOW) break;
  }
  return reader->size;
}

/* Walks the file from the header on, chunk by chunk. */
static int scan(crafter_traj_reader *reader) {
  uint64_t position = reader->start;
  while (position < reader->size) {
    crafter_traj_episode episode;
    char problem[200];
    uint64_t bytes, index_offset, count;
    if (chunk_at(reader, position, reader->size, &episode, problem, sizeof(problem)) == 0) {
      if (add_episode(reader, &episode) < 0) return -1;
      position += episode.bytes;
      continue;
    }
    if (index_at(reader, position, &bytes, NULL, NULL) == 0) {
      position += bytes;
      continue;
    }
    if (trailer_at(reader, position, &index_offset, &count) == 0) break;
    uint64_t next = resynchronize(reader, position + 1);
    note_damage(reader, position, next, problem);
    position = next;
  }
  return 0;
}

/* The chunk header of an episode as written, for comparing episodes. */
static int compare_chunks(const crafter_traj_episode *a, const crafter_traj_episode *b) {
  uint8_t x[CRAFTER_TRAJ_CHUNK_HEADER_BYTES], y[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  crafter_traj_encode_chunk_header(a, x);
  crafter_traj_encode_chunk_header(b, y);
  int order = memcmp(x, y, sizeof(x));
  if (order) return order;
  return (a->offset > b->offset) - (a->offset < b->offset);
}

static int compare_episode_pointers(const void *a, const void *b) {
  return compare_chunks(*(const crafter_traj_episode *const *)a,
                        *(const crafter_traj_episode *const *)b);
}

/* A chunk whose header equals an earlier one's (the same episode, the
 * same summary, the same checksum of its steps) is the same episode
 * again: only the first is kept. */
static int drop_duplicates(crafter_traj_reader *reader) {
  if (reader->count < 2) return 0;
  const crafter_traj_episode **order = malloc(reader->count * sizeof(*order));
  uint8_t *repeated = calloc(reader->count, 1);
  if (!order || !repeated) {
    free(order);
    free(repeated);
    return -1;
  }
  for (size_t i = 0; i < reader->count; i++) order[i] = &reader->episodes[i];
  qsort(order, reader->count, sizeof(*order), compare_episode_pointers);
  for (size_t i = 1; i < reader->count; i++) {
    uint8_t x[CRAFTER_TRAJ_CHUNK_HEADER_BYTES], y[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
    crafter_traj_encode_chunk_header(order[i - 1], x);
    crafter_traj_encode_chunk_header(order[i], y);
    if (memcmp(x, y, sizeof(x)) == 0) repeated[order[i] - reader->episodes] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < reader->count; i++) {
    if (repeated[i]) {
      if (reader->status.duplicates++ == 0) reader->status.duplicate_offset = reader->episodes[i].offset;
      continue;
    }
    reader->episodes[kept++] = reader->episodes[i];
  }
  reader->count = kept;
  free(order);
  free(repeated);
  return 0;
}

/* Whether chunk b may follow chunk a in one world episode: the next
 * player of the same seed, episode, world and place. */
static int next_of_world(const crafter_traj_episode *a, const crafter_traj_episode *b) {
  return b->player == a->player + 1 && b->seed == a->seed && b->episode == a->episode &&
         b->world_seed == a->world_seed && b->play == a->play;
}

/* Files of several players: a world episode is the chunks of players 0,
 * 1, ..., P-1 in a row.  Chunks in a row of the same world that do not
 * make a whole one (a chunk damaged, left out as a repeat, or never
 * written) are left out, and the world is counted as damage. */
static void drop_partial_worlds(crafter_traj_reader *reader) {
  int players = reader->header.players;
  if (players < 2) return;
  crafter_traj_status *status = &reader->status;
  size_t kept = 0;
  for (size_t i = 0; i < reader->count;) {
    size_t run = 1;
    while (i + run < reader->count &&
           next_of_world(&reader->episodes[i + run - 1], &reader->episodes[i + run]))
      run++;
    const crafter_traj_episode *first = &reader->episodes[i];
    if (first->player == 0 && run == (size_t)players) {
      memmove(&reader->episodes[kept], first, run * sizeof(*first));
      kept += run;
    } else {
      if (status->partial_worlds++ == 0) {
        status->partial_offset = first->offset;
        /* The first player missing: before the run, or after it. */
        int missing = first->player > 0 ? 0 : (int)run;
        snprintf(status->partial, sizeof(status->partial),
                 "player %d's chunk of the world episode of seed %lld, episode %lld is missing",
                 missing, (long long)first->seed, (long long)first->episode);
      }
      status->partial_chunks += (long)run;
    }
    i += run;
  }
  reader->count = kept;
}

/* Reads a text table of `bytes` at reader->start, whose header carries
 * `tag`: its text in *text (to free) and *length, or -1 with a reason
 * naming it `what`. */
static int read_text_table(crafter_traj_reader *reader, uint32_t bytes, const char *tag,
                           const char *what, uint64_t limit, char **text, size_t *length,
                           char *error, size_t error_size) {
  *text = NULL;
  uint8_t head[CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES];
  uint64_t at = reader->start;
  if (read_at(reader, at, head, sizeof(head)) < 0)
    return crafter_fail(error, error_size, "%s is cut short", what);
  uint64_t packed = crafter_get_u64(head + 8), raw = crafter_get_u64(head + 16);
  if (memcmp(head, tag, 4) != 0 || crafter_get_u32(head + 28) != crafter_crc32(head, 28) ||
      crafter_get_u32(head + 4) != CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES)
    return crafter_fail(error, error_size, "%s's header is damaged", what);
  if (packed != bytes - CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES || raw == 0 || raw > limit)
    return crafter_fail(error, error_size, "%s's sizes (%llu, %llu) are impossible", what,
                        (unsigned long long)packed, (unsigned long long)raw);
  uint8_t *payload = malloc((size_t)packed);
  char *inflated = malloc((size_t)raw);
  int status = 0;
  uLongf got = (uLongf)raw;
  if (!payload || !inflated) {
    status = crafter_fail(error, error_size, "out of memory");
  } else if (read_at(reader, at + CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES, payload, (size_t)packed) <
             0) {
    status = crafter_fail(error, error_size, "%s is cut short", what);
  } else if (crafter_crc32(payload, (size_t)packed) != crafter_get_u32(head + 24)) {
    status = crafter_fail(error, error_size, "%s's checksum does not match", what);
  } else if (uncompress((Bytef *)inflated, &got, payload, (uLong)packed) != Z_OK || got != raw) {
    status = crafter_fail(error, error_size, "%s does not inflate to %llu bytes", what,
                          (unsigned long long)raw);
  }
  free(payload);
  if (status < 0) {
    free(inflated);
    return -1;
  }
  *text = inflated;
  *length = (size_t)raw;
  reader->status.checked_bytes += bytes;
  reader->start += bytes;
  return 0;
}

/* Reads and parses the task table and the configuration after the
 * header; every episode of the file needs them, so a damaged table fails
 * the opening. */
static int read_tables(crafter_traj_reader *reader, uint32_t task_bytes, uint32_t config_bytes,
                       char *error, size_t error_size) {
  reader->start = CRAFTER_TRAJ_HEADER_BYTES;
  reader->header.tasks = NULL;
  reader->header.config = NULL;
  crafter_traj_header_set_rules(&reader->header, NULL, 0, NULL, NULL, 0, NULL);
  char *text;
  size_t length;
  char problem[200];
  if (task_bytes) {
    if (read_text_table(reader, task_bytes, TASK_TAG, "the task table", CRAFTER_TASKS_MAX_BYTES,
                        &text, &length, error, error_size) < 0)
      return -1;
    int status = crafter_tasks_load_string(text, length, "the task table", &reader->tasks,
                                           problem, sizeof(problem));
    free(text);
    if (status < 0) return crafter_fail(error, error_size, "%s", problem);
    reader->header.tasks = &reader->tasks;
  }
  if (config_bytes) {
    if (read_text_table(reader, config_bytes, RULES_TAG, "the rules",
                        16 + (uint64_t)CRAFTER_CONFIG_MAX_BYTES + CRAFTER_WORLDFILE_MAX_BYTES, &text,
                        &length, error, error_size) < 0)
      return -1;
    reader->rules_text = text;
    uint64_t config_length = length >= 16 ? crafter_get_u64((uint8_t *)text) : 0;
    uint64_t world_length = length >= 16 ? crafter_get_u64((uint8_t *)text + 8) : 0;
    if (length < 16 || config_length > length - 16 || world_length != length - 16 - config_length ||
        (config_length == 0 && world_length == 0))
      return crafter_fail(error, error_size, "the rules' sizes do not add up");
    const char *config_text = config_length ? text + 16 : NULL;
    const char *world_text = world_length ? text + 16 + config_length : NULL;
    crafter_config_default(&reader->config);
    if (config_text &&
        (crafter_config_load_string(config_text, (size_t)config_length, "the stored configuration",
                                    &reader->config, problem, sizeof(problem)) < 0 ||
         crafter_config_check(&reader->config, problem, sizeof(problem)) < 0))
      return crafter_fail(error, error_size, "%s", problem);
    if (world_text) {
      if (crafter_world_map_parse(&reader->world, world_text, (size_t)world_length,
                                  "the stored world", problem, sizeof(problem)) < 0)
        return crafter_fail(error, error_size, "%s", problem);
      reader->have_world = 1;
      if (reader->world.width != reader->header.params.area[0] ||
          reader->world.height != reader->header.params.area[1])
        return crafter_fail(error, error_size, "the stored world is %dx%d, the area %dx%d",
                            reader->world.width, reader->world.height,
                            reader->header.params.area[0], reader->header.params.area[1]);
      int players = 0; /* the first objects */
      while (players < reader->world.object_count &&
             reader->world.objects[players].kind == CRAFTER_PLAYER)
        players++;
      if (players > reader->header.players)
        return crafter_fail(error, error_size,
                            "the stored world has %d players '@', the file's games %d", players,
                            reader->header.players);
    }
    crafter_traj_header_set_rules(&reader->header, config_text, (size_t)config_length,
                                  &reader->config, world_text, (size_t)world_length,
                                  &reader->world);
  }
  return 0;
}

static crafter_traj_reader *open_reader(crafter_traj_reader *reader, const char *name,
                                        int game, char *error, size_t error_size) {
  uint8_t bytes[CRAFTER_TRAJ_HEADER_BYTES];
  size_t have = reader->size < sizeof(bytes) ? (size_t)reader->size : sizeof(bytes);
  if (read_at(reader, 0, bytes, have) < 0) {
    crafter_fail(error, error_size, "%s: cannot read: %s", name, strerror(errno));
    crafter_traj_close(reader);
    return NULL;
  }
  char problem[256];
  uint32_t task_chunk_bytes = 0, config_chunk_bytes = 0;
  if (crafter_traj_decode_header(bytes, have, &reader->header, &task_chunk_bytes, &config_chunk_bytes, problem,
                    sizeof(problem)) < 0 ||
      read_tables(reader, task_chunk_bytes, config_chunk_bytes, problem, sizeof(problem)) < 0) {
    crafter_fail(error, error_size, "%s: %s", name, problem);
    crafter_traj_close(reader);
    return NULL;
  }
  if (game >= 0 && reader->header.game != game) {
    crafter_fail(error, error_size, "%s: a trajectory of %s (format version %u), not of %s", name,
                 crafter_game_info_of(reader->header.game)->name, reader->header.version,
                 crafter_game_info_of(game) ? crafter_game_info_of(game)->name : "?");
    crafter_traj_close(reader);
    return NULL;
  }
  reader->status.file_bytes = reader->size;
  int failed = read_index(reader) < 0 && scan(reader) < 0;
  free(reader->prefix_crc);
  reader->prefix_crc = NULL;
  reader->prefix_count = 0;
  if (reader->failure[0]) {
    crafter_fail(error, error_size, "%s: %s", name, reader->failure);
    crafter_traj_close(reader);
    return NULL;
  }
  if (failed || drop_duplicates(reader) < 0) {
    crafter_fail(error, error_size, "%s: out of memory", name);
    crafter_traj_close(reader);
    return NULL;
  }
  drop_partial_worlds(reader);
  return reader;
}

crafter_traj_reader *crafter_traj_open(const char *path, char *error, size_t error_size) {
  return crafter_traj_open_game(path, CRAFTER_GAME_CRAFTER, error, error_size);
}

crafter_traj_reader *crafter_traj_open_game(const char *path, int game, char *error,
                                            size_t error_size) {
  crafter_traj_reader *reader = calloc(1, sizeof(*reader));
  if (!reader) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  reader->fd = open(path, O_RDONLY);
  struct stat info;
  if (reader->fd < 0 || fstat(reader->fd, &info) < 0) {
    crafter_fail(error, error_size, "%s: %s", path, strerror(errno));
    crafter_traj_close(reader);
    return NULL;
  }
  if (!S_ISREG(info.st_mode)) {
    crafter_fail(error, error_size, "%s: not a regular file (a trajectory is read at random)", path);
    crafter_traj_close(reader);
    return NULL;
  }
  reader->size = (uint64_t)info.st_size;
  return open_reader(reader, path, game, error, error_size);
}

crafter_traj_reader *crafter_traj_open_memory(const uint8_t *data, size_t size, char *error,
                                              size_t error_size) {
  crafter_traj_reader *reader = calloc(1, sizeof(*reader));
  if (!reader) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  reader->fd = -1;
  reader->memory = data;
  reader->size = size;
  crafter_traj_reader *opened = open_reader(reader, "trajectory", -1, error, error_size);
  /* Messages name no file here: the caller knows which it read. */
  if (!opened && strncmp(error, "trajectory: ", 12) == 0)
    memmove(error, error + 12, strlen(error + 12) + 1);
  return opened;
}

void crafter_traj_close(crafter_traj_reader *reader) {
  if (!reader) return;
  if (reader->fd >= 0 && !reader->memory) close(reader->fd);
  free(reader->episodes);
  free(reader->prefix_crc);
  crafter_task_set_free(&reader->tasks);
  if (reader->have_world) crafter_world_map_free(&reader->world);
  free(reader->rules_text);
  free(reader);
}

const crafter_traj_header *crafter_traj_header_of(const crafter_traj_reader *reader) {
  return &reader->header;
}

const crafter_traj_status *crafter_traj_status_of(const crafter_traj_reader *reader) {
  return &reader->status;
}

size_t crafter_traj_episode_count(const crafter_traj_reader *reader) { return reader->count; }

const crafter_traj_episode *crafter_traj_episode_at(const crafter_traj_reader *reader,
                                                    size_t index) {
  return index < reader->count ? &reader->episodes[index] : NULL;
}

int crafter_traj_read_chunk(crafter_traj_reader *reader, size_t index, uint8_t **chunk,
                            size_t *bytes, char *error, size_t error_size) {
  *chunk = NULL;
  *bytes = 0;
  if (index >= reader->count) return crafter_fail(error, error_size, "no episode %zu", index);
  const crafter_traj_episode *episode = &reader->episodes[index];
  if (episode->bytes > SIZE_MAX) return crafter_fail(error, error_size, "the episode is too large");
  uint8_t *data = malloc((size_t)episode->bytes);
  if (!data) return crafter_fail(error, error_size, "out of memory");
  if (read_at(reader, episode->offset, data, (size_t)episode->bytes) < 0) {
    free(data);
    return crafter_fail(error, error_size, "cannot read the episode at byte %llu",
                 (unsigned long long)episode->offset);
  }
  uint8_t header[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  crafter_traj_encode_chunk_header(episode, header);
  if (memcmp(header, data, sizeof(header)) != 0 ||
      crafter_crc32(data + CRAFTER_TRAJ_CHUNK_HEADER_BYTES,
             (size_t)episode->bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES) != episode->payload_crc) {
    free(data);
    return crafter_fail(error, error_size, "the episode chunk at byte %llu is damaged (checksum)",
                 (unsigned long long)episode->offset);
  }
  *chunk = data;
  *bytes = (size_t)episode->bytes;
  return 0;
}

void crafter_traj_data_free(crafter_traj_data *data) {
  free(data->steps);
  free(data->obs);
  memset(data, 0, sizeof(*data));
}

static int check_steps(const crafter_traj_episode *episode, const crafter_traj_data *data,
                       char *error, size_t error_size) {
  double reward = 0;
  uint32_t unlocked = 0;
  for (uint32_t t = 0; t < data->steps_count; t++) {
    const crafter_traj_step *step = &data->steps[t];
    int last = t + 1 == data->steps_count;
    if (step->done != (last && episode->end != CRAFTER_TRAJ_CUT))
      return crafter_fail(error, error_size, "step %u: done is %d", t + 1, step->done);
    /* A goal met by the step that killed the player ends the episode as met. */
    if (step->died ? !(last && (episode->end == CRAFTER_TRAJ_DIED ||
                                episode->end == CRAFTER_TRAJ_GOAL))
                   : last && episode->end == CRAFTER_TRAJ_DIED)
      return crafter_fail(error, error_size, "step %u: the discount disagrees with the episode's end",
                   t + 1);
    if (step->goal != (last && episode->end == CRAFTER_TRAJ_GOAL))
      return crafter_fail(error, error_size, "step %u: the goal flag disagrees with the episode's end",
                   t + 1);
    if (unlocked & step->unlocked)
      return crafter_fail(error, error_size, "step %u: an achievement is unlocked a second time", t + 1);
    unlocked |= step->unlocked;
    reward += step->reward;
  }
  if (unlocked != episode->unlocked)
    return crafter_fail(error, error_size, "the steps unlock other achievements than the episode lists");
  if (reward != episode->reward)
    return crafter_fail(error, error_size, "the rewards of the steps do not add up to the return");
  return 0;
}

/* Takes the inflated steps apart as they come, so that memory follows
 * what the stream really holds, never what a header claims: the arrays
 * grow (doubling) as records and observations arrive, up to the counts the
 * chunk header announces, and observations are kept only when wanted. */
typedef struct step_parser {
  crafter_traj_data *data;
  uint32_t obs_bytes;
  uint32_t steps;          /* announced */
  int keep_obs;
  uint64_t position;       /* raw bytes taken so far */
  uint8_t record[CRAFTER_TRAJ_STEP_BYTES];
  size_t steps_capacity, obs_capacity; /* in steps, in bytes */
  int out_of_memory;
  char wrong[80];          /* what is wrong with a malformed step */
} step_parser;

static int grow(void **array, size_t *capacity, size_t needed, size_t most, size_t item_bytes) {
  if (needed <= *capacity) return 0;
  size_t capacity_wanted = *capacity ? *capacity : 1;
  while (capacity_wanted < needed) capacity_wanted *= 2;
  if (capacity_wanted > most) capacity_wanted = most;
  void *grown = realloc(*array, capacity_wanted * item_bytes);
  if (!grown) return -1;
  *array = grown;
  *capacity = capacity_wanted;
  return 0;
}

static void decode_step(const uint8_t *at, crafter_traj_step *step) {
  step->action = at[0];
  step->done = at[1] & 1;
  step->died = (at[1] >> 1) & 1;
  step->goal = (at[1] >> 2) & 1;
  step->unlocked = crafter_get_u32(at + 4);
  step->reward = crafter_get_f64(at + 8);
}

/* What is wrong with a step record, in why[why_size]; 0 when nothing is. */
static int step_wrong(const uint8_t *at, char *why, size_t why_size) {
  if (at[0] >= CRAFTER_ACTION_COUNT)
    return crafter_fail(why, why_size, "its action %u is out of range (0..%d)", at[0],
                        CRAFTER_ACTION_COUNT - 1);
  if ((at[1] & ~7u) || at[2] || at[3])
    return crafter_fail(why, why_size, "its flags or reserved bytes are set where none may be");
  if (crafter_get_u32(at + 4) & ~ALL_ACHIEVEMENTS)
    return crafter_fail(why, why_size, "it unlocks achievements that do not exist");
  if (!isfinite(crafter_get_f64(at + 8)))
    return crafter_fail(why, why_size, "its reward is not finite");
  return 0;
}

/* Takes size more bytes of the stream; -1 on a malformed step (its number
 * in *bad_step) or when memory runs out. */
static int parse_steps(step_parser *parser, const uint8_t *bytes, size_t size, uint32_t *bad_step) {
  uint64_t obs = parser->obs_bytes, per_step = CRAFTER_TRAJ_STEP_BYTES + obs;
  crafter_traj_data *data = parser->data;
  while (size > 0) {
    uint64_t observation, within, length;
    int is_record = 0;
    if (parser->position < obs) {
      observation = 0;
      within = parser->position;
      length = obs - within;
    } else {
      uint64_t relative = parser->position - obs, t = relative / per_step;
      within = relative % per_step;
      if (within < CRAFTER_TRAJ_STEP_BYTES) {
        is_record = 1;
        observation = t;
        length = CRAFTER_TRAJ_STEP_BYTES - within;
      } else {
        observation = t + 1;
        within -= CRAFTER_TRAJ_STEP_BYTES;
        length = obs - within;
      }
    }
    if (length > size) length = size;
    if (is_record) {
      memcpy(parser->record + within, bytes, (size_t)length);
      if (within + length == CRAFTER_TRAJ_STEP_BYTES) {
        size_t t = (size_t)observation;
        if (step_wrong(parser->record, parser->wrong, sizeof(parser->wrong)) < 0) {
          *bad_step = (uint32_t)t + 1;
          return -1;
        }
        if (grow((void **)&data->steps, &parser->steps_capacity, t + 1, parser->steps,
                 sizeof(crafter_traj_step)) < 0) {
          parser->out_of_memory = 1;
          return -1;
        }
        decode_step(parser->record, &data->steps[t]);
        data->steps_count = (uint32_t)t + 1;
      }
    } else if (parser->keep_obs) {
      size_t end = (size_t)(observation * obs + within + length);
      if (grow((void **)&data->obs, &parser->obs_capacity, end,
               ((size_t)parser->steps + 1) * (size_t)obs, 1) < 0) {
        parser->out_of_memory = 1;
        return -1;
      }
      memcpy(data->obs + (size_t)observation * obs + within, bytes, (size_t)length);
    }
    parser->position += length;
    bytes += length;
    size -= (size_t)length;
  }
  return 0;
}

static int read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                      int keep_obs, char *error, size_t error_size) {
  memset(data, 0, sizeof(*data));
  uint8_t *chunk;
  size_t chunk_bytes;
  if (crafter_traj_read_chunk(reader, index, &chunk, &chunk_bytes, error, error_size) < 0)
    return -1;
  const crafter_traj_episode *episode = &reader->episodes[index];
  step_parser parser = {data, reader->header.obs_bytes, episode->steps,
                        keep_obs && reader->header.obs_bytes > 0, 0, {0}, 0, 0, 0, {0}};
  enum { WINDOW = 1 << 16 };
  uint8_t *window = malloc(WINDOW);
  if (!window) {
    free(chunk);
    return crafter_fail(error, error_size, "out of memory");
  }
  z_stream stream;
  memset(&stream, 0, sizeof(stream));
  int status = inflateInit(&stream);
  const uint8_t *in = chunk + CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  size_t in_left = chunk_bytes - CRAFTER_TRAJ_CHUNK_HEADER_BYTES;
  uint32_t bad_step = 0;
  int parse_failed = 0;
  while (status == Z_OK) {
    uInt in_piece = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
    stream.next_in = (Bytef *)(uintptr_t)in;
    stream.avail_in = in_piece;
    stream.next_out = window;
    stream.avail_out = WINDOW;
    status = inflate(&stream, Z_NO_FLUSH);
    in += in_piece - stream.avail_in;
    in_left -= in_piece - stream.avail_in;
    size_t produced = WINDOW - stream.avail_out;
    if (status == Z_BUF_ERROR && produced == 0) break;
    if (status != Z_OK && status != Z_STREAM_END) break;
    /* Past the announced length: the stream is longer than it should be. */
    if (produced > episode->raw_bytes - parser.position) {
      status = Z_DATA_ERROR;
      break;
    }
    if (parse_steps(&parser, window, produced, &bad_step) < 0) {
      parse_failed = 1;
      break;
    }
  }
  inflateEnd(&stream);
  free(window);
  free(chunk);
  if (parser.out_of_memory) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "out of memory for an episode of %u steps",
                        episode->steps);
  }
  if (parse_failed) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "step %u of the episode at byte %llu: %s", bad_step,
                        (unsigned long long)episode->offset, parser.wrong);
  }
  if (status != Z_STREAM_END || parser.position != episode->raw_bytes || in_left != 0) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "the steps of the episode at byte %llu do not decompress "
                                    "to the %llu bytes its header announces",
                 (unsigned long long)episode->offset, (unsigned long long)episode->raw_bytes);
  }
  if (episode->steps == 0) {
    data->steps = malloc(1);
    if (!data->steps) {
      crafter_traj_data_free(data);
      return crafter_fail(error, error_size, "out of memory");
    }
  }
  if (parser.keep_obs && crafter_traj_float_kind(reader->header.obs_kind) && !crafter_traj_host_is_little_endian())
    crafter_traj_little_endian_floats(data->obs, ((size_t)episode->steps + 1) * parser.obs_bytes);
  char why[200];
  if (check_steps(episode, data, why, sizeof(why)) < 0) {
    crafter_traj_data_free(data);
    return crafter_fail(error, error_size, "the episode at byte %llu: %s",
                        (unsigned long long)episode->offset, why);
  }
  return 0;
}

int crafter_traj_read_episode(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                              char *error, size_t error_size) {
  return read_steps(reader, index, data, 1, error, error_size);
}

int crafter_traj_read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                            char *error, size_t error_size) {
  return read_steps(reader, index, data, 0, error, error_size);
}

/* ---- what a program reads of a file (crafter/crafter.h) ---- */

void crafter_traj_params(const crafter_traj_reader *reader, crafter_params *params) {
  *params = reader->header.params;
}

int crafter_traj_players(const crafter_traj_reader *reader) { return reader->header.players; }

const char *crafter_traj_agent(const crafter_traj_reader *reader) { return reader->header.agent; }

int crafter_traj_summary_of(const crafter_traj_reader *reader, size_t index,
                            crafter_traj_summary *summary) {
  const crafter_traj_episode *episode = crafter_traj_episode_at(reader, index);
  if (!episode) return -1;
  memset(summary, 0, sizeof(*summary));
  summary->seed = episode->seed;
  summary->episode = episode->episode;
  summary->world_seed = episode->world_seed;
  summary->player = episode->player > 0 ? episode->player : 0;
  summary->steps = (long)episode->steps;
  summary->reward = episode->reward;
  summary->end = episode->end;
  memcpy(summary->achievements, episode->achievements, sizeof(summary->achievements));
  memcpy(summary->inventory, episode->inventory, sizeof(summary->inventory));
  return 0;
}

int crafter_traj_read_actions(crafter_traj_reader *reader, size_t index, uint8_t *actions,
                              size_t capacity, char *error, size_t error_size) {
  crafter_traj_data data;
  if (crafter_traj_read_steps(reader, index, &data, error, error_size) < 0) return -1;
  int status = 0;
  if (data.steps_count > capacity)
    status = crafter_fail(error, error_size, "episode %zu has %u steps, more than the %zu asked for",
                          index, data.steps_count, capacity);
  for (uint32_t t = 0; status == 0 && t < data.steps_count; t++) actions[t] = data.steps[t].action;
  crafter_traj_data_free(&data);
  return status;
}
