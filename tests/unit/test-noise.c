/* OpenSimplex against opensimplex 0.4.5 and np.cos against numpy.  Expected
 * values were printed by opensimplex 0.4.5 (OpenSimplex(seed).noise3) and
 * numpy 1.24.2 on an AVX-512 machine (np.cos), as exact hex floats. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/npmath.h"
#include "game/game.h"
#include "kernels/fastgen.h"
#include "kernels/kernels.h"
#include "kernels/noise.h"
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

/* noise3 as the sum over every lattice vertex within reach, found by
 * trying all vertices near the point: what crafter_noise_field_add
 * computes, and what noise3 computes but for a vertex it sometimes leaves
 * out. */
static double full_noise3(const crafter_noise *noise, double x, double y, double z) {
  double stretch = (x + y + z) * (-1.0 / 6);
  long long bx = (long long)floor(x + stretch), by = (long long)floor(y + stretch),
            bz = (long long)floor(z + stretch);
  double value = 0;
  for (long long i = bx - 2; i <= bx + 3; i++)
    for (long long j = by - 2; j <= by + 3; j++)
      for (long long k = bz - 2; k <= bz + 3; k++) {
        double squish = (double)(i + j + k) / 3;
        double dx = x - (i + squish), dy = y - (j + squish), dz = z - (k + squish);
        double attenuation = 2 - dx * dx - dy * dy - dz * dz;
        if (attenuation <= 0) continue;
        int index =
            noise->gradient_index[(noise->perm[(noise->perm[i & 0xff] + j) & 0xff] + k) & 0xff];
        const double *g = crafter_gradients3 + index;
        value += attenuation * attenuation * attenuation * attenuation *
                 (g[0] * dx + g[1] * dy + g[2] * dz);
      }
  return value / 103;
}

/* The largest |noise3 - full sum| over many points: the reference's
 * missed vertex, which CRAFTER_NOISE_FIELD_ERROR must bound. */
static void test_missed_vertex(void) {
  crafter_noise noise;
  crafter_noise_init(&noise, 4242);
  double worst = 0;
  unsigned state = 1;
  for (int i = 0; i < 300000; i++) {
    double p[3];
    for (int c = 0; c < 3; c++) {
      state = state * 1103515245u + 12345u;
      p[c] = (state >> 8) / 16777216.0 * 40 - 20;
    }
    double error = fabs(crafter_noise3(&noise, p[0], p[1], p[2]) - full_noise3(&noise, p[0], p[1], p[2]));
    if (error > worst) worst = error;
  }
  ok(worst > 1e-5 && worst <= 1.31e-4 && 1.31e-4 < CRAFTER_NOISE_FIELD_ERROR,
     "noise3 leaves out at most a vertex worth 1.31e-4 (largest seen %g)", worst);
}

/* The area field against noise3 point by point: the largest difference
 * over the wanted cells of a width x height area (the first `height` cells
 * of each wanted block's row), for the field of noise3(x * ax, y * ay, z).
 * Sets *outside_changed if a cell far from every wanted block changed:
 * more than three rows or blocks away, beyond any vertex's reach. */
static double field_error(const crafter_noise *noise, double z, double ax, double ay,
                          int width, int height, const uint8_t *wanted, int *outside_changed,
                          double *full_error) {
  int blocks = (height + 7) / 8, stride = 8 * blocks + 8;
  double *acc = calloc((size_t)width * (size_t)stride, sizeof *acc);
  if (!acc) return INFINITY;
  double worst = 0;
  *full_error = 0;
  if (crafter_noise_field_add(noise, z, ax, ay, 2.5, width, blocks, wanted, acc, stride) < 0)
    worst = *full_error = INFINITY;
  *outside_changed = 0;
  for (int x = 0; x < width; x++)
    for (int y = 0; y < stride; y++) {
      double got = acc[(size_t)x * (size_t)stride + (size_t)y];
      if (y >= 8 * blocks || !wanted[x * blocks + y / 8]) {
        double rx = 3 / ax + 1, rb = 3 / ay / 8 + 1;
        int x0 = x - rx < 0 ? 0 : (int)(x - rx), x1 = x + rx > width - 1 ? width - 1 : (int)(x + rx);
        int b0 = y / 8 - rb < 0 ? 0 : (int)(y / 8 - rb);
        int b1 = y / 8 + rb > blocks - 1 ? blocks - 1 : (int)(y / 8 + rb);
        int near = 0;
        for (int nx = x0; nx <= x1 && !near; nx++)
          for (int nb = b0; nb <= b1 && !near; nb++) near = wanted[nx * blocks + nb];
        if (got != 0 && !near) *outside_changed = 1;
        continue;
      }
      double want = 2.5 * crafter_noise3(noise, x * ax, y * ay, z);
      double error = fabs(got - want);
      if (!(error <= worst)) worst = error;
      double full = fabs(got - 2.5 * full_noise3(noise, x * ax, y * ay, z));
      if (!(full <= *full_error)) *full_error = full;
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
  enum { W = 64, H = 64, B = H / 8 };
  uint8_t wanted[W * B];
  double worst = 0, worst_full = 0;
  int outside = 0, count = 0;
  for (long long seed = 0; seed < 40; seed++) {
    crafter_noise noise;
    crafter_noise_init(&noise, seed * 53591 + 7);
    for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
      /* The whole area on even seeds, scattered blocks on odd ones. */
      for (int i = 0; i < W * B; i++)
        wanted[i] = seed % 2 == 0 || (i * 7 + seed * 3 + (long long)f) % 5 < 2;
      int changed;
      double full;
      double error = field_error(&noise, fields[f].z, fields[f].ax, fields[f].ay, W, H, wanted,
                                 &changed, &full);
      if (!(error <= worst)) worst = error;
      if (!(full <= worst_full)) worst_full = full;
      outside |= changed;
      count++;
    }
  }
  ok(worst <= 2.5 * CRAFTER_NOISE_FIELD_ERROR,
     "area fields match noise3 within %g at every cell of %d fields (largest error %g)",
     2.5 * CRAFTER_NOISE_FIELD_ERROR, count, worst);
  ok(worst_full <= 1e-12,
     "area fields are the sum over every vertex in reach, to rounding (largest error %g)",
     worst_full);
  ok(!outside, "area fields leave cells far from the wanted blocks alone");
  /* A 100 x 37 area: the last block of a row runs past the area. */
  crafter_noise noise;
  crafter_noise_init(&noise, 99);
  uint8_t all[100 * 5];
  memset(all, 1, sizeof all);
  int changed;
  double full;
  double error = field_error(&noise, 8, 1 / 3.0, 1 / 3.0, 100, 37, all, &changed, &full);
  ok(error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && full <= 1e-12 && !changed,
     "a 100 x 37 area field (errors %g, %g)", error, full);
  error = field_error(&noise, 0.25, 1e-4, 3e-3, 100, 37, all, &changed, &full);
  ok(error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && full <= 1e-12 && !changed,
     "a very coarse field (errors %g, %g)", error, full);
  /* 40 x 200, coarse: a vertex reaches more than 64 rows and 16 blocks;
   * whole, and every third block. */
  static uint8_t tall[40 * 25];
  memset(tall, 1, sizeof tall);
  double full_tall;
  error = field_error(&noise, 5, 0.03, 0.02, 40, 200, tall, &changed, &full_tall);
  int tall_ok = error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && full_tall <= 1e-12 && !changed;
  for (int i = 0; i < 40 * 25; i++) tall[i] = i % 3 == 0;
  error = field_error(&noise, 5, 0.03, 0.02, 40, 200, tall, &changed, &full_tall);
  tall_ok &= error <= 2.5 * CRAFTER_NOISE_FIELD_ERROR && full_tall <= 1e-12 && !changed;
  ok(tall_ok, "a 40 x 200 area field, whole and in scattered blocks");
  ok(crafter_noise_field_add(&noise, 0, 1e3, 1e3, 1, 100, 5, all, NULL, 48) == -1,
     "a field finer than the cells is refused before it writes");
  memset(all, 0, sizeof all);
  ok(crafter_noise_field_add(&noise, 0, 0.1, 0.1, 1, 100, 5, all, NULL, 48) == 0,
     "no wanted block, nothing written");
}

/* Every level of the kernels this processor runs. */
static void test_fields_every_level(void) {
  const int levels[] = {4, 3, 0};
  int best = crafter_kernels_set_level(-1);
  for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
    if (levels[l] > best) {
      skip("kernels of level %d: this processor or build does not run them", levels[l]);
      continue;
    }
    crafter_kernels_set_level(levels[l]);
    printf("# kernels of level %d\n", levels[l]);
    test_fields();
  }
  crafter_kernels_set_level(-1);
}

int main(void) {
  test_missed_vertex();
  test_fields_every_level();
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
