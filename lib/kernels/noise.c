#include "kernels/noise.h"


#include <math.h>

/* The 24 gradients of the reference: vertices of a rhombicuboctahedron,
 * skewed so both kinds of facets fit circles of one radius. */
const double crafter_gradients3[72] = {
    -11, 4,   4,   -4, 11,  4,   -4, 4,   11,  11, 4,   4,   4,  11,  4,
    4,   4,   11,  -11, -4, 4,   -4, -11, 4,   -4, -4,  11,  11, -4,  4,
    4,   -11, 4,   4,  -4,  11,  -11, 4,  -4,  -4, 11,  -4,  -4, 4,   -11,
    11,  4,   -4,  4,  11,  -4,  4,   4,  -11, -11, -4, -4,  -4, -11, -4,
    -4,  -4,  -11, 11, -4,  -4,  4,   -11, -4, 4,   -4,  -11,
};

#define STRETCH3 (-1.0 / 6)
#define SQUISH3 (1.0 / 3)
#define NORM3 103.0

void crafter_noise_init(crafter_noise *noise, int64_t seed) {
  const uint64_t multiplier = 6364136223846793005ULL;
  const uint64_t increment = 1442695040888963407ULL;
  uint8_t source[256];
  for (int i = 0; i < 256; i++) source[i] = (uint8_t)i;
  /* The reference keeps the state as a signed 64-bit value that wraps. */
  uint64_t state = (uint64_t)seed;
  for (int round = 0; round < 3; round++) state = state * multiplier + increment;
  for (int i = 255; i >= 0; i--) {
    state = state * multiplier + increment;
    /* (state + 31) % (i + 1) with Python's unbounded, floored arithmetic. */
    __int128 shifted = (__int128)(int64_t)state + 31;
    __int128 remainder = shifted % (i + 1);
    if (remainder < 0) remainder += i + 1;
    int r = (int)remainder;
    noise->perm[i] = source[r];
    noise->gradient_index[i] = (uint8_t)((noise->perm[i] % 24) * 3);
    source[r] = source[i];
  }
}

/* floor() for the coordinates noise is asked for (|v| < 2**52), inline:
 * the library call costs more than the rest of the lattice set-up. */
static inline double floor_of(double v) {
  double truncated = (double)(int64_t)v;
  return truncated > v ? truncated - 1 : truncated;
}

static inline double extrapolate(const crafter_noise *noise, int64_t xsb, int64_t ysb, int64_t zsb,
                          double dx, double dy, double dz) {
  int inner = noise->perm[(noise->perm[xsb & 0xff] + ysb) & 0xff];
  int index = noise->gradient_index[(inner + zsb) & 0xff];
  const double *gradient = crafter_gradients3 + index;
  return gradient[0] * dx + gradient[1] * dy + gradient[2] * dz;
}

/* Adds the contribution of one lattice vertex, if it is within reach. */
static inline __attribute__((always_inline)) double contribute(const crafter_noise *noise, double value, int64_t xsv, int64_t ysv,
                         int64_t zsv, double dx, double dy, double dz) {
  /* Computed whether or not the vertex is in reach, then kept or not:
   * a choice without a branch, which the processor cannot guess. */
  double attenuation = 2 - dx * dx - dy * dy - dz * dz;
  double squared = attenuation * attenuation;
  double term = squared * squared * extrapolate(noise, xsv, ysv, zsv, dx, dy, dz);
  return attenuation > 0 ? value + term : value;
}

/* Where a point falls in the simplectic honeycomb: the origin of its
 * rhombohedron, the offsets from it, and the coordinates inside. */
typedef struct lattice {
  int64_t xsb, ysb, zsb;
  double dx0, dy0, dz0;
  double xins, yins, zins;
} lattice;

static inline __attribute__((always_inline)) lattice locate(double x, double y, double z) {
  lattice at;
  double stretch_offset = (x + y + z) * STRETCH3;
  double xs = x + stretch_offset;
  double ys = y + stretch_offset;
  double zs = z + stretch_offset;
  double xsb_f = floor_of(xs), ysb_f = floor_of(ys), zsb_f = floor_of(zs);
  at.xsb = (int64_t)xsb_f;
  at.ysb = (int64_t)ysb_f;
  at.zsb = (int64_t)zsb_f;
  double squish_offset = (double)(at.xsb + at.ysb + at.zsb) * SQUISH3;
  double xb = xsb_f + squish_offset;
  double yb = ysb_f + squish_offset;
  double zb = zsb_f + squish_offset;
  at.xins = xs - xsb_f;
  at.yins = ys - ysb_f;
  at.zins = zs - zsb_f;
  at.dx0 = x - xb;
  at.dy0 = y - yb;
  at.dz0 = z - zb;
  return at;
}

/* Which lattice points contribute and in what order: the region (0: the
 * tetrahedron at (0,0,0), 1: the one at (1,1,1), 2: the octahedron between)
 * and the choices that pick the two extra vertices.  It depends only on
 * where the point is, never on the seed. */
typedef struct variant {
  int region;
  int sub;    /* regions 0, 1: 0 when the corner itself is among the closest two,
                 else 1; region 2: 0 both closest points on the far side, 1 both
                 near, 2 one of each */
  int c;      /* the code the extra vertices derive from */
  int c1, c2; /* region 2 with one of each: the far and the near point */
} variant;

static inline __attribute__((always_inline)) variant classify(const lattice *at) {
  variant v = {0, 0, 0, 0, 0};
  double xins = at->xins, yins = at->yins, zins = at->zins;
  double in_sum = xins + yins + zins;
  if (in_sum <= 1) {
    int a_point = 0x01, b_point = 0x02;
    double a_score = xins, b_score = yins;
    if (a_score >= b_score && zins > b_score) {
      b_score = zins;
      b_point = 0x04;
    } else if (a_score < b_score && zins > a_score) {
      a_score = zins;
      a_point = 0x04;
    }
    double wins = 1 - in_sum;
    v.region = 0;
    v.sub = wins > a_score || wins > b_score ? 0 : 1;
    v.c = v.sub == 0 ? (b_score > a_score ? b_point : a_point) : (a_point | b_point);
  } else if (in_sum >= 2) {
    int a_point = 0x06, b_point = 0x05;
    double a_score = xins, b_score = yins;
    if (a_score <= b_score && zins < b_score) {
      b_score = zins;
      b_point = 0x03;
    } else if (a_score > b_score && zins < a_score) {
      a_score = zins;
      a_point = 0x03;
    }
    double wins = 3 - in_sum;
    v.region = 1;
    v.sub = wins < a_score || wins < b_score ? 0 : 1;
    v.c = v.sub == 0 ? (b_score < a_score ? b_point : a_point) : (a_point & b_point);
  } else {
    double a_score, b_score;
    int a_point, b_point, a_further, b_further;
    double p1 = xins + yins;
    if (p1 > 1) {
      a_score = p1 - 1;
      a_point = 0x03;
      a_further = 1;
    } else {
      a_score = 1 - p1;
      a_point = 0x04;
      a_further = 0;
    }
    double p2 = xins + zins;
    if (p2 > 1) {
      b_score = p2 - 1;
      b_point = 0x05;
      b_further = 1;
    } else {
      b_score = 1 - p2;
      b_point = 0x02;
      b_further = 0;
    }
    double p3 = yins + zins;
    if (p3 > 1) {
      double score = p3 - 1;
      if (a_score <= b_score && a_score < score) {
        a_point = 0x06;
        a_further = 1;
      } else if (a_score > b_score && b_score < score) {
        b_point = 0x06;
        b_further = 1;
      }
    } else {
      double score = 1 - p3;
      if (a_score <= b_score && a_score < score) {
        a_point = 0x01;
        a_further = 0;
      } else if (a_score > b_score && b_score < score) {
        b_point = 0x01;
        b_further = 0;
      }
    }
    v.region = 2;
    if (a_further == b_further) {
      v.sub = a_further ? 0 : 1;
      v.c = a_further ? (a_point & b_point) : (a_point | b_point);
    } else {
      v.sub = 2;
      v.c1 = a_further ? a_point : b_point;
      v.c2 = a_further ? b_point : a_point;
    }
  }
  return v;
}

/* The sum of the contributions for a located and classified point, the
 * reference's branches on the point's region in the reference's order. */
static inline __attribute__((always_inline)) double evaluate(const crafter_noise *noise,
                                                             const lattice *at, variant v) {
  int64_t xsb = at->xsb, ysb = at->ysb, zsb = at->zsb;
  double dx0 = at->dx0, dy0 = at->dy0, dz0 = at->dz0;
  double dx_ext0, dy_ext0, dz_ext0, dx_ext1, dy_ext1, dz_ext1;
  int64_t xsv_ext0, ysv_ext0, zsv_ext0, xsv_ext1, ysv_ext1, zsv_ext1;
  double value = 0;

  if (v.region == 0) {
    /* Inside the tetrahedron at (0,0,0). */
    if (v.sub == 0) {
      int c = v.c;
      if ((c & 0x01) == 0) {
        xsv_ext0 = xsb - 1;
        xsv_ext1 = xsb;
        dx_ext0 = dx0 + 1;
        dx_ext1 = dx0;
      } else {
        xsv_ext0 = xsv_ext1 = xsb + 1;
        dx_ext0 = dx_ext1 = dx0 - 1;
      }
      if ((c & 0x02) == 0) {
        ysv_ext0 = ysv_ext1 = ysb;
        dy_ext0 = dy_ext1 = dy0;
        if ((c & 0x01) == 0) {
          ysv_ext1 -= 1;
          dy_ext1 += 1;
        } else {
          ysv_ext0 -= 1;
          dy_ext0 += 1;
        }
      } else {
        ysv_ext0 = ysv_ext1 = ysb + 1;
        dy_ext0 = dy_ext1 = dy0 - 1;
      }
      if ((c & 0x04) == 0) {
        zsv_ext0 = zsb;
        zsv_ext1 = zsb - 1;
        dz_ext0 = dz0;
        dz_ext1 = dz0 + 1;
      } else {
        zsv_ext0 = zsv_ext1 = zsb + 1;
        dz_ext0 = dz_ext1 = dz0 - 1;
      }
    } else {
      int c = v.c;
      if ((c & 0x01) == 0) {
        xsv_ext0 = xsb;
        xsv_ext1 = xsb - 1;
        dx_ext0 = dx0 - 2 * SQUISH3;
        dx_ext1 = dx0 + 1 - SQUISH3;
      } else {
        xsv_ext0 = xsv_ext1 = xsb + 1;
        dx_ext0 = dx0 - 1 - 2 * SQUISH3;
        dx_ext1 = dx0 - 1 - SQUISH3;
      }
      if ((c & 0x02) == 0) {
        ysv_ext0 = ysb;
        ysv_ext1 = ysb - 1;
        dy_ext0 = dy0 - 2 * SQUISH3;
        dy_ext1 = dy0 + 1 - SQUISH3;
      } else {
        ysv_ext0 = ysv_ext1 = ysb + 1;
        dy_ext0 = dy0 - 1 - 2 * SQUISH3;
        dy_ext1 = dy0 - 1 - SQUISH3;
      }
      if ((c & 0x04) == 0) {
        zsv_ext0 = zsb;
        zsv_ext1 = zsb - 1;
        dz_ext0 = dz0 - 2 * SQUISH3;
        dz_ext1 = dz0 + 1 - SQUISH3;
      } else {
        zsv_ext0 = zsv_ext1 = zsb + 1;
        dz_ext0 = dz0 - 1 - 2 * SQUISH3;
        dz_ext1 = dz0 - 1 - SQUISH3;
      }
    }
    value = contribute(noise, value, xsb, ysb, zsb, dx0, dy0, dz0);
    double dx1 = dx0 - 1 - SQUISH3;
    double dy1 = dy0 - 0 - SQUISH3;
    double dz1 = dz0 - 0 - SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb, zsb, dx1, dy1, dz1);
    double dx2 = dx0 - 0 - SQUISH3;
    double dy2 = dy0 - 1 - SQUISH3;
    double dz2 = dz1;
    value = contribute(noise, value, xsb, ysb + 1, zsb, dx2, dy2, dz2);
    double dx3 = dx2;
    double dy3 = dy1;
    double dz3 = dz0 - 1 - SQUISH3;
    value = contribute(noise, value, xsb, ysb, zsb + 1, dx3, dy3, dz3);
  } else if (v.region == 1) {
    /* Inside the tetrahedron at (1,1,1). */
    if (v.sub == 0) {
      int c = v.c;
      if ((c & 0x01) != 0) {
        xsv_ext0 = xsb + 2;
        xsv_ext1 = xsb + 1;
        dx_ext0 = dx0 - 2 - 3 * SQUISH3;
        dx_ext1 = dx0 - 1 - 3 * SQUISH3;
      } else {
        xsv_ext0 = xsv_ext1 = xsb;
        dx_ext0 = dx_ext1 = dx0 - 3 * SQUISH3;
      }
      if ((c & 0x02) != 0) {
        ysv_ext0 = ysv_ext1 = ysb + 1;
        dy_ext0 = dy_ext1 = dy0 - 1 - 3 * SQUISH3;
        if ((c & 0x01) != 0) {
          ysv_ext1 += 1;
          dy_ext1 -= 1;
        } else {
          ysv_ext0 += 1;
          dy_ext0 -= 1;
        }
      } else {
        ysv_ext0 = ysv_ext1 = ysb;
        dy_ext0 = dy_ext1 = dy0 - 3 * SQUISH3;
      }
      if ((c & 0x04) != 0) {
        zsv_ext0 = zsb + 1;
        zsv_ext1 = zsb + 2;
        dz_ext0 = dz0 - 1 - 3 * SQUISH3;
        dz_ext1 = dz0 - 2 - 3 * SQUISH3;
      } else {
        zsv_ext0 = zsv_ext1 = zsb;
        dz_ext0 = dz_ext1 = dz0 - 3 * SQUISH3;
      }
    } else {
      int c = v.c;
      if ((c & 0x01) != 0) {
        xsv_ext0 = xsb + 1;
        xsv_ext1 = xsb + 2;
        dx_ext0 = dx0 - 1 - SQUISH3;
        dx_ext1 = dx0 - 2 - 2 * SQUISH3;
      } else {
        xsv_ext0 = xsv_ext1 = xsb;
        dx_ext0 = dx0 - SQUISH3;
        dx_ext1 = dx0 - 2 * SQUISH3;
      }
      if ((c & 0x02) != 0) {
        ysv_ext0 = ysb + 1;
        ysv_ext1 = ysb + 2;
        dy_ext0 = dy0 - 1 - SQUISH3;
        dy_ext1 = dy0 - 2 - 2 * SQUISH3;
      } else {
        ysv_ext0 = ysv_ext1 = ysb;
        dy_ext0 = dy0 - SQUISH3;
        dy_ext1 = dy0 - 2 * SQUISH3;
      }
      if ((c & 0x04) != 0) {
        zsv_ext0 = zsb + 1;
        zsv_ext1 = zsb + 2;
        dz_ext0 = dz0 - 1 - SQUISH3;
        dz_ext1 = dz0 - 2 - 2 * SQUISH3;
      } else {
        zsv_ext0 = zsv_ext1 = zsb;
        dz_ext0 = dz0 - SQUISH3;
        dz_ext1 = dz0 - 2 * SQUISH3;
      }
    }
    double dx3 = dx0 - 1 - 2 * SQUISH3;
    double dy3 = dy0 - 1 - 2 * SQUISH3;
    double dz3 = dz0 - 0 - 2 * SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb + 1, zsb, dx3, dy3, dz3);
    double dx2 = dx3;
    double dy2 = dy0 - 0 - 2 * SQUISH3;
    double dz2 = dz0 - 1 - 2 * SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb, zsb + 1, dx2, dy2, dz2);
    double dx1 = dx0 - 0 - 2 * SQUISH3;
    double dy1 = dy3;
    double dz1 = dz2;
    value = contribute(noise, value, xsb, ysb + 1, zsb + 1, dx1, dy1, dz1);
    dx0 = dx0 - 1 - 3 * SQUISH3;
    dy0 = dy0 - 1 - 3 * SQUISH3;
    dz0 = dz0 - 1 - 3 * SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb + 1, zsb + 1, dx0, dy0, dz0);
  } else {
    /* Inside the octahedron between the two tetrahedra. */
    if (v.sub != 2) {
      if (v.sub == 0) {
        dx_ext0 = dx0 - 1 - 3 * SQUISH3;
        dy_ext0 = dy0 - 1 - 3 * SQUISH3;
        dz_ext0 = dz0 - 1 - 3 * SQUISH3;
        xsv_ext0 = xsb + 1;
        ysv_ext0 = ysb + 1;
        zsv_ext0 = zsb + 1;
        int c = v.c;
        if ((c & 0x01) != 0) {
          dx_ext1 = dx0 - 2 - 2 * SQUISH3;
          dy_ext1 = dy0 - 2 * SQUISH3;
          dz_ext1 = dz0 - 2 * SQUISH3;
          xsv_ext1 = xsb + 2;
          ysv_ext1 = ysb;
          zsv_ext1 = zsb;
        } else if ((c & 0x02) != 0) {
          dx_ext1 = dx0 - 2 * SQUISH3;
          dy_ext1 = dy0 - 2 - 2 * SQUISH3;
          dz_ext1 = dz0 - 2 * SQUISH3;
          xsv_ext1 = xsb;
          ysv_ext1 = ysb + 2;
          zsv_ext1 = zsb;
        } else {
          dx_ext1 = dx0 - 2 * SQUISH3;
          dy_ext1 = dy0 - 2 * SQUISH3;
          dz_ext1 = dz0 - 2 - 2 * SQUISH3;
          xsv_ext1 = xsb;
          ysv_ext1 = ysb;
          zsv_ext1 = zsb + 2;
        }
      } else {
        dx_ext0 = dx0;
        dy_ext0 = dy0;
        dz_ext0 = dz0;
        xsv_ext0 = xsb;
        ysv_ext0 = ysb;
        zsv_ext0 = zsb;
        int c = v.c;
        if ((c & 0x01) == 0) {
          dx_ext1 = dx0 + 1 - SQUISH3;
          dy_ext1 = dy0 - 1 - SQUISH3;
          dz_ext1 = dz0 - 1 - SQUISH3;
          xsv_ext1 = xsb - 1;
          ysv_ext1 = ysb + 1;
          zsv_ext1 = zsb + 1;
        } else if ((c & 0x02) == 0) {
          dx_ext1 = dx0 - 1 - SQUISH3;
          dy_ext1 = dy0 + 1 - SQUISH3;
          dz_ext1 = dz0 - 1 - SQUISH3;
          xsv_ext1 = xsb + 1;
          ysv_ext1 = ysb - 1;
          zsv_ext1 = zsb + 1;
        } else {
          dx_ext1 = dx0 - 1 - SQUISH3;
          dy_ext1 = dy0 - 1 - SQUISH3;
          dz_ext1 = dz0 + 1 - SQUISH3;
          xsv_ext1 = xsb + 1;
          ysv_ext1 = ysb + 1;
          zsv_ext1 = zsb - 1;
        }
      }
    } else {
      int c1 = v.c1, c2 = v.c2;
      if ((c1 & 0x01) == 0) {
        dx_ext0 = dx0 + 1 - SQUISH3;
        dy_ext0 = dy0 - 1 - SQUISH3;
        dz_ext0 = dz0 - 1 - SQUISH3;
        xsv_ext0 = xsb - 1;
        ysv_ext0 = ysb + 1;
        zsv_ext0 = zsb + 1;
      } else if ((c1 & 0x02) == 0) {
        dx_ext0 = dx0 - 1 - SQUISH3;
        dy_ext0 = dy0 + 1 - SQUISH3;
        dz_ext0 = dz0 - 1 - SQUISH3;
        xsv_ext0 = xsb + 1;
        ysv_ext0 = ysb - 1;
        zsv_ext0 = zsb + 1;
      } else {
        dx_ext0 = dx0 - 1 - SQUISH3;
        dy_ext0 = dy0 - 1 - SQUISH3;
        dz_ext0 = dz0 + 1 - SQUISH3;
        xsv_ext0 = xsb + 1;
        ysv_ext0 = ysb + 1;
        zsv_ext0 = zsb - 1;
      }
      dx_ext1 = dx0 - 2 * SQUISH3;
      dy_ext1 = dy0 - 2 * SQUISH3;
      dz_ext1 = dz0 - 2 * SQUISH3;
      xsv_ext1 = xsb;
      ysv_ext1 = ysb;
      zsv_ext1 = zsb;
      if ((c2 & 0x01) != 0) {
        dx_ext1 -= 2;
        xsv_ext1 += 2;
      } else if ((c2 & 0x02) != 0) {
        dy_ext1 -= 2;
        ysv_ext1 += 2;
      } else {
        dz_ext1 -= 2;
        zsv_ext1 += 2;
      }
    }
    double dx1 = dx0 - 1 - SQUISH3;
    double dy1 = dy0 - 0 - SQUISH3;
    double dz1 = dz0 - 0 - SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb, zsb, dx1, dy1, dz1);
    double dx2 = dx0 - 0 - SQUISH3;
    double dy2 = dy0 - 1 - SQUISH3;
    double dz2 = dz1;
    value = contribute(noise, value, xsb, ysb + 1, zsb, dx2, dy2, dz2);
    double dx3 = dx2;
    double dy3 = dy1;
    double dz3 = dz0 - 1 - SQUISH3;
    value = contribute(noise, value, xsb, ysb, zsb + 1, dx3, dy3, dz3);
    double dx4 = dx0 - 1 - 2 * SQUISH3;
    double dy4 = dy0 - 1 - 2 * SQUISH3;
    double dz4 = dz0 - 0 - 2 * SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb + 1, zsb, dx4, dy4, dz4);
    double dx5 = dx4;
    double dy5 = dy0 - 0 - 2 * SQUISH3;
    double dz5 = dz0 - 1 - 2 * SQUISH3;
    value = contribute(noise, value, xsb + 1, ysb, zsb + 1, dx5, dy5, dz5);
    double dx6 = dx0 - 0 - 2 * SQUISH3;
    double dy6 = dy4;
    double dz6 = dz5;
    value = contribute(noise, value, xsb, ysb + 1, zsb + 1, dx6, dy6, dz6);
  }
  value = contribute(noise, value, xsv_ext0, ysv_ext0, zsv_ext0, dx_ext0, dy_ext0, dz_ext0);
  value = contribute(noise, value, xsv_ext1, ysv_ext1, zsv_ext1, dx_ext1, dy_ext1, dz_ext1);
  return value / NORM3;
}

double crafter_noise3(const crafter_noise *noise, double x, double y, double z) {
  lattice at = locate(x, y, z);
  return evaluate(noise, &at, classify(&at));
}
