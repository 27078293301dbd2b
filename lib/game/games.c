#include "game/games.h"

#include <string.h>

#include "crafter/crafter.h"
#include "crafter/ids.h"
#include "game/cc_game.h"
#include "game/cx_env.h"

/* Bits of enum crafter_obs_kind (view/obskind.h, a layer above: the
 * numbers are the ones files store, which never change). */
enum { OBS_NONE = 1u << 0, OBS_PIXELS = 1u << 1, OBS_SEMANTIC = 1u << 2,
       OBS_SYMBOLIC = 1u << 3, OBS_TEXT = 1u << 4,
       OBS_BALROG = 1u << 5 };

static const crafter_game_info games[CRAFTER_GAME_COUNT] = {
    [CRAFTER_GAME_CRAFTER] = {.name = "crafter", .title = "Crafter",
                              .actions = CRAFTER_ACTION_COUNT,
                              .action_names = crafter_action_names,
                              .achievements = CRAFTER_ACHIEVEMENT_COUNT,
                              .achievement_names = crafter_achievement_names,
                              .players_max = CRAFTER_PLAYERS_MAX,
                              .obs_kinds = OBS_NONE | OBS_PIXELS | OBS_SEMANTIC | OBS_SYMBOLIC |
                                           OBS_TEXT | OBS_BALROG,
                              .reference = "crafter 1.8.3"},
    /* Craftax-Classic's actions are Crafter's, in Crafter's order; its
     * achievements are Crafter's 22, reported in Crafter's order (the
     * game keeps them in its own: game/cc_env.h maps them). */
    [CRAFTER_GAME_CRAFTAX_CLASSIC] = {.name = "craftax-classic", .title = "Craftax-Classic",
                                      .actions = CRAFTER_ACTION_COUNT,
                                      .action_names = crafter_action_names,
                                      .achievements = CRAFTER_ACHIEVEMENT_COUNT,
                                      .achievement_names = crafter_achievement_names,
                                      .players_max = 1,
                                      .obs_kinds = OBS_NONE | OBS_SYMBOLIC | OBS_PIXELS,
                                      .reference = "craftax 1.6.1 on jax 0.10.1",
                                      .max_return = CRAFTER_CC_MAX_RETURN},
    /* Craftax's actions and achievements are its own, by its numbers
     * (game/cx_env.h). */
    [CRAFTER_GAME_CRAFTAX] = {.name = "craftax", .title = "Craftax",
                              .actions = CRAFTER_CX_ACTIONS,
                              .action_names = crafter_cx_action_names,
                              .achievements = CRAFTER_CX_ACHIEVEMENTS,
                              .achievement_names = crafter_cx_achievement_names,
                              .players_max = 1,
                              .obs_kinds = OBS_NONE | OBS_PIXELS | OBS_SYMBOLIC | OBS_TEXT,
                              .reference = "craftax 1.6.1 on jax 0.10.1",
                              /* the sum of ACHIEVEMENT_REWARD_MAP: 25 achievements of
                               * 1, 18 of 3, 15 of 5, 9 of 8 */
                              .max_return = 226},
};

const crafter_game_info *crafter_game_info_of(int id) {
  return id >= 0 && id < CRAFTER_GAME_COUNT ? &games[id] : NULL;
}

int crafter_game_from_name(const char *name) {
  for (int id = 0; id < CRAFTER_GAME_COUNT; id++)
    if (strcmp(games[id].name, name) == 0) return id;
  return -1;
}

const char *crafter_game_names(void) { return "crafter, craftax-classic or craftax"; }
