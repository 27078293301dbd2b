#include "tools/dataset.h"

#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "base/json.h"
#include "base/npz.h"
#include "base/outfile.h"
#include "run/jgame.h"
#include "game/games.h"
#include "run/episode.h"
#include "run/proto.h"
#include "run/traj.h"
#include "run/traj_reader.h"
#include "run/traj_writer.h"
#include "tools/agents.h"
#include "tools/score.h"
#include "view/render.h"
#include "view/textures.h"
#include "view/video.h"


/* failf that returns `code` instead of -1. */
static int failn(int code, char *error, size_t error_size, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(error, error_size, format, arguments);
  va_end(arguments);
  return code;
}

/* ---- observations of an env ---- */

typedef struct observer {
  int kind;               /* what obs holds */
  uint32_t obs_bytes;
  uint8_t *obs;
  crafter_textures textures;
  int have_textures;
  uint32_t textures_crc;
  crafter_renderer *renderer;
  uint8_t *pixels;        /* when rendering */
  size_t pixel_bytes;
} observer;

static void observer_free(observer *o) {
  crafter_renderer_free(o->renderer);
  if (o->have_textures) crafter_textures_fini(&o->textures);
  free(o->pixels);
  free(o->obs);
  memset(o, 0, sizeof(*o));
}

/* Observations of `kind` for env, rendering pixels when `render` (pixels
 * need it).  Attach before the first reset. */
static int observer_init(observer *o, crafter_env *env, int kind, int render, const char *textures,
                         char *error, size_t error_size) {
  memset(o, 0, sizeof(*o));
  o->kind = kind;
  o->obs_bytes = crafter_traj_obs_bytes(&env->params, kind, env->players);
  if (crafter_obs_kind(kind)->drawn) render = 1;
  if (render) {
    char problem[512];
    int status = crafter_textures_load(&o->textures, textures, problem, sizeof(problem));
    if (status < 0)
      return crafter_fail(error, error_size, "%s%s", problem,
                   textures ? "" : " (give a folder of Crafter's PNG files with --textures)");
    o->have_textures = 1;
    o->textures_crc = crafter_traj_textures_crc(&o->textures);
    o->renderer = crafter_renderer_new(&o->textures, &env->params, problem, sizeof(problem));
    if (!o->renderer) {
      observer_free(o);
      return crafter_fail(error, error_size, "%s", problem);
    }
    o->pixel_bytes = (size_t)env->params.size[0] * (size_t)env->params.size[1] * 3;
    o->pixels = malloc(o->pixel_bytes * (size_t)env->players); /* every player's view */
    if (!o->pixels) {
      observer_free(o);
      return crafter_fail(error, error_size, "out of memory");
    }
    crafter_renderer_attach(o->renderer, env, o->pixels);
  }
  if (o->obs_bytes && !crafter_obs_kind(kind)->drawn) {
    o->obs = malloc(o->obs_bytes);
    if (!o->obs) {
      observer_free(o);
      return crafter_fail(error, error_size, "out of memory");
    }
  }
  return 0;
}

/* Player p's observation of the env's current state; NULL for none. */
static const uint8_t *observe(observer *o, const crafter_env *env, int p) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(o->kind);
  if (kind->drawn) return o->pixels + o->pixel_bytes * (size_t)p;
  if (!kind->make || !o->obs) return NULL;
  kind->make(env, p, NULL, NULL, o->obs, o->obs_bytes);
  return o->obs;
}

/* The symbolic observation of a JAX game's state as a file stores it
 * (little-endian float32), drawn in place: `out` is memory of its own
 * (malloc's), aligned for floats. */
static void cc_observe(const crafter_jgame *g, const void *state, uint8_t *out) {
  float *values = (float *)(void *)out;
  g->symbolic(state, values);
  for (size_t k = 0; k < g->symbolic_size; k++) {
    float value = values[k];
    crafter_put_f32(out + 4 * k, value);
  }
}

/* A step of one env of a JAX game without the auto-reset. */
static void cc_act(const crafter_jgame *g, void *env, int action, crafter_jgame_outcome *outcome) {
  g->act_only_many(env, &action, 1, outcome);
}

/* ---- record ---- */

static double seconds_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void draw_progress(FILE *out, long done, long total, long steps, double elapsed, int last) {
  enum { WIDTH = 30 };
  int filled = total > 0 ? (int)(WIDTH * done / total) : WIDTH;
  char bar[WIDTH + 1];
  for (int i = 0; i < WIDTH; i++) bar[i] = i < filled ? '#' : '.';
  bar[WIDTH] = '\0';
  double rate = elapsed > 0 ? (double)steps / elapsed : 0;
  fprintf(out, "\rrecord [%s] %ld/%ld episodes, %ld steps, %.1fk steps/s ", bar, done, total,
          steps, rate / 1000);
  if (last) fputc('\n', out);
  fflush(out);
}

/* The level (index in the set) of the dataset's episode i: the first pick
 * of a picker of its own, so that it depends on i alone. */
static int level_of(const crafter_dataset_record_options *options, int64_t i) {
  crafter_level_picker picker;
  int64_t envs = options->run.episodes < INT32_MAX ? options->run.episodes : INT32_MAX;
  crafter_level_picker_init(&picker, options->run.level_set, options->run.levels.order,
                            (int)(i % envs), (int)envs);
  return crafter_level_pick(&picker);
}

/* A recording on several threads.  Each worker plays whole episodes with
 * an env and agent of its own, taking the shard's episodes in turn; an
 * episode that ends is parked until those before it are written, so the
 * file is the same whatever the number of threads, and the worker goes on
 * with a fresh recorder meanwhile. */
typedef struct recording {
  const crafter_dataset_record_options *options;
  crafter_episode_options episode;
  crafter_traj_writer *writer;
  pthread_mutex_t lock;
  pthread_cond_t progress_made;
  long total;                 /* episodes of this shard */
  long next;                  /* the next to hand out (its place in the shard) */
  long written;               /* the episodes written so far */
  long steps;
  int window;                 /* episodes that may wait to be written */
  int players;                /* players a world: chunks an episode */
  crafter_traj_recorder **parked; /* [place % window * players + p]: ended, waiting for
                                     its turn */
  crafter_traj_recorder **spare;  /* recorders free to take */
  int spare_count;
  int failed;
  char error[512];
  double start, drawn;
} recording;

static void recording_fail(recording *r, const char *format, const char *detail) {
  if (r->failed) return;
  r->failed = 1;
  snprintf(r->error, sizeof(r->error), format, detail);
  pthread_cond_broadcast(&r->progress_made);
}

/* Writes the parked episodes whose turn has come; under the lock. */
static void write_ready(recording *r) {
  while (!r->failed && r->written < r->total) {
    crafter_traj_recorder **slot = &r->parked[r->written % r->window * r->players];
    if (!*slot) break;
    for (int p = 0; p < r->players && !r->failed; p++) {
      char problem[300];
      if (crafter_traj_writer_add(r->writer, slot[p], problem, sizeof(problem)) < 0)
        recording_fail(r, "%s", problem);
      r->spare[r->spare_count++] = slot[p];
      slot[p] = NULL;
    }
    if (r->failed) break;
    r->written++;
    if (r->options->progress) {
      double now = seconds_now();
      if (now - r->drawn >= 0.1 || r->written == r->total) {
        draw_progress(r->options->progress, r->written, r->total, r->steps, now - r->start,
                      r->written == r->total);
        r->drawn = now;
      }
    }
  }
  pthread_cond_broadcast(&r->progress_made);
}

typedef struct record_worker {
  recording *recording;
  int index;
  pthread_t thread;
  crafter_episode *runner;
  crafter_agent *agent[CRAFTER_PLAYERS_MAX]; /* one a player */
} record_worker;

/* Plays the shard's episode at `place`; 0, or -1 when the run failed. */
static int record_one(record_worker *w, long place) {
  recording *r = w->recording;
  const crafter_dataset_record_options *options = r->options;
  int64_t i = options->shard_index - 1 + (int64_t)place * options->shard_count;
  crafter_episode *runner = w->runner;
  if (options->run.level_set)
    crafter_episode_set_level(runner, level_of(options, i));
  else
    crafter_episode_set_next(runner, options->run.first_episode + i);
  char problem[300];
  if (crafter_episode_start(runner, NULL, problem, sizeof(problem)) < 0) {
    pthread_mutex_lock(&r->lock);
    recording_fail(r, "%s", problem);
    pthread_mutex_unlock(&r->lock);
    return -1;
  }
  const crafter_env *env = crafter_episode_env_const(runner);
  int players = r->players;
  for (int p = 0; p < players; p++) {
    crafter_agent_reset(w->agent[p], env);
    /* A level is played many times: each play gets actions of its own;
     * every player too. */
    if (options->run.level_set || p > 0)
      crafter_agent_reseed(w->agent[p], (uint64_t)env->world_seed,
                           p == 0 ? (uint64_t)i + 1
                                  : ((uint64_t)i + 1) * CRAFTER_PLAYERS_MAX + (uint64_t)p);
    if (options->run.task_pool)
      crafter_agent_set_task(w->agent[p], crafter_episode_player_task(runner, p),
                             crafter_episode_player_tracker(runner, p));
  }
  crafter_step_outcome step[CRAFTER_PLAYERS_MAX];
  long steps = 0;
  int over;
  do {
    int status;
    if (players == 1) {
      status = crafter_episode_step(runner, crafter_agent_act(w->agent[0], env, 0), &step[0]);
      over = step[0].done;
    } else {
      int actions[CRAFTER_PLAYERS_MAX];
      for (int p = 0; p < players; p++)
        actions[p] = crafter_episode_player_done(runner, p)
                         ? CRAFTER_NOOP
                         : crafter_agent_act(w->agent[p], env, p);
      status = crafter_episode_step_players(runner, actions, step);
      over = step[0].over;
    }
    if (status < 0) {
      pthread_mutex_lock(&r->lock);
      recording_fail(r, "%s", "out of memory");
      pthread_mutex_unlock(&r->lock);
      return -1;
    }
    steps++;
  } while (!over);
  pthread_mutex_lock(&r->lock);
  /* Wait until the episode's turn is within the window, with a recorder
   * to go on with. */
  while (!r->failed && (place - r->written >= r->window || r->spare_count < players))
    pthread_cond_wait(&r->progress_made, &r->lock);
  if (!r->failed) {
    for (int p = 0; p < players; p++) {
      crafter_traj_recorder *ended =
          crafter_episode_swap_player_recorder(runner, p, r->spare[--r->spare_count]);
      /* The place in the whole dataset, not in the shard. */
      if (options->run.level_set) crafter_traj_recorder_set_place(ended, (uint32_t)(i + 1));
      r->parked[place % r->window * players + p] = ended;
    }
    r->steps += steps;
    write_ready(r);
  }
  int status = r->failed ? -1 : 0;
  pthread_mutex_unlock(&r->lock);
  return status;
}

static void *record_episodes(void *argument) {
  record_worker *w = argument;
  recording *r = w->recording;
  for (;;) {
    pthread_mutex_lock(&r->lock);
    long place = r->failed ? r->total : r->next++;
    pthread_mutex_unlock(&r->lock);
    if (place >= r->total || record_one(w, place) < 0) break;
  }
  return NULL;
}

/* ---- record: Craftax-Classic ---- */

/* Craftax-Classic's episodes are a chain: an env's episode starts where
 * the one before it ended (the row's start_keys, run/jgame.h), so an env plays
 * its episodes one after the other and threads play envs.  Env e plays
 * seed + e's schedule, its episodes counted from the first episode;
 * episode i of the dataset is env i % envs's (i / envs)-th.  A shard
 * takes whole envs (e % shard_count == shard_index - 1).  The random
 * agent's action n of env e (n counted over all its steps) is element n
 * of JAX's randint(split(PRNGKey(seed + e), 3)[2], (N,), 0, 17), as
 * tests/reference/craftax_episodes.py draws them: JAX plays the same
 * episodes.  The file holds the envs in order, each env's episodes in
 * order: a worker's episodes wait until the envs before its own are
 * written, so the file does not depend on the threads, and the shards
 * merged are the file recorded at once. */
typedef struct cc_place {
  int64_t env;                    /* its index: it plays seed + env */
  long episodes;                  /* how many */
  crafter_traj_recorder **ended;  /* played, waiting for their turn */
  long count, capacity, written;
  int finished;                   /* all its episodes are played */
} cc_place;

typedef struct cc_recording {
  const crafter_dataset_record_options *options;
  const crafter_jgame *g;
  crafter_traj_header header;
  crafter_traj_writer *writer;
  pthread_mutex_t lock;
  pthread_cond_t progress_made;
  cc_place *places;
  long total, next, written;      /* places: of the shard, handed out, written whole */
  int window;                     /* places that may be played ahead of the one written */
  long episodes, episodes_written, steps;
  int failed;
  char error[512];
  double start, drawn;
} cc_recording;

static void cc_recording_fail(cc_recording *r, const char *message) {
  if (r->failed) return;
  r->failed = 1;
  snprintf(r->error, sizeof(r->error), "%s", message);
  pthread_cond_broadcast(&r->progress_made);
}

/* Writes what may be written: the episodes of the place whose turn it is,
 * then, once it is finished, the next place's; under the lock. */
static void cc_write_ready(cc_recording *r) {
  while (!r->failed && r->written < r->total) {
    cc_place *p = &r->places[r->written];
    while (!r->failed && p->written < p->count) {
      char problem[300];
      if (crafter_traj_writer_add(r->writer, p->ended[p->written], problem, sizeof(problem)) < 0)
        cc_recording_fail(r, problem);
      crafter_traj_recorder_free(p->ended[p->written]);
      p->ended[p->written++] = NULL;
      r->episodes_written++;
      const crafter_dataset_record_options *options = r->options;
      if (options->progress) {
        double now = seconds_now();
        if (now - r->drawn >= 0.1 || r->episodes_written == r->episodes) {
          draw_progress(options->progress, r->episodes_written, r->episodes, r->steps,
                        now - r->start, r->episodes_written == r->episodes);
          r->drawn = now;
        }
      }
    }
    if (r->failed || !p->finished) break;
    r->written++;
  }
  pthread_cond_broadcast(&r->progress_made);
}

/* Parks a played episode at its place; under the lock. */
static int cc_park(cc_recording *r, cc_place *p, crafter_traj_recorder *recorder) {
  if (p->count == p->capacity) {
    long capacity = p->capacity ? 2 * p->capacity : 8;
    crafter_traj_recorder **grown = realloc(p->ended, (size_t)capacity * sizeof(*grown));
    if (!grown) return -1;
    p->ended = grown;
    p->capacity = capacity;
  }
  p->ended[p->count++] = recorder;
  cc_write_ready(r);
  return 0;
}

/* Plays the place's env, its episodes one after the other; 0, or -1 when
 * the recording failed. */
static int cc_record_place(cc_recording *r, cc_place *p, void *env, uint8_t *obs) {
  const crafter_dataset_record_options *options = r->options;
  const crafter_jgame *g = r->g;
  int64_t seed = options->run.params.seed + p->env;
  const char *failure = NULL;
  if (g->start(env, seed) != 0) failure = "out of memory";
  *g->fields(env).episode = options->run.first_episode;
  crafter_jaxkey actions = crafter_jax_split_one(crafter_jax_key(seed), 2);
  uint64_t n = 0;
  for (long k = 0; k < p->episodes && !failure; k++) {
    crafter_traj_recorder *recorder = crafter_traj_recorder_new(&r->header);
    if (obs) cc_observe(g, g->state(env), obs);
    if (!recorder || crafter_traj_recorder_start_jgame(recorder, g, env, obs) < 0) {
      crafter_traj_recorder_free(recorder);
      failure = "out of memory";
      break;
    }
    long steps = 0;
    crafter_jgame_outcome outcome;
    do {
      int action = crafter_jax_randint_at(actions, n++, 0, crafter_jgame_info(g)->actions);
      cc_act(g, env, action, &outcome);
      if (obs) cc_observe(g, g->state(env), obs);
      if (crafter_traj_recorder_step_jgame(recorder, action, &outcome, obs) < 0)
        failure = "out of memory";
      steps++;
    } while (!outcome.done && !failure);
    if (!failure && (g->reset_due(env) != 0 || crafter_traj_recorder_seal(recorder) < 0))
      failure = "out of memory";
    pthread_mutex_lock(&r->lock);
    if (failure || r->failed || cc_park(r, p, recorder) < 0) {
      crafter_traj_recorder_free(recorder);
      cc_recording_fail(r, failure ? failure : "out of memory");
    } else {
      r->steps += steps;
    }
    int failed = r->failed;
    pthread_mutex_unlock(&r->lock);
    if (failed) return -1;
  }
  pthread_mutex_lock(&r->lock);
  if (failure) cc_recording_fail(r, failure);
  p->finished = 1;
  cc_write_ready(r);
  int status = r->failed ? -1 : 0;
  pthread_mutex_unlock(&r->lock);
  return status;
}

static void *cc_record_places(void *argument) {
  cc_recording *r = argument;
  void *env = calloc(1, r->g->env_size);
  uint8_t *obs = r->header.obs_bytes ? malloc(r->header.obs_bytes) : NULL;
  if (!env || (r->header.obs_bytes && !obs)) {
    pthread_mutex_lock(&r->lock);
    cc_recording_fail(r, "out of memory");
    pthread_mutex_unlock(&r->lock);
  }
  for (;;) {
    pthread_mutex_lock(&r->lock);
    /* No further ahead of the place being written than the window. */
    while (!r->failed && r->next < r->total && r->next - r->written >= r->window)
      pthread_cond_wait(&r->progress_made, &r->lock);
    long place = r->failed ? r->total : r->next++;
    pthread_mutex_unlock(&r->lock);
    if (place >= r->total || cc_record_place(r, &r->places[place], env, obs) < 0) break;
  }
  free(env);
  free(obs);
  return NULL;
}

static int cc_record(const crafter_dataset_record_options *options, char *error,
                     size_t error_size) {
  const crafter_run *run = &options->run;
  if (options->agent != CRAFTER_AGENT_RANDOM)
    return failn(2, error, error_size,
                 "the %s agent plays Crafter: %s records the random agent only",
                 crafter_agent_name(options->agent),
                 crafter_game_info_of(run->game)->name);
  const crafter_game_info *game = crafter_game_info_of(run->game);
  if (!(game->obs_kinds & (1u << run->obs_kind)) || run->obs_kind == CRAFTER_OBS_PIXELS)
    return failn(2, error, error_size, "%s's files store no %s observations", game->title,
                 crafter_obs_kind_name(run->obs_kind));
  int64_t envs = run->envs < 1 ? 1 : run->envs;
  cc_recording r;
  memset(&r, 0, sizeof(r));
  r.options = options;
  r.g = crafter_jgame_of(run->game);
  crafter_traj_header_init_game(&r.header, run->game, run->params.seed, run->obs_kind,
                                crafter_agent_name(options->agent));
  r.places = calloc((size_t)envs, sizeof(*r.places));
  if (!r.places) return failn(1, error, error_size, "out of memory");
  for (int64_t e = options->shard_index - 1; e < envs && e < run->episodes;
       e += options->shard_count) {
    cc_place *p = &r.places[r.total++];
    p->env = e;
    p->episodes = (long)((run->episodes - 1 - e) / envs + 1);
    r.episodes += p->episodes;
  }
  int threads = run->threads < 1 ? 1 : run->threads;
  if (threads > r.total && r.total > 0) threads = (int)r.total;
  r.window = 4 * threads;
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.progress_made, NULL);
  int status = 0;
  r.writer = crafter_traj_writer_create(run->record_path, &r.header, error, error_size);
  if (!r.writer) status = 1;
  if (status == 0) {
    r.start = seconds_now();
    r.drawn = -1;
    pthread_t *workers = calloc((size_t)threads, sizeof(*workers));
    int running = 0;
    for (int t = 1; workers && t < threads; t++) {
      if (pthread_create(&workers[t], NULL, cc_record_places, &r) != 0) break;
      running = t;
    }
    cc_record_places(&r);
    for (int t = 1; t <= running; t++) pthread_join(workers[t], NULL);
    free(workers);
    if (r.failed) status = failn(1, error, error_size, "%s", r.error);
  }
  if (options->progress && r.episodes_written < r.episodes && r.episodes_written > 0)
    fputc('\n', options->progress);
  char problem[512];
  if (r.writer && crafter_traj_writer_close(r.writer, status ? problem : error,
                                            status ? sizeof(problem) : error_size) < 0)
    status = 1;
  for (long k = 0; k < r.total; k++) {
    for (long j = r.places[k].written; j < r.places[k].count; j++)
      crafter_traj_recorder_free(r.places[k].ended[j]);
    free(r.places[k].ended);
  }
  free(r.places);
  pthread_cond_destroy(&r.progress_made);
  pthread_mutex_destroy(&r.lock);
  return status;
}

int crafter_dataset_record(const crafter_dataset_record_options *options, char *error,
                           size_t error_size) {
  if (options->run.episodes < 1) return failn(2, error, error_size, "no episodes to record");
  if (options->shard_count < 1 || options->shard_index < 1 ||
      options->shard_index > options->shard_count)
    return failn(2, error, error_size, "shard %d/%d does not exist (K/N with 1 <= K <= N)",
                 options->shard_index, options->shard_count);
  if (crafter_jgame_of(options->run.game)) return cc_record(options, error, error_size);
  if (options->run.params.length < 1)
    return failn(2, error, error_size, "episodes need a step limit of at least 1");
  const crafter_obs_kind_info *kind = crafter_obs_kind(options->run.obs_kind);
  if (!kind) return failn(2, error, error_size, "unknown observation kind %d", options->run.obs_kind);
  if (kind->traj_code < 0)
    return failn(2, error, error_size, "%s observations have no fixed size and are not stored",
                 kind->name);
  if (options->agent < 0 || options->agent >= CRAFTER_AGENT_COUNT)
    return failn(2, error, error_size, "unknown agent");
  char problem[512];
  if (crafter_params_check(&options->run.params, problem, sizeof(problem)) < 0)
    return failn(2, error, error_size, "%s", problem);
  crafter_textures textures;
  int have_textures = 0;
  if (kind->drawn) {
    int status = crafter_textures_load(&textures, options->run.textures, problem, sizeof(problem));
    const char *hint = " (give a folder of Crafter's PNG files with --textures)";
    if (status < 0)
      return failn(2, error, error_size, "%s%s", problem, options->run.textures ? "" : hint);
    have_textures = 1;
  }
  recording r;
  memset(&r, 0, sizeof(r));
  r.options = options;
  crafter_traj_header header;
  crafter_run_header(&options->run, crafter_agent_name(options->agent),
                     have_textures ? &textures : NULL, &header);
  r.players = options->run.players > 1 ? options->run.players : 1;
  crafter_episode_options *e = &r.episode;
  crafter_run_episode_options(&options->run, have_textures ? &textures : NULL, &header, e);
  if (options->run.episodes > options->shard_index - 1)
    r.total = (long)((options->run.episodes - options->shard_index) / options->shard_count + 1);
  int threads = options->run.threads < 1 ? 1 : options->run.threads;
  if (threads > r.total && r.total > 0) threads = (int)r.total;
  r.window = 4 * threads;
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.progress_made, NULL);
  record_worker *workers = calloc((size_t)threads, sizeof(*workers));
  size_t slots = (size_t)r.window * (size_t)r.players;
  r.parked = calloc(slots, sizeof(*r.parked));
  r.spare = calloc(slots, sizeof(*r.spare));
  int status = 0;
  if (!workers || !r.parked || !r.spare) status = failn(1, error, error_size, "out of memory");
  for (size_t k = 0; status == 0 && k < slots; k++)
    if (!(r.spare[r.spare_count++] = crafter_traj_recorder_new(&header)))
      status = failn(1, error, error_size, "out of memory");
  for (int t = 0; status == 0 && t < threads; t++) {
    workers[t].recording = &r;
    workers[t].index = t;
    workers[t].runner = crafter_episode_new(e, 0, t > 0 ? workers[0].runner : NULL, problem,
                                            sizeof(problem));
    int agents = 1;
    for (int p = 0; p < r.players; p++)
      agents &=
          (workers[t].agent[p] = crafter_agent_new(options->agent, &options->run.params)) != NULL;
    if (!workers[t].runner) status = failn(2, error, error_size, "%s", problem);
    else if (!agents) status = failn(1, error, error_size, "out of memory");
  }
  if (status == 0) {
    r.writer = crafter_traj_writer_create(options->run.record_path, &header, error, error_size);
    if (!r.writer) status = 1;
  }
  if (status == 0) {
    r.start = seconds_now();
    r.drawn = -1;
    int running = 0;
    for (int t = 1; t < threads; t++) {
      if (pthread_create(&workers[t].thread, NULL, record_episodes, &workers[t]) != 0) break;
      running = t;
    }
    record_episodes(&workers[0]);
    for (int t = 1; t <= running; t++) pthread_join(workers[t].thread, NULL);
    if (r.failed) {
      snprintf(error, error_size, "%s", r.error);
      status = 1;
    }
  }
  if (options->progress && r.written < r.total && r.written > 0) fputc('\n', options->progress);
  if (r.writer && crafter_traj_writer_close(r.writer, status ? problem : error,
                                            status ? sizeof(problem) : error_size) < 0)
    status = 1;
  for (int t = 0; workers && t < threads; t++) {
    for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_agent_free(workers[t].agent[p]);
    /* later runners borrow the first one's textures: free it last */
  }
  for (int t = threads - 1; workers && t >= 0; t--) crafter_episode_free(workers[t].runner);
  for (size_t k = 0; r.parked && k < slots; k++) crafter_traj_recorder_free(r.parked[k]);
  for (int k = 0; r.spare && k < r.spare_count; k++) crafter_traj_recorder_free(r.spare[k]);
  free(r.parked);
  free(r.spare);
  free(workers);
  pthread_cond_destroy(&r.progress_made);
  pthread_mutex_destroy(&r.lock);
  if (have_textures) crafter_textures_fini(&textures);
  return status;
}

/* ---- reading ---- */

/* A file of `game` (-1: any). */
static crafter_traj_reader *open_file(const char *path, int game, char *error,
                                      size_t error_size) {
  return crafter_traj_open_game(path, game, error, error_size);
}

/* Whether a file holds Craftax-Classic's episodes (or another game's
 * than Crafter). */
static int other_game(const crafter_traj_header *h) { return crafter_jgame_of(h->game) != NULL; }

/* A key of a chunk of Craftax-Classic as a list shows it: its two words in
 * hexadecimal, "0123abcd:89ef4567" for JAX's uint32[2] array [0x0123abcd,
 * 0x89ef4567]. */
static void format_key(char out[18], const uint32_t key[2]) {
  snprintf(out, 18, "%08x:%08x", key[0], key[1]);
}

/* What the reader left out of a file of several players: world episodes
 * missing a player's chunk. */
static void describe_partial(char *out, size_t size, const crafter_traj_status *status) {
  snprintf(out, size,
           "%ld world episode%s lack%s a player's chunk (from byte %llu: %s); the chunks %s "
           "%s (%ld) are left out",
           status->partial_worlds, status->partial_worlds == 1 ? "" : "s",
           status->partial_worlds == 1 ? "s" : "", (unsigned long long)status->partial_offset,
           status->partial, status->partial_worlds == 1 ? "it" : "they",
           status->partial_worlds == 1 ? "has" : "have", status->partial_chunks);
}

static void describe_damage(FILE *out, const char *path, const crafter_traj_reader *reader) {
  const crafter_traj_status *status = crafter_traj_status_of(reader);
  if (!status->indexed)
    fprintf(out, "%s: note: %s; %zu episode%s found by scanning\n", path, status->index_note,
            crafter_traj_episode_count(reader), crafter_traj_episode_count(reader) == 1 ? "" : "s");
  if (status->damaged)
    fprintf(out,
            "%s: damaged from byte %llu: %s (%ld damaged region%s, %llu byte%s skipped); "
            "%zu complete episode%s readable\n",
            path, (unsigned long long)status->damage_offset, status->damage,
            status->damaged_regions, status->damaged_regions == 1 ? "" : "s",
            (unsigned long long)status->damaged_bytes, status->damaged_bytes == 1 ? "" : "s",
            crafter_traj_episode_count(reader),
            crafter_traj_episode_count(reader) == 1 ? " is" : "s are");
  if (status->duplicates)
    fprintf(out, "%s: %ld chunk%s from byte %llu repeat%s an episode already in the file; "
            "each episode is counted once\n",
            path, status->duplicates, status->duplicates == 1 ? "" : "s",
            (unsigned long long)status->duplicate_offset, status->duplicates == 1 ? "s" : "");
  if (status->partial_worlds) {
    char partial[400];
    describe_partial(partial, sizeof(partial), status);
    fprintf(out, "%s: damaged: %s\n", path, partial);
  }
}

static void unlocked_names(FILE *out, uint32_t unlocked) {
  int first = 1;
  for (int i = 0; i < CRAFTER_ACHIEVEMENT_COUNT; i++)
    if (unlocked & (1u << i)) {
      fprintf(out, "%s%s", first ? "" : ",", crafter_achievement_names[i]);
      first = 0;
    }
  if (first) fputc('-', out);
}

int crafter_dataset_list(const char *path, int game, FILE *out, FILE *notes, char *error,
                         size_t error_size) {
  crafter_traj_reader *reader = open_file(path, game, error, error_size);
  if (!reader) return 1;
  if (other_game(crafter_traj_header_of(reader))) {
    /* The keys each episode started with where Crafter has a world seed,
     * and the return whole. */
    fprintf(out, "index\tseed\tepisode\tworld_key\tschedule_key\tlength\treward\tend\tunlocked\n");
    for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
      const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
      char world[18], schedule[18], reward[40];
      format_key(world, e->world_key);
      format_key(schedule, e->schedule_key);
      crafter_format_double(reward, e->reward);
      fprintf(out, "%zu\t%lld\t%lld\t%s\t%s\t%u\t%s\t%s\t", i, (long long)e->seed,
              (long long)e->episode, world, schedule, e->steps, reward,
              crafter_traj_end_name(e->end));
      unlocked_names(out, e->unlocked);
      fputc('\n', out);
    }
    if (notes) describe_damage(notes, path, reader);
    crafter_traj_close(reader);
    return 0;
  }
  const crafter_task_set *tasks = crafter_traj_header_of(reader)->tasks;
  int players = crafter_traj_header_of(reader)->players > 1;
  fprintf(out, "index\tseed\tepisode\tworld_seed\tlength\treward\tend\tunlocked%s%s\n",
          tasks ? "\ttask\ttext" : "", players ? "\tplayer" : "");
  for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
    const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
    fprintf(out, "%zu\t%lld\t%lld\t%lld\t%u\t%.1f\t%s\t", i, (long long)e->seed,
            (long long)e->episode, (long long)e->world_seed, e->steps, e->reward,
            crafter_traj_end_name(e->end));
    unlocked_names(out, e->unlocked);
    if (tasks) fprintf(out, "\t%s\t%d", tasks->tasks[e->task].id, e->text);
    if (players) fprintf(out, "\t%d", e->player);
    fputc('\n', out);
  }
  if (notes) describe_damage(notes, path, reader);
  crafter_traj_close(reader);
  return 0;
}

int crafter_dataset_info(const char *path, int game, FILE *out, char *error, size_t error_size) {
  crafter_traj_reader *reader = open_file(path, game, error, error_size);
  if (!reader) return 1;
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  const crafter_traj_status *status = crafter_traj_status_of(reader);
  size_t count = crafter_traj_episode_count(reader);
  long ended = 0, died = 0, met = 0, cut = 0, successes[CRAFTER_ACHIEVEMENT_COUNT] = {0};
  double steps = 0, ended_steps = 0, reward = 0;
  for (size_t i = 0; i < count; i++) {
    const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
    steps += e->steps;
    if (e->end == CRAFTER_TRAJ_CUT) {
      cut++;
      continue;
    }
    ended++;
    died += e->end == CRAFTER_TRAJ_DIED;
    met += e->end == CRAFTER_TRAJ_GOAL;
    ended_steps += e->steps;
    reward += e->reward;
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) successes[k] += (e->unlocked >> k) & 1;
  }
  fprintf(out, "file          %s\n", path);
  fprintf(out, "format        crafter-trajectory version %u, %llu bytes\n", h->version,
          (unsigned long long)status->file_bytes);
  const crafter_game_info *played = crafter_game_info_of(h->game);
  if (other_game(h))
    fprintf(out, "game          %s (%s), its own parameters\n", played->title,
            played->reference);
  fprintf(out, "agent         %s\n", h->agent[0] ? h->agent : "(unnamed)");
  if (h->players > 1)
    fprintf(out, "players       %d a world (an episode is one player's)\n", h->players);
  fprintf(out, "observations  %s", crafter_obs_kind_name(h->obs_kind));
  if (crafter_obs_kind(h->obs_kind)->drawn) fprintf(out, " (textures %08x)", h->textures_crc);
  fprintf(out, "\nseed          %lld\n", (long long)h->params.seed);
  if (!other_game(h)) {
    fprintf(out, "area          %dx%d\nview          %dx%d\nsize          %dx%d\n",
            h->params.area[0], h->params.area[1], h->params.view[0], h->params.view[1],
            h->params.size[0], h->params.size[1]);
    fprintf(out, "length        %ld\nreward        %s\n", h->params.length,
            h->params.reward ? "on" : "off");
  }
  if (h->level_count)
    fprintf(out, "levels        %d: episodes %lld to %lld of the seed, %s order\n",
            h->level_count, (long long)h->level_first,
            (long long)h->level_first + h->level_count - 1,
            crafter_level_order_name(h->level_order));
  if (h->config_text || h->world_text) {
    fprintf(out, "rules        ");
    if (h->config_text) fprintf(out, " configuration of %zu bytes%s", h->config_bytes,
                                h->world_text ? "," : "");
    if (h->world_text) fprintf(out, " world %dx%d", h->world->width, h->world->height);
    fprintf(out, " (stored; replays play by them)\n");
  }
  if (h->tasks) {
    fprintf(out, "tasks         %d in the file's table\n", h->tasks->count);
    fprintf(out,
            "episodes      %zu: %ld ended (%ld met their goal, %ld died, %ld at the time limit), "
            "%ld cut\n",
            count, ended, met, died, ended - died - met, cut);
  } else {
    fprintf(out, "episodes      %zu: %ld ended (%ld died, %ld at the time limit), %ld cut\n", count,
            ended, died, ended - died, cut);
  }
  fprintf(out, "steps         %.0f\n", steps);
  if (ended) {
    double rates[CRAFTER_ACHIEVEMENT_COUNT];
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
      rates[k] = 100.0 * (double)successes[k] / (double)ended;
    fprintf(out, "return        %.2f (mean of ended episodes)\n", reward / (double)ended);
    if (other_game(h))
      fprintf(out, "return %% max  %.2f (100 times the mean return over %s's maximum, %d)\n",
              100.0 * reward / (double)ended / played->max_return, played->title,
              played->max_return);
    fprintf(out, "length mean   %.1f\n", ended_steps / (double)ended);
    fprintf(out, "score (%%)     %.1f\n", crafter_score_of_rates(rates, CRAFTER_ACHIEVEMENT_COUNT));
    fprintf(out, "success rate (%%)\n");
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
      fprintf(out, "  %-20s %6.1f\n", crafter_achievement_names[k], rates[k]);
  }
  fprintf(out, "index         %s\n", status->indexed ? "present" : status->index_note);
  if (status->damaged)
    fprintf(out, "damage        from byte %llu: %s (%ld region%s, %llu byte%s)\n",
            (unsigned long long)status->damage_offset, status->damage, status->damaged_regions,
            status->damaged_regions == 1 ? "" : "s", (unsigned long long)status->damaged_bytes,
            status->damaged_bytes == 1 ? "" : "s");
  if (status->partial_worlds) {
    char partial[400];
    describe_partial(partial, sizeof(partial), status);
    fprintf(out, "damage        %s\n", partial);
  }
  if (!status->damaged && !status->partial_worlds) fprintf(out, "damage        none\n");
  if (status->duplicates)
    fprintf(out, "duplicates    %ld chunk%s from byte %llu repeat%s an episode (counted once)\n",
            status->duplicates, status->duplicates == 1 ? "" : "s",
            (unsigned long long)status->duplicate_offset, status->duplicates == 1 ? "s" : "");
  crafter_traj_close(reader);
  return 0;
}

/* ---- re-simulation ---- */

typedef struct replay {
  crafter_env env;
  int env_ready;
  const crafter_traj_header *header; /* the file's: its world map and task table */
  crafter_stored_world world; /* the world episode replayed: its players' steps and goals */
  observer o;
  int compare_obs;      /* the stored observations can be compared */
} replay;

static void replay_free(replay *r) {
  if (r->env_ready) crafter_env_fini(&r->env);
  crafter_stored_world_free(&r->world);
  observer_free(&r->o);
  memset(r, 0, sizeof(*r));
}

/* An env for the file's parameters and players, observing what the file
 * stores (and pixels, every player's view, when `render`). */
static int replay_init(replay *r, const crafter_traj_header *h, int render, const char *textures,
                       char *error, size_t error_size) {
  memset(r, 0, sizeof(*r));
  char problem[512];
  if (crafter_env_init_config(&r->env, &h->params, h->config, problem, sizeof(problem)) < 0)
    return crafter_fail(error, error_size, "%s", problem);
  r->env_ready = 1;
  if (crafter_env_set_players(&r->env, h->players, problem, sizeof(problem)) < 0) {
    replay_free(r);
    return crafter_fail(error, error_size, "%s", problem);
  }
  r->header = h;
  if (observer_init(&r->o, &r->env, h->obs_kind, render, textures, problem, sizeof(problem)) < 0) {
    replay_free(r);
    return crafter_fail(error, error_size, "%s", problem);
  }
  r->compare_obs = !crafter_obs_kind(h->obs_kind)->drawn || r->o.textures_crc == h->textures_crc;
  return 0;
}

/* A world episode as the reader lists it: the chunks of its players in a
 * row (one chunk with one player), with the steps read. */
typedef struct world_episode {
  size_t first;          /* the index of player 0's chunk */
  int players;
  const crafter_traj_episode *chunks[CRAFTER_PLAYERS_MAX];
  crafter_traj_data data[CRAFTER_PLAYERS_MAX];
} world_episode;

static void world_free(world_episode *w) {
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_traj_data_free(&w->data[p]);
}

/* Reads the world episode of chunk `index`: the steps of the players in
 * the mask `steps`, with their observations for those in `observations`
 * (observations are kept only where needed).  0, or -1 with a reason and
 * *bad_player the player whose chunk failed. */
static int read_world(crafter_traj_reader *reader, size_t index, uint32_t steps,
                      uint32_t observations, world_episode *w, int *bad_player, char *error,
                      size_t error_size) {
  memset(w, 0, sizeof(*w));
  const crafter_traj_episode *e = crafter_traj_episode_at(reader, index);
  w->players = crafter_traj_header_of(reader)->players;
  w->first = index - (size_t)(w->players > 1 ? e->player : 0);
  for (int p = 0; p < w->players; p++)
    w->chunks[p] = crafter_traj_episode_at(reader, w->first + (size_t)p);
  for (int p = 0; p < w->players; p++) {
    if (!((steps >> p) & 1u)) continue;
    *bad_player = p;
    int status = (observations >> p) & 1u
                     ? crafter_traj_read_episode(reader, w->first + (size_t)p, &w->data[p],
                                                 error, error_size)
                     : crafter_traj_read_steps(reader, w->first + (size_t)p, &w->data[p], error,
                                               error_size);
    if (status < 0) {
      world_free(w);
      return -1;
    }
  }
  return 0;
}

/* Starts the world episode w (every player's steps read) at step 0. */
static int replay_start(replay *r, const world_episode *w, char *error, size_t error_size) {
  if (crafter_stored_world_start(&r->world, &r->env, r->header, w->chunks, w->data, error,
                                 error_size) < 0)
    return -1;
  if (r->env.world_seed != w->chunks[0]->world_seed)
    return crafter_fail(error, error_size, "world seed differs: stored %lld, replayed %lld",
                 (long long)w->chunks[0]->world_seed, (long long)r->env.world_seed);
  return 0;
}

static int compare_obs(replay *r, int p, const crafter_traj_data *d, uint32_t t, char *error,
                       size_t error_size) {
  const uint8_t *obs = observe(&r->o, &r->env, p);
  if (!obs || !r->compare_obs) return 0;
  if (memcmp(obs, d->obs + (size_t)t * r->o.obs_bytes, r->o.obs_bytes) != 0)
    return crafter_fail(error, error_size, "step %u: the observation differs", t);
  return 0;
}

static void format_value(char *out, double value) { crafter_format_double(out, value); }

/* A replayed step against the stored one (t from 0). */
static int compare_step(const crafter_step_result *result, int goal, const crafter_traj_step *s,
                        uint32_t t, char *error, size_t error_size) {
  if (result->info_reward != s->reward) {
    char stored[40], replayed[40];
    format_value(stored, s->reward);
    format_value(replayed, result->info_reward);
    return crafter_fail(error, error_size, "step %u: reward differs: stored %s, replayed %s", t + 1,
                        stored, replayed);
  }
  if ((result->done != 0) != s->done)
    return crafter_fail(error, error_size, "step %u: done differs: stored %d, replayed %d", t + 1,
                        s->done, result->done != 0);
  if ((result->discount == 0.0) != s->died)
    return crafter_fail(error, error_size, "step %u: discount differs: stored %d, replayed %s",
                        t + 1, !s->died, result->discount == 0.0 ? "0" : "1");
  if (result->unlocked != s->unlocked)
    return crafter_fail(error, error_size, "step %u: unlocked achievements differ", t + 1);
  if (goal != s->goal)
    return crafter_fail(error, error_size, "step %u: the goal %s met, but the file says it %s",
                        t + 1, goal ? "is" : "is not", s->goal ? "is" : "is not");
  return 0;
}

/* Player p's state at the end against the chunk's. */
static int compare_end(const crafter_env *env, int p, const crafter_traj_episode *e, char *error,
                       size_t error_size) {
  const crafter_player *player = crafter_game_player_const(&env->game, p);
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    if (player->achievements[k] != e->achievements[k])
      return crafter_fail(error, error_size, "the count of %s differs: stored %d, replayed %d",
                   crafter_achievement_names[k], e->achievements[k], player->achievements[k]);
  for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
    if (player->inventory[k] != e->inventory[k])
      return crafter_fail(error, error_size, "the final %s differs: stored %d, replayed %d",
                   crafter_item_names[k], e->inventory[k], player->inventory[k]);
  return 0;
}

/* Replays a world episode (every player's steps read) and compares every
 * stored field of every player's chunk.  *bad_player: the player a
 * difference is of. */
static int resimulate(replay *r, const world_episode *w, int *bad_player, char *error,
                      size_t error_size) {
  *bad_player = 0;
  if (replay_start(r, w, error, error_size) < 0) return -1;
  crafter_env *env = &r->env;
  const crafter_traj_data *d = w->data;
  uint32_t longest = 0;
  int status = 0;
  for (int p = 0; p < w->players && status == 0; p++) {
    if (d[p].steps_count > longest) longest = d[p].steps_count;
    *bad_player = p;
    status = compare_obs(r, p, &d[p], 0, error, error_size);
    if (status == 0 && d[p].steps_count == 0)
      status = compare_end(env, p, w->chunks[p], error, error_size);
  }
  for (uint32_t t = 0; t < longest && status == 0; t++) {
    crafter_stored_world_step(&r->world, env);
    for (int p = 0; p < w->players && status == 0; p++) {
      if (!crafter_stored_world_played(&r->world, p)) continue;
      *bad_player = p;
      status = compare_step(&r->world.results[p], r->world.goal[p], &d[p].steps[t], t, error,
                            error_size);
      if (status == 0) status = compare_obs(r, p, &d[p], t + 1, error, error_size);
      if (status == 0 && t + 1 == d[p].steps_count)
        status = compare_end(env, p, w->chunks[p], error, error_size);
    }
  }
  return status;
}

/* ---- Craftax-Classic: replays ---- */

/* A replay of Craftax-Classic's episodes: an env, and the observation
 * of its state when the file stores observations. */
typedef struct cc_replay {
  const crafter_jgame *g;
  void *env;
  uint8_t *obs;       /* obs_bytes, or NULL */
  uint32_t obs_bytes;
  /* Where the last episode replayed whole left the schedule: the keys the
   * episode after it in the same play starts with. */
  int have_next;
  int64_t next_seed, next_episode;
  uint32_t next_world[2], next_schedule[2];
} cc_replay;

static void cc_replay_free(cc_replay *r) {
  free(r->env);
  free(r->obs);
  memset(r, 0, sizeof(*r));
}

static int cc_replay_init(cc_replay *r, const crafter_traj_header *h, int observe, char *error,
                          size_t error_size) {
  memset(r, 0, sizeof(*r));
  r->g = crafter_jgame_of(h->game);
  r->env = calloc(1, r->g->env_size);
  r->obs_bytes = (uint32_t)(4 * r->g->symbolic_size);
  if (observe || h->obs_bytes) r->obs = malloc(r->obs_bytes);
  if (!r->env || ((observe || h->obs_bytes) && !r->obs)) {
    cc_replay_free(r);
    return crafter_fail(error, error_size, "out of memory");
  }
  return 0;
}

/* Starts episode e's replay: its world from its world key, the schedule
 * from its schedule key; the first observation made when observing. */
static int cc_replay_start(cc_replay *r, const crafter_traj_episode *e, char *error,
                           size_t error_size) {
  crafter_jaxkey world = {{e->world_key[0], e->world_key[1]}};
  crafter_jaxkey schedule = {{e->schedule_key[0], e->schedule_key[1]}};
  if (r->g->start_keys(r->env, e->seed, e->episode, world, schedule) != 0)
    return crafter_fail(error, error_size, "out of memory");
  if (r->obs) cc_observe(r->g, r->g->state(r->env), r->obs);
  return 0;
}

/* One step, the env left in the state the step made (the episode's last
 * when it ended: the auto-reset is not made), its observation made when
 * observing. */
static void cc_replay_step(cc_replay *r, int action, crafter_jgame_outcome *outcome) {
  cc_act(r->g, r->env, action, outcome);
  if (r->obs) cc_observe(r->g, r->g->state(r->env), r->obs);
}

static int cc_compare_obs(const cc_replay *r, const crafter_traj_data *d, uint32_t t, char *error,
                          size_t error_size) {
  if (!d->obs || !r->obs) return 0;
  if (memcmp(r->obs, d->obs + (size_t)t * r->obs_bytes, r->obs_bytes) != 0) {
    uint32_t k = 0;
    while (k + 4 < r->obs_bytes &&
           memcmp(r->obs + k, d->obs + (size_t)t * r->obs_bytes + k, 4) == 0)
      k += 4;
    return crafter_fail(error, error_size,
                        "step %u: the observation differs (first at value %u: stored %.9g, "
                        "replayed %.9g)",
                        t, k / 4, (double)crafter_get_f32(d->obs + (size_t)t * r->obs_bytes + k),
                        (double)crafter_get_f32(r->obs + k));
  }
  return 0;
}

/* Replays episode e of a Craftax-Classic file from its keys with its
 * stored actions and compares every step's reward, done, died, unlocked
 * achievements and (when stored) observation, and the achievements and
 * inventory it ends with.  Remembers where the schedule stands after it
 * (r->next_...). */
static int cc_resimulate(cc_replay *r, const crafter_traj_episode *e, const crafter_traj_data *d,
                         char *error, size_t error_size) {
  r->have_next = 0;
  if (cc_replay_start(r, e, error, error_size) < 0) return -1;
  if (cc_compare_obs(r, d, 0, error, error_size) < 0) return -1;
  for (uint32_t t = 0; t < d->steps_count; t++) {
    const crafter_traj_step *s = &d->steps[t];
    crafter_jgame_outcome o;
    cc_replay_step(r, s->action, &o);
    if ((double)o.reward != s->reward) {
      char stored[40], replayed[40];
      crafter_format_double(stored, s->reward);
      crafter_format_double(replayed, (double)o.reward);
      return crafter_fail(error, error_size, "step %u: reward differs: stored %s, replayed %s",
                          t + 1, stored, replayed);
    }
    if ((o.done != 0) != s->done)
      return crafter_fail(error, error_size, "step %u: done differs: stored %d, replayed %d",
                          t + 1, s->done, o.done != 0);
    if ((o.died != 0) != s->died)
      return crafter_fail(error, error_size, "step %u: died differs: stored %d, replayed %d",
                          t + 1, s->died, o.died != 0);
    if (o.unlocked[0] != s->unlocked)
      return crafter_fail(error, error_size, "step %u: unlocked achievements differ", t + 1);
    if (cc_compare_obs(r, d, t + 1, error, error_size) < 0) return -1;
  }
  uint8_t achievements[CRAFTER_JGAME_ACHIEVEMENTS_MAX];
  int32_t inventory[CRAFTER_JGAME_ITEMS_MAX];
  r->g->report(r->g->state(r->env), achievements, inventory);
  for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
    if (achievements[k] != e->achievements[k])
      return crafter_fail(error, error_size, "%s differs at the end: stored %d, replayed %d",
                          crafter_achievement_names[k], e->achievements[k], achievements[k]);
  for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
    if (inventory[k] != e->inventory[k])
      return crafter_fail(error, error_size, "the final %s differs: stored %d, replayed %d",
                          crafter_item_names[k], e->inventory[k], inventory[k]);
  /* The next episode of the play: after an end, the auto-reset's world
   * (key_reset) and the key after the step; after a cut, a restart's:
   * key, k = split(key), the world from k. */
  crafter_jaxkey key, world;
  r->g->next_keys(r->env, &world, &key);
  r->have_next = 1;
  r->next_seed = e->seed;
  r->next_episode = e->episode + 1;
  r->next_world[0] = world.word[0];
  r->next_world[1] = world.word[1];
  r->next_schedule[0] = key.word[0];
  r->next_schedule[1] = key.word[1];
  return 0;
}

/* Whether episode e, following in a file the episode r replayed last,
 * starts where that one left the schedule (they were played one after
 * the other): 1 when it does or is another seed's or episode's. */
static int cc_follows(const cc_replay *r, const crafter_traj_episode *e) {
  if (!r->have_next || e->seed != r->next_seed || e->episode != r->next_episode) return 1;
  return memcmp(e->world_key, r->next_world, sizeof(r->next_world)) == 0 &&
         memcmp(e->schedule_key, r->next_schedule, sizeof(r->next_schedule)) == 0;
}

/* verify of a Craftax-Classic file: every episode read and checked, with
 * resimulate replayed from its keys (cc_resimulate); an episode that
 * follows the one before in the file (the same seed, the next episode)
 * but does not start where it ended is noted, not counted: the file then
 * holds episodes of two plays. */
static int cc_verify(const char *path, crafter_traj_reader *reader, int resimulate_episodes,
                     FILE *out, char *error, size_t error_size) {
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  const crafter_traj_status *status = crafter_traj_status_of(reader);
  cc_replay r;
  int have_replay = 0;
  if (resimulate_episodes) {
    char problem[200];
    if (cc_replay_init(&r, h, 0, problem, sizeof(problem)) < 0)
      return failn(1, error, error_size, "%s: cannot re-simulate: %s", path, problem);
    have_replay = 1;
  }
  describe_damage(out, path, reader);
  size_t count = crafter_traj_episode_count(reader);
  long problems = 0;
  double steps = 0;
  for (size_t i = 0; i < count; i++) {
    const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
    crafter_traj_data d;
    char problem[400];
    steps += e->steps;
    int bad = have_replay && h->obs_bytes
                  ? crafter_traj_read_episode(reader, i, &d, problem, sizeof(problem)) < 0
                  : crafter_traj_read_steps(reader, i, &d, problem, sizeof(problem)) < 0;
    if (!bad && have_replay) {
      if (!cc_follows(&r, e)) {
        char want[18], got[18];
        format_key(want, r.next_world);
        format_key(got, e->world_key);
        fprintf(out,
                "%s: note: episode %zu (seed %lld, episode %lld) does not start where the "
                "episode before it ended (world key %s, not %s): they are of two plays\n",
                path, i, (long long)e->seed, (long long)e->episode, got, want);
      }
      bad = cc_resimulate(&r, e, &d, problem, sizeof(problem)) < 0;
    }
    crafter_traj_data_free(&d);
    if (!bad) continue;
    if (have_replay) r.have_next = 0;
    fprintf(out, "%s: episode %zu (seed %lld, episode %lld): %s\n", path, i, (long long)e->seed,
            (long long)e->episode, problem);
    problems++;
  }
  if (status->damaged || status->duplicates || status->partial_worlds) problems++;
  fprintf(out, "%s: %zu episode%s, %.0f step%s%s: %s\n", path, count, count == 1 ? "" : "s",
          steps, steps == 1 ? "" : "s", have_replay ? ", re-simulated" : "",
          problems ? "FAILED" : "ok");
  if (have_replay) cc_replay_free(&r);
  return problems ? 1 : 0;
}

int crafter_dataset_verify(const char *path, int game, int resimulate_episodes,
                           const char *textures, FILE *out, char *error, size_t error_size) {
  crafter_traj_reader *reader = open_file(path, game, error, error_size);
  if (!reader) return 1;
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  if (other_game(h)) {
    int result = cc_verify(path, reader, resimulate_episodes, out, error, error_size);
    crafter_traj_close(reader);
    return result;
  }
  const crafter_traj_status *status = crafter_traj_status_of(reader);
  replay r;
  int have_replay = 0;
  long problems = 0;
  double steps = 0;
  if (resimulate_episodes) {
    char problem[600];
    if (replay_init(&r, h, 0, textures, problem, sizeof(problem)) < 0) {
      crafter_traj_close(reader);
      return failn(1, error, error_size, "%s: cannot re-simulate: %s", path, problem);
    }
    have_replay = 1;
    if (!r.compare_obs) {
      fprintf(out,
              "%s: the pixels were drawn with other textures (CRC %08x) than these (%08x); "
              "they are not compared (give their folder with --textures)\n",
              path, h->textures_crc, r.o.textures_crc);
      problems++;
    }
  }
  describe_damage(out, path, reader);
  size_t count = crafter_traj_episode_count(reader);
  /* World by world: the reader lists whole ones, a chunk per player in a
   * row, and with several players they are replayed together.
   * Observations are kept only to be compared. */
  uint32_t everyone = (1u << h->players) - 1u;
  uint32_t observations = have_replay && r.compare_obs && h->obs_bytes ? everyone : 0;
  for (size_t i = 0; i < count; i += (size_t)h->players) {
    world_episode w;
    char problem[400];
    int player = 0;
    int bad = read_world(reader, i, everyone, observations, &w, &player, problem,
                         sizeof(problem)) < 0;
    if (!bad && have_replay) bad = resimulate(&r, &w, &player, problem, sizeof(problem)) < 0;
    world_free(&w);
    const crafter_traj_episode *e = crafter_traj_episode_at(reader, i + (size_t)player);
    for (int p = 0; p < h->players; p++) steps += crafter_traj_episode_at(reader, i + (size_t)p)->steps;
    if (!bad) continue;
    fprintf(out, "%s: episode %zu (seed %lld, episode %lld", path, i + (size_t)player,
            (long long)e->seed, (long long)e->episode);
    if (h->players > 1) fprintf(out, ", player %d", player);
    fprintf(out, "): %s\n", problem);
    problems++;
  }
  if (status->damaged || status->duplicates || status->partial_worlds) problems++;
  fprintf(out, "%s: %zu episode%s, %.0f step%s%s: %s\n", path, count, count == 1 ? "" : "s",
          steps, steps == 1 ? "" : "s", have_replay ? ", re-simulated" : "",
          problems ? "FAILED" : "ok");
  if (have_replay) replay_free(&r);
  crafter_traj_close(reader);
  return problems ? 1 : 0;
}

/* ---- merge ---- */

/* A world episode of an input: its chunks from `index` on, one a player
 * (one chunk with one player); `episode` is the first. */
typedef struct merge_entry {
  size_t file;
  size_t index;
  const crafter_traj_episode *episode;
} merge_entry;

static int compare_numbers(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int compare_entries(const merge_entry *a, const merge_entry *b) {
  const crafter_traj_episode *x = a->episode, *y = b->episode;
  int order = compare_numbers(x->seed, y->seed);
  /* On a level set the place comes first: a dataset's world episodes in
   * the order it played them, whatever levels they drew. */
  if (!order && x->play && y->play) order = compare_numbers(x->play, y->play);
  if (!order) order = compare_numbers(x->episode, y->episode);
  if (!order) order = compare_numbers(x->world_seed, y->world_seed);
  /* Another game's keys (0 in Crafter's) */
  for (int k = 0; k < 2 && !order; k++) order = compare_numbers(x->world_key[k], y->world_key[k]);
  for (int k = 0; k < 2 && !order; k++)
    order = compare_numbers(x->schedule_key[k], y->schedule_key[k]);
  if (!order) order = compare_numbers(x->play, y->play);
  if (!order) order = compare_numbers((int64_t)x->bytes, (int64_t)y->bytes);
  if (!order) order = compare_numbers(x->payload_crc, y->payload_crc);
  if (!order) order = compare_numbers(x->steps, y->steps);
  return order;
}

/* The order of two world episodes of equal keys by their chunks' bytes,
 * player by player, in *order (0: the same). */
static int compare_world_bytes(crafter_traj_reader **readers, const merge_entry *x,
                               const merge_entry *y, int players, int *order, char *error,
                               size_t error_size) {
  *order = 0;
  for (int p = 0; p < players && *order == 0; p++) {
    uint8_t *a, *b;
    size_t a_bytes, b_bytes;
    if (crafter_traj_read_chunk(readers[x->file], x->index + (size_t)p, &a, &a_bytes, error,
                                error_size) < 0)
      return -1;
    if (crafter_traj_read_chunk(readers[y->file], y->index + (size_t)p, &b, &b_bytes, error,
                                error_size) < 0) {
      free(a);
      return -1;
    }
    *order = a_bytes != b_bytes ? compare_numbers((int64_t)a_bytes, (int64_t)b_bytes)
                                : memcmp(a, b, a_bytes);
    free(a);
    free(b);
  }
  return 0;
}

/* Sorted with a stable insertion of runs: qsort's comparator cannot read
 * files, and content ties are settled by comparing the chunks. */
static int sort_entries(merge_entry *entries, size_t count, int players,
                        crafter_traj_reader **readers, const char *const *inputs, char *error,
                        size_t error_size) {
  /* A merge sort on the header keys first. */
  if (count < 2) return 0;
  merge_entry *scratch = malloc(count * sizeof(*scratch));
  if (!scratch) return crafter_fail(error, error_size, "out of memory");
  for (size_t width = 1; width < count; width *= 2) {
    for (size_t low = 0; low < count; low += 2 * width) {
      size_t middle = low + width < count ? low + width : count;
      size_t high = low + 2 * width < count ? low + 2 * width : count;
      size_t i = low, j = middle, k = low;
      while (i < middle && j < high)
        scratch[k++] = compare_entries(&entries[j], &entries[i]) < 0 ? entries[j++] : entries[i++];
      while (i < middle) scratch[k++] = entries[i++];
      while (j < high) scratch[k++] = entries[j++];
    }
    memcpy(entries, scratch, count * sizeof(*entries));
  }
  free(scratch);
  /* Equal keys: order by the bytes; identical bytes are the same episode. */
  for (size_t i = 0; i + 1 < count; i++) {
    size_t j = i + 1;
    if (compare_entries(&entries[i], &entries[j]) != 0) continue;
    int order;
    if (compare_world_bytes(readers, &entries[i], &entries[j], players, &order, error,
                            error_size) < 0)
      return -1;
    if (order == 0)
      return crafter_fail(error, error_size,
                   "episode %lld of seed %lld is in %s and again in %s (the same shard twice?)",
                   (long long)entries[i].episode->episode, (long long)entries[i].episode->seed,
                   inputs[entries[i].file], inputs[entries[j].file]);
    if (order > 0) {
      merge_entry swap = entries[i];
      entries[i] = entries[j];
      entries[j] = swap;
      if (i > 0) i -= 2; /* re-check the pair before */
    }
  }
  return 0;
}

static const char *header_difference(const crafter_traj_header *a, const crafter_traj_header *b) {
  if (a->config_bytes != b->config_bytes ||
      (a->config_bytes && memcmp(a->config_text, b->config_text, a->config_bytes) != 0))
    return "configuration";
  if (a->world_bytes != b->world_bytes ||
      (a->world_bytes && memcmp(a->world_text, b->world_text, a->world_bytes) != 0))
    return "world";
  if (a->level_count != b->level_count || a->level_first != b->level_first ||
      a->level_order != b->level_order)
    return "level set";
  if (a->players != b->players) return "number of players";
  if (a->obs_kind != b->obs_kind) return "observation kind";
  if (a->params.area[0] != b->params.area[0] || a->params.area[1] != b->params.area[1])
    return "area";
  if (a->params.view[0] != b->params.view[0] || a->params.view[1] != b->params.view[1])
    return "view";
  if (a->params.size[0] != b->params.size[0] || a->params.size[1] != b->params.size[1])
    return "size";
  if (a->params.length != b->params.length) return "length";
  if (a->params.reward != b->params.reward) return "reward";
  if (a->params.seed != b->params.seed) return "seed";
  if (strcmp(a->agent, b->agent) != 0) return "agent";
  if (a->textures_crc != b->textures_crc) return "textures";
  if (!a->tasks != !b->tasks ||
      (a->tasks && (a->tasks->source_bytes != b->tasks->source_bytes ||
                    memcmp(a->tasks->source, b->tasks->source, a->tasks->source_bytes) != 0)))
    return "task table";
  return NULL;
}

static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int crafter_dataset_merge(const char *const *inputs, int count, int game, const char *output,
                          FILE *notes, const char *program, char *error, size_t error_size) {
  if (count < 1) return failn(2, error, error_size, "nothing to merge");
  for (int i = 0; i < count; i++)
    if (same_file(inputs[i], output))
      return failn(2, error, error_size, "the output %s is also an input", output);
  crafter_traj_reader **readers = calloc((size_t)count, sizeof(*readers));
  if (!readers) return failn(1, error, error_size, "out of memory");
  int status = 0;
  size_t total = 0;
  for (int i = 0; i < count && status == 0; i++) {
    readers[i] = open_file(inputs[i], game, error, error_size);
    if (!readers[i]) {
      status = 1;
      break;
    }
    int game_a = crafter_traj_header_of(readers[0])->game,
        game_b = crafter_traj_header_of(readers[i])->game;
    if (game_a != game_b) {
      status = 1;
      crafter_fail(error, error_size,
                   "%s holds episodes of %s and %s of %s; only recordings of one game merge",
                   inputs[0], crafter_game_info_of(game_a)->name, inputs[i],
                   crafter_game_info_of(game_b)->name);
      break;
    }
    const char *difference =
        header_difference(crafter_traj_header_of(readers[0]), crafter_traj_header_of(readers[i]));
    if (difference) {
      status = 1;
      crafter_fail(error, error_size, "%s and %s differ in their %s; only recordings of one setting merge",
            inputs[0], inputs[i], difference);
      break;
    }
    const crafter_traj_status *s = crafter_traj_status_of(readers[i]);
    if (s->damaged && notes)
      fprintf(notes, "%s: note: %s is damaged from byte %llu (%s); its %zu readable episode%s %s merged\n",
              program, inputs[i], (unsigned long long)s->damage_offset, s->damage,
              crafter_traj_episode_count(readers[i]),
              crafter_traj_episode_count(readers[i]) == 1 ? "" : "s",
              crafter_traj_episode_count(readers[i]) == 1 ? "is" : "are");
    if (s->duplicates && notes)
      fprintf(notes, "%s: note: %s repeats %ld of its episodes; each is merged once\n", program,
              inputs[i], s->duplicates);
    if (s->partial_worlds && notes) {
      char partial[400];
      describe_partial(partial, sizeof(partial), s);
      fprintf(notes, "%s: note: %s is damaged: %s, and not merged\n", program, inputs[i],
              partial);
    }
    total += crafter_traj_episode_count(readers[i]);
  }
  /* World episodes are merged whole: the reader lists whole ones only,
   * each a chunk per player in a row. */
  int players = status == 0 ? crafter_traj_header_of(readers[0])->players : 1;
  total /= (size_t)players;
  merge_entry *entries = status ? NULL : malloc((total ? total : 1) * sizeof(*entries));
  if (status == 0 && !entries) status = failn(1, error, error_size, "out of memory");
  if (status == 0) {
    size_t k = 0;
    for (int i = 0; i < count; i++)
      for (size_t j = 0; j + (size_t)players <= crafter_traj_episode_count(readers[i]);
           j += (size_t)players)
        entries[k++] = (merge_entry){(size_t)i, j, crafter_traj_episode_at(readers[i], j)};
    if (sort_entries(entries, total, players, readers, inputs, error, error_size) < 0) status = 1;
  }
  if (status == 0) {
    /* Written whole or not at all: a failed merge leaves the output as it was. */
    crafter_traj_writer *writer = crafter_traj_writer_create_whole(
        output, crafter_traj_header_of(readers[0]), error, error_size);
    if (!writer) status = 1;
    for (size_t k = 0; k < total * (size_t)players && status == 0; k++) {
      const merge_entry *world = &entries[k / (size_t)players];
      uint8_t *chunk;
      size_t bytes;
      if (crafter_traj_read_chunk(readers[world->file], world->index + k % (size_t)players,
                                  &chunk, &bytes, error, error_size) < 0)
        status = 1;
      else if (crafter_traj_writer_add_chunk(writer, chunk, bytes, error, error_size) < 0)
        status = 1;
      free(chunk);
    }
    if (writer && status) crafter_traj_writer_abort(writer);
    else if (writer && crafter_traj_writer_close(writer, error, error_size) < 0) status = 1;
  }
  free(entries);
  for (int i = 0; i < count; i++) crafter_traj_close(readers[i]);
  free(readers);
  return status;
}

/* ---- export: stats.jsonl ---- */

int crafter_dataset_export_stats(const char *path, int game, FILE *out, FILE *notes,
                                 char *error, size_t error_size) {
  crafter_traj_reader *reader = open_file(path, game, error, error_size);
  if (!reader) return 1;
  if (notes) describe_damage(notes, path, reader);
  for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
    const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
    if (e->end == CRAFTER_TRAJ_CUT) continue; /* the Recorder writes at done only */
    /* round(reward, 1) as Python rounds: the exact binary value, ties to even. */
    char rounded[64];
    snprintf(rounded, sizeof(rounded), "%.1f", e->reward);
    crafter_json_writer json;
    crafter_json_writer_init_file(&json, out);
    crafter_json_begin_object(&json);
    crafter_json_key(&json, "length");
    crafter_json_uint(&json, e->steps);
    crafter_json_key(&json, "reward");
    crafter_json_python_double(&json, strtod(rounded, NULL));
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) {
      char key[64];
      snprintf(key, sizeof(key), "achievement_%s", crafter_achievement_names[k]);
      crafter_json_key(&json, key);
      crafter_json_int(&json, e->achievements[k]);
    }
    crafter_json_end_object(&json);
    crafter_json_newline(&json);
  }
  crafter_traj_close(reader);
  if (fflush(out) != 0 || ferror(out))
    return failn(1, error, error_size, "writing the output: %s", strerror(errno));
  return 0;
}

/* ---- export: .npz ---- */

static void put_i64_le(uint8_t *at, int64_t value) {
  for (int i = 0; i < 8; i++) at[i] = (uint8_t)((uint64_t)value >> (8 * i));
}
static void put_f64_le(uint8_t *at, double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  put_i64_le(at, (int64_t)bits);
}


/* Replays the world of chunk i and writes player's episode of chunk i as
 * an .npz. */
/* The names an export gave so far, by a 64-bit hash of the name, with
 * how often each was given: two episodes alike in seed, episode, player,
 * achievements and length (two plays of a level) get name, name-2, ...,
 * never one file for both. */
typedef struct npz_names {
  uint64_t *keys;
  uint32_t *uses;
  size_t count, capacity; /* capacity a power of two, or 0 */
} npz_names;

static uint64_t name_hash(const char *name) {
  uint64_t hash = 14695981039346656037ull; /* FNV-1a */
  for (; *name; name++) hash = (hash ^ (uint8_t)*name) * 1099511628211ull;
  return hash | 1; /* 0 marks a free slot */
}

/* How often `name` was given before this time (0 the first); -1 when
 * memory ran out. */
static long npz_name_use(npz_names *names, const char *name) {
  if (2 * (names->count + 1) > names->capacity) {
    size_t capacity = names->capacity ? 2 * names->capacity : 1024;
    uint64_t *keys = calloc(capacity, sizeof(*keys));
    uint32_t *uses = calloc(capacity, sizeof(*uses));
    if (!keys || !uses) {
      free(keys);
      free(uses);
      return -1;
    }
    for (size_t k = 0; k < names->capacity; k++) {
      if (!names->keys[k]) continue;
      size_t at = (size_t)names->keys[k] & (capacity - 1);
      while (keys[at]) at = (at + 1) & (capacity - 1);
      keys[at] = names->keys[k];
      uses[at] = names->uses[k];
    }
    free(names->keys);
    free(names->uses);
    names->keys = keys;
    names->uses = uses;
    names->capacity = capacity;
  }
  uint64_t key = name_hash(name);
  size_t at = (size_t)key & (names->capacity - 1);
  while (names->keys[at] && names->keys[at] != key) at = (at + 1) & (names->capacity - 1);
  if (!names->keys[at]) {
    names->keys[at] = key;
    names->count++;
  }
  return (long)names->uses[at]++;
}

/* The arrays of an episode's .npz: rows (steps + 1) of scalars, columns
 * of 8 bytes each (action, reward, done, discount, player_pos,
 * achievements, inventory), and the observations there are (NULL for
 * none): Crafter's images and semantic maps, Craftax-Classic's symbolic
 * observations. */
typedef struct npz_arrays {
  size_t rows, columns;
  const uint8_t *scalars;
  const uint8_t *images;
  size_t height, width;
  const uint8_t *semantic;
  size_t area_width, area_height;
  const uint8_t *symbolic; /* rows of 4 * CRAFTER_SYMBOLIC_SIZE bytes, little-endian float32 */
} npz_arrays;

/* Writes episode e's arrays to DIRECTORY/s<seed>-e<episode>[-p<player>]-ach<N>-len<T>.npz
 * (player -1: none), a name given before getting -2, -3, ...; its path to
 * `out` when not NULL. */
static int write_npz_file(const npz_arrays *a, const crafter_traj_episode *e, int p,
                          const char *directory, npz_names *names, FILE *out, char *error,
                          size_t error_size) {
  size_t rows = a->rows, columns = a->columns;
  const uint8_t *scalars = a->scalars;
  char path[4096];
  int status = 0;
  {
    int unlocked = 0;
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) unlocked += e->achievements[k] >= 1;
    char player[32] = "";
    if (p >= 0) snprintf(player, sizeof(player), "-p%d", p);
    char name[160];
    snprintf(name, sizeof(name), "s%lld-e%lld%s-ach%d-len%u", (long long)e->seed,
             (long long)e->episode, player, unlocked, e->steps);
    long earlier = npz_name_use(names, name);
    if (earlier < 0) status = crafter_fail(error, error_size, "out of memory");
    else if (earlier == 0) snprintf(path, sizeof(path), "%s/%s.npz", directory, name);
    else snprintf(path, sizeof(path), "%s/%s-%ld.npz", directory, name, earlier + 1);
  }
  if (status == 0) {
    /* Written aside and renamed when whole: an export killed midway leaves
     * no half file under the episode's name. */
    crafter_npz_writer zip = {0};
    crafter_outfile whole = {0};
    if (crafter_outfile_open(&whole, path, error, error_size) < 0)
      status = -1;
    else
      zip.file = whole.file;
    uint8_t *column = status == 0 ? malloc(rows * 16) : NULL;
    if (status == 0 && !column) status = crafter_fail(error, error_size, "out of memory");
    if (status == 0) {
      size_t one[1] = {rows}, pos_shape[2] = {rows, 2};
      int bad = 0;
      if (a->images) {
        size_t image_shape[4] = {rows, a->height, a->width, 3};
        bad |= crafter_npz_add(&zip, "image", "|u1", image_shape, 4, a->images,
                               rows * a->height * a->width * 3);
      }
      if (a->symbolic) {
        size_t symbolic_shape[2] = {rows, CRAFTER_SYMBOLIC_SIZE};
        bad |= crafter_npz_add(&zip, "symbolic", "<f4", symbolic_shape, 2, a->symbolic,
                               rows * 4 * CRAFTER_SYMBOLIC_SIZE);
      }
      /* action, reward */
      for (size_t t = 0; t < rows; t++) memcpy(column + 8 * t, scalars + t * columns * 8, 8);
      bad |= crafter_npz_add(&zip, "action", "<i8", one, 1, column, rows * 8);
      for (size_t t = 0; t < rows; t++) memcpy(column + 8 * t, scalars + t * columns * 8 + 8, 8);
      bad |= crafter_npz_add(&zip, "reward", "<f8", one, 1, column, rows * 8);
      for (size_t t = 0; t < rows; t++) column[t] = scalars[t * columns * 8 + 16];
      bad |= crafter_npz_add(&zip, "done", "|b1", one, 1, column, rows);
      for (size_t t = 0; t < rows; t++) memcpy(column + 8 * t, scalars + t * columns * 8 + 24, 8);
      bad |= crafter_npz_add(&zip, "discount", "<f8", one, 1, column, rows * 8);
      if (a->semantic) {
        size_t semantic_shape[3] = {rows, a->area_width, a->area_height};
        bad |= crafter_npz_add(&zip, "semantic", "|u1", semantic_shape, 3, a->semantic,
                               rows * a->area_width * a->area_height);
      }
      for (size_t t = 0; t < rows; t++) memcpy(column + 16 * t, scalars + t * columns * 8 + 32, 16);
      bad |= crafter_npz_add(&zip, "player_pos", "<i8", pos_shape, 2, column, rows * 16);
      for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT + CRAFTER_ITEM_COUNT && !bad; k++) {
        char key[64];
        if (k < CRAFTER_ACHIEVEMENT_COUNT)
          snprintf(key, sizeof(key), "achievement_%s", crafter_achievement_names[k]);
        else
          snprintf(key, sizeof(key), "ainventory_%s",
                   crafter_item_names[k - CRAFTER_ACHIEVEMENT_COUNT]);
        for (size_t t = 0; t < rows; t++)
          memcpy(column + 8 * t, scalars + t * columns * 8 + 48 + 8 * (size_t)k, 8);
        bad |= crafter_npz_add(&zip, key, "<i8", one, 1, column, rows * 8);
      }
      if (bad || crafter_npz_finish(&zip) < 0) status = crafter_fail(error, error_size, "writing %s failed", path);
    }
    free(column);
    crafter_npz_free(&zip);
    if (status == 0) {
      if (crafter_outfile_commit(&whole, error, error_size) < 0) status = -1;
    } else {
      crafter_outfile_abort(&whole);
    }
    if (status == 0 && out) fprintf(out, "%s\n", path);
  }
  return status;
}

static int write_npz(crafter_traj_reader *reader, size_t i, replay *r, const char *directory,
                     npz_names *names, FILE *out, char *error, size_t error_size) {
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
  int p = h->players > 1 ? e->player : 0;
  world_episode w;
  int bad_player;
  uint32_t stored = h->obs_kind == CRAFTER_OBS_PIXELS ? 1u << p : 0;
  if (read_world(reader, i, (1u << h->players) - 1u, stored, &w, &bad_player, error,
                 error_size) < 0)
    return -1;
  const crafter_traj_data *d = &w.data[p];
  size_t rows = (size_t)d->steps_count + 1;
  size_t width = (size_t)h->params.size[0], height = (size_t)h->params.size[1];
  size_t area = (size_t)h->params.area[0] * (size_t)h->params.area[1];
  size_t image_bytes = width * height * 3;
  uint8_t *images = malloc(rows * image_bytes);
  uint8_t *semantic = malloc(rows * area);
  /* action, reward, done, discount, player_pos (2), achievements, inventory */
  size_t columns = 4 + 2 + CRAFTER_ACHIEVEMENT_COUNT + CRAFTER_ITEM_COUNT;
  uint8_t *scalars = calloc(rows * columns, 8);
  int status = 0;
  if (!images || !semantic || !scalars) status = crafter_fail(error, error_size, "out of memory");
  if (status == 0) status = replay_start(r, &w, error, error_size);
  crafter_env *env = &r->env;
  int64_t position[2] = {0, 0};
  for (size_t t = 0; t < rows && status == 0; t++) {
    if (t > 0) {
      const crafter_traj_step *s = &d->steps[t - 1];
      crafter_stored_world_step(&r->world, env);
      const crafter_step_result *result = &r->world.results[p];
      if (result->info_reward != s->reward || (result->done != 0) != s->done ||
          result->unlocked != s->unlocked) {
        status = crafter_fail(error, error_size,
                       "episode %zu does not re-simulate at step %zu (run verify --resimulate)",
                       i, t);
        break;
      }
      const crafter_object *body = crafter_game_body(&env->game, p);
      if (body) { /* a player keeps its place on the step it died */
        position[0] = body->x;
        position[1] = body->y;
      }
      uint8_t *row = scalars + t * columns * 8;
      put_i64_le(row, s->action);
      put_f64_le(row + 8, s->reward);
      row[16] = s->done;
      put_f64_le(row + 24, s->died ? 0.0 : 1.0);
      put_i64_le(row + 32, position[0]);
      put_i64_le(row + 40, position[1]);
      const crafter_player *player = crafter_game_player_const(&env->game, p);
      for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++)
        put_i64_le(row + 48 + 8 * k, player->achievements[k]);
      for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
        put_i64_le(row + 48 + 8 * (CRAFTER_ACHIEVEMENT_COUNT + k), player->inventory[k]);
      /* The whole area with every player in it, as this file's player
       * sees it: itself the player (13), the others teammates (19). */
      crafter_env_semantic(env, p, semantic + t * area);
    } else {
      memset(semantic, 0, area); /* zeros at the first step, as the EpisodeRecorder fills in */
    }
    if (stored)
      memcpy(images + t * image_bytes, d->obs + t * image_bytes, image_bytes);
    else
      memcpy(images + t * image_bytes, r->o.pixels + r->o.pixel_bytes * (size_t)p, image_bytes);
  }
  npz_arrays arrays = {rows, columns, scalars, images, height, width, semantic,
                       (size_t)h->params.area[0], (size_t)h->params.area[1], NULL};
  if (status == 0)
    status = write_npz_file(&arrays, e, h->players > 1 ? p : -1, directory, names, out, error,
                            error_size);
  free(images);
  free(semantic);
  free(scalars);
  world_free(&w);
  return status;
}

/* The .npz of episode i of a Craftax-Classic file: replayed from its keys
 * for the positions, achievements and inventory of every step; its
 * symbolic observations the stored ones, or the replay's. */
static int cc_write_npz(crafter_traj_reader *reader, size_t i, cc_replay *r,
                        const char *directory, npz_names *names, FILE *out, char *error,
                        size_t error_size) {
  const crafter_traj_episode *e = crafter_traj_episode_at(reader, i);
  crafter_traj_data d;
  if (crafter_traj_read_episode(reader, i, &d, error, error_size) < 0) return -1;
  size_t rows = (size_t)d.steps_count + 1;
  size_t columns = 4 + 2 + CRAFTER_ACHIEVEMENT_COUNT + CRAFTER_ITEM_COUNT;
  uint8_t *scalars = calloc(rows * columns, 8);
  uint8_t *symbolic = d.obs ? NULL : malloc(rows * r->obs_bytes);
  int status = 0;
  if (!scalars || (!d.obs && !symbolic)) status = crafter_fail(error, error_size, "out of memory");
  if (status == 0) status = cc_replay_start(r, e, error, error_size);
  if (status == 0 && symbolic) memcpy(symbolic, r->obs, r->obs_bytes);
  for (size_t t = 1; t < rows && status == 0; t++) {
    const crafter_traj_step *s = &d.steps[t - 1];
    crafter_jgame_outcome o;
    cc_replay_step(r, s->action, &o);
    if ((double)o.reward != s->reward || (o.done != 0) != s->done || o.unlocked[0] != s->unlocked) {
      status = crafter_fail(error, error_size,
                            "episode %zu does not re-simulate at step %zu (run verify "
                            "--resimulate)",
                            i, t);
      break;
    }
    int32_t position_row, position_column;
    int facing[2];
    r->g->position(r->g->state(r->env), &position_row, &position_column, facing);
    uint8_t *row = scalars + t * columns * 8;
    put_i64_le(row, s->action);
    put_f64_le(row + 8, s->reward);
    row[16] = s->done;
    put_f64_le(row + 24, s->died ? 0.0 : 1.0);
    put_i64_le(row + 32, position_column); /* x: the column, as Crafter's */
    put_i64_le(row + 40, position_row);
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) put_i64_le(row + 48 + 8 * k, o.achievements[k]);
    for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
      put_i64_le(row + 48 + 8 * (CRAFTER_ACHIEVEMENT_COUNT + k), o.inventory[k]);
    if (symbolic) memcpy(symbolic + t * r->obs_bytes, r->obs, r->obs_bytes);
  }
  npz_arrays arrays = {rows, columns, scalars, NULL, 0, 0, NULL, 0, 0, d.obs ? d.obs : symbolic};
  if (status == 0)
    status = write_npz_file(&arrays, e, -1, directory, names, out, error, error_size);
  free(scalars);
  free(symbolic);
  crafter_traj_data_free(&d);
  return status;
}

static int make_directory(const char *directory, char *error, size_t error_size) {
  struct stat info;
  if (stat(directory, &info) == 0) {
    if (S_ISDIR(info.st_mode)) return 0;
    return crafter_fail(error, error_size, "%s is not a directory", directory);
  }
  if (mkdir(directory, 0777) < 0) return crafter_fail(error, error_size, "%s: %s", directory, strerror(errno));
  return 0;
}

int crafter_dataset_export_npz(const char *path, int game, const char *directory,
                               const char *textures, FILE *out, FILE *notes, char *error,
                               size_t error_size) {
  crafter_traj_reader *reader = open_file(path, game, error, error_size);
  if (!reader) return 1;
  if (notes) describe_damage(notes, path, reader);
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  if (other_game(h)) {
    cc_replay r;
    char problem[600];
    int status = cc_replay_init(&r, h, 1, problem, sizeof(problem)) < 0
                     ? failn(1, error, error_size, "%s: %s", path, problem)
                 : make_directory(directory, error, error_size) < 0 ? 1
                                                                    : 0;
    npz_names names = {0};
    for (size_t i = 0; i < crafter_traj_episode_count(reader) && status == 0; i++) {
      if (crafter_traj_episode_at(reader, i)->end == CRAFTER_TRAJ_CUT) continue;
      if (cc_write_npz(reader, i, &r, directory, &names, out, problem, sizeof(problem)) < 0)
        status = failn(1, error, error_size, "%s: %s", path, problem);
    }
    free(names.keys);
    free(names.uses);
    cc_replay_free(&r);
    crafter_traj_close(reader);
    return status;
  }
  replay r;
  char problem[600];
  /* Stored pixels are used as they are: no textures needed then. */
  crafter_traj_header replayed = *h;
  int render = h->obs_kind != CRAFTER_OBS_PIXELS;
  if (!render) replayed.obs_kind = CRAFTER_OBS_NONE;
  if (replay_init(&r, &replayed, render, textures, problem, sizeof(problem)) < 0) {
    crafter_traj_close(reader);
    return failn(2, error, error_size, "%s: %s", path, problem);
  }
  int status = make_directory(directory, error, error_size) < 0 ? 1 : 0;
  npz_names names = {0};
  for (size_t i = 0; i < crafter_traj_episode_count(reader) && status == 0; i++) {
    if (crafter_traj_episode_at(reader, i)->end == CRAFTER_TRAJ_CUT) continue;
    if (write_npz(reader, i, &r, directory, &names, out, problem, sizeof(problem)) < 0)
      status = failn(1, error, error_size, "%s: %s", path, problem);
  }
  free(names.keys);
  free(names.uses);
  replay_free(&r);
  crafter_traj_close(reader);
  return status;
}

/* ---- frames ---- */

/* Parses "all" or "0,10,20-30" into a mask over steps 0..last. */
static int parse_steps(const char *text, uint32_t last, uint8_t *wanted, char *error,
                       size_t error_size) {
  if (strcmp(text, "all") == 0) {
    memset(wanted, 1, (size_t)last + 1);
    return 0;
  }
  const char *at = text;
  while (*at) {
    char *end;
    errno = 0;
    unsigned long low = strtoul(at, &end, 10), high;
    if (end == at || *at == '-' || *at == '+' || errno)
      return crafter_fail(error, error_size, "invalid step list '%s' (expected all, or numbers and "
                                      "ranges such as 0,10,20-30)", text);
    high = low;
    at = end;
    if (*at == '-') {
      at++;
      high = strtoul(at, &end, 10);
      if (end == at || *at == '-' || *at == '+' || high < low)
        return crafter_fail(error, error_size, "invalid step range in '%s'", text);
      at = end;
    }
    if (high > last)
      return crafter_fail(error, error_size, "step %lu is past the end of the episode (%u steps)", high,
                   last);
    for (unsigned long s = low; s <= high; s++) wanted[s] = 1;
    if (*at == ',') at++;
    else if (*at)
      return crafter_fail(error, error_size, "invalid step list '%s'", text);
  }
  return 0;
}

/* A JAX game's pixel observation of a state (the row's pixels) as RGB
 * bytes: each float32 value times 255, rounded to nearest. */
static void cc_picture(const crafter_jgame *g, const void *state, const void *textures,
                       float *values, uint8_t *rgb) {
  g->pixels(state, textures, values);
  size_t size = (size_t)g->pixel_rows * (size_t)g->pixel_columns * 3;
  for (size_t k = 0; k < size; k++) {
    float value = values[k] * 255.0f + 0.5f;
    rgb[k] = (uint8_t)(value < 0.0f ? 0.0f : value > 255.0f ? 255.0f : value);
  }
}

/* draw_frames for a file of Craftax-Classic: the episode replayed from
 * its keys with its actions (the file stores no pixels) and every wanted
 * state drawn as Craftax-Classic-Pixels-v1 draws it, with Craftax's
 * textures from options->textures (its assets folder) or the built-in
 * ones.  The last step's picture is the state the episode ended in. */
static int cc_draw_frames(const char *path, crafter_traj_reader *reader,
                          const crafter_frames_options *options, crafter_pictures *pictures,
                          char *error, size_t error_size) {
  long episode = options->episode;
  size_t count = crafter_traj_episode_count(reader);
  if (episode < 0 || (size_t)episode >= count)
    return failn(1, error, error_size, "%s has no episode %ld (it has %zu, from 0)", path, episode,
                 count);
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  const crafter_traj_episode *e = crafter_traj_episode_at(reader, (size_t)episode);
  char problem[4096 + 200];
  crafter_traj_data d;
  if (crafter_traj_read_steps(reader, (size_t)episode, &d, problem, sizeof(problem)) < 0)
    return failn(1, error, error_size, "%s: episode %ld: %s", path, episode, problem);
  const crafter_jgame *g = crafter_jgame_of(h->game);
  size_t pixels = (size_t)g->pixel_rows * (size_t)g->pixel_columns * 3;
  void *textures = malloc(g->textures_size);
  float *values = malloc(sizeof(float) * pixels);
  uint8_t *rgb = malloc(pixels);
  uint8_t *wanted = calloc((size_t)d.steps_count + 1, 1);
  cc_replay r;
  int have_replay = 0, status = 0;
  if (!textures || !values || !rgb || !wanted) status = failn(1, error, error_size, "out of memory");
  if (status == 0 && parse_steps(options->steps, d.steps_count, wanted, error, error_size) < 0)
    status = 2;
  if (status == 0 &&
      (options->textures
           ? g->textures_load(textures, options->textures, problem, sizeof(problem))
           : g->textures_builtin(textures, problem, sizeof(problem))) < 0)
    status = failn(1, error, error_size, "%s%s", options->textures ? "--textures: " : "", problem);
  if (status == 0 && pictures->directory &&
      make_directory(pictures->directory, error, error_size) < 0)
    status = 1;
  if (status == 0) {
    crafter_traj_header plain = *h;
    plain.obs_bytes = 0; /* the states are drawn, not observed */
    if (cc_replay_init(&r, &plain, 0, problem, sizeof(problem)) < 0)
      status = failn(1, error, error_size, "%s", problem);
    else
      have_replay = 1;
  }
  if (status == 0 && cc_replay_start(&r, e, problem, sizeof(problem)) < 0)
    status = failn(1, error, error_size, "%s", problem);
  for (uint32_t t = 0; t <= d.steps_count && status == 0; t++) {
    if (t > 0) {
      crafter_jgame_outcome outcome;
      cc_replay_step(&r, d.steps[t - 1].action, &outcome);
    }
    if (!wanted[t]) continue;
    cc_picture(g, g->state(r.env), textures, values, rgb);
    if (crafter_pictures_add(pictures, t, rgb, g->pixel_columns, g->pixel_rows,
                             problem, sizeof(problem)) < 0)
      status = failn(1, error, error_size, "%s", problem);
  }
  if (status == 0 && pictures->count == 0)
    status = failn(2, error, error_size, "the step list '%s' chooses no step", options->steps);
  if (crafter_pictures_finish(pictures, status == 0, problem, sizeof(problem)) < 0 && status == 0)
    status = failn(1, error, error_size, "%s", problem);
  if (have_replay) cc_replay_free(&r);
  crafter_traj_data_free(&d);
  free(textures);
  free(values);
  free(rgb);
  free(wanted);
  return status;
}

/* Hands the wanted steps of the episode to `pictures`, then finishes it. */
static int draw_frames(const char *path, const crafter_frames_options *options,
                       crafter_pictures *pictures, char *error, size_t error_size) {
  long episode = options->episode;
  crafter_traj_reader *reader = open_file(path, options->game, error, error_size);
  if (!reader) return 1;
  const crafter_traj_header *h = crafter_traj_header_of(reader);
  if (other_game(h)) {
    int result = cc_draw_frames(path, reader, options, pictures, error, error_size);
    crafter_traj_close(reader);
    return result;
  }
  size_t count = crafter_traj_episode_count(reader);
  if (episode < 0 || (size_t)episode >= count) {
    crafter_traj_close(reader);
    return failn(1, error, error_size, "%s has no episode %ld (it has %zu, from 0)", path, episode,
                 count);
  }
  /* Stored pixels are drawn as they are; otherwise the world is replayed
   * (with several players, every player's steps) and the episode's
   * player's view drawn. */
  int stored = h->obs_kind == CRAFTER_OBS_PIXELS;
  const crafter_traj_episode *e = crafter_traj_episode_at(reader, (size_t)episode);
  int p = h->players > 1 ? e->player : 0;
  world_episode w;
  int bad_player;
  if (read_world(reader, (size_t)episode, stored ? 1u << p : (1u << h->players) - 1u,
                 stored ? 1u << p : 0, &w, &bad_player, error, error_size) < 0) {
    crafter_traj_close(reader);
    return 1;
  }
  const crafter_traj_data *d = &w.data[p];
  uint8_t *wanted = calloc((size_t)d->steps_count + 1, 1);
  int status = 0;
  char problem[600];
  replay r;
  int have_replay = 0;
  if (!wanted) status = failn(1, error, error_size, "out of memory");
  if (status == 0 && parse_steps(options->steps, d->steps_count, wanted, error, error_size) < 0)
    status = 2;
  if (status == 0 && pictures->directory &&
      make_directory(pictures->directory, error, error_size) < 0)
    status = 1;
  if (status == 0 && !stored) {
    if (replay_init(&r, h, 1, options->textures, problem, sizeof(problem)) < 0) {
      status = failn(1, error, error_size, "%s", problem);
    } else {
      have_replay = 1;
      if (replay_start(&r, &w, problem, sizeof(problem)) < 0)
        status = failn(1, error, error_size, "%s", problem);
    }
  }
  int width = h->params.size[0], height = h->params.size[1];
  size_t image_bytes = (size_t)width * (size_t)height * 3;
  for (uint32_t t = 0; t <= d->steps_count && status == 0; t++) {
    if (have_replay && t > 0) crafter_stored_world_step(&r.world, &r.env);
    if (!wanted[t]) continue;
    const uint8_t *pixels = have_replay ? r.o.pixels + r.o.pixel_bytes * (size_t)p
                                        : d->obs + (size_t)t * image_bytes;
    if (crafter_pictures_add(pictures, t, pixels, width, height, problem, sizeof(problem)) < 0)
      status = failn(1, error, error_size, "%s", problem);
  }
  if (status == 0 && pictures->count == 0)
    status = failn(2, error, error_size, "the step list '%s' chooses no step", options->steps);
  if (crafter_pictures_finish(pictures, status == 0, problem, sizeof(problem)) < 0 && status == 0)
    status = failn(1, error, error_size, "%s", problem);
  if (have_replay) replay_free(&r);
  free(wanted);
  world_free(&w);
  crafter_traj_close(reader);
  return status;
}

int crafter_dataset_frames(const char *path, const crafter_frames_options *options,
                           const char *directory, FILE *out, char *error, size_t error_size) {
  crafter_pictures pictures = {.directory = directory, .episode = options->episode, .out = out,
                               .size = {options->size[0], options->size[1]}};
  return draw_frames(path, options, &pictures, error, error_size);
}

int crafter_dataset_video(const char *path, const crafter_frames_options *options,
                          const char *video, char *error, size_t error_size) {
  crafter_pictures pictures = {.video_path = video, .format = options->format,
                               .ffmpeg = options->ffmpeg, .fps = options->fps,
                               .size = {options->size[0], options->size[1]}};
  return draw_frames(path, options, &pictures, error, error_size);
}
