/* Craftax's world generation (lib/game/cx_worldgen.c) against the states
 * JAX made.
 *
 *   test-cx-worldgen FILE.gz          every seed's hashes in FILE
 *   test-cx-worldgen --dump S...      every field of each seed's state,
 *                                     for tests/cx-worlds.t
 *   test-cx-worldgen --hashes S N     the hashes of seeds S..S+N-1, as
 *                                     FILE has them
 *   test-cx-worldgen --speed N        worlds generated per second
 *
 * FILE has a line 'S STATE F0 F1 ... F8' per seed S: the CRC-32 of the
 * first state of Craftax for that seed and of each of its nine floors,
 * as tests/reference/craftax_full_worlds.py computes them (its docstring
 * says which words, in which order; cx_state_words.h makes the same
 * lists).  tests/unit-cx-worldgen.t runs it on
 * tests/data/craftax/cx-worlds.txt.gz (seeds 0..9999, 540 KB: ten hashes
 * a seed), recorded with the pinned
 * reference, craftax 1.6.1 on jax and jaxlib 0.10.1 (the packages of
 * tests/reference/requirements-craftax.txt, in a virtual environment
 * VENV):
 *
 *   VENV/bin/python tests/reference/craftax_full_worlds.py --hashes 0 10000 >w
 *   gzip -9n <w > tests/data/craftax/cx-worlds.txt.gz
 *
 * No expected value is written here: all come from the file.  Each floor
 * is counted on its own, so that a floor that does not match yet is said
 * by name.  Every way of computing the build has (the plain paths, each
 * level of kernels) must make the same states; and two ways JAX does not
 * compute (crafter_cx_arith) must each fail some: true division, all of
 * the first 500 seeds, on the four floors whose ladder up lights a
 * torch's square (the gnomish and troll mines, the ice and boss levels);
 * no fused multiply-add, tried on the first 3,500 seeds, 3 of them
 * (2022, 2974, 3170; of all 10,000 seeds 23 differ: the overworld 15,
 * the gnomish mines 4, the ice level 2, the troll mines and the fire
 * level 1). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "cx_state_words.h"
#include "game/cx_worldgen.h"
#include "kernels/kernels.h"
#include "tap.h"

static const char *const floor_names[CRAFTER_CX_LEVELS] = {
    "the overworld", "the dungeon", "the gnomish mines", "the sewers", "the vaults",
    "the troll mines", "the fire level", "the ice level", "the boss level"};

static void generate(int64_t seed, crafter_cx_state *state) {
  if (crafter_cx_generate_world(crafter_cx_reset_key(seed), state) != 0) {
    fprintf(stderr, "seed %" PRId64 ": out of memory\n", seed);
    exit(2);
  }
}

static int dump(int count, char **seeds) {
  static crafter_cx_state state;
  static struct cx_field f[CX_FIELDS];
  static char names[CX_FIELDS][48];
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    generate(seed, &state);
    int fields = cx_state_fields(&state, f, names);
    printf("seed %" PRId64 "\n", seed);
    for (int m = 0; m < fields; m++) {
      printf("%s %ld", f[m].name, f[m].count);
      for (long v = 0; v < f[m].count; v++) printf(" %" PRIu32, cx_word(&f[m], v));
      printf("\n");
    }
  }
  return ferror(stdout) ? 2 : 0;
}

static int hashes(int64_t first, long count) {
  static crafter_cx_state state;
  for (long k = 0; k < count; k++) {
    uint32_t whole, floors[CRAFTER_CX_LEVELS];
    generate(first + k, &state);
    cx_state_hashes(&state, &whole, floors);
    printf("%" PRId64 " %08" PRIx32, first + k, whole);
    for (int f = 0; f < CRAFTER_CX_LEVELS; f++) printf(" %08" PRIx32, floors[f]);
    printf("\n");
  }
  return ferror(stdout) ? 2 : 0;
}

static int speed(long count) {
  static crafter_cx_state state;
  struct timespec a, b;
  unsigned sink = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long seed = 0; seed < count; seed++) {
    generate(seed, &state);
    sink += state.map[1][0][0];
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double seconds = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
  printf("C: %ld worlds (nine floors each) in %.3f s, %.3f ms a world, %.0f worlds/s "
         "(with the key splits; %u)\n",
         count, seconds, 1000.0 * seconds / (double)count, (double)count / seconds, sink % 2);
  return 0;
}

#define MAX_SEEDS 100000

struct golden {
  int64_t seed;
  uint32_t whole, floors[CRAFTER_CX_LEVELS];
};

/* The file's lines into g[max]: how many, or -1 having said why not. */
static long read_golden(const char *path, struct golden *g, long max) {
  gzFile file = gzopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  long n = 0;
  char line[256];
  while (gzgets(file, line, sizeof line)) {
    struct golden *at = &g[n];
    if (n == max ||
        sscanf(line,
               "%" SCNd64 " %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32
               " %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32 " %" SCNx32,
               &at->seed, &at->whole, &at->floors[0], &at->floors[1], &at->floors[2],
               &at->floors[3], &at->floors[4], &at->floors[5], &at->floors[6], &at->floors[7],
               &at->floors[8]) != 11) {
      fprintf(stderr, "%s: line %ld is not 'SEED STATE F0 .. F8'\n", path, n + 1);
      gzclose(file);
      return -1;
    }
    n++;
  }
  gzclose(file);
  return n;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--dump") == 0) return dump(argc - 2, argv + 2);
  if (argc == 4 && strcmp(argv[1], "--hashes") == 0)
    return hashes(strtoll(argv[2], NULL, 10), atol(argv[3]));
  if (argc == 3 && strcmp(argv[1], "--speed") == 0) return speed(atol(argv[2]));
  if (argc != 2) {
    fprintf(stderr, "usage: test-cx-worldgen FILE.gz | --dump SEED... | --hashes FIRST N | "
                    "--speed N\n");
    return 2;
  }
  static struct golden g[MAX_SEEDS];
  long n = read_golden(argv[1], g, MAX_SEEDS);
  if (n < 0) return 2;
  ok(n >= 1000, "the file holds %ld seeds' hashes", n);

  static crafter_cx_state state;
  long wrong_floor[CRAFTER_CX_LEVELS] = {0}, wrong_whole = 0;
  int64_t first_floor[CRAFTER_CX_LEVELS] = {0}, first_whole = 0;
  for (long k = 0; k < n; k++) {
    uint32_t whole, floors[CRAFTER_CX_LEVELS];
    generate(g[k].seed, &state);
    cx_state_hashes(&state, &whole, floors);
    for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
      if (floors[f] != g[k].floors[f] && wrong_floor[f]++ == 0) first_floor[f] = g[k].seed;
    if (whole != g[k].whole && wrong_whole++ == 0) first_whole = g[k].seed;
  }
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++) {
    char first[40] = "none";
    if (wrong_floor[f]) snprintf(first, sizeof first, "%" PRId64, first_floor[f]);
    ok(wrong_floor[f] == 0,
       "floor %d (%s): %ld of %ld seeds' map, items, light and ladders hash as JAX's (first "
       "wrong seed: %s)", f, floor_names[f], n - wrong_floor[f], n, first);
  }
  char first[40] = "none";
  if (wrong_whole) snprintf(first, sizeof first, "%" PRId64, first_whole);
  ok(wrong_whole == 0, "%ld of %ld whole states made %s hash as JAX's (first wrong seed: %s)",
     n - wrong_whole, n, crafter_kernels_name(), first);

  /* Every way the build can compute them: the plain paths, and each
   * level of kernels this processor runs (the draws' vector lanes, the
   * cells' AVX2 and FMA clone), on the first seeds. */
  static const int levels[] = {0, 3, 4};
  const long some = n < 500 ? n : 500;
  for (int way = -1; way < (int)(sizeof levels / sizeof levels[0]); way++) {
    if (way < 0) {
      crafter_kernels_set_plain(1);
    } else {
      crafter_kernels_set_plain(0);
      if (crafter_kernels_set_level(levels[way]) != levels[way]) {
        skip("kernels of level %d: this processor or build does not run them", levels[way]);
        continue;
      }
    }
    long wrong = 0;
    for (long k = 0; k < some; k++) {
      uint32_t whole, floors[CRAFTER_CX_LEVELS];
      generate(g[k].seed, &state);
      cx_state_hashes(&state, &whole, floors);
      wrong += whole != g[k].whole;
    }
    ok(wrong == 0, "%s: %ld of %ld states hash as JAX's", crafter_kernels_name(), some - wrong,
       some);
  }
  crafter_kernels_set_level(-1);
  crafter_kernels_set_plain(-1);

  /* Ways JAX does not compute: each must fail some floors' hashes (said
   * per floor, for the first seeds). */
  static const struct {
    enum crafter_cx_arith arith;
    const char *what;
    long seeds; /* how many of the file's first seeds it is tried on */
  } wrong_ways[] = {
      {CRAFTER_CX_TRUE_DIVISION, "true division where XLA multiplies by 1/c", 500},
      {CRAFTER_CX_UNFUSED, "every product rounded, none fused", 3500}};
  for (size_t m = 0; m < sizeof wrong_ways / sizeof wrong_ways[0]; m++) {
    const long tried = n < wrong_ways[m].seeds ? n : wrong_ways[m].seeds;
    long differ = 0, per_floor[CRAFTER_CX_LEVELS] = {0};
    for (long k = 0; k < tried; k++) {
      uint32_t whole, floors[CRAFTER_CX_LEVELS];
      if (crafter_cx_generate_world_arith(crafter_cx_reset_key(g[k].seed), wrong_ways[m].arith,
                                          &state) != 0)
        exit(2);
      cx_state_hashes(&state, &whole, floors);
      differ += whole != g[k].whole;
      for (int f = 0; f < CRAFTER_CX_LEVELS; f++) per_floor[f] += floors[f] != g[k].floors[f];
    }
    char counts[160];
    int at = 0;
    for (int f = 0; f < CRAFTER_CX_LEVELS; f++)
      at += snprintf(counts + at, sizeof counts - (size_t)at, "%s%ld", f ? " " : "", per_floor[f]);
    ok(differ > 0, "with %s, %ld of the %ld states differ (floors 0..8: %s)", wrong_ways[m].what,
       differ, tried, counts);
  }
  return tap_done();
}
