#include "kernels/rng.h"

#include <string.h>

#include "kernels/kernels.h"

void crafter_rng_seed(crafter_rng *rng, uint32_t seed) {
  rng->state[0] = seed;
  for (int i = 1; i < CRAFTER_MT_N; i++) {
    uint32_t previous = rng->state[i - 1];
    rng->state[i] = 1812433253U * (previous ^ (previous >> 30)) + (uint32_t)i;
  }
  rng->position = CRAFTER_MT_N;
}

/* MT19937's twist, a word at a time as the algorithm is written: the
 * plain path, which every copy of the kernel must equal. */
static void twist_plain(uint32_t *mt) {
  for (int i = 0; i < CRAFTER_MT_N; i++) {
    uint32_t y = (mt[i] & 0x80000000U) | (mt[(i + 1) % CRAFTER_MT_N] & 0x7fffffffU);
    mt[i] = mt[(i + 397) % CRAFTER_MT_N] ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
  }
}

/* One twist of the whole state, by the kernels of this processor
 * (rng_kernels.c: sixteen words at a time where it has the registers),
 * or the plain way (CRAFTER_KERNELS=plain). */
static void regenerate(crafter_rng *rng) {
  if (crafter_kernels_plain())
    twist_plain(rng->state);
  else
    crafter_kernels_twist()(rng->state);
  rng->position = 0;
}

void crafter_rng_regenerate(crafter_rng *rng) { regenerate(rng); }

/* One tempered output (rng.h). */
static inline uint32_t next_word(crafter_rng *rng) { return crafter_rng_word_inline(rng); }

/* uniform(): a double from the next two words (rng.h). */
static inline double next_double(crafter_rng *rng) { return crafter_rng_uniform_inline(rng); }

uint32_t crafter_rng_next_u32(crafter_rng *rng) { return next_word(rng); }

/* 16 draws from 32 words, by the vector kernel of this processor, or one
 * after another (CRAFTER_KERNELS=plain). */
static void peek16(const uint32_t *words, double *out) {
  if (!crafter_kernels_plain()) {
    crafter_kernels_peek16()(words, out);
    return;
  }
  for (int i = 0; i < 16; i++)
    out[i] = crafter_rng_double_of(crafter_rng_temper(words[2 * i]),
                                   crafter_rng_temper(words[2 * i + 1]));
}

int crafter_rng_peek_uniform(const crafter_rng *rng, double *out, int max) {
  int available = (CRAFTER_MT_N - rng->position) / 2;
  int count = available < max ? available : max;
  const uint32_t *words = rng->state + rng->position;
  int i = 0;
  for (; i + 16 <= count; i += 16) peek16(words + 2 * i, out + i);
  for (; i < count; i++)
    out[i] = crafter_rng_double_of(crafter_rng_temper(words[2 * i]),
                                   crafter_rng_temper(words[2 * i + 1]));
  return count;
}

double crafter_rng_uniform(crafter_rng *rng) { return next_double(rng); }

double crafter_rng_uniform_range(crafter_rng *rng, double low, double high) {
  return low + (high - low) * crafter_rng_uniform(rng);
}

void crafter_rng_fill_uniform(crafter_rng *rng, double low, double high, double *out, long count) {
  double scale = high - low;
  long i = 0;
  while (i < count) {
    /* Whole runs of 16 from the words already made, then one at a time
     * (which makes more words when they run out). */
    if (count - i >= 16 && CRAFTER_MT_N - rng->position >= 32) {
      peek16(rng->state + rng->position, out + i);
      rng->position += 32;
      for (int k = 0; k < 16; k++) out[i + k] = low + scale * out[i + k];
      i += 16;
    } else {
      out[i++] = low + scale * next_double(rng);
    }
  }
}

static uint64_t mask_covering(uint64_t range) {
  uint64_t mask = range;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

int64_t crafter_rng_randint(crafter_rng *rng, int64_t low, int64_t high) {
  /* numpy draws from the closed range [low, high - 1]. */
  uint64_t range = (uint64_t)high - (uint64_t)low - 1U;
  if (high <= low || range == 0) return low;
  uint64_t mask = mask_covering(range);
  uint64_t value;
  if (range <= 0xffffffffU) {
    if (range == 0xffffffffU) return (int64_t)((uint64_t)low + crafter_rng_next_u32(rng));
    do {
      value = crafter_rng_next_u32(rng) & mask;
    } while (value > range);
  } else {
    do {
      uint64_t upper = crafter_rng_next_u32(rng);
      uint64_t lower = crafter_rng_next_u32(rng);
      value = ((upper << 32) | lower) & mask;
    } while (value > range);
  }
  return (int64_t)((uint64_t)low + value);
}

void crafter_rng_skip_uniform(crafter_rng *rng, long count) {
  /* Each double takes two words; tempering is not needed to advance. */
  long words = 2 * count;
  while (words > 0) {
    if (rng->position >= CRAFTER_MT_N) regenerate(rng);
    long available = CRAFTER_MT_N - rng->position;
    long take = words < available ? words : available;
    rng->position += (int)take;
    words -= take;
  }
}

int64_t crafter_py_hash_int(int64_t value) {
  const uint64_t modulus = (1ULL << 61) - 1;
  int negative = value < 0;
  uint64_t magnitude = negative ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  int64_t hash = (int64_t)(magnitude % modulus);
  if (negative) hash = -hash;
  return hash == -1 ? -2 : hash;
}

int64_t crafter_py_hash_pair(int64_t first, int64_t second) {
  const uint64_t prime1 = 11400714785074694791ULL;
  const uint64_t prime2 = 14029467366897019727ULL;
  const uint64_t prime5 = 2870177450012600261ULL;
  int64_t items[2] = {first, second};
  uint64_t accumulator = prime5;
  for (int i = 0; i < 2; i++) {
    uint64_t lane = (uint64_t)crafter_py_hash_int(items[i]);
    accumulator += lane * prime2;
    accumulator = (accumulator << 31) | (accumulator >> 33);
    accumulator *= prime1;
  }
  accumulator += 2U ^ (prime5 ^ 3527539ULL);
  if (accumulator == UINT64_MAX) return 1546275796;
  return (int64_t)accumulator;
}

int64_t crafter_world_seed(int64_t seed, int64_t episode) {
  const int64_t modulus = 2147483647; /* 2**31 - 1 */
  int64_t remainder = crafter_py_hash_pair(seed, episode) % modulus;
  return remainder < 0 ? remainder + modulus : remainder;
}
