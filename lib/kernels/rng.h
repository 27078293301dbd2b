/* rng: the random draws of numpy's legacy RandomState (MT19937) and the
 * Python hash that Crafter uses to derive world seeds.
 *
 * Promise: for the same seed, every function here returns bit for bit what
 * numpy 1.24's np.random.RandomState returns for the call named beside it,
 * and consumes the same number of 32-bit outputs of the generator. */
#ifndef CRAFTER_RNG_H
#define CRAFTER_RNG_H

#include <stdint.h>

#define CRAFTER_MT_N 624

typedef struct crafter_rng {
  uint32_t state[CRAFTER_MT_N];
  int position; /* next word of state to temper; CRAFTER_MT_N means regenerate */
} crafter_rng;

/* np.random.RandomState(seed) for 0 <= seed < 2**32. */
void crafter_rng_seed(crafter_rng *rng, uint32_t seed);

/* One tempered 32-bit output of MT19937. */
uint32_t crafter_rng_next_u32(crafter_rng *rng);

/* random_sample() / uniform(): a double in [0, 1) from 53 random bits. */
double crafter_rng_uniform(crafter_rng *rng);

/* The next draws uniform() would give, without drawing them: up to max,
 * as many as the words already generated hold (0 when they are used up).
 * crafter_rng_advance_words(rng, 2 * n) then takes n of them. */
int crafter_rng_peek_uniform(const crafter_rng *rng, double *out, int max);
static inline void crafter_rng_advance_words(crafter_rng *rng, int words) {
  rng->position += words;
}

/* MT19937's tempering of a word of state. */
static inline uint32_t crafter_rng_temper(uint32_t y) {
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

/* numpy's 53-bit double from two tempered words: 27 high bits, then 26. */
static inline double crafter_rng_double_of(uint32_t first, uint32_t second) {
  return ((int32_t)(first >> 5) * 67108864.0 + (int32_t)(second >> 6)) / 9007199254740992.0;
}

/* The same draws, inline, for loops that draw often. */
void crafter_rng_regenerate(crafter_rng *rng);
static inline uint32_t crafter_rng_word_inline(crafter_rng *rng) {
  if (rng->position >= CRAFTER_MT_N) crafter_rng_regenerate(rng);
  return crafter_rng_temper(rng->state[rng->position++]);
}
static inline double crafter_rng_uniform_inline(crafter_rng *rng) {
  uint32_t first = crafter_rng_word_inline(rng);
  return crafter_rng_double_of(first, crafter_rng_word_inline(rng));
}

/* uniform(low, high): low + (high - low) * random_sample(). */
double crafter_rng_uniform_range(crafter_rng *rng, double low, double high);

/* uniform(low, high, count): count draws of uniform(low, high) into out,
 * in order; the same values as that many calls, made faster. */
void crafter_rng_fill_uniform(crafter_rng *rng, double low, double high, double *out, long count);

/* randint(low, high) for an int64 result in [low, high): numpy's legacy
 * masked rejection sampling; a range of one value consumes nothing. */
int64_t crafter_rng_randint(crafter_rng *rng, int64_t low, int64_t high);

/* crafter_rng_randint(rng, low, high), inline for the game's small
 * ranges (a direction, a cell or a creature of a chunk): the same masked
 * rejection on single words; ranges past 2**32 go to the function. */
static inline int64_t crafter_rng_randint_inline(crafter_rng *rng, int64_t low, int64_t high) {
  uint64_t range = (uint64_t)high - (uint64_t)low - 1U;
  if (high <= low || range == 0) return low;
  if (range >= 0xffffffffU) return crafter_rng_randint(rng, low, high);
  uint32_t mask = 0xffffffffU >> __builtin_clz((uint32_t)range);
  uint32_t value;
  do {
    value = crafter_rng_word_inline(rng) & mask;
  } while (value > range);
  return (int64_t)((uint64_t)low + value);
}

/* Advance the generator as count calls of uniform() would, without
 * computing the doubles. */
void crafter_rng_skip_uniform(crafter_rng *rng, long count);

/* Python 3's hash() of an int (64-bit build). */
int64_t crafter_py_hash_int(int64_t value);

/* Python 3.8+'s hash((first, second)) of a tuple of two ints. */
int64_t crafter_py_hash_pair(int64_t first, int64_t second);

/* Crafter's world seed: hash((seed, episode)) % (2**31 - 1). */
int64_t crafter_world_seed(int64_t seed, int64_t episode);

/* splitmix64 (Steele, Lea and Flood): the constant its state advances
 * by, and its output function, which mixes every bit of a 64-bit value
 * into about half of the result's.  The toolkit's own draws (goals,
 * levels) use them; Crafter's draws are MT19937's. */
#define CRAFTER_SPLITMIX_GAMMA 0x9e3779b97f4a7c15ULL
static inline uint64_t crafter_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

#endif
