/* rng_kernels: MT19937's twist and sixteen of numpy's uniform draws at
 * once, one copy per instruction set (variant.h); exact in every copy:
 * whole words, and doubles scaled by powers of two.  kernels.h picks the copy. */
#ifndef CRAFTER_RNG_KERNELS_H
#define CRAFTER_RNG_KERNELS_H

#include <stdint.h>

#define CRAFTER_RNG_KERNELS_DECLARE(suffix)                      \
  void crafter_mt_twist_##suffix(uint32_t *state);               \
  void crafter_rng_peek16_##suffix(const uint32_t *words, double *out);
CRAFTER_RNG_KERNELS_DECLARE(base)
CRAFTER_RNG_KERNELS_DECLARE(v3)
CRAFTER_RNG_KERNELS_DECLARE(v4)

#endif
