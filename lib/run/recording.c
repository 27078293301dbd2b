#include "run/recording.h"

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "game/config.h"
#include "game/env.h"
#include "run/traj_writer.h"
#include "view/obskind.h"

struct crafter_recording {
  crafter_traj_header header;
  crafter_traj_writer *writer;
  int players;
  crafter_traj_recorder *recorders[CRAFTER_PLAYERS_MAX];
  int started;   /* an episode is under way, its chunks not written yet */
  uint32_t done; /* bit p: player p's episode has ended */
};

static void recording_free(crafter_recording *recording) {
  for (int p = 0; p < recording->players; p++) crafter_traj_recorder_free(recording->recorders[p]);
  free(recording);
}

crafter_recording *crafter_recording_open(const char *path, const crafter_env *env,
                                          const crafter_config *config, const char *agent,
                                          char *error, size_t error_size) {
  if (env->config != (config ? config : &crafter_config_builtin)) {
    crafter_fail(error, error_size, "the configuration given is not the one the env plays by");
    return NULL;
  }
  if (agent && strlen(agent) > CRAFTER_TRAJ_AGENT_BYTES) {
    crafter_fail(error, error_size, "the agent's name \"%s\" is longer than %d bytes", agent,
                 CRAFTER_TRAJ_AGENT_BYTES);
    return NULL;
  }
  crafter_recording *recording = calloc(1, sizeof(*recording));
  if (!recording) {
    crafter_fail(error, error_size, "out of memory");
    return NULL;
  }
  crafter_traj_header_init(&recording->header, &env->params, CRAFTER_OBS_NONE, agent, NULL);
  crafter_traj_header_set_players(&recording->header, env->players);
  size_t config_bytes = 0;
  const char *config_text = config ? crafter_config_text(config, &config_bytes) : NULL;
  crafter_traj_header_set_rules(&recording->header, config_text, config_bytes, config, NULL, 0,
                                NULL);
  recording->players = env->players;
  for (int p = 0; p < recording->players; p++)
    if (!(recording->recorders[p] = crafter_traj_recorder_new(&recording->header))) {
      recording_free(recording);
      crafter_fail(error, error_size, "out of memory");
      return NULL;
    }
  recording->writer = crafter_traj_writer_create(path, &recording->header, error, error_size);
  if (!recording->writer) {
    recording_free(recording);
    return NULL;
  }
  return recording;
}

/* Writes the episode under way, every player's chunk in order (as cut
 * where it has not ended). */
static int store(crafter_recording *recording, char *error, size_t error_size) {
  recording->started = 0;
  for (int p = 0; p < recording->players; p++)
    if (crafter_traj_writer_add(recording->writer, recording->recorders[p], error, error_size) < 0)
      return -1;
  return 0;
}

int crafter_recording_start(crafter_recording *recording, const crafter_env *env, char *error,
                            size_t error_size) {
  if (env->players != recording->players)
    return crafter_fail(error, error_size, "the env has %d players, the recording %d",
                        env->players, recording->players);
  if (recording->started && store(recording, error, error_size) < 0) return -1;
  for (int p = 0; p < recording->players; p++)
    if (crafter_traj_recorder_start(recording->recorders[p], env, p, NULL) < 0)
      return crafter_fail(error, error_size, "out of memory");
  recording->started = 1;
  recording->done = 0;
  return 0;
}

int crafter_recording_step(crafter_recording *recording, const crafter_env *env,
                           const int *actions, const crafter_step_result *results, char *error,
                           size_t error_size) {
  if (!recording->started) return 0; /* the world's episode was written: a step after its end */
  for (int p = 0; p < recording->players; p++) {
    if (recording->done >> p & 1u) continue;
    if (crafter_traj_recorder_step(recording->recorders[p], env, p, actions[p], &results[p],
                                   NULL) < 0)
      return crafter_fail(error, error_size, "out of memory");
    if (results[p].done) recording->done |= 1u << p;
  }
  if (recording->done != (1u << recording->players) - 1u) return 0;
  return store(recording, error, error_size);
}

int crafter_recording_close(crafter_recording *recording, char *error, size_t error_size) {
  int status = recording->started ? store(recording, error, error_size) : 0;
  if (status < 0)
    crafter_traj_writer_abort(recording->writer);
  else
    status = crafter_traj_writer_close(recording->writer, error, error_size);
  recording_free(recording);
  return status;
}
