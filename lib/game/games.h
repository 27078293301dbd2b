/* games: the games the toolkit plays, one row each in one table: the name
 * `--game` takes, the number files and streams store it by, its actions,
 * achievements and the observation kinds it has.  Every program looks a
 * game up here; adding a game is a row here, the game's own modules and
 * its tests.  The numbers never change, as files and streams carry them:
 * a file or stream without a game's number is Crafter's. */
#ifndef CRAFTER_GAMES_H
#define CRAFTER_GAMES_H

#include <stddef.h>

enum crafter_game_id {
  CRAFTER_GAME_CRAFTER = 0,         /* Crafter (Hafner, 2022): crafter 1.8.3 */
  CRAFTER_GAME_CRAFTAX_CLASSIC = 1, /* Craftax-Classic (Matthews et al., 2024): craftax 1.6.1 */
  CRAFTER_GAME_CRAFTAX = 2,         /* Craftax (Matthews et al., 2024), nine floors: craftax 1.6.1 */
  CRAFTER_GAME_COUNT
};

typedef struct crafter_game_info {
  const char *name;  /* what --game takes: "crafter", "craftax-classic" */
  const char *title; /* how the game calls itself: "Crafter", "Craftax-Classic" */
  int actions;       /* actions 0..actions-1, named action_names[] */
  const char *const *action_names;
  int achievements;  /* achievements as the toolkit reports them (records, frames, scores),
                        named achievement_names[] */
  const char *const *achievement_names;
  int players_max;   /* players a world may hold */
  unsigned obs_kinds; /* the observation kinds it has: bit k for enum crafter_obs_kind k */
  const char *reference; /* the reference it is exact to */
  int max_return;        /* the most an episode can return, for the Craftax paper's measure
                            (percent of it); 0: not reported */
} crafter_game_info;

/* The row of game `id`; NULL when there is no such game. */
const crafter_game_info *crafter_game_info_of(int id);

/* The game named `name`, or -1. */
int crafter_game_from_name(const char *name);

/* The games' names for a message: "crafter, craftax-classic or craftax". */
const char *crafter_game_names(void);

#endif
