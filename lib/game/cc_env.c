#include "game/cc_env.h"

#include <string.h>

/* Craftax's Achievement order (COLLECT_WOOD, PLACE_TABLE, EAT_COW, ...)
 * to Crafter's alphabetical one; tests/unit/test-games.c checks it name
 * by name. */
const uint8_t crafter_cc_report_achievement[CRAFTER_CC_ACHIEVEMENTS] = {
    CRAFTER_COLLECT_WOOD,           CRAFTER_PLACE_TABLE_ACH,       CRAFTER_EAT_COW,
    CRAFTER_COLLECT_SAPLING,        CRAFTER_COLLECT_DRINK,         CRAFTER_MAKE_WOOD_PICKAXE_ACH,
    CRAFTER_MAKE_WOOD_SWORD_ACH,    CRAFTER_PLACE_PLANT_ACH,       CRAFTER_DEFEAT_ZOMBIE,
    CRAFTER_COLLECT_STONE,          CRAFTER_PLACE_STONE_ACH,       CRAFTER_EAT_PLANT,
    CRAFTER_DEFEAT_SKELETON,        CRAFTER_MAKE_STONE_PICKAXE_ACH, CRAFTER_MAKE_STONE_SWORD_ACH,
    CRAFTER_WAKE_UP,                CRAFTER_PLACE_FURNACE_ACH,     CRAFTER_COLLECT_COAL,
    CRAFTER_COLLECT_IRON,           CRAFTER_COLLECT_DIAMOND,       CRAFTER_MAKE_IRON_PICKAXE_ACH,
    CRAFTER_MAKE_IRON_SWORD_ACH};

void crafter_cc_report_inventory(const crafter_cc_state *state, int32_t out[CRAFTER_ITEM_COUNT]) {
  const int32_t *inv = state->inventory; /* wood stone coal iron diamond sapling, tools */
  out[CRAFTER_HEALTH] = state->player_health;
  out[CRAFTER_FOOD] = state->player_food;
  out[CRAFTER_DRINK] = state->player_drink;
  out[CRAFTER_ENERGY] = state->player_energy;
  out[CRAFTER_SAPLING] = inv[5];
  out[CRAFTER_WOOD] = inv[0];
  out[CRAFTER_ITEM_STONE] = inv[1];
  out[CRAFTER_ITEM_COAL] = inv[2];
  out[CRAFTER_ITEM_IRON] = inv[3];
  out[CRAFTER_ITEM_DIAMOND] = inv[4];
  out[CRAFTER_WOOD_PICKAXE] = inv[6];
  out[CRAFTER_STONE_PICKAXE] = inv[7];
  out[CRAFTER_IRON_PICKAXE] = inv[8];
  out[CRAFTER_WOOD_SWORD] = inv[9];
  out[CRAFTER_STONE_SWORD] = inv[10];
  out[CRAFTER_IRON_SWORD] = inv[11];
}

void crafter_cc_report_achievements(const crafter_cc_state *state,
                                    uint8_t out[CRAFTER_ACHIEVEMENT_COUNT]) {
  for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++)
    out[crafter_cc_report_achievement[k]] = state->achievements[k] != 0;
}

int crafter_cc_env_start(crafter_cc_env *env, int64_t seed) {
  env->seed = seed;
  env->episode = 1;
  env->reset_due = 0;
  env->world_key = crafter_cc_schedule_start(seed, &env->key);
  return crafter_cc_generate_world(env->world_key, &env->state);
}

int crafter_cc_env_start_keys(crafter_cc_env *env, int64_t seed, int64_t episode,
                              crafter_jaxkey world_key, crafter_jaxkey schedule_key) {
  env->seed = seed;
  env->episode = episode;
  env->key = schedule_key;
  env->world_key = world_key;
  env->reset_due = 0;
  return crafter_cc_generate_world(world_key, &env->state);
}

int crafter_cc_env_restart(crafter_cc_env *env) {
  env->reset_due = 0;
  env->episode++;
  env->world_key = crafter_cc_schedule_next(&env->key);
  return crafter_cc_generate_world(env->world_key, &env->state);
}

/* The outcome of a step that gave `reward`, from the achievements before
 * it; the auto-reset is due with reset_key when it ended the episode. */
static void conclude(crafter_cc_env *env, const uint8_t before[CRAFTER_CC_ACHIEVEMENTS],
                     float reward, crafter_jaxkey reset_key, crafter_cc_outcome *outcome) {
  outcome->reward = reward;
  outcome->done = crafter_cc_game_over(&env->state);
  outcome->died = outcome->done && crafter_cc_game_died(&env->state);
  outcome->unlocked = 0;
  if (memcmp(env->state.achievements, before, CRAFTER_CC_ACHIEVEMENTS) != 0) /* seldom */
    for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++)
      if (env->state.achievements[k] && !before[k])
        outcome->unlocked |= 1u << crafter_cc_report_achievement[k];
  outcome->length = env->state.timestep;
  crafter_cc_report_achievements(&env->state, outcome->achievements);
  crafter_cc_report_inventory(&env->state, outcome->inventory);
  env->reset_due = outcome->done;
  env->reset_key = reset_key;
}

void crafter_cc_env_act_only(crafter_cc_env *env, int action, crafter_cc_outcome *outcome) {
  crafter_jaxkey keys[2]; /* key_step, key_reset */
  crafter_jax_split(crafter_cc_schedule_next(&env->key), keys, 2);
  uint8_t before[CRAFTER_CC_ACHIEVEMENTS];
  memcpy(before, env->state.achievements, sizeof before);
  float reward = crafter_cc_game_step(&env->state, keys[0], action);
  conclude(env, before, reward, keys[1], outcome);
}

void crafter_cc_env_act_only_many(crafter_cc_env *envs, const int *actions, int count,
                                  crafter_cc_outcome *outcomes) {
  enum { CHUNK = 64, ALONE = 4 };
  for (int first = 0; first < count; first += CHUNK) {
    int end = count - first < CHUNK ? count : first + CHUNK, n = 0;
    int which[CHUNK], acts[CHUNK];
    crafter_jaxkey keys[CHUNK], step_keys[CHUNK], reset_keys[CHUNK];
    crafter_cc_state *states[CHUNK];
    uint8_t before[CHUNK][CRAFTER_CC_ACHIEVEMENTS];
    float rewards[CHUNK];
    for (int i = first; i < end; i++) {
      if (actions[i] < 0) continue;
      which[n] = i;
      acts[n] = actions[i];
      keys[n] = envs[i].key;
      states[n] = &envs[i].state;
      memcpy(before[n], envs[i].state.achievements, sizeof before[n]);
      n++;
    }
    if (n < ALONE) { /* too few to fill the lanes: one at a time is quicker */
      for (int k = 0; k < n; k++)
        crafter_cc_env_act_only(&envs[which[k]], acts[k], &outcomes[which[k]]);
      continue;
    }
    crafter_cc_schedule_steps(keys, n, step_keys, reset_keys);
    crafter_cc_game_step_each(states, step_keys, acts, n, rewards);
    for (int k = 0; k < n; k++) {
      crafter_cc_env *env = &envs[which[k]];
      env->key = keys[k];
      conclude(env, before[k], rewards[k], reset_keys[k], &outcomes[which[k]]);
    }
  }
}

int crafter_cc_env_reset_due(crafter_cc_env *env) {
  if (!env->reset_due) return 0;
  env->reset_due = 0;
  env->episode++;
  env->world_key = env->reset_key;
  return crafter_cc_generate_world(env->world_key, &env->state);
}

int crafter_cc_env_act(crafter_cc_env *env, int action, crafter_cc_outcome *outcome) {
  crafter_cc_env_act_only(env, action, outcome);
  return crafter_cc_env_reset_due(env);
}
