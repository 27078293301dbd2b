/* Craftax's state as words (game/cx_words.h): the words equal the ones
 * the reference's field list (cx_state_words.h, JAX's leaves as
 * tests/reference/craftax_full_worlds.py reads them) gives, for generated
 * and stepped states; words read back give the state byte for byte; every
 * kind of value no state can hold is refused, naming the field, with the
 * state untouched.  Given tests/data/craftax/cx-crafted-starts.gz, the
 * states JAX made there are taken and give their words back.
 *
 * For the Python client's tests (python/tests/test_craftax_full.py,
 * tests/reference/craftax_full_state.py):
 *   test-cx-words --crc SEED ACTION...    the CRC-32 of the words (each
 *                                         little-endian) of the first
 *                                         state of SEED's schedule and
 *                                         after each action, a line each
 *   test-cx-words --words SEED ACTION...  the words of the state after the
 *                                         actions, little-endian, on
 *                                         standard output
 *   test-cx-words --read                  words on standard input: "taken",
 *                                         or the reader's refusal
 *   test-cx-words --fields                "NAME COUNT" for each field */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "cx_state_words.h"
#include "game/cx_game.h"
#include "game/cx_words.h"
#include "tap.h"

static uint32_t words[CRAFTER_CX_STATE_WORDS], expected[CRAFTER_CX_STATE_WORDS];
static crafter_cx_state state, back, spare, before;

/* The words of *s by the reference's field list; how many. */
static long reference_words(const crafter_cx_state *s, uint32_t *out, long room) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int count = cx_state_fields(s, f, names);
  long n = 0;
  for (int k = 0; k < count; k++)
    for (long v = 0; v < f[k].count; v++, n++)
      if (n < room) out[n] = cx_word(&f[k], v);
  return n;
}

/* The words of *s with every floor made (a copy: the floors below the
 * overworld are made when first reached, cx_worldgen.h), as a saved
 * state holds them. */
static void whole_words(const crafter_cx_state *s, uint32_t *out) {
  static crafter_cx_state copy;
  copy = *s;
  if (crafter_cx_make_floors(&copy) != 0) {
    fprintf(stderr, "test-cx-words: out of memory\n");
    exit(2);
  }
  crafter_cx_state_to_words(&copy, out);
}

static uint32_t words_crc(const crafter_cx_state *s) {
  whole_words(s, words);
  uint8_t bytes[4];
  uint32_t crc = 0;
  for (long k = 0; k < CRAFTER_CX_STATE_WORDS; k++) {
    crafter_put_u32(bytes, words[k]);
    crc = crafter_crc32_update(crc, bytes, 4);
  }
  return crc;
}

static int crc_mode(int argc, char **argv) {
  long seed = strtol(argv[2], NULL, 10);
  crafter_jaxkey key;
  crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
  if (crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &state) != 0) return 1;
  printf("%08x\n", words_crc(&state));
  for (int k = 3; k < argc; k++) {
    float reward;
    int done;
    if (crafter_cx_env_step(&state, crafter_cx_schedule_next(&key), atoi(argv[k]), &reward,
                            &done) != 0)
      return 1;
    printf("%08x\n", words_crc(&state));
  }
  return 0;
}

static int play(int argc, char **argv) {
  long seed = strtol(argv[2], NULL, 10);
  crafter_jaxkey key;
  crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
  if (crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &state) != 0) return 1;
  for (int k = 3; k < argc; k++) {
    float reward;
    int done;
    if (crafter_cx_env_step(&state, crafter_cx_schedule_next(&key), atoi(argv[k]), &reward,
                            &done) != 0)
      return 1;
  }
  whole_words(&state, words);
  for (long k = 0; k < CRAFTER_CX_STATE_WORDS; k++) {
    uint8_t bytes[4];
    crafter_put_u32(bytes, words[k]);
    if (fwrite(bytes, 1, 4, stdout) != 4) return 1;
  }
  return 0;
}

static int read_mode(void) {
  for (long k = 0; k < CRAFTER_CX_STATE_WORDS; k++) {
    uint8_t bytes[4];
    if (fread(bytes, 1, 4, stdin) != 4) {
      printf("cut short at word %ld\n", k);
      return 1;
    }
    words[k] = crafter_get_u32(bytes);
  }
  char error[300];
  if (crafter_cx_state_from_words(&state, words, error, sizeof error) == 0)
    printf("taken\n");
  else
    printf("%s\n", error);
  return 0;
}

static int fields_mode(void) {
  long k = 0;
  while (k < CRAFTER_CX_STATE_WORDS) {
    long within, count = 0;
    const char *name = crafter_cx_word_field(k, &within), *now;
    while ((now = crafter_cx_word_field(k + count, &within)) == name) count++;
    printf("%s %ld\n", name, count);
    k += count;
  }
  return 0;
}

/* Whether state `s`'s words, read back, give *s byte for byte, and equal
 * the reference's words.  A state whose floors below are still to be
 * made (cx_worldgen.h) is taken with them made, as a saved state holds
 * it; a state read back has none pending. */
static int round_trip(const crafter_cx_state *given, char *why, size_t why_size) {
  static crafter_cx_state whole;
  const crafter_cx_state *s = given;
  if (given->pending_floors || given->pending_key.word[0] || given->pending_key.word[1]) {
    whole = *given;
    if (crafter_cx_make_floors(&whole) != 0) {
      snprintf(why, why_size, "out of memory");
      return 0;
    }
    whole.pending_floors = 0;
    whole.pending_key = (crafter_jaxkey){{0, 0}};
    s = &whole;
  }
  crafter_cx_state_to_words(s, words);
  long n = reference_words(s, expected, CRAFTER_CX_STATE_WORDS);
  if (n != CRAFTER_CX_STATE_WORDS) {
    snprintf(why, why_size, "the reference has %ld words", n);
    return 0;
  }
  for (long k = 0; k < n; k++)
    if (words[k] != expected[k]) {
      long within;
      const char *name = crafter_cx_word_field(k, &within);
      snprintf(why, why_size, "word %ld (%s[%ld]) is %08x, the reference's %08x", k, name,
               within, words[k], expected[k]);
      return 0;
    }
  memset(&back, 0xA5, sizeof back);
  char error[200];
  if (crafter_cx_state_from_words(&back, words, error, sizeof error) != 0) {
    snprintf(why, why_size, "refused: %s", error);
    return 0;
  }
  if (memcmp(&back, s, sizeof back) != 0) {
    snprintf(why, why_size, "read back, the state differs");
    return 0;
  }
  return 1;
}

/* The index of the first word of field `name`, or -1. */
static long word_of(const char *name) {
  for (long k = 0; k < CRAFTER_CX_STATE_WORDS; k++) {
    long within;
    const char *got = crafter_cx_word_field(k, &within);
    if (got && within == 0 && strcmp(got, name) == 0) return k;
  }
  return -1;
}

static float real_of(uint32_t bits) {
  float value;
  memcpy(&value, &bits, 4);
  return value;
}

/* The first states JAX made (tests/data/craftax/cx-crafted-starts.gz:
 * records of 7 words, the seed first, then the state's words): each is
 * taken and gives its words back, and so do the states of 300 random
 * actions from it. */
static void jax_states(const char *starts) {
  gzFile in = gzopen(starts, "rb");
  if (!in) {
    ok(0, "%s opens", starts);
    return;
  }
  enum { HEAD = 7 };
  static uint32_t record[HEAD + CRAFTER_CX_STATE_WORDS];
  int records = 0, equal = 0, stepped = 0, stepped_equal = 0, floors = 0;
  char first_bad[400] = "";
  uint32_t rng = 99;
  while (gzread(in, record, sizeof record) == (int)sizeof record) {
    records++;
    char error[200] = "";
    if (crafter_cx_state_from_words(&state, record + HEAD, error, sizeof error) == 0) {
      crafter_cx_state_to_words(&state, words);
      if (memcmp(words, record + HEAD, sizeof words) == 0) equal++;
    } else if (!first_bad[0]) {
      snprintf(first_bad, sizeof first_bad, "seed %u: %s", record[0], error);
    }
    crafter_jaxkey key;
    crafter_cx_schedule_start(record[0], &key);
    for (int t = 0; t < 300; t++) {
      rng = rng * 1103515245u + 12345u;
      float reward;
      int done;
      crafter_cx_env_step(&state, crafter_cx_schedule_next(&key),
                          (int)((rng >> 16) % CRAFTER_CX_ACTIONS), &reward, &done);
      floors |= 1 << state.player_level;
      char why[300];
      stepped++;
      if (round_trip(&state, why, sizeof why))
        stepped_equal++;
      else if (!first_bad[0])
        snprintf(first_bad, sizeof first_bad, "seed %u step %d: %s", record[0], t + 1, why);
    }
  }
  gzclose(in);
  int floor_count = 0;
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++) floor_count += floors >> f & 1;
  ok(records > 0 && equal == records && stepped_equal == stepped,
     "%d of %d states JAX made are taken and give their words back; %d of %d states stepped "
     "from them (on %d floors) round-trip%s%s",
     equal, records, stepped_equal, stepped, floor_count, first_bad[0] ? ": " : "", first_bad);
}

static void refusals(void) {
  static const struct {
    const char *field;
    long index;      /* within the field */
    uint32_t word;
    const char *said; /* what the message says */
  } bad[] = {
      {"map", 4000, 37, "map[4000] holds 37, no block type (0 to 36)"},
      {"map", 0, 0xFFFFFFFFu, "map[0] holds 4294967295, no block type"},
      {"item_map", 20735, 5, "item_map[20735] holds 5, no item type (0 to 4)"},
      {"mob_map", 7, 2, "mob_map[7] holds 2, neither 0 nor 1"},
      {"light_map", 3, 0x7FC00000u, "light_map[3] holds nan, not a finite number"},
      {"light_map", 3, 0x7F800000u, "light_map[3] holds inf, not a finite number"},
      {"light_map", 3, 0x4F000001u, "light_map[3] holds 2.14748e+09, not a finite number"},
      {"down_ladders", 17, 48, "down_ladders[17] holds 48, off the map (0 to 47)"},
      {"up_ladders", 0, 0xFFFFFFFFu, "up_ladders[0] holds -1, off the map"},
      {"chests_opened", 8, 2, "chests_opened[8] holds 2, neither 0 nor 1"},
      {"monsters_killed", 1, 0x40000001u, "monsters_killed[1] holds 1073741825, beyond 2**30"},
      {"player_position", 1, 48, "player_position[1] holds 48, off the map"},
      {"player_level", 0, 9, "player_level[0] holds 9, no floor (0 to 8)"},
      {"player_level", 0, 0xFFFFFFFFu, "player_level[0] holds -1, no floor"},
      {"player_direction", 0, 5, "player_direction[0] holds 5, not one of the directions"},
      {"player_health", 0, 0xFF800000u, "player_health[0] holds -inf, not a finite number"},
      {"player_mana", 0, 0xBFFFFFFFu, "player_mana[0] holds -1073741825, beyond 2**30"},
      {"is_sleeping", 0, 2, "is_sleeping[0] holds 2, neither"},
      {"is_resting", 0, 256, "is_resting[0] holds 256, neither"},
      {"player_recover_mana", 0, 0x7FC00000u, "player_recover_mana[0] holds nan"},
      {"inventory.potions", 5, 0x80000000u, "inventory.potions[5] holds -2147483648, beyond"},
      {"melee_mobs.type_id", 26, 8, "melee_mobs.type_id[26] holds 8, no melee creature type"},
      {"passive_mobs.type_id", 0, 3, "passive_mobs.type_id[0] holds 3, no passive creature"},
      {"ranged_mobs.type_id", 17, 8, "ranged_mobs.type_id[17] holds 8, no ranged creature"},
      {"ranged_mobs.mask", 17, 3, "ranged_mobs.mask[17] holds 3, neither"},
      {"mob_projectiles.type_id", 2, 0xFFFFFFFFu, "mob_projectiles.type_id[2] holds -1, no "
                                                  "projectile type (0 to 7)"},
      {"mob_projectile_directions", 53, 2, "mob_projectile_directions[53] holds 2, not -1, 0"},
      {"player_projectiles.health", 4, 0x7F800000u, "player_projectiles.health[4] holds inf"},
      {"player_projectile_directions", 0, 0xFFFFFFFEu,
       "player_projectile_directions[0] holds -2, not -1, 0 or 1"},
      {"growing_plants_mask", 9, 2, "growing_plants_mask[9] holds 2"},
      {"potion_mapping", 3, 6, "potion_mapping[3] holds 6, no potion (0 to 5)"},
      {"learned_spells", 1, 2, "learned_spells[1] holds 2"},
      {"sword_enchantment", 0, 3, "sword_enchantment[0] holds 3, no enchantment (0 to 2)"},
      {"bow_enchantment", 0, 0xFFFFFFFFu, "bow_enchantment[0] holds -1, no enchantment"},
      {"armour_enchantments", 3, 3, "armour_enchantments[3] holds 3, no enchantment"},
      {"light_level", 0, 0x7FC00000u, "light_level[0] holds nan"},
      {"achievements", 66, 2, "achievements[66] holds 2, neither 0 nor 1"},
      {"timestep", 0, 0x7FFFFFFFu, "timestep[0] holds 2147483647, beyond 2**30"},
  };
  crafter_cx_state_to_words(&state, words);
  for (size_t n = 0; n < sizeof bad / sizeof bad[0]; n++) {
    long at = word_of(bad[n].field);
    if (at < 0) {
      ok(0, "a field named %s", bad[n].field);
      continue;
    }
    uint32_t kept = words[at + bad[n].index];
    words[at + bad[n].index] = bad[n].word;
    memset(&spare, 0x5A, sizeof spare);
    before = spare;
    char error[200] = "";
    int got = crafter_cx_state_from_words(&spare, words, error, sizeof error);
    ok(got == -1 && strncmp(error, bad[n].said, strlen(bad[n].said)) == 0 &&
           memcmp(&spare, &before, sizeof spare) == 0,
       "%s[%ld] = %08x refused, the state untouched: %s", bad[n].field, bad[n].index,
       bad[n].word, error);
    words[at + bad[n].index] = kept;
  }
  /* A potion twice in the mapping. */
  long at = word_of("potion_mapping");
  uint32_t kept = words[at + 1];
  words[at + 1] = words[at];
  memset(&spare, 0x5A, sizeof spare);
  before = spare;
  char error[200] = "";
  ok(crafter_cx_state_from_words(&spare, words, error, sizeof error) == -1 &&
         strstr(error, "potion_mapping") && memcmp(&spare, &before, sizeof spare) == 0,
     "a potion mapping that is no permutation is refused: %s", error);
  words[at + 1] = kept;
  /* The edges that are states: accepted. */
  static const struct {
    const char *field;
    long index;
    uint32_t word;
  } edges[] = {{"map", 5, 36}, {"item_map", 5, 4}, {"player_level", 0, 8},
               {"player_position", 0, 47}, {"player_direction", 0, 0},
               {"light_map", 9, 0x4E800000u /* 2**30 */}, {"monsters_killed", 0, 0x40000000u},
               {"mob_projectile_directions", 0, 0xFFFFFFFFu}, {"state_rng", 1, 0xFFFFFFFFu},
               {"passive_mobs.type_id", 0, 2}, {"melee_mobs.type_id", 0, 7}};
  for (size_t n = 0; n < sizeof edges / sizeof edges[0]; n++) {
    long first = word_of(edges[n].field);
    uint32_t old = words[first + edges[n].index];
    words[first + edges[n].index] = edges[n].word;
    int got = crafter_cx_state_from_words(&spare, words, error, sizeof error);
    crafter_cx_state_to_words(&spare, expected);
    ok(got == 0 && expected[first + edges[n].index] == edges[n].word,
       "%s[%ld] = %08x (%g as a float) is taken and kept", edges[n].field, edges[n].index,
       edges[n].word, (double)real_of(edges[n].word));
    words[first + edges[n].index] = old;
  }
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--crc") == 0) return crc_mode(argc, argv);
  if (argc >= 3 && strcmp(argv[1], "--words") == 0) return play(argc, argv);
  if (argc == 2 && strcmp(argv[1], "--read") == 0) return read_mode();
  if (argc == 2 && strcmp(argv[1], "--fields") == 0) return fields_mode();

  long count = reference_words(&state, expected, 0);
  ok(count == CRAFTER_CX_STATE_WORDS, "CRAFTER_CX_STATE_WORDS (%d) is the reference's count %ld",
     CRAFTER_CX_STATE_WORDS, count);
  long within;
  const char *name = crafter_cx_word_field(0, &within);
  ok(name && strcmp(name, "map") == 0 && within == 0, "word 0 is map[0]");
  name = crafter_cx_word_field(CRAFTER_CX_STATE_WORDS - 1, &within);
  ok(name && strcmp(name, "timestep") == 0 && within == 0, "the last word is timestep");
  ok(crafter_cx_word_field(CRAFTER_CX_STATE_WORDS, &within) == NULL &&
         crafter_cx_word_field(-1, &within) == NULL,
     "no field beyond the words");
  name = crafter_cx_word_field(word_of("ranged_mobs.position") + 35, &within);
  ok(name && strcmp(name, "ranged_mobs.position") == 0 && within == 35 &&
         strcmp(crafter_cx_word_field(word_of("ranged_mobs.position") + 36, &within),
                "ranged_mobs.health") == 0,
     "the ranged creatures' positions are 36 words (two slots of nine floors)");

  /* Generated and stepped states: seeds 0 to 5, 500 random actions each
   * (deaths and resets among them), every 10th state and every reset's. */
  int states = 0, equal = 0, resets = 0;
  char first_bad[400] = "";
  uint32_t rng = 12345;
  for (long seed = 0; seed < 6; seed++) {
    crafter_jaxkey key;
    crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
    if (crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &state) != 0) return 1;
    for (int t = 0; t <= 500; t++) {
      int done = 0;
      if (t > 0) {
        rng = rng * 1103515245u + 12345u;
        float reward;
        crafter_cx_env_step(&state, crafter_cx_schedule_next(&key),
                            (int)((rng >> 16) % CRAFTER_CX_ACTIONS), &reward, &done);
        resets += done;
      }
      if (t % 10 != 0 && !done) continue;
      char why[300];
      states++;
      if (round_trip(&state, why, sizeof why))
        equal++;
      else if (!first_bad[0])
        snprintf(first_bad, sizeof first_bad, "seed %ld step %d: %s", seed, t, why);
    }
  }
  ok(equal == states, "%d of %d generated and stepped states (%d resets) go to words equal to "
                      "the reference's and back byte for byte%s%s",
     equal, states, resets, first_bad[0] ? ": " : "", first_bad);

  /* States with every field moved off its start: the crafted kinds of
   * values, each slot used. */
  crafter_cx_state_to_words(&state, words);
  state.player_level = 8;
  state.player_direction = 4;
  state.is_resting = 1;
  state.inventory.potions[5] = 9;
  state.ranged_mobs.mask[8][1] = 1;
  state.ranged_mobs.type_id[8][1] = 7;
  state.ranged_mobs.health[8][1] = -3.25f;
  state.mob_projectile_directions[8][2][1] = -1;
  state.armour_enchantments[3] = 2;
  state.learned_spells[1] = 1;
  state.achievements[66] = 1;
  state.state_rng.word[0] = 0xDEADBEEFu;
  state.light_map[8][47][47] = 0.5f;
  char why[300] = "";
  ok(round_trip(&state, why, sizeof why), "a state with the last slot of each kind of value set "
                                          "round-trips%s%s", why[0] ? ": " : "", why);

  if (argc >= 2)
    jax_states(argv[1]);
  else
    skip("no file of JAX's states named");
  refusals();
  return tap_done();
}
