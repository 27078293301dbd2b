/* npmath: elementary functions as numpy 1.24 computes them, where that
 * differs from the C library.
 *
 * The reference traces were recorded on an x86-64 machine with AVX-512,
 * where numpy evaluates float64 cos with a vectorised routine of its own
 * (accurate to a few ulp, not correctly rounded).  Crafter's daylight goes
 * through np.cos, so matching the traces bit for bit needs that routine's
 * exact sequence of operations, reproduced here in portable C. */
#ifndef CRAFTER_NPMATH_H
#define CRAFTER_NPMATH_H

/* np.cos(x) for |x| < 2**20, as numpy computes it with AVX-512. */
double crafter_np_cos(double x);

#endif
