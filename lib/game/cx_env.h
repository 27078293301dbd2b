/* cx_env: one Craftax environment (the full game, "cx") as the toolkit
 * runs it: the seed's key schedule, the episode counter, auto-reset as
 * Craftax's EnvironmentAutoReset does it, and the step's outcome in the
 * toolkit's terms -- the same contract as Craftax-Classic's
 * (game/cc_env.h), over game/cx_game.
 *
 * Seed S: key = PRNGKey(S); key, k = split(key); the first episode is
 * reset(k), whose world is generate_world(split(k)[1]).  Every step:
 * key, k = split(key); the auto-reset env's step with k (key_step,
 * key_reset = split(k)); when the step ends the episode, the next is
 * reset(key_reset).  Craftax-Symbolic-v1's reset hands generate_world
 * split(k)[1], Craftax-Pixels-v1's k itself (env->kind says which).
 * A world starts with its overworld made, the floors below made when the
 * player first takes a ladder to them (cx_worldgen.h): a reader of every
 * floor makes them first (crafter_cx_make_floors).  A reset asked for between steps draws its key from
 * the schedule as a step does.  world_key is always the key the world
 * was generated from (generate_world's), so that
 * crafter_cx_env_start_keys(world_key, key) replays an episode.
 *
 * What the toolkit reports of Craftax (games.h's row): its 43 actions
 * and 67 achievements by Craftax's names and numbers (Action,
 * Achievement: lower case), and an inventory of crafter_cx_item_names'
 * CRAFTER_CX_REPORT_ITEMS counts. */
#ifndef CRAFTER_CX_ENV_H
#define CRAFTER_CX_ENV_H

#include <stdint.h>

#include "game/cx_game.h"

enum { CRAFTER_CX_REPORT_ITEMS = 36 };

extern const char *const crafter_cx_action_names[CRAFTER_CX_ACTIONS];
extern const char *const crafter_cx_achievement_names[CRAFTER_CX_ACHIEVEMENTS];
/* health (its whole part), food, drink, energy, mana, xp, dexterity,
 * strength, intelligence, the floor the player is on (0 the overworld to
 * 8 the graveyard), wood, stone, coal, iron, diamond, sapling, pickaxe,
 * sword, bow, arrows, the four pieces of armour (helmet, chestplate,
 * leggings, boots: 0 none, 1 iron, 2 diamond), torches, ruby, sapphire,
 * the six potions (red, green, blue, pink, cyan, yellow), books, then
 * learned_fireball and learned_iceball (0 or 1) */
extern const char *const crafter_cx_item_names[CRAFTER_CX_REPORT_ITEMS];

typedef struct crafter_cx_env {
  crafter_cx_state state;
  crafter_jaxkey key;       /* the schedule's key, carried from step to step */
  crafter_jaxkey world_key; /* generate_world's key of the episode under way (zero after a
                               load of a saved state) */
  int64_t seed;
  int64_t episode;          /* 1 in the first episode */
  int reset_due;            /* crafter_cx_env_act_only ended the episode: the auto-reset is
                               still to be made with reset_key (generate_world's) */
  crafter_jaxkey reset_key;
  int kind;                 /* enum crafter_cx_env_kind: the symbolic env's reset or the pixels
                               env's (their worlds come from other keys; cx_game.h) */
  int failed;               /* a floor could not be made for want of memory */
} crafter_cx_env;

typedef struct crafter_cx_outcome {
  float reward;
  int done;
  int died;             /* done with no health left (else the time limit or the boss beaten) */
  uint32_t unlocked[3]; /* achievement k first unlocked at the step: bit k % 32 of word k / 32 */
  int32_t length;       /* the timestep after the step */
} crafter_cx_outcome;

/* The state's achievements (0 or 1, Craftax's order) and inventory
 * (crafter_cx_item_names' order); either may be NULL. */
void crafter_cx_report(const crafter_cx_state *state, uint8_t *achievements, int32_t *inventory);

int crafter_cx_env_start(crafter_cx_env *env, int64_t seed);
int crafter_cx_env_start_keys(crafter_cx_env *env, int64_t seed, int64_t episode,
                              crafter_jaxkey world_key, crafter_jaxkey schedule_key);
int crafter_cx_env_restart(crafter_cx_env *env);
/* The step (action 0..42, the caller checks), leaving an ended episode's
 * last state with the reset due; then the auto-reset when due.  0, or -1
 * when memory for a world or floor could not be had (since the step). */
void crafter_cx_env_act_only(crafter_cx_env *env, int action, crafter_cx_outcome *outcome);
int crafter_cx_env_reset_due(crafter_cx_env *env);

#endif
