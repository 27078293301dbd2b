/* rules: what happens in one step of Crafter: the player's action, the
 * creatures and plants, chunk balancing, the player's vital statistics and
 * achievements.  Everything follows crafter 1.8.3, including the order of
 * every random draw, so a game stays in lock-step with the reference; the
 * numbers and the rules of data.yaml come from the game's config
 * (config.h), Crafter's own unless it says otherwise. */
#ifndef CRAFTER_RULES_H
#define CRAFTER_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "ids.h"
#include "rng.h"
#include "world.h"


typedef struct crafter_player {
  int32_t inventory[CRAFTER_ITEM_COUNT];
  int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT];
  int facing_x, facing_y;
  int sleeping;
  int32_t last_health; /* health at the end of the previous update */
  /* Hidden counters, doubles as the reference's Python floats (with
   * Crafter's rates, multiples of 0.5). */
  double hunger, thirst, fatigue, recover;
} crafter_player;

struct crafter_config;

/* One game: a world, its generator and its player (object slot 0). */
typedef struct crafter_game {
  crafter_world world;
  crafter_rng rng;
  crafter_player player;
  /* The numbers and rules the game plays by (config.h); NULL for
   * Crafter's own.  Not owned: it must outlive the game. */
  const struct crafter_config *config;
  int action;
  long step;
  double daylight;
  int update_distance; /* objects closer than this (Manhattan) update */
  /* Optional: the daylight of steps [0, daylight_steps) under the config's
   * day length, worked out ahead (crafter_daylight_table); NULL for none.
   * Not owned: it must outlive the game. */
  const double *daylight_by_step;
  long daylight_steps;
} crafter_game;

/* Player p of a game (Crafter has one: p = 0): its state, and its body,
 * the object that stands for it in the world.  Outside the rules every
 * reader of a player goes through these, so that a game of several players
 * changes them alone. */
static inline crafter_player *crafter_game_player(crafter_game *game, int p) {
  (void)p;
  return &game->player;
}
static inline const crafter_object *crafter_game_body(const crafter_game *game, int p) {
  (void)p;
  return &game->world.objects[0];
}

/* Crafter's daylight after `step` steps (a day of 300 steps). */
double crafter_daylight(long step);

/* crafter_daylight_cycle of steps [0, steps) for a day of day_length
 * steps, for crafter_game.daylight_by_step: a cosine and a power cost as
 * much as the rest of a step, and most steps of short episodes fall in
 * their first day.  Returns a table to free, or NULL if out of memory. */
double *crafter_daylight_table(long day_length, long steps);

/* Whether a plant is ripe: grown beyond its config's plant.ripe steps
 * (Crafter: 300). */
int crafter_plant_ripe(const crafter_game *game, const crafter_object *plant);

/* Puts the player at (x, y) as a fresh Player with full vitals. */
int crafter_game_place_player(crafter_game *game, int x, int y);

/* One step: sets the time, updates every object near the player in
 * creation order, and balances chunks every tenth step.  The reward,
 * termination and the observation are the env's business. */
void crafter_game_update(crafter_game *game, int action);

/* What the rules say of an action the player might take now. */
enum crafter_action_outlook {
  CRAFTER_ACTION_POSSIBLE = 0, /* the rules allow it */
  CRAFTER_ACTION_IMPOSSIBLE,   /* it cannot do anything in this state */
  CRAFTER_ACTION_BY_CHANCE     /* its reward comes only with a probability */
};

/* Why an action can do nothing in the game's present state, by the rules
 * of its config (data.yaml's collect, place and make, walking, sleeping):
 * for CRAFTER_ACTION_IMPOSSIBLE and CRAFTER_ACTION_BY_CHANCE writes a
 * sentence into `reason`, such as "Cannot make a wood pickaxe: needs a
 * table nearby.", naming each missing item with the count needed and
 * held; for CRAFTER_ACTION_POSSIBLE (noop among them) an empty string.
 * The player's update comes first in a step, so the answer for the state
 * before a step is the answer for that step.  The game is not changed. */
int crafter_game_action_outlook(const crafter_game *game, int action, char *reason,
                                size_t reason_size);

/* Creature constructors shared with world generation. */
int crafter_game_add_creature(crafter_game *game, int kind, int x, int y);

/* What the place actions (by action - CRAFTER_PLACE_STONE: stone, table,
 * furnace, plant) put down (-1: the plant, an object) and unlock, and
 * what the make actions (by action - CRAFTER_MAKE_WOOD_PICKAXE) give and
 * unlock. */
extern const int8_t crafter_place_material[4];
extern const int8_t crafter_place_achievement[4];
extern const int8_t crafter_make_item[6];
extern const int8_t crafter_make_achievement[6];

#endif
