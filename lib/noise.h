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

/* The fast, inexact companion of crafter_noise3 for a whole area at once.
 *
 * The area is `width` rows of `blocks` blocks of 8 cells; wanted[x *
 * blocks + b] nonzero asks for the cells 8b..8b+7 of row x.  For every
 * cell (x, y) of every wanted block this adds weight * noise3(x * ax,
 * y * ay, z) to acc[x * stride + y], stride >= 8 * blocks.  Other cells
 * near wanted ones may change too.  Instead of finding the lattice
 * vertices around each point the reference's way, it either visits each
 * lattice vertex that reaches a wanted block once and spreads its
 * contribution over the blocks in its reach (when every block is wanted),
 * or sums, block by block, the vertices that reach each wanted block.
 *
 * The result is within CRAFTER_NOISE_FIELD_ERROR * |weight| of the
 * reference's value, for two reasons.  The sum runs in another order, which
 * changes only rounding (about 1e-15).  And the reference sums at most eight
 * vertices per point, chosen by region, which now and then leaves out one
 * vertex that is in reach: always one whose attenuation 2 - d^2 is below
 * 1/6, so its term is at most (1/6)^4 * sqrt(2) * |gradient| / 103 =
 * 1.31e-4.  Here every vertex in reach counts.  (The unit tests measure
 * both claims over millions of points.)
 *
 * acc is best aligned to 64 bytes.  Returns 0, or -1 before writing
 * anything when memory runs out or the area holds too many lattice
 * vertices for this to be fast (scales finer than a few vertices per
 * cell). */
#define CRAFTER_NOISE_FIELD_ERROR 1.5e-4

/* A bound on |noise3|: the sum over the vertices in reach of
 * (2 - d^2)^4 * |d| * max|gradient| / 103, whatever the gradients, is at
 * most 1.016 anywhere (its maximum over a fine grid of the lattice's
 * repeating cell), so 1.1 leaves room. */
#define CRAFTER_NOISE_BOUND 1.1
int crafter_noise_field_add(const crafter_noise *noise, double z, double ax, double ay,
                            double weight, int width, int blocks, const uint8_t *wanted,
                            double *acc, int stride);

#endif
