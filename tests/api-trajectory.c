/* api-trajectory: trajectory files through the public interface alone
 * (crafter/crafter.h; built without lib/ on the include path), for
 * tests/api.t to hold against the programs.
 *
 *   api-trajectory record SEED PLAYERS FILE [CONFIG]  < actions
 *       plays episodes of PLAYERS players of the Env seed SEED (by the
 *       configuration file CONFIG) with the actions of standard input,
 *       one line a step with an action for each player, recording them to
 *       FILE, until the actions run out (the last episode then cut);
 *   api-trajectory list FILE [CONFIG]
 *       the episodes of FILE as crafter-dataset list writes them, each
 *       world played again from its stored actions (by CONFIG) and said
 *       "replayed" or how it differs from its summary;
 *   api-trajectory errors
 *       what the interface says to a configuration, textures or a
 *       recording it cannot have, one line each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crafter/crafter.h"

static int fail(const char *what, const char *error) {
  fprintf(stderr, "api-trajectory: %s: %s\n", what, error);
  return 1;
}

static crafter_env *make_env(const crafter_params *params, int players,
                             const crafter_config *config) {
  char error[512];
  crafter_env *env = crafter_env_new(params, config, error, sizeof error);
  if (!env || crafter_env_set_players(env, players, error, sizeof error) < 0) {
    fail("env", error);
    crafter_env_free(env);
    return NULL;
  }
  return env;
}

static int record(int64_t seed, int players, const char *path, const char *config_path) {
  char error[512];
  /* Crafter's parameters, or the configuration's env section, with the
   * seed given: what crafter-step --config plays by. */
  crafter_config *config = NULL;
  if (config_path && !(config = crafter_config_new(config_path, error, sizeof error)))
    return fail(config_path, error);
  crafter_params params;
  crafter_params_default(&params);
  if (config) crafter_config_params(config, &params);
  params.seed = seed;
  crafter_env *env = make_env(&params, players, config);
  if (!env) return 1;
  crafter_recording *recording =
      crafter_recording_open(path, env, config, "external", error, sizeof error);
  if (!recording) return fail(path, error);
  int actions[CRAFTER_PLAYERS_MAX], ended = 1, status = 0;
  crafter_step_result results[CRAFTER_PLAYERS_MAX];
  for (;;) {
    for (int p = 0; p < players; p++)
      if (scanf("%d", &actions[p]) != 1) goto out;
    if (ended && (crafter_env_reset(env) != 0 ||
                  crafter_recording_start(recording, env, error, sizeof error) < 0)) {
      status = fail("start", error);
      break;
    }
    crafter_env_step_players(env, actions, results);
    if (crafter_recording_step(recording, env, actions, results, error, sizeof error) < 0) {
      status = fail("step", error);
      break;
    }
    ended = 1;
    for (int p = 0; p < players; p++) ended &= results[p].done;
  }
out:
  if (crafter_recording_close(recording, error, sizeof error) < 0) status = fail(path, error);
  crafter_env_free(env);
  crafter_config_free(config);
  return status;
}

/* Plays the world whose chunks are episodes first .. first+players-1 again
 * from their actions, each player acting by its own chunk and then
 * waiting, and writes into `verdict` whether every player's steps, return
 * and achievements are its summary's ("replayed") or what differs. */
static void replay(crafter_traj_reader *reader, crafter_env *env, size_t first, int players,
                   char *verdict, size_t size) {
  crafter_traj_summary summary[CRAFTER_PLAYERS_MAX];
  uint8_t *actions[CRAFTER_PLAYERS_MAX] = {0};
  snprintf(verdict, size, "replayed");
  long longest = 0;
  int readable = 1;
  for (int p = 0; p < players; p++) {
    crafter_traj_summary_of(reader, first + (size_t)p, &summary[p]);
    actions[p] = malloc((size_t)summary[p].steps + 1);
    if (readable && (!actions[p] ||
                     crafter_traj_read_actions(reader, first + (size_t)p, actions[p],
                                               (size_t)summary[p].steps, verdict, size) < 0))
      readable = 0;
    if (summary[p].steps > longest) longest = summary[p].steps;
  }
  crafter_env_set_next_episode(env, summary[0].episode);
  if (readable && (crafter_env_reset(env) != 0 ||
                   crafter_env_world_seed(env) != summary[0].world_seed)) {
    snprintf(verdict, size, "another world");
    readable = 0;
  }
  double reward[CRAFTER_PLAYERS_MAX] = {0};
  for (long t = 0; readable && t < longest; t++) {
    int step_actions[CRAFTER_PLAYERS_MAX];
    crafter_step_result results[CRAFTER_PLAYERS_MAX];
    for (int p = 0; p < players; p++)
      step_actions[p] = t < summary[p].steps ? actions[p][t] : CRAFTER_NOOP;
    crafter_env_step_players(env, step_actions, results);
    for (int p = 0; p < players; p++)
      if (t < summary[p].steps) reward[p] += results[p].info_reward;
  }
  for (int p = 0; readable && p < players; p++) {
    if (reward[p] != summary[p].reward) snprintf(verdict, size, "player %d: another return", p);
    for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
      if (crafter_env_achievement(env, p, a) != summary[p].achievements[a])
        snprintf(verdict, size, "player %d: other achievements", p);
  }
  for (int p = 0; p < players; p++) free(actions[p]);
}

static int list(const char *path, const char *config_path) {
  char error[512];
  crafter_traj_reader *reader = crafter_traj_open(path, error, sizeof error);
  if (!reader) return fail(path, error);
  crafter_params params;
  crafter_traj_params(reader, &params);
  int players = crafter_traj_players(reader);
  crafter_config *config = NULL;
  if (config_path && !(config = crafter_config_new(config_path, error, sizeof error)))
    return fail(config_path, error);
  crafter_env *env = make_env(&params, players, config);
  if (!env) return 1;
  printf("index\tseed\tepisode\tworld_seed\tlength\treward\tend\tunlocked%s\n",
         players > 1 ? "\tplayer" : "");
  char verdict[512] = "";
  for (size_t i = 0; i < crafter_traj_episode_count(reader); i++) {
    crafter_traj_summary s;
    crafter_traj_summary_of(reader, i, &s);
    if (s.player == 0) replay(reader, env, i, players, verdict, sizeof verdict);
    printf("%zu\t%lld\t%lld\t%lld\t%ld\t%.1f\t%s\t", i, (long long)s.seed, (long long)s.episode,
           (long long)s.world_seed, s.steps, s.reward, crafter_traj_end_name(s.end));
    const char *comma = "";
    for (int a = 0; a < CRAFTER_ACHIEVEMENT_COUNT; a++)
      if (s.achievements[a] > 0) {
        printf("%s%s", comma, crafter_achievement_names[a]);
        comma = ",";
      }
    if (!*comma) putchar('-');
    if (players > 1) printf("\t%d", s.player);
    fprintf(stderr, "%zu %s\n", i, verdict);
    putchar('\n');
  }
  crafter_traj_close(reader);
  crafter_env_free(env);
  crafter_config_free(config);
  return 0;
}

static int errors(void) {
  char error[512];
  crafter_params params;
  crafter_params_default(&params);
  if (!crafter_config_new("no-such-config.yaml", error, sizeof error)) printf("config: %s\n", error);
  if (!crafter_textures_new("no-such-folder", error, sizeof error)) printf("textures: %s\n", error);
  params.area[0] = 0;
  if (!crafter_env_new(&params, NULL, error, sizeof error)) printf("params: %s\n", error);
  crafter_params_default(&params);
  crafter_config *config = crafter_config_new(NULL, error, sizeof error);
  crafter_env *env = crafter_env_new(&params, NULL, error, sizeof error);
  if (!crafter_recording_open("unused.traj", env, config, "external", error, sizeof error))
    printf("recording by another configuration: %s\n", error);
  if (!crafter_recording_open("unused.traj", env, NULL, "an agent of a long name", error,
                              sizeof error))
    printf("agent: %s\n", error);
  int x, y;
  printf("player 1 of a game of one: position %d, inventory %d\n",
         crafter_env_position(env, 1, &x, &y), crafter_env_inventory(env, 1, CRAFTER_HEALTH));
  crafter_env_free(env);
  crafter_config_free(config);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "record") == 0)
    return record(strtoll(argv[2], NULL, 10), atoi(argv[3]), argv[4], argc > 5 ? argv[5] : NULL);
  if (argc >= 3 && strcmp(argv[1], "list") == 0) return list(argv[2], argc > 3 ? argv[3] : NULL);
  if (argc == 2 && strcmp(argv[1], "errors") == 0) return errors();
  fprintf(stderr, "usage: api-trajectory record SEED PLAYERS FILE [CONFIG] | list FILE [CONFIG] | "
                  "errors\n");
  return 2;
}
