/* The table of games (lib/game/games.c) and what Craftax-Classic reports
 * in the toolkit's terms (lib/game/cc_env.c): names that read back, an
 * unknown name refused, the message listing every game, and Craftax's
 * achievements and inventory mapped name by name onto Crafter's report
 * order.  Craftax's orders below are those of craftax 1.6.1's
 * craftax_classic/constants.py (Achievement) and craftax_state.py
 * (Inventory), written out here from the reference. */
#include <string.h>

#include "crafter/ids.h"
#include "game/cc_env.h"
#include "game/games.h"
#include "tap.h"

static const char *const craftax_achievements[CRAFTER_CC_ACHIEVEMENTS] = {
    "collect_wood",       "place_table",      "eat_cow",         "collect_sapling",
    "collect_drink",      "make_wood_pickaxe", "make_wood_sword", "place_plant",
    "defeat_zombie",      "collect_stone",    "place_stone",     "eat_plant",
    "defeat_skeleton",    "make_stone_pickaxe", "make_stone_sword", "wake_up",
    "place_furnace",      "collect_coal",     "collect_iron",    "collect_diamond",
    "make_iron_pickaxe",  "make_iron_sword"};

static const char *const craftax_inventory[CRAFTER_CC_INVENTORY] = {
    "wood",         "stone",         "coal",         "iron",       "diamond",     "sapling",
    "wood_pickaxe", "stone_pickaxe", "iron_pickaxe", "wood_sword", "stone_sword", "iron_sword"};

static int item_index(const char *name) {
  for (int k = 0; k < CRAFTER_ITEM_COUNT; k++)
    if (strcmp(crafter_item_names[k], name) == 0) return k;
  return -1;
}

int main(void) {
  int named = 1, listed = 1;
  for (int id = 0; id < CRAFTER_GAME_COUNT; id++) {
    const crafter_game_info *game = crafter_game_info_of(id);
    named &= game && crafter_game_from_name(game->name) == id;
    listed &= game && strstr(crafter_game_names(), game->name) != NULL;
  }
  ok(named, "every game has a row whose name reads back");
  ok(listed, "the message's list names every game: %s", crafter_game_names());
  ok(crafter_game_from_name("craftax") < 0 && crafter_game_from_name("") < 0 &&
         crafter_game_from_name("Crafter") < 0 && !crafter_game_info_of(CRAFTER_GAME_COUNT) &&
         !crafter_game_info_of(-1),
     "an unknown name or number is no game");
  ok(crafter_game_from_name("crafter") == CRAFTER_GAME_CRAFTER &&
         crafter_game_from_name("craftax-classic") == CRAFTER_GAME_CRAFTAX_CLASSIC &&
         CRAFTER_GAME_CRAFTER == 0 && CRAFTER_GAME_CRAFTAX_CLASSIC == 1,
     "the numbers files and streams store are crafter 0, craftax-classic 1");

  /* Each of Craftax's achievements lands on the report index of its own
   * name, and no two on one. */
  int mapped = 1;
  unsigned seen = 0;
  for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++) {
    int to = crafter_cc_report_achievement[k];
    mapped &= to >= 0 && to < CRAFTER_ACHIEVEMENT_COUNT &&
              strcmp(crafter_achievement_names[to], craftax_achievements[k]) == 0;
    seen |= 1u << to;
  }
  ok(mapped && seen == (1u << CRAFTER_ACHIEVEMENT_COUNT) - 1,
     "Craftax's 22 achievements map name by name onto the report order");

  /* A state whose every count is distinct reports each under its name. */
  crafter_cc_state state;
  memset(&state, 0, sizeof state);
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) state.inventory[k] = 100 + k;
  state.player_health = 1, state.player_food = 2, state.player_drink = 3, state.player_energy = 4;
  for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++) state.achievements[k] = (uint8_t)(k % 3 == 0);
  int32_t inventory[CRAFTER_ITEM_COUNT];
  crafter_cc_report_inventory(&state, inventory);
  int items = inventory[item_index("health")] == 1 && inventory[item_index("food")] == 2 &&
              inventory[item_index("drink")] == 3 && inventory[item_index("energy")] == 4;
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++)
    items &= inventory[item_index(craftax_inventory[k])] == 100 + k;
  ok(items, "the inventory and vitals are reported under their names");
  uint8_t achievements[CRAFTER_ACHIEVEMENT_COUNT];
  crafter_cc_report_achievements(&state, achievements);
  int reported = 1;
  for (int k = 0; k < CRAFTER_CC_ACHIEVEMENTS; k++)
    for (int to = 0; to < CRAFTER_ACHIEVEMENT_COUNT; to++)
      if (strcmp(crafter_achievement_names[to], craftax_achievements[k]) == 0)
        reported &= achievements[to] == (k % 3 == 0);
  ok(reported, "the achievements are reported under their names");
  return tap_done();
}
