/* vmsplice(2), F_SETPIPE_SZ and FIONREAD are Linux's. */
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "tools/session.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/magic.h>
#include <sys/vfs.h>
#endif

#include "base/bytes.h"
#include "base/cli.h"
#include "base/errors.h"
#include "base/json.h"
#include "tools/input.h"
#include "run/batch.h"
#include "run/episode.h"
#include "run/proto.h"
#include "run/traj.h"
#include "run/traj_writer.h"
#include "view/render.h"
#include "view/textures.h"

typedef struct session {
  const crafter_session_options *options;
  crafter_batch *batch;
  crafter_textures textures;
  int have_textures;
  size_t obs_bytes;  /* one player's observation of the chosen kind (text: capacity) */
  int players;       /* players a world */
  int agents;        /* envs * players: the entries of a frame, the records of a step */
  FILE *out;
  /* Binary protocol. */
  uint8_t *frame;    /* binary frame of all envs: the buffer, or the slot of the
                        shared-memory ring being filled */
  size_t frame_bytes;
  size_t section[CRAFTER_PROTOCOL_SECTIONS]; /* offsets in a frame */
  uint8_t *ring;     /* --shm-fd: the mapping of the ring of frames */
  size_t ring_bytes;
  int lend_pages;    /* frames go to the pipe by vmsplice (until it fails) */
  int frame_lent;    /* the pipe may hold the frame buffer's pages */
  uint8_t *final_dirty; /* --final-obs: per frame buffer (ring slot) and env, whether its
                           final section holds an observation to clear */
  uint8_t *table;    /* binary: the task table after the header */
  size_t table_bytes;
  /* Every step: each env's outcome and whether it started an episode. */
  crafter_step_outcome *records;
  uint8_t *started;
  /* JSON lines: each env's records of a step, written on the env's thread
   * and sent in env order. */
  FILE **step_text, **start_text;
  char **step_buffer, **start_buffer;
  size_t *step_size, *start_size;
  const int *text_actions;
  int step_trouble;  /* a JSON-lines step ran out of memory while recording */
  /* Episodes ended, and whether the run has all it asked for. */
  int64_t finished;
  int stop;
  crafter_traj_writer *writer;        /* --record */
  crafter_traj_header header;         /* its header */
  int record_failed;
  char record_error[300];
  /* Render requests: a renderer for the size last asked for, and its
   * pixels. */
  crafter_renderer *view_renderer;
  int view_size[2];
  uint8_t *view_pixels;
  /* Save and load requests: a state's bytes. */
  uint8_t *state;
  size_t state_capacity;
} session;

static void free_text(FILE **files, char **buffers, int count) {
  for (int i = 0; files && i < count; i++)
    if (files[i]) fclose(files[i]);
  for (int i = 0; buffers && i < count; i++) free(buffers[i]);
  free(files);
  free(buffers);
}

static void free_session(session *s) {
  int count = s->options->run.envs;
  free(s->table);
  crafter_renderer_free(s->view_renderer);
  free(s->view_pixels);
  free(s->state);
  crafter_batch_free(s->batch);
  if (s->writer) {
    char ignored[64];
    crafter_traj_writer_close(s->writer, ignored, sizeof(ignored));
  }
  if (s->have_textures) crafter_textures_fini(&s->textures);
  free(s->records);
  free(s->started);
  free_text(s->step_text, s->step_buffer, count);
  free_text(s->start_text, s->start_buffer, count);
  free(s->step_size);
  free(s->start_size);
  if (s->ring)
    munmap(s->ring, s->ring_bytes);
  else if (s->frame)
    munmap(s->frame, s->frame_bytes);
  free(s->final_dirty);
}

static int load_textures(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  int status = crafter_textures_load(&s->textures, options->run.textures, error, error_size);
  if (status < 0) return -1;
  s->have_textures = 1;
  return 0;
}

/* The frame's sections, each a struct of arrays over the envs starting on a
 * multiple of 64 bytes (crafter-protocol(5)). */
static size_t section_bytes_per_env(const session *s, int section) {
  const crafter_params *params = &s->options->run.params;
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
    case CRAFTER_SECTION_TASK: return s->options->run.task_pool ? 8 : 0;
    case CRAFTER_SECTION_ALIVE: return s->players > 1 ? 1 : 0;
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

/* Whether the descriptor of --shm-fd may be sized to the ring, which
 * empties what it held: shared memory (an object of shm_open(3) or
 * memfd_create(2), which Linux keeps on tmpfs, or hugetlbfs), or a regular
 * file with nothing in it yet, open for reading and writing -- so a wrong
 * descriptor never destroys a file.  0, or -1 with the reason. */
int crafter_session_check_shm(int fd, char *error, size_t error_size) {
  struct stat status;
  if (fstat(fd, &status) < 0)
    return crafter_fail(error, error_size, "--shm-fd %d: cannot size the shared memory: %s", fd,
                        strerror(errno));
  if (!S_ISREG(status.st_mode)) {
    const char *kind = S_ISFIFO(status.st_mode)   ? "a pipe"
                       : S_ISSOCK(status.st_mode) ? "a socket"
                       : S_ISDIR(status.st_mode)  ? "a directory"
                       : S_ISCHR(status.st_mode)  ? "a terminal or device"
                                                  : "no file";
    return crafter_fail(error, error_size,
                        "--shm-fd %d is %s, not shared memory (memfd_create(2) or shm_open(3))",
                        fd, kind);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) != O_RDWR)
    return crafter_fail(error, error_size,
                        "--shm-fd %d is not open for reading and writing, as shared memory "
                        "must be to be mapped",
                        fd);
  if (status.st_size == 0) return 0;
#if defined(__linux__)
  struct statfs system;
  if (fstatfs(fd, &system) == 0 &&
      (system.f_type == TMPFS_MAGIC || system.f_type == HUGETLBFS_MAGIC))
    return 0;
#endif
  return crafter_fail(error, error_size,
                      "--shm-fd %d is a file of %lld bytes, not shared memory: it is left as it "
                      "is (give memory from memfd_create(2) or shm_open(3), or an empty file)",
                      fd, (long long)status.st_size);
}

/* Lays out the frame, and gives it a buffer: memory of its own, or a
 * ring of frames in the shared memory of --shm-fd, sized here. */
static int setup_frames(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  size_t at = 0;
  for (int k = 0; k < CRAFTER_PROTOCOL_SECTIONS; k++) {
    s->section[k] = at;
    at = align64(at + section_bytes_per_env(s, k) * (size_t)s->agents);
  }
  s->frame_bytes = at;
  if (options->final_obs) {
    size_t buffers = options->shm_fd < 0 ? 1 : (size_t)options->shm_slots;
    s->final_dirty = calloc(buffers * (size_t)s->agents, 1);
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
  if (crafter_session_check_shm(options->shm_fd, error, error_size) < 0) return -1;
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
  if (s->obs_bytes) {
    crafter_batch_redirect(s->batch, s->frame + s->section[CRAFTER_SECTION_OBS]);
    if (s->options->final_obs)
      crafter_batch_keep_final(s->batch, s->frame + s->section[CRAFTER_SECTION_FINAL]);
  }
}

/* The binary protocol's task table (crafter-protocol(5)): the goals of
 * the pool and every wording of each, which a frame's task section
 * points into. */
static int build_task_table(session *s) {
  const crafter_task_pool *pool = s->options->run.task_pool;
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

/* JSON lines: a growable buffer an env's records are written into. */
static int open_texts(FILE ***files, char ***buffers, size_t **sizes, int count) {
  *files = calloc((size_t)count, sizeof(FILE *));
  *buffers = calloc((size_t)count, sizeof(char *));
  *sizes = calloc((size_t)count, sizeof(size_t));
  if (!*files || !*buffers || !*sizes) return -1;
  for (int i = 0; i < count; i++)
    if (!((*files)[i] = open_memstream(&(*buffers)[i], &(*sizes)[i]))) return -1;
  return 0;
}

static int setup(session *s, char *error, size_t error_size) {
  const crafter_session_options *options = s->options;
  int count = options->run.envs;
  if (crafter_obs_kind(options->run.obs_kind)->drawn && load_textures(s, error, error_size) < 0)
    return -1;
  const crafter_textures *textures = s->have_textures ? &s->textures : NULL;
  crafter_traj_header header;
  if (options->run.record_path) crafter_run_header(&options->run, "external", textures, &header);
  crafter_batch_options batch = {0};
  crafter_run_episode_options(&options->run, textures, options->run.record_path ? &header : NULL,
                              &batch.episode);
  batch.envs = count;
  batch.threads = options->run.threads < 1       ? 1
                  : options->run.threads > count ? count
                                                 : options->run.threads;
  batch.manual_reset = options->manual_reset;
  int made = crafter_batch_create(&batch, &s->batch, error, error_size);
  if (made < 0) return made;
  s->obs_bytes = crafter_batch_observation_bytes(s->batch) / (size_t)s->players;
  s->records = calloc((size_t)s->agents, sizeof(*s->records));
  s->started = calloc((size_t)count, 1);
  if (!s->records || !s->started) goto out_of_memory;
  if (options->run.record_path) s->header = header; /* the file is made once all else is ready */
  if (options->run.task_pool && options->binary && build_task_table(s) < 0) goto out_of_memory;
  if (options->binary) return setup_frames(s, error, error_size);
  if (s->players > 1 && options->final_obs) {
    snprintf(error, error_size, "--final-obs is not available with several players");
    return -1;
  }
  if (open_texts(&s->step_text, &s->step_buffer, &s->step_size, count) < 0 ||
      open_texts(&s->start_text, &s->start_buffer, &s->start_size, count) < 0)
    goto out_of_memory;
  return 0;
out_of_memory:
  snprintf(error, error_size, "out of memory");
  return -1;
}

/* ---- recording ---- */

static void record_failure(session *s, const char *message) {
  if (s->record_failed) return;
  s->record_failed = 1;
  snprintf(s->record_error, sizeof(s->record_error), "%s", message);
}

/* Stores env i's episode (finished, or cut short) in the file. */
static void store_episode(session *s, int i) {
  if (!s->writer || s->record_failed) return;
  char problem[300];
  if (crafter_episode_store(crafter_batch_episode(s->batch, i), s->writer, problem,
                            sizeof(problem)) < 0)
    record_failure(s, problem);
}

/* An episode left, in env order before any starts: stored; counted when
 * finished.  Whether the env starts its next one: not once the run has
 * all the episodes it asked for. */
static int episode_left(void *context, int i, crafter_episode *episode, int finished) {
  session *s = context;
  if (finished) {
    store_episode(s, i);
    s->finished++;
    if (s->options->run.episodes && s->finished >= s->options->run.episodes) s->stop = 1;
    return !s->stop;
  }
  if (crafter_episode_unfinished(episode)) store_episode(s, i);
  return 1;
}

/* Stores the episodes the input cut short, then the index. */
static int finish_recording(session *s, char *error, size_t error_size) {
  if (!s->writer) return 0;
  char problem[300] = "";
  for (int i = 0; i < s->options->run.envs && !s->record_failed; i++)
    if (crafter_episode_unfinished(crafter_batch_episode(s->batch, i))) store_episode(s, i);
  if (crafter_traj_writer_close(s->writer, problem, sizeof(problem)) < 0) record_failure(s, problem);
  s->writer = NULL;
  if (s->record_failed) {
    snprintf(error, error_size, "%s", s->record_error);
    return 1;
  }
  return 0;
}

/* Whether something the runners could not hand back went wrong. */
static int step_failed(session *s, char *error, size_t error_size) {
  const char *failure = crafter_batch_failure(s->batch);
  if (!failure && !s->record_failed) return 0;
  snprintf(error, error_size, "%s", failure ? failure : s->record_error);
  return 1;
}

/* ---- JSON lines ---- */

static crafter_step_result result_of(const crafter_step_outcome *record) {
  return (crafter_step_result){record->reward, record->done, record->discount, record->unlocked,
                               record->info_reward};
}

/* Agent's record: a step's (record not NULL), or the state it starts
 * from; with `loaded`, the state a load request brought (its "env" key
 * always, "loaded": true, and "done": whether the player's episode had
 * ended). */
static void write_text_record(session *s, FILE *out, int agent, int action,
                              const crafter_step_outcome *record, int loaded) {
  int i = agent / s->players, p = agent % s->players;
  crafter_episode *episode = crafter_batch_episode(s->batch, i);
  size_t size;
  const uint8_t *obs = crafter_episode_observe_player(episode, p, &size);
  const crafter_obs_kind_info *kind = crafter_obs_kind(s->options->run.obs_kind);
  int tasks = s->options->run.task_pool != NULL;
  crafter_proto_extra extra = {
      s->options->run.envs > 1 || s->players > 1 || loaded ? i : -1,
      kind->drawn && s->options->info == CRAFTER_INFO_FULL ? obs : NULL,
      kind->drawn ? s->obs_bytes : 0,
      s->options->run.obs_kind,
      1,
      s->obs_bytes ? obs : NULL,
      size,
      tasks ? crafter_episode_player_task(episode, p)->id : NULL,
      tasks ? crafter_episode_player_instruction(episode, p) : NULL,
      tasks && record ? record->goal : -1,
      crafter_episode_level(episode),
      s->players > 1 ? p + 1 : 0,
      loaded,
      loaded && crafter_episode_player_done(episode, p)};
  const crafter_env *env = crafter_episode_env_const(episode);
  crafter_step_result result = record ? result_of(record) : (crafter_step_result){0};
  const crafter_step_result *step = record ? &result : NULL;
  if (s->options->info == CRAFTER_INFO_FULL) {
    if (step)
      crafter_proto_write_step(out, env, p, action, step, &extra);
    else
      crafter_proto_write_reset(out, env, p, &extra);
  } else if (s->options->info == CRAFTER_INFO_STATE) {
    crafter_proto_write_state(out, env, p, step, &extra); /* resets carry the first state */
  } else if (step || loaded || s->options->run.obs_kind != CRAFTER_OBS_NONE || s->options->run.envs > 1 ||
             s->options->run.task_pool || s->options->run.level_set || s->players > 1) {
    /* A short reset record only when it carries something: the goal and
     * the level are known before the first action. */
    crafter_proto_write_short(out, env, step, &extra);
  }
}

/* Sends what env i's memory stream holds, and empties it. */
static void send_text(session *s, FILE *stream, char **buffer) {
  fflush(stream);
  long length = ftell(stream);
  if (length > 0) fwrite(*buffer, 1, (size_t)length, s->out);
  rewind(stream);
}

static void text_step_job(void *context, int i, crafter_episode *episode) {
  session *s = context;
  int first = i * s->players;
  const int *actions = s->text_actions + first;
  int status = s->players == 1
                   ? crafter_episode_step(episode, actions[0], &s->records[first])
                   : crafter_episode_step_players(episode, actions, &s->records[first]);
  if (status < 0) __atomic_store_n(&s->step_trouble, 1, __ATOMIC_RELAXED);
  for (int p = 0; p < s->players; p++)
    write_text_record(s, s->step_text[i], first + p, actions[p], &s->records[first + p], 0);
}

static void text_start_job(void *context, int i, crafter_episode *episode) {
  session *s = context;
  (void)episode;
  for (int p = 0; p < s->players; p++)
    write_text_record(s, s->start_text[i], i * s->players + p, 0, NULL, 0);
}

/* Whether the step of env i ended its world's episode. */
static int world_ended(const session *s, int i) {
  const crafter_step_outcome *record = &s->records[(size_t)i * (size_t)s->players];
  return record->over;
}

static void fill_frame(session *s, int agent, const crafter_step_outcome *record, int started) {
  uint8_t *frame = s->frame;
  int i = agent, p = 0;
  crafter_episode *episode = crafter_batch_episode(s->batch, agent / s->players);
  const crafter_env *env = crafter_episode_env_const(episode);
  if (s->players > 1) {
    p = agent % s->players;
    frame[s->section[CRAFTER_SECTION_ALIVE] + (size_t)agent] =
        (uint8_t)!crafter_episode_player_done(episode, p);
  }
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  const crafter_object *body = crafter_game_body(&env->game, p);
  static const crafter_object nowhere = {0};
  if (!body) body = &nowhere; /* a player who left the world: at (0, 0) */
  size_t *at = s->section;
  crafter_put_f64(frame + at[CRAFTER_SECTION_REWARD] + 8 * (size_t)i, record ? record->reward : 0.0);
  crafter_put_f32(frame + at[CRAFTER_SECTION_DISCOUNT] + 4 * (size_t)i,
                  record ? (float)record->discount : 1.0f);
  frame[at[CRAFTER_SECTION_DONE] + (size_t)i] = record && record->done;
  frame[at[CRAFTER_SECTION_RESET] + (size_t)i] = (uint8_t)started;
  crafter_put_u32(frame + at[CRAFTER_SECTION_UNLOCKED] + 4 * (size_t)i, record ? record->unlocked : 0);
  crafter_put_u32(frame + at[CRAFTER_SECTION_EPISODE] + 4 * (size_t)i, (uint32_t)env->episode);
  crafter_put_u32(frame + at[CRAFTER_SECTION_STEP] + 4 * (size_t)i, (uint32_t)env->game.step);
  uint8_t *inventory = frame + at[CRAFTER_SECTION_INVENTORY] + 4 * CRAFTER_ITEM_COUNT * (size_t)i;
  for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
    crafter_put_u32(inventory + 4 * k, (uint32_t)player->inventory[k]);
  /* A step that ended an episode and started the next reports the
   * achievements the episode ended with. */
  const int32_t *counts = record && record->over && started
                              ? crafter_batch_final_achievements(s->batch, i)
                              : player->achievements;
  uint8_t *achievements =
      frame + at[CRAFTER_SECTION_ACHIEVEMENTS] + 4 * CRAFTER_ACHIEVEMENT_COUNT * (size_t)i;
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    crafter_put_u32(achievements + 4 * k, (uint32_t)counts[k]);
  uint8_t *position = frame + at[CRAFTER_SECTION_POSITION] + 16 * (size_t)i;
  crafter_put_u32(position, (uint32_t)body->x);
  crafter_put_u32(position + 4, (uint32_t)body->y);
  crafter_put_u32(position + 8, (uint32_t)player->facing_x);
  crafter_put_u32(position + 12, (uint32_t)player->facing_y);
  const crafter_task_pool *pool = s->options->run.task_pool;
  if (pool) {
    /* The episode's wording, and whether the step met its goal (the
     * record's: the next episode may have started since). */
    uint8_t *task = frame + at[CRAFTER_SECTION_TASK] + 8 * (size_t)i;
    crafter_put_u32(task,
                    (uint32_t)(pool->first_text[crafter_episode_player_candidate(episode, p)] +
                               crafter_episode_player_text(episode, p)));
    crafter_put_u32(task + 4, record ? (uint32_t)record->goal : 0);
  }
  if (s->options->semantic_info) {
    size_t cells = section_bytes_per_env(s, CRAFTER_SECTION_SEMANTIC);
    crafter_env_semantic(env, p, frame + at[CRAFTER_SECTION_SEMANTIC] + cells * (size_t)i);
  }
  /* The observation is drawn into the frame by the batch. */
}

static void write_header(session *s) {
  const crafter_session_options *options = s->options;
  uint8_t header[CRAFTER_PROTOCOL_HEADER_BYTES] = {0};
  memcpy(header, CRAFTER_PROTOCOL_MAGIC, 8);
  const crafter_obs_kind_info *kind = crafter_obs_kind(options->run.obs_kind);
  uint32_t shape[3];
  crafter_obs_kind_shape(options->run.obs_kind, &options->run.params, s->players, shape);
  uint32_t flags = (options->manual_reset ? 0 : CRAFTER_PROTOCOL_AUTORESET) |
                   (options->semantic_info ? CRAFTER_PROTOCOL_SEMANTIC : 0) |
                   (s->ring ? CRAFTER_PROTOCOL_SHM : 0) |
                   (options->run.task_pool ? CRAFTER_PROTOCOL_TASKS : 0) |
                   (options->run.level_set ? CRAFTER_PROTOCOL_LEVELS : 0) |
                   (options->final_obs ? CRAFTER_PROTOCOL_FINAL : 0);
  crafter_put_u32(header + 8, CRAFTER_PROTOCOL_VERSION);
  size_t extension = s->players > 1 ? CRAFTER_PROTOCOL_PLAYERS_BYTES : 0;
  if (s->players > 1) flags |= CRAFTER_PROTOCOL_PLAYERS;
  crafter_put_u32(header + 12,
                  (uint32_t)(CRAFTER_PROTOCOL_HEADER_BYTES + extension + s->table_bytes));
  crafter_put_u32(header + 16, (uint32_t)s->agents);
  crafter_put_u32(header + 20, (uint32_t)kind->protocol_id);
  crafter_put_u32(header + 24, (uint32_t)kind->element);
  for (int i = 0; i < 3; i++) crafter_put_u32(header + 28 + 4 * i, shape[i]);
  crafter_put_u32(header + 40, (uint32_t)s->obs_bytes);
  crafter_put_u32(header + 44, (uint32_t)s->frame_bytes);
  crafter_put_u32(header + 48, CRAFTER_ACTION_COUNT);
  crafter_put_u32(header + 52, CRAFTER_ACHIEVEMENT_COUNT);
  crafter_put_u32(header + 56, CRAFTER_ITEM_COUNT);
  crafter_put_u32(header + 60, (uint32_t)options->run.params.area[0]);
  crafter_put_u32(header + 64, (uint32_t)options->run.params.area[1]);
  crafter_put_u32(header + 68, flags);
  crafter_put_u32(header + 72, s->ring ? (uint32_t)options->shm_slots : 0);
  /* The sections up to the observations at 76..120; the task section has
   * its offset at 124 only with goals; the final section, between the two,
   * has none (it starts where the observations' section ends). */
  for (int k = 0; k <= CRAFTER_SECTION_OBS; k++)
    crafter_put_u32(header + 76 + 4 * k, (uint32_t)s->section[k]);
  if (options->run.task_pool)
    crafter_put_u32(header + 124, (uint32_t)s->section[CRAFTER_SECTION_TASK]);
  fwrite(header, 1, sizeof(header), s->out);
  if (extension) {
    uint8_t players[CRAFTER_PROTOCOL_PLAYERS_BYTES] = {0};
    crafter_put_u32(players, (uint32_t)s->players);
    crafter_put_u32(players + 4, (uint32_t)options->run.envs);
    crafter_put_u32(players + 8, (uint32_t)s->section[CRAFTER_SECTION_ALIVE]);
    fwrite(players, 1, sizeof(players), s->out);
  }
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
 * ahead, a crafter_input behind) the buffer is let go for a fresh one.  Where
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
 * its pages.  With `keep`, a fresh buffer starts as a copy of the frame. */
static int reclaim_frame(session *s, int keep) {
  if (!s->frame_lent) return 0;
  s->frame_lent = 0;
#if defined(__linux__)
  int waiting = 0;
  if (ioctl(fileno(s->out), FIONREAD, &waiting) == 0 && waiting == 0) return 0;
#endif
  uint8_t *fresh = new_frame_buffer(s);
  if (!fresh) return -1;
  if (keep) memcpy(fresh, s->frame, s->frame_bytes);
  munmap(s->frame, s->frame_bytes);
  s->frame = fresh;
  if (s->final_dirty && !keep) memset(s->final_dirty, 0, (size_t)s->agents);
  return 0;
}

/* The final section holds the observations of the episodes that ended at
 * this step and zeros elsewhere, whatever the buffer held before: a slot
 * is cleared only where an earlier frame in this buffer left one. */
static void settle_final(session *s) {
  if (!s->final_dirty || !s->obs_bytes) return;
  const uint8_t *ended = s->frame + s->section[CRAFTER_SECTION_DONE];
  size_t slot = s->ring ? (size_t)(s->frame - s->ring) / s->frame_bytes : 0;
  uint8_t *dirty = s->final_dirty + slot * (size_t)s->agents;
  uint8_t *section = s->frame + s->section[CRAFTER_SECTION_FINAL];
  for (int i = 0; i < s->agents; i++) {
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
 * wake-up of the crafter_input; Linux pipes hold 64 KiB unless asked for more,
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
static int answer_render(session *s, crafter_input *in, long step, char *error, size_t error_size) {
  long available = crafter_input_fill(in, CRAFTER_PROTOCOL_RENDER_BYTES);
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
  if (index >= (uint32_t)s->agents && s->players > 1) {
    /* With several players a request names an entry of the frame, an env's
     * player (crafter-protocol(5)). */
    int envs = s->options->run.envs;
    snprintf(error, error_size,
             "a render request before step %ld names entry %u, but a frame has %d (0 to %d: "
             "%d env%s of %d players)",
             step, index, s->agents, s->agents - 1, envs, envs == 1 ? "" : "s", s->players);
    return -1;
  }
  if (index >= (uint32_t)s->agents) {
    snprintf(error, error_size, "a render request before step %ld names env %u of %d", step,
             index, s->agents);
    return -1;
  }
  crafter_env *env = crafter_batch_env(s->batch, (int)index / s->players);
  int player = (int)index % s->players;
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
  /* A player who left the world has a black view. */
  if (crafter_game_body_slot(&env->game, player) >= 0)
    crafter_render_pixels(s->view_renderer, env, player, s->view_pixels);
  if (fflush(s->out) != 0 || write_all(fileno(s->out), s->view_pixels, bytes) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- saved states (crafter-state(5)) ---- */

/* The state buffer holds `size` bytes; 0, or -1 out of memory. */
static int state_room(session *s, size_t size) {
  if (size <= s->state_capacity) return 0;
  uint8_t *grown = realloc(s->state, size);
  if (!grown) return -1;
  s->state = grown;
  s->state_capacity = size;
  return 0;
}

/* Env i's state into the state buffer; its size, or 0 out of memory. */
static size_t save_env(session *s, int i) {
  size_t size = crafter_batch_save_state(s->batch, i, NULL, 0);
  if (state_room(s, size) < 0) return 0;
  return crafter_batch_save_state(s->batch, i, s->state, size);
}

/* Loads the state buffer's `size` bytes into env i.  Without
 * --manual-reset an env whose loaded episode had ended starts its next
 * one at once, as after a step that ends one; *started says so.  0, or
 * -1 with the reason the state was refused (the session goes on). */
static int load_env(session *s, int i, size_t size, int *started, char *reason,
                    size_t reason_size) {
  *started = 0;
  if (crafter_batch_load_state(s->batch, i, s->state, size, reason, reason_size) < 0) return -1;
  if (!s->options->manual_reset && crafter_episode_ended(crafter_batch_episode(s->batch, i))) {
    memset(s->started, 0, (size_t)s->options->run.envs);
    s->started[i] = 1;
    crafter_batch_start(s->batch, s->started);
    s->started[i] = 0;
    *started = 1;
  }
  return 0;
}

/* Why a state longer than any of these parameters is refused. */
static void too_long(char *reason, size_t reason_size, size_t size, size_t limit) {
  snprintf(reason, reason_size,
           "a state of %zu bytes, longer than one of these parameters can be (%zu bytes): it "
           "was saved by an env of other parameters, or it is not a state",
           size, limit);
}

static int write_reply(session *s, const void *data, size_t size, char *error,
                       size_t error_size) {
  if (fflush(s->out) != 0 || write_all(fileno(s->out), data, size) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* Answers a load request refused: uint32 1, uint32 M and the M bytes of
 * the reason. */
static int refuse_load(session *s, const char *reason, char *error, size_t error_size) {
  size_t length = strlen(reason);
  uint8_t head[8];
  crafter_put_u32(head, 1);
  crafter_put_u32(head + 4, (uint32_t)length);
  if (write_reply(s, head, sizeof(head), error, error_size) < 0) return -1;
  return write_reply(s, reason, length, error, error_size);
}

/* 252: env i's state, as uint32 L and L bytes. */
static int answer_save(session *s, crafter_input *in, long step, char *error, size_t error_size) {
  const uint8_t *request =
      crafter_input_request(in, CRAFTER_PROTOCOL_SAVE_BYTES, "save", step, error, error_size);
  if (!request) return -1;
  uint32_t index = crafter_get_u32(request + 1);
  if (index >= (uint32_t)s->options->run.envs) {
    snprintf(error, error_size, "a save request before step %ld names env %u of %d", step, index,
             s->options->run.envs);
    return -1;
  }
  size_t size = save_env(s, (int)index);
  if (!size) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  uint8_t head[4];
  crafter_put_u32(head, (uint32_t)size);
  if (write_reply(s, head, sizeof(head), error, error_size) < 0) return -1;
  return write_reply(s, s->state, size, error, error_size);
}

/* The frame a load answers with: the last frame's entries, in the
 * buffer the next frame goes in, the batch drawing into it. */
static int begin_load_frame(session *s) {
  if (!s->ring) {
    if (reclaim_frame(s, 1) < 0) return -1;
  } else {
    size_t slots = (size_t)s->options->shm_slots;
    size_t slot = (size_t)(s->frame - s->ring) / s->frame_bytes;
    size_t last = (slot + slots - 1) % slots;
    if (last != slot) {
      memcpy(s->frame, s->ring + s->frame_bytes * last, s->frame_bytes);
      if (s->final_dirty)
        memcpy(s->final_dirty + slot * (size_t)s->agents, s->final_dirty + last * (size_t)s->agents,
               (size_t)s->agents);
    }
  }
  aim_batch(s);
  return 0;
}

/* Env i's entries after a load: its state, reward 0, done for the
 * players whose episodes had ended, discount 0 for the dead. */
static void fill_loaded(session *s, int i, int started) {
  crafter_episode *episode = crafter_batch_episode(s->batch, i);
  const crafter_env *env = crafter_episode_env_const(episode);
  for (int p = 0; p < s->players; p++) {
    int agent = i * s->players + p;
    crafter_step_outcome record = {0};
    record.done = crafter_episode_player_done(episode, p);
    int alive = crafter_game_player_const(&env->game, p)->inventory[CRAFTER_HEALTH] > 0;
    record.discount = alive ? 1.0 : 0.0;
    fill_frame(s, agent, &record, started);
    if (s->final_dirty && s->obs_bytes) {
      size_t slot = s->ring ? (size_t)(s->frame - s->ring) / s->frame_bytes : 0;
      memset(s->frame + s->section[CRAFTER_SECTION_FINAL] + s->obs_bytes * (size_t)agent, 0,
             s->obs_bytes);
      s->final_dirty[slot * (size_t)s->agents + (size_t)agent] = 0;
    }
  }
}

/* Reads a load request's `size` bytes of state into `out`, or drops them
 * when `out` is NULL.  0, or -1 with the error of a read that failed or
 * of input that ended first. */
static int read_state_bytes(crafter_input *in, uint8_t *out, uint32_t size, long step, char *error,
                            size_t error_size) {
  long got = out ? crafter_input_read_exact(in, out, size) : crafter_input_skip_exact(in, size);
  if (got < 0) {
    snprintf(error, error_size, "reading standard input: %s", strerror(errno));
    return -1;
  }
  if ((size_t)got < size) {
    snprintf(error, error_size,
             "input ended in a load request before step %ld: %ld of the state's %u bytes", step,
             got, size);
    return -1;
  }
  return 0;
}

/* 251: a state loaded into env i; uint32 status, uint32 M, the reason,
 * and when loaded the next frame. */
static int answer_load(session *s, crafter_input *in, long step, uint32_t *sequence, char *error,
                       size_t error_size) {
  const uint8_t *request =
      crafter_input_request(in, CRAFTER_PROTOCOL_LOAD_BYTES, "load", step, error, error_size);
  if (!request) return -1;
  uint32_t index = crafter_get_u32(request + 1), size = crafter_get_u32(request + 5);
  if (index >= (uint32_t)s->options->run.envs) {
    snprintf(error, error_size, "a load request before step %ld names env %u of %d", step, index,
             s->options->run.envs);
    return -1;
  }
  char reason[400] = "";
  size_t limit = crafter_state_episode_limit(crafter_batch_episode(s->batch, (int)index));
  if (size > limit) {
    /* Too long to be a state of these parameters: read to its end and
     * refused, so that the stream goes on. */
    if (read_state_bytes(in, NULL, size, step, error, error_size) < 0) return -1;
    too_long(reason, sizeof(reason), size, limit);
    return refuse_load(s, reason, error, error_size);
  }
  if (state_room(s, size ? size : 1) < 0 || begin_load_frame(s) < 0) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  if (read_state_bytes(in, s->state, size, step, error, error_size) < 0) return -1;
  int started;
  if (load_env(s, (int)index, size, &started, reason, sizeof(reason)) < 0)
    return refuse_load(s, reason, error, error_size);
  uint8_t head[8] = {0}; /* status 0, no reason */
  if (write_reply(s, head, sizeof(head), error, error_size) < 0) return -1;
  fill_loaded(s, (int)index, started);
  if (step_failed(s, error, error_size)) return -1;
  if (send_frame(s, (*sequence)++) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* {"env": E, "loaded": false, "error": REASON}: a load refused. */
static void refuse_text(session *s, long index, const char *reason) {
  crafter_reply_refused(s->out, index, reason);
}

/* A request line of JSON lines: "save E" (answered with the state in
 * base64) or "load E BASE64" (answered with the records of the state, or
 * why it was refused).  `skipped`, when not 0, says the line was longer
 * than that many bytes and only its beginning is here: a load request
 * then refused by its length.  1 when the line is one (answered), 0 when
 * it is not, -1 when it cannot be read. */
static int text_request(session *s, char *line, size_t skipped, long line_number, char *error,
                        size_t error_size) {
  int save, env;
  char *end;
  if (crafter_parse_request(line, s->options->run.envs, line_number, &save, &env, &end, error,
                            error_size) < 0)
    return -1;
  long index = env;
  if (save) {
    size_t size = save_env(s, (int)index);
    if (!size) {
      snprintf(error, error_size, "out of memory");
      return -1;
    }
    crafter_reply_saved(s->out, index, s->state, size);
    return 1;
  }
  size_t length = strcspn(end, " \t\r");
  size_t rest = length + strspn(end + length, " \t\r");
  size_t limit = crafter_state_episode_limit(crafter_batch_episode(s->batch, (int)index));
  size_t size;
  char reason[400] = "";
  if (skipped || (end[rest] == '\0' && length / 4 * 3 > limit + 2)) {
    /* More than the base64 of any state of these parameters. */
    snprintf(reason, sizeof(reason),
             "a state longer than one of these parameters can be (%zu bytes, %zu in base64): it "
             "was saved by an env of other parameters, or it is not a state",
             limit, (limit + 2) / 3 * 4);
    refuse_text(s, index, reason);
    return 1;
  }
  if (end[rest] != '\0' || length == 0 || state_room(s, length / 4 * 3 + 1) < 0 ||
      crafter_base64_decode(end, length, s->state, &size) < 0)
    return crafter_load_request_malformed(line_number, error, error_size);
  int started;
  if (load_env(s, (int)index, size, &started, reason, sizeof(reason)) < 0) {
    refuse_text(s, index, reason);
    return 1;
  }
  if (step_failed(s, error, error_size)) return -1;
  for (int p = 0; p < s->players; p++)
    write_text_record(s, s->out, (int)index * s->players + p, 0, NULL, 1);
  return 1;
}

static int run_binary(session *s, crafter_input *in, char *error, size_t error_size) {
  int count = s->agents, envs = s->options->run.envs;
  size_t env_obs = s->obs_bytes * (size_t)s->players;
  write_header(s);
  widen_pipe(s);
  s->lend_pages = !s->ring;
  if (s->obs_bytes) /* the first observations, drawn before there was a frame */
    for (int i = 0; i < envs; i++)
      memcpy(s->frame + s->section[CRAFTER_SECTION_OBS] + env_obs * (size_t)i,
             crafter_batch_observation(s->batch, i), env_obs);
  for (int i = 0; i < count; i++) fill_frame(s, i, NULL, 1);
  uint32_t sequence = 0; /* frames sent: a step's, or a load's */
  if (send_frame(s, sequence++) < 0) {
    snprintf(error, error_size, "writing standard output: %s", strerror(errno));
    return 1;
  }
  for (long step = 1;; step++) {
    long available = crafter_input_fill(in, 1);
    uint8_t first = available > 0 ? in->buffer[in->start] : 0;
    if (first == CRAFTER_PROTOCOL_RENDER || first == CRAFTER_PROTOCOL_SAVE ||
        first == CRAFTER_PROTOCOL_LOAD) {
      int status = first == CRAFTER_PROTOCOL_RENDER ? answer_render(s, in, step, error, error_size)
                   : first == CRAFTER_PROTOCOL_SAVE ? answer_save(s, in, step, error, error_size)
                                                    : answer_load(s, in, step, &sequence, error,
                                                                  error_size);
      if (status < 0) return 1;
      step--; /* a request is not a step */
      continue;
    }
    if (available > 0) available = crafter_input_fill(in, (size_t)count);
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
        snprintf(error, error_size, "step %ld, %s %d: action %d out of range (0..%d, or %d to reset)",
                 step, s->players > 1 ? "player" : "env", i, actions[i], CRAFTER_ACTION_COUNT - 1,
                 CRAFTER_BATCH_RESET);
        return 1;
      }
    if (reclaim_frame(s, 0) < 0) {
      snprintf(error, error_size, "out of memory");
      return 1;
    }
    aim_batch(s);
    crafter_batch_advance(s->batch, actions, s->records, s->started, episode_left, s);
    for (int i = 0; i < count; i++)
      fill_frame(s, i, &s->records[i], s->started[i / s->players]);
    settle_final(s);
    in->start += (size_t)count;
    if (step_failed(s, error, error_size)) return 1;
    if (send_frame(s, sequence++) < 0) {
      snprintf(error, error_size, "writing standard output: %s", strerror(errno));
      return 1;
    }
    if (s->stop) return 0;
  }
}

/* Bytes a line of actions may take: Crafter's longest action name is 18
 * characters, so 64 a env leave room for any spacing, and 4096 more for a
 * line of one env. */
size_t crafter_session_line_limit(int envs) { return 4096 + 64 * (size_t)envs; }

/* One line of actions in JSON lines: every env steps (on the batch's
 * threads, each writing its record into its own buffer); in env order what
 * ended is stored and counted; the envs to restart start (again on the
 * threads, writing their reset records); then the records go out in env
 * order, each env's step record followed by its reset record. */
static void step_text(session *s, const int *actions) {
  int count = s->options->run.envs;
  s->text_actions = actions;
  crafter_batch_each(s->batch, NULL, text_step_job, s);
  if (__atomic_load_n(&s->step_trouble, __ATOMIC_RELAXED))
    record_failure(s, "out of memory while recording");
  for (int i = 0; i < count; i++) {
    s->started[i] = 0;
    if (world_ended(s, i))
      s->started[i] = (uint8_t)episode_left(s, i, crafter_batch_episode(s->batch, i), 1);
  }
  crafter_batch_start(s->batch, s->started);
  crafter_batch_each(s->batch, s->started, text_start_job, s);
  for (int i = 0; i < count; i++) {
    send_text(s, s->step_text[i], &s->step_buffer[i]);
    if (s->started[i]) send_text(s, s->start_text[i], &s->start_buffer[i]);
  }
}

static int run_text(session *s, crafter_input *in, char *error, size_t error_size) {
  int count = s->agents;
  for (int i = 0; i < count; i++) write_text_record(s, s->out, i, 0, NULL, 0);
  /* A line of actions has its limit; a load request, the base64 of the
   * largest state of these parameters. */
  size_t action_limit = crafter_session_line_limit(count);
  size_t state_limit = crafter_state_episode_limit(crafter_batch_episode(s->batch, 0));
  size_t load_limit = 64 + (state_limit + 2) / 3 * 4;
  crafter_action_reader reader = {in, {NULL, 0, 0, load_limit > action_limit ? load_limit
                                                                             : action_limit},
                                  action_limit, count,
                                  s->players > 1 ? "player of each env" : "env", 0, NULL};
  int *actions = malloc(sizeof(int) * (size_t)count);
  if (!actions) {
    snprintf(error, error_size, "out of memory");
    return 1;
  }
  int status = 0;
  for (;;) {
    char *request;
    int too_long;
    int got = crafter_action_reader_next(&reader, actions, &request, &too_long, error, error_size);
    if (got == CRAFTER_READ_END) break;
    if (got == CRAFTER_READ_REQUEST) {
      if (text_request(s, request, too_long ? reader.line.limit : 0, reader.number, error,
                       error_size) < 0) {
        status = 1;
        break;
      }
      continue;
    }
    if (got == CRAFTER_READ_FAILED) {
      status = 1;
      break;
    }
    step_text(s, actions);
    if (step_failed(s, error, error_size)) {
      status = 1;
      break;
    }
    if (s->stop) break;
  }
  free(actions);
  free(reader.line.text);
  return status;
}

int crafter_session_run(const crafter_session_options *options, int input, FILE *output,
                        char *error, size_t error_size) {
  if (options->run.envs < 1) {
    snprintf(error, error_size, "the number of envs must be at least 1");
    return 2;
  }
  const crafter_obs_kind_info *kind = crafter_obs_kind(options->run.obs_kind);
  if (!kind) {
    snprintf(error, error_size, "unknown observation kind %d", options->run.obs_kind);
    return 2;
  }
  if (options->binary && kind->protocol_id < 0) {
    snprintf(error, error_size, "%s observations have no fixed size; use them with JSON lines",
             kind->name);
    return 2;
  }
  if (options->run.players < 0 || options->run.players > CRAFTER_PLAYERS_MAX) {
    snprintf(error, error_size, "players must be 1 to %d, not %d", CRAFTER_PLAYERS_MAX,
             options->run.players);
    return 2;
  }
  session s;
  memset(&s, 0, sizeof(s));
  s.options = options;
  s.out = output;
  s.players = options->run.players > 1 ? options->run.players : 1;
  s.agents = options->run.envs * s.players;
  int made = setup(&s, error, error_size);
  if (made < 0) {
    free_session(&s);
    /* A world that cannot hold the players is a bad world, as in every
     * program; the rest is the options'. */
    return made == CRAFTER_PLAYERS_UNFIT ? 1 : 2;
  }
  /* A file that cannot be written is the run's failure, not the options'. */
  if (options->run.record_path &&
      !(s.writer =
            crafter_traj_writer_create(options->run.record_path, &s.header, error, error_size))) {
    free_session(&s);
    return 1;
  }
  crafter_input *in = calloc(1, sizeof(crafter_input));
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
