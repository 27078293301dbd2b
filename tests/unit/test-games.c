/* The table of games (lib/game/games.c) and what Craftax-Classic reports
 * in the toolkit's terms (lib/game/cc_env.c): names that read back, an
 * unknown name refused, the message listing every game, and Craftax's
 * achievements and inventory mapped name by name onto Crafter's report
 * order.  Craftax's orders below are those of craftax 1.6.1's
 * craftax_classic/constants.py (Achievement) and craftax_state.py
 * (Inventory), written out here from the reference.  Then an env's
 * episodes replayed from the keys it started each with
 * (crafter_cc_env_start_keys), step for step, as a trajectory file
 * replays them. */
#include <stdlib.h>
#include <string.h>

#include "crafter/ids.h"
#include "game/cc_env.h"
#include "game/games.h"
#include "run/cc_state.h"
#include "tap.h"

#include <zlib.h>

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

enum { STEPS = 3000, EPISODES_MAX = 64 };

/* Where an episode began and what its steps gave. */
typedef struct begun {
  long first_step;
  int64_t episode;
  crafter_jaxkey world_key, key;
} begun;

/* The state env's next step with `action` leaves, before an auto-reset
 * would replace it: the step made on a copy. */
static crafter_cc_state *step_aside(const crafter_cc_env *env, int action) {
  static crafter_cc_state copy;
  crafter_jaxkey keys[2], key = env->key;
  crafter_jax_split(crafter_cc_schedule_next(&key), keys, 2);
  copy = env->state;
  (void)crafter_cc_game_step(&copy, keys[0], action);
  return &copy;
}

/* The CRC-32 of a state's words (its saved form, run/cc_state.h). */
static uint32_t state_crc(const crafter_cc_state *state) {
  static crafter_cc_env holder;
  static uint8_t saved[CRAFTER_CC_STATE_BYTES];
  holder.state = *state;
  crafter_cc_state_save(&holder, saved);
  return (uint32_t)crc32(0L, saved + CRAFTER_CC_STATE_HEADER_BYTES,
                         4 * CRAFTER_CC_STATE_WORDS);
}

/* Seed 4's random actions for 3,000 steps; every episode it began is
 * replayed from its keys with its actions and must give the same
 * outcomes and states. */
static void replays(void) {
  static crafter_cc_env env, again;
  static crafter_cc_outcome outcomes[STEPS];
  static uint32_t after[STEPS]; /* the CRC of the state after each step (before an
                                   auto-reset's new world: the ended episode's) */
  static uint8_t actions[STEPS];
  static begun starts[EPISODES_MAX];
  crafter_jaxkey schedule;
  crafter_jaxkey first = crafter_cc_schedule_start(4, &schedule);
  int started = crafter_cc_env_start(&env, 4) == 0;
  ok(started && env.world_key.word[0] == first.word[0] && env.world_key.word[1] == first.word[1] &&
         env.key.word[0] == schedule.word[0] && env.key.word[1] == schedule.word[1],
     "the first episode's world key is the schedule's first key, the env's key the one after");
  crafter_jaxkey action_key = crafter_jax_split_one(crafter_jax_key(4), 2);
  int count = 0, died = 0, alive = 1;
  starts[count++] = (begun){0, env.episode, env.world_key, env.key};
  for (long t = 0; t < STEPS && started && count < EPISODES_MAX; t++) {
    actions[t] = (uint8_t)crafter_jax_randint_at(action_key, (uint64_t)t, 0, CRAFTER_CC_ACTIONS);
    crafter_cc_outcome *o = &outcomes[t];
    crafter_cc_state *stepped = step_aside(&env, actions[t]);
    after[t] = state_crc(stepped);
    int dead = crafter_cc_game_died(stepped), late = stepped->timestep >= 10000;
    if (crafter_cc_env_act(&env, actions[t], o) != 0) started = 0;
    if (o->done) {
      died += o->died;
      alive &= o->died == dead && (dead || late);
      starts[count++] = (begun){t + 1, env.episode, env.world_key, env.key};
    }
  }
  ok(started && count > 3 && died > 0, "seed 4 plays %d episodes in %d steps, %d ended by death",
     count - 1, STEPS, died);
  ok(alive, "an episode that ended before the time limit ended by death");
  int same = 1, states = 1, inventories = 1;
  for (int e = 0; e + 1 < count && started; e++) {
    if (crafter_cc_env_start_keys(&again, 4, starts[e].episode, starts[e].world_key,
                                  starts[e].key) != 0) {
      started = 0;
      break;
    }
    for (long t = starts[e].first_step; t < starts[e + 1].first_step; t++) {
      crafter_cc_outcome o;
      crafter_cc_state *stepped = step_aside(&again, actions[t]);
      uint32_t crc = state_crc(stepped);
      int32_t inventory[CRAFTER_ITEM_COUNT];
      crafter_cc_report_inventory(stepped, inventory);
      if (crafter_cc_env_act(&again, actions[t], &o) != 0) started = 0;
      const crafter_cc_outcome *want = &outcomes[t];
      same &= o.reward == want->reward && o.done == want->done && o.died == want->died &&
              o.unlocked == want->unlocked && o.length == want->length &&
              memcmp(o.achievements, want->achievements, sizeof o.achievements) == 0;
      states &= crc == after[t];
      inventories &= memcmp(inventory, o.inventory, sizeof inventory) == 0;
    }
    same &= again.episode == starts[e + 1].episode &&
            memcmp(&again.world_key, &starts[e + 1].world_key, sizeof again.world_key) == 0 &&
            memcmp(&again.key, &starts[e + 1].key, sizeof again.key) == 0;
  }
  ok(started && same && states,
     "every episode replays from its world key and schedule key: the same rewards, dones, "
     "deaths, unlocks and states, and it ends with the next episode's keys");
  ok(inventories, "an outcome's inventory is the state's after the step, before an auto-reset");
}

/* crafter_cc_env_act_only_many: 70 envs (a chunk of 64 and part of
 * another, groups of lanes whole and in part) stepped together, some left
 * out at each step, against the same envs stepped one at a time: the same
 * outcomes, states and keys. */
static void many(void) {
  enum { ENVS = 70, STEPS_MANY = 400 };
  static crafter_cc_env together[ENVS], alone[ENVS];
  static crafter_cc_outcome a[ENVS], b[ENVS];
  int actions[ENVS], started = 1, same = 1, left = 0, ends = 0;
  for (int i = 0; i < ENVS; i++)
    started &= crafter_cc_env_start(&together[i], 1000 + i) == 0 &&
               crafter_cc_env_start(&alone[i], 1000 + i) == 0;
  uint64_t random = 11;
  for (int t = 0; t < STEPS_MANY && started; t++) {
    for (int i = 0; i < ENVS; i++) {
      random = random * 6364136223846793005ULL + 1442695040888963407ULL;
      uint32_t r = (uint32_t)(random >> 33);
      actions[i] = r % 10 == 0 ? -1 : (int)(r % 17); /* a tenth left out */
      left += actions[i] < 0;
      memset(&a[i], 0x5a, sizeof a[i]); /* the padding alike */
      memset(&b[i], 0x5a, sizeof b[i]);
    }
    crafter_cc_env_act_only_many(together, actions, ENVS, b);
    for (int i = 0; i < ENVS; i++) {
      if (actions[i] < 0) {
        static crafter_cc_outcome untouched;
        memset(&untouched, 0x5a, sizeof untouched);
        same &= memcmp(&b[i], &untouched, sizeof untouched) == 0;
      } else {
        crafter_cc_env_act_only(&alone[i], actions[i], &a[i]);
        same &= memcmp(&a[i], &b[i], sizeof a[i]) == 0;
        ends += a[i].done;
      }
      started &= crafter_cc_env_reset_due(&together[i]) == 0 &&
                 crafter_cc_env_reset_due(&alone[i]) == 0;
      same &= memcmp(&together[i], &alone[i], sizeof alone[i]) == 0;
    }
  }
  ok(started && same && ends > 20,
     "%d envs stepped together %d times (%d steps left out, %d episodes ended) are the envs "
     "stepped one at a time: outcomes, states and keys",
     ENVS, STEPS_MANY, left, ends);
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
  ok(crafter_game_from_name("craftax-full") < 0 && crafter_game_from_name("") < 0 &&
         crafter_game_from_name("Crafter") < 0 && !crafter_game_info_of(CRAFTER_GAME_COUNT) &&
         !crafter_game_info_of(-1),
     "an unknown name or number is no game");
  ok(crafter_game_from_name("crafter") == CRAFTER_GAME_CRAFTER &&
         crafter_game_from_name("craftax-classic") == CRAFTER_GAME_CRAFTAX_CLASSIC &&
         crafter_game_from_name("craftax") == CRAFTER_GAME_CRAFTAX &&
         CRAFTER_GAME_CRAFTER == 0 && CRAFTER_GAME_CRAFTAX_CLASSIC == 1 &&
         CRAFTER_GAME_CRAFTAX == 2,
     "the numbers files and streams store are crafter 0, craftax-classic 1, craftax 2");

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
  replays();
  many();
  return tap_done();
}
