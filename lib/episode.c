#include "episode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "proto.h"

enum { TEXT_CAPACITY = 8192 };

struct crafter_episode {
  const crafter_episode_options *options;
  crafter_env env;
  int env_ready;
  crafter_renderer *renderer; /* pixels only */
  uint8_t *own_obs;
  uint8_t *obs;               /* where observations go: own_obs or the caller's */
  size_t obs_bytes;
  int observed;               /* the observation in obs is the present one */
  size_t obs_length;          /* its bytes */
  crafter_level_picker picker;
  int next_level;             /* -1: the picker's */
  crafter_task_tracker tracker;
  int candidate, text, goal;
  crafter_traj_recorder *recorder;
  int started, ended, steps;
};

static size_t obs_bytes_of(const crafter_episode_options *options) {
  const crafter_params *params = &options->params;
  switch (options->obs_kind) {
    case CRAFTER_OBS_PIXELS: return (size_t)params->size[0] * (size_t)params->size[1] * 3;
    case CRAFTER_OBS_SEMANTIC: return (size_t)params->area[0] * (size_t)params->area[1];
    case CRAFTER_OBS_SYMBOLIC: return CRAFTER_SYMBOLIC_SIZE * sizeof(float);
    case CRAFTER_OBS_TEXT: return TEXT_CAPACITY;
    default: return 0;
  }
}

crafter_episode *crafter_episode_new(const crafter_episode_options *options, int index,
                                     const crafter_episode *share, char *error,
                                     size_t error_size) {
  crafter_episode *e = calloc(1, sizeof(*e));
  if (!e) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  e->options = options;
  e->next_level = -1;
  crafter_params params = options->params;
  params.seed += index;
  if (crafter_env_init_config(&e->env, &params, options->config, error, error_size) < 0) {
    free(e);
    return NULL;
  }
  e->env_ready = 1;
  crafter_env_set_next_episode(&e->env, options->first_episode);
  e->obs_bytes = obs_bytes_of(options);
  e->own_obs = malloc(e->obs_bytes ? e->obs_bytes : 1);
  if (!e->own_obs) goto out_of_memory;
  e->obs = e->own_obs;
  if (options->obs_kind == CRAFTER_OBS_PIXELS) {
    if (!options->textures) {
      crafter_fail(error, error_size, "pixel observations need textures");
      crafter_episode_free(e);
      return NULL;
    }
    e->renderer = share && share->renderer
                      ? crafter_renderer_share(share->renderer, error, error_size)
                      : crafter_renderer_new(options->textures, &params, error, error_size);
    if (!e->renderer) {
      crafter_episode_free(e);
      return NULL;
    }
    crafter_renderer_attach(e->renderer, &e->env, e->obs);
  }
  if (options->levels)
    crafter_level_picker_init(&e->picker, options->levels, options->level_order, index,
                              options->level_envs > 0 ? options->level_envs : 1);
  if (options->record && !(e->recorder = crafter_traj_recorder_new(options->record)))
    goto out_of_memory;
  return e;
out_of_memory:
  crafter_fail(error, error_size, "out of memory");
  crafter_episode_free(e);
  return NULL;
}

void crafter_episode_free(crafter_episode *e) {
  if (!e) return;
  crafter_traj_recorder_free(e->recorder);
  crafter_task_tracker_free(&e->tracker);
  if (e->env_ready) crafter_env_free(&e->env);
  crafter_renderer_free(e->renderer);
  free(e->own_obs);
  free(e);
}

void crafter_episode_set_obs_buffer(crafter_episode *e, uint8_t *buffer) {
  uint8_t *target = buffer ? buffer : e->own_obs;
  if (target != e->obs) e->observed = 0;
  e->obs = target;
  if (e->renderer) crafter_renderer_attach(e->renderer, &e->env, e->obs);
}

size_t crafter_episode_obs_bytes(const crafter_episode *e) { return e->obs_bytes; }

void crafter_episode_set_next(crafter_episode *e, int64_t number) {
  crafter_env_set_next_episode(&e->env, number);
}

void crafter_episode_set_level(crafter_episode *e, int level) { e->next_level = level; }

/* The observation a recording stores: pixels, semantic or symbolic. */
static const void *recorded_obs(crafter_episode *e) {
  int kind = e->options->obs_kind;
  if (kind != CRAFTER_OBS_PIXELS && kind != CRAFTER_OBS_SEMANTIC && kind != CRAFTER_OBS_SYMBOLIC)
    return NULL;
  size_t bytes;
  return crafter_episode_observe(e, &bytes);
}

int crafter_episode_start(crafter_episode *e, crafter_prepared *prepared, char *error,
                          size_t error_size) {
  const crafter_episode_options *options = e->options;
  int status;
  if (options->levels) {
    int level = e->next_level >= 0 ? e->next_level : crafter_level_pick(&e->picker);
    status = crafter_env_reset_level(&e->env, options->levels, level);
  } else if (options->world) {
    if (crafter_env_reset_from_world(&e->env, options->world, error, error_size) < 0) return -1;
    status = 0;
  } else {
    status = prepared ? crafter_env_reset_prepared(&e->env, prepared) : crafter_env_reset(&e->env);
  }
  e->next_level = -1;
  if (status < 0) return crafter_fail(error, error_size, "out of memory");
  e->observed = 0;
  e->started = 1;
  e->ended = 0;
  e->steps = 0;
  e->goal = 0;
  if (options->tasks &&
      crafter_task_pool_begin(options->tasks, &e->tracker, &e->env, &e->candidate, &e->text) < 0)
    return crafter_fail(error, error_size, "out of memory");
  if (e->recorder) {
    if (crafter_traj_recorder_start(e->recorder, &e->env, recorded_obs(e)) < 0)
      return crafter_fail(error, error_size, "out of memory while recording");
    if (options->tasks)
      crafter_traj_recorder_set_task(e->recorder, options->tasks->tasks[e->candidate], e->text);
  }
  return 0;
}

int crafter_episode_step(crafter_episode *e, int action, crafter_step_record *out) {
  crafter_step_result result;
  crafter_env_step(&e->env, action, &result);
  e->observed = 0;
  int goal = e->options->tasks ? crafter_task_step(&e->tracker, &e->env, action, &result) : 0;
  e->goal = goal;
  int status = 0;
  out->finished = 0;
  if (!e->ended) {
    e->steps++;
    /* The recorder keeps the game's reward and discount; the goal is its
     * own flag. */
    if (e->recorder &&
        crafter_traj_recorder_step_goal(e->recorder, &e->env, action, &result, recorded_obs(e),
                                        goal) < 0)
      status = -1;
    if (result.done) {
      e->ended = out->finished = 1;
      /* Compressed to its end here, on the runner's thread: the writer
       * only appends it. */
      if (e->recorder && status == 0 && crafter_traj_recorder_seal(e->recorder) < 0) status = -1;
    }
  }
  out->reward = result.reward;
  out->info_reward = result.info_reward;
  out->unlocked = result.unlocked;
  out->goal = goal;
  out->done = result.done;
  out->discount = result.discount;
  if (goal) {
    out->reward += e->tracker.task->reward;
    out->discount = 0.0;
  }
  return status;
}

const uint8_t *crafter_episode_observe(crafter_episode *e, size_t *bytes) {
  if (e->observed) {
    *bytes = e->obs_length;
    return e->obs;
  }
  const crafter_env *env = &e->env;
  size_t made = e->obs_bytes;
  switch (e->options->obs_kind) {
    case CRAFTER_OBS_PIXELS: break; /* drawn at every start and step */
    case CRAFTER_OBS_SEMANTIC: crafter_env_semantic(env, e->obs); break;
    case CRAFTER_OBS_SYMBOLIC: crafter_render_symbolic(env, (float *)(void *)e->obs); break;
    case CRAFTER_OBS_TEXT: {
      size_t at = 0;
      char *text = (char *)e->obs;
      if (e->options->tasks) {
        int written = snprintf(text, e->obs_bytes, "Instruction: %s\n",
                               crafter_episode_instruction(e));
        at = written > 0 && (size_t)written < e->obs_bytes ? (size_t)written : 0;
      }
      size_t length = at + crafter_render_text(env, text + at, e->obs_bytes - at);
      made = length < e->obs_bytes ? length : e->obs_bytes - 1;
      break;
    }
    default: made = 0; break;
  }
  e->observed = 1;
  e->obs_length = made;
  *bytes = made;
  return e->obs;
}

int crafter_episode_ended(const crafter_episode *e) { return e->ended; }

int crafter_episode_unfinished(const crafter_episode *e) {
  return e->started && !e->ended && e->steps > 0;
}

crafter_traj_recorder *crafter_episode_recorder(crafter_episode *e) { return e->recorder; }

crafter_traj_recorder *crafter_episode_swap_recorder(crafter_episode *e,
                                                     crafter_traj_recorder *fresh) {
  crafter_traj_recorder *ended = e->recorder;
  e->recorder = fresh;
  return ended;
}

crafter_env *crafter_episode_env(crafter_episode *e) { return &e->env; }

const crafter_env *crafter_episode_env_const(const crafter_episode *e) { return &e->env; }

const crafter_task *crafter_episode_task(const crafter_episode *e) {
  return e->options->tasks ? e->tracker.task : NULL;
}

int crafter_episode_candidate(const crafter_episode *e) { return e->candidate; }

int crafter_episode_text(const crafter_episode *e) { return e->text; }

const char *crafter_episode_instruction(const crafter_episode *e) {
  const crafter_task *task = crafter_episode_task(e);
  return task ? task->text[e->text] : NULL;
}

crafter_task_tracker *crafter_episode_tracker(crafter_episode *e) { return &e->tracker; }

int64_t crafter_episode_level(const crafter_episode *e) {
  return e->options->levels ? e->env.episode : 0;
}

const crafter_renderer *crafter_episode_renderer(const crafter_episode *e) {
  return e->renderer;
}

int crafter_episode_start_stored(crafter_env *env, const crafter_traj_header *header,
                                 const crafter_traj_episode *stored, crafter_task_tracker *tracker,
                                 const crafter_task **task, char *error, size_t error_size) {
  env->params.seed = stored->seed;
  crafter_env_set_next_episode(env, stored->episode);
  if (header->world) {
    if (crafter_env_reset_from_world(env, header->world, error, error_size) < 0) return -1;
  } else if (crafter_env_reset(env) < 0) {
    return crafter_fail(error, error_size, "out of memory");
  }
  if (!tracker) return 0;
  const crafter_task_set *tasks = header->tasks;
  *task = tasks && stored->task >= 0 && stored->task < tasks->count ? &tasks->tasks[stored->task]
                                                                    : NULL;
  if (*task && crafter_task_begin(tracker, *task, env) < 0)
    return crafter_fail(error, error_size, "out of memory");
  return 0;
}
