/* noise: 3D OpenSimplex noise as the Python package opensimplex 0.4.5
 * computes it, bit for bit in double precision.
 *
 * The results match only when this file is compiled without floating-point
 * contraction (-ffp-contract=off) and without -ffast-math: every sum and
 * product happens in the order the reference performs it. */
#ifndef CRAFTER_NOISE_H
#define CRAFTER_NOISE_H

#include <stdint.h>

typedef struct crafter_noise {
  uint8_t perm[256];
  uint8_t gradient_index[256]; /* offset of the gradient in the table, 0..69 */
} crafter_noise;

/* OpenSimplex(seed): the permutation set-up of opensimplex 0.4.5. */
void crafter_noise_init(crafter_noise *noise, int64_t seed);

/* OpenSimplex(seed).noise3(x, y, z). */
double crafter_noise3(const crafter_noise *noise, double x, double y, double z);

/* The gradients of OpenSimplex 3D, 24 of them, x y z. */
extern const double crafter_gradients3[72];

/* A bound on |noise3|: the sum over the vertices in reach of
 * (2 - d^2)^4 * |d| * max|gradient| / 103, whatever the gradients, is at
 * most 1.016 anywhere (its maximum over a fine grid of the lattice's
 * repeating cell), so 1.1 leaves room. */
#define CRAFTER_NOISE_BOUND 1.1
#endif
