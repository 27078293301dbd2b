/* rng_kernels: MT19937's twist, a vector of words at a time, and numpy's
 * uniform draws, sixteen at a time (rng_kernels.h).  Compiled once per
 * instruction set (kernels.h), without contraction like every exact
 * module. */
#include "kernels/rng_kernels.h"

#include <string.h>

#include "kernels/variant.h"

typedef double v8d __attribute__((vector_size(64)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef uint32_t v16u __attribute__((vector_size(64)));
typedef int32_t v16s __attribute__((vector_size(64)));

/* ---- MT19937's twist, a vector of words at a time ----
 *
 * Skipping the night's noise draws makes the twist the engine's busiest
 * loop after world generation.  A word depends on the next one and on the
 * one 397 ahead, or, from word 227 on, on the one 227 behind, which this
 * twist has already made: a vector of fewer than 227 lanes never reaches
 * a word it writes.  Whole words, no arithmetic that rounds: every copy
 * gives numpy's words.
 *
 * As many lanes as this copy's registers hold (16 with AVX-512, 8 with
 * AVX2, 4 elsewhere): wider vectors are split by the compiler, and on
 * AVX2 a 16-lane twist ran at half the speed of an 8-lane one. */

#if defined(__AVX512F__)
#define TWIST_LANES 16
#elif defined(__AVX2__)
#define TWIST_LANES 8
#else
#define TWIST_LANES 4
#endif
typedef uint32_t twist_lanes __attribute__((vector_size(4 * TWIST_LANES)));

static inline uint32_t twist_word(uint32_t upper, uint32_t lower, uint32_t far) {
  uint32_t y = (upper & 0x80000000U) | (lower & 0x7fffffffU);
  return far ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
}

static inline void twist_run(uint32_t *mt, int i, int far) {
  twist_lanes upper, lower, distant;
  memcpy(&upper, mt + i, sizeof upper);
  memcpy(&lower, mt + i + 1, sizeof lower);
  memcpy(&distant, mt + far, sizeof distant);
  twist_lanes y = (upper & 0x80000000U) | (lower & 0x7fffffffU);
  twist_lanes result = distant ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
  memcpy(mt + i, &result, sizeof result);
}

void VARIANT(crafter_mt_twist)(uint32_t *mt) {
  enum { N = 624, M = 397, LANES = TWIST_LANES };
  int i = 0;
  for (; i + LANES <= N - M; i += LANES) twist_run(mt, i, i + M);
  for (; i < N - M; i++) mt[i] = twist_word(mt[i], mt[i + 1], mt[i + M]);
  for (; i + LANES <= N - 1; i += LANES) twist_run(mt, i, i + M - N);
  for (; i < N - 1; i++) mt[i] = twist_word(mt[i], mt[i + 1], mt[i + M - N]);
  mt[N - 1] = twist_word(mt[N - 1], mt[0], mt[M - 1]);
}

/* ---- Sixteen draws of numpy's random_sample at once ----
 *
 * crafter_rng_temper() and crafter_rng_double_of() lane by lane: whole
 * numbers, and doubles that are exact (below 2^53, scaled by a power of
 * two), so contraction changes nothing and every copy gives numpy's
 * values. */
void VARIANT(crafter_rng_peek16)(const uint32_t *words, double *out) {
  v16u tempered[2];
  memcpy(tempered, words, sizeof tempered);
  for (int h = 0; h < 2; h++) {
    v16u y = tempered[h];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    tempered[h] = y;
  }
  v16s first = (v16s)(__builtin_shufflevector(tempered[0], tempered[1], 0, 2, 4, 6, 8, 10, 12,
                                              14, 16, 18, 20, 22, 24, 26, 28, 30) >> 5);
  v16s second = (v16s)(__builtin_shufflevector(tempered[0], tempered[1], 1, 3, 5, 7, 9, 11, 13,
                                               15, 17, 19, 21, 23, 25, 27, 29, 31) >> 6);
  v8i a[2] = {__builtin_shufflevector(first, first, 0, 1, 2, 3, 4, 5, 6, 7),
              __builtin_shufflevector(first, first, 8, 9, 10, 11, 12, 13, 14, 15)};
  v8i b[2] = {__builtin_shufflevector(second, second, 0, 1, 2, 3, 4, 5, 6, 7),
              __builtin_shufflevector(second, second, 8, 9, 10, 11, 12, 13, 14, 15)};
  for (int h = 0; h < 2; h++) {
    v8d value = (__builtin_convertvector(a[h], v8d) * 67108864.0 +
                 __builtin_convertvector(b[h], v8d)) /
                9007199254740992.0;
    memcpy(out + 8 * h, &value, sizeof value);
  }
}
