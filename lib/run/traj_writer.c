#include "run/traj_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "base/outfile.h"
#include "run/traj_format.h"

/* ---- recorder ---- */

struct crafter_traj_recorder {
  crafter_traj_header header;
  int started, failed;
  int sealed; /* the stream is finished: the episode ended */
  crafter_traj_episode episode;
  uint8_t *stage;
  size_t staged;
  z_stream stream;
  int stream_ready;
  uint8_t *out;
  size_t out_used, out_capacity;
};

crafter_traj_recorder *crafter_traj_recorder_new(const crafter_traj_header *header) {
  crafter_traj_recorder *recorder = calloc(1, sizeof(*recorder));
  if (!recorder) return NULL;
  recorder->header = *header;
  recorder->stage = malloc(STAGE_BYTES);
  if (!recorder->stage) {
    free(recorder);
    return NULL;
  }
  return recorder;
}

void crafter_traj_recorder_free(crafter_traj_recorder *recorder) {
  if (!recorder) return;
  if (recorder->stream_ready) deflateEnd(&recorder->stream);
  free(recorder->stage);
  free(recorder->out);
  free(recorder);
}

/* Compresses the stage; with finish, ends the stream. */
static int compress_stage(crafter_traj_recorder *recorder, int finish) {
  z_stream *stream = &recorder->stream;
  if (!recorder->stream_ready) {
    memset(stream, 0, sizeof(*stream));
    if (deflateInit(stream, Z_DEFAULT_COMPRESSION) != Z_OK) return -1;
    recorder->stream_ready = 1;
  }
  stream->next_in = recorder->stage;
  stream->avail_in = (uInt)recorder->staged;
  for (;;) {
    if (recorder->out_capacity - recorder->out_used < 16384) {
      size_t capacity = recorder->out_capacity ? recorder->out_capacity * 2 : 65536;
      uint8_t *grown = realloc(recorder->out, capacity);
      if (!grown) return -1;
      recorder->out = grown;
      recorder->out_capacity = capacity;
    }
    size_t room = recorder->out_capacity - recorder->out_used;
    if (room > (1u << 30)) room = 1u << 30;
    stream->next_out = recorder->out + recorder->out_used;
    stream->avail_out = (uInt)room;
    int status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH);
    recorder->out_used += room - stream->avail_out;
    if (status == Z_STREAM_END) break;
    if (status != Z_OK && status != Z_BUF_ERROR) return -1;
    if (!finish && stream->avail_in == 0) break;
  }
  recorder->staged = 0;
  return 0;
}

static int feed(crafter_traj_recorder *recorder, const uint8_t *data, size_t size) {
  while (size > 0) {
    size_t piece = STAGE_BYTES - recorder->staged;
    if (piece > size) piece = size;
    memcpy(recorder->stage + recorder->staged, data, piece);
    recorder->staged += piece;
    data += piece;
    size -= piece;
    if (recorder->staged == STAGE_BYTES && compress_stage(recorder, 0) < 0) return -1;
  }
  return 0;
}

static int feed_obs(crafter_traj_recorder *recorder, const void *obs) {
  uint32_t bytes = recorder->header.obs_bytes;
  if (bytes == 0) return 0;
  if (crafter_traj_float_kind(recorder->header.obs_kind) && !crafter_traj_host_is_little_endian()) {
    /* Stored little-endian, a piece at a time. */
    uint8_t swapped[4096];
    const uint8_t *from = obs;
    for (uint32_t done = 0; done < bytes;) {
      uint32_t piece = bytes - done < sizeof(swapped) ? bytes - done : (uint32_t)sizeof(swapped);
      memcpy(swapped, from + done, piece);
      crafter_traj_little_endian_floats(swapped, piece);
      if (feed(recorder, swapped, piece) < 0) return -1;
      done += piece;
    }
    return 0;
  }
  return feed(recorder, obs, bytes);
}

/* Empties the recorder for an episode; its chunk header to fill. */
static crafter_traj_episode *begin(crafter_traj_recorder *recorder) {
  if (recorder->stream_ready) deflateReset(&recorder->stream);
  recorder->staged = 0;
  recorder->out_used = 0;
  recorder->failed = 0;
  recorder->sealed = 0;
  recorder->started = 1;
  crafter_traj_episode *episode = &recorder->episode;
  memset(episode, 0, sizeof(*episode));
  episode->game = recorder->header.game;
  episode->task = -1;
  episode->player = -1;
  return episode;
}

int crafter_traj_recorder_start(crafter_traj_recorder *recorder, const crafter_env *env,
                                int player, const void *obs) {
  crafter_traj_episode *episode = begin(recorder);
  episode->seed = env->params.seed;
  episode->episode = env->episode;
  episode->world_seed = env->world_seed;
  episode->player = recorder->header.players > 1 ? player : -1;
  if (feed_obs(recorder, obs) < 0) {
    recorder->failed = 1;
    return -1;
  }
  return 0;
}

int crafter_traj_recorder_start_jgame(crafter_traj_recorder *recorder, const crafter_jgame *g,
                                      void *env, const void *obs) {
  crafter_traj_episode *episode = begin(recorder);
  crafter_jenv_fields f = g->fields(env);
  episode->seed = *f.seed;
  episode->episode = *f.episode;
  episode->world_key[0] = f.world_key->word[0];
  episode->world_key[1] = f.world_key->word[1];
  episode->schedule_key[0] = f.key->word[0];
  episode->schedule_key[1] = f.key->word[1];
  /* What a cut episode ends with: the start's. */
  int32_t inventory[CRAFTER_JGAME_ITEMS_MAX];
  g->report(g->state(env), NULL, inventory);
  memcpy(episode->inventory, inventory, sizeof(episode->inventory));
  if (feed_obs(recorder, obs) < 0) {
    recorder->failed = 1;
    return -1;
  }
  return 0;
}

void crafter_traj_recorder_set_place(crafter_traj_recorder *recorder, uint32_t place) {
  recorder->episode.play = place;
}

void crafter_traj_recorder_set_task(crafter_traj_recorder *recorder, int task, int text) {
  recorder->episode.task = task;
  recorder->episode.text = text;
}

int crafter_traj_recorder_step(crafter_traj_recorder *recorder, const crafter_env *env,
                               int player, int action, const crafter_step_result *result,
                               const void *obs) {
  return crafter_traj_recorder_step_goal(recorder, env, player, action, result, obs, 0);
}

/* Adds a step's record and observation to the episode and its summary. */
static int add_step(crafter_traj_recorder *recorder, int action, double reward, int done,
                    int died, int goal, uint32_t unlocked, const void *obs) {
  if (!recorder->started || recorder->failed || recorder->sealed) return -1;
  crafter_traj_episode *episode = &recorder->episode;
  uint8_t record[CRAFTER_TRAJ_STEP_BYTES] = {0};
  record[0] = (uint8_t)action;
  record[1] = (uint8_t)((done ? 1 : 0) | (died ? 2 : 0) | (goal ? 4 : 0));
  crafter_put_u32(record + 4, unlocked);
  crafter_put_f64(record + 8, reward);
  if (feed(recorder, record, sizeof(record)) < 0 || feed_obs(recorder, obs) < 0) {
    recorder->failed = 1;
    return -1;
  }
  episode->steps++;
  episode->unlocked |= unlocked;
  episode->reward += reward;
  episode->end = goal   ? CRAFTER_TRAJ_GOAL
                 : !done ? CRAFTER_TRAJ_CUT
                 : died  ? CRAFTER_TRAJ_DIED
                         : CRAFTER_TRAJ_TIME_LIMIT;
  return 0;
}

int crafter_traj_recorder_step_goal(crafter_traj_recorder *recorder, const crafter_env *env,
                                    int p, int action, const crafter_step_result *result,
                                    const void *obs, int goal) {
  if (add_step(recorder, action, result->info_reward, result->done, result->discount == 0.0,
               goal, result->unlocked, obs) < 0)
    return -1;
  /* The player whose episode this is. */
  crafter_traj_episode *episode = &recorder->episode;
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  memcpy(episode->achievements, player->achievements, sizeof(episode->achievements));
  memcpy(episode->inventory, player->inventory, sizeof(episode->inventory));
  return 0;
}

int crafter_traj_recorder_step_jgame(crafter_traj_recorder *recorder, int action,
                                     const crafter_jgame_outcome *outcome, const void *obs) {
  if (add_step(recorder, action, (double)outcome->reward, outcome->done, outcome->died, 0,
               outcome->unlocked[0], obs) < 0)
    return -1;
  crafter_traj_episode *episode = &recorder->episode;
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    episode->achievements[k] = outcome->achievements[k];
  memcpy(episode->inventory, outcome->inventory, sizeof(episode->inventory));
  return 0;
}

int crafter_traj_recorder_seal(crafter_traj_recorder *recorder) {
  if (!recorder->started || recorder->sealed) return 0;
  if (recorder->failed || compress_stage(recorder, 1) < 0) {
    recorder->failed = 1;
    return -1;
  }
  recorder->sealed = 1;
  return 0;
}

long crafter_traj_recorder_steps(const crafter_traj_recorder *recorder) {
  return recorder->started ? (long)recorder->episode.steps : -1;
}

/* ---- writer ---- */

struct crafter_traj_writer {
  FILE *file;
  crafter_outfile whole;  /* when written whole: file is whole.file */
  char *path;
  uint64_t offset;
  uint64_t *offsets;
  size_t count, capacity;
  int levels;             /* episodes are numbered as they are played (episode->play) */
  uint32_t plays;         /* world episodes added so far: a world's chunks share its number */
  int keep_unless_filled; /* the path held a file: it is replaced only by a recording
                             that finished an episode */
  size_t finished;        /* episodes added that ended (not cut), or copied */
  int players;            /* chunks a world episode */
  int holding;            /* a world's chunks are being written: signals wait */
};

/* The chunks of a world (one a player) are written under one hold of the
 * signals (outfile.h), so a signal ends the process between worlds, never
 * within a chunk or between the chunks of a world. */
static void start_holding(crafter_traj_writer *writer) {
  if (writer->holding) return;
  writer->holding = 1;
  crafter_outfile_hold_signals();
}

static void stop_holding(crafter_traj_writer *writer) {
  if (!writer->holding) return;
  writer->holding = 0;
  crafter_outfile_release_signals(); /* may end the process, the file being whole */
}

/* After a chunk: once a world is whole, a recording onto a file that was
 * there takes the path as soon as it holds an episode that ended, and
 * grows there, so a recording stopped in any way later leaves its
 * episodes at the path and no temporary. */
static int chunk_written(crafter_traj_writer *writer, char *error, size_t error_size) {
  if (writer->count % (size_t)writer->players != 0) return 0;
  int status = 0;
  if (writer->keep_unless_filled && writer->finished > 0)
    status = crafter_outfile_publish(&writer->whole, error, error_size);
  stop_holding(writer);
  return status;
}

static int write_bytes(crafter_traj_writer *writer, const void *data, size_t size, char *error,
                       size_t error_size) {
  if (size && fwrite(data, 1, size, writer->file) != size)
    return crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  writer->offset += size;
  return 0;
}

/* A text table (the task file, "TASK"; the configuration, "CONF"): a
 * 32-byte header (the tag, its size, the compressed and the raw size, the
 * CRC-32 of the compressed bytes and of the header's first 28), then the
 * file's bytes compressed with zlib. */
static int encode_text_chunk(const char *tag, const char *text, size_t text_bytes, uint8_t **out,
                             size_t *bytes) {
  uLongf packed = compressBound((uLong)text_bytes);
  uint8_t *chunk = malloc(CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES + (size_t)packed);
  if (!chunk) return -1;
  uint8_t *payload = chunk + CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES;
  if (compress2(payload, &packed, (const Bytef *)text, (uLong)text_bytes, Z_BEST_COMPRESSION) !=
      Z_OK) {
    free(chunk);
    return -1;
  }
  memset(chunk, 0, CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES);
  memcpy(chunk, tag, 4);
  crafter_put_u32(chunk + 4, CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES);
  crafter_put_u64(chunk + 8, (uint64_t)packed);
  crafter_put_u64(chunk + 16, (uint64_t)text_bytes);
  crafter_put_u32(chunk + 24, crafter_crc32(payload, (size_t)packed));
  crafter_put_u32(chunk + 28, crafter_crc32(chunk, 28));
  *out = chunk;
  *bytes = CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES + (size_t)packed;
  return 0;
}

static crafter_traj_writer *writer_create(const char *path, const crafter_traj_header *header,
                                          int whole, char *error, size_t error_size) {
  crafter_traj_writer *writer = calloc(1, sizeof(*writer));
  if (!writer) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  writer->path = malloc(strlen(path) + 1);
  if (!writer->path) {
    free(writer);
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  strcpy(writer->path, path);
  writer->players = header->players > 1 ? header->players : 1;
  /* A recording never empties a file that is there: it is written aside
   * and takes the path once it holds an episode. */
  struct stat info;
  if (!whole && stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    whole = 1;
    writer->keep_unless_filled = 1;
  }
  if (whole) {
    if (crafter_outfile_open(&writer->whole, path, error, error_size) == 0)
      writer->file = writer->whole.file;
  } else {
    writer->file = fopen(path, "wb");
    if (!writer->file) crafter_fail(error, error_size, "%s: %s", path, strerror(errno));
  }
  if (!writer->file) {
    free(writer->path);
    free(writer);
    return NULL;
  }
  uint8_t *table = NULL, *rules = NULL;
  size_t table_bytes = 0, rules_bytes = 0;
  char *both = NULL;
  size_t both_bytes = 0;
  if (header->config_text || header->world_text) {
    /* The rules' text: the sizes of the configuration's and the world's,
     * then each. */
    both_bytes = 16 + header->config_bytes + header->world_bytes;
    both = malloc(both_bytes);
    if (both) {
      crafter_put_u64((uint8_t *)both, header->config_bytes);
      crafter_put_u64((uint8_t *)both + 8, header->world_bytes);
      if (header->config_bytes) memcpy(both + 16, header->config_text, header->config_bytes);
      if (header->world_bytes)
        memcpy(both + 16 + header->config_bytes, header->world_text, header->world_bytes);
    }
  }
  if ((header->tasks && encode_text_chunk(TASK_TAG, header->tasks->source,
                                          header->tasks->source_bytes, &table, &table_bytes) < 0) ||
      (both_bytes && (!both || encode_text_chunk(RULES_TAG, both, both_bytes, &rules,
                                                 &rules_bytes) < 0))) {
    free(both);
    free(table);
    crafter_fail(error, error_size, "out of memory");
    crafter_traj_writer_abort(writer);
    return NULL;
  }
  writer->levels = header->level_count > 0;
  uint8_t bytes[CRAFTER_TRAJ_HEADER_BYTES];
  crafter_traj_encode_header(header, (uint32_t)table_bytes, (uint32_t)rules_bytes, bytes);
  start_holding(writer); /* a file made at the path has its header whole */
  int failed = write_bytes(writer, bytes, sizeof(bytes), error, error_size) < 0 ||
               write_bytes(writer, table, table_bytes, error, error_size) < 0 ||
               write_bytes(writer, rules, rules_bytes, error, error_size) < 0;
  free(both);
  free(table);
  free(rules);
  if (failed || fflush(writer->file) != 0) {
    crafter_fail(error, error_size, "writing %s: %s", path, strerror(errno));
    crafter_traj_writer_abort(writer);
    return NULL;
  }
  stop_holding(writer);
  return writer;
}

crafter_traj_writer *crafter_traj_writer_create(const char *path,
                                                const crafter_traj_header *header, char *error,
                                                size_t error_size) {
  return writer_create(path, header, 0, error, error_size);
}

crafter_traj_writer *crafter_traj_writer_create_whole(const char *path,
                                                      const crafter_traj_header *header,
                                                      char *error, size_t error_size) {
  return writer_create(path, header, 1, error, error_size);
}

static void writer_free(crafter_traj_writer *writer) {
  free(writer->offsets);
  free(writer->path);
  free(writer);
}

void crafter_traj_writer_abort(crafter_traj_writer *writer) {
  if (!writer) return;
  if (writer->whole.file)
    crafter_outfile_abort(&writer->whole);
  else
    fclose(writer->file);
  stop_holding(writer);
  writer_free(writer);
}

static int remember_offset(crafter_traj_writer *writer, uint64_t offset, char *error,
                           size_t error_size) {
  if (writer->count == writer->capacity) {
    size_t capacity = writer->capacity ? writer->capacity * 2 : 256;
    uint64_t *grown = realloc(writer->offsets, capacity * sizeof(*grown));
    if (!grown) return crafter_fail(error, error_size, "out of memory");
    writer->offsets = grown;
    writer->capacity = capacity;
  }
  writer->offsets[writer->count++] = offset;
  return 0;
}

int crafter_traj_writer_add(crafter_traj_writer *writer, crafter_traj_recorder *recorder,
                            char *error, size_t error_size) {
  if (!recorder->started) return crafter_fail(error, error_size, "no episode was started");
  int sealed = crafter_traj_recorder_seal(recorder);
  recorder->started = 0;
  if (sealed < 0)
    return crafter_fail(error, error_size, "out of memory while compressing an episode");
  crafter_traj_episode *episode = &recorder->episode;
  episode->raw_bytes = crafter_traj_raw_bytes(episode->steps, recorder->header.obs_bytes);
  episode->bytes = CRAFTER_TRAJ_CHUNK_HEADER_BYTES + recorder->out_used;
  episode->payload_crc = crafter_crc32(recorder->out, recorder->out_used);
  /* Every player's chunk of a world episode carries the world's place:
   * the one its recorder was given, else the order of arrival. */
  if (writer->levels && episode->player <= 0) writer->plays++;
  if (!writer->levels) episode->play = 0;
  else if (episode->play == 0) episode->play = writer->plays;
  uint8_t header[CRAFTER_TRAJ_CHUNK_HEADER_BYTES];
  crafter_traj_encode_chunk_header(episode, header);
  uint64_t offset = writer->offset;
  start_holding(writer);
  int status = 0;
  if (remember_offset(writer, offset, error, error_size) < 0 ||
      write_bytes(writer, header, sizeof(header), error, error_size) < 0 ||
      write_bytes(writer, recorder->out, recorder->out_used, error, error_size) < 0)
    status = -1;
  else if (fflush(writer->file) != 0)
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  if (status == 0 && episode->end != CRAFTER_TRAJ_CUT) writer->finished++;
  if (status == 0) status = chunk_written(writer, error, error_size);
  if (status < 0) stop_holding(writer);
  return status;
}

int crafter_traj_writer_add_chunk(crafter_traj_writer *writer, const uint8_t *chunk,
                                  size_t bytes, char *error, size_t error_size) {
  start_holding(writer);
  int status = 0;
  if (remember_offset(writer, writer->offset, error, error_size) < 0 ||
      write_bytes(writer, chunk, bytes, error, error_size) < 0)
    status = -1;
  else if (fflush(writer->file) != 0)
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  /* an episode stored before: content, not a recording under way */
  if (status == 0) writer->finished++;
  if (status == 0) status = chunk_written(writer, error, error_size);
  if (status < 0) stop_holding(writer);
  return status;
}

int crafter_traj_writer_close(crafter_traj_writer *writer, char *error, size_t error_size) {
  int status = 0;
  start_holding(writer); /* a signal waits for the index and the trailer */
  size_t entry_bytes = writer->count * 8;
  uint8_t *entries = malloc(entry_bytes ? entry_bytes : 1);
  if (!entries) {
    status = crafter_fail(error, error_size, "out of memory");
  } else {
    for (size_t i = 0; i < writer->count; i++) crafter_put_u64(entries + 8 * i, writer->offsets[i]);
    uint8_t index[INDEX_HEADER_BYTES] = {0};
    memcpy(index, INDEX_TAG, 4);
    crafter_put_u32(index + 4, INDEX_HEADER_BYTES);
    crafter_put_u64(index + 8, writer->count);
    crafter_put_u64(index + 16, entry_bytes);
    crafter_put_u32(index + 24, crafter_crc32(entries, entry_bytes));
    crafter_put_u32(index + 28, crafter_crc32(index, 28));
    uint64_t index_offset = writer->offset;
    uint8_t trailer[CRAFTER_TRAJ_TRAILER_BYTES] = {0};
    memcpy(trailer, TRAILER_MAGIC, 8);
    crafter_put_u64(trailer + 8, index_offset);
    crafter_put_u64(trailer + 16, writer->count);
    crafter_put_u32(trailer + 28, crafter_crc32(trailer, 28));
    if (write_bytes(writer, index, sizeof(index), error, error_size) < 0 ||
        write_bytes(writer, entries, entry_bytes, error, error_size) < 0 ||
        write_bytes(writer, trailer, sizeof(trailer), error, error_size) < 0)
      status = -1;
    free(entries);
  }
  if (writer->whole.file) {
    if (status < 0 || (writer->keep_unless_filled && writer->finished == 0))
      crafter_outfile_abort(&writer->whole);
    else if (crafter_outfile_commit(&writer->whole, error, error_size) < 0)
      status = -1;
  } else if (fclose(writer->file) != 0 && status == 0) {
    status = crafter_fail(error, error_size, "writing %s: %s", writer->path, strerror(errno));
  }
  stop_holding(writer);
  writer_free(writer);
  return status;
}
