/* shade: the light of a run of pixels, eight at a time (shade.h).
 *
 * Like fastgen.c this file is compiled once per instruction set, with
 * FASTGEN_SUFFIX naming the copy.  Unlike fastgen.c it is exact: it does
 * the reference's operations in the reference's order and precision, lane
 * by lane, and the Makefile builds it without contraction into fused
 * multiply-adds.  render.c's shade() is the same arithmetic one pixel at a
 * time; test-render checks that the two give the same bytes at every
 * level. */
#include <stddef.h>
#include <string.h>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "kernels/variant.h"
#include "kernels/shade.h"

/* Eight lanes, passed only between static functions (-Wno-psabi). */
typedef double v8d __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Conversions between int32 and double lanes, in single instructions
 * where the compiler's generic conversion would split them. */
static inline __attribute__((always_inline)) v8d channel(v8i wide) {
#if defined(__AVX512F__)
  __m256i in;
  memcpy(&in, &wide, sizeof in);
  __m512d out = _mm512_cvtepi32_pd(in);
  v8d result;
  memcpy(&result, &out, sizeof result);
  return result;
#else
  return __builtin_convertvector(wide, v8d);
#endif
}

/* Truncation to a byte of values known to lie in [0, 256). */
static inline __attribute__((always_inline)) v8i to_byte(v8d v) {
#if defined(__AVX512F__)
  __m512d in;
  memcpy(&in, &v, sizeof in);
  __m256i out = _mm512_cvttpd_epi32(in);
  v8i result;
  memcpy(&result, &out, sizeof result);
  return result;
#else
  return __builtin_convertvector(v, v8i);
#endif
}

/* The grey of three byte channels, as Pillow's convert("L"). */
static inline __attribute__((always_inline)) v8i grey_of(v8i r, v8i g, v8i b) {
  return (r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16;
}

/* Pillow's ImageEnhance.Color(...).enhance(0.4) of channel v in a pixel of
 * grey g: (uint8)(g + 0.4f * (v - g)) in single precision. */
static inline __attribute__((always_inline)) v8i faded(v8i grey, v8i v) {
  v8f g = __builtin_convertvector(grey, v8f);
  v8f difference = __builtin_convertvector(v - grey, v8f);
  return __builtin_convertvector(g + 0.4f * difference, v8i);
}

/* Lights eight pixels: colour[c] lane by lane, the night's mask and noise
 * (both zero by day, which leaves the colour as it is), into bytes. */
static inline __attribute__((always_inline)) void shade8(const v8d colour[3], v8d mask,
                                                         v8d noise, double daylight,
                                                         int sleeping, v8i out[3]) {
  static const double night_tint[3] = {0, 16, 64}, sleep_tint[3] = {0, 0, 16};
  v8i dark[3];
  _Pragma("GCC unroll 3")
  for (int c = 0; c < 3; c++) dark[c] = to_byte((1 - mask) * colour[c] + mask * noise);
  v8i grey = grey_of(dark[0], dark[1], dark[2]);
  v8d lit[3];
  _Pragma("GCC unroll 3")
  for (int c = 0; c < 3; c++) {
    v8d tinted = (1 - 0.5) * channel(faded(grey, dark[c])) + 0.5 * night_tint[c];
    lit[c] = daylight * colour[c] + (1 - daylight) * tinted;
  }
  if (sleeping) {
    v8i asleep = grey_of(to_byte(lit[0]), to_byte(lit[1]), to_byte(lit[2]));
    v8d grey_value = channel(asleep);
    _Pragma("GCC unroll 3")
    for (int c = 0; c < 3; c++) lit[c] = (1 - 0.5) * grey_value + 0.5 * sleep_tint[c];
  }
  _Pragma("GCC unroll 3")
  for (int c = 0; c < 3; c++) out[c] = to_byte(lit[c]);
}

/* Eight pixels' channels from 24 bytes of RGB triples. */
static inline __attribute__((always_inline)) void unpack(const uint8_t bytes[24], v8d rgb[3]) {
#if defined(__AVX2__)
  /* Byte shuffles pick each channel out of the first 16 and the last 8
   * bytes. */
  __m128i low = _mm_loadu_si128((const __m128i *)bytes);
  __m128i high = _mm_loadl_epi64((const __m128i *)(bytes + 16));
  _Pragma("GCC unroll 3")
  for (int c = 0; c < 3; c++) {
    __m128i from_low = _mm_setr_epi8(c, c + 3, c + 6, c + 9, c + 12, c + 15 < 16 ? c + 15 : -1,
                                     -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m128i from_high = _mm_setr_epi8(-1, -1, -1, -1, -1, c + 15 < 16 ? -1 : c - 1, c + 2, c + 5,
                                      -1, -1, -1, -1, -1, -1, -1, -1);
    __m128i picked =
        _mm_or_si128(_mm_shuffle_epi8(low, from_low), _mm_shuffle_epi8(high, from_high));
    v8i wide;
    __m256i widened = _mm256_cvtepu8_epi32(picked);
    memcpy(&wide, &widened, sizeof wide);
    rgb[c] = channel(wide);
  }
#else
  _Pragma("GCC unroll 3")
  for (int c = 0; c < 3; c++) {
    v8i wide;
    for (int l = 0; l < 8; l++) wide[l] = bytes[3 * l + c];
    rgb[c] = channel(wide);
  }
#endif
}

void VARIANT(crafter_shade_run)(const uint8_t *colour, int count, double daylight, int sleeping,
                                double amount, const double *vignette, const double *noise,
                                uint8_t *out, ptrdiff_t out_stride) {
  for (int at = 0; at < count; at += 8) {
    int lanes = count - at < 8 ? count - at : 8;
    v8d rgb[3], mask = {0}, night = {0};
    if (lanes == 8) {
      unpack(colour + (size_t)at * 3, rgb);
      if (vignette) {
        memcpy(&mask, vignette + at, sizeof mask);
        memcpy(&night, noise + at, sizeof night);
      }
    } else { /* the last few: padded with zeros */
      uint8_t bytes[24] = {0};
      memcpy(bytes, colour + (size_t)at * 3, (size_t)lanes * 3);
      unpack(bytes, rgb);
      if (vignette)
        for (int l = 0; l < lanes; l++) {
          mask[l] = vignette[at + l];
          night[l] = noise[at + l];
        }
    }
    mask *= amount;
    v8i lit[3];
    shade8(rgb, mask, night, daylight, sleeping, lit);
    v8i packed = lit[0] | lit[1] << 8 | lit[2] << 16;
    uint32_t words[8];
    memcpy(words, &packed, sizeof words);
    uint8_t *to = out + (ptrdiff_t)at * out_stride;
    for (int l = 0; l < lanes; l++, to += out_stride) memcpy(to, &words[l], 3);
  }
}
