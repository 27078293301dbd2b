#include "run/levels.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "base/memory.h"
#include "base/outfile.h"

/* ---- names, checksums ---- */

int crafter_level_order_from_name(const char *name) {
  if (strcmp(name, "random") == 0) return CRAFTER_LEVEL_ORDER_RANDOM;
  if (strcmp(name, "sequential") == 0) return CRAFTER_LEVEL_ORDER_SEQUENTIAL;
  return -1;
}

const char *crafter_level_order_name(int order) {
  return order == CRAFTER_LEVEL_ORDER_SEQUENTIAL ? "sequential" : "random";
}

/* ---- memory ---- */

static size_t cells_of(const crafter_level_set *set) {
  return (size_t)set->area[0] * (size_t)set->area[1];
}

static size_t chunks_of(const crafter_level_set *set) {
  return (size_t)((set->area[0] + set->chunk[0] - 1) / set->chunk[0]) *
         (size_t)((set->area[1] + set->chunk[1] - 1) / set->chunk[1]);
}

/* Bytes of one level's fixed-size arrays (the grid and the chunks'). */
static size_t arrays_bytes(const crafter_level_set *set) {
  size_t chunks = chunks_of(set);
  size_t bytes = cells_of(set) + chunks * sizeof(int16_t) +
                 chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t);
  return (bytes + 15) & ~(size_t)15;
}

/* Room for `count` levels' fixed-size arrays; objects come later. */
static int allocate(crafter_level_set *set, int count) {
  size_t chunks = chunks_of(set);
  size_t per_level = arrays_bytes(set);
  set->levels = calloc((size_t)count, sizeof(crafter_level));
  set->memory = calloc((size_t)count, per_level);
  if (!set->levels || !set->memory) return -1;
  set->count = count;
  uint8_t *at = set->memory;
  for (int i = 0; i < count; i++, at += per_level) {
    crafter_level *level = &set->levels[i];
    level->chunk_materials = (uint16_t *)(void *)at;
    level->chunk_order = (int16_t *)(void *)(at + chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t));
    level->materials = at + chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t) +
                       chunks * sizeof(int16_t);
  }
  return 0;
}

/* The objects a generated level of this area is taken to hold, for the
 * estimate of a set's memory before it is made: Crafter's 64x64 worlds
 * start with about 50, one for every 80 cells; this allows one for every
 * 64. */
static uint64_t objects_estimate(const crafter_level_set *set) {
  return cells_of(set) / 64 + 1;
}

uint64_t crafter_levels_memory(const crafter_level_set *set, int64_t count, uint64_t objects) {
  /* Each level's objects are an allocation of their own: a few words of
   * the allocator's besides. */
  uint64_t per_level = sizeof(crafter_level) + arrays_bytes(set) + 32;
  return (uint64_t)count * per_level + objects * sizeof(crafter_object);
}

/* Refuses, before anything is allocated, `count` levels that with `more`
 * bytes besides would take more memory than the process can have.
 * Returns 0, or -1 with a sentence saying how much they would take. */
static int check_memory(const crafter_level_set *set, int64_t count, uint64_t objects,
                        uint64_t more, char *error, size_t error_size) {
  char what[96];
  snprintf(what, sizeof(what), "%lld levels of a %dx%d area", (long long)count, set->area[0],
           set->area[1]);
  return crafter_memory_check(crafter_levels_memory(set, count, objects) + more, what, error,
                              error_size);
}

void crafter_levels_free(crafter_level_set *set) {
  if (set->levels)
    for (int i = 0; i < set->count; i++) free(set->levels[i].objects);
  free(set->levels);
  free(set->memory);
  memset(set, 0, sizeof(*set));
}

int crafter_levels_find(const crafter_level_set *set, int64_t episode) {
  if (episode < set->first || episode - set->first >= set->count) return -1;
  return (int)(episode - set->first);
}

static void write_list_header(FILE *out, const crafter_level_set *set) {
  fprintf(out,
          "# %d levels of seed %lld: episodes %lld to %lld; area %dx%d, view %dx%d, "
          "configuration %08x\n",
          set->count, (long long)set->seed, (long long)set->first,
          (long long)set->first + set->count - 1, set->area[0], set->area[1], set->view[0],
          set->view[1], set->config_crc);
  fprintf(out, "# level world_seed cows zombies skeletons\n");
}

static void write_list_line(FILE *out, const crafter_level *level) {
  int kinds[CRAFTER_OBJECT_KIND_COUNT] = {0};
  for (int slot = 0; slot < level->object_count; slot++) kinds[level->objects[slot].kind]++;
  fprintf(out, "%lld %lld %d %d %d\n", (long long)level->episode, (long long)level->world_seed,
          kinds[CRAFTER_COW], kinds[CRAFTER_ZOMBIE], kinds[CRAFTER_SKELETON]);
}

void crafter_levels_write_list(FILE *out, const crafter_level_set *set) {
  write_list_header(out, set);
  for (int i = 0; i < set->count; i++) write_list_line(out, &set->levels[i]);
}

/* ---- start states ---- */

static int take_state(const crafter_level_set *set, crafter_level *level, const crafter_env *env) {
  const crafter_game *game = &env->game;
  const crafter_world *world = &game->world;
  size_t chunks = chunks_of(set);
  level->episode = env->episode;
  level->world_seed = env->world_seed;
  memcpy(level->materials, world->materials, cells_of(set));
  /* Entries past the touched ones are left from earlier episodes. */
  memset(level->chunk_order, 0, chunks * sizeof(int16_t));
  memcpy(level->chunk_order, world->chunk_order, (size_t)world->chunk_touched * sizeof(int16_t));
  memcpy(level->chunk_materials, world->chunk_materials,
         chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t));
  level->chunk_touched = world->chunk_touched;
  level->object_count = world->object_count;
  level->objects = malloc((size_t)world->object_count * sizeof(crafter_object));
  if (!level->objects) return -1;
  memcpy(level->objects, world->objects, (size_t)world->object_count * sizeof(crafter_object));
  level->rng = game->rng;
  level->player = *crafter_game_player_const(game, 0);
  level->daylight = game->daylight;
  level->action = game->action;
  return 0;
}

int crafter_levels_start(crafter_env *env, const crafter_level_set *set, int index) {
  const crafter_level *level = &set->levels[index];
  crafter_game *game = &env->game;
  crafter_world *world = &game->world;
  /* Only the cells under objects are set in object_at: clearing those
   * and setting the level's costs a few hundred stores, not a grid. */
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] = 0;
  }
  if (crafter_world_reserve(world, level->object_count) < 0) return -1;
  memcpy(world->objects, level->objects, (size_t)level->object_count * sizeof(crafter_object));
  world->object_count = level->object_count;
  for (int slot = 0; slot < level->object_count; slot++) {
    const crafter_object *object = &level->objects[slot];
    world->object_at[(size_t)object->x * (size_t)world->height + (size_t)object->y] =
        (uint32_t)slot + 1;
  }
  size_t chunks = (size_t)world->chunks_x * (size_t)world->chunks_y;
  memcpy(world->materials, level->materials, (size_t)world->width * (size_t)world->height);
  memcpy(world->chunk_materials, level->chunk_materials,
         chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t));
  memcpy(world->chunk_order, level->chunk_order, chunks * sizeof(int16_t));
  memset(world->chunk_seen, 0, chunks);
  for (int i = 0; i < level->chunk_touched; i++) world->chunk_seen[level->chunk_order[i]] = 1;
  world->chunk_touched = level->chunk_touched;
  world->change_count = 0;
  world->removed_pending = 0;
  game->rng = level->rng;
  *crafter_game_player(game, 0) = level->player;
  game->player_count = 1;
  game->present = 1;
  game->daylight = level->daylight;
  game->action = level->action;
  game->step = 0;
  env->params.seed = set->seed;
  crafter_env_begin_restored(env, level->episode, level->world_seed);
  return 0;
}

typedef struct generator {
  crafter_level_set *set;
  const crafter_params *params;
  const crafter_config *config;
  int from, to; /* levels [from, to) */
  int failed;
  char error[256];
} generator;

static void *generate_range(void *argument) {
  generator *job = argument;
  crafter_env env;
  if (crafter_env_init_config(&env, job->params, job->config, job->error, sizeof(job->error)) <
      0) {
    job->failed = 1;
    return NULL;
  }
  crafter_env_set_next_episode(&env, job->set->first + job->from);
  for (int i = job->from; i < job->to && !job->failed; i++)
    if (crafter_env_reset(&env) < 0 || take_state(job->set, &job->set->levels[i], &env) < 0) {
      snprintf(job->error, sizeof(job->error), "out of memory");
      job->failed = 1;
    }
  crafter_env_fini(&env);
  return NULL;
}

/* The parameters of a set to generate, checked; no level yet. */
static int shape_of(crafter_level_set *set, const crafter_params *params,
                    const crafter_config *config, int64_t first, int count, char *error,
                    size_t error_size) {
  memset(set, 0, sizeof(*set));
  if (count < 1 || count > CRAFTER_LEVELS_MAX)
    return crafter_fail(error, error_size, "a level set holds 1 to %d levels, not %d",
                        CRAFTER_LEVELS_MAX, count);
  if (first < 1 || first > CRAFTER_EPISODE_MAX - (count - 1))
    return crafter_fail(error, error_size,
                        "levels %lld to %lld are not all episodes from 1 to %d",
                        (long long)first, (long long)first + count - 1, CRAFTER_EPISODE_MAX);
  if (crafter_params_check(params, error, error_size) < 0) return -1;
  set->seed = params->seed;
  set->first = first;
  set->count = count;
  set->area[0] = params->area[0], set->area[1] = params->area[1];
  set->view[0] = params->view[0], set->view[1] = params->view[1];
  set->chunk[0] = config->chunk[0], set->chunk[1] = config->chunk[1];
  set->config_crc = crafter_config_crc(config);
  return 0;
}

/* Fills the set's levels, allocated, on `threads` threads. */
static int fill_levels(crafter_level_set *set, const crafter_params *params,
                       const crafter_config *config, int threads, char *error,
                       size_t error_size) {
  int count = set->count;
  if (threads < 1) threads = 1;
  if (threads > count) threads = count;
  generator jobs[64];
  if (threads > 64) threads = 64;
  pthread_t handles[64];
  int started = 0;
  for (int t = 0; t < threads; t++) {
    jobs[t] = (generator){set, params, config, (int)((long long)count * t / threads),
                          (int)((long long)count * (t + 1) / threads), 0, ""};
    if (t > 0 && pthread_create(&handles[t], NULL, generate_range, &jobs[t]) == 0)
      started = t;
    else if (t > 0)
      generate_range(&jobs[t]);
  }
  generate_range(&jobs[0]);
  for (int t = 1; t <= started; t++) pthread_join(handles[t], NULL);
  for (int t = 0; t < threads; t++)
    if (jobs[t].failed) return crafter_fail(error, error_size, "%s", jobs[t].error);
  return 0;
}

int crafter_levels_generate(crafter_level_set *set, const crafter_params *params,
                            const crafter_config *config, int64_t first, int count, int threads,
                            char *error, size_t error_size) {
  if (!config) config = &crafter_config_builtin;
  if (shape_of(set, params, config, first, count, error, error_size) < 0 ||
      check_memory(set, count, (uint64_t)count * objects_estimate(set), 0, error, error_size) <
          0) {
    memset(set, 0, sizeof(*set));
    return -1;
  }
  if (allocate(set, count) < 0) {
    crafter_levels_free(set);
    return crafter_fail(error, error_size, "out of memory for %d levels", count);
  }
  if (fill_levels(set, params, config, threads, error, error_size) < 0) {
    crafter_levels_free(set);
    return -1;
  }
  return 0;
}

/* Levels generated a batch at a time, each handed to `take` in order
 * and then forgotten: memory for one batch, whatever the count. */
typedef int (*level_taker)(void *context, const crafter_level_set *shape,
                           const crafter_level *level, char *error, size_t error_size);

enum { LEVELS_PER_THREAD_BATCH = 64 };

static int generate_each(const crafter_level_set *shape, const crafter_params *params,
                         const crafter_config *config, int threads, level_taker take,
                         void *context, char *error, size_t error_size) {
  if (threads < 1) { /* one a core, at most 16 */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
  }
  if (threads > 64) threads = 64;
  int most = LEVELS_PER_THREAD_BATCH * threads;
  if (most > shape->count) most = shape->count;
  crafter_level_set batch = *shape;
  if (allocate(&batch, most) < 0) {
    crafter_levels_free(&batch);
    return crafter_fail(error, error_size, "out of memory for %d levels", most);
  }
  int status = 0;
  for (int done = 0; done < shape->count && status == 0; done += batch.count) {
    batch.first = shape->first + done;
    batch.count = shape->count - done < most ? shape->count - done : most;
    status = fill_levels(&batch, params, config, threads, error, error_size);
    for (int i = 0; i < batch.count; i++) {
      if (status == 0) status = take(context, shape, &batch.levels[i], error, error_size);
      free(batch.levels[i].objects);
      batch.levels[i].objects = NULL;
    }
  }
  crafter_levels_free(&batch);
  return status;
}

static int take_line(void *context, const crafter_level_set *shape, const crafter_level *level,
                     char *error, size_t error_size) {
  (void)shape, (void)error, (void)error_size;
  write_list_line(context, level);
  return 0;
}

int crafter_levels_generate_list(FILE *out, const crafter_params *params,
                                 const crafter_config *config, int64_t first, int count,
                                 int threads, char *error, size_t error_size) {
  if (!config) config = &crafter_config_builtin;
  crafter_level_set shape;
  if (shape_of(&shape, params, config, first, count, error, error_size) < 0) return -1;
  write_list_header(out, &shape);
  return generate_each(&shape, params, config, threads, take_line, out, error, error_size);
}

int crafter_levels_check(const crafter_level_set *set, const crafter_params *params,
                         const crafter_config *config, char *error, size_t error_size) {
  if (!config) config = &crafter_config_builtin;
  if (set->area[0] != params->area[0] || set->area[1] != params->area[1])
    return crafter_fail(error, error_size, "the levels have an area of %dx%d, the envs %dx%d",
                        set->area[0], set->area[1], params->area[0], params->area[1]);
  if (set->view[0] != params->view[0] || set->view[1] != params->view[1])
    return crafter_fail(error, error_size, "the levels were made for a view of %dx%d, the envs have %dx%d",
                        set->view[0], set->view[1], params->view[0], params->view[1]);
  if (set->config_crc != crafter_config_crc(config))
    return crafter_fail(error, error_size,
                        "the levels were made with another configuration (checksum %08x, the "
                        "envs' %08x)",
                        set->config_crc, crafter_config_crc(config));
  return 0;
}

/* ---- the picker ---- */

void crafter_level_picker_init(crafter_level_picker *picker, const crafter_level_set *set,
                               int order, int env_index, int envs) {
  memset(picker, 0, sizeof(*picker));
  picker->order = order;
  picker->count = set->count;
  picker->state = crafter_mix64((uint64_t)set->seed ^ 0x6c6576656c73ULL /* "levels" */) +
                  (uint64_t)env_index * CRAFTER_SPLITMIX_GAMMA;
  picker->next = env_index % set->count;
  picker->stride = envs > 0 ? envs : 1;
}

crafter_level_picker *crafter_level_pickers_new(const crafter_level_set *set, int order, int envs) {
  crafter_level_picker *pickers = calloc((size_t)envs, sizeof(*pickers));
  for (int i = 0; pickers && i < envs; i++)
    crafter_level_picker_init(&pickers[i], set, order, i, envs);
  return pickers;
}

int crafter_level_pick(crafter_level_picker *picker) {
  if (picker->order == CRAFTER_LEVEL_ORDER_SEQUENTIAL) {
    int index = (int)picker->next;
    picker->next = (picker->next + picker->stride) % picker->count;
    return index;
  }
  /* splitmix64 draws; those in the incomplete last block of `count` are
   * drawn again, so every level is equally likely. */
  uint64_t count = (uint64_t)picker->count;
  uint64_t limit = UINT64_MAX - UINT64_MAX % count;
  for (;;) {
    picker->state += CRAFTER_SPLITMIX_GAMMA;
    uint64_t draw = crafter_mix64(picker->state);
    if (draw < limit) return (int)(draw % count);
  }
}

/* ---- the file ---- */

/* Bytes of one level in the payload before its objects and grid. */
static size_t fixed_bytes(const crafter_level_set *set) {
  return 8 + 8 + 8 + 4 + 4 + 4 * CRAFTER_MT_N + 4 * CRAFTER_ITEM_COUNT +
         4 * CRAFTER_ACHIEVEMENT_COUNT + 4 * 4 + 8 * 4 + 4 + 2 * chunks_of(set) + 4;
}
#define OBJECT_BYTES 20
/* The most any count, health or counter of a start state may be: far
 * above what a game reaches, far below where adding to it overflows. */
#define COUNT_LIMIT 1000000

static size_t level_bytes(const crafter_level_set *set, const crafter_level *level) {
  return fixed_bytes(set) + (size_t)level->object_count * OBJECT_BYTES + cells_of(set);
}

static uint8_t *encode_level(const crafter_level_set *set, const crafter_level *level,
                             uint8_t *at) {
  crafter_put_u64(at, (uint64_t)level->episode), at += 8;
  crafter_put_u64(at, (uint64_t)level->world_seed), at += 8;
  crafter_put_f64(at, level->daylight), at += 8;
  crafter_put_u32(at, (uint32_t)level->action), at += 4;
  crafter_put_u32(at, (uint32_t)level->rng.position), at += 4;
  for (int i = 0; i < CRAFTER_MT_N; i++) crafter_put_u32(at, level->rng.state[i]), at += 4;
  const crafter_player *player = &level->player;
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++) crafter_put_u32(at, (uint32_t)player->inventory[i]), at += 4;
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    crafter_put_u32(at, (uint32_t)player->achievements[i]), at += 4;
  crafter_put_u32(at, (uint32_t)player->facing_x), at += 4;
  crafter_put_u32(at, (uint32_t)player->facing_y), at += 4;
  crafter_put_u32(at, (uint32_t)player->sleeping), at += 4;
  crafter_put_u32(at, (uint32_t)player->last_health), at += 4;
  crafter_put_f64(at, player->hunger), at += 8;
  crafter_put_f64(at, player->thirst), at += 8;
  crafter_put_f64(at, player->fatigue), at += 8;
  crafter_put_f64(at, player->recover), at += 8;
  crafter_put_u32(at, (uint32_t)level->chunk_touched), at += 4;
  for (size_t i = 0; i < chunks_of(set); i++) crafter_put_u16(at, (uint16_t)level->chunk_order[i]), at += 2;
  crafter_put_u32(at, (uint32_t)level->object_count), at += 4;
  for (int i = 0; i < level->object_count; i++) {
    const crafter_object *object = &level->objects[i];
    at[0] = object->kind;
    at[1] = (uint8_t)object->facing_x;
    at[2] = (uint8_t)object->facing_y;
    at[3] = 0;
    crafter_put_u32(at + 4, (uint32_t)object->x);
    crafter_put_u32(at + 8, (uint32_t)object->y);
    crafter_put_u32(at + 12, (uint32_t)object->health);
    crafter_put_u32(at + 16, (uint32_t)object->counter);
    at += OBJECT_BYTES;
  }
  memcpy(at, level->materials, cells_of(set));
  return at + cells_of(set);
}

static void encode_header(const crafter_level_set *set, uint64_t packed, uint64_t raw,
                          uint32_t payload_crc, uint8_t out[CRAFTER_LEVELS_HEADER_BYTES]) {
  memset(out, 0, CRAFTER_LEVELS_HEADER_BYTES);
  memcpy(out, CRAFTER_LEVELS_MAGIC, 8);
  crafter_put_u32(out + 8, CRAFTER_LEVELS_VERSION);
  crafter_put_u32(out + 12, CRAFTER_LEVELS_HEADER_BYTES);
  crafter_put_u32(out + 16, (uint32_t)set->count);
  crafter_put_u32(out + 20, (uint32_t)set->area[0]);
  crafter_put_u32(out + 24, (uint32_t)set->area[1]);
  crafter_put_u32(out + 28, (uint32_t)set->view[0]);
  crafter_put_u32(out + 32, (uint32_t)set->view[1]);
  crafter_put_u32(out + 36, (uint32_t)set->chunk[0]);
  crafter_put_u32(out + 40, (uint32_t)set->chunk[1]);
  crafter_put_u32(out + 44, set->config_crc);
  crafter_put_u64(out + 48, (uint64_t)set->seed);
  crafter_put_u64(out + 56, (uint64_t)set->first);
  crafter_put_u64(out + 64, packed);
  crafter_put_u64(out + 72, raw);
  crafter_put_u32(out + 80, payload_crc);
  crafter_put_u32(out + 124, crafter_crc32(out, 124));
}

/* A level file written as its levels come, in memory for one level
 * whatever their number: each is deflated as it comes, and the header,
 * which holds their sizes and checksum, is written last -- over the blank
 * one left at the start of the file when the file can be rewritten there
 * (a regular file, not appended to), else before the compressed levels,
 * kept meanwhile in a temporary file (a pipe, a device, standard output).
 * The bytes are those of deflating all the levels at once. */
typedef struct level_writer {
  const char *path;
  FILE *file;            /* the destination */
  crafter_outfile out;   /* it, unless standard output */
  FILE *payload;         /* where the compressed levels go: file, or a temporary file */
  z_stream stream;
  int deflating;
  uint32_t crc;
  uint64_t raw;
  uint8_t *level;        /* one level encoded */
  size_t level_capacity;
  uint8_t piece[1 << 16];
} level_writer;

/* A write that failed, to the temporary file or the destination, with
 * the reason. */
static int write_failure(const level_writer *writer, int temporary, int saved, char *error,
                         size_t error_size) {
  if (temporary)
    return crafter_fail(error, error_size, "cannot write a temporary file for %s: %s",
                        writer->path, strerror(saved ? saved : EIO));
  if (writer->file == stdout)
    return crafter_fail(error, error_size, "cannot write the levels to standard output: %s",
                        strerror(saved ? saved : EIO));
  return crafter_fail(error, error_size, "cannot write %s: %s", writer->path,
                      strerror(saved ? saved : EIO));
}

static void writer_close(level_writer *writer) {
  if (writer->deflating) deflateEnd(&writer->stream);
  if (writer->payload && writer->payload != writer->file) fclose(writer->payload);
  if (writer->file && writer->file != stdout) crafter_outfile_abort(&writer->out);
  free(writer->level);
  free(writer);
}

static level_writer *writer_open(const char *path, char *error, size_t error_size) {
  level_writer *writer = calloc(1, sizeof(*writer));
  if (!writer) {
    crafter_fail(error, error_size, "out of memory writing %s", path);
    return NULL;
  }
  writer->path = path;
  if (strcmp(path, "-") == 0) {
    writer->file = stdout;
  } else if (crafter_outfile_open(&writer->out, path, error, error_size) < 0) {
    free(writer);
    return NULL;
  } else {
    writer->file = writer->out.file;
  }
  struct stat status;
  int descriptor = fileno(writer->file);
  int flags = fcntl(descriptor, F_GETFL);
  int rewritable = writer->file != stdout && fstat(descriptor, &status) == 0 &&
                   S_ISREG(status.st_mode) && flags >= 0 && !(flags & O_APPEND) &&
                   ftello(writer->file) == 0;
  if (rewritable) {
    static const uint8_t blank[CRAFTER_LEVELS_HEADER_BYTES];
    writer->payload = writer->file;
    if (fwrite(blank, 1, sizeof(blank), writer->file) != sizeof(blank)) {
      write_failure(writer, 0, errno, error, error_size);
      writer_close(writer);
      return NULL;
    }
  } else if (!(writer->payload = tmpfile())) {
    crafter_fail(error, error_size, "cannot make a temporary file for %s: %s", path,
                 strerror(errno));
    writer_close(writer);
    return NULL;
  }
  if (deflateInit(&writer->stream, 6) != Z_OK) {
    crafter_fail(error, error_size, "cannot compress the levels for %s", path);
    writer_close(writer);
    return NULL;
  }
  writer->deflating = 1;
  return writer;
}

/* Deflates the input given to the stream, writing what comes out. */
static int writer_deflate(level_writer *writer, int flush, char *error, size_t error_size) {
  int status;
  do {
    writer->stream.next_out = writer->piece;
    writer->stream.avail_out = sizeof(writer->piece);
    status = deflate(&writer->stream, flush);
    if (status == Z_STREAM_ERROR)
      return crafter_fail(error, error_size, "cannot compress the levels for %s", writer->path);
    size_t out = sizeof(writer->piece) - writer->stream.avail_out;
    if (out && fwrite(writer->piece, 1, out, writer->payload) != out)
      return write_failure(writer, writer->payload != writer->file, errno, error, error_size);
  } while (writer->stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
  return 0;
}

static int writer_add(level_writer *writer, const crafter_level_set *shape,
                      const crafter_level *level, char *error, size_t error_size) {
  size_t bytes = level_bytes(shape, level);
  if (bytes > writer->level_capacity) {
    uint8_t *grown = realloc(writer->level, bytes);
    if (!grown) return crafter_fail(error, error_size, "out of memory writing %s", writer->path);
    writer->level = grown;
    writer->level_capacity = bytes;
  }
  encode_level(shape, level, writer->level);
  writer->crc = crafter_crc32_update(writer->crc, writer->level, bytes);
  writer->raw += bytes;
  writer->stream.next_in = writer->level;
  writer->stream.avail_in = (uInt)bytes; /* a level is far below 4 GB */
  return writer_deflate(writer, Z_NO_FLUSH, error, error_size);
}

static int take_level(void *context, const crafter_level_set *shape, const crafter_level *level,
                      char *error, size_t error_size) {
  return writer_add(context, shape, level, error, error_size);
}

/* Ends the stream, writes the header and closes the file; the writer is
 * released either way. */
static int writer_finish(level_writer *writer, const crafter_level_set *shape, char *error,
                         size_t error_size) {
  if (writer_deflate(writer, Z_FINISH, error, error_size) < 0) {
    writer_close(writer);
    return -1;
  }
  uint8_t header[CRAFTER_LEVELS_HEADER_BYTES];
  encode_header(shape, writer->stream.total_out, writer->raw, writer->crc, header);
  int failed = 0;
  if (writer->payload == writer->file) {
    failed = fflush(writer->file) != 0 || fseeko(writer->file, 0, SEEK_SET) != 0 ||
             fwrite(header, 1, sizeof(header), writer->file) != sizeof(header);
  } else if (fflush(writer->payload) != 0 || ferror(writer->payload) ||
             fseeko(writer->payload, 0, SEEK_SET) != 0) {
    int saved = errno;
    crafter_fail(error, error_size, "cannot read back a temporary file for %s: %s",
                 writer->path, strerror(saved ? saved : EIO));
    writer_close(writer);
    return -1;
  } else {
    failed = fwrite(header, 1, sizeof(header), writer->file) != sizeof(header);
    size_t got;
    while (!failed && (got = fread(writer->piece, 1, sizeof(writer->piece), writer->payload)) > 0)
      failed = fwrite(writer->piece, 1, got, writer->file) != got;
    if (!failed && ferror(writer->payload)) {
      int saved = errno;
      crafter_fail(error, error_size, "cannot read back a temporary file for %s: %s",
                   writer->path, strerror(saved ? saved : EIO));
      writer_close(writer);
      return -1;
    }
  }
  if (!failed && writer->file == stdout) failed = fflush(stdout) != 0;
  if (failed) {
    write_failure(writer, 0, errno, error, error_size);
    writer_close(writer);
    return -1;
  }
  int status = 0;
  if (writer->file != stdout) {
    status = crafter_outfile_commit(&writer->out, error, error_size);
    /* Closed, and committed or removed: nothing to abort. */
    if (writer->payload == writer->file) writer->payload = NULL;
    writer->file = NULL;
  }
  writer_close(writer);
  return status;
}

int crafter_levels_save(const crafter_level_set *set, const char *path, char *error,
                        size_t error_size) {
  level_writer *writer = writer_open(path, error, error_size);
  if (!writer) return -1;
  for (int i = 0; i < set->count; i++)
    if (writer_add(writer, set, &set->levels[i], error, error_size) < 0) {
      writer_close(writer);
      return -1;
    }
  return writer_finish(writer, set, error, error_size);
}

int crafter_levels_generate_save(const crafter_params *params, const crafter_config *config,
                                 int64_t first, int count, int threads, const char *path,
                                 char *error, size_t error_size) {
  if (!config) config = &crafter_config_builtin;
  crafter_level_set shape;
  if (shape_of(&shape, params, config, first, count, error, error_size) < 0) return -1;
  level_writer *writer = writer_open(path, error, error_size);
  if (!writer) return -1;
  if (generate_each(&shape, params, config, threads, take_level, writer, error, error_size) <
      0) {
    writer_close(writer);
    return -1;
  }
  return writer_finish(writer, &shape, error, error_size);
}

/* Reads one level at `at` (with `left` bytes of payload after it) and
 * checks it; returns the bytes it took, or 0 with a reason. */
static size_t decode_level(const crafter_level_set *set, int index, const uint8_t *at,
                           size_t left, uint32_t *occupied, crafter_level *level,
                           char *error, size_t error_size) {
  size_t fixed = fixed_bytes(set), cells = cells_of(set), chunks = chunks_of(set);
  if (left < fixed + cells) {
    crafter_fail(error, error_size, "level %d is cut short", index + 1);
    return 0;
  }
  const uint8_t *start = at;
  level->episode = (int64_t)crafter_get_u64(at), at += 8;
  level->world_seed = (int64_t)crafter_get_u64(at), at += 8;
  level->daylight = crafter_get_f64(at), at += 8;
  level->action = (int)crafter_get_u32(at), at += 4;
  uint32_t position = crafter_get_u32(at);
  at += 4;
  for (int i = 0; i < CRAFTER_MT_N; i++) level->rng.state[i] = crafter_get_u32(at), at += 4;
  level->rng.position = (int)(position <= CRAFTER_MT_N ? position : 0);
  crafter_player *player = &level->player;
  int bad_count = 0;
  for (int i = 0; i < CRAFTER_ITEM_COUNT; i++) {
    player->inventory[i] = (int32_t)crafter_get_u32(at), at += 4;
    bad_count |= player->inventory[i] < 0 || player->inventory[i] > COUNT_LIMIT;
  }
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++) {
    player->achievements[i] = (int32_t)crafter_get_u32(at), at += 4;
    bad_count |= player->achievements[i] < 0 || player->achievements[i] > COUNT_LIMIT;
  }
  player->facing_x = (int32_t)crafter_get_u32(at), at += 4;
  player->facing_y = (int32_t)crafter_get_u32(at), at += 4;
  player->sleeping = (int32_t)crafter_get_u32(at), at += 4;
  player->last_health = (int32_t)crafter_get_u32(at), at += 4;
  player->hunger = crafter_get_f64(at), at += 8;
  player->thirst = crafter_get_f64(at), at += 8;
  player->fatigue = crafter_get_f64(at), at += 8;
  player->recover = crafter_get_f64(at), at += 8;
  uint32_t touched = crafter_get_u32(at);
  at += 4;
  const char *wrong = NULL;
  if (level->episode != set->first + index)
    wrong = "its episode is not the set's next";
  else if (level->world_seed != crafter_world_seed(set->seed, level->episode))
    wrong = "its world seed is not its episode's";
  else if (!(level->daylight >= 0 && level->daylight <= 1))
    wrong = "its daylight is not in [0, 1]";
  else if (level->action < 0 || level->action >= CRAFTER_ACTION_COUNT)
    wrong = "its action is out of range";
  else if (position > CRAFTER_MT_N)
    wrong = "its generator's position is out of range";
  else if (bad_count || player->last_health < -COUNT_LIMIT || player->last_health > COUNT_LIMIT)
    wrong = "the player holds a count out of range";
  else if (player->facing_x < -1 || player->facing_x > 1 || player->facing_y < -1 ||
           player->facing_y > 1 || (player->facing_x == 0) == (player->facing_y == 0))
    wrong = "the player faces no direction"; /* one of the four, each axis in -1..1 */
  else if (player->sleeping != 0 && player->sleeping != 1)
    wrong = "the player's sleeping flag is neither 0 nor 1";
  else if (!(fabs(player->hunger) <= COUNT_LIMIT) || !(fabs(player->thirst) <= COUNT_LIMIT) ||
           !(fabs(player->fatigue) <= COUNT_LIMIT) || !(fabs(player->recover) <= COUNT_LIMIT))
    wrong = "a hidden counter of the player is out of range";
  else if (touched > chunks)
    wrong = "it touched more chunks than there are";
  if (wrong) {
    crafter_fail(error, error_size, "level %d: %s", index + 1, wrong);
    return 0;
  }
  level->chunk_touched = (int)touched;
  memset(level->chunk_order, 0, chunks * sizeof(int16_t));
  uint8_t seen[INT16_MAX + 1];
  memset(seen, 0, chunks);
  for (size_t i = 0; i < chunks; i++, at += 2) {
    uint16_t chunk = crafter_get_u16(at);
    if (i >= touched) {
      if (chunk != 0) wrong = "an unused chunk entry is set";
      continue;
    }
    if (chunk >= chunks || seen[chunk]) {
      wrong = "its chunk order names a chunk twice or one that does not exist";
      continue;
    }
    seen[chunk] = 1;
    level->chunk_order[i] = (int16_t)chunk;
  }
  uint32_t objects = crafter_get_u32(at);
  at += 4;
  if (!wrong && (objects < 1 || objects > cells)) wrong = "its object count is out of range";
  if (wrong) {
    crafter_fail(error, error_size, "level %d: %s", index + 1, wrong);
    return 0;
  }
  if ((left - fixed - cells) / OBJECT_BYTES < objects) {
    crafter_fail(error, error_size, "level %d is cut short", index + 1);
    return 0;
  }
  level->objects = malloc((size_t)objects * sizeof(crafter_object));
  if (!level->objects) {
    crafter_fail(error, error_size, "out of memory for level %d", index + 1);
    return 0;
  }
  level->object_count = (int)objects;
  for (uint32_t i = 0; i < objects; i++, at += OBJECT_BYTES) {
    crafter_object *object = &level->objects[i];
    memset(object, 0, sizeof(*object));
    object->kind = at[0];
    object->facing_x = (int8_t)at[1];
    object->facing_y = (int8_t)at[2];
    object->x = (int32_t)crafter_get_u32(at + 4);
    object->y = (int32_t)crafter_get_u32(at + 8);
    object->health = (int32_t)crafter_get_u32(at + 12);
    object->counter = (int32_t)crafter_get_u32(at + 16);
    if (object->kind >= CRAFTER_OBJECT_KIND_COUNT || (i == 0) != (object->kind == CRAFTER_PLAYER))
      wrong = "an object is of no kind, or the player is not the first and only player";
    else if (at[3] != 0 || object->facing_x < -1 || object->facing_x > 1 ||
             object->facing_y < -1 || object->facing_y > 1)
      wrong = "an object faces no direction";
    else if (object->x < 0 || object->y < 0 || object->x >= set->area[0] ||
             object->y >= set->area[1])
      wrong = "an object lies outside the area";
    else if (object->health < -COUNT_LIMIT || object->health > COUNT_LIMIT ||
             object->counter < -COUNT_LIMIT || object->counter > COUNT_LIMIT)
      wrong = "an object's health or counter is out of range";
    if (wrong) break;
    uint32_t *cell = &occupied[(size_t)object->x * (size_t)set->area[1] + (size_t)object->y];
    if (*cell == (uint32_t)index + 1) {
      wrong = "two objects share a cell";
      break;
    }
    *cell = (uint32_t)index + 1;
  }
  if (!wrong) {
    memcpy(level->materials, at, cells);
    for (size_t i = 0; i < cells && !wrong; i++)
      if (at[i] == CRAFTER_NONE || at[i] >= CRAFTER_MATERIAL_COUNT)
        wrong = "a cell holds no material";
    at += cells;
  }
  if (wrong) {
    crafter_fail(error, error_size, "level %d: %s", index + 1, wrong);
    return 0;
  }
  return (size_t)(at - start);
}

/* The chunk counts of a level's grid, as the world keeps them: counted
 * by the world itself, on a scratch world of the set's area. */
static void count_chunks(crafter_world *scratch, crafter_level *level) {
  crafter_world *world = scratch;
  memcpy(world->materials, level->materials, (size_t)world->width * (size_t)world->height);
  crafter_world_recount(world);
  memcpy(level->chunk_materials, world->chunk_materials,
         (size_t)world->chunks_x * (size_t)world->chunks_y * CRAFTER_MATERIAL_COUNT *
             sizeof(uint16_t));
}

long crafter_levels_header_version(const uint8_t *bytes, size_t size, const char *name,
                                   char *error, size_t error_size) {
  if (size < 8 || memcmp(bytes, CRAFTER_LEVELS_MAGIC, 8) != 0)
    return crafter_fail(error, error_size, "%s: not a level file (crafter-levels(5))", name);
  if (size < CRAFTER_LEVELS_HEADER_BYTES)
    return crafter_fail(error, error_size, "%s: its header is cut short: %zu of %d bytes", name,
                        size, CRAFTER_LEVELS_HEADER_BYTES);
  if (crafter_get_u32(bytes + 124) != crafter_crc32(bytes, 124))
    return crafter_fail(error, error_size, "%s: the header's checksum does not match", name);
  return (long)crafter_get_u32(bytes + 8);
}

int crafter_levels_parse(crafter_level_set *set, const uint8_t *bytes, size_t size,
                         const char *name, char *error, size_t error_size) {
  memset(set, 0, sizeof(*set));
  char reason[200];
  const char *wrong = NULL;
  long version = crafter_levels_header_version(bytes, size, name, error, error_size);
  if (version < 0) return -1;
  if (version == 2) { /* another game's (run/jlevels.h): bytes 88..119 name it */
    char game[33] = {0};
    memcpy(game, bytes + 88, 32);
    for (int i = 0; i < 32; i++)
      if (game[i] && (game[i] < 'a' || game[i] > 'z') && game[i] != '-') game[0] = '\0';
    if (game[0])
      return crafter_fail(error, error_size, "%s: a level file of %s, not of crafter", name, game);
  }
  if (version != CRAFTER_LEVELS_VERSION)
    return crafter_fail(error, error_size, "%s: a level file of version %ld; this build reads %d",
                        name, version, CRAFTER_LEVELS_VERSION);
  uint32_t count = crafter_get_u32(bytes + 16);
  for (int axis = 0; axis < 2; axis++) {
    set->area[axis] = (int)crafter_get_u32(bytes + 20 + 4 * axis);
    set->view[axis] = (int)crafter_get_u32(bytes + 28 + 4 * axis);
    set->chunk[axis] = (int)crafter_get_u32(bytes + 36 + 4 * axis);
  }
  set->config_crc = crafter_get_u32(bytes + 44);
  set->seed = (int64_t)crafter_get_u64(bytes + 48);
  set->first = (int64_t)crafter_get_u64(bytes + 56);
  uint64_t packed = crafter_get_u64(bytes + 64), raw = crafter_get_u64(bytes + 72);
  uint32_t payload_crc = crafter_get_u32(bytes + 80);
  int reserved = 0;
  for (int i = 84; i < 124; i++) reserved |= bytes[i];
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = set->area[0], params.area[1] = set->area[1];
  params.view[0] = set->view[0], params.view[1] = set->view[1];
  if (crafter_get_u32(bytes + 12) != CRAFTER_LEVELS_HEADER_BYTES)
    wrong = "its header is not 128 bytes";
  else if (reserved)
    wrong = "reserved bytes of the header are set";
  else if (count < 1 || count > CRAFTER_LEVELS_MAX)
    wrong = "its level count is out of range";
  else if (crafter_params_check(&params, reason, sizeof(reason)) < 0)
    wrong = reason;
  else if (set->chunk[0] < 1 || set->chunk[1] < 1 || set->chunk[0] > set->area[0] ||
           set->chunk[1] > set->area[1] || chunks_of(set) > INT16_MAX ||
           (long)set->chunk[0] * set->chunk[1] > UINT16_MAX)
    wrong = "its chunk size does not fit its area";
  else if (set->seed < CRAFTER_SEED_MIN || set->seed > CRAFTER_SEED_MAX)
    wrong = "its seed is out of range";
  else if (set->first < 1 || set->first > (int64_t)CRAFTER_EPISODE_MAX - (count - 1))
    wrong = "its levels are not all episodes from 1 to 2**31-1";
  else if (packed != size - CRAFTER_LEVELS_HEADER_BYTES)
    wrong = packed > size - CRAFTER_LEVELS_HEADER_BYTES
                ? "it is cut short"
                : "it has bytes after its levels";
  if (wrong) return crafter_fail(error, error_size, "%s: %s", name, wrong);
  size_t cells = cells_of(set);
  size_t smallest = fixed_bytes(set) + cells + OBJECT_BYTES;
  size_t largest = fixed_bytes(set) + cells + cells * OBJECT_BYTES;
  if (raw < (uint64_t)count * smallest || raw / count > largest)
    return crafter_fail(error, error_size, "%s: %llu bytes cannot hold %u levels", name,
                        (unsigned long long)raw, count);
  if (raw / 1032 > packed) /* deflate's best ratio */
    return crafter_fail(error, error_size, "%s: %llu bytes cannot compress into %llu", name,
                        (unsigned long long)raw, (unsigned long long)packed);
  /* Refused before anything is allocated when the levels, inflated and
   * then loaded, cannot fit. */
  uint64_t objects = (raw - (uint64_t)count * (fixed_bytes(set) + cells)) / OBJECT_BYTES;
  if (check_memory(set, count, objects, raw + cells * sizeof(uint32_t), reason,
                   sizeof(reason)) < 0)
    return crafter_fail(error, error_size, "%s: %s", name, reason);
  uint8_t *payload = malloc((size_t)raw);
  uint32_t *occupied = calloc(cells, sizeof(uint32_t));
  crafter_world scratch;
  int have_scratch =
      crafter_world_init(&scratch, set->area[0], set->area[1], set->chunk[0], set->chunk[1]) == 0;
  char why[200];
  uLongf unpacked = (uLongf)raw;
  if (!payload || !occupied || !have_scratch || allocate(set, (int)count) < 0) {
    wrong = "out of memory";
  } else if (uncompress(payload, &unpacked, bytes + CRAFTER_LEVELS_HEADER_BYTES,
                        (uLong)packed) != Z_OK ||
             unpacked != raw) {
    wrong = "its levels do not decompress";
  } else if (crafter_crc32(payload, (size_t)raw) != payload_crc) {
    wrong = "the levels' checksum does not match";
  } else {
    size_t at = 0;
    for (int i = 0; i < set->count && !wrong; i++) {
      size_t used = decode_level(set, i, payload + at, (size_t)raw - at, occupied,
                                 &set->levels[i], why, sizeof(why));
      if (used == 0)
        wrong = why;
      else
        count_chunks(&scratch, &set->levels[i]);
      at += used;
    }
    if (!wrong && at != raw) wrong = "bytes are left after the last level";
  }
  free(payload), free(occupied);
  if (have_scratch) crafter_world_free(&scratch);
  if (!wrong) return 0;
  crafter_levels_free(set);
  return crafter_fail(error, error_size, "%s: %s", name, wrong);
}

int crafter_levels_load(crafter_level_set *set, const char *path, char *error,
                        size_t error_size) {
  memset(set, 0, sizeof(*set));
  FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!file) return crafter_fail(error, error_size, "cannot open %s", path);
  size_t size = 0, capacity = 1 << 16;
  uint8_t *bytes = malloc(capacity);
  for (;;) {
    if (!bytes) break;
    size += fread(bytes + size, 1, capacity - size, file);
    if (size < capacity) break;
    /* A level of a 4096x4096 area with every cell an object is ~350 MB
     * raw; a file is its compressed form, so a few GB is past any set. */
    if (capacity >= ((size_t)1 << 34)) {
      free(bytes), bytes = NULL;
      break;
    }
    uint8_t *grown = realloc(bytes, capacity * 2);
    if (!grown) free(bytes);
    bytes = grown;
    capacity *= 2;
  }
  int failed = ferror(file);
  if (file != stdin) fclose(file);
  if (!bytes) return crafter_fail(error, error_size, "%s: out of memory or too large", path);
  if (failed) {
    free(bytes);
    return crafter_fail(error, error_size, "cannot read %s", path);
  }
  int status = crafter_levels_parse(set, bytes, size, path, error, error_size);
  free(bytes);
  return status;
}
