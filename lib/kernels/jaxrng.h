/* jaxrng: JAX's random draws, as jax.random computes them on the CPU with
 * its defaults: 32-bit types (jax_enable_x64 off), the threefry2x32
 * generator, the partitionable layout of its counters
 * (jax_threefry_partitionable on, as jax 0.10 has it by default).
 *
 * Promise: every function returns bit for bit what the jax.random call
 * named beside it returns (measured against jax 0.10.1 and 0.10.2 on x86-64;
 * tests/unit/test-jaxrng.c and tests/jaxrng.t).  A key is JAX's legacy
 * uint32[2] key, the array jax.random.PRNGKey returns.
 *
 * Shapes: with the partitionable layout, element i of a draw of any shape
 * (its index in row-major order, numpy's C order) depends on the key and
 * i alone, never on the shape.  So every draw here fills `count` values
 * in row-major order, and a draw of shape (a, b) is the draw of count
 * a * b, element [r][c] at index r * b + c; a scalar draw (shape ()) is
 * element 0 of any draw.  Nothing here keeps state between calls. */
#ifndef CRAFTER_JAXRNG_H
#define CRAFTER_JAXRNG_H

#include <stdint.h>

typedef struct crafter_jaxkey {
  uint32_t word[2]; /* key[0] and key[1] of the uint32[2] array */
} crafter_jaxkey;

/* jax.random.PRNGKey(seed) for a Python int seed, -2**63 <= seed < 2**63
 * (JAX refuses others).  With 64-bit types off JAX keeps only the low 32
 * bits: the key is (0, seed mod 2**32), so -1 gives (0, 0xffffffff) and
 * 2**32 + 5 gives (0, 5). */
crafter_jaxkey crafter_jax_key(int64_t seed);

/* The threefry2x32 hash (20 rounds) of the counter pair (x[0], x[1])
 * under key, in place: jax.random's threefry2x32_p primitive. */
void crafter_jax_threefry2x32(crafter_jaxkey key, uint32_t x[2]);

/* crafter_jax_threefry2x32 inline, its rounds written out, for callers
 * that hash often: two calls in a row run side by side. */
static inline uint32_t crafter_jax_rotate_left(uint32_t v, unsigned by) {
  return (v << by) | (v >> (32U - by));
}
#define CRAFTER_JAX_ROUND(a, b, by) \
  (a) += (b);                       \
  (b) = crafter_jax_rotate_left((b), (by)) ^ (a)
static inline void crafter_jax_threefry2x32_inline(crafter_jaxkey key, uint32_t x[2]) {
  const uint32_t k0 = key.word[0], k1 = key.word[1], k2 = k0 ^ k1 ^ 0x1BD11BDAU;
  uint32_t a = x[0] + k0, b = x[1] + k1;
  CRAFTER_JAX_ROUND(a, b, 13); CRAFTER_JAX_ROUND(a, b, 15);
  CRAFTER_JAX_ROUND(a, b, 26); CRAFTER_JAX_ROUND(a, b, 6);
  a += k1, b += k2 + 1U;
  CRAFTER_JAX_ROUND(a, b, 17); CRAFTER_JAX_ROUND(a, b, 29);
  CRAFTER_JAX_ROUND(a, b, 16); CRAFTER_JAX_ROUND(a, b, 24);
  a += k2, b += k0 + 2U;
  CRAFTER_JAX_ROUND(a, b, 13); CRAFTER_JAX_ROUND(a, b, 15);
  CRAFTER_JAX_ROUND(a, b, 26); CRAFTER_JAX_ROUND(a, b, 6);
  a += k0, b += k1 + 3U;
  CRAFTER_JAX_ROUND(a, b, 17); CRAFTER_JAX_ROUND(a, b, 29);
  CRAFTER_JAX_ROUND(a, b, 16); CRAFTER_JAX_ROUND(a, b, 24);
  a += k1, b += k2 + 4U;
  CRAFTER_JAX_ROUND(a, b, 13); CRAFTER_JAX_ROUND(a, b, 15);
  CRAFTER_JAX_ROUND(a, b, 26); CRAFTER_JAX_ROUND(a, b, 6);
  a += k2, b += k0 + 5U;
  x[0] = a;
  x[1] = b;
}
#undef CRAFTER_JAX_ROUND

/* crafter_jax_split_one(key, index) for an index below 2**32, inline. */
static inline crafter_jaxkey crafter_jax_split_inline(crafter_jaxkey key, uint32_t index) {
  crafter_jaxkey out = {{0U, index}};
  crafter_jax_threefry2x32_inline(key, out.word);
  return out;
}

/* Eight threefry2x32 hashes at once, lane i hashing (x0[i], x1[i]) under
 * the key (k0[i], k1[i]), in place; in vector registers for the kernels'
 * `level` (crafter_kernels_level() of kernels/kernels.h, which the caller
 * gives: 4 AVX-512, 3 AVX2, else plain C), on x86-64 builds with those
 * kernels. */
enum { CRAFTER_JAX_LANES = 8 };
void crafter_jax_threefry2x32_lanes(int level, const uint32_t k0[CRAFTER_JAX_LANES],
                                    const uint32_t k1[CRAFTER_JAX_LANES],
                                    uint32_t x0[CRAFTER_JAX_LANES], uint32_t x1[CRAFTER_JAX_LANES]);

/* crafter_jax_threefry2x32_lanes for CRAFTER_JAX_WIDE lanes at once: two
 * 512-bit registers side by side with AVX-512, four 256-bit ones with
 * AVX2, plain vectors otherwise.  Each lane costs less than in eight
 * lanes, for callers that have that many hashes at hand. */
enum { CRAFTER_JAX_WIDE = 32 };
void crafter_jax_threefry2x32_wide(int level, const uint32_t k0[CRAFTER_JAX_WIDE],
                                   const uint32_t k1[CRAFTER_JAX_WIDE],
                                   uint32_t x0[CRAFTER_JAX_WIDE], uint32_t x1[CRAFTER_JAX_WIDE]);

/* Two rows of CRAFTER_JAX_PAIR keys hashed at once, the way a split or a
 * draw's element 0 hashes them: lane i of the first row hashes the
 * counter (0, ca) under the key (ak0[i], ak1[i]) into (ax0[i], ax1[i]),
 * lane i of the second (0, cb) under (bk0[i], bk1[i]) into (bx0[i],
 * bx1[i]).  Every key is read before a result is written, so a row's
 * results may replace its keys (or the other row's).  The lanes of
 * crafter_jax_threefry2x32_wide at the kernels' `level`, without the
 * copies into and out of its arrays. */
enum { CRAFTER_JAX_PAIR = CRAFTER_JAX_WIDE / 2 };
void crafter_jax_threefry2x32_pair(int level, const uint32_t *ak0, const uint32_t *ak1,
                                   uint32_t ca, const uint32_t *bk0, const uint32_t *bk1,
                                   uint32_t cb, uint32_t *ax0, uint32_t *ax1, uint32_t *bx0,
                                   uint32_t *bx1);

/* Key number `index` of jax.random.split(key, shape), the keys in
 * row-major order: for split(key, n), keys[index]; for split(key, (a, b)),
 * keys[index / b][index % b].  It is the hash of the counter
 * (index >> 32, index mod 2**32). */
crafter_jaxkey crafter_jax_split_one(crafter_jaxkey key, uint64_t index);

/* jax.random.split(key, count) (count >= 1; any shape, flattened): the
 * keys in order into out[count].  `key, sub = split(key)` is
 * crafter_jax_split(key, pair, 2), key = pair[0], sub = pair[1]. */
void crafter_jax_split(crafter_jaxkey key, crafter_jaxkey *out, long count);

/* jax.random.fold_in(key, data) for a 32-bit data (a Python int is
 * taken mod 2**32, as JAX's uint32 conversion does). */
crafter_jaxkey crafter_jax_fold_in(crafter_jaxkey key, uint32_t data);

/* Element `index` of jax.random.bits(key, shape, dtype=uint32)
 * (= the random bits every 32-bit sampler starts from): the two words of
 * the hash of (index >> 32, index mod 2**32), exclusive-or'ed. */
uint32_t crafter_jax_bits_at(crafter_jaxkey key, uint64_t index);

/* jax.random.bits(key, shape, uint32) with count = prod(shape) elements,
 * row-major, into out[count]. */
void crafter_jax_bits(crafter_jaxkey key, uint32_t *out, long count);

/* The float32 uniform of one word of random bits: the high 23 bits as
 * the mantissa of a number in [1, 2), minus 1 (a multiple of 2**-23 in
 * [0, 1)), then scaled as jax.random.uniform computes it on the CPU:
 * u * (maxval - minval) + minval as one fused multiply-add, rounded once
 * (rounded twice, 121 of the 5,236 uniform values of the golden file
 * differ), and never below minval.  Bounds 0 and 1 are exact either way. */
float crafter_jax_uniform_of_bits(uint32_t bits, float minval, float maxval);

/* crafter_jax_uniform_of_bits(bits, 0, 1), inline: the multiply-add of
 * u * 1 + 0 gives u itself. */
static inline float crafter_jax_unit_of_bits(uint32_t bits) {
  union {
    uint32_t word;
    float value;
  } one_to_two = {(bits >> 9) | 0x3F800000U};
  return one_to_two.value - 1.0f;
}

/* jax.random.uniform(key, shape, float32, minval, maxval), count =
 * prod(shape) values in row-major order; the defaults are minval 0,
 * maxval 1.  Python float bounds are rounded to float32 first, as JAX
 * does; pass them so rounded. */
void crafter_jax_uniform(crafter_jaxkey key, float *out, long count, float minval, float maxval);

/* jax.random.uniform(key) (shape (), float32, in [0, 1)). */
float crafter_jax_uniform1(crafter_jaxkey key);

/* jax.random.randint(key, shape, minval, maxval) with dtype int32 (the
 * default without 64-bit types), count = prod(shape) values, row-major.
 * JAX's own algorithm: the key is split in two; the first key's bits
 * (high) and the second's (low), each reduced mod the span, combine as
 * (high * (2**32 mod span) + low) mod span, in uint32 arithmetic; span
 * is maxval - minval (1 when maxval <= minval, so minval is returned).
 * Bounds are int32, as JAX requires of Python ints there. */
void crafter_jax_randint(crafter_jaxkey key, int32_t *out, long count, int32_t minval, int32_t maxval);

/* Element `index` of jax.random.randint(key, shape, minval, maxval) for
 * any shape of more than `index` elements: what crafter_jax_randint puts
 * at out[index], without the elements before it. */
int32_t crafter_jax_randint_at(crafter_jaxkey key, uint64_t index, int32_t minval,
                               int32_t maxval);

/* jax.random.randint(key, (), minval, maxval) (int32). */
int32_t crafter_jax_randint1(crafter_jaxkey key, int32_t minval, int32_t maxval);

/* jax.random.choice(key, a, shape) with replace=True and no p: the
 * indices of the chosen elements of a's first axis (n of them; a = n
 * chooses the indices themselves), count = prod(shape), row-major.  It is
 * randint(key, shape, 0, n); choice of an array a is a[index] (a row of
 * a for a 2-D a, as choice(key, DIRECTIONS[1:5]) takes). */
void crafter_jax_choice(crafter_jaxkey key, int32_t n, int32_t *out, long count);

/* jnp.cumsum(x) of n float32 values, as XLA's CPU compiler computes it:
 * up to 16 values, a running sum; past 16, the values are cut into tiles
 * of 16 (the last padded with zeros), each tile summed running, and each
 * tile's sums added the sum of the tiles before it (an exclusive scan of
 * the tile totals, itself computed this way).  out may not alias x.
 * Returns 0, or -1 when memory for the tile totals cannot be had. */
int crafter_jax_cumsum(const float *x, long n, float *out);

/* jax.random.choice(key, a, shape, replace=True, p=p) given cumsum =
 * crafter_jax_cumsum(p) (n values): r = cumsum[n-1] * (1 - uniform) in
 * float32, and the index is jnp.searchsorted(cumsum, r) (side left, by
 * JAX's binary search of ceil(log2(n + 1)) steps).  count = prod(shape)
 * indices, row-major, into out.  p need not sum to one.  Keeping the
 * cumulative sum lets many draws from one p share it. */
void crafter_jax_choice_cumsum(crafter_jaxkey key, const float *cumsum, long n, int32_t *out,
                               long count);

/* The index crafter_jax_choice_cumsum draws from one word of random
 * bits (the bits of element i of its key's draw for index i). */
int32_t crafter_jax_choice_of_bits(uint32_t bits, const float *cumsum, long n);

/* jax.random.choice(key, a, shape, replace=True, p=p) for float32 p[n]:
 * indices as crafter_jax_choice gives them.  Returns 0, or -1 when memory
 * for the cumulative sum cannot be had. */
int crafter_jax_choice_p(crafter_jaxkey key, const float *p, long n, int32_t *out, long count);

/* jax.random.choice(key, a, shape, replace=True, p=m / m.sum()) for the
 * float32 mask m = (values == wanted) over values[n] (n >= 1), as Craftax
 * draws a cell of a kind: the indices crafter_jax_choice_p gives for that
 * p, without storing p or its cumulative sum.  p holds only 0 and
 * 1 / count, so the sum at an index follows from the count of wanted
 * values in its tile of 16 and the tiles' totals: a draw works out the
 * ceil(log2(n + 1)) sums its search probes.  With no value wanted p is
 * NaN everywhere and every index is n, as JAX's.  Returns 0, or -1 when
 * memory cannot be had (n past 4096). */
int crafter_jax_choice_equal(crafter_jaxkey key, const uint8_t *values, long n, uint8_t wanted,
                             int32_t *out, long count);

/* The cumulative sum crafter_jax_choice_equal works out, every element
 * of it into out[n]: crafter_jax_cumsum of that p, bit for bit (for the
 * tests).  Returns 0, or -1 when memory cannot be had. */
int crafter_jax_cumsum_equal(const uint8_t *values, long n, uint8_t wanted, float *out);

/* jax.random.bernoulli(key, p, shape) for a float32 p (mode 'low', the
 * default): uniform(key, shape) < p, as 0 or 1, count values row-major. */
void crafter_jax_bernoulli(crafter_jaxkey key, float p, uint8_t *out, long count);

#endif
