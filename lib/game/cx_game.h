/* cx_game: Craftax's step ("cx": the full game, nine floors), as
 * craftax 1.6.1 computes it (craftax/craftax/game_logic.py, craftax_step,
 * with the default EnvParams and StaticEnvParams), and the auto-reset
 * env's step around it (key_step, key_reset = split(key); when the game
 * is over the state becomes reset_env(key_reset)'s first state).
 *
 * Every part of craftax_step is written, in its order: change_floor
 * (ladders), do_crafting, do_action (attacks, mining, drinking, eating,
 * chests and their loot, damaging the boss), place_block (tables,
 * furnaces, stones, torches and their light, saplings),
 * shoot_projectile, cast_spell, drink_potion, read_book, enchant,
 * boss_logic, level_up_attributes, move_player, update_mobs (melee,
 * passive and ranged creatures, their projectiles, the player's
 * projectiles), spawn_mobs, update_plants, update_player_intrinsics,
 * clip_inventory_and_intrinsics, calculate_inventory_achievements, the
 * reward, the timestep, light level and state_rng; and is_game_over.
 *
 * Exact, as far as tested: every field of the state, the reward
 * (float32) and done are bit for bit what the pinned reference (jax
 * 0.10.1 on the CPU, one env per jax.jit(env.step) call) computes on
 * 54,920 of 54,920 steps of 258 recorded runs, each replayed from its
 * first state and each step also taken from JAX's state before it
 * (tests/unit/test-cx-game.c; tests/cx-steps.t draws fresh ones):
 *   - seeds 0-2, 300 steps of moves and DO; seeds 0-2, 300 random
 *     actions of all 43; seeds 10-17, 1,000 random actions (28 episodes
 *     ended by death and reset, tables and saplings placed, nights
 *     slept through);
 *   - 86 crafted first states (tests/reference/craftax_full_steps.py
 *     --record-crafted: every item, potion and book, the tables around
 *     the player on a ladder; 80 of them on floor S mod 9 with
 *     attributes drawn, 6 on the overworld), 150 to 300 random actions
 *     each: crafting of every tool, armour, arrows and torches, tables,
 *     furnaces, stones and torches placed, ladders taken (53 changes of
 *     floor), both spells learnt and cast, arrows shot, potions drunk,
 *     swords and armour enchanted, every floor's creatures spawning,
 *     moving, shooting and striking;
 *   - 18 crafted first states beside the boss (--record-boss), DO seven
 *     steps in ten: 15 hits on the necromancer, its waves spawning;
 *   - 137 first states made for the rarer parts (--record-cases, 150
 *     steps each; 20,550 steps, 97 episodes ended) and 3 more of 700
 *     steps among growing plants: 117 monsters killed by the player;
 *     creatures struck with a diamond sword, its enchantment, strength
 *     and intelligence drawn, on every floor (37, 2, 11, 5, 2, 2, 18, 16
 *     and 479 times on floors 0 to 8), and hit by the player's arrows,
 *     fireballs and iceballs (10, 6, 7, 4, 7, 5, 1, 1 and 12 times; 26
 *     of them with the bow enchanted); the boss beaten 14 times with the
 *     game's step alone, so the states after its last hit are seen; 98
 *     plants ripened and 28 ripe ones eaten; 27 episodes ended by the
 *     100,000-step limit.
 * 3,900 of those steps (seeds 0-2 of moves and of random actions, two
 * boss states, three crafted states on the sewers, the fire and the ice
 * floors, eight of the rarer parts' states: the boss beaten twice, plants,
 * the time limit, fights and shots on the fire and ice floors) are held
 * without JAX to the hashes of tests/data/craftax/ (tests/unit-cx-game.t,
 * tests/unit-cx-crafted.t, tests/unit-cx-cases.t).
 *
 * Met seldom, so shown exact only where met: the fire and ice floors'
 * defences against the player's projectiles (one hit on each floor; the
 * sword's strikes there, 34, are many), a sapling planted by the player
 * ripening (the plants that ripened were placed in the first states; the
 * player's own died with it before 600 steps).  The multipliers 1 +
 * 0.2 (dexterity - 1), 1 + 0.5 (intelligence - 1), 1 + 0.25 (strength
 * - 1) and 1 + 0.05 (intelligence - 1) of the damage are computed
 * unfused; for attributes 1 to 5 a fused multiply-add gives the same
 * numbers, so the recordings cannot tell the two apart.
 *
 * The auto-reset's new world has only its overworld made until the
 * player takes a ladder (crafter_cx_env_step, below); tests/unit-cx-lazy.t
 * holds that equal, step by step, to the world made whole.  Nothing
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
 * 0..42: callers check), the reward is returned.  A floor the player
 * takes a ladder to is made first if pending (crafter_cx_make_floor),
 * left zero if memory for it cannot be had: crafter_cx_env_step makes it
 * before and says so. */
float crafter_cx_game_step(crafter_cx_state *state, crafter_jaxkey key, int action);

/* is_game_over: the timestep has reached 100000, the player has no
 * health left, or the boss is beaten. */
int crafter_cx_game_over(const crafter_cx_state *state);

/* The auto-reset env's step given key k: key_step, key_reset = split(k);
 * the game steps with key_step; done is whether the game is over after
 * it; when it is, *state becomes the first state reset_env(key_reset)
 * makes (generate_world of split(key_reset)[1]) with only the overworld
 * made, the other floors pending until the player first takes a ladder
 * to them (crafter_cx_generate_world_first): crafter_cx_make_floors makes
 * the state whole, JAX's, for a reader of every floor.  Returns 0, or -1
 * when memory for the new world or a floor cannot be had. */
int crafter_cx_env_step(crafter_cx_state *state, crafter_jaxkey key, int action, float *reward,
                        int *done);

/* Craftax's two envs reset differently: Craftax-Symbolic-v1's reset_env
 * hands generate_world split(key)[1], Craftax-Pixels-v1's hands it the
 * key itself, so a seed's worlds are not the same in both. */
enum crafter_cx_env_kind { CRAFTER_CX_SYMBOLIC_ENV = 0, CRAFTER_CX_PIXELS_ENV = 1 };

/* The key generate_world is given by the reset_env of the env `kind`
 * given `key`. */
/* Before a step with `action`: the floor a ladder leads to made (with
 * the floor the player is on) when the player stands on that ladder, as
 * the step needs them (worlds made by crafter_cx_generate_world_first
 * hold only their overworld; cx_worldgen.h).  0, or -1 (memory). */
int crafter_cx_make_ladder_floor(crafter_cx_state *state, int action);

crafter_jaxkey crafter_cx_world_key(enum crafter_cx_env_kind kind, crafter_jaxkey key);

/* crafter_cx_env_step of the env `kind`: the same step; the next
 * episode's first state made as that env's reset_env(key_reset) makes
 * it.  crafter_cx_env_step is the symbolic env's. */
int crafter_cx_env_step_of(enum crafter_cx_env_kind kind, crafter_cx_state *state,
                           crafter_jaxkey key, int action, float *reward, int *done);

#endif
