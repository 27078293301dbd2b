/* game: one game of Crafter -- its world, its generator and its players
 * -- and what happens in one step: the players' actions, the creatures
 * and plants, chunk balancing, the players' vital statistics and
 * achievements.  Everything follows crafter 1.8.3, including the order of
 * every random draw, so a game stays in lock-step with the reference; the
 * numbers and the rules of data.yaml come from the game's config
 * (config.h), Crafter's own unless it says otherwise. */
#ifndef CRAFTER_GAME_H
#define CRAFTER_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "crafter/crafter.h"
#include "game/world.h"
#include "kernels/rng.h"


typedef struct crafter_player {
  int32_t inventory[CRAFTER_ITEM_COUNT];
  int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT];
  int facing_x, facing_y;
  int sleeping;
  int32_t last_health; /* health at the end of the previous update */
  int32_t kills;       /* other players this one's do took the last health of */
  /* Hidden counters, doubles as the reference's Python floats (with
   * Crafter's rates, multiples of 0.5). */
  double hunger, thirst, fatigue, recover;
} crafter_player;

struct crafter_config;

/* One game: a world, its generator and its players.  The bodies of the
 * players in the world are its first objects, in the players' order
 * (bit p of `present`: player p's body is there); creatures follow in
 * creation order.  Crafter's game has one player, body in slot 0. */
typedef struct crafter_game {
  crafter_world world;
  crafter_rng rng;
  crafter_player players[CRAFTER_PLAYERS_MAX];
  int player_count;  /* players of the game, 1 to CRAFTER_PLAYERS_MAX */
  uint32_t present;  /* bit p: player p's body is in the world */
  /* The numbers and rules the game plays by (config.h); NULL for
   * Crafter's own.  Not owned: it must outlive the game. */
  const struct crafter_config *config;
  int action; /* player 0's action of the last step */
  long step;
  double daylight;
  int update_distance; /* objects closer than this (Manhattan) to a player update */
  /* Optional: the daylight of steps [0, daylight_steps) under the config's
   * day length, worked out ahead (crafter_daylight_table); NULL for none.
   * Not owned: it must outlive the game. */
  const double *daylight_by_step;
  long daylight_steps;
} crafter_game;

/* Player p of a game (Crafter has one: p = 0): its state, and its body,
 * the object that stands for it in the world (NULL once it left the
 * world).  Outside the rules every reader of a player goes through these. */
static inline crafter_player *crafter_game_player(crafter_game *game, int p) {
  return &game->players[p];
}
static inline const crafter_player *crafter_game_player_const(const crafter_game *game, int p) {
  return &game->players[p];
}
static inline int crafter_game_body_slot(const crafter_game *game, int p) {
  if (!((game->present >> p) & 1u)) return -1;
  return __builtin_popcount(game->present & ((1u << p) - 1u));
}
static inline const crafter_object *crafter_game_body(const crafter_game *game, int p) {
  int slot = crafter_game_body_slot(game, p);
  return slot < 0 ? (const crafter_object *)0 : &game->world.objects[slot];
}
/* The player whose body is in `slot`, or -1 when the slot holds none. */
static inline int crafter_game_player_of_slot(const crafter_game *game, int slot) {
  if (slot < 0 || slot >= __builtin_popcount(game->present)) return -1;
  uint32_t rest = game->present;
  for (int i = 0; i < slot; i++) rest &= rest - 1;
  return __builtin_ctz(rest);
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

/* Puts the player at (x, y) as a fresh Player with full vitals: player 0,
 * the game's only one (the world holds no other object yet). */
int crafter_game_place_player(crafter_game *game, int x, int y);

/* Adds player game->player_count at (x, y), a free cell, as a fresh
 * Player, its body after the other players' (before the creatures).
 * 0, or -1 when the game is full or memory ran out. */
int crafter_game_add_player(crafter_game *game, int x, int y);

/* CRAFTER_PLAYERS_MAX and CRAFTER_PLAYERS_UNFIT are crafter/crafter.h's.
 * A start returns CRAFTER_PLAYERS_UNFIT when the world and the number of
 * players asked for do not fit together: no room for them all, or a world
 * file with more players '@' than are played.  Every program reports it
 * as a bad world (status 1). */

/* Gives a game of one player `players` players (at most
 * CRAFTER_PLAYERS_MAX): player p >= 1 starts on the p-th free walkable
 * cell (a creature's walkable material, no object) met going out from
 * player 0's cell by Manhattan distance 1, 2, ..., at each distance by x
 * then y.  Takes no draws.  0; CRAFTER_PLAYERS_UNFIT with
 * crafter_game_no_room's reason when the world has too few such cells
 * (the players it had room for are in); -1 when memory ran out. */
int crafter_game_spread_players(crafter_game *game, int players, char *error, size_t error_size);

/* Says that the world has no room for `players` players, and how many
 * cells a player may start on it has (walkable, without a creature).
 * Returns -1. */
int crafter_game_no_room(const crafter_game *game, int players, char *error, size_t error_size);

/* One step: sets the time, updates every object near the player in
 * creation order, and balances chunks every tenth step.  The reward,
 * termination and the observation are the env's business. */
void crafter_game_update(crafter_game *game, int action);

/* One step of a game of several players, actions[p] for player p: the
 * bodies of players who died leave the world while another player lives;
 * every player in the world acts, in index order (one whose health is 0
 * only when no player has health); then the objects near any player in
 * creation order; then balancing.  With one player it is
 * crafter_game_update. */
void crafter_game_update_players(crafter_game *game, const int *actions);

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
/* The same for player p. */
int crafter_game_player_outlook(const crafter_game *game, int p, int action, char *reason,
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
