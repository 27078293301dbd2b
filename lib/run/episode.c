#include "run/episode.h"

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "run/traj_reader.h"
#include "run/traj_writer.h"
#include "view/obskind.h"

struct crafter_episode {
  const crafter_episode_options *options;
  crafter_env env;
  int env_ready;
  int players;                /* players of the game: 1 (Crafter) or more */
  crafter_renderer *renderer; /* pixels only */
  uint8_t *own_obs;
  uint8_t *obs;               /* where observations go: own_obs or the caller's, the
                                 players' one after another */
  size_t obs_bytes;           /* one player's observation */
  int observed;               /* the observations in obs are the present ones */
  size_t obs_length[CRAFTER_PLAYERS_MAX]; /* their bytes */
  crafter_level_picker picker;
  int next_level;             /* -1: the picker's */
  crafter_task_tracker tracker[CRAFTER_PLAYERS_MAX];
  int candidate[CRAFTER_PLAYERS_MAX], text[CRAFTER_PLAYERS_MAX], goal[CRAFTER_PLAYERS_MAX];
  uint32_t done;              /* bit p: player p's episode has ended */
  crafter_traj_recorder *recorder;
  crafter_traj_recorder *more[CRAFTER_PLAYERS_MAX]; /* players 1..: their recorders */
  int started, ended, steps;
  crafter_rules_print rules_print; /* kept for state.h */
};

static void attach_renderer(crafter_episode *e) {
  crafter_renderer_attach(e->renderer, &e->env, e->obs);
}

static size_t obs_bytes_of(const crafter_episode_options *options) {
  return crafter_obs_kind_bytes(options->obs_kind, &options->params,
                                options->players > 1 ? options->players : 1);
}

crafter_episode *crafter_episode_new(const crafter_episode_options *options, int index,
                                     const crafter_episode *share, char *error,
                                     size_t error_size) {
  crafter_episode *e = calloc(1, sizeof(*e));
  if (!e) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  const crafter_obs_kind_info *kind = crafter_obs_kind(options->obs_kind);
  if (!kind) {
    crafter_fail(error, error_size, "unknown observation kind %d", options->obs_kind);
    free(e);
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
  e->players = options->players > 1 ? options->players : 1;
  if (crafter_env_set_players(&e->env, e->players, error, error_size) < 0) {
    crafter_episode_free(e);
    return NULL;
  }
  if (options->recording && options->recording->players != e->players) {
    crafter_fail(error, error_size, "a recording of %d player%s for a game of %d",
                 options->recording->players, options->recording->players == 1 ? "" : "s",
                 e->players);
    crafter_episode_free(e);
    return NULL;
  }
  crafter_env_set_next_episode(&e->env, options->first_episode);
  e->obs_bytes = obs_bytes_of(options);
  e->own_obs = calloc((size_t)e->players, e->obs_bytes ? e->obs_bytes : 1);
  if (!e->own_obs) goto out_of_memory;
  e->obs = e->own_obs;
  if (kind->drawn) {
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
    attach_renderer(e);
  }
  if (options->levels)
    crafter_level_picker_init(&e->picker, options->levels, options->level_order, index,
                              options->level_envs > 0 ? options->level_envs : 1);
  if (options->recording && !(e->recorder = crafter_traj_recorder_new(options->recording)))
    goto out_of_memory;
  for (int p = 1; options->recording && p < e->players; p++)
    if (!(e->more[p] = crafter_traj_recorder_new(options->recording))) goto out_of_memory;
  return e;
out_of_memory:
  crafter_fail(error, error_size, "out of memory");
  crafter_episode_free(e);
  return NULL;
}

void crafter_episode_free(crafter_episode *e) {
  if (!e) return;
  crafter_traj_recorder_free(e->recorder);
  for (int p = 1; p < CRAFTER_PLAYERS_MAX; p++) crafter_traj_recorder_free(e->more[p]);
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_task_tracker_free(&e->tracker[p]);
  if (e->env_ready) crafter_env_fini(&e->env);
  crafter_renderer_free(e->renderer);
  free(e->own_obs);
  free(e);
}

void crafter_episode_set_obs_buffer(crafter_episode *e, uint8_t *buffer) {
  uint8_t *target = buffer ? buffer : e->own_obs;
  if (target != e->obs) e->observed = 0;
  e->obs = target;
  if (e->renderer) attach_renderer(e);
}

size_t crafter_episode_obs_bytes(const crafter_episode *e) {
  return e->obs_bytes * (size_t)e->players;
}

size_t crafter_episode_player_obs_bytes(const crafter_episode *e) { return e->obs_bytes; }

int crafter_episode_players(const crafter_episode *e) { return e->players; }

void crafter_episode_set_next(crafter_episode *e, int64_t number) {
  crafter_env_set_next_episode(&e->env, number);
}

void crafter_episode_set_level(crafter_episode *e, int level) { e->next_level = level; }

/* The observation a recording stores, player p's: NULL for a kind that is
 * not stored. */
static const void *recorded_obs(crafter_episode *e, int p) {
  if (!crafter_traj_obs_bytes(&e->options->params, e->options->obs_kind, e->players)) return NULL;
  size_t bytes;
  return crafter_episode_observe_player(e, p, &bytes);
}

/* Player p's recorder: each player's episode is a chunk of its own. */
static crafter_traj_recorder *player_recorder(crafter_episode *e, int p) {
  return p == 0 ? e->recorder : e->more[p];
}

int crafter_episode_start(crafter_episode *e, crafter_prepared *prepared, char *error,
                          size_t error_size) {
  const crafter_episode_options *options = e->options;
  int status;
  if (options->levels) {
    int level = e->next_level >= 0 ? e->next_level : crafter_level_pick(&e->picker);
    status = crafter_levels_start(&e->env, options->levels, level);
  } else if (options->world) {
    status = crafter_world_map_start(&e->env, options->world, error, error_size);
    if (status < 0) return status; /* with its reason */
  } else {
    status = prepared ? crafter_env_reset_prepared(&e->env, prepared) : crafter_env_reset(&e->env);
  }
  e->next_level = -1;
  if (status < 0 && status != CRAFTER_PLAYERS_UNFIT)
    return crafter_fail(error, error_size, "out of memory");
  /* A level, or a fresh world, without room for every player. */
  if (crafter_env_no_room(&e->env, error, error_size) < 0) return CRAFTER_PLAYERS_UNFIT;
  e->observed = 0;
  e->started = 1;
  e->ended = 0;
  e->steps = 0;
  e->done = 0;
  memset(e->goal, 0, sizeof(e->goal));
  for (int p = 0; p < e->players && options->tasks; p++) {
    int status = crafter_task_pool_begin(options->tasks, &e->tracker[p], &e->env, p,
                                         &e->candidate[p], &e->text[p]);
    if (status < 0) return crafter_fail(error, error_size, "out of memory");
  }
  for (int p = 0; e->recorder && p < e->players; p++) {
    crafter_traj_recorder *recorder = player_recorder(e, p);
    int status = crafter_traj_recorder_start(recorder, &e->env, p, recorded_obs(e, p));
    if (status < 0) return crafter_fail(error, error_size, "out of memory while recording");
    if (options->tasks)
      crafter_traj_recorder_set_task(recorder, options->tasks->tasks[e->candidate[p]],
                                     e->text[p]);
  }
  return 0;
}

/* What a step hands back of the game's result, and the goal's reward and
 * terminal discount on the step that met it. */
static void fill_outcome(crafter_step_outcome *out, const crafter_step_result *result, int goal,
                        const crafter_task *task) {
  out->reward = result->reward;
  out->info_reward = result->info_reward;
  out->unlocked = result->unlocked;
  out->goal = goal;
  out->done = result->done;
  out->discount = result->discount;
  if (goal) {
    out->reward += task->reward;
    out->discount = 0.0;
  }
}

int crafter_episode_step(crafter_episode *e, int action, crafter_step_outcome *out) {
  if (e->players > 1) {
    int actions[CRAFTER_PLAYERS_MAX] = {0};
    crafter_step_outcome outcomes[CRAFTER_PLAYERS_MAX];
    actions[0] = action;
    int status = crafter_episode_step_players(e, actions, outcomes);
    *out = outcomes[0];
    return status;
  }
  crafter_step_result result;
  crafter_env_step(&e->env, action, &result);
  e->observed = 0;
  int goal =
      e->options->tasks ? crafter_task_step(&e->tracker[0], &e->env, 0, action, &result) : 0;
  e->goal[0] = goal;
  int status = 0;
  out->finished = 0;
  out->over = 0;
  if (!e->ended) {
    e->steps++;
    /* The recorder keeps the game's reward and discount; the goal is its
     * own flag. */
    if (e->recorder &&
        crafter_traj_recorder_step_goal(e->recorder, &e->env, 0, action, &result,
                                        recorded_obs(e, 0), goal) < 0)
      status = -1;
    if (result.done) {
      e->ended = out->finished = out->over = 1;
      e->done = 1;
      /* Compressed to its end here, on the runner's thread: the writer
       * only appends it. */
      if (e->recorder && status == 0 && crafter_traj_recorder_seal(e->recorder) < 0) status = -1;
    }
  }
  fill_outcome(out, &result, goal, e->tracker[0].task);
  return status;
}

int crafter_episode_step_players(crafter_episode *e, const int *actions,
                                 crafter_step_outcome *out) {
  if (e->players == 1) {
    out[0].over = 0;
    return crafter_episode_step(e, actions[0], out);
  }
  crafter_step_result results[CRAFTER_PLAYERS_MAX];
  /* A player whose episode ended (its goal met: it stays in the world)
   * does nothing more. */
  int acting[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < e->players; p++)
    acting[p] = (e->done >> p) & 1u && !e->ended ? CRAFTER_NOOP : actions[p];
  actions = acting;
  int status = 0;
  crafter_env_step_players(&e->env, actions, results);
  e->observed = 0;
  int steps_on = !e->ended;
  if (steps_on) e->steps++;
  for (int p = 0; p < e->players; p++) {
    crafter_step_result *result = &results[p];
    int goal = 0;
    if (e->options->tasks && !((e->done >> p) & 1u))
      goal = crafter_task_step(&e->tracker[p], &e->env, p, actions[p], result);
    e->goal[p] = goal;
    crafter_step_outcome *outcome = &out[p];
    fill_outcome(outcome, result, goal, e->tracker[p].task);
    outcome->finished = 0;
    outcome->over = 0;
    if ((e->done >> p) & 1u && !e->ended) {
      /* Its episode ended before: done again, nothing more to gain. */
      *outcome = (crafter_step_outcome){0.0, 0.0, 0, 0, 1, 0.0, 0, 0};
    }
    if (steps_on && !((e->done >> p) & 1u)) {
      /* A player's chunk holds its steps up to its own end. */
      crafter_traj_recorder *recorder = e->recorder ? player_recorder(e, p) : NULL;
      if (recorder && crafter_traj_recorder_step_goal(recorder, &e->env, p, actions[p], result,
                                                      recorded_obs(e, p), goal) < 0)
        status = -1;
      if (result->done) {
        e->done |= 1u << p;
        outcome->finished = 1;
        if (recorder && status == 0 && crafter_traj_recorder_seal(recorder) < 0) status = -1;
      }
    }
  }
  if (steps_on && e->done == (1u << e->players) - 1u) {
    e->ended = 1;
    for (int p = 0; p < e->players; p++) out[p].over = 1;
  }
  return status;
}

int crafter_episode_store(crafter_episode *e, crafter_traj_writer *writer, char *error,
                          size_t error_size) {
  for (int p = 0; e->recorder && p < e->players; p++)
    if (crafter_traj_writer_add(writer, player_recorder(e, p), error, error_size) < 0) return -1;
  return 0;
}

/* Makes player p's observation of the options' kind in its place in the
 * buffer; returns its bytes.  A drawn kind was drawn at the start or step. */
static size_t observe_player(crafter_episode *e, int p) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(e->options->obs_kind);
  if (!kind->make) return kind->drawn ? e->obs_bytes : 0;
  return kind->make(&e->env, p, crafter_episode_player_instruction(e, p),
                    &e->options->obs_settings, e->obs + e->obs_bytes * (size_t)p,
                    e->obs_bytes);
}

const uint8_t *crafter_episode_observe(crafter_episode *e, size_t *bytes) {
  if (!e->observed) {
    for (int p = 0; p < e->players; p++) e->obs_length[p] = observe_player(e, p);
    e->observed = 1;
  }
  *bytes = e->obs_length[0];
  return e->obs;
}

const uint8_t *crafter_episode_observe_player(crafter_episode *e, int p, size_t *bytes) {
  crafter_episode_observe(e, bytes);
  *bytes = e->obs_length[p];
  return e->obs + e->obs_bytes * (size_t)p;
}

int crafter_episode_ended(const crafter_episode *e) { return e->ended; }

int crafter_episode_player_done(const crafter_episode *e, int p) { return (e->done >> p) & 1u; }

int crafter_episode_unfinished(const crafter_episode *e) {
  return e->started && !e->ended && e->steps > 0;
}

crafter_traj_recorder *crafter_episode_recorder(crafter_episode *e) { return e->recorder; }

crafter_traj_recorder *crafter_episode_swap_player_recorder(crafter_episode *e, int p,
                                                            crafter_traj_recorder *fresh) {
  if (p == 0) return crafter_episode_swap_recorder(e, fresh);
  crafter_traj_recorder *ended = e->more[p];
  e->more[p] = fresh;
  return ended;
}

crafter_task_tracker *crafter_episode_player_tracker(crafter_episode *e, int p) {
  return &e->tracker[p];
}

crafter_traj_recorder *crafter_episode_swap_recorder(crafter_episode *e,
                                                     crafter_traj_recorder *fresh) {
  crafter_traj_recorder *ended = e->recorder;
  e->recorder = fresh;
  return ended;
}

crafter_env *crafter_episode_env(crafter_episode *e) { return &e->env; }

const crafter_env *crafter_episode_env_const(const crafter_episode *e) { return &e->env; }

const crafter_task *crafter_episode_task(const crafter_episode *e) {
  return crafter_episode_player_task(e, 0);
}

int crafter_episode_candidate(const crafter_episode *e) { return e->candidate[0]; }

int crafter_episode_text(const crafter_episode *e) { return e->text[0]; }

const char *crafter_episode_instruction(const crafter_episode *e) {
  return crafter_episode_player_instruction(e, 0);
}

const crafter_task *crafter_episode_player_task(const crafter_episode *e, int p) {
  return e->options->tasks ? e->tracker[p].task : NULL;
}

int crafter_episode_player_candidate(const crafter_episode *e, int p) { return e->candidate[p]; }

int crafter_episode_player_text(const crafter_episode *e, int p) { return e->text[p]; }

const char *crafter_episode_player_instruction(const crafter_episode *e, int p) {
  const crafter_task *task = crafter_episode_player_task(e, p);
  return task ? task->text[e->text[p]] : NULL;
}

crafter_task_tracker *crafter_episode_tracker(crafter_episode *e) { return &e->tracker[0]; }

int64_t crafter_episode_level(const crafter_episode *e) {
  return e->options->levels ? e->env.episode : 0;
}

void crafter_episode_get_progress(const crafter_episode *e, crafter_episode_progress *out) {
  memset(out, 0, sizeof(*out));
  out->started = e->started;
  out->ended = e->ended;
  out->steps = e->steps;
  out->done = e->done;
  out->next_level = e->next_level;
  memcpy(out->candidate, e->candidate, sizeof(out->candidate));
  memcpy(out->text, e->text, sizeof(out->text));
  out->picker = e->picker;
}

void crafter_episode_set_progress(crafter_episode *e, const crafter_episode_progress *in) {
  e->started = in->started;
  e->ended = in->ended;
  e->steps = in->steps;
  e->done = in->done;
  e->next_level = in->next_level;
  memcpy(e->candidate, in->candidate, sizeof(e->candidate));
  memcpy(e->text, in->text, sizeof(e->text));
  e->picker = in->picker;
  memset(e->goal, 0, sizeof(e->goal));
  e->observed = 0;
}

const crafter_episode_options *crafter_episode_options_of(const crafter_episode *e) {
  return e->options;
}

crafter_rules_print *crafter_episode_rules_print(crafter_episode *e) { return &e->rules_print; }

const crafter_renderer *crafter_episode_renderer(const crafter_episode *e) {
  return e->renderer;
}

int crafter_episode_start_stored(crafter_env *env, const crafter_traj_header *header,
                                 const crafter_traj_episode *stored, crafter_task_tracker *tracker,
                                 const crafter_task **task, char *error, size_t error_size) {
  env->params.seed = stored->seed;
  crafter_env_set_next_episode(env, stored->episode);
  if (header->world) {
    if (crafter_world_map_start(env, header->world, error, error_size) < 0) return -1;
  } else if (crafter_env_reset(env) < 0) {
    return crafter_fail(error, error_size, "out of memory");
  }
  if (!tracker) return 0;
  const crafter_task_set *tasks = header->tasks;
  *task = tasks && stored->task >= 0 && stored->task < tasks->count ? &tasks->tasks[stored->task]
                                                                    : NULL;
  int player = stored->player > 0 ? stored->player : 0;
  if (*task && crafter_task_begin(tracker, *task, env, player) < 0)
    return crafter_fail(error, error_size, "out of memory");
  return 0;
}

int crafter_stored_world_start(crafter_stored_world *world, crafter_env *env,
                               const crafter_traj_header *header,
                               const crafter_traj_episode *const *stored,
                               const crafter_traj_data *data, char *error, size_t error_size) {
  world->players = env->players;
  world->data = data;
  world->t = 0;
  if (crafter_episode_start_stored(env, header, stored[0], &world->tracker[0], &world->task[0],
                                   error, error_size) < 0)
    return -1;
  const crafter_task_set *tasks = header->tasks;
  for (int p = 1; p < world->players; p++) {
    int task = stored[p]->task;
    world->task[p] = tasks && task >= 0 && task < tasks->count ? &tasks->tasks[task] : NULL;
    int status =
        world->task[p] ? crafter_task_begin(&world->tracker[p], world->task[p], env, p) : 0;
    if (status < 0) return crafter_fail(error, error_size, "out of memory");
  }
  return 0;
}

int crafter_stored_world_played(const crafter_stored_world *world, int p) {
  return world->t >= 1 && world->t <= world->data[p].steps_count;
}

void crafter_stored_world_step(crafter_stored_world *world, crafter_env *env) {
  uint32_t t = world->t;
  for (int p = 0; p < world->players; p++)
    world->actions[p] = t < world->data[p].steps_count ? world->data[p].steps[t].action
                                                        : CRAFTER_NOOP;
  crafter_env_step_players(env, world->actions, world->results);
  world->t++;
  for (int p = 0; p < world->players; p++) {
    world->goal[p] = 0;
    if (!crafter_stored_world_played(world, p) || !world->task[p]) continue;
    world->goal[p] =
        crafter_task_step(&world->tracker[p], env, p, world->actions[p], &world->results[p]);
  }
}

void crafter_stored_world_free(crafter_stored_world *world) {
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_task_tracker_free(&world->tracker[p]);
  memset(world, 0, sizeof(*world));
}
