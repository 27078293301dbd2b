#include "base/npmath.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static double from_bits(uint64_t bits) {
  double value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

static uint64_t to_bits(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/* floor(a * b) of the exact product, for a * b in [0, 2**52). */
static double floor_of_product(double a, double b) {
  double product = a * b;
  double error = fma(a, b, -product);
  double whole = floor(product);
  if (whole == product && error < 0) whole -= 1;
  return whole;
}

double crafter_np_cos(double x) {
  /* cos(x) = (-1)^n sin((n + 1/2) pi - |x|) with n = floor(|x| / pi); the
   * reduction uses pi in three parts and the sine a degree-13 odd
   * polynomial, every step a fused multiply-add where the vector code has
   * one. */
  const double pi_high = from_bits(0x400921fb54442d18ULL);
  const double pi_middle = from_bits(0x3ca1a62633145c06ULL);
  const double pi_low = from_bits(0x395c1cd129024e09ULL);
  const double inverse_pi = from_bits(0x3fd45f306dc9c883ULL);
  const double c1 = from_bits(0xbfc55555555554a7ULL);
  const double c2 = from_bits(0x3f8111111110a4a8ULL);
  const double c3 = from_bits(0xbf2a01a019a5b87bULL);
  const double c4 = from_bits(0x3ec71de38030fea0ULL);
  const double c5 = from_bits(0xbe5ae63546002231ULL);
  const double c6 = from_bits(0x3de60e6857a2f220ULL);
  const double c7 = from_bits(0xbd69f0d60811aac8ULL);

  double magnitude = fabs(x);
  if (magnitude < 0x1p-27) return 1.0;
  double n = floor_of_product(magnitude, inverse_pi);
  double half_n = n + 0.5;
  uint64_t sign = ((uint64_t)n & 1U) << 63;

  double reduced = fma(half_n, pi_high, -magnitude);
  reduced = fma(half_n, pi_middle, reduced);
  double square = reduced * reduced;
  reduced = fma(pi_low, half_n, reduced);

  double poly = fma(square, c7, c6);
  poly = fma(square, poly, c5);
  poly = fma(square, poly, c4);
  poly = fma(square, poly, c3);
  poly = fma(square, poly, c2);
  poly = fma(square, poly, c1);
  double signed_reduced = from_bits(to_bits(reduced) ^ sign);
  double cube = signed_reduced * square;
  return fma(cube, poly, signed_reduced);
}
