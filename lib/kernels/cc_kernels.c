/* cc_kernels: Craftax-Classic's world generation, a vector of cells at a
 * time (cc_kernels.h).
 *
 * Like shade.c this file is compiled once per instruction set, with
 * FASTGEN_SUFFIX naming the copy, and is exact: lane by lane it does what
 * cc_worldgen.c's plain path does for one cell, in the same order, and
 * the Makefile builds it without contraction, so that the only fused
 * multiply-adds are the explicit ones (XLA's).  A fused multiply-add is
 * rounded once wherever it runs, an instruction here or the C library's
 * fmaf in the portable copy: every copy gives the same bits.
 *
 * What makes it fast, besides the lanes: the cosines and sines of the
 * lattice's angles are computed in vectors, not by the C library one at a
 * time (below); the noise reads its lattice from rows laid out per
 * column, so that a vector of columns loads its four corners; the paths'
 * transpose is a transpose of bits; and the ores' and trees' uniforms are
 * drawn only for the cells that ask for them (stone for the ores, grass
 * in the woods for the trees), listed and hashed a vector at a time,
 * where the plain path's uniform(key, (64, 64)) has a value for every
 * cell: the partitionable layout makes a value depend on its key and its
 * cell alone (jaxrng.h). */
#include "kernels/cc_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "kernels/variant.h"

/* As many lanes as this copy's registers hold (16 with AVX-512, 8 with
 * AVX2, 4 elsewhere); passed only between static functions
 * (-Wno-psabi).  64 is a multiple of every width. */
#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX2__)
#define LANES 8
#else
#define LANES 4
#endif
typedef float vf __attribute__((vector_size(4 * LANES)));
typedef int32_t vi __attribute__((vector_size(4 * LANES)));
typedef uint32_t vu __attribute__((vector_size(4 * LANES)));

enum { SIDE = CRAFTER_CC_SIDE, CELLS = CRAFTER_CC_CELLS };

#define INLINE static inline __attribute__((always_inline, unused)) /* some copies use some */

INLINE vf load_f(const float *p) {
  vf v;
  memcpy(&v, p, sizeof v);
  return v;
}
INLINE void store_f(float *p, vf v) { memcpy(p, &v, sizeof v); }

INLINE vf splat_f(float x) { return (vf){0} + x; }
INLINE vi splat_i(int32_t x) { return (vi){0} + x; }

/* 0, 1, ..., LANES - 1. */
INLINE vu lane_numbers(void) {
  vu v;
  for (int k = 0; k < LANES; k++) v[k] = (uint32_t)k;
  return v;
}

/* mask ? a : b lane by lane, for masks of all ones or zeros. */
INLINE vi select_i(vi mask, vi a, vi b) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  /* One blend (with AVX-512 the compiler makes one of the bit
   * operations). */
  __m256i m, x, y;
  memcpy(&m, &mask, sizeof m);
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  __m256i r = _mm256_blendv_epi8(y, x, m);
  vi result;
  memcpy(&result, &r, sizeof result);
  return result;
#else
  return (mask & a) | (~mask & b);
#endif
}
INLINE vf select_f(vi mask, vf a, vf b) { return (vf)select_i(mask, (vi)a, (vi)b); }

/* value < lowest ? value : lowest, and value > highest ? value : highest,
 * lane by lane: what the minimum and maximum instructions compute. */
INLINE vf lower_of(vf value, vf lowest) {
#if defined(__AVX512F__)
  __m512 v, l;
  memcpy(&v, &value, sizeof v);
  memcpy(&l, &lowest, sizeof l);
  __m512 r = _mm512_min_ps(v, l);
#elif defined(__AVX2__)
  __m256 v, l;
  memcpy(&v, &value, sizeof v);
  memcpy(&l, &lowest, sizeof l);
  __m256 r = _mm256_min_ps(v, l);
#else
  vf r = select_f(value < lowest, value, lowest);
#endif
  vf result;
  memcpy(&result, &r, sizeof result);
  return result;
}
INLINE vf higher_of(vf value, vf highest) {
#if defined(__AVX512F__)
  __m512 v, h;
  memcpy(&v, &value, sizeof v);
  memcpy(&h, &highest, sizeof h);
  __m512 r = _mm512_max_ps(v, h);
#elif defined(__AVX2__)
  __m256 v, h;
  memcpy(&v, &value, sizeof v);
  memcpy(&h, &highest, sizeof h);
  __m256 r = _mm256_max_ps(v, h);
#else
  vf r = select_f(value > highest, value, highest);
#endif
  vf result;
  memcpy(&result, &r, sizeof result);
  return result;
}

/* The lanes, each from 0 to 255, as bytes at p. */
INLINE void store_bytes(uint8_t *p, vi lanes) {
#if defined(__AVX512F__)
  __m512i v;
  memcpy(&v, &lanes, sizeof v);
  _mm_storeu_si128((__m128i *)(void *)p, _mm512_cvtepi32_epi8(v));
#elif defined(__AVX2__)
  __m256i v;
  memcpy(&v, &lanes, sizeof v);
  __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi16(words, words));
#else
  for (int k = 0; k < LANES; k++) p[k] = (uint8_t)lanes[k];
#endif
}

/* a * b + c rounded once. */
INLINE vf fused(vf a, vf b, vf c) {
#if defined(__AVX512F__)
  __m512 x, y, z;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  memcpy(&z, &c, sizeof z);
  __m512 r = _mm512_fmadd_ps(x, y, z);
  vf result;
  memcpy(&result, &r, sizeof result);
  return result;
#elif defined(__AVX2__) && defined(__FMA__)
  __m256 x, y, z;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  memcpy(&z, &c, sizeof z);
  __m256 r = _mm256_fmadd_ps(x, y, z);
  vf result;
  memcpy(&result, &r, sizeof result);
  return result;
#else
  vf result;
  for (int k = 0; k < LANES; k++) result[k] = fmaf(a[k], b[k], c[k]);
  return result;
#endif
}

/* ---- threefry2x32, a vector of counters at a time ----
 *
 * crafter_jax_threefry2x32 lane by lane: 20 rounds of add, rotate and
 * exclusive-or on 32-bit words, with the key schedule injected every
 * four.  Whole words: every copy gives JAX's bits. */

INLINE vu rotate(vu v, int by) { return (v << by) | (v >> (32 - by)); }

#define MIX(by) \
  a += b;       \
  b = rotate(b, by) ^ a
#define FOUR_ODD MIX(13); MIX(15); MIX(26); MIX(6)
#define FOUR_EVEN MIX(17); MIX(29); MIX(16); MIX(24)

/* The bits of the counters (0, low[k]): the two words of each hash,
 * exclusive-or'ed (crafter_jax_bits_at). */
INLINE vu bits_of(crafter_jaxkey key, vu low) {
  const uint32_t k0 = key.word[0], k1 = key.word[1], k2 = k0 ^ k1 ^ 0x1BD11BDAU;
  vu a = (vu){0} + k0, b = low + k1;
  FOUR_ODD;
  a += k1;
  b += k2 + 1U;
  FOUR_EVEN;
  a += k2;
  b += k0 + 2U;
  FOUR_ODD;
  a += k0;
  b += k1 + 3U;
  FOUR_EVEN;
  a += k1;
  b += k2 + 4U;
  FOUR_ODD;
  a += k2;
  b += k0 + 5U;
  return a ^ b;
}

/* uniform(key, shape) in [0, 1) of the bits: the high 23 bits as the
 * mantissa of [1, 2), minus 1.  crafter_jax_uniform_of_bits scales that
 * by a multiply-add, u * 1 + 0, which changes nothing. */
INLINE vf unit_of(vu bits) {
  vu one_to_two = (bits >> 9) | 0x3F800000U;
  return (vf)one_to_two - 1.0f;
}

void VARIANT(crafter_cc_bits)(crafter_jaxkey key, uint32_t first, long count, uint32_t *out) {
  vu counter = lane_numbers() + first;
  long i = 0;
  for (; i + LANES <= count; i += LANES, counter += LANES) {
    vu bits = bits_of(key, counter);
    memcpy(out + i, &bits, sizeof bits);
  }
  if (i < count) {
    vu bits = bits_of(key, counter);
    memcpy(out + i, &bits, (size_t)(count - i) * sizeof *out);
  }
}

/* ---- The cosines and sines of the angles ----
 *
 * XLA's cos and sin of float32 are the C library's: over all 2**23
 * angles 2 pi uniform can take, jax 0.10.1's jnp.cos and jnp.sin give
 * glibc's cosf and sinf bit for bit (tests/unit/test-craftax-worldgen.c
 * holds the CRC-32 of JAX's values).  On a processor with fused
 * multiply-adds glibc computes them (its sincosf, from Arm's optimized
 * routines) in double precision: x below 120 in magnitude is reduced by
 * n quarter turns, n = ((int32)(x * 2**24 * 2 / pi) + 2**23) >> 24, to
 * r = x - n * pi / 2 (one fused multiply-add, pi / 2 a double); two
 * polynomials of r * r, with the coefficients below, give the sine and
 * the cosine of r, swapped and negated by the quadrant; the doubles are
 * rounded to float.  Below 2**-12 the sine is x and the cosine 1.  The
 * v3 and v4 copies do that in vectors of doubles, each fused
 * multiply-add where glibc's machine code has one (checked on every
 * angle against the C library); the portable copy, for processors
 * without them, calls cosf and sinf.  Angles past 120 (none here) go to
 * the C library in every copy. */

#if defined(__AVX2__) && defined(__FMA__)
#define VECTOR_SINCOS 1
#define DLANES (LANES / 2)
typedef double vd __attribute__((vector_size(8 * DLANES)));
typedef int64_t vl __attribute__((vector_size(8 * DLANES)));
typedef float vhf __attribute__((vector_size(4 * DLANES)));
typedef int32_t vhi __attribute__((vector_size(4 * DLANES)));

INLINE vd splat_d(double x) { return (vd){0} + x; }

/* a * b + c rounded once, in doubles. */
INLINE vd fused_d(vd a, vd b, vd c) {
#if defined(__AVX512F__)
  __m512d x, y, z;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  memcpy(&z, &c, sizeof z);
  __m512d r = _mm512_fmadd_pd(x, y, z);
#else
  __m256d x, y, z;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  memcpy(&z, &c, sizeof z);
  __m256d r = _mm256_fmadd_pd(x, y, z);
#endif
  vd result;
  memcpy(&result, &r, sizeof result);
  return result;
}

INLINE vd select_d(vl mask, vd a, vd b) { return (vd)((mask & (vl)a) | (~mask & (vl)b)); }

/* glibc's coefficients: the cosine's c0 .. c4, the sine's s1 .. s3 (the
 * sine's s0 is 1).  In the quadrants 2 and 3 the cosine's are negated. */
static const double c0 = 0x1p0, c1 = -0x1.ffffffd0c621cp-2, c2 = 0x1.55553e1068f19p-5,
                    c3 = -0x1.6c087e89a359dp-10, c4 = 0x1.99343027bf8c3p-16;
static const double s1 = -0x1.555545995a603p-3, s2 = 0x1.1107605230bc4p-7,
                    s3 = -0x1.994eb3774cf24p-13;
static const double quarter_turns = 0x1.45F306DC9C883p+23, /* 2 / pi, times 2**24 */
    quarter_turn = 0x1.921FB54442D18p0;                      /* pi / 2 */

/* The cosines and sines of DLANES angles below 120 in magnitude. */
INLINE void sincos_lanes(vhf angle, vhf *cosine, vhf *sine) {
  vd x = __builtin_convertvector(angle, vd);
  vhi n = (__builtin_convertvector(x * quarter_turns, vhi) + 0x800000) >> 24;
  vd r = fused_d(-__builtin_convertvector(n, vd), splat_d(quarter_turn), x);
  vl quadrant = __builtin_convertvector(n, vl);
  /* The sign bits that negate r (quadrants 1 and 2) and the cosine's
   * coefficients (quadrants 2 and 3). */
  vl negative = ((quadrant + 1) & 2) << 62, flipped = (quadrant & 2) << 62;
  vl odd = (quadrant & 1) != 0;
  vd xs = (vd)((vl)r ^ negative), x2 = r * r;
  vd k0 = (vd)((vl)splat_d(c0) ^ flipped), k1 = (vd)((vl)splat_d(c1) ^ flipped),
     k2 = (vd)((vl)splat_d(c2) ^ flipped), k3 = (vd)((vl)splat_d(c3) ^ flipped),
     k4 = (vd)((vl)splat_d(c4) ^ flipped);
  vd sine_high = fused_d(x2, splat_d(s3), splat_d(s2)), cosine_high = fused_d(x2, k4, k3);
  vd x3 = x2 * xs, x4 = x2 * x2, x5 = x2 * x3, x6 = x2 * x4;
  vd low = fused_d(x2, k1, k0);
  vd s = fused_d(x3, splat_d(s1), xs), c = fused_d(x4, k2, low);
  vd sine_poly = fused_d(sine_high, x5, s), cosine_poly = fused_d(cosine_high, x6, c);
  /* Odd quadrants swap the two. */
  vd sin_d = select_d(odd, cosine_poly, sine_poly), cos_d = select_d(odd, sine_poly, cosine_poly);
  vhf sin_f = __builtin_convertvector(sin_d, vhf), cos_f = __builtin_convertvector(cos_d, vhf);
  /* Below 2**-12 in magnitude: x and 1. */
  vhi tiny = (angle < 0x1p-12f) & (angle > -0x1p-12f);
  vhf one = (vhf){0} + 1.0f;
  *sine = (vhf)(((vhi)angle & tiny) | ((vhi)sin_f & ~tiny));
  *cosine = (vhf)(((vhi)one & tiny) | ((vhi)cos_f & ~tiny));
}
#endif

void VARIANT(crafter_cc_sincos)(const float *angle, long count, float *cosine, float *sine) {
  long i = 0;
#ifdef VECTOR_SINCOS
  for (; i + DLANES <= count; i += DLANES) {
    vhf a, c, s;
    memcpy(&a, angle + i, sizeof a);
    vhi inside = (a < 120.0f) & (a > -120.0f);
    int all_inside = 1;
    for (int k = 0; k < DLANES; k++) all_inside &= inside[k] != 0;
    if (!all_inside) {
      for (int k = 0; k < DLANES; k++) {
        cosine[i + k] = cosf(angle[i + k]);
        sine[i + k] = sinf(angle[i + k]);
      }
      continue;
    }
    sincos_lanes(a, &c, &s);
    memcpy(cosine + i, &c, sizeof c);
    memcpy(sine + i, &s, sizeof s);
  }
#endif
  for (; i < count; i++) {
    cosine[i] = cosf(angle[i]);
    sine[i] = sinf(angle[i]);
  }
}

/* ---- The noise ---- */

void VARIANT(crafter_cc_gradients)(crafter_jaxkey key, int count, float *cosine, float *sine) {
  const float two_pi = (float)(2.0 * 3.141592653589793);
  float angle[CRAFTER_CC_LATTICE_ROOM + LANES];
  vu counter = lane_numbers();
  for (int i = 0; i < count; i += LANES, counter += LANES)
    store_f(angle + i, two_pi * unit_of(bits_of(key, counter)));
  VARIANT(crafter_cc_sincos)(angle, count, cosine, sine);
}

/* interpolant(t) = t * t * t * (t * (t * 6 - 15) + 10), its two inner
 * multiply-adds fused. */
INLINE vf fade(vf t) {
  vf cube = t * t * t;
  return cube * fused(t, fused(t, splat_f(6.0f), splat_f(-15.0f)), splat_f(10.0f));
}

/* A row of the lattice laid out per column of the map: wide[k] is the
 * lattice point of the square holding column k, row[k / per_column], for
 * k up to 64 + per_column, so that wide + per_column is the next lattice
 * column.  A vector at a time: a square as wide as whole vectors is one
 * value repeated; narrower squares, with AVX2 or AVX-512, a permutation
 * of the lattice points the vector spans (lane k takes point
 * k / per_column of them, spread[k]). */
enum { WIDE = 2 * SIDE };

INLINE vf permute(vf v, vi index) {
#if defined(__AVX512F__)
  __m512 x;
  __m512i i;
  memcpy(&x, &v, sizeof x);
  memcpy(&i, &index, sizeof i);
  __m512 r = _mm512_permutexvar_ps(i, x);
#elif defined(__AVX2__)
  __m256 x;
  __m256i i;
  memcpy(&x, &v, sizeof x);
  memcpy(&i, &index, sizeof i);
  __m256 r = _mm256_permutevar8x32_ps(x, i);
#else
  vf r;
  for (int k = 0; k < LANES; k++) r[k] = v[index[k]];
#endif
  vf result;
  memcpy(&result, &r, sizeof result);
  return result;
}

static void widen(const float *row, int columns, int per_column, vi spread, float *wide) {
  if (per_column % LANES == 0) {
    for (int b = 0; b < columns; b++)
      for (int k = 0; k < per_column; k += LANES) store_f(wide + b * per_column + k, splat_f(row[b]));
    return;
  }
  /* The row padded to whole vectors, read per_column lanes apart. */
  float padded[SIDE + 1 + LANES] = {0};
  memcpy(padded, row, (size_t)columns * sizeof *row);
  for (int k = 0; k < SIDE + per_column; k += LANES)
    store_f(wide + k, permute(load_f(padded + k / per_column), spread));
}

void VARIANT(crafter_cc_noise)(const float *cosine, const float *sine, int res_rows,
                               int res_columns, crafter_cc_field *field) {
  const int columns = res_columns + 1, per_row = SIDE / res_rows, per_column = SIDE / res_columns;
  const float root2 = sqrtf(2.0f);
  /* The offset of each column in its lattice square, (j mod d) / d (exact
   * for d a power of two, as cc_worldgen.c's lattice_offset), and its
   * fade. */
  float offset_y[SIDE], offset_y1[SIDE], fade_y[SIDE], fade_y1[SIDE];
  for (int j = 0, step = 0; j < SIDE; j++, step = step + 1 == per_column ? 0 : step + 1)
    offset_y[j] = (float)step / (float)per_column;
  for (int j = 0; j < SIDE; j += LANES) {
    vf y = load_f(offset_y + j), ty = fade(y);
    store_f(offset_y1 + j, y - 1.0f);
    store_f(fade_y + j, ty);
    store_f(fade_y1 + j, 1.0f - ty);
  }
  /* The lattice rows a and a + 1 laid out per column, cosines and sines;
   * each row is widened once, then moves from the upper to the lower. */
  float wide[2][2][WIDE + LANES];
  float(*lower)[WIDE + LANES] = wide[0], (*upper)[WIDE + LANES] = wide[1];
  vi spread;
  for (int k = 0; k < LANES; k++) spread[k] = k / per_column;
  vf lowest = splat_f(INFINITY), highest = splat_f(-INFINITY);
  widen(cosine, columns, per_column, spread, upper[0]);
  widen(sine, columns, per_column, spread, upper[1]);
  for (int a = 0; a < res_rows; a++) {
    float(*swap)[WIDE + LANES] = lower;
    lower = upper;
    upper = swap;
    widen(cosine + (a + 1) * columns, columns, per_column, spread, upper[0]);
    widen(sine + (a + 1) * columns, columns, per_column, spread, upper[1]);
    for (int r = 0; r < per_row; r++) {
      const int i = a * per_row + r;
      const float x_scalar = (float)r / (float)per_row;
      const vf x = splat_f(x_scalar), x1 = x - 1.0f;
      const vf tx = fade(x), ux = 1.0f - tx;
      for (int j = 0; j < SIDE; j += LANES) {
        const vf y = load_f(offset_y + j), y1 = load_f(offset_y1 + j);
        const vf ty = load_f(fade_y + j), ty1 = load_f(fade_y1 + j);
        /* The four corners: g00 (a, b), g10 (a + 1, b), g01 (a, b + 1),
         * g11 (a + 1, b + 1), b the lattice column of each lane. */
        const vf c00 = load_f(lower[0] + j), s00 = load_f(lower[1] + j);
        const vf c10 = load_f(upper[0] + j), s10 = load_f(upper[1] + j);
        const vf c01 = load_f(lower[0] + j + per_column), s01 = load_f(lower[1] + j + per_column);
        const vf c11 = load_f(upper[0] + j + per_column), s11 = load_f(upper[1] + j + per_column);
        vf n00 = fused(y, s00, x * c00);
        vf n10 = fused(y, s10, x1 * c10);
        vf n01 = fused(y1, s01, x * c01);
        vf n11 = fused(y1, s11, x1 * c11);
        vf n0 = fused(n10, tx, n00 * ux);
        vf n1 = fused(n11, tx, n01 * ux);
        vf blend = fused(ty1, n0, ty * n1), value = blend * root2;
        store_f(field->blend + i * SIDE + j, blend);
        store_f(field->raw + i * SIDE + j, value);
        lowest = lower_of(value, lowest);
        highest = higher_of(value, highest);
      }
    }
  }
  /* The lanes' extremes: the same values as one cell after another
   * would find (only which of two equal zeros is kept could differ, and
   * the normalisation's comparisons cannot tell them apart). */
  float low = lowest[0], high = highest[0];
  for (int k = 1; k < LANES; k++) {
    if (lowest[k] < low) low = lowest[k];
    if (highest[k] > high) high = highest[k];
  }
  field->lowest = low;
  field->highest = high;
}

/* ---- The map ---- */

/* A field's normalisation: (noise - lowest) / span as reciprocal *
 * (noise - lowest), span = highest - lowest (cc_worldgen.c's struct
 * noise).  The map's kernel in XLA computes the noise again, its product
 * with sqrt(2) and the subtraction of the lowest one multiply-add
 * (cc_worldgen.c's above_lowest): above() takes it so. */
struct scale {
  vf negative_lowest, reciprocal;
};

static struct scale scale_of(const crafter_cc_field *field) {
  float span = field->highest - field->lowest;
  struct scale s = {splat_f(-field->lowest), splat_f(1.0f / span)};
  return s;
}

/* noise - lowest at cells n .. n + LANES - 1 of the field. */
INLINE vf above(const crafter_cc_field *field, struct scale s, int n) {
  return fused(load_f(field->blend + n), splat_f(sqrtf(2.0f)), s.negative_lowest);
}

/* The lanes of a mask as bits, lane k as bit k. */
INLINE uint32_t mask_bits(vi mask) {
#if defined(__AVX512F__)
  __m512i m;
  memcpy(&m, &mask, sizeof m);
  return _mm512_test_epi32_mask(m, m);
#elif defined(__AVX2__)
  __m256 m;
  memcpy(&m, &mask, sizeof m);
  return (uint32_t)_mm256_movemask_ps(m);
#else
  uint32_t bits = 0;
  for (int k = 0; k < LANES; k++) bits |= (uint32_t)(mask[k] & 1) << k;
  return bits;
#endif
}

/* Bits k .. k + LANES - 1 of a row of bits as the lanes of a mask. */
INLINE vi bits_mask(uint64_t row, int k) {
  vu lane_bits = (vu){0} + 1U;
  lane_bits <<= lane_numbers();
  return (vi)((((vu){0} + (uint32_t)(row >> k)) & lane_bits) != 0);
}

/* A 64 x 64 matrix of bits, bit j of row i its element [i][j],
 * transposed in place: the square's off-diagonal halves swapped, then
 * those of each quarter, down to single bits. */
static void transpose_bits(uint64_t row[SIDE]) {
  uint64_t low = 0x00000000FFFFFFFFULL;
  for (int half = 32; half != 0; half >>= 1, low ^= low << half)
    for (int i = 0; i < SIDE; i = ((i | half) + 1) & ~half) {
      uint64_t swapped = ((row[i] >> half) ^ row[i | half]) & low;
      row[i | half] ^= swapped;
      row[i] ^= swapped << half;
    }
}

/* Whether the path noise passes 0.8 at a cell or at its transpose (path_x
 * and path_y), bit j of crossing[i] for the cell (i, j). */
static void path_crossing(const crafter_cc_field *paths, uint64_t crossing[SIDE]) {
  struct scale s = scale_of(paths);
  uint64_t transposed[SIDE];
  for (int i = 0; i < SIDE; i++) {
    uint64_t row = 0;
    for (int j = 0; j < SIDE; j += LANES) {
      vi high = s.reciprocal * above(paths, s, i * SIDE + j) > 0.8f;
      row |= (uint64_t)mask_bits(high) << j;
    }
    crossing[i] = transposed[i] = row;
  }
  transpose_bits(transposed);
  for (int i = 0; i < SIDE; i++) crossing[i] |= transposed[i];
}

/* The cells a draw is made for, by their bits (bit j of bits[i] for the
 * cell (i, j)), in increasing order into at[], followed by zeros up to
 * two whole vectors (at has room for CELLS + 2 * LANES); returns how
 * many. */
static int list_cells(const uint64_t bits[SIDE], uint32_t *at) {
  int count = 0;
#if defined(__AVX512F__)
  /* The set lanes of each vector of cells packed to the front, the whole
   * vector stored (the next one's overwrites the rest). */
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int i = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j += 16) {
      __mmask16 set = (__mmask16)(bits[i] >> j);
      __m512i cells = _mm512_add_epi32(lanes, _mm512_set1_epi32(i * SIDE + j));
      _mm512_storeu_si512(at + count, _mm512_maskz_compress_epi32(set, cells));
      count += __builtin_popcount(set);
    }
#else
  for (int i = 0; i < SIDE; i++)
    for (uint64_t row = bits[i]; row; row &= row - 1)
      at[count++] = (uint32_t)(i * SIDE + __builtin_ctzll(row));
#endif
  memset(at + count, 0, 2 * LANES * sizeof *at);
  return count;
}

/* One of generate_world's draws uniform(key, (64, 64)) < or > threshold,
 * made for the listed cells only: each that is `from` still and whose
 * uniform passes becomes `to`.  Two vectors of cells at a time: a hash is
 * a chain of 20 dependent rounds, and a second chain fills the first's
 * waits. */
static void draw(crafter_jaxkey key, const uint32_t *at, int count, float threshold, int below,
                 uint8_t from, uint8_t to, uint8_t *map) {
  for (int k = 0; k < count; k += 2 * LANES) {
    vu first, second;
    memcpy(&first, at + k, sizeof first);
    memcpy(&second, at + k + LANES, sizeof second);
    vf u_first = unit_of(bits_of(key, first)), u_second = unit_of(bits_of(key, second));
    uint32_t hits = below ? mask_bits(u_first < threshold) |
                                mask_bits(u_second < threshold) << LANES
                          : mask_bits(u_first > threshold) |
                                mask_bits(u_second > threshold) << LANES;
    if (count - k < 2 * LANES) hits &= (1U << (count - k)) - 1U;
    for (; hits; hits &= hits - 1U) {
      uint8_t *cell = map + at[k + __builtin_ctz(hits)];
      if (*cell == from) *cell = to;
    }
  }
}

void VARIANT(crafter_cc_terrain)(const crafter_cc_field *fields, const crafter_jaxkey *keys,
                                 uint8_t *map) {
  const struct scale water = scale_of(&fields[0]), mountain = scale_of(&fields[1]),
                     trees = scale_of(&fields[3]);
  uint64_t crossing[SIDE];
  path_crossing(&fields[2], crossing);
  const int centre = SIDE / 2;
  const float fifth = 1.0f / 5.0f;
  float column_distance[SIDE];
  for (int j = 0; j < SIDE; j++) column_distance[j] = (float)abs(j - centre);
  /* The cells the draws are for: stone (the ores), stone deep enough for
   * diamonds, grass in the woods (the trees). */
  uint64_t stone_bits[SIDE], deep_bits[SIDE], grove_bits[SIDE];
  /* Every cell but the draws.  The lava comes last in generate_world but
   * is placed here: the draws change only stone and grass, which a cell
   * of lava is not, and lava would cover what they make. */
  for (int i = 0; i < SIDE; i++) {
    uint64_t stone_row = 0, deep_row = 0, grove_row = 0;
    for (int j = 0; j < SIDE; j += LANES) {
      const int n = i * SIDE + j;
      /* The distance to the player (a sum of whole numbers, exact) over
       * 5, clipped to [0, 1]: never below 0, so 1 < near ? 1 : near. */
      vf near = ((float)abs(i - centre) + load_f(column_distance + j)) * fifth;
      near = lower_of(splat_f(1.0f), near);
      vf wet = fused(water.reciprocal, above(&fields[0], water, n), near) - 1.0f;
      vf high = fused(mountain.reciprocal, above(&fields[1], mountain, n), splat_f(0.05f)) + near;
      high = high - 1.0f;
      vi wetland = wet > 0.7f;
      vi block = select_i(wetland, splat_i(CRAFTER_CC_WATER), splat_i(CRAFTER_CC_GRASS));
      block = select_i((wet < 0.75f) & (wet > 0.6f) & ~wetland, splat_i(CRAFTER_CC_SAND), block);
      vi stony = high > 0.7f;
      block = select_i(stony, splat_i(CRAFTER_CC_STONE), block);
      block = select_i(stony & bits_mask(crossing[i], j), splat_i(CRAFTER_CC_PATH), block);
      block = select_i((high > 0.85f) & (wet > 0.4f), splat_i(CRAFTER_CC_PATH), block);
      vf woods = trees.reciprocal * above(&fields[3], trees, n);
      block = select_i((high > 0.85f) & (woods > 0.7f), splat_i(CRAFTER_CC_LAVA), block);
      vi stone = block == CRAFTER_CC_STONE;
      stone_row |= (uint64_t)mask_bits(stone) << j;
      deep_row |= (uint64_t)mask_bits(stone & (high > 0.8f)) << j;
      grove_row |= (uint64_t)mask_bits((block == CRAFTER_CC_GRASS) & (woods > 0.5f)) << j;
      store_bytes(map + n, block);
    }
    stone_bits[i] = stone_row;
    deep_bits[i] = deep_row;
    grove_bits[i] = grove_row;
  }
  /* The draws, in generate_world's order: coal, iron and diamonds on what
   * is stone still, trees on the grass. */
  uint32_t at[CELLS + 2 * LANES];
  int count = list_cells(stone_bits, at);
  draw(keys[0], at, count, 0.04f, 1, CRAFTER_CC_STONE, CRAFTER_CC_COAL, map);
  draw(keys[1], at, count, 0.03f, 1, CRAFTER_CC_STONE, CRAFTER_CC_IRON, map);
  count = list_cells(deep_bits, at);
  draw(keys[2], at, count, 0.005f, 1, CRAFTER_CC_STONE, CRAFTER_CC_DIAMOND, map);
  count = list_cells(grove_bits, at);
  draw(keys[3], at, count, 0.8f, 0, CRAFTER_CC_GRASS, CRAFTER_CC_TREE, map);
}
