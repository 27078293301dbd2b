/* Craftax-Classic's world generation (lib/game/cc_worldgen.c) against the
 * states JAX made.
 *
 *   test-craftax-worldgen FILE.gz [ANGLES]
 *                                     every seed's hash in FILE, and the
 *                                     cosines and sines of the angles
 *   test-craftax-worldgen --dump S... every field of each seed's state,
 *                                     for tests/craftax-worlds.t
 *   test-craftax-worldgen --speed N   worlds generated per second
 *
 * FILE has a line 'S HASH' per seed S: the CRC-32 of the first state of
 * Craftax-Classic for that seed, as tests/reference/craftax_worlds.py
 * computes it (its docstring says which words, in which order;
 * cc_state_words.h makes the same list).  tests/unit-craftax-worldgen.t
 * runs it on tests/data/craftax/worlds.txt.gz (seeds 0..9999, 75 KB, and three
 * seeds whose worlds a live comparison found to need the map kernel's
 * multiply-add: -953919623, -1852304691, 94151603),
 * recorded with the pinned reference, craftax 1.6.1 on jax and jaxlib
 * 0.10.1 (the packages of tests/reference/requirements-craftax.txt, jax
 * and jaxlib at 0.10.1, installed with pip --no-deps in a virtual
 * environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_worlds.py --hashes 0 10000 >w
 *   for s in -953919623 -1852304691 94151603; do
 *     VENV/bin/python tests/reference/craftax_worlds.py --hashes $s 1 >>w
 *   done
 *   gzip -9n <w > tests/data/craftax/worlds.txt.gz
 *
 * No expected value is written here: all come from the file.  The worlds
 * are generated the fast way (the vector kernels of cc_kernels.h, unless
 * CRAFTER_KERNELS=plain) and the plain way, cell by cell.  Then every
 * world is generated two ways JAX does not compute (crafter_cc_arith), and
 * some of them must fail their hash (when the file was made: 6 worlds
 * with true division, 9 with no fused multiply-add).
 *
 * ANGLES (tests/data/craftax/angles.txt) holds the CRC-32 of JAX's
 * cosines and sines of the 2**23 angles the noise's 2 pi uniform can give,
 * printed by
 *
 *   VENV/bin/python tests/reference/craftax_worlds.py --angles
 *
 * Every copy of the kernels this processor runs (CRAFTER_KERNELS levels
 * 0, 3 and 4) computes them, and must hash as JAX's and equal the C
 * library's cosf and sinf, which the plain way calls; and every copy must
 * make the plain way's worlds for a thousand keys. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cc_worldgen.h"
#include "cc_state_words.h"
#include "kernels/cc_kernels.h"
#include "kernels/kernels.h"
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

/* How many of the seeds' worlds hash otherwise than the file says; the
 * first such seed into *first. */
static long wrong_hashes(const int64_t *seeds, const uint32_t *hashes, long n, int64_t *first) {
  static crafter_cc_state state;
  static struct cc_words w;
  long wrong = 0;
  for (long k = 0; k < n; k++) {
    generate(seeds[k], CRAFTER_CC_AS_JAX, &state);
    if (state_hash(&state, &w) != hashes[k] && wrong++ == 0) *first = seeds[k];
  }
  return wrong;
}

/* The levels of kernels there are, and whether this processor runs one
 * (said as a skip if not). */
static const int levels[] = {0, 3, 4};
enum { LEVELS = sizeof levels / sizeof levels[0] };

static int runs(int level) {
  crafter_kernels_set_plain(0);
  if (crafter_kernels_set_level(level) == level) return 1;
  skip("kernels of level %d: this processor or build does not run them", level);
  return 0;
}

static uint32_t crc_of_floats(uint32_t crc, const float *values, long n) {
  for (long k = 0; k < n; k++) {
    uint32_t bits;
    uint8_t bytes[4];
    memcpy(&bits, &values[k], sizeof bits);
    for (int b = 0; b < 4; b++) bytes[b] = (uint8_t)(bits >> (8 * b));
    crc = crafter_crc32_update(crc, bytes, 4);
  }
  return crc;
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every angle the noise can draw, 2 pi m 2**-23 in float32, by every
 * copy's sincos: the CRC-32 of the cosines and of the sines against
 * JAX's, and each value against the C library's.  Then the negated
 * angles (every 16th) and angles no draw gives (past 120, infinite, not
 * a number), which must still be the C library's. */
static void check_angles(const char *path) {
  uint32_t want_cos = 0, want_sin = 0;
  FILE *file = fopen(path, "r");
  int read = file && fscanf(file, "cos %" SCNx32 " sin %" SCNx32, &want_cos, &want_sin) == 2;
  if (file) fclose(file);
  ok(read, "%s holds JAX's 'cos HEX' and 'sin HEX'", path);
  if (!read) return;
  enum { BLOCK = 1 << 16, ALL = 1 << 23 };
  static float angle[BLOCK], cosine[BLOCK], sine[BLOCK];
  const float two_pi = (float)(2.0 * 3.141592653589793);
  for (int l = 0; l < LEVELS; l++) {
    if (!runs(levels[l])) continue;
    const crafter_cc_kernels *kernels = crafter_kernels_cc();
    uint32_t crc_cos = 0, crc_sin = 0;
    long differ = 0, tried = 0;
    for (long first = 0; first < ALL; first += BLOCK) {
      for (long m = 0; m < BLOCK; m++) angle[m] = two_pi * ((float)(first + m) * 0x1p-23f);
      kernels->sincos(angle, BLOCK, cosine, sine);
      crc_cos = crc_of_floats(crc_cos, cosine, BLOCK);
      crc_sin = crc_of_floats(crc_sin, sine, BLOCK);
      for (long m = 0; m < BLOCK; m++)
        differ += !same_bits(cosine[m], cosf(angle[m])) || !same_bits(sine[m], sinf(angle[m]));
      tried += BLOCK;
      /* The negated angles, every 16th. */
      long negated = 0;
      for (long m = 0; m < BLOCK; m += 16) angle[negated++] = -angle[m];
      kernels->sincos(angle, negated, cosine, sine);
      for (long m = 0; m < negated; m++)
        differ += !same_bits(cosine[m], cosf(angle[m])) || !same_bits(sine[m], sinf(angle[m]));
      tried += negated;
    }
    ok(crc_cos == want_cos && crc_sin == want_sin,
       "level %d: the cosines and sines of the 2**23 angles hash as JAX's (%08" PRIx32
       " and %08" PRIx32 ")", levels[l], crc_cos, crc_sin);
    const float odd[] = {119.99999f, 120.0f, -120.0f, 200.0f, -1e10f, 3e38f, 0x1p-13f, -0.0f,
                         0x1p-12f, 0.75f, INFINITY, -INFINITY, NAN};
    const long odd_count = sizeof odd / sizeof odd[0];
    float odd_cos[sizeof odd / sizeof odd[0]], odd_sin[sizeof odd / sizeof odd[0]];
    kernels->sincos(odd, odd_count, odd_cos, odd_sin);
    for (long m = 0; m < odd_count; m++)
      differ += !same_bits(odd_cos[m], cosf(odd[m])) || !same_bits(odd_sin[m], sinf(odd[m]));
    tried += odd_count;
    ok(differ == 0, "level %d: %ld of %ld angles' cosine and sine are the C library's", levels[l],
       tried - differ, tried);
  }
  crafter_kernels_set_plain(-1);
}

/* A key of no seed's: splitmix64 of k. */
static crafter_jaxkey some_key(uint64_t k) {
  uint64_t z = (k + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  crafter_jaxkey key = {{(uint32_t)(z >> 32), (uint32_t)z}};
  return key;
}

/* Every copy of the kernels makes the plain way's worlds, field for
 * field (the states are cleared whole first, padding too). */
static void check_levels(long keys) {
  static crafter_cc_state plain[1000], fast;
  if (keys > 1000) keys = 1000;
  crafter_kernels_set_plain(1);
  for (long k = 0; k < keys; k++)
    if (crafter_cc_generate_world(some_key((uint64_t)k), &plain[k]) != 0) exit(2);
  for (int l = 0; l < LEVELS; l++) {
    if (!runs(levels[l])) continue;
    long differ = 0, first = -1;
    for (long k = 0; k < keys; k++) {
      if (crafter_cc_generate_world(some_key((uint64_t)k), &fast) != 0) exit(2);
      if (memcmp(&fast, &plain[k], sizeof fast) != 0 && differ++ == 0) first = k;
    }
    char first_text[32] = "none";
    if (differ) snprintf(first_text, sizeof first_text, "key %ld", first);
    ok(differ == 0, "level %d (%s): %ld of %ld keys' worlds are the plain way's (first "
       "different: %s)", levels[l], crafter_kernels_name(), keys - differ, keys, first_text);
  }
  crafter_kernels_set_plain(-1);
}

#define MAX_SEEDS 100000

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--dump") == 0) return dump(argc - 2, argv + 2);
  if (argc == 3 && strcmp(argv[1], "--speed") == 0) return speed(atol(argv[2]));
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: test-craftax-worldgen FILE.gz [ANGLES] | --dump SEED... | --speed N\n");
    return 2;
  }
  static int64_t seeds[MAX_SEEDS];
  static uint32_t hashes[MAX_SEEDS];
  long n = read_seed_hashes(argv[1], seeds, hashes, MAX_SEEDS);
  if (n < 0) return 2;

  static crafter_cc_state state;
  static struct cc_words w;
  int64_t first_wrong = 0;
  ok(n >= 2000, "the file holds %ld seeds' hashes", n);
  const char *way = crafter_kernels_plain() ? "the plain way" : crafter_kernels_name();
  long wrong = wrong_hashes(seeds, hashes, n, &first_wrong);
  ok(wrong == 0, "%ld of %ld worlds made %s hash as JAX's (first wrong seed: %s%" PRId64 ")",
     n - wrong, n, way, wrong ? "" : "none, ", first_wrong);
  if (!crafter_kernels_plain()) {
    crafter_kernels_set_plain(1);
    wrong = wrong_hashes(seeds, hashes, n, &first_wrong);
    ok(wrong == 0, "%ld of %ld worlds made the plain way hash as JAX's (first wrong seed: "
       "%s%" PRId64 ")", n - wrong, n, wrong ? "" : "none, ", first_wrong);
    crafter_kernels_set_plain(-1);
  }

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

  if (argc == 3) check_angles(argv[2]);
  check_levels(1000);
  return tap_done();
}
