/* shade: the light of a run of pixels, exactly as the reference computes
 * it, eight at a time; one copy per instruction set (variant.h), chosen by
 * kernels.h.  colour is `count` RGB triples; vignette and noise, the
 * night's, or both NULL by day; pixel i goes to out + i * out_stride. */
#ifndef CRAFTER_SHADE_H
#define CRAFTER_SHADE_H

#include <stddef.h>
#include <stdint.h>

#define CRAFTER_SHADE_DECLARE(suffix)                                                         \
  void crafter_shade_run_##suffix(const uint8_t *colour, int count, double daylight,          \
                                  int sleeping, double amount, const double *vignette,        \
                                  const double *noise, uint8_t *out, ptrdiff_t out_stride);
CRAFTER_SHADE_DECLARE(base)
CRAFTER_SHADE_DECLARE(v3)
CRAFTER_SHADE_DECLARE(v4)

#endif
