/* cx_game: Craftax's step ("cx": the full game, nine floors), as
 * craftax 1.6.1 computes it (craftax/craftax/game_logic.py, craftax_step,
 * with the default EnvParams and StaticEnvParams), and the auto-reset
 * env's step around it (key_step, key_reset = split(key); when the game
 * is over the state becomes generate_world(key_reset)).
 *
 * WORK IN PROGRESS: only part of craftax_step is here, and only what is
 * listed as exact is promised.  tests/unit/test-cx-game.c holds the step
 * to JAX's states (tests/reference/craftax_full_steps.py) field by field.
 *
 * Exact (bit for bit what the pinned reference, jax 0.10.1 on the CPU,
 * one env per jax.jit(env.step) call, computes) for the parts written:
 *   - the key splits of craftax_step (do_action's, read_book's,
 *     enchant's, update_mobs', spawn_mobs' and state_rng's keys) and of
 *     the auto-reset env; the seed schedule;
 *   - change_floor (ladders between floors, the floors' achievements and
 *     experience), level_up_attributes, boss_logic's counters,
 *     move_player, update_plants, update_player_intrinsics (sleeping,
 *     resting, hunger, thirst, fatigue, recovery, mana),
 *     clip_inventory_and_intrinsics, calculate_inventory_achievements,
 *     the reward, the timestep, the light level and state_rng;
 *   - is_game_over.
 * Not yet written, so not exact: do_crafting, do_action (mining,
 * attacking, eating, drinking, chests), place_block, shoot_projectile,
 * cast_spell, drink_potion, read_book, enchant, update_mobs (melee,
 * ranged, passive creatures, projectiles) and spawn_mobs: a step where
 * any of them would change the state differs from JAX's.  Nothing
 * outside the tests calls this module yet. */
#ifndef CRAFTER_CX_GAME_H
#define CRAFTER_CX_GAME_H

#include <stdint.h>

#include "game/cx_worldgen.h"
#include "kernels/jaxrng.h"

enum {
  CRAFTER_CX_ACTIONS = 43, /* Craftax's Action: NOOP 0 .. ENCHANT_BOW 42 */
  CRAFTER_CX_MAX_TIMESTEPS = 100000,
  CRAFTER_CX_DAY_LENGTH = 300
};

/* The schedule of seed `seed`: *key holds the key carried from step to
 * step; the key the reset is given is returned. */
crafter_jaxkey crafter_cx_schedule_start(int64_t seed, crafter_jaxkey *key);

/* key, k = split(key): *key moves on, k (the key of the next step) is
 * returned. */
crafter_jaxkey crafter_cx_schedule_next(crafter_jaxkey *key);

/* craftax_step(key, state, action): *state moves one step (action in
 * 0..42: callers check), the reward is returned. */
float crafter_cx_game_step(crafter_cx_state *state, crafter_jaxkey key, int action);

/* is_game_over: the timestep has reached 100000, the player has no
 * health left, or the boss is beaten. */
int crafter_cx_game_over(const crafter_cx_state *state);

/* The auto-reset env's step given key k: key_step, key_reset = split(k);
 * the game steps with key_step; done is whether the game is over after
 * it; when it is, *state becomes generate_world(key_reset).  Returns 0,
 * or -1 when memory for the new world cannot be had. */
int crafter_cx_env_step(crafter_cx_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done);

#endif
