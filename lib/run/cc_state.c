#include "run/cc_state.h"

void crafter_cc_state_save(const crafter_cc_env *env, uint8_t out[CRAFTER_CC_STATE_BYTES]) {
  crafter_jstate_save_state(crafter_jgame_of(CRAFTER_GAME_CRAFTAX_CLASSIC), &env->state, env->seed,
                            env->episode, env->key, out);
}

int crafter_cc_state_load(crafter_cc_env *env, const uint8_t *state, size_t size, char *error,
                          size_t error_size) {
  return crafter_jstate_load(crafter_jgame_of(CRAFTER_GAME_CRAFTAX_CLASSIC), env, state, size,
                             error, error_size);
}
