#include "tools/play_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "run/traj_reader.h"

/* ---- a replay ---- */

static int replay_restart(crafter_play_replay *replay, char *error, size_t error_size) {
  const crafter_traj_episode *stored[CRAFTER_PLAYERS_MAX];
  for (int p = 0; p < replay->players; p++) stored[p] = &replay->episodes[p];
  if (crafter_stored_world_start(&replay->replayed, &replay->env, &replay->header, stored,
                                 replay->data, error, error_size) < 0)
    return -1;
  replay->t = 0;
  replay->reward = 0;
  char player[64] = "";
  if (replay->players > 1)
    snprintf(player, sizeof(player), ", player %d of %d", replay->player, replay->players);
  snprintf(replay->message, sizeof(replay->message), "Episode %lld (index %zu%s), %u steps, %s.",
           (long long)replay->episode.episode, replay->index, player, replay->episode.steps,
           crafter_traj_end_name(replay->episode.end));
  if (replay->env.world_seed != replay->episode.world_seed && replay->mismatch < 0) {
    replay->mismatch = 0;
    snprintf(replay->mismatch_reason, sizeof(replay->mismatch_reason),
             "the world seed %lld differs from the recording's %lld",
             (long long)replay->env.world_seed, (long long)replay->episode.world_seed);
    snprintf(replay->message, sizeof(replay->message), "Beware: %s.", replay->mismatch_reason);
  }
  return 0;
}

/* Players '@' of a world map: its first objects. */
static int map_players(const crafter_world_map *map) {
  int players = 0;
  while (players < map->object_count && map->objects[players].kind == CRAFTER_PLAYER) players++;
  return players;
}

int crafter_play_replay_open(crafter_play_replay *replay, const char *path, size_t index,
                             const crafter_config *config, const crafter_world_map *world,
                             char *error, size_t error_size) {
  memset(replay, 0, sizeof(*replay));
  replay->mismatch = -1;
  replay->index = index;
  replay->world = world;
  replay->reader = crafter_traj_open(path, error, error_size);
  if (!replay->reader) return 1;
  replay->header = *crafter_traj_header_of(replay->reader);
  size_t count = crafter_traj_episode_count(replay->reader);
  if (index >= count) {
    if (count == 0)
      snprintf(error, error_size, "%s holds no episode", path);
    else
      snprintf(error, error_size, "%s holds %zu episode%s; index %zu is not among 0..%zu", path,
               count, count == 1 ? "" : "s", index, count - 1);
    crafter_play_replay_free(replay);
    return 1;
  }
  replay->episode = *crafter_traj_episode_at(replay->reader, index);
  /* The reader lists whole worlds, each a chunk per player in a row. */
  replay->players = replay->header.players;
  replay->player = replay->players > 1 ? replay->episode.player : 0;
  replay->first = index - (size_t)replay->player;
  for (int p = 0; p < replay->players; p++)
    replay->episodes[p] = *crafter_traj_episode_at(replay->reader, replay->first + (size_t)p);
  /* A file that keeps its rules is replayed by them. */
  if ((config && replay->header.config) || (world && replay->header.world)) {
    snprintf(error, error_size, "%s keeps the %s it was played by: replay it without %s", path,
             config && replay->header.config ? "configuration" : "world",
             config && replay->header.config ? "--config" : "--world");
    crafter_play_replay_free(replay);
    return 1;
  }
  if (world && map_players(world) > replay->players) {
    snprintf(error, error_size,
             "the world has %d players '@' but %s holds games of %d player%s: replay it with "
             "the world it was recorded on",
             map_players(world), path, replay->players, replay->players == 1 ? "" : "s");
    crafter_play_replay_free(replay);
    return 1;
  }
  if (replay->header.config) config = replay->header.config;
  if (replay->header.world) world = replay->header.world;
  replay->world = world;
  replay->header.world = world; /* where crafter_episode_start_stored starts it */
  char problem[300];
  for (int p = 0; p < replay->players; p++) {
    if (crafter_traj_read_steps(replay->reader, replay->first + (size_t)p, &replay->data[p],
                                problem, sizeof(problem)) < 0) {
      snprintf(error, error_size, "%s: episode %zu: %s", path, replay->first + (size_t)p,
               problem);
      crafter_play_replay_free(replay);
      return 1;
    }
  }
  replay->length = replay->data[replay->player].steps_count;
  crafter_params params = replay->header.params;
  params.seed = replay->episode.seed;
  if (world && (world->width != params.area[0] || world->height != params.area[1])) {
    snprintf(error, error_size, "the world is %dx%d but %s was recorded in an area of %dx%d",
             world->width, world->height, path, params.area[0], params.area[1]);
    crafter_play_replay_free(replay);
    return 1;
  }
  if (crafter_env_init_config(&replay->env, &params, config, problem, sizeof(problem)) < 0 ||
      crafter_env_set_players(&replay->env, replay->players, problem, sizeof(problem)) < 0) {
    snprintf(error, error_size, "%s: %s", path, problem);
    crafter_play_replay_free(replay);
    return 1;
  }
  if (replay_restart(replay, error, error_size) < 0) {
    crafter_play_replay_free(replay);
    return -1;
  }
  return 0;
}

/* The first field of a replayed step that differs from the stored one. */
static const char *step_difference(const crafter_step_result *result, int goal,
                                   const crafter_traj_step *stored) {
  return result->info_reward != stored->reward                   ? "reward"
         : (result->done != 0) != (stored->done != 0)            ? "done"
         : result->unlocked != stored->unlocked                  ? "achievements"
         : (result->discount == 0.0) != (stored->died != 0)      ? "death"
         : goal != (stored->goal != 0)                           ? "goal"
                                                                 : NULL;
}

int crafter_play_replay_seek(crafter_play_replay *replay, long t, char *error,
                             size_t error_size) {
  if (t < 0) t = 0;
  if (t > (long)replay->length) t = (long)replay->length;
  if (t < replay->t && replay_restart(replay, error, error_size) < 0) return -1;
  int shown = replay->player;
  while (replay->t < t) {
    crafter_stored_world *replayed = &replay->replayed;
    crafter_env *env = &replay->env;
    crafter_play_watch watch;
    crafter_play_watch_action(&watch, env, shown, replay->data[shown].steps[replay->t].action);
    crafter_stored_world_step(replayed, env);
    const crafter_step_result *result = &replayed->results[shown];
    const char *failure = crafter_play_watch_failure(&watch, env, shown);
    replay->reward += result->info_reward;
    replay->t++;
    char unlocked[400];
    crafter_play_achievement_list(result->unlocked, unlocked, sizeof(unlocked));
    replay->message[0] = '\0';
    /* Every player who played the step is compared, the one shown first. */
    const char *differs = NULL;
    int who = shown;
    for (int k = 0; k < replay->players && !differs; k++) {
      who = k == 0 ? shown : k <= shown ? k - 1 : k;
      if (crafter_stored_world_played(replayed, who))
        differs = step_difference(&replayed->results[who], replayed->goal[who],
                                  &replay->data[who].steps[replay->t - 1]);
    }
    if (differs && replay->mismatch < 0) {
      char whose[64] = "";
      if (replay->players > 1) snprintf(whose, sizeof(whose), "player %d's ", who);
      replay->mismatch = replay->t;
      snprintf(replay->mismatch_reason, sizeof(replay->mismatch_reason),
               "step %ld differs from the recording (%s%s): was it made with another --config "
               "or --world?",
               replay->t, whose, differs);
      snprintf(replay->message, sizeof(replay->message), "Beware: %s", replay->mismatch_reason);
    } else if (result->unlocked) {
      snprintf(replay->message, sizeof(replay->message), "Unlocked %s.", unlocked);
    } else if (failure) {
      snprintf(replay->message, sizeof(replay->message), "%s", failure);
    }
  }
  if (replay->t == (long)replay->length && replay->mismatch < 0 && !replay->message[0]) {
    const char *end = replay->episode.end == CRAFTER_TRAJ_DIED         ? "the player died"
                      : replay->episode.end == CRAFTER_TRAJ_TIME_LIMIT ? "the time limit"
                      : replay->episode.end == CRAFTER_TRAJ_GOAL       ? "its goal was met"
                                                                       : "the recording stopped";
    snprintf(replay->message, sizeof(replay->message), "End of the episode: %s.", end);
  }
  return 0;
}

void crafter_play_replay_free(crafter_play_replay *replay) {
  crafter_stored_world_free(&replay->replayed);
  for (int p = 0; p < CRAFTER_PLAYERS_MAX; p++) crafter_traj_data_free(&replay->data[p]);
  if (replay->reader) crafter_traj_close(replay->reader);
  crafter_env_fini(&replay->env);
  replay->reader = NULL;
}

const char *crafter_play_replay_instruction(const crafter_play_replay *replay) {
  const crafter_task_set *tasks = replay->header.tasks;
  const crafter_traj_episode *episode = &replay->episode;
  if (!tasks || episode->task < 0 || episode->task >= tasks->count) return NULL;
  const crafter_task *task = &tasks->tasks[episode->task];
  return episode->text >= 0 && episode->text < task->text_count ? task->text[episode->text] : NULL;
}
