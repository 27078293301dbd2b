#include "session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
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
  uint8_t *frame;    /* binary frame of all envs */
  size_t frame_bytes;
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
  free(s->frame);
}

/* Threads help only where the work comes in batches: the binary protocol
 * without recording or a world file, running until the input ends (a
 * batch starts the next episode at once, so the last frame of a counted
 * run could not carry its final observation). */
static int use_batch(const crafter_session_options *options) {
  return options->threads > 1 && options->binary && !options->record && !options->world &&
         options->episodes == 0;
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

static int setup_batch(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  if (options->obs_kind == CRAFTER_OBS_PIXELS && load_textures(s, error, error_size) < 0) return -1;
  crafter_batch_options batch = {options->params, options->first_episode, options->envs,
                                 options->threads, options->obs_kind,
                                 s->have_textures ? &s->textures : NULL, options->config};
  s->batch = crafter_batch_new(&batch, error, error_size);
  s->batch_results = calloc((size_t)options->envs, sizeof(crafter_step_result));
  s->batch_resets = calloc((size_t)options->envs, 1);
  if (!s->batch) return -1;
  s->obs_bytes = crafter_batch_observation_bytes(s->batch);
  s->frame_bytes = (CRAFTER_PROTOCOL_FRAME_HEADER_BYTES + s->obs_bytes + 7) / 8 * 8;
  s->frame = calloc((size_t)options->envs, s->frame_bytes);
  if (!s->batch_results || !s->batch_resets || !s->frame) {
    snprintf(error, error_size, "out of memory");
    return -1;
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
    s->recorders = calloc((size_t)count, sizeof(crafter_traj_recorder *));
    if (!s->recorders) goto out_of_memory;
    for (int i = 0; i < count; i++) {
      s->recorders[i] = crafter_traj_recorder_new(&header);
      if (!s->recorders[i]) goto out_of_memory;
    }
    s->writer = crafter_traj_writer_create(options->record, &header, error, error_size);
    if (!s->writer) return -1;
  }
  if (options->binary) {
    s->frame_bytes = (CRAFTER_PROTOCOL_FRAME_HEADER_BYTES + s->obs_bytes + 7) / 8 * 8;
    s->frame = calloc((size_t)count, s->frame_bytes);
    if (!s->frame) goto out_of_memory;
  }
  return 0;
out_of_memory:
  snprintf(error, error_size, "out of memory");
  return -1;
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
      size_t length = crafter_render_text(env, (char *)obs, s->obs_bytes);
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

static void record_step(session *s, int i, int action, const crafter_step_result *result) {
  if (!s->writer || s->record_failed) return;
  crafter_env *env = &s->envs[i];
  if (crafter_traj_recorder_step(s->recorders[i], env, action, result, record_obs(s, i)) < 0) {
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
                                size};
  crafter_env *env = &s->envs[i];
  if (s->options->info == CRAFTER_INFO_FULL) {
    if (result)
      crafter_proto_write_step(s->out, env, action, result, &extra);
    else
      crafter_proto_write_reset(s->out, env, &extra);
  } else if (s->options->info == CRAFTER_INFO_STATE) {
    crafter_proto_write_state(s->out, env, result, &extra); /* resets carry the first state */
  } else if (result || s->options->obs_kind != CRAFTER_OBS_NONE || s->options->envs > 1) {
    /* A short reset record only when it carries something. */
    crafter_proto_write_short(s->out, env, result, &extra);
  }
}

static void put_u32(uint8_t *at, uint32_t value) {
  at[0] = (uint8_t)value;
  at[1] = (uint8_t)(value >> 8);
  at[2] = (uint8_t)(value >> 16);
  at[3] = (uint8_t)(value >> 24);
}

static void put_f32(uint8_t *at, float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  put_u32(at, bits);
}

static void fill_frame(session *s, int i, const crafter_step_result *result, int reset) {
  uint8_t *frame = s->frame + s->frame_bytes * (size_t)i;
  crafter_env *env = s->batch ? crafter_batch_env(s->batch, i) : &s->envs[i];
  memset(frame, 0, s->frame_bytes);
  put_f32(frame, result ? (float)result->reward : 0.0f);
  frame[4] = result && result->done;
  frame[5] = (uint8_t)reset;
  put_f32(frame + 8, result ? (float)result->discount : 1.0f);
  put_u32(frame + 12, result ? result->unlocked : 0);
  put_u32(frame + 16, (uint32_t)env->episode);
  put_u32(frame + 20, (uint32_t)env->game.step);
  if (s->obs_bytes && s->batch) {
    memcpy(frame + CRAFTER_PROTOCOL_FRAME_HEADER_BYTES, crafter_batch_observation(s->batch, i),
           s->obs_bytes);
  } else if (s->obs_bytes) {
    observe(s, i);
    memcpy(frame + CRAFTER_PROTOCOL_FRAME_HEADER_BYTES, s->obs + s->obs_bytes * (size_t)i,
           s->obs_bytes);
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
  put_u32(header + 8, CRAFTER_PROTOCOL_VERSION);
  put_u32(header + 12, CRAFTER_PROTOCOL_HEADER_BYTES);
  put_u32(header + 16, (uint32_t)options->envs);
  put_u32(header + 20, (uint32_t)options->obs_kind);
  put_u32(header + 24, type);
  for (int i = 0; i < 3; i++) put_u32(header + 28 + 4 * i, shape[i]);
  put_u32(header + 40, (uint32_t)s->obs_bytes);
  put_u32(header + 44, (uint32_t)s->frame_bytes);
  put_u32(header + 48, CRAFTER_ACTION_COUNT);
  put_u32(header + 52, CRAFTER_ACHIEVEMENT_COUNT);
  fwrite(header, 1, sizeof(header), s->out);
}

/* Steps env i; on the end of an episode counts it and starts the next.
 * Returns 1 when the session has run all its episodes. */
static int step_env(session *s, int i, int action, crafter_step_result *result, int *reset) {
  crafter_env *env = &s->envs[i];
  crafter_env_step(env, action, result);
  record_step(s, i, action, result);
  *reset = 0;
  if (!result->done) return 0;
  s->finished++;
  if (s->options->episodes && s->finished >= s->options->episodes) return 1;
  return 0;
}

static int reset_env(session *s, int i, char *error, size_t error_size) {
  if (s->options->world) {
    if (crafter_env_reset_from_world(&s->envs[i], s->options->world, error, error_size) < 0)
      return -1;
  } else if (crafter_env_reset(&s->envs[i]) < 0) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  record_reset(s, i);
  return 0;
}

static int run_binary(session *s, reader *in, char *error, size_t error_size) {
  int count = s->options->envs;
  write_header(s);
  for (int i = 0; i < count; i++) fill_frame(s, i, NULL, 1);
  fwrite(s->frame, s->frame_bytes, (size_t)count, s->out);
  for (long step = 1;; step++) {
    long available = fill(in, (size_t)count);
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
      if (actions[i] >= CRAFTER_ACTION_COUNT) {
        snprintf(error, error_size, "step %ld, env %d: action %d out of range (0..%d)", step, i,
                 actions[i], CRAFTER_ACTION_COUNT - 1);
        return 1;
      }
    int stop = 0;
    if (s->batch) {
      crafter_batch_step(s->batch, actions, s->batch_results, s->batch_resets);
      for (int i = 0; i < count; i++) fill_frame(s, i, &s->batch_results[i], s->batch_resets[i]);
    } else {
      for (int i = 0; i < count; i++) {
        crafter_step_result result;
        int reset;
        stop |= step_env(s, i, actions[i], &result, &reset);
        if (result.done && !stop) {
          if (reset_env(s, i, error, error_size) < 0) return 1;
          reset = 1;
        }
        fill_frame(s, i, &result, reset);
      }
    }
    in->start += (size_t)count;
    if (s->record_failed) {
      snprintf(error, error_size, "%s", s->record_error);
      return 1;
    }
    if (fwrite(s->frame, s->frame_bytes, (size_t)count, s->out) != (size_t)count) {
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
