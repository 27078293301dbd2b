/* OpenSimplex against opensimplex 0.4.5 and np.cos against numpy.  Expected
 * values were printed by opensimplex 0.4.5 (OpenSimplex(seed).noise3) and
 * numpy 1.24.2 on an AVX-512 machine (np.cos), as exact hex floats. */
#include <math.h>
#include <stdlib.h>

#include "noise.h"
#include "npmath.h"
#include "rules.h"
#include "tap.h"

static const double points[5][3] = {
    {0.0, 0.0, 0.0}, {0.5, 1.25, 8.0}, {-3.7, 12.1, 3.0}, {21.3333, -0.2, 7.0},
    {1e3 / 3, 2e2 / 7, 6.0},
};

static const struct {
  long long seed;
  double values[5];
} cases[] = {
    {0, {0x1.027c45979c953p-219, 0x1.b4d8e22cbce4bp-2, 0x1.6049c2c8a4350p-1,
         -0x1.3647b17bb391fp-3, 0x1.a130a2941bf80p-3}},
    {1, {-0x1.7678f53ad26f0p-216, 0x1.08b265130e158p-4, -0x1.eb7192dfe63a0p-4,
         0x1.0628fe493325ap-1, -0x1.9ae9a6f8a1200p-2}},
    {12345, {-0x1.37821239fe57ep-219, 0x1.eb51bc1091cffp-2, -0x1.60e86d055c3d9p-3,
             0x1.84c6495f8d7f1p-5, 0x1.8f45de52108fbp-2}},
    {2147483646, {-0x1.8dab7ec1dd343p-219, 0x1.95c7b3c7a9d6bp-3, -0x1.b4a6b702eb2a5p-3,
                  0x1.4bd0a7a5d8bb3p-1, -0x1.d7c12d499370bp-2}},
    {-7, {0x1.c2b14b643ef6fp-219, 0x1.79c36fd83ba68p-3, -0x1.78e0879c596e1p-5,
          -0x1.1b2933bfd0851p-4, 0x1.2a173f2294e6fp-2}},
};

/* The area field against noise3 point by point: the largest difference
 * over every cell of a width x height area, for the field of
 * noise3(x * ax, y * ay, z) with the cells given by the row ranges. */
static double field_error(const crafter_noise *noise, double z, double ax, double ay,
                          int width, int height, const int32_t *lo, const int32_t *hi,
                          int *outside_changed) {
  int stride = (height + 7) & ~7;
  double *acc = calloc((size_t)width * (size_t)stride, sizeof *acc);
  if (!acc) return INFINITY;
  double worst = 0;
  if (crafter_noise_field_add(noise, z, ax, ay, 2.5, width, lo, hi, acc, stride) < 0) worst = INFINITY;
  *outside_changed = 0;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      double got = acc[(size_t)x * (size_t)stride + (size_t)y];
      if (y < lo[x] || y > hi[x]) {
        /* Only cells in a block of eight with a wanted cell may be touched. */
        if (got != 0 && !(lo[x] <= hi[x] && y >= (lo[x] & ~7) && y <= (hi[x] | 7)))
          *outside_changed = 1;
        continue;
      }
      double want = 2.5 * crafter_noise3(noise, x * ax, y * ay, z);
      double error = fabs(got - want);
      if (!(error <= worst)) worst = error;
    }
  free(acc);
  return worst;
}

static void test_fields(void) {
  /* The fields world generation asks for: (x / size, y / size) with
   * Crafter's sizes, the two tunnels, and a few other scales. */
  static const struct {
    double z, ax, ay;
  } fields[] = {
      {8, 1 / 3.0, 1 / 3.0},  {3, 1 / 15.0, 1 / 15.0}, {3, 1 / 5.0, 1 / 5.0},
      {0, 1 / 15.0, 1 / 15.0}, {6, 1 / 7.0, 1 / 7.0},  {7, 2 / 3.0, 1 / 15.0},
      {7, 1 / 15.0, 2 / 3.0}, {1, 1 / 8.0, 1 / 8.0},   {2, 1 / 6.0, 1 / 6.0},
      {4, 1 / 9.0, 1 / 9.0},  {5, 1.0, 1.0},           {2.5, 1.7, 0.3},
  };
  enum { W = 64, H = 64 };
  int32_t lo[W], hi[W];
  double worst = 0;
  int outside = 0, count = 0;
  for (long long seed = 0; seed < 40; seed++) {
    crafter_noise noise;
    crafter_noise_init(&noise, seed * 53591 + 7);
    for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
      /* Whole area on even seeds; ragged row ranges, some rows empty, on odd. */
      for (int x = 0; x < W; x++) {
        lo[x] = seed % 2 ? (int32_t)((x * 7 + seed) % 23) : 0;
        hi[x] = seed % 2 ? (int32_t)(H - 1 - (x * 11 + seed) % 29) : H - 1;
        if (seed % 2 && x % 5 == 3) hi[x] = lo[x] - 1;
      }
      int changed;
      double error = field_error(&noise, fields[f].z, fields[f].ax, fields[f].ay, W, H, lo, hi,
                                 &changed);
      if (!(error <= worst)) worst = error;
      outside |= changed;
      count++;
    }
  }
  ok(worst <= 2.5 * CRAFTER_NOISE_FIELD_ERROR,
     "area fields match noise3 within %g at every cell of %d fields (largest error %g)",
     2.5 * CRAFTER_NOISE_FIELD_ERROR, count, worst);
  ok(!outside, "area fields leave cells outside the wanted rows alone");
  /* A 100 x 37 area with an uneven stride. */
  crafter_noise noise;
  crafter_noise_init(&noise, 99);
  int32_t lo2[100], hi2[100];
  for (int x = 0; x < 100; x++) lo2[x] = 0, hi2[x] = 36;
  int changed;
  double error = field_error(&noise, 8, 1 / 3.0, 1 / 3.0, 100, 37, lo2, hi2, &changed);
  ok(error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && !changed, "a 100 x 37 area field (error %g)",
     error);
  error = field_error(&noise, 0.25, 1e-4, 3e-3, 100, 37, lo2, hi2, &changed);
  ok(error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && !changed, "a very coarse field (error %g)", error);
  ok(crafter_noise_field_add(&noise, 0, 1e3, 1e3, 1, 100, lo2, hi2, NULL, 40) == -1,
     "a field finer than the cells is refused before it writes");
}

int main(void) {
  test_fields();
  crafter_noise noise;
  crafter_noise_init(&noise, 1);
  ok(noise.perm[0] == 33 && noise.perm[1] == 221 && noise.perm[2] == 255 &&
         noise.perm[7] == 158,
     "permutation of seed 1 starts 33 221 255 ... 158");
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    crafter_noise_init(&noise, cases[c].seed);
    int same = 1;
    for (int p = 0; p < 5; p++)
      same &= crafter_noise3(&noise, points[p][0], points[p][1], points[p][2]) ==
              cases[c].values[p];
    ok(same, "noise3 of seed %lld at five points", cases[c].seed);
  }

  static const double cos_inputs[] = {0.0, 1e-9, 0.9424777960769379, 1.0, 2.5,
                                      3.14159, 4.0, -2.2, 100.0, 12345.678};
  static const double cos_expected[] = {
      0x1.0000000000000p+0,  0x1.0000000000000p+0,  0x1.2cf2304755a5ep-1,
      0x1.14a280fb5068bp-1,  -0x1.9a2f7ef858b7ep-1, -0x1.fffffffff841fp-1,
      -0x1.4eaa606db24c1p-1, -0x1.2d5004b88ad6fp-1, 0x1.b981dbf665fdfp-1,
      0x1.6b94c3bbe24b9p-1};
  for (int i = 0; i < 10; i++)
    ok(crafter_np_cos(cos_inputs[i]) == cos_expected[i], "np.cos(%.17g)", cos_inputs[i]);

  /* 1 - |np.cos(pi * ((t / 300) % 1 + 0.3))| ** 3 */
  static const long steps[] = {0, 1, 150, 299, 300, 9999};
  static const double daylight[] = {0x1.9806941791179p-1, 0x1.9c793f43ab1a4p-1,
                                    0x1.e1c8864680b58p-2, 0x1.937b7dad7d048p-1,
                                    0x1.9806941791179p-1, 0x1.dfed8e071e862p-1};
  for (int i = 0; i < 6; i++)
    ok(crafter_daylight(steps[i]) == daylight[i], "daylight at step %ld", steps[i]);
  return tap_done();
}
