/* Craftax-Classic's world generation (lib/game/cc_worldgen.c) against the
 * states JAX made.
 *
 *   test-craftax-worldgen FILE.gz     every seed's hash in FILE
 *   test-craftax-worldgen --dump S... every field of each seed's state,
 *                                     for tests/craftax-worlds.t
 *   test-craftax-worldgen --speed N   worlds generated per second
 *
 * FILE has a line 'S HASH' per seed S: the CRC-32 of the first state of
 * Craftax-Classic for that seed, as tests/reference/craftax_worlds.py
 * computes it (its docstring says which words, in which order; fields()
 * below makes the same list).  tests/unit-craftax-worldgen.t runs it on
 * tests/data/craftax/worlds.txt.gz (seeds 0..9999, 75 KB), recorded with
 * the pinned reference, craftax 1.6.1 on jax and jaxlib 0.10.1 (the
 * packages of tests/reference/requirements-craftax.txt, jax and jaxlib
 * at 0.10.1, installed with pip --no-deps in a virtual environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_worlds.py --hashes 0 10000 \
 *       | gzip -9n > tests/data/craftax/worlds.txt.gz
 *
 * No expected value is written here: all come from the file.  Then every
 * world is generated two ways JAX does not compute (crafter_cc_arith), and
 * some of them must fail their hash (when the file was made: 5 worlds
 * with true division, 9 with no fused multiply-add). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cc_worldgen.h"
#include "seed_hashes.h"
#include "tap.h"

/* The state's fields as 32-bit words, in EnvState's order. */
struct words {
  uint32_t word[3 * CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE];
  long count;
  struct {
    const char *name;
    long start, count;
  } field[64];
  int fields;
};

static void begin(struct words *w, const char *name) {
  w->field[w->fields].name = name;
  w->field[w->fields].start = w->count;
  w->field[w->fields].count = 0;
  w->fields++;
}
static void put(struct words *w, uint32_t value) {
  w->word[w->count++] = value;
  w->field[w->fields - 1].count++;
}
static void put_i32(struct words *w, const char *name, const int32_t *v, long n) {
  begin(w, name);
  for (long k = 0; k < n; k++) put(w, (uint32_t)v[k]);
}
static void put_u8(struct words *w, const char *name, const uint8_t *v, long n) {
  begin(w, name);
  for (long k = 0; k < n; k++) put(w, v[k]);
}
static void put_f32(struct words *w, const char *name, float v) {
  uint32_t bits;
  memcpy(&bits, &v, sizeof bits);
  begin(w, name);
  put(w, bits);
}

#define MOB_FIELDS(kind) {kind ".position", kind ".health", kind ".mask", kind ".attack_cooldown"}

static void put_mobs(struct words *w, const char *const name[4], const crafter_cc_mobs *m,
                     int slots) {
  put_i32(w, name[0], &m->position[0][0], 2L * slots);
  put_i32(w, name[1], m->health, slots);
  put_u8(w, name[2], m->mask, slots);
  put_i32(w, name[3], m->attack_cooldown, slots);
}

static void fields(const crafter_cc_state *s, struct words *w) {
  static const char *const inventory[CRAFTER_CC_INVENTORY] = {
      "inventory.wood", "inventory.stone", "inventory.coal", "inventory.iron",
      "inventory.diamond", "inventory.sapling", "inventory.wood_pickaxe",
      "inventory.stone_pickaxe", "inventory.iron_pickaxe", "inventory.wood_sword",
      "inventory.stone_sword", "inventory.iron_sword"};
  static const char *const zombies[4] = MOB_FIELDS("zombies"), *const cows[4] = MOB_FIELDS("cows"),
                           *const skeletons[4] = MOB_FIELDS("skeletons"),
                           *const arrows[4] = MOB_FIELDS("arrows");
  const long cells = (long)CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE;
  w->count = 0;
  w->fields = 0;
  put_u8(w, "map", &s->map[0][0], cells);
  put_u8(w, "mob_map", &s->mob_map[0][0], cells);
  put_i32(w, "player_position", s->player_position, 2);
  put_i32(w, "player_direction", &s->player_direction, 1);
  put_i32(w, "player_health", &s->player_health, 1);
  put_i32(w, "player_food", &s->player_food, 1);
  put_i32(w, "player_drink", &s->player_drink, 1);
  put_i32(w, "player_energy", &s->player_energy, 1);
  put_u8(w, "is_sleeping", &s->is_sleeping, 1);
  put_f32(w, "player_recover", s->player_recover);
  put_f32(w, "player_hunger", s->player_hunger);
  put_f32(w, "player_thirst", s->player_thirst);
  put_f32(w, "player_fatigue", s->player_fatigue);
  for (int k = 0; k < CRAFTER_CC_INVENTORY; k++) put_i32(w, inventory[k], &s->inventory[k], 1);
  put_mobs(w, zombies, &s->zombies, CRAFTER_CC_MAX_ZOMBIES);
  put_mobs(w, cows, &s->cows, CRAFTER_CC_MAX_COWS);
  put_mobs(w, skeletons, &s->skeletons, CRAFTER_CC_MAX_SKELETONS);
  put_mobs(w, arrows, &s->arrows, CRAFTER_CC_MAX_ARROWS);
  put_i32(w, "arrow_directions", &s->arrow_directions[0][0], 2L * CRAFTER_CC_MAX_ARROWS);
  put_i32(w, "growing_plants_positions", &s->growing_plants_positions[0][0],
          2L * CRAFTER_CC_MAX_PLANTS);
  put_i32(w, "growing_plants_age", s->growing_plants_age, CRAFTER_CC_MAX_PLANTS);
  put_u8(w, "growing_plants_mask", s->growing_plants_mask, CRAFTER_CC_MAX_PLANTS);
  put_f32(w, "light_level", s->light_level);
  put_u8(w, "achievements", s->achievements, CRAFTER_CC_ACHIEVEMENTS);
  begin(w, "state_rng");
  put(w, s->state_rng.word[0]);
  put(w, s->state_rng.word[1]);
  put_i32(w, "timestep", &s->timestep, 1);
}

static uint32_t state_hash(const crafter_cc_state *s, struct words *w) {
  fields(s, w);
  uint8_t bytes[4];
  uint32_t crc = 0;
  for (long k = 0; k < w->count; k++) {
    for (int b = 0; b < 4; b++) bytes[b] = (uint8_t)(w->word[k] >> (8 * b));
    crc = crafter_crc32_update(crc, bytes, 4);
  }
  return crc;
}

static int generate(int64_t seed, enum crafter_cc_arith arith, crafter_cc_state *state) {
  if (crafter_cc_generate_world_arith(crafter_cc_reset_key(seed), arith, state) != 0) {
    fprintf(stderr, "seed %" PRId64 ": out of memory\n", seed);
    exit(2);
  }
  return 0;
}

static int dump(int count, char **seeds) {
  static crafter_cc_state state;
  static struct words w;
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    generate(seed, CRAFTER_CC_AS_JAX, &state);
    fields(&state, &w);
    printf("seed %" PRId64 "\n", seed);
    for (int f = 0; f < w.fields; f++) {
      printf("%s %ld", w.field[f].name, w.field[f].count);
      for (long v = 0; v < w.field[f].count; v++) printf(" %" PRIu32, w.word[w.field[f].start + v]);
      printf("\n");
    }
  }
  return ferror(stdout) ? 2 : 0;
}

static int speed(long count) {
  static crafter_cc_state state;
  struct timespec a, b;
  unsigned sink = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long seed = 0; seed < count; seed++) {
    generate(seed, CRAFTER_CC_AS_JAX, &state);
    sink += state.map[0][0];
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double seconds = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
  printf("C: %ld worlds in %.3f s, %.0f worlds/s (with the key splits; %u)\n", count, seconds,
         (double)count / seconds, sink % 2);
  return 0;
}

#define MAX_SEEDS 100000

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--dump") == 0) return dump(argc - 2, argv + 2);
  if (argc == 3 && strcmp(argv[1], "--speed") == 0) return speed(atol(argv[2]));
  if (argc != 2) {
    fprintf(stderr, "usage: test-craftax-worldgen FILE.gz | --dump SEED... | --speed N\n");
    return 2;
  }
  static int64_t seeds[MAX_SEEDS];
  static uint32_t hashes[MAX_SEEDS];
  long n = read_seed_hashes(argv[1], seeds, hashes, MAX_SEEDS);
  if (n < 0) return 2;

  static crafter_cc_state state;
  static struct words w;
  long wrong = 0;
  int64_t first_wrong = 0;
  for (long k = 0; k < n; k++) {
    generate(seeds[k], CRAFTER_CC_AS_JAX, &state);
    if (state_hash(&state, &w) != hashes[k] && wrong++ == 0) first_wrong = seeds[k];
  }
  ok(n >= 2000, "the file holds %ld seeds' hashes", n);
  ok(wrong == 0, "%ld of %ld worlds hash as JAX's (first wrong seed: %s%" PRId64 ")", n - wrong, n,
     wrong ? "" : "none, ", first_wrong);

  /* Two ways JAX does not compute: each must fail some hashes. */
  static const struct {
    enum crafter_cc_arith arith;
    const char *what;
  } wrong_ways[] = {{CRAFTER_CC_TRUE_DIVISION, "true division where XLA multiplies by 1/c"},
                    {CRAFTER_CC_UNFUSED, "every product rounded, none fused"}};
  long tried = n;
  for (size_t m = 0; m < sizeof wrong_ways / sizeof wrong_ways[0]; m++) {
    long differ = 0;
    for (long k = 0; k < tried; k++) {
      generate(seeds[k], wrong_ways[m].arith, &state);
      differ += state_hash(&state, &w) != hashes[k];
    }
    ok(differ > 0, "with %s, %ld of the %ld worlds differ", wrong_ways[m].what, differ,
       tried);
  }
  return tap_done();
}
