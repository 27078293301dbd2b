/* vmsplice(2), F_SETPIPE_SZ and FIONREAD are Linux's. */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "batch.h"
#include "bytes.h"
#include "cli.h"
#include "proto.h"
#include "render.h"
#include "textures.h"
#include "traj.h"

/* Reads the input stream and flushes the output before it blocks, so an
 * agent waiting for a record never deadlocks while piped input is still
 * answered in bulk. */
typedef struct reader {
  int fd;
  FILE *flush;
  uint8_t buffer[65536];
  size_t start, end;
  int eof;
} reader;

/* Makes at least `want` bytes available unless the input ends first;
 * returns how many are available, or -1 on a read error. */
static long fill(reader *in, size_t want) {
  while (in->end - in->start < want && !in->eof) {
    if (in->start > 0) {
      memmove(in->buffer, in->buffer + in->start, in->end - in->start);
      in->end -= in->start;
      in->start = 0;
    }
    if (in->end == sizeof(in->buffer)) break;
    fflush(in->flush);
    ssize_t got;
    do {
      got = read(in->fd, in->buffer + in->end, sizeof(in->buffer) - in->end);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    if (got == 0) in->eof = 1;
    in->end += (size_t)got;
  }
  return (long)(in->end - in->start);
}

/* A line of text input, grown as needed up to a limit. */
typedef struct line_buffer {
  char *text;
  size_t length, capacity, limit;
} line_buffer;

enum { LINE_TOO_LONG = -1, LINE_READ_ERROR = -2, LINE_NO_MEMORY = -3 };

/* Reads the next line (without its newline) into line->text[0..length),
 * NUL-terminated.  Returns 1 with a line, 0 at the end, or a LINE_ error. */
static int read_line(reader *in, line_buffer *line) {
  line->length = 0;
  for (;;) {
    size_t available = in->end - in->start;
    uint8_t *chunk = in->buffer + in->start;
    uint8_t *newline = memchr(chunk, '\n', available);
    size_t take = newline ? (size_t)(newline - chunk) : available;
    if (take > line->limit - line->length) return LINE_TOO_LONG;
    if (line->length + take + 1 > line->capacity) {
      size_t capacity = line->capacity ? line->capacity : 256;
      while (capacity < line->length + take + 1) capacity *= 2;
      char *grown = realloc(line->text, capacity);
      if (!grown) return LINE_NO_MEMORY;
      line->text = grown;
      line->capacity = capacity;
    }
    memcpy(line->text + line->length, chunk, take);
    line->length += take;
    line->text[line->length] = '\0';
    in->start += take + (newline ? 1 : 0);
    if (newline) return 1;
    if (in->eof) return line->length > 0;
    if (fill(in, 1) < 0) return LINE_READ_ERROR;
  }
}

typedef struct session {
  const crafter_session_options *options;
  crafter_env *envs;
  crafter_textures textures;
  int have_textures;
  crafter_renderer **renderers;
  uint8_t *pixels;   /* per env */
  size_t pixel_bytes;
  uint8_t *obs;      /* per env, the observation of the chosen kind */
  size_t obs_bytes;  /* fixed size of one (text: capacity) */
  uint8_t *frame;    /* binary frame of all envs: the buffer, or the slot of the
                        shared-memory ring being filled */
  size_t frame_bytes;
  size_t section[CRAFTER_PROTOCOL_SECTIONS]; /* offsets in a frame */
  uint8_t *ring;     /* --shm-fd: the mapping of the ring of frames */
  size_t ring_bytes;
  uint8_t *ended;    /* per env: its episode ended and it was not reset yet */
  int32_t (*final_achievements)[CRAFTER_ACHIEVEMENT_COUNT]; /* binary, auto-reset: per env,
                           the counts its last episode ended with */
  uint8_t *final_dirty; /* --final-obs: per frame buffer (ring slot) and env, whether its
                           final section holds an observation to clear */
  int lend_pages;    /* frames go to the pipe by vmsplice (until it fails) */
  int frame_lent;    /* the pipe may hold the frame buffer's pages */
  int64_t finished;
  FILE *out;
  crafter_traj_writer *writer;        /* --record */
  crafter_traj_recorder **recorders;  /* per env */
  int record_failed;
  char record_error[300];
  /* With several threads, a batch steps the envs instead of the array
   * above (binary protocol, nothing recorded, no world file). */
  crafter_batch *batch;
  crafter_step_result *batch_results;
  uint8_t *batch_resets;
  /* --tasks: per env the tracker of its goal, the goal (index in the
   * pool), its wording and whether the last step met it. */
  crafter_task_tracker *trackers;
  int *candidate, *text;
  uint8_t *goal;
  uint8_t *table;    /* binary: the task table after the header */
  size_t table_bytes;
  crafter_level_picker *pickers; /* --levels: per env */
  /* Render requests: a renderer for the size last asked for, and its
   * pixels. */
  crafter_renderer *view_renderer;
  int view_size[2];
  uint8_t *view_pixels;
} session;

enum { TEXT_CAPACITY = 8192 };

static size_t observation_bytes(const crafter_session_options *options) {
  const crafter_params *params = &options->params;
  switch (options->obs_kind) {
    case CRAFTER_OBS_PIXELS: return (size_t)params->size[0] * (size_t)params->size[1] * 3;
    case CRAFTER_OBS_SEMANTIC: return (size_t)params->area[0] * (size_t)params->area[1];
    case CRAFTER_OBS_SYMBOLIC: return CRAFTER_SYMBOLIC_SIZE * sizeof(float);
    case CRAFTER_OBS_TEXT: return TEXT_CAPACITY;
    default: return 0;
  }
}

static void free_recording(session *s) {
  if (s->recorders)
    for (int i = 0; i < s->options->envs; i++) crafter_traj_recorder_free(s->recorders[i]);
  free(s->recorders);
  s->recorders = NULL;
}

static void free_session(session *s) {
  if (s->trackers)
    for (int i = 0; i < s->options->envs; i++) crafter_task_tracker_free(&s->trackers[i]);
  free(s->trackers);
  free(s->pickers);
  free(s->candidate);
  free(s->text);
  free(s->goal);
  free(s->table);
  crafter_renderer_free(s->view_renderer);
  free(s->view_pixels);
  crafter_batch_free(s->batch);
  free(s->batch_results);
  free(s->batch_resets);
  free_recording(s);
  if (s->writer) {
    char ignored[64];
    crafter_traj_writer_close(s->writer, ignored, sizeof(ignored));
  }
  if (s->envs)
    for (int i = 0; i < s->options->envs; i++) crafter_env_free(&s->envs[i]);
  if (s->renderers)
    for (int i = 0; i < s->options->envs; i++) crafter_renderer_free(s->renderers[i]);
  if (s->have_textures) crafter_textures_free(&s->textures);
  free(s->envs);
  free(s->renderers);
  free(s->pixels);
  free(s->obs);
  if (s->ring)
    munmap(s->ring, s->ring_bytes);
  else if (s->frame)
    munmap(s->frame, s->frame_bytes);
  free(s->ended);
  free(s->final_dirty);
  free(s->final_achievements);
}

/* Threads help only where the work comes in batches: the binary protocol
 * without recording or a world file, running until the input ends (a
 * batch starts the next episode at once, so the last frame of a counted
 * run could not carry its final observation). */
static int use_batch(const crafter_session_options *options) {
  return options->threads > 1 && options->binary && !options->record && !options->world &&
         !options->tasks && options->episodes == 0;
}

static int load_textures(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  int status = options->textures
                   ? crafter_textures_load_dir(&s->textures, options->textures, error, error_size)
                   : crafter_textures_load_builtin(&s->textures, error, error_size);
  if (status < 0) return -1;
  s->have_textures = 1;
  return 0;
}

/* The frame's sections, each a struct of arrays over the envs starting on a
 * multiple of 64 bytes (crafter-protocol(5)). */
static size_t section_bytes_per_env(const session *s, int section) {
  const crafter_params *params = &s->options->params;
  switch (section) {
    case CRAFTER_SECTION_REWARD: return 8; /* a double: Crafter's reward exactly */
    case CRAFTER_SECTION_DONE:
    case CRAFTER_SECTION_RESET: return 1;
    case CRAFTER_SECTION_INVENTORY: return 4 * CRAFTER_ITEM_COUNT;
    case CRAFTER_SECTION_ACHIEVEMENTS: return 4 * CRAFTER_ACHIEVEMENT_COUNT;
    case CRAFTER_SECTION_POSITION: return 4 * 4; /* x, y, facing x, facing y */
    case CRAFTER_SECTION_SEMANTIC:
      return s->options->semantic_info ? (size_t)params->area[0] * (size_t)params->area[1] : 0;
    case CRAFTER_SECTION_OBS: return s->obs_bytes;
    case CRAFTER_SECTION_FINAL: return s->options->final_obs ? s->obs_bytes : 0;
    case CRAFTER_SECTION_TASK: return s->options->tasks ? 8 : 0;
    default: return 4;
  }
}

static size_t align64(size_t bytes) { return (bytes + 63) / 64 * 64; }

/* A frame buffer of whole pages of its own: vmsplice(2) lends its pages
 * to a pipe, and a buffer the pipe may still hold is let go by munmap,
 * never written again. */
static uint8_t *new_frame_buffer(session *s) {
  void *buffer = mmap(NULL, s->frame_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  return buffer == MAP_FAILED ? NULL : buffer;
}

/* Lays out the frame, and gives it a buffer: memory of its own, or a
 * ring of frames in the shared memory of --shm-fd, sized here. */
static int setup_frames(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  size_t at = 0;
  for (int k = 0; k < CRAFTER_PROTOCOL_SECTIONS; k++) {
    s->section[k] = at;
    at = align64(at + section_bytes_per_env(s, k) * (size_t)options->envs);
  }
  s->frame_bytes = at;
  if (options->final_obs) {
    size_t buffers = options->shm_fd < 0 ? 1 : (size_t)options->shm_slots;
    s->final_dirty = calloc(buffers * (size_t)options->envs, 1);
    if (!s->final_dirty) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
  }
  if (s->frame_bytes > UINT32_MAX) {
    snprintf(error, error_size, "a frame of %zu bytes is too large for the binary protocol",
             s->frame_bytes);
    return -1;
  }
  if (options->shm_fd < 0) {
    s->frame = new_frame_buffer(s);
    if (!s->frame) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
    return 0;
  }
  s->ring_bytes = s->frame_bytes * (size_t)options->shm_slots;
  if (ftruncate(options->shm_fd, (off_t)s->ring_bytes) < 0) {
    snprintf(error, error_size, "--shm-fd %d: cannot size the shared memory: %s", options->shm_fd,
             strerror(errno));
    return -1;
  }
  void *ring = mmap(NULL, s->ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, options->shm_fd, 0);
  if (ring == MAP_FAILED) {
    snprintf(error, error_size, "--shm-fd %d: cannot map the shared memory: %s", options->shm_fd,
             strerror(errno));
    return -1;
  }
  s->ring = ring;
  s->frame = s->ring;
  return 0;
}

/* The batch draws the observations of the next frame straight into it. */
static void aim_batch(session *s) {
  if (s->batch && s->obs_bytes) {
    crafter_batch_redirect(s->batch, s->frame + s->section[CRAFTER_SECTION_OBS]);
    if (s->options->final_obs)
      crafter_batch_keep_final(s->batch, s->frame + s->section[CRAFTER_SECTION_FINAL]);
  }
}

static int setup_batch(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  if (options->obs_kind == CRAFTER_OBS_PIXELS && load_textures(s, error, error_size) < 0) return -1;
  crafter_batch_options batch = {options->params, options->first_episode, options->envs,
                                 options->threads, options->obs_kind,
                                 s->have_textures ? &s->textures : NULL, options->config,
                                 options->manual_reset, options->levels, options->level_order};
  s->batch = crafter_batch_new(&batch, error, error_size);
  s->batch_results = calloc((size_t)options->envs, sizeof(crafter_step_result));
  s->batch_resets = calloc((size_t)options->envs, 1);
  if (!s->batch) return -1;
  s->obs_bytes = crafter_batch_observation_bytes(s->batch);
  if (!s->batch_results || !s->batch_resets) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  return setup_frames(s, error, error_size);
}

/* The binary protocol's task table (crafter-protocol(5)): the goals of
 * the pool and every wording of each, which a frame's task section
 * points into. */
static int build_task_table(session *s) {
  const crafter_task_pool *pool = s->options->tasks;
  size_t bytes = 8;
  for (int c = 0; c < pool->count; c++) {
    const crafter_task *task = &pool->set->tasks[pool->tasks[c]];
    bytes += 16 + strlen(task->id);
    for (int k = 0; k < task->text_count; k++) bytes += 8 + strlen(task->text[k]);
  }
  bytes = (bytes + 7) / 8 * 8;
  s->table = calloc(bytes, 1);
  if (!s->table) return -1;
  s->table_bytes = bytes;
  uint8_t *at = s->table;
  crafter_put_u32(at, (uint32_t)pool->count);
  crafter_put_u32(at + 4, (uint32_t)pool->instructions);
  at += 8;
  for (int c = 0; c < pool->count; c++) {
    const crafter_task *task = &pool->set->tasks[pool->tasks[c]];
    size_t length = strlen(task->id);
    crafter_put_u32(at, (uint32_t)task->family);
    crafter_put_u32(at + 4, (uint32_t)task->difficulty);
    crafter_put_u32(at + 8, (uint32_t)task->split);
    crafter_put_u32(at + 12, (uint32_t)length);
    memcpy(at + 16, task->id, length);
    at += 16 + length;
  }
  for (int c = 0; c < pool->count; c++) {
    const crafter_task *task = &pool->set->tasks[pool->tasks[c]];
    for (int k = 0; k < task->text_count; k++) {
      size_t length = strlen(task->text[k]);
      crafter_put_u32(at, (uint32_t)c);
      crafter_put_u32(at + 4, (uint32_t)length);
      memcpy(at + 8, task->text[k], length);
      at += 8 + length;
    }
  }
  return 0;
}

static int setup(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  int count = options->envs;
  if (use_batch(options)) return setup_batch(s, error, error_size);
  s->envs = calloc((size_t)count, sizeof(crafter_env));
  if (!s->envs) goto out_of_memory;
  for (int i = 0; i < count; i++) {
    crafter_params params = options->params;
    params.seed += i;
    if (crafter_env_init_config(&s->envs[i], &params, options->config, error, error_size) < 0)
      return -1;
    crafter_env_set_next_episode(&s->envs[i], options->first_episode);
  }
  /* Pixels are rendered for pixel observations and for the obs_crc of
   * full records; other kinds skip the renderer's work but not its
   * draws, which the env does itself. */
  int render = options->obs_kind == CRAFTER_OBS_PIXELS;
  if (render) {
    if (load_textures(s, error, error_size) < 0) return -1;
    s->pixel_bytes = (size_t)options->params.size[0] * (size_t)options->params.size[1] * 3;
    s->renderers = calloc((size_t)count, sizeof(crafter_renderer *));
    s->pixels = malloc(s->pixel_bytes * (size_t)count);
    if (!s->renderers || !s->pixels) goto out_of_memory;
    for (int i = 0; i < count; i++) {
      s->renderers[i] = i == 0 ? crafter_renderer_new(&s->textures, &s->envs[i].params, error,
                                                      error_size)
                               : crafter_renderer_share(s->renderers[0], error, error_size);
      if (!s->renderers[i]) return -1;
      crafter_renderer_attach(s->renderers[i], &s->envs[i], s->pixels + s->pixel_bytes * (size_t)i);
    }
  }
  s->obs_bytes = observation_bytes(options);
  if (s->obs_bytes) {
    s->obs = malloc(s->obs_bytes * (size_t)count);
    if (!s->obs) goto out_of_memory;
  }
  if (options->record) {
    crafter_traj_header header;
    crafter_traj_header_init(&header, &options->params, options->obs_kind, "external",
                             s->have_textures ? &s->textures : NULL);
    header.tasks = options->tasks ? options->tasks->set : NULL;
    crafter_traj_header_set_levels(&header, options->levels, options->level_order);
    s->recorders = calloc((size_t)count, sizeof(crafter_traj_recorder *));
    if (!s->recorders) goto out_of_memory;
    for (int i = 0; i < count; i++) {
      s->recorders[i] = crafter_traj_recorder_new(&header);
      if (!s->recorders[i]) goto out_of_memory;
    }
    s->writer = crafter_traj_writer_create(options->record, &header, error, error_size);
    if (!s->writer) return -1;
  }
  s->ended = calloc((size_t)count, 1);
  s->final_achievements = calloc((size_t)count, sizeof(*s->final_achievements));
  if (!s->ended || !s->final_achievements) goto out_of_memory;
  if (options->levels &&
      !(s->pickers = crafter_level_pickers_new(options->levels, options->level_order, count)))
    goto out_of_memory;
  if (options->tasks && options->binary && build_task_table(s) < 0) goto out_of_memory;
  if (options->tasks) {
    s->trackers = calloc((size_t)count, sizeof(crafter_task_tracker));
    s->candidate = calloc((size_t)count, sizeof(int));
    s->text = calloc((size_t)count, sizeof(int));
    s->goal = calloc((size_t)count, 1);
    if (!s->trackers || !s->candidate || !s->text || !s->goal) goto out_of_memory;
  }
  if (options->binary) return setup_frames(s, error, error_size);
  return 0;
out_of_memory:
  snprintf(error, error_size, "out of memory");
  return -1;
}

/* The goal of env i's episode, and its wording. */
static const crafter_task *goal_of(const session *s, int i) { return s->trackers[i].task; }

static const char *instruction(const session *s, int i) {
  return goal_of(s, i)->text[s->text[i]];
}

/* Fills env i's observation of the chosen kind; returns its size. */
static size_t observe(session *s, int i) {
  crafter_env *env = &s->envs[i];
  uint8_t *obs = s->obs + s->obs_bytes * (size_t)i;
  switch (s->options->obs_kind) {
    case CRAFTER_OBS_PIXELS: memcpy(obs, s->pixels + s->pixel_bytes * (size_t)i, s->pixel_bytes); return s->pixel_bytes;
    case CRAFTER_OBS_SEMANTIC: crafter_env_semantic(env, obs); return s->obs_bytes;
    case CRAFTER_OBS_SYMBOLIC: crafter_render_symbolic(env, (float *)(void *)obs); return s->obs_bytes;
    case CRAFTER_OBS_TEXT: {
      size_t at = 0;
      if (s->options->tasks) {
        int written = snprintf((char *)obs, s->obs_bytes, "Instruction: %s\n", instruction(s, i));
        at = written > 0 && (size_t)written < s->obs_bytes ? (size_t)written : 0;
      }
      size_t length = at + crafter_render_text(env, (char *)obs + at, s->obs_bytes - at);
      return length < s->obs_bytes ? length : s->obs_bytes - 1;
    }
    default: return 0;
  }
}

/* The observation a recording stores for env i, NULL for none. */
static const void *record_obs(session *s, int i) {
  int kind = s->options->obs_kind;
  if (kind != CRAFTER_OBS_PIXELS && kind != CRAFTER_OBS_SEMANTIC && kind != CRAFTER_OBS_SYMBOLIC)
    return NULL;
  observe(s, i);
  return s->obs + s->obs_bytes * (size_t)i;
}

static void record_failure(session *s, const char *message) {
  if (s->record_failed) return;
  s->record_failed = 1;
  snprintf(s->record_error, sizeof(s->record_error), "%s", message);
}

static void record_step(session *s, int i, int action, const crafter_step_result *result,
                        int goal) {
  if (!s->writer || s->record_failed) return;
  crafter_env *env = &s->envs[i];
  if (crafter_traj_recorder_step_goal(s->recorders[i], env, action, result, record_obs(s, i),
                                      goal) < 0) {
    record_failure(s, "out of memory while recording");
    return;
  }
  char problem[300];
  if (result->done && crafter_traj_writer_add(s->writer, s->recorders[i], problem, sizeof(problem)) < 0)
    record_failure(s, problem);
}

static void record_reset(session *s, int i) {
  if (!s->writer || s->record_failed) return;
  if (crafter_traj_recorder_start(s->recorders[i], &s->envs[i], record_obs(s, i)) < 0)
    record_failure(s, "out of memory while recording");
  if (s->options->tasks)
    crafter_traj_recorder_set_task(s->recorders[i], s->options->tasks->tasks[s->candidate[i]],
                                   s->text[i]);
}

/* Stores the episodes the input cut short, then the index. */
static int finish_recording(session *s, char *error, size_t error_size) {
  if (!s->writer) return 0;
  char problem[300] = "";
  int status = 0;
  for (int i = 0; i < s->options->envs && !s->record_failed; i++)
    if (crafter_traj_recorder_steps(s->recorders[i]) > 0 &&
        crafter_traj_writer_add(s->writer, s->recorders[i], problem, sizeof(problem)) < 0)
      record_failure(s, problem);
  if (crafter_traj_writer_close(s->writer, problem, sizeof(problem)) < 0) record_failure(s, problem);
  s->writer = NULL;
  if (s->record_failed) {
    snprintf(error, error_size, "%s", s->record_error);
    status = 1;
  }
  return status;
}

static void write_text_record(session *s, int i, int action, const crafter_step_result *result) {
  size_t size = observe(s, i);
  crafter_record_extra extra = {s->options->envs > 1 ? i : -1,
                                s->pixels && s->options->info == CRAFTER_INFO_FULL
                                    ? s->pixels + s->pixel_bytes * (size_t)i
                                    : NULL,
                                s->pixel_bytes,
                                s->options->obs_kind,
                                1,
                                s->obs ? s->obs + s->obs_bytes * (size_t)i : NULL,
                                size,
                                s->options->tasks ? goal_of(s, i)->id : NULL,
                                s->options->tasks ? instruction(s, i) : NULL,
                                s->options->tasks && result ? s->goal[i] : -1,
                                s->options->levels ? s->envs[i].episode : 0};
  crafter_env *env = &s->envs[i];
  if (s->options->info == CRAFTER_INFO_FULL) {
    if (result)
      crafter_proto_write_step(s->out, env, action, result, &extra);
    else
      crafter_proto_write_reset(s->out, env, &extra);
  } else if (s->options->info == CRAFTER_INFO_STATE) {
    crafter_proto_write_state(s->out, env, result, &extra); /* resets carry the first state */
  } else if (result || s->options->obs_kind != CRAFTER_OBS_NONE || s->options->envs > 1 ||
             s->options->tasks || s->options->levels) {
    /* A short reset record only when it carries something: the goal and
     * the level are known before the first action. */
    crafter_proto_write_short(s->out, env, result, &extra);
  }
}

static void fill_frame(session *s, int i, const crafter_step_result *result, int reset) {
  uint8_t *frame = s->frame;
  crafter_env *env = s->batch ? crafter_batch_env(s->batch, i) : &s->envs[i];
  const crafter_player *player = &env->game.player;
  const crafter_object *body = crafter_game_body(&env->game, 0);
  size_t *at = s->section;
  crafter_put_f64(frame + at[CRAFTER_SECTION_REWARD] + 8 * (size_t)i, result ? result->reward : 0.0);
  crafter_put_f32(frame + at[CRAFTER_SECTION_DISCOUNT] + 4 * (size_t)i,
          result ? (float)result->discount : 1.0f);
  frame[at[CRAFTER_SECTION_DONE] + (size_t)i] = result && result->done;
  frame[at[CRAFTER_SECTION_RESET] + (size_t)i] = (uint8_t)reset;
  crafter_put_u32(frame + at[CRAFTER_SECTION_UNLOCKED] + 4 * (size_t)i, result ? result->unlocked : 0);
  crafter_put_u32(frame + at[CRAFTER_SECTION_EPISODE] + 4 * (size_t)i, (uint32_t)env->episode);
  crafter_put_u32(frame + at[CRAFTER_SECTION_STEP] + 4 * (size_t)i, (uint32_t)env->game.step);
  uint8_t *inventory = frame + at[CRAFTER_SECTION_INVENTORY] + 4 * CRAFTER_ITEM_COUNT * (size_t)i;
  for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
    crafter_put_u32(inventory + 4 * k, (uint32_t)player->inventory[k]);
  /* A step that ended an episode and started the next reports the
   * achievements the episode ended with. */
  const int32_t *counts = player->achievements;
  if (result && result->done && reset)
    counts = s->batch ? crafter_batch_final_achievements(s->batch, i) : s->final_achievements[i];
  uint8_t *achievements =
      frame + at[CRAFTER_SECTION_ACHIEVEMENTS] + 4 * CRAFTER_ACHIEVEMENT_COUNT * (size_t)i;
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    crafter_put_u32(achievements + 4 * k, (uint32_t)counts[k]);
  uint8_t *position = frame + at[CRAFTER_SECTION_POSITION] + 16 * (size_t)i;
  crafter_put_u32(position, (uint32_t)body->x);
  crafter_put_u32(position + 4, (uint32_t)body->y);
  crafter_put_u32(position + 8, (uint32_t)player->facing_x);
  crafter_put_u32(position + 12, (uint32_t)player->facing_y);
  if (s->options->tasks) {
    uint8_t *task = frame + at[CRAFTER_SECTION_TASK] + 8 * (size_t)i;
    crafter_put_u32(task, (uint32_t)(s->options->tasks->first_text[s->candidate[i]] + s->text[i]));
    crafter_put_u32(task + 4, result ? s->goal[i] : 0);
  }
  if (s->options->semantic_info) {
    size_t cells = section_bytes_per_env(s, CRAFTER_SECTION_SEMANTIC);
    crafter_env_semantic(env, frame + at[CRAFTER_SECTION_SEMANTIC] + cells * (size_t)i);
  }
  uint8_t *obs = frame + at[CRAFTER_SECTION_OBS] + s->obs_bytes * (size_t)i;
  if (s->batch) {
    /* observed in place: the batch draws into the frame */
  } else if (s->obs_bytes) {
    observe(s, i);
    memcpy(obs, s->obs + s->obs_bytes * (size_t)i, s->obs_bytes);
  }
}

static void write_header(session *s) {
  const crafter_session_options *options = s->options;
  uint8_t header[CRAFTER_PROTOCOL_HEADER_BYTES] = {0};
  memcpy(header, CRAFTER_PROTOCOL_MAGIC, 8);
  uint32_t type = 0, shape[3] = {0, 0, 0};
  switch (options->obs_kind) {
    case CRAFTER_OBS_PIXELS:
      type = 1;
      shape[0] = (uint32_t)options->params.size[1];
      shape[1] = (uint32_t)options->params.size[0];
      shape[2] = 3;
      break;
    case CRAFTER_OBS_SEMANTIC:
      type = 1;
      shape[0] = (uint32_t)options->params.area[0];
      shape[1] = (uint32_t)options->params.area[1];
      shape[2] = 1;
      break;
    case CRAFTER_OBS_SYMBOLIC:
      type = 2;
      shape[0] = CRAFTER_SYMBOLIC_SIZE;
      shape[1] = shape[2] = 1;
      break;
    default: break;
  }
  uint32_t flags = (options->manual_reset ? 0 : CRAFTER_PROTOCOL_AUTORESET) |
                   (options->semantic_info ? CRAFTER_PROTOCOL_SEMANTIC : 0) |
                   (s->ring ? CRAFTER_PROTOCOL_SHM : 0) |
                   (options->tasks ? CRAFTER_PROTOCOL_TASKS : 0) |
                   (options->levels ? CRAFTER_PROTOCOL_LEVELS : 0) |
                   (options->final_obs ? CRAFTER_PROTOCOL_FINAL : 0);
  crafter_put_u32(header + 8, CRAFTER_PROTOCOL_VERSION);
  crafter_put_u32(header + 12, (uint32_t)(CRAFTER_PROTOCOL_HEADER_BYTES + s->table_bytes));
  crafter_put_u32(header + 16, (uint32_t)options->envs);
  crafter_put_u32(header + 20, (uint32_t)options->obs_kind);
  crafter_put_u32(header + 24, type);
  for (int i = 0; i < 3; i++) crafter_put_u32(header + 28 + 4 * i, shape[i]);
  crafter_put_u32(header + 40, (uint32_t)s->obs_bytes);
  crafter_put_u32(header + 44, (uint32_t)s->frame_bytes);
  crafter_put_u32(header + 48, CRAFTER_ACTION_COUNT);
  crafter_put_u32(header + 52, CRAFTER_ACHIEVEMENT_COUNT);
  crafter_put_u32(header + 56, CRAFTER_ITEM_COUNT);
  crafter_put_u32(header + 60, (uint32_t)options->params.area[0]);
  crafter_put_u32(header + 64, (uint32_t)options->params.area[1]);
  crafter_put_u32(header + 68, flags);
  crafter_put_u32(header + 72, s->ring ? (uint32_t)options->shm_slots : 0);
  /* The sections up to the observations at 76..120; the task section has
   * its offset at 124 only with goals; the final section, between the two,
   * has none (it starts where the observations' section ends). */
  for (int k = 0; k <= CRAFTER_SECTION_OBS; k++)
    crafter_put_u32(header + 76 + 4 * k, (uint32_t)s->section[k]);
  if (options->tasks) crafter_put_u32(header + 124, (uint32_t)s->section[CRAFTER_SECTION_TASK]);
  fwrite(header, 1, sizeof(header), s->out);
  if (s->table_bytes) fwrite(s->table, 1, s->table_bytes, s->out);
}

/* Writes all of data to fd, whatever the size of a pipe's writes. */
static int write_all(int fd, const uint8_t *data, size_t size) {
  while (size > 0) {
    ssize_t wrote = write(fd, data, size);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return -1;
    data += wrote;
    size -= (size_t)wrote;
  }
  return 0;
}

/* Into a pipe, the frame's pages are lent rather than copied
 * (vmsplice); the pipe holds them until the client has read them.  A
 * client that answers a frame has read it, so the buffer is normally free
 * again at the next step; when the pipe still holds bytes (input given
 * ahead, a reader behind) the buffer is let go for a fresh one.  Where
 * stdout is not a pipe, plain writes from then on. */
static int lend_frame(session *s, int fd) {
#if defined(__linux__)
  const uint8_t *data = s->frame;
  size_t size = s->frame_bytes;
  while (size > 0) {
    struct iovec piece = {(void *)data, size};
    ssize_t lent = vmsplice(fd, &piece, 1, 0);
    if (lent < 0 && errno == EINTR) continue;
    if (lent < 0 && size == s->frame_bytes && (errno == EBADF || errno == EINVAL)) {
      s->lend_pages = 0;
      return write_all(fd, s->frame, s->frame_bytes);
    }
    if (lent <= 0) return -1;
    data += lent;
    size -= (size_t)lent;
  }
  s->frame_lent = 1;
  return 0;
#else
  s->lend_pages = 0;
  return write_all(fd, s->frame, s->frame_bytes);
#endif
}

/* Before the frame buffer is written again: the pipe must hold none of
 * its pages. */
static int reclaim_frame(session *s) {
  if (!s->frame_lent) return 0;
  s->frame_lent = 0;
#if defined(__linux__)
  int waiting = 0;
  if (ioctl(fileno(s->out), FIONREAD, &waiting) == 0 && waiting == 0) return 0;
#endif
  uint8_t *fresh = new_frame_buffer(s);
  if (!fresh) return -1;
  munmap(s->frame, s->frame_bytes);
  s->frame = fresh;
  if (s->final_dirty) memset(s->final_dirty, 0, (size_t)s->options->envs);
  return 0;
}

/* The final section holds the observations of the episodes that ended at
 * this step and zeros elsewhere, whatever the buffer held before: a slot
 * is cleared only where an earlier frame in this buffer left one. */
static void settle_final(session *s) {
  if (!s->final_dirty || !s->obs_bytes) return;
  const uint8_t *ended = s->frame + s->section[CRAFTER_SECTION_DONE];
  size_t slot = s->ring ? (size_t)(s->frame - s->ring) / s->frame_bytes : 0;
  uint8_t *dirty = s->final_dirty + slot * (size_t)s->options->envs;
  uint8_t *section = s->frame + s->section[CRAFTER_SECTION_FINAL];
  for (int i = 0; i < s->options->envs; i++) {
    if (ended[i]) {
      dirty[i] = 1;
    } else if (dirty[i]) {
      memset(section + s->obs_bytes * (size_t)i, 0, s->obs_bytes);
      dirty[i] = 0;
    }
  }
}

/* Sends the frame just filled: the whole frame in one write on the pipe,
 * or, with shared memory, the number of its slot and of the frame, and
 * moves on to the next slot of the ring. */
static int send_frame(session *s, uint32_t sequence) {
  if (fflush(s->out) != 0) return -1;
  int fd = fileno(s->out);
  if (!s->ring) return s->lend_pages ? lend_frame(s, fd) : write_all(fd, s->frame, s->frame_bytes);
  uint32_t slot = (uint32_t)((size_t)(s->frame - s->ring) / s->frame_bytes);
  uint8_t message[8];
  crafter_put_u32(message, slot);
  crafter_put_u32(message + 4, sequence);
  if (write_all(fd, message, sizeof(message)) < 0) return -1;
  slot = (slot + 1) % (uint32_t)s->options->shm_slots;
  s->frame = s->ring + s->frame_bytes * slot;
  return 0;
}

/* A pipe that holds a whole frame lets a frame go in one write and one
 * wake-up of the reader; Linux pipes hold 64 KiB unless asked for more,
 * and give at most /proc/sys/fs/pipe-max-size (1 MiB by default) to a
 * process without CAP_SYS_RESOURCE: the largest that is granted. */
static void widen_pipe(session *s) {
#if defined(__linux__)
  size_t want = s->ring ? 0 : s->frame_bytes;
  if (want > (size_t)1 << 30) want = (size_t)1 << 30;
  for (; want > 64 * 1024; want /= 2)
    if (fcntl(fileno(s->out), F_SETPIPE_SZ, (int)want) >= 0) break;
#else
  (void)s;
#endif
}

/* Steps env i; on the end of an episode counts it and starts the next.
 * Returns 1 when the session has run all its episodes. */
static int step_env(session *s, int i, int action, crafter_step_result *result, int *reset) {
  crafter_env *env = &s->envs[i];
  crafter_env_step(env, action, result);
  int goal = s->options->tasks ? crafter_task_step(&s->trackers[i], env, action, result) : 0;
  record_step(s, i, action, result, goal);
  if (s->options->tasks) {
    /* What the agent gets: the task's reward on top of the game's, and a
     * terminal step. */
    s->goal[i] = (uint8_t)goal;
    if (goal) {
      result->reward += goal_of(s, i)->reward;
      result->discount = 0.0;
    }
  }
  *reset = 0;
  if (!result->done || s->ended[i]) return 0;
  s->ended[i] = 1;
  s->finished++;
  if (s->options->episodes && s->finished >= s->options->episodes) return 1;
  return 0;
}

static int reset_env(session *s, int i, char *error, size_t error_size) {
  if (s->options->levels) {
    if (crafter_env_reset_level(&s->envs[i], s->options->levels,
                                crafter_level_pick(&s->pickers[i])) < 0) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
  } else if (s->options->world) {
    if (crafter_env_reset_from_world(&s->envs[i], s->options->world, error, error_size) < 0)
      return -1;
  } else if (crafter_env_reset(&s->envs[i]) < 0) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  s->ended[i] = 0;
  if (s->options->tasks) {
    s->goal[i] = 0;
    if (crafter_task_pool_begin(s->options->tasks, &s->trackers[i], &s->envs[i], &s->candidate[i],
                                &s->text[i]) < 0) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
  }
  record_reset(s, i);
  return 0;
}

/* An episode given up by a reset action: stored as cut when recording. */
static void cut_episode(session *s, int i) {
  if (!s->writer || s->record_failed || s->ended[i] ||
      crafter_traj_recorder_steps(s->recorders[i]) == 0)
    return;
  char problem[300];
  if (crafter_traj_writer_add(s->writer, s->recorders[i], problem, sizeof(problem)) < 0)
    record_failure(s, problem);
}

/* A render request (crafter-protocol(5)): env i's view drawn at another
 * size, as Crafter's Env.render(size) draws it, night noise drawn from
 * the world's generator included; nothing is stepped. */
static int answer_render(session *s, reader *in, long step, char *error, size_t error_size) {
  long available = fill(in, CRAFTER_PROTOCOL_RENDER_BYTES);
  if (available < 0) {
    snprintf(error, error_size, "reading standard input: %s", strerror(errno));
    return -1;
  }
  if (available < CRAFTER_PROTOCOL_RENDER_BYTES) {
    snprintf(error, error_size, "input ended in a render request before step %ld: %ld of %d bytes",
             step, available, CRAFTER_PROTOCOL_RENDER_BYTES);
    return -1;
  }
  const uint8_t *request = in->buffer + in->start;
  uint32_t index = crafter_get_u32(request + 1);
  uint32_t width = crafter_get_u32(request + 5), height = crafter_get_u32(request + 9);
  in->start += CRAFTER_PROTOCOL_RENDER_BYTES;
  if (index >= (uint32_t)s->options->envs) {
    snprintf(error, error_size, "a render request before step %ld names env %u of %d", step,
             index, s->options->envs);
    return -1;
  }
  if (s->batch) {
    snprintf(error, error_size, "render requests need one thread (no --threads)");
    return -1;
  }
  crafter_env *env = &s->envs[index];
  const int *view = env->params.view;
  if (width < 2u * (uint32_t)view[0] || height < 2u * (uint32_t)view[1] ||
      width > CRAFTER_PROTOCOL_RENDER_MAX || height > CRAFTER_PROTOCOL_RENDER_MAX) {
    snprintf(error, error_size,
             "a render request before step %ld asks for %ux%u pixels: a view of %dx%d cells "
             "is drawn at %dx%d to %dx%d",
             step, width, height, view[0], view[1], 2 * view[0], 2 * view[1],
             CRAFTER_PROTOCOL_RENDER_MAX, CRAFTER_PROTOCOL_RENDER_MAX);
    return -1;
  }
  if (!s->have_textures && load_textures(s, error, error_size) < 0) return -1;
  if (!s->view_renderer || s->view_size[0] != (int)width || s->view_size[1] != (int)height) {
    crafter_renderer_free(s->view_renderer);
    free(s->view_pixels);
    s->view_pixels = NULL;
    crafter_params params = env->params;
    params.size[0] = (int)width;
    params.size[1] = (int)height;
    s->view_renderer = crafter_renderer_new(&s->textures, &params, error, error_size);
    if (!s->view_renderer) return -1;
    s->view_size[0] = (int)width;
    s->view_size[1] = (int)height;
    s->view_pixels = malloc((size_t)width * height * 3);
    if (!s->view_pixels) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
  }
  size_t bytes = (size_t)width * height * 3;
  memset(s->view_pixels, 0, bytes); /* the border Crafter leaves black */
  crafter_render_pixels(s->view_renderer, env, s->view_pixels);
  if (fflush(s->out) != 0 || write_all(fileno(s->out), s->view_pixels, bytes) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return -1;
  }
  return 0;
}

static int run_binary(session *s, reader *in, char *error, size_t error_size) {
  int count = s->options->envs;
  write_header(s);
  widen_pipe(s);
  s->lend_pages = !s->ring;
  if (s->batch && s->obs_bytes) /* the first observations, drawn before there was a frame */
    memcpy(s->frame + s->section[CRAFTER_SECTION_OBS], crafter_batch_observation(s->batch, 0),
           s->obs_bytes * (size_t)count);
  for (int i = 0; i < count; i++) fill_frame(s, i, NULL, 1);
  if (send_frame(s, 0) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return 1;
  }
  for (long step = 1;; step++) {
    long available = fill(in, 1);
    if (available > 0 && in->buffer[in->start] == CRAFTER_PROTOCOL_RENDER) {
      if (answer_render(s, in, step, error, error_size) < 0) return 1;
      step--; /* a request is not a step */
      continue;
    }
    if (available > 0) available = fill(in, (size_t)count);
    if (available < 0) {
      snprintf(error, error_size, "reading standard input: %s", strerror(errno));
      return 1;
    }
    if (available == 0) return 0;
    if (available < count) {
      snprintf(error, error_size,
               "input ended in the middle of step %ld: %ld of %d action bytes", step, available,
               count);
      return 1;
    }
    const uint8_t *actions = in->buffer + in->start;
    for (int i = 0; i < count; i++)
      if (actions[i] >= CRAFTER_ACTION_COUNT && actions[i] != CRAFTER_BATCH_RESET) {
        snprintf(error, error_size,
                 "step %ld, env %d: action %d out of range (0..%d, or %d to reset)", step, i,
                 actions[i], CRAFTER_ACTION_COUNT - 1, CRAFTER_BATCH_RESET);
        return 1;
      }
    if (reclaim_frame(s) < 0) {
      snprintf(error, error_size, "out of memory");
      return 1;
    }
    int stop = 0;
    if (s->batch) {
      aim_batch(s);
      crafter_batch_step(s->batch, actions, s->batch_results, s->batch_resets);
      for (int i = 0; i < count; i++) fill_frame(s, i, &s->batch_results[i], s->batch_resets[i]);
    } else {
      for (int i = 0; i < count; i++) {
        crafter_step_result result = {0.0, 0, 1.0, 0};
        int reset = 0;
        if (actions[i] == CRAFTER_BATCH_RESET) {
          cut_episode(s, i);
          if (reset_env(s, i, error, error_size) < 0) return 1;
          reset = 1;
        } else {
          stop |= step_env(s, i, actions[i], &result, &reset);
          if (result.done && s->options->final_obs && s->obs_bytes) {
            observe(s, i);
            memcpy(s->frame + s->section[CRAFTER_SECTION_FINAL] + s->obs_bytes * (size_t)i,
                   s->obs + s->obs_bytes * (size_t)i, s->obs_bytes);
          }
          if (result.done && !stop && !s->options->manual_reset) {
            memcpy(s->final_achievements[i], s->envs[i].game.player.achievements,
                   sizeof(s->final_achievements[i]));
            if (reset_env(s, i, error, error_size) < 0) return 1;
            reset = 1;
          }
        }
        fill_frame(s, i, &result, reset);
      }
    }
    settle_final(s);
    in->start += (size_t)count;
    if (s->record_failed) {
      snprintf(error, error_size, "%s", s->record_error);
      return 1;
    }
    if (send_frame(s, (uint32_t)step) < 0) {
      snprintf(error, error_size, "writing standard output: %s", strerror(errno));
      return 1;
    }
    if (stop) return 0;
  }
}

/* Bytes a line of actions may take: Crafter's longest action name is 18
 * characters, so 64 a env leave room for any spacing, and 4096 more for a
 * line of one env. */
size_t crafter_session_line_limit(int envs) { return 4096 + 64 * (size_t)envs; }

static int run_text(session *s, reader *in, char *error, size_t error_size) {
  int count = s->options->envs;
  for (int i = 0; i < count; i++) write_text_record(s, i, 0, NULL);
  line_buffer buffer = {NULL, 0, 0, crafter_session_line_limit(count)};
  int *actions = malloc(sizeof(int) * (size_t)count);
  if (!actions) {
    snprintf(error, error_size, "out of memory");
    return 1;
  }
  long line_number = 0;
  int status = 0;
  for (;;) {
    int got = read_line(in, &buffer);
    if (got == 0) break;
    line_number++;
    if (got == LINE_TOO_LONG) {
      snprintf(error, error_size,
               "line %ld: longer than %zu bytes, the limit for %d env%s (4096 + 64 per env)",
               line_number, buffer.limit, count, count == 1 ? "" : "s");
      status = 1;
      break;
    }
    if (got == LINE_READ_ERROR || got == LINE_NO_MEMORY) {
      snprintf(error, error_size, "reading standard input: %s",
               got == LINE_NO_MEMORY ? "out of memory" : strerror(errno));
      status = 1;
      break;
    }
    char *line = buffer.text;
    const char *nul = memchr(line, '\0', buffer.length);
    if (nul) {
      char shown[64];
      snprintf(error, error_size, "line %ld: a NUL byte at column %zu: \"%s\" (actions are text)",
               line_number, (size_t)(nul - line) + 1,
               crafter_escape(shown, sizeof(shown), line, buffer.length));
      status = 1;
      break;
    }
    char *cursor = line;
    while (*cursor == ' ' || *cursor == '\t' || *cursor == '\r') cursor++;
    if (*cursor == '#') continue; /* a comment */
    int parsed = 0;
    char *word;
    while (parsed <= count && (word = strtok(parsed ? NULL : cursor, " \t\r")) != NULL) {
      if (parsed == count) {
        parsed++;
        break;
      }
      int action = crafter_proto_parse_action(word);
      if (action < 0) {
        char shown[64];
        snprintf(error, error_size,
                 "line %ld: invalid action '%s' (expected 0..16 or a name such as "
                 "move_left)",
                 line_number, crafter_escape(shown, sizeof(shown), word, strlen(word)));
        status = 1;
        break;
      }
      actions[parsed++] = action;
    }
    if (status) break;
    if (parsed == 0) continue; /* blank line */
    if (parsed != count) {
      snprintf(error, error_size, "line %ld: expected %d actions, one per env, got %s",
               line_number, count, parsed > count ? "more" : "fewer");
      status = 1;
      break;
    }
    int stop = 0;
    for (int i = 0; i < count; i++) {
      crafter_step_result result;
      int reset;
      stop |= step_env(s, i, actions[i], &result, &reset);
      write_text_record(s, i, actions[i], &result);
      if (result.done && !stop) {
        if (reset_env(s, i, error, error_size) < 0) {
          status = 1;
          break;
        }
        write_text_record(s, i, 0, NULL);
      }
    }
    if (!status && s->record_failed) {
      snprintf(error, error_size, "%s", s->record_error);
      status = 1;
    }
    if (status || stop) break;
  }
  free(actions);
  free(buffer.text);
  return status;
}

int crafter_session_run(const crafter_session_options *options, int input, FILE *output,
                        char *error, size_t error_size) {
  if (options->envs < 1) {
    snprintf(error, error_size, "the number of envs must be at least 1");
    return 2;
  }
  if (options->binary && options->obs_kind == CRAFTER_OBS_TEXT) {
    snprintf(error, error_size, "text observations have no fixed size; use them with JSON lines");
    return 2;
  }
  session s;
  memset(&s, 0, sizeof(s));
  s.options = options;
  s.out = output;
  if (setup(&s, error, error_size) < 0) {
    free_session(&s);
    return 2;
  }
  for (int i = 0; !s.batch && i < options->envs; i++)
    if (reset_env(&s, i, error, error_size) < 0) {
      free_session(&s);
      return 1;
    }
  reader *in = calloc(1, sizeof(reader));
  if (!in) {
    snprintf(error, error_size, "out of memory");
    free_session(&s);
    return 1;
  }
  in->fd = input;
  in->flush = output;
  int status = options->binary ? run_binary(&s, in, error, error_size)
                               : run_text(&s, in, error, error_size);
  free(in);
  char record_error[300];
  if (finish_recording(&s, record_error, sizeof(record_error)) != 0 && status == 0) {
    snprintf(error, error_size, "%s", record_error);
    status = 1;
  }
  free_session(&s);
  if (fflush(output) != 0 || ferror(output)) {
    if (status == 0) snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return 1;
  }
  return status;
}
