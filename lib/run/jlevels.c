#include "run/jlevels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "base/memory.h"
#include "base/outfile.h"
#include "base/params.h"
#include "base/pool.h"
#include "game/games.h"
#include "run/jstate.h"

/* A level in the file: i64 number, u32 x 2 the key, the saved state. */
enum { GAME_NAME_AT = 88, GAME_NAME_BYTES = 32 };
static size_t level_bytes(const crafter_jgame *g) { return 16 + crafter_jstate_bytes(g); }

crafter_jaxkey crafter_jlevel_key(const crafter_jgame *g, int64_t seed, int64_t number) {
  return g->reset_key(seed + number - 1);
}

void crafter_jlevels_free(crafter_jlevel_set *set) {
  free(set->states);
  free(set->keys);
  memset(set, 0, sizeof(*set));
}

/* Room for `count` levels, refused when the process may not have it. */
static int allocate(crafter_jlevel_set *set, int count, char *error, size_t error_size) {
  const crafter_jgame *g = set->game;
  uint64_t bytes = (uint64_t)count * (g->state_size + sizeof(crafter_jaxkey));
  if (crafter_memory_check(bytes, "the level set", error, error_size) < 0) return -1;
  set->count = count;
  set->states = malloc((size_t)count * g->state_size);
  set->keys = malloc((size_t)count * sizeof(crafter_jaxkey));
  if (!set->states || !set->keys) {
    crafter_jlevels_free(set);
    return crafter_fail(error, error_size, "out of memory for %d levels", count);
  }
  return 0;
}

/* "its area or view is not the game's (64x64, 9x7)" */
static const char *area_wrong(const crafter_jgame *g, char *out, size_t size) {
  snprintf(out, size, "its area or view is not the game's (%dx%d, %dx%d)", g->map_columns,
           g->map_rows, g->view_columns, g->view_rows);
  return out;
}

typedef struct generate_job {
  crafter_jlevel_set *set;
  int failed;
} generate_job;

static void generate_one(void *context, int i) {
  generate_job *job = context;
  crafter_jlevel_set *set = job->set;
  set->keys[i] = crafter_jlevel_key(set->game, set->seed, set->first + i);
  if (set->game->generate(set->keys[i], crafter_jlevel_state(set, i)) != 0)
    __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
}

int crafter_jlevels_generate(crafter_jlevel_set *set, const crafter_jgame *game, int64_t seed,
                             int64_t first, int count, int threads, char *error,
                             size_t error_size) {
  memset(set, 0, sizeof(*set));
  set->game = game;
  if (count < 1 || count > CRAFTER_LEVELS_MAX)
    return crafter_fail(error, error_size, "a level set holds 1 to %d levels", CRAFTER_LEVELS_MAX);
  set->seed = seed;
  set->first = first;
  if (allocate(set, count, error, error_size) < 0) return -1;
  set->seed = seed;
  set->first = first;
  crafter_pool *pool = crafter_pool_new(threads < 1 ? 1 : threads);
  if (!pool) {
    crafter_jlevels_free(set);
    return crafter_fail(error, error_size, "cannot start %d threads", threads);
  }
  generate_job job = {set, 0};
  crafter_pool_run(pool, count, generate_one, &job);
  crafter_pool_free(pool);
  if (job.failed) {
    crafter_jlevels_free(set);
    return crafter_fail(error, error_size, "out of memory generating the levels");
  }
  return 0;
}

/* The saved state of level i: the env of seed seed+k-1 just reset. */
static void save_level(const crafter_jlevel_set *set, int i, uint8_t *out) {
  int64_t number = set->first + i, seed = set->seed + number - 1;
  crafter_jaxkey key;
  set->game->schedule_start(seed, &key);
  crafter_jstate_save_state(set->game, crafter_jlevel_state(set, i), seed, 1, key, out);
}

uint32_t crafter_jlevel_crc(const crafter_jgame *g, const void *state) {
  uint8_t *saved = malloc(crafter_jstate_bytes(g));
  if (!saved) return 0;
  crafter_jstate_save_state(g, state, 0, 0, (crafter_jaxkey){{0, 0}}, saved);
  uint32_t crc = crafter_crc32(saved + CRAFTER_JSTATE_HEADER_BYTES, 4 * (size_t)g->state_words);
  free(saved);
  return crc;
}

static void encode_header(const crafter_jlevel_set *set, uint64_t packed, uint64_t raw,
                          uint32_t payload_crc, uint8_t out[CRAFTER_LEVELS_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_LEVELS_HEADER_BYTES);
  memcpy(out, CRAFTER_LEVELS_MAGIC, 8);
  crafter_put_u32(out + 8, CRAFTER_JLEVELS_VERSION);
  crafter_put_u32(out + 12, CRAFTER_LEVELS_HEADER_BYTES);
  crafter_put_u32(out + 16, (uint32_t)set->count);
  const crafter_jgame *g = set->game;
  crafter_put_u32(out + 20, (uint32_t)g->map_columns);
  crafter_put_u32(out + 24, (uint32_t)g->map_rows);
  crafter_put_u32(out + 28, (uint32_t)g->view_columns);
  crafter_put_u32(out + 32, (uint32_t)g->view_rows);
  crafter_put_i64(out + 48, set->seed);
  crafter_put_i64(out + 56, set->first);
  crafter_put_u64(out + 64, packed);
  crafter_put_u64(out + 72, raw);
  crafter_put_u32(out + 80, payload_crc);
  crafter_put_u32(out + 84, (uint32_t)g->game);
  const char *name = crafter_jgame_info(g)->name;
  memcpy(out + GAME_NAME_AT, name, strlen(name));
  crafter_put_u32(out + 124, crafter_crc32(out, 124));
}

int crafter_jlevels_save(const crafter_jlevel_set *set, const char *path, char *error,
                         size_t error_size) {
  const size_t LEVEL_BYTES = level_bytes(set->game);
  uint8_t *level = malloc(LEVEL_BYTES);
  uint8_t piece[1 << 16];
  size_t capacity = 1 << 20, packed = 0;
  uint8_t *out = malloc(capacity);
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (!level || !out || deflateInit(&stream, 6) != Z_OK) {
    free(level);
    free(out);
    return crafter_fail(error, error_size, "out of memory writing %s", path);
  }
  uint32_t crc = crafter_crc32(NULL, 0);
  uint64_t raw = 0;
  int failed = 0;
  for (int i = 0; i <= set->count && !failed; i++) {
    int last = i == set->count;
    if (!last) {
      crafter_put_i64(level, set->first + i);
      crafter_put_u32(level + 8, set->keys[i].word[0]);
      crafter_put_u32(level + 12, set->keys[i].word[1]);
      save_level(set, i, level + 16);
      crc = crafter_crc32_update(crc, level, LEVEL_BYTES);
      raw += LEVEL_BYTES;
    }
    stream.next_in = level;
    stream.avail_in = last ? 0 : LEVEL_BYTES;
    int result;
    do {
      stream.next_out = piece;
      stream.avail_out = sizeof piece;
      result = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
      size_t made = sizeof piece - stream.avail_out;
      if (packed + made > capacity) {
        while (packed + made > capacity) capacity *= 2;
        uint8_t *grown = realloc(out, capacity);
        if (!grown) {
          failed = 1;
          break;
        }
        out = grown;
      }
      memcpy(out + packed, piece, made);
      packed += made;
    } while (stream.avail_out == 0 || (last && result != Z_STREAM_END));
  }
  deflateEnd(&stream);
  free(level);
  if (failed) {
    free(out);
    return crafter_fail(error, error_size, "out of memory writing %s", path);
  }
  uint8_t header[CRAFTER_LEVELS_HEADER_BYTES];
  encode_header(set, packed, raw, crc, header);
  int status = 0;
  if (strcmp(path, "-") == 0) {
    if (fwrite(header, 1, sizeof header, stdout) != sizeof header ||
        fwrite(out, 1, packed, stdout) != packed || fflush(stdout) != 0)
      status = crafter_fail(error, error_size, "cannot write the levels to standard output: %s",
                            strerror(errno ? errno : EIO));
  } else {
    crafter_outfile file;
    if (crafter_outfile_open(&file, path, error, error_size) < 0) {
      status = -1;
    } else if (fwrite(header, 1, sizeof header, file.file) != sizeof header ||
               fwrite(out, 1, packed, file.file) != packed) {
      status = crafter_fail(error, error_size, "cannot write %s: %s", path,
                            strerror(errno ? errno : EIO));
      crafter_outfile_abort(&file);
    } else if (crafter_outfile_commit(&file, error, error_size) < 0) {
      status = -1;
    }
  }
  free(out);
  return status;
}

int crafter_jlevels_parse(crafter_jlevel_set *set, const crafter_jgame *g, const uint8_t *bytes,
                          size_t size, const char *name, char *error, size_t error_size) {
  memset(set, 0, sizeof(*set));
  set->game = g;
  const size_t LEVEL_BYTES = level_bytes(g);
  long version = crafter_levels_header_version(bytes, size, name, error, error_size);
  if (version < 0) return -1;
  const char *ours = crafter_jgame_info(g)->name;
  if (version == CRAFTER_LEVELS_VERSION)
    return crafter_fail(error, error_size, "%s: a level file of crafter, not of %s", name, ours);
  if (version != CRAFTER_JLEVELS_VERSION)
    return crafter_fail(error, error_size,
                        "%s: a level file of version %ld; this build reads versions %d and %d",
                        name, version, CRAFTER_LEVELS_VERSION, CRAFTER_JLEVELS_VERSION);
  uint32_t game = crafter_get_u32(bytes + 84);
  if (game != (uint32_t)g->game) {
    const crafter_game_info *info = crafter_game_info_of((int)game);
    if (info)
      return crafter_fail(error, error_size, "%s: a level file of %s, not of %s", name,
                          info->name, ours);
    return crafter_fail(error, error_size, "%s: a level file of game number %u, unknown here",
                        name, game);
  }
  char expected[GAME_NAME_BYTES] = {0};
  memcpy(expected, ours, strlen(ours));
  uint32_t count = crafter_get_u32(bytes + 16);
  int64_t seed = crafter_get_i64(bytes + 48), first = crafter_get_i64(bytes + 56);
  uint64_t packed = crafter_get_u64(bytes + 64), raw = crafter_get_u64(bytes + 72);
  uint32_t payload_crc = crafter_get_u32(bytes + 80);
  int reserved = 0;
  for (int i = 36; i < 48; i++) reserved |= bytes[i];
  for (int i = GAME_NAME_AT + GAME_NAME_BYTES; i < 124; i++) reserved |= bytes[i];
  const char *wrong = NULL;
  char area[96];
  if (crafter_get_u32(bytes + 12) != CRAFTER_LEVELS_HEADER_BYTES)
    wrong = "its header is not 128 bytes";
  else if (memcmp(bytes + GAME_NAME_AT, expected, GAME_NAME_BYTES) != 0)
    wrong = "its game's name is not its game number's";
  else if (reserved)
    wrong = "reserved bytes of the header are set";
  else if (count < 1 || count > CRAFTER_LEVELS_MAX)
    wrong = "its level count is out of range";
  else if (crafter_get_u32(bytes + 20) != (uint32_t)g->map_columns ||
           crafter_get_u32(bytes + 24) != (uint32_t)g->map_rows ||
           crafter_get_u32(bytes + 28) != (uint32_t)g->view_columns ||
           crafter_get_u32(bytes + 32) != (uint32_t)g->view_rows)
    wrong = area_wrong(g, area, sizeof area);
  else if (seed < CRAFTER_SEED_MIN || seed > CRAFTER_SEED_MAX)
    wrong = "its seed is out of range";
  else if (first < 1 || first > (int64_t)CRAFTER_EPISODE_MAX - (count - 1))
    wrong = "its levels are not all numbers from 1 to 2**31-1";
  else if (packed != size - CRAFTER_LEVELS_HEADER_BYTES)
    wrong = packed > size - CRAFTER_LEVELS_HEADER_BYTES ? "it is cut short"
                                                       : "it has bytes after its levels";
  else if (raw != (uint64_t)count * LEVEL_BYTES)
    wrong = "its levels' size is not that of its count";
  if (wrong) return crafter_fail(error, error_size, "%s: %s", name, wrong);
  if (raw / 1032 > packed) /* deflate's best ratio */
    return crafter_fail(error, error_size, "%s: %llu bytes cannot compress into %llu", name,
                        (unsigned long long)raw, (unsigned long long)packed);
  set->seed = seed;
  set->first = first;
  if (allocate(set, (int)count, error, error_size) < 0) return -1;
  set->seed = seed;
  set->first = first;
  uint8_t *level = malloc(LEVEL_BYTES);
  void *env = calloc(1, g->env_size);
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (!level || !env || inflateInit(&stream) != Z_OK) {
    free(level);
    free(env);
    crafter_jlevels_free(set);
    return crafter_fail(error, error_size, "out of memory reading %s", name);
  }
  stream.next_in = (uint8_t *)(uintptr_t)(bytes + CRAFTER_LEVELS_HEADER_BYTES);
  stream.avail_in = (uInt)packed;
  uint32_t crc = crafter_crc32(NULL, 0);
  char reason[300] = "";
  int status = 0;
  for (uint32_t i = 0; i < count && status == 0; i++) {
    stream.next_out = level;
    stream.avail_out = LEVEL_BYTES;
    int result = Z_OK;
    while (stream.avail_out > 0 && result == Z_OK) result = inflate(&stream, Z_NO_FLUSH);
    if (stream.avail_out > 0) {
      status = crafter_fail(error, error_size, "%s: level %u: the levels do not decompress", name,
                            i + 1);
      break;
    }
    crc = crafter_crc32_update(crc, level, LEVEL_BYTES);
    int64_t number = crafter_get_i64(level);
    crafter_jaxkey key = {{crafter_get_u32(level + 8), crafter_get_u32(level + 12)}};
    crafter_jaxkey expected_key = crafter_jlevel_key(g, seed, first + i);
    crafter_jaxkey schedule;
    g->schedule_start(seed + first + i - 1, &schedule);
    crafter_jenv_fields f = g->fields(env);
    if (number != first + i)
      snprintf(reason, sizeof reason, "its number is %lld, not the set's next, %lld",
               (long long)number, (long long)(first + i));
    else if (key.word[0] != expected_key.word[0] || key.word[1] != expected_key.word[1])
      snprintf(reason, sizeof reason, "its key is not the reset key of seed %lld",
               (long long)(seed + first + i - 1));
    else if (crafter_jstate_load(g, env, level + 16, crafter_jstate_bytes(g), reason,
                                 sizeof reason) < 0)
      ;
    else if (*f.seed != seed + number - 1 || *f.episode != 1 ||
             f.key->word[0] != schedule.word[0] || f.key->word[1] != schedule.word[1])
      snprintf(reason, sizeof reason,
               "its state is not the start of seed %lld (seed, episode or key differ)",
               (long long)(seed + number - 1));
    else {
      memcpy(crafter_jlevel_state(set, (int)i), g->state(env), g->state_size);
      set->keys[i] = key;
      continue;
    }
    status = crafter_fail(error, error_size, "%s: level %lld: %s", name, (long long)(first + i),
                          reason);
  }
  if (status == 0) {
    uint8_t extra;
    stream.next_out = &extra;
    stream.avail_out = 1;
    int result = inflate(&stream, Z_FINISH);
    if (result != Z_STREAM_END || stream.avail_in != 0)
      status = crafter_fail(error, error_size, "%s: the levels do not decompress to their size",
                            name);
    else if (crc != payload_crc)
      status = crafter_fail(error, error_size, "%s: the levels' checksum does not match", name);
  }
  inflateEnd(&stream);
  free(level);
  free(env);
  if (status < 0) crafter_jlevels_free(set);
  return status;
}

int crafter_jlevels_load(crafter_jlevel_set *set, const crafter_jgame *g, const char *path,
                         char *error, size_t error_size) {
  memset(set, 0, sizeof(*set));
  FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!file) return crafter_fail(error, error_size, "cannot open %s: %s", path, strerror(errno));
  size_t capacity = 1 << 16, size = 0;
  uint8_t *bytes = malloc(capacity);
  int failed = !bytes;
  while (!failed) {
    if (size == capacity) {
      uint8_t *grown = capacity > ((size_t)1 << 40) ? NULL : realloc(bytes, capacity * 2);
      if (!grown) {
        failed = 1;
        break;
      }
      bytes = grown;
      capacity *= 2;
    }
    size_t got = fread(bytes + size, 1, capacity - size, file);
    size += got;
    if (got == 0) break;
  }
  int read_error = ferror(file);
  if (file != stdin) fclose(file);
  int status;
  if (failed)
    status = crafter_fail(error, error_size, "out of memory reading %s", path);
  else if (read_error)
    status = crafter_fail(error, error_size, "cannot read %s", path);
  else
    status = crafter_jlevels_parse(set, g, bytes, size, path, error, error_size);
  free(bytes);
  return status;
}

void crafter_jlevels_write_list(FILE *out, const crafter_jlevel_set *set) {
  const crafter_jgame *g = set->game;
  fprintf(out, "levels %d seed %lld first %lld game %s\n", set->count, (long long)set->seed,
          (long long)set->first, crafter_jgame_info(g)->name);
  for (int i = 0; i < set->count; i++) {
    const void *state = crafter_jlevel_state(set, i);
    int32_t row, column;
    int facing[2];
    g->position(state, &row, &column, facing);
    fprintf(out, "level %lld seed %lld key %08x%08x crc %08x player %d,%d\n",
            (long long)(set->first + i), (long long)(set->seed + set->first + i - 1),
            set->keys[i].word[0], set->keys[i].word[1], crafter_jlevel_crc(g, state), column, row);
  }
}

void crafter_jlevels_start(void *env, const crafter_jlevel_set *set, int index) {
  const crafter_jgame *g = set->game;
  memcpy(g->state(env), crafter_jlevel_state(set, index), g->state_size);
  crafter_jenv_fields f = g->fields(env);
  *f.world_key = set->keys[index];
  *f.episode = set->first + index;
  *f.reset_due = 0;
}

crafter_level_picker *crafter_jlevel_pickers_new(const crafter_jlevel_set *set, int order,
                                                 int envs) {
  crafter_level_set shape;
  memset(&shape, 0, sizeof shape);
  shape.seed = set->seed;
  shape.count = set->count;
  return crafter_level_pickers_new(&shape, order, envs);
}
