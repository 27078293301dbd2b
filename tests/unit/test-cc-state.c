/* Craftax-Classic's saved states (lib/run/cc_state.c): the words of a
 * saved state are the words the reference scripts flatten JAX's EnvState
 * to (tests/unit/cc_state_words.h, in craftax_worlds.py's order), so that
 * a JAX state converts to a saved state; a state saved after random steps
 * loads back into an env that then plays on exactly as the original;
 * every field holding a value no state can hold, with the checksum made
 * right, is refused naming the field; a damaged byte, a cut state, a
 * Crafter state and another game's number are refused with the reason,
 * the env untouched. */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "cc_state_words.h"
#include "game/cc_env.h"
#include "run/cc_state.h"
#include "tap.h"

static uint32_t next(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(*state >> 33);
}

static void fix_checksum(uint8_t *state) {
  crafter_put_u32(state + CRAFTER_CC_STATE_BYTES - 4, crafter_crc32(state, CRAFTER_CC_STATE_BYTES - 4));
}

int main(void) {
  static crafter_cc_env env, copy, other;
  static uint8_t saved[CRAFTER_CC_STATE_BYTES], again[CRAFTER_CC_STATE_BYTES];
  static struct cc_words words;
  char error[300];
  uint64_t random = 7;
  crafter_cc_outcome outcome;
  crafter_cc_env_start(&env, 12);
  int ends = 0;
  for (int t = 0; t < 700; t++) {
    crafter_cc_env_act(&env, (int)(next(&random) % 17), &outcome);
    ends += outcome.done;
  }
  crafter_cc_state_save(&env, saved);
  cc_state_words(&env.state, &words);
  int same = words.count == CRAFTER_CC_STATE_WORDS;
  for (long k = 0; same && k < words.count; k++)
    same = crafter_get_u32(saved + CRAFTER_CC_STATE_HEADER_BYTES + 4 * k) == words.word[k];
  ok(same, "a saved state holds the %ld words of JAX's EnvState in its order (%d expected)",
     words.count, CRAFTER_CC_STATE_WORDS);
  ok(memcmp(saved, "CRAFTSTA", 8) == 0 && crafter_get_u32(saved + 8) == 2 &&
         crafter_get_u32(saved + 12) == 1 && crafter_get_u64(saved + 16) == CRAFTER_CC_STATE_BYTES &&
         crafter_get_i64(saved + 24) == 12 && crafter_get_i64(saved + 32) == env.episode,
     "the header: CRAFTSTA, version 2, game 1, size, seed 12, episode %lld (%d ended)",
     (long long)env.episode, ends);

  /* Loaded into an env of another seed, it plays on as the original. */
  crafter_cc_env_start(&copy, 99);
  int loaded = crafter_cc_state_load(&copy, saved, sizeof saved, error, sizeof error) == 0;
  crafter_cc_state_save(&copy, again);
  ok(loaded && memcmp(saved, again, sizeof saved) == 0, "it loads and saves back byte for byte");
  int equal = 1;
  for (int t = 0; t < 2000 && equal; t++) {
    int action = (int)(next(&random) % 17);
    crafter_cc_outcome a, b;
    crafter_cc_env_act(&env, action, &a);
    crafter_cc_env_act(&copy, action, &b);
    equal = a.reward == b.reward && a.done == b.done && a.unlocked == b.unlocked &&
            memcmp(&env.state, &copy.state, sizeof env.state) == 0 && env.episode == copy.episode;
  }
  ok(equal, "the loaded env plays 2000 steps (across auto-resets) as the original");

  /* Every field refused with a value out of its range. */
  struct {
    const char *field;
    long word;     /* index in the words */
    uint32_t value;
  } bad[] = {
      {"map[5]", 5, 17},
      {"mob_map[0]", 4096, 2},
      {"player_position[0]", 8192, 64},
      {"player_position[1]", 8193, (uint32_t)-1},
      {"player_direction[0]", 8194, 5},
      {"player_health[0]", 8195, (1u << 30) + 1},
      {"is_sleeping[0]", 8199, 3},
      {"player_hunger[0]", 8201, 0x7fc00000u}, /* NaN */
      {"player_fatigue[0]", 8203, 0x7f800000u}, /* infinity */
      {"zombies.mask[1]", 8226, 2},
      {"arrow_directions[0]", 8271, 2},
      {"achievements[3]", 8321, 5},
      {"timestep[0]", 8342, 0x80000000u},
  };
  int refused = 1;
  for (size_t n = 0; n < sizeof bad / sizeof bad[0]; n++) {
    memcpy(again, saved, sizeof saved);
    crafter_put_u32(again + CRAFTER_CC_STATE_HEADER_BYTES + 4 * bad[n].word, bad[n].value);
    fix_checksum(again);
    other = copy;
    int status = crafter_cc_state_load(&copy, again, sizeof again, error, sizeof error);
    int named = strstr(error, bad[n].field) != NULL;
    if (status == 0 || !named || memcmp(&other, &copy, sizeof copy) != 0) {
      refused = 0;
      printf("# %s: status %d, \"%s\"\n", bad[n].field, status, status ? error : "");
    }
  }
  ok(refused, "each of %zu values no state holds is refused naming its field, the env untouched",
     sizeof bad / sizeof bad[0]);

  memcpy(again, saved, sizeof saved);
  again[1000] ^= 1;
  ok(crafter_cc_state_load(&copy, again, sizeof again, error, sizeof error) < 0 &&
         strstr(error, "damaged"),
     "a changed byte: %s", error);
  ok(crafter_cc_state_load(&copy, saved, sizeof saved - 1, error, sizeof error) < 0 &&
         strstr(error, "says it has"),
     "a state cut short: %s", error);
  memcpy(again, saved, sizeof saved);
  crafter_put_u32(again + 8, 1);
  ok(crafter_cc_state_load(&copy, again, sizeof again, error, sizeof error) < 0 &&
         strstr(error, "a state of crafter"),
     "a Crafter state (version 1): %s", error);
  memcpy(again, saved, sizeof saved);
  crafter_put_u32(again + 12, 9);
  fix_checksum(again);
  ok(crafter_cc_state_load(&copy, again, sizeof again, error, sizeof error) < 0 &&
         strstr(error, "game number 9"),
     "an unknown game: %s", error);
  ok(crafter_state_game(saved, sizeof saved) == 1 && crafter_state_game(again, sizeof again) < 0,
     "crafter_state_game reads the game of a state");
  return tap_done();
}
