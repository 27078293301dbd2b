/* The random draws against numpy.  Every expected value below was printed
 * by numpy 1.24.2 (np.random.RandomState, legacy seeding) and CPython 3.11
 * (hash of tuples); doubles are given as C hex floats, exact. */
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/rng.h"
#include "tap.h"

int main(void) {
  crafter_rng rng;

  /* RandomState(42).uniform() three times. */
  crafter_rng_seed(&rng, 42);
  double u1 = crafter_rng_uniform(&rng), u2 = crafter_rng_uniform(&rng);
  double u3 = crafter_rng_uniform(&rng);
  ok(u1 == 0x1.7f8771e5f51ecp-2 && u2 == 0x1.e6c4068bbd654p-1 && u3 == 0x1.76c7e8f1e6751p-1,
     "uniform() of RandomState(42)");

  /* RandomState(0).randint(0, 4) twelve times. */
  static const int expected_dirs[12] = {0, 3, 1, 0, 3, 3, 3, 3, 1, 3, 1, 2};
  crafter_rng_seed(&rng, 0);
  int same = 1;
  for (int i = 0; i < 12; i++) same &= crafter_rng_randint(&rng, 0, 4) == expected_dirs[i];
  ok(same, "randint(0, 4) of RandomState(0)");

  /* RandomState(12345): randint(0, 2**31-1), uniform(), randint(0, 1)
   * (draws nothing), uniform(), randint(0, 37), uniform(32, 127),
   * randint(5, 2**40) (64-bit masked path). */
  crafter_rng_seed(&rng, 12345);
  ok(crafter_rng_randint(&rng, 0, 2147483647) == 1845187042, "randint(0, 2**31-1)");
  ok(crafter_rng_uniform(&rng) == 0x1.c7c25bd43f7f4p-1, "uniform() after randint");
  ok(crafter_rng_randint(&rng, 0, 1) == 0, "randint(0, 1) is 0");
  ok(crafter_rng_uniform(&rng) == 0x1.0bb0442f154d8p-3, "randint(0, 1) consumed nothing");
  ok(crafter_rng_randint(&rng, 0, 37) == 34, "randint(0, 37) with rejection");
  ok(crafter_rng_uniform_range(&rng, 32, 127) == 0x1.624e96b56cbabp+6, "uniform(32, 127)");
  ok(crafter_rng_randint(&rng, 5, 1LL << 40) == 508790099318LL, "randint(5, 2**40)");

  /* Skipping: RandomState(7) after 1000 uniform() draws, and after the
   * 63x49 noise block of a night frame. */
  crafter_rng_seed(&rng, 7);
  crafter_rng_skip_uniform(&rng, 1000);
  ok(crafter_rng_uniform(&rng) == 0x1.572fda3d37988p-4, "skip 1000 uniform draws");
  crafter_rng_seed(&rng, 7);
  crafter_rng_skip_uniform(&rng, 63 * 49);
  ok(crafter_rng_uniform(&rng) == 0x1.114b95a154998p-1, "skip 3087 uniform draws");
  crafter_rng rng_walk;
  crafter_rng_seed(&rng_walk, 7);
  for (int i = 0; i < 63 * 49; i++) crafter_rng_uniform(&rng_walk);
  crafter_rng_seed(&rng, 7);
  crafter_rng_skip_uniform(&rng, 63 * 49);
  ok(crafter_rng_next_u32(&rng) == crafter_rng_next_u32(&rng_walk),
     "skipping equals drawing");

  /* Filling equals drawing one by one: 5000 draws cross several twists. */
  static double filled[5000];
  crafter_rng_seed(&rng, 99);
  crafter_rng_fill_uniform(&rng, 32, 127, filled, 5000);
  crafter_rng_seed(&rng_walk, 99);
  int equal = 1;
  for (int i = 0; i < 5000; i++) equal &= filled[i] == crafter_rng_uniform_range(&rng_walk, 32, 127);
  ok(equal && crafter_rng_next_u32(&rng) == crafter_rng_next_u32(&rng_walk),
     "fill_uniform equals 5000 calls of uniform(32, 127)");

  /* Peeking gives the draws to come, without drawing: at the start of a
   * block of words, in its middle, at an odd word and at its very end. */
  {
    crafter_rng peeked, walked;
    crafter_rng_seed(&peeked, 7);
    int same = 1, counts_right = 1;
    const int skips[] = {0, 1, 100, 1, 150, 7};
    for (size_t k = 0; k < sizeof skips / sizeof *skips; k++) {
      for (int i = 0; i < skips[k]; i++) crafter_rng_next_u32(&peeked);
      walked = peeked;
      double ahead[400];
      int available = (CRAFTER_MT_N - peeked.position) / 2;
      int count = crafter_rng_peek_uniform(&peeked, ahead, 400);
      counts_right &= count == available;
      for (int i = 0; i < count; i++) same &= ahead[i] == crafter_rng_uniform(&walked);
      crafter_rng_advance_words(&peeked, 2 * count);
      same &= peeked.position == walked.position;
    }
    crafter_rng_seed(&peeked, 7);
    while (peeked.position < CRAFTER_MT_N) crafter_rng_next_u32(&peeked);
    double none[4];
    ok(same && counts_right && crafter_rng_peek_uniform(&peeked, none, 4) == 0,
       "peek_uniform gives what uniform() would draw, up to the end of the words made");
  }

  /* Every copy of the twist and of the sixteen-at-a-time draws
   * (rng_kernels.h) gives what the plain path (CRAFTER_KERNELS=plain: the
   * word-at-a-time twist, one uniform() after another) gives, which the
   * numpy values above hold to the reference. */
  {
    static double plain[20000], other[20000];
    crafter_kernels_set_plain(1);
    crafter_rng_seed(&rng, 2024);
    crafter_rng_fill_uniform(&rng, 0, 1, plain, 20000);
    crafter_kernels_set_plain(0);
    int best = crafter_kernels_set_level(-1);
    static const int levels[] = {0, 3, 4};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
      if (levels[l] > best) {
        skip("kernels of level %d: this processor or build does not run them", levels[l]);
        continue;
      }
      crafter_kernels_set_level(levels[l]);
      crafter_rng_seed(&rng, 2024);
      crafter_rng_fill_uniform(&rng, 0, 1, other, 20000);
      ok(memcmp(plain, other, sizeof plain) == 0,
         "the twist and the draws of kernel level %d give the plain path's values", levels[l]);
    }
    crafter_kernels_set_plain(-1);
  }

  /* Python's hash of two-int tuples, and Crafter's world seed. */
  ok(crafter_world_seed(1, 1) == 535231920, "hash((1, 1)) %% (2**31 - 1)");
  ok(crafter_py_hash_pair(0, 1) == -1950498447580522560LL, "hash((0, 1))");
  ok(crafter_py_hash_pair(-5, 3) == -4407243991241898740LL, "hash((-5, 3))");
  ok(crafter_py_hash_pair(1LL << 62, 7) == 7240152970870612422LL, "hash((2**62, 7))");
  ok(crafter_py_hash_pair(-1, -1) == 960947337673586213LL, "hash((-1, -1)), hash(-1) is -2");
  ok(crafter_py_hash_int(-1) == -2 && crafter_py_hash_int(5) == 5, "hash of ints");
  return tap_done();
}
