/* cc_game: Craftax-Classic's step, as craftax 1.6.1 computes it
 * (craftax/craftax_classic/game_logic.py, craftax_step, with the default
 * EnvParams and StaticEnvParams), and the auto-reset env's step and key
 * schedule around it (craftax/environment_base/environment_bases.py,
 * EnvironmentAutoReset.step).
 *
 * Promise: from any state and key, every field of the state after, the
 * reward (float32) and done are bit for bit what the pinned reference
 * (jax 0.10.1 on the CPU, one env per jax.jit(env.step) call) computes,
 * including what JAX's indexing does with positions off the map (a
 * negative index counts from the end, a read past the end takes the last
 * element, a write past the end is dropped).
 *
 * The seed schedule: seed S means key = PRNGKey(S); key, k = split(key);
 * reset(k); then for every step key, k = split(key); step(k, state,
 * action).  crafter_cc_schedule_start and crafter_cc_schedule_next give
 * those keys.  Nothing here keeps state between calls. */
#ifndef CRAFTER_CC_GAME_H
#define CRAFTER_CC_GAME_H

#include <stdint.h>

#include "game/cc_worldgen.h"
#include "kernels/jaxrng.h"

enum {
  CRAFTER_CC_ACTIONS = 17, /* Craftax-Classic's Action: NOOP 0 .. MAKE_IRON_SWORD 16 */
  CRAFTER_CC_MAX_TIMESTEPS = 10000,
  CRAFTER_CC_DAY_LENGTH = 300,
  /* The most an episode can return: 1 for each of the 22 achievements; the
   * health's share adds up to a tenth of its change over the episode,
   * which starts at the most health there is (9), so it is never above
   * 0.  Craftax reports returns as a percentage of it. */
  CRAFTER_CC_MAX_RETURN = 22
};

/* The schedule of seed `seed`: *key holds the key carried from step to
 * step; the key the reset is given is returned. */
crafter_jaxkey crafter_cc_schedule_start(int64_t seed, crafter_jaxkey *key);

/* key, k = split(key): *key moves on, k (the key of the next step) is
 * returned. */
crafter_jaxkey crafter_cc_schedule_next(crafter_jaxkey *key);

/* craftax_step(key, state, action): *state moves one step (action in
 * 0..16, others are taken as NOOP's number is not: callers check), and
 * the reward is returned.  The timestep, light level and state_rng are
 * updated as craftax_step updates them. */
float crafter_cc_game_step(crafter_cc_state *state, crafter_jaxkey key, int action);

/* is_game_over: the timestep has reached 10000, the player stands in
 * lava or has no health left. */
int crafter_cc_game_over(const crafter_cc_state *state);

/* The part of is_game_over that is not the time limit: the player stands
 * in lava or has no health left. */
int crafter_cc_game_died(const crafter_cc_state *state);

/* The auto-reset env's step given key k: key_step, key_reset = split(k);
 * the game steps with key_step; done is whether the game is over after
 * it; when it is, *state becomes generate_world(key_reset) (the first
 * state of the next episode), as JAX's select keeps it.  *reward and
 * *done receive the step's reward and done.  Returns 0, or -1 when memory
 * for the new world cannot be had (*state is then the ended episode's
 * last state). */
int crafter_cc_env_step(crafter_cc_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done);

/* crafter_cc_env_step of `count` envs at once: env i steps states[i]
 * with keys[i] and actions[i], its reward and done into rewards[i] and
 * dones[i], each exactly as crafter_cc_env_step steps it.  The hashing of
 * the envs' keys shares vector lanes: from a few envs up a step costs
 * less than one at a time.  Returns 0, or -1 when memory for a new world
 * could not be had for some env (that env is then its ended episode's
 * last state; the others have stepped). */
int crafter_cc_env_step_many(crafter_cc_state *states, const crafter_jaxkey *keys,
                             const int *actions, int count, float *rewards, int *dones);

/* crafter_cc_game_step of `count` states at once: states[i] steps with
 * keys[i] and actions[i] (0..16) and its reward goes to rewards[i], each
 * exactly as one at a time; the envs' hashing shares the vector lanes
 * (crafter_cc_env_step_many's). */
void crafter_cc_game_step_each(crafter_cc_state *const *states, const crafter_jaxkey *keys,
                               const int *actions, int count, float *rewards);

/* The keys of the next step of `count` schedules at once: keys[i] moves
 * on as crafter_cc_schedule_next moves it, and of the k that returns,
 * split(k) = key_step, key_reset (the auto-reset env's) go to
 * step_keys[i] and reset_keys[i]. */
void crafter_cc_schedule_steps(crafter_jaxkey *keys, int count, crafter_jaxkey *step_keys,
                               crafter_jaxkey *reset_keys);

/* The step and the env's step computed the way `arith` says
 * (game/cc_worldgen.h's ways JAX does not compute: the light level's
 * timestep / 300 divided, where XLA multiplies by the float32 1/300; or
 * the light level, the zombies' spawn chance and the reward with every
 * product rounded, where XLA fuses them into multiply-adds), for the
 * tests to show they are told apart.  The world of a reset is
 * generate_world's, computed as JAX does. */
float crafter_cc_game_step_arith(crafter_cc_state *state, crafter_jaxkey key, int action,
                                 enum crafter_cc_arith arith);
int crafter_cc_env_step_arith(crafter_cc_state *state, crafter_jaxkey key, int action,
                              enum crafter_cc_arith arith, float *reward, int *done);

/* spawn_mobs' draw of a cell for a creature of kind `kind` (0 a cow, 1 a
 * zombie, 2 a skeleton) in *state: choice(p) over the 4096 cells with p
 * the allowed cells / their count, from `bits`, the word of random bits
 * its uniform is made of; -1 when no cell is allowed.  For the tests, as
 * is the next. */
int32_t crafter_cc_spawn_choice(const crafter_cc_state *state, int kind, uint32_t bits);

/* The cumulative sum of that p into cumsum[4096], as XLA's cumsum
 * computes it (the sums crafter_cc_spawn_choice searches); returns the
 * count of allowed cells (cumsum is left alone when it is 0). */
int32_t crafter_cc_spawn_cumsum(const crafter_cc_state *state, int kind, float *cumsum);

#endif
