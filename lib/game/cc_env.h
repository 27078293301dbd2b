/* cc_env: one Craftax-Classic environment as the toolkit runs it: the
 * seed's key schedule (game/cc_game.h), the episode counter, auto-reset
 * as Craftax's EnvironmentAutoReset does it, and the step's outcome in
 * the toolkit's terms (achievements and inventory in the order the
 * games table reports them, game/games.h: Crafter's).
 *
 * Seed S: key = PRNGKey(S); key, k = split(key); the first episode is
 * reset(k).  Every step: key, k = split(key); the auto-reset env's step
 * with k (key_step, key_reset = split(k)); when the step ends the
 * episode, the state is already the next episode's first, made from
 * key_reset.  A reset asked for between steps (crafter_cc_env_restart)
 * draws its key from the schedule as a step does: key, k = split(key);
 * reset(k).  Nothing here keeps state between calls; envs share
 * nothing.
 *
 * An episode cannot be played again from the seed and its number alone:
 * the schedule's key runs through every step of the episodes before it.
 * What does replay it is the key its world was generated from and the
 * schedule's key at its start (world_key and key right after the start,
 * the restart or the step that began it): crafter_cc_env_start_keys
 * starts an env there, and stepping it with the episode's actions gives
 * every step again. */
#ifndef CRAFTER_CC_ENV_H
#define CRAFTER_CC_ENV_H

#include <stdint.h>

#include "crafter/ids.h"
#include "game/cc_game.h"
#include "game/cc_worldgen.h"

typedef struct crafter_cc_env {
  crafter_cc_state state;
  crafter_jaxkey key;       /* the schedule's key, carried from step to step */
  crafter_jaxkey world_key; /* the key the episode under way's world was generated from
                               (zero after a load of a saved state, which does not hold it) */
  int64_t seed;
  int64_t episode;          /* 1 in the first episode */
  int reset_due;            /* crafter_cc_env_act_only ended the episode: the auto-reset
                               (crafter_cc_env_reset_due) is still to be made with reset_key */
  crafter_jaxkey reset_key;
} crafter_cc_env;

/* A step's outcome.  When the step ended the episode (done), length,
 * achievements and inventory are the ended episode's, the env already in
 * the next (after crafter_cc_env_act; still in the ended one's last state
 * after crafter_cc_env_act_only). */
typedef struct crafter_cc_outcome {
  float reward;         /* Craftax's float32 reward */
  int done;
  int died;             /* done, and the player has no health left or stands in lava
                           (else done is the time limit's) */
  uint32_t unlocked;    /* achievements first unlocked at the step: bit k for report index k */
  int32_t length;       /* the episode's timestep after the step */
  uint8_t achievements[CRAFTER_ACHIEVEMENT_COUNT]; /* after the step, report order */
  int32_t inventory[CRAFTER_ITEM_COUNT];           /* after the step, report order */
} crafter_cc_outcome;

/* Craftax's Achievement k is report index crafter_cc_report_achievement[k]
 * (the index of its name among crafter_achievement_names). */
extern const uint8_t crafter_cc_report_achievement[CRAFTER_CC_ACHIEVEMENTS];

/* The state's values in the report order of the items (crafter_item_names:
 * health, food, drink, energy, sapling, wood, ...). */
void crafter_cc_report_inventory(const crafter_cc_state *state, int32_t out[CRAFTER_ITEM_COUNT]);

/* The state's achievements in report order, 0 or 1. */
void crafter_cc_report_achievements(const crafter_cc_state *state,
                                    uint8_t out[CRAFTER_ACHIEVEMENT_COUNT]);

/* Starts seed `seed`'s schedule and its first episode.  0, or -1 when
 * memory for the world cannot be had. */
int crafter_cc_env_start(crafter_cc_env *env, int64_t seed);

/* Starts an episode where a recording of it began: the world generated
 * from world_key, the schedule going on from schedule_key; seed and
 * episode only label the env (nothing is drawn from them).  0, or -1 when
 * memory for the world cannot be had. */
int crafter_cc_env_start_keys(crafter_cc_env *env, int64_t seed, int64_t episode,
                              crafter_jaxkey world_key, crafter_jaxkey schedule_key);

/* Ends the episode under way and starts the next (episode + 1) with the
 * schedule's next key.  0, or -1 when memory cannot be had. */
int crafter_cc_env_restart(crafter_cc_env *env);

/* One step with action 0..16 (the caller checks the range).  0, or -1
 * when memory for the next world cannot be had. */
int crafter_cc_env_act(crafter_cc_env *env, int action, crafter_cc_outcome *outcome);

/* crafter_cc_env_act in two, for a caller that looks at the state an
 * episode ended in (its last observation) before the auto-reset replaces
 * it: the step, after which a step that ended the episode leaves the env
 * in its last state with the reset due; then the auto-reset, which starts
 * the next episode (episode + 1, its world from the step's key_reset)
 * when one is due and does nothing otherwise.  0, or -1 when memory for
 * the next world cannot be had. */
void crafter_cc_env_act_only(crafter_cc_env *env, int action, crafter_cc_outcome *outcome);
int crafter_cc_env_reset_due(crafter_cc_env *env);

/* crafter_cc_env_act_only of `count` envs at once, env i with actions[i]
 * and its outcome into outcomes[i]; an env whose action is negative is
 * left alone (its outcome too).  Each env steps exactly as alone; the
 * hashing of their keys shares the vector lanes, so from a few envs up a
 * step costs less. */
void crafter_cc_env_act_only_many(crafter_cc_env *envs, const int *actions, int count,
                                  crafter_cc_outcome *outcomes);

#endif
