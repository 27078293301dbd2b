#include "kernels/jaxrng.h"


#include <math.h>
#include <stdlib.h>
#include <string.h>

crafter_jaxkey crafter_jax_key(int64_t seed) {
  /* JAX turns the seed into an int32 (64-bit types off), then takes its
   * high word by a logical shift of 32, which XLA makes 0. */
  crafter_jaxkey key = {{0U, (uint32_t)(uint64_t)seed}};
  return key;
}

static inline uint32_t rotate_left(uint32_t v, unsigned by) { return (v << by) | (v >> (32U - by)); }

/* One round: mix, rotate, mix; four of them between key injections,
 * with the rotations of the odd groups (1, 3, 5) or of the even ones. */
#define ROUND(by)                \
  do {                           \
    a += b;                      \
    b = rotate_left(b, by) ^ a;  \
  } while (0)
#define FOUR_ODD_ROUNDS \
  ROUND(13);            \
  ROUND(15);            \
  ROUND(26);            \
  ROUND(6)
#define FOUR_EVEN_ROUNDS \
  ROUND(17);             \
  ROUND(29);             \
  ROUND(16);             \
  ROUND(24)

void crafter_jax_threefry2x32(crafter_jaxkey key, uint32_t x[2]) {
  /* The key schedule k0, k1, k2 = k0 ^ k1 ^ 0x1BD11BDA; after group g
   * (1 to 5) a gets k[g mod 3] and b gets k[(g + 1) mod 3] + g. */
  const uint32_t k0 = key.word[0], k1 = key.word[1], k2 = k0 ^ k1 ^ 0x1BD11BDAU;
  uint32_t a = x[0] + k0, b = x[1] + k1;
  FOUR_ODD_ROUNDS;
  a += k1;
  b += k2 + 1U;
  FOUR_EVEN_ROUNDS;
  a += k2;
  b += k0 + 2U;
  FOUR_ODD_ROUNDS;
  a += k0;
  b += k1 + 3U;
  FOUR_EVEN_ROUNDS;
  a += k1;
  b += k2 + 4U;
  FOUR_ODD_ROUNDS;
  a += k2;
  b += k0 + 5U;
  x[0] = a;
  x[1] = b;
}

/* Four lanes of 32-bit words (GCC's and Clang's vector extension: SSE2 on
 * x86-64, plain code where there is no such register). */
typedef uint32_t lanes4 __attribute__((vector_size(16)));

static inline lanes4 rotate_lanes(lanes4 v, unsigned by) { return (v << by) | (v >> (32U - by)); }

#define LANES_ROUND(by)                       \
  a0 += b0, a1 += b1;                         \
  b0 = rotate_lanes(b0, by) ^ a0, b1 = rotate_lanes(b1, by) ^ a1
#define LANES_FOUR(r0, r1, r2, r3) \
  LANES_ROUND(r0);                 \
  LANES_ROUND(r1);                 \
  LANES_ROUND(r2);                 \
  LANES_ROUND(r3)

static void lanes_plain(const uint32_t *k0, const uint32_t *k1, uint32_t *x0, uint32_t *x1) {
  lanes4 p0, p1, q0, q1, a0, a1, b0, b1;
  memcpy(&p0, k0, 16), memcpy(&p1, k0 + 4, 16), memcpy(&q0, k1, 16), memcpy(&q1, k1 + 4, 16);
  memcpy(&a0, x0, 16), memcpy(&a1, x0 + 4, 16), memcpy(&b0, x1, 16), memcpy(&b1, x1 + 4, 16);
  const lanes4 r0 = p0 ^ q0 ^ 0x1BD11BDAU, r1 = p1 ^ q1 ^ 0x1BD11BDAU;
  a0 += p0, a1 += p1, b0 += q0, b1 += q1;
  LANES_FOUR(13, 15, 26, 6);
  a0 += q0, a1 += q1, b0 += r0 + 1U, b1 += r1 + 1U;
  LANES_FOUR(17, 29, 16, 24);
  a0 += r0, a1 += r1, b0 += p0 + 2U, b1 += p1 + 2U;
  LANES_FOUR(13, 15, 26, 6);
  a0 += p0, a1 += p1, b0 += q0 + 3U, b1 += q1 + 3U;
  LANES_FOUR(17, 29, 16, 24);
  a0 += q0, a1 += q1, b0 += r0 + 4U, b1 += r1 + 4U;
  LANES_FOUR(13, 15, 26, 6);
  a0 += r0, a1 += r1, b0 += p0 + 5U, b1 += p1 + 5U;
  memcpy(x0, &a0, 16), memcpy(x0 + 4, &a1, 16), memcpy(x1, &b0, 16), memcpy(x1 + 4, &b1, 16);
}

#if defined(CRAFTER_FASTGEN_X86)
/* In builds with the x86-64-v3 and -v4 kernels: all eight lanes in one
 * 256-bit register, with AVX2 (a rotation three instructions) or AVX-512
 * (one, vprold), as the kernels' level says. */
typedef uint32_t lanes8 __attribute__((vector_size(32)));

#define LANES8_ROUND(by) \
  a += b;                \
  b = ((b << by) | (b >> (32U - by))) ^ a
#define LANES8_BODY                                                    \
  lanes8 p, q, a, b;                                                  \
  memcpy(&p, k0, 32), memcpy(&q, k1, 32), memcpy(&a, x0, 32), memcpy(&b, x1, 32); \
  const lanes8 r = p ^ q ^ 0x1BD11BDAU;                               \
  a += p, b += q;                                                     \
  LANES8_ROUND(13); LANES8_ROUND(15); LANES8_ROUND(26); LANES8_ROUND(6);  \
  a += q, b += r + 1U;                                                \
  LANES8_ROUND(17); LANES8_ROUND(29); LANES8_ROUND(16); LANES8_ROUND(24); \
  a += r, b += p + 2U;                                                \
  LANES8_ROUND(13); LANES8_ROUND(15); LANES8_ROUND(26); LANES8_ROUND(6);  \
  a += p, b += q + 3U;                                                \
  LANES8_ROUND(17); LANES8_ROUND(29); LANES8_ROUND(16); LANES8_ROUND(24); \
  a += q, b += r + 4U;                                                \
  LANES8_ROUND(13); LANES8_ROUND(15); LANES8_ROUND(26); LANES8_ROUND(6);  \
  a += r, b += p + 5U;                                                \
  memcpy(x0, &a, 32), memcpy(x1, &b, 32)

__attribute__((target("avx2"))) static void lanes_avx2(const uint32_t *k0, const uint32_t *k1,
                                                       uint32_t *x0, uint32_t *x1) {
  LANES8_BODY;
}

__attribute__((target("avx512f,avx512vl"))) static void lanes_avx512(const uint32_t *k0,
                                                                     const uint32_t *k1,
                                                                     uint32_t *x0, uint32_t *x1) {
  LANES8_BODY;
}
#endif

/* CRAFTER_JAX_WIDE lanes: V vectors of W lanes each, their rounds
 * interleaved so that the chains of dependent instructions of one vector
 * hide each other's latency. */
#define WIDE_ROUND(by)                                  \
  for (int v = 0; v < V; v++) {                         \
    a[v] += b[v];                                       \
    b[v] = ((b[v] << (by)) | (b[v] >> (32U - (by)))) ^ a[v]; \
  }
#define WIDE_FOUR(r0, r1, r2, r3) \
  WIDE_ROUND(r0);                 \
  WIDE_ROUND(r1);                 \
  WIDE_ROUND(r2);                 \
  WIDE_ROUND(r3)
#define WIDE_INJECT(x, y, g) \
  for (int v = 0; v < V; v++) a[v] += x[v], b[v] += y[v] + (g)
#define WIDE_BODY(vec)                                                              \
  enum { W = (int)(sizeof(vec) / 4), V = CRAFTER_JAX_WIDE / W };                   \
  vec p[V], q[V], r[V], a[V], b[V];                                                \
  for (int v = 0; v < V; v++) {                                                    \
    memcpy(&p[v], k0 + v * W, sizeof(vec)), memcpy(&q[v], k1 + v * W, sizeof(vec)); \
    memcpy(&a[v], x0 + v * W, sizeof(vec)), memcpy(&b[v], x1 + v * W, sizeof(vec)); \
    r[v] = p[v] ^ q[v] ^ 0x1BD11BDAU;                                              \
  }                                                                                \
  WIDE_INJECT(p, q, 0U);                                                           \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(q, r, 1U);                                                           \
  WIDE_FOUR(17, 29, 16, 24);                                                       \
  WIDE_INJECT(r, p, 2U);                                                           \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(p, q, 3U);                                                           \
  WIDE_FOUR(17, 29, 16, 24);                                                       \
  WIDE_INJECT(q, r, 4U);                                                           \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(r, p, 5U);                                                           \
  for (int v = 0; v < V; v++)                                                      \
  memcpy(x0 + v * W, &a[v], sizeof(vec)), memcpy(x1 + v * W, &b[v], sizeof(vec))

static void wide_plain(const uint32_t *k0, const uint32_t *k1, uint32_t *x0, uint32_t *x1) {
  WIDE_BODY(lanes4);
}

#if defined(CRAFTER_FASTGEN_X86)
__attribute__((target("avx2"))) static void wide_avx2(const uint32_t *k0, const uint32_t *k1,
                                                      uint32_t *x0, uint32_t *x1) {
  WIDE_BODY(lanes8);
}

typedef uint32_t lanes16 __attribute__((vector_size(64)));
__attribute__((target("avx512f"))) static void wide_avx512(const uint32_t *k0, const uint32_t *k1,
                                                           uint32_t *x0, uint32_t *x1) {
  WIDE_BODY(lanes16);
}
#endif

/* Two halves of CRAFTER_JAX_PAIR lanes: the first V / 2 vectors the
 * first half's keys with counter (0, ca), the others the second's with
 * (0, cb), every input read before an output is written (they may be the
 * same arrays). */
#define PAIR_BODY(vec)                                                              \
  enum { W = (int)(sizeof(vec) / 4), V = 2 * CRAFTER_JAX_PAIR / W, H = V / 2 };    \
  vec p[V], q[V], r[V], a[V], b[V];                                                \
  for (int v = 0; v < V; v++) {                                                    \
    const uint32_t *from0 = v < H ? ak0 + v * W : bk0 + (v - H) * W;              \
    const uint32_t *from1 = v < H ? ak1 + v * W : bk1 + (v - H) * W;              \
    memcpy(&p[v], from0, sizeof(vec)), memcpy(&q[v], from1, sizeof(vec));        \
    r[v] = p[v] ^ q[v] ^ 0x1BD11BDAU;                                              \
    a[v] = p[v];                                                                   \
    b[v] = q[v] + (v < H ? ca : cb);                                               \
  }                                                                                \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(q, r, 1U);                                                           \
  WIDE_FOUR(17, 29, 16, 24);                                                       \
  WIDE_INJECT(r, p, 2U);                                                           \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(p, q, 3U);                                                           \
  WIDE_FOUR(17, 29, 16, 24);                                                       \
  WIDE_INJECT(q, r, 4U);                                                           \
  WIDE_FOUR(13, 15, 26, 6);                                                        \
  WIDE_INJECT(r, p, 5U);                                                           \
  for (int v = 0; v < V; v++) {                                                    \
    uint32_t *to0 = v < H ? ax0 + v * W : bx0 + (v - H) * W;                      \
    uint32_t *to1 = v < H ? ax1 + v * W : bx1 + (v - H) * W;                      \
    memcpy(to0, &a[v], sizeof(vec)), memcpy(to1, &b[v], sizeof(vec));            \
  }

#define PAIR_PARAMETERS                                                                   \
  const uint32_t *ak0, const uint32_t *ak1, uint32_t ca, const uint32_t *bk0,             \
      const uint32_t *bk1, uint32_t cb, uint32_t *ax0, uint32_t *ax1, uint32_t *bx0,      \
      uint32_t *bx1

static void pair_plain(PAIR_PARAMETERS) { PAIR_BODY(lanes4); }

#if defined(CRAFTER_FASTGEN_X86)
__attribute__((target("avx2"))) static void pair_avx2(PAIR_PARAMETERS) { PAIR_BODY(lanes8); }
__attribute__((target("avx512f"))) static void pair_avx512(PAIR_PARAMETERS) {
  PAIR_BODY(lanes16);
}
#endif

void crafter_jax_threefry2x32_pair(int level, PAIR_PARAMETERS) {
#if defined(CRAFTER_FASTGEN_X86)
  if (level >= 4) {
    pair_avx512(ak0, ak1, ca, bk0, bk1, cb, ax0, ax1, bx0, bx1);
    return;
  }
  if (level >= 3) {
    pair_avx2(ak0, ak1, ca, bk0, bk1, cb, ax0, ax1, bx0, bx1);
    return;
  }
#else
  (void)level;
#endif
  pair_plain(ak0, ak1, ca, bk0, bk1, cb, ax0, ax1, bx0, bx1);
}

void crafter_jax_threefry2x32_wide(int level, const uint32_t k0[CRAFTER_JAX_WIDE],
                                   const uint32_t k1[CRAFTER_JAX_WIDE],
                                   uint32_t x0[CRAFTER_JAX_WIDE], uint32_t x1[CRAFTER_JAX_WIDE]) {
#if defined(CRAFTER_FASTGEN_X86)
  if (level >= 4) {
    wide_avx512(k0, k1, x0, x1);
    return;
  }
  if (level >= 3) {
    wide_avx2(k0, k1, x0, x1);
    return;
  }
#else
  (void)level;
#endif
  wide_plain(k0, k1, x0, x1);
}

void crafter_jax_threefry2x32_lanes(int level, const uint32_t k0[CRAFTER_JAX_LANES],
                                    const uint32_t k1[CRAFTER_JAX_LANES],
                                    uint32_t x0[CRAFTER_JAX_LANES], uint32_t x1[CRAFTER_JAX_LANES]) {
#if defined(CRAFTER_FASTGEN_X86)
  if (level >= 4) {
    lanes_avx512(k0, k1, x0, x1);
    return;
  }
  if (level >= 3) {
    lanes_avx2(k0, k1, x0, x1);
    return;
  }
#else
  (void)level;
#endif
  lanes_plain(k0, k1, x0, x1);
}

/* The hash of the partitionable layout's counter for element `index`:
 * the 64-bit index as (high word, low word). */
static inline void hash_index(crafter_jaxkey key, uint64_t index, uint32_t x[2]) {
  x[0] = (uint32_t)(index >> 32);
  x[1] = (uint32_t)index;
  crafter_jax_threefry2x32(key, x);
}

crafter_jaxkey crafter_jax_split_one(crafter_jaxkey key, uint64_t index) {
  crafter_jaxkey out;
  hash_index(key, index, out.word);
  return out;
}

void crafter_jax_split(crafter_jaxkey key, crafter_jaxkey *out, long count) {
  for (long i = 0; i < count; i++) out[i] = crafter_jax_split_one(key, (uint64_t)i);
}

crafter_jaxkey crafter_jax_fold_in(crafter_jaxkey key, uint32_t data) {
  /* The data becomes a key of its own, (0, data), and the pair is
   * hashed as one two-word counter. */
  crafter_jaxkey out = {{0U, data}};
  crafter_jax_threefry2x32(key, out.word);
  return out;
}

uint32_t crafter_jax_bits_at(crafter_jaxkey key, uint64_t index) {
  uint32_t x[2];
  hash_index(key, index, x);
  return x[0] ^ x[1];
}

void crafter_jax_bits(crafter_jaxkey key, uint32_t *out, long count) {
  for (long i = 0; i < count; i++) out[i] = crafter_jax_bits_at(key, (uint64_t)i);
}

float crafter_jax_uniform_of_bits(uint32_t bits, float minval, float maxval) {
  uint32_t mantissa = (bits >> 9) | 0x3F800000U;
  float one_to_two;
  memcpy(&one_to_two, &mantissa, sizeof one_to_two);
  float unit = one_to_two - 1.0f;
  /* XLA's CPU compiler fuses the scaling into one multiply-add, rounded
   * once. */
  float value = fmaf(unit, maxval - minval, minval);
  return value < minval ? minval : value;
}

void crafter_jax_uniform(crafter_jaxkey key, float *out, long count, float minval, float maxval) {
  for (long i = 0; i < count; i++)
    out[i] = crafter_jax_uniform_of_bits(crafter_jax_bits_at(key, (uint64_t)i), minval, maxval);
}

float crafter_jax_uniform1(crafter_jaxkey key) {
  return crafter_jax_uniform_of_bits(crafter_jax_bits_at(key, 0), 0.0f, 1.0f);
}

/* JAX's span and multiplier for [minval, maxval): the span as uint32
 * (1 for an empty range), and 2**32 mod span computed as (2**16 mod
 * span)**2 mod span. */
static void randint_span(int32_t minval, int32_t maxval, uint32_t *span, uint32_t *multiplier) {
  uint32_t s = maxval <= minval ? 1U : (uint32_t)maxval - (uint32_t)minval;
  uint32_t m = 65536U % s;
  *span = s;
  *multiplier = (m * m) % s;
}

static inline int32_t randint_of(uint32_t high, uint32_t low, int32_t minval, uint32_t span,
                                 uint32_t multiplier) {
  uint32_t offset = ((high % span) * multiplier + low % span) % span;
  return (int32_t)((uint32_t)minval + offset);
}

void crafter_jax_randint(crafter_jaxkey key, int32_t *out, long count, int32_t minval, int32_t maxval) {
  uint32_t span, multiplier;
  randint_span(minval, maxval, &span, &multiplier);
  if (multiplier == 0) { /* a span dividing 2**16: the high bits count for nothing */
    crafter_jaxkey low = crafter_jax_split_inline(key, 1);
    for (long i = 0; i < count; i++)
      out[i] = randint_of(0, crafter_jax_bits_at(low, (uint64_t)i), minval, span, 0);
    return;
  }
  crafter_jaxkey halves[2];
  crafter_jax_split(key, halves, 2);
  for (long i = 0; i < count; i++)
    out[i] = randint_of(crafter_jax_bits_at(halves[0], (uint64_t)i),
                        crafter_jax_bits_at(halves[1], (uint64_t)i), minval, span, multiplier);
}

int32_t crafter_jax_randint_at(crafter_jaxkey key, uint64_t index, int32_t minval,
                               int32_t maxval) {
  crafter_jaxkey halves[2];
  crafter_jax_split(key, halves, 2);
  uint32_t span, multiplier;
  randint_span(minval, maxval, &span, &multiplier);
  return randint_of(crafter_jax_bits_at(halves[0], index), crafter_jax_bits_at(halves[1], index),
                    minval, span, multiplier);
}

int32_t crafter_jax_randint1(crafter_jaxkey key, int32_t minval, int32_t maxval) {
  int32_t out;
  crafter_jax_randint(key, &out, 1, minval, maxval);
  return out;
}

void crafter_jax_choice(crafter_jaxkey key, int32_t n, int32_t *out, long count) {
  crafter_jax_randint(key, out, count, 0, n);
}

#define CUMSUM_TILE 16
/* Up to this many tiles (n up to 1024) the tile totals are kept on the
 * stack. */
#define CUMSUM_LOCAL_TILES 64

int crafter_jax_cumsum(const float *x, long n, float *out) {
  if (n <= 0) return 0;
  if (n <= CUMSUM_TILE) {
    float sum = 0.0f;
    for (long i = 0; i < n; i++) out[i] = sum = sum + x[i];
    return 0;
  }
  /* Each tile's running sums; the padding adds zeros, which changes no
   * sum, so the last tile's total is its last running sum. */
  long tiles = (n + CUMSUM_TILE - 1) / CUMSUM_TILE;
  float local[2 * CUMSUM_LOCAL_TILES];
  float *totals = tiles <= CUMSUM_LOCAL_TILES ? local : malloc(2 * (size_t)tiles * sizeof *totals);
  if (!totals) return -1;
  float *before = totals + tiles;
  for (long t = 0; t < tiles; t++) {
    long start = t * CUMSUM_TILE, end = start + CUMSUM_TILE < n ? start + CUMSUM_TILE : n;
    float sum = 0.0f;
    for (long i = start; i < end; i++) out[i] = sum = sum + x[i];
    totals[t] = sum;
  }
  /* The sum of the tiles before each: the totals' own cumulative sum
   * (computed the same way), shifted by one. */
  if (crafter_jax_cumsum(totals, tiles, before) != 0) {
    if (totals != local) free(totals);
    return -1;
  }
  for (long t = tiles - 1; t > 0; t--) before[t] = before[t - 1];
  before[0] = 0.0f;
  for (long t = 1; t < tiles; t++) {
    long start = t * CUMSUM_TILE, end = start + CUMSUM_TILE < n ? start + CUMSUM_TILE : n;
    for (long i = start; i < end; i++) out[i] = out[i] + before[t];
  }
  if (totals != local) free(totals);
  return 0;
}

/* jnp.searchsorted(sorted, value) (side left) by JAX's scan: a fixed
 * ceil(log2(n + 1)) halvings of [low, high), moving high down to mid
 * when value <= sorted[mid]; the answer is high. */
static int search_levels(long n) {
  int levels = 0;
  while (levels < 63 && ((uint64_t)1 << levels) < (uint64_t)n + 1U) levels++;
  return levels;
}

static int32_t search_left(const float *sorted, long n, float value) {
  int levels = search_levels(n);
  uint32_t low = 0, high = (uint32_t)n;
  for (int level = 0; level < levels; level++) {
    uint32_t mid = low + (high - low) / 2U;
    if (value <= sorted[mid])
      high = mid;
    else
      low = mid;
  }
  return (int32_t)high;
}

int32_t crafter_jax_choice_of_bits(uint32_t bits, const float *cumsum, long n) {
  float u = crafter_jax_uniform_of_bits(bits, 0.0f, 1.0f);
  float r = cumsum[n - 1] * (1.0f - u);
  return search_left(cumsum, n, r);
}

void crafter_jax_choice_cumsum(crafter_jaxkey key, const float *cumsum, long n, int32_t *out,
                               long count) {
  for (long i = 0; i < count; i++)
    out[i] = crafter_jax_choice_of_bits(crafter_jax_bits_at(key, (uint64_t)i), cumsum, n);
}

int crafter_jax_choice_p(crafter_jaxkey key, const float *p, long n, int32_t *out, long count) {
  float *cumsum = malloc((size_t)n * sizeof *cumsum);
  if (!cumsum || crafter_jax_cumsum(p, n, cumsum) != 0) {
    free(cumsum);
    return -1;
  }
  crafter_jax_choice_cumsum(key, cumsum, n, out, count);
  free(cumsum);
  return 0;
}

static int count_equal(const uint8_t *values, long n, uint8_t wanted) {
  int k = 0;
  for (long i = 0; i < n; i++) k += values[i] == wanted;
  return k;
}

/* count_equal of 16 values: the comparison of a vector of bytes, whose
 * ones (each 0 or 1) each half adds up by a multiplication (a byte's sum
 * is at most 8, no carry leaves it). */
static int count_equal16(const uint8_t *values, uint8_t wanted) {
  typedef uint8_t bytes16 __attribute__((vector_size(16)));
  bytes16 v;
  memcpy(&v, values, sizeof v);
  bytes16 ones = (bytes16)(v == wanted) & 1;
  uint64_t half[2];
  memcpy(half, &ones, sizeof half);
  const uint64_t bytes = 0x0101010101010101ULL;
  return (int)((half[0] * bytes) >> 56) + (int)((half[1] * bytes) >> 56);
}

/* The cumulative sum of p = m / count(m), m = (values == wanted) as
 * float32, as crafter_jax_cumsum makes it, known by its parts rather than
 * stored: p holds only 0 and q = 1 / count, adding 0 changes no sum, so
 * an element is the running sum of k copies of q, k the wanted values in
 * its tile up to it, plus (past the first tile, when there are several)
 * the sum of the tiles before its tile.  With nothing wanted p is 0 / 0,
 * NaN, and so is every sum. */
enum { MASK_LOCAL_TILES = 256 }; /* n up to 4096 needs no memory */
struct mask_cumsum {
  const uint8_t *values;
  uint8_t wanted;
  float running[CUMSUM_TILE + 1]; /* running[k]: q added k times, from 0 */
  float *before;                  /* before[t], the tiles before tile t */
  float *totals;                  /* local, or allocated for many tiles */
  float local[2 * MASK_LOCAL_TILES];
};

static void mask_cumsum_free(struct mask_cumsum *c) {
  if (c->totals != c->local) free(c->totals);
}

static int mask_cumsum_init(struct mask_cumsum *c, const uint8_t *values, long n,
                            uint8_t wanted) {
  long tiles = (n + CUMSUM_TILE - 1) / CUMSUM_TILE;
  c->values = values;
  c->wanted = wanted;
  c->totals = tiles <= MASK_LOCAL_TILES ? c->local : malloc(2 * (size_t)tiles * sizeof *c->totals);
  if (!c->totals) return -1;
  c->before = c->totals + tiles;
  /* Each tile's count of wanted values (exact as a float32), then its
   * total: the running sum of as many q.  The float32 sum of the mask,
   * count, is exact too (below 2**24). */
  long count = 0;
  for (long t = 0; t < tiles; t++) {
    long start = t * CUMSUM_TILE;
    int k = start + CUMSUM_TILE <= n ? count_equal16(values + start, wanted)
                                     : count_equal(values + start, n - start, wanted);
    c->totals[t] = (float)k;
    count += k;
  }
  /* With nothing wanted every p is 0 / 0: the NaN of that division
   * starts every sum. */
  float q = 1.0f / (float)count;
  c->running[0] = count ? 0.0f : 0.0f / (float)count;
  for (int k = 1; k <= CUMSUM_TILE; k++) c->running[k] = c->running[k - 1] + q;
  for (long t = 0; t < tiles; t++) c->totals[t] = c->running[(int)c->totals[t]];
  if (n > CUMSUM_TILE) {
    if (crafter_jax_cumsum(c->totals, tiles, c->before) != 0) {
      mask_cumsum_free(c);
      return -1;
    }
    for (long t = tiles - 1; t > 0; t--) c->before[t] = c->before[t - 1];
    c->before[0] = 0.0f;
  }
  return 0;
}

static float mask_cumsum_at(const struct mask_cumsum *c, long i) {
  long start = i / CUMSUM_TILE * CUMSUM_TILE;
  int k = count_equal(c->values + start, i - start + 1, c->wanted);
  float sum = c->running[k];
  return start > 0 ? sum + c->before[start / CUMSUM_TILE] : sum;
}

int crafter_jax_cumsum_equal(const uint8_t *values, long n, uint8_t wanted, float *out) {
  struct mask_cumsum c;
  if (mask_cumsum_init(&c, values, n, wanted) != 0) return -1;
  for (long i = 0; i < n; i++) out[i] = mask_cumsum_at(&c, i);
  mask_cumsum_free(&c);
  return 0;
}

int crafter_jax_choice_equal(crafter_jaxkey key, const uint8_t *values, long n, uint8_t wanted,
                             int32_t *out, long count) {
  struct mask_cumsum c;
  if (mask_cumsum_init(&c, values, n, wanted) != 0) return -1;
  /* As crafter_jax_choice_cumsum, each probe of the search computed.
   * With nothing wanted r is NaN, no comparison holds and the index is
   * n, as JAX's. */
  float total = mask_cumsum_at(&c, n - 1);
  int levels = search_levels(n);
  for (long i = 0; i < count; i++) {
    float u = crafter_jax_uniform_of_bits(crafter_jax_bits_at(key, (uint64_t)i), 0.0f, 1.0f);
    float r = total * (1.0f - u);
    uint32_t low = 0, high = (uint32_t)n;
    for (int level = 0; level < levels; level++) {
      uint32_t mid = low + (high - low) / 2U;
      if (r <= mask_cumsum_at(&c, (long)mid))
        high = mid;
      else
        low = mid;
    }
    out[i] = (int32_t)high;
  }
  mask_cumsum_free(&c);
  return 0;
}

void crafter_jax_bernoulli(crafter_jaxkey key, float p, uint8_t *out, long count) {
  for (long i = 0; i < count; i++)
    out[i] = crafter_jax_uniform_of_bits(crafter_jax_bits_at(key, (uint64_t)i), 0.0f, 1.0f) < p;
}
