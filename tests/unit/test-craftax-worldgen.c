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
 * computes it (its docstring says which words, in which order;
 * cc_state_words.h makes the same list).  tests/unit-craftax-worldgen.t
 * runs it on tests/data/craftax/worlds.txt.gz (seeds 0..9999, 75 KB),
 * recorded with the pinned reference, craftax 1.6.1 on jax and jaxlib
 * 0.10.1 (the packages of tests/reference/requirements-craftax.txt, jax
 * and jaxlib at 0.10.1, installed with pip --no-deps in a virtual
 * environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_worlds.py --hashes 0 10000 \
 *       | gzip -9n > tests/data/craftax/worlds.txt.gz
 *
 * No expected value is written here: all come from the file.  Then every
 * world is generated two ways JAX does not compute (crafter_cc_arith), and
 * some of them must fail their hash (6 worlds with true division, 9
 * with no fused multiply-add). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cc_worldgen.h"
#include "cc_state_words.h"
#include "seed_hashes.h"
#include "tap.h"

static uint32_t state_hash(const crafter_cc_state *s, struct cc_words *w) {
  cc_state_words(s, w);
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
  static struct cc_words w;
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    generate(seed, CRAFTER_CC_AS_JAX, &state);
    cc_state_words(&state, &w);
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
  static struct cc_words w;
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
