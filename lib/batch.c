#include "batch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "render.h"

typedef struct worker {
  crafter_batch *batch;
  int first, last; /* envs [first, last) */
  pthread_t thread;
} worker;

struct crafter_batch {
  crafter_batch_options options;
  crafter_env *envs;
  crafter_renderer **renderers;
  uint8_t *pixels;      /* per env, when pixels are rendered */
  size_t pixel_bytes;
  uint8_t *obs;         /* per env */
  size_t obs_bytes;
  worker *workers;
  int started;          /* threads running */
  /* The step being worked on, handed to the workers. */
  const uint8_t *actions;
  crafter_step_result *results;
  uint8_t *reset;
  pthread_mutex_t lock;
  pthread_cond_t work_ready, work_done;
  long generation;      /* bumped for each step handed out */
  int pending;          /* workers still busy with this generation */
  int quit;
};

static void observe(crafter_batch *batch, int i) {
  crafter_env *env = &batch->envs[i];
  uint8_t *obs = batch->obs + batch->obs_bytes * (size_t)i;
  switch (batch->options.obs_kind) {
    case CRAFTER_OBS_PIXELS: break; /* rendered in place by the attached renderer */
    case CRAFTER_OBS_SEMANTIC: crafter_env_semantic(env, obs); break;
    case CRAFTER_OBS_SYMBOLIC: crafter_render_symbolic(env, (float *)(void *)obs); break;
    default: break;
  }
}

static void step_range(crafter_batch *batch, int first, int last) {
  for (int i = first; i < last; i++) {
    crafter_step_result *result = &batch->results[i];
    crafter_env_step(&batch->envs[i], batch->actions[i], result);
    int reset = result->done;
    if (reset) crafter_env_reset(&batch->envs[i]);
    if (batch->reset) batch->reset[i] = (uint8_t)reset;
    observe(batch, i);
  }
}

static void *work(void *argument) {
  worker *self = argument;
  crafter_batch *batch = self->batch;
  long seen = 0;
  for (;;) {
    pthread_mutex_lock(&batch->lock);
    while (batch->generation == seen && !batch->quit)
      pthread_cond_wait(&batch->work_ready, &batch->lock);
    if (batch->quit) {
      pthread_mutex_unlock(&batch->lock);
      return NULL;
    }
    seen = batch->generation;
    pthread_mutex_unlock(&batch->lock);
    step_range(batch, self->first, self->last);
    pthread_mutex_lock(&batch->lock);
    if (--batch->pending == 0) pthread_cond_signal(&batch->work_done);
    pthread_mutex_unlock(&batch->lock);
  }
}

static size_t obs_bytes_for(const crafter_batch_options *options) {
  switch (options->obs_kind) {
    case CRAFTER_OBS_PIXELS: return (size_t)options->params.size[0] * (size_t)options->params.size[1] * 3;
    case CRAFTER_OBS_SEMANTIC: return (size_t)options->params.area[0] * (size_t)options->params.area[1];
    case CRAFTER_OBS_SYMBOLIC: return CRAFTER_SYMBOLIC_SIZE * sizeof(float);
    default: return 0;
  }
}

crafter_batch *crafter_batch_new(const crafter_batch_options *options, char *error,
                                 size_t error_size) {
  if (options->envs < 1 || options->threads < 1) {
    snprintf(error, error_size, "a batch needs at least one env and one thread");
    return NULL;
  }
  if (options->obs_kind == CRAFTER_OBS_TEXT) {
    snprintf(error, error_size, "text observations are not batched");
    return NULL;
  }
  if (options->obs_kind == CRAFTER_OBS_PIXELS && !options->textures) {
    snprintf(error, error_size, "pixel observations need textures");
    return NULL;
  }
  crafter_batch *batch = calloc(1, sizeof(*batch));
  if (!batch) goto out_of_memory;
  batch->options = *options;
  int count = options->envs;
  batch->envs = calloc((size_t)count, sizeof(crafter_env));
  batch->obs_bytes = obs_bytes_for(options);
  batch->obs = calloc((size_t)count, batch->obs_bytes ? batch->obs_bytes : 1);
  if (!batch->envs || !batch->obs) goto out_of_memory;
  if (options->obs_kind == CRAFTER_OBS_PIXELS) {
    batch->renderers = calloc((size_t)count, sizeof(crafter_renderer *));
    if (!batch->renderers) goto out_of_memory;
  }
  for (int i = 0; i < count; i++) {
    crafter_params params = options->params;
    params.seed += i;
    if (crafter_env_init_config(&batch->envs[i], &params, options->config, error, error_size) <
        0) {
      crafter_batch_free(batch);
      return NULL;
    }
    crafter_env_set_next_episode(&batch->envs[i], options->first_episode);
    if (batch->renderers) {
      batch->renderers[i] = crafter_renderer_new(options->textures, &params, error, error_size);
      if (!batch->renderers[i]) {
        crafter_batch_free(batch);
        return NULL;
      }
      crafter_renderer_attach(batch->renderers[i], &batch->envs[i],
                              batch->obs + batch->obs_bytes * (size_t)i);
    }
    if (crafter_env_reset(&batch->envs[i]) < 0) goto out_of_memory;
    observe(batch, i);
  }
  pthread_mutex_init(&batch->lock, NULL);
  pthread_cond_init(&batch->work_ready, NULL);
  pthread_cond_init(&batch->work_done, NULL);
  int threads = options->threads < count ? options->threads : count;
  batch->workers = calloc((size_t)threads, sizeof(worker));
  if (!batch->workers) goto out_of_memory;
  batch->options.threads = threads;
  /* The calling thread does the first share itself; helpers do the rest. */
  for (int t = 0; t < threads; t++) {
    batch->workers[t].batch = batch;
    batch->workers[t].first = (int)((long)count * t / threads);
    batch->workers[t].last = (int)((long)count * (t + 1) / threads);
  }
  for (int t = 1; t < threads; t++) {
    if (pthread_create(&batch->workers[t].thread, NULL, work, &batch->workers[t]) != 0) {
      snprintf(error, error_size, "cannot start a thread");
      crafter_batch_free(batch);
      return NULL;
    }
    batch->started = t;
  }
  return batch;

out_of_memory:
  crafter_batch_free(batch);
  snprintf(error, error_size, "out of memory");
  return NULL;
}

void crafter_batch_step(crafter_batch *batch, const uint8_t *actions,
                        crafter_step_result *results, uint8_t *reset) {
  batch->actions = actions;
  batch->results = results;
  batch->reset = reset;
  int helpers = batch->options.threads - 1;
  if (helpers > 0) {
    pthread_mutex_lock(&batch->lock);
    batch->pending = helpers;
    batch->generation++;
    pthread_cond_broadcast(&batch->work_ready);
    pthread_mutex_unlock(&batch->lock);
  }
  step_range(batch, batch->workers[0].first, batch->workers[0].last);
  if (helpers > 0) {
    pthread_mutex_lock(&batch->lock);
    while (batch->pending > 0) pthread_cond_wait(&batch->work_done, &batch->lock);
    pthread_mutex_unlock(&batch->lock);
  }
}

void crafter_batch_free(crafter_batch *batch) {
  if (!batch) return;
  if (batch->started > 0) {
    pthread_mutex_lock(&batch->lock);
    batch->quit = 1;
    pthread_cond_broadcast(&batch->work_ready);
    pthread_mutex_unlock(&batch->lock);
    for (int t = 1; t <= batch->started; t++) pthread_join(batch->workers[t].thread, NULL);
  }
  if (batch->workers) {
    pthread_mutex_destroy(&batch->lock);
    pthread_cond_destroy(&batch->work_ready);
    pthread_cond_destroy(&batch->work_done);
  }
  if (batch->envs)
    for (int i = 0; i < batch->options.envs; i++) crafter_env_free(&batch->envs[i]);
  if (batch->renderers)
    for (int i = 0; i < batch->options.envs; i++) crafter_renderer_free(batch->renderers[i]);
  free(batch->renderers);
  free(batch->envs);
  free(batch->obs);
  free(batch->workers);
  free(batch);
}

const uint8_t *crafter_batch_observation(const crafter_batch *batch, int i) {
  return batch->obs + batch->obs_bytes * (size_t)i;
}

size_t crafter_batch_observation_bytes(const crafter_batch *batch) { return batch->obs_bytes; }

crafter_env *crafter_batch_env(crafter_batch *batch, int i) { return &batch->envs[i]; }

size_t crafter_batch_bytes_per_env(const crafter_batch *batch) {
  size_t total = 0;
  for (int i = 0; i < batch->options.envs; i++) {
    const crafter_world *world = &batch->envs[i].game.world;
    size_t cells = (size_t)world->width * (size_t)world->height;
    size_t chunks = (size_t)world->chunks_x * (size_t)world->chunks_y;
    total += sizeof(crafter_env) + cells * (1 + sizeof(uint32_t)) +
             (size_t)world->object_capacity * sizeof(crafter_object) +
             (size_t)world->change_capacity * sizeof(crafter_change) +
             chunks * (sizeof(int16_t) + 1 + CRAFTER_MATERIAL_COUNT * sizeof(uint16_t)) +
             batch->obs_bytes;
    if (batch->renderers) total += crafter_renderer_bytes(batch->renderers[i]);
  }
  return total / (size_t)batch->options.envs;
}
