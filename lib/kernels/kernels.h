/* kernels: which copy of the vector kernels runs, for every family of
 * kernels in one place.
 *
 * The files of vector kernels (fastgen.c: the terrain; rng_kernels.c:
 * MT19937; shade.c: the pixels' light; cc_kernels.c: Craftax-Classic's
 * worlds) are compiled once for each
 * instruction set the build knows (x86-64-v4 and x86-64-v3 on x86-64, and
 * plain C everywhere), each copy with its own suffix (variant.h).  This
 * module knows which copies the processor can run, which one is chosen,
 * and hands out the chosen copy of each family: worldgen.c, rng.c and
 * render.c call their kernels through it.
 *
 * CRAFTER_KERNELS=plain in the environment forces the plain C copies and
 * the plain paths everywhere (world generation without the fast
 * generator), so that a difference can be bisected; CRAFTER_KERNELS=3
 * (or 4) caps the level. */
#ifndef CRAFTER_KERNELS_H
#define CRAFTER_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/noise.h"

/* The best level this processor runs and this build has: 4, 3 or 0. */
int crafter_kernels_best(void);

/* The copy that runs: 4 (x86-64-v4), 3 (x86-64-v3) or 0 (plain C). */
int crafter_kernels_level(void);

/* Picks a copy, for tests: the best this processor runs if level is -1 or
 * beyond it.  Not thread-safe; returns the level now in use. */
int crafter_kernels_set_level(int level);

/* 1 when CRAFTER_KERNELS=plain asked for the plain paths everywhere. */
int crafter_kernels_plain(void);

/* What runs, for reports: "plain paths" (CRAFTER_KERNELS=plain),
 * "x86-64-v4", "x86-64-v3" or "plain C" (the kernels' portable copy). */
const char *crafter_kernels_name(void);

/* Turns the plain paths on (1) or off (0) whatever the environment says,
 * for tests; -1 goes back to what it says.  Not thread-safe. */
void crafter_kernels_set_plain(int plain);

/* ---- The copy of each family at the level in use ---- */

/* The fast world generator's kernels (fastgen.h). */
struct crafter_fastgen_kernels;
const struct crafter_fastgen_kernels *crafter_kernels_fastgen(void);

/* The fast generator's noise fields (fastgen.h says what it computes and
 * how far from the reference's values). */
int crafter_noise_field_add(const crafter_noise *noise, double z, double ax, double ay,
                            double weight, int width, int blocks, const uint8_t *wanted,
                            double *acc, int stride);

/* Craftax-Classic's world generation (cc_kernels.h). */
struct crafter_cc_kernels;
const struct crafter_cc_kernels *crafter_kernels_cc(void);

/* MT19937's twist of a whole state, and sixteen of numpy's uniform
 * doubles from sixteen words (rng_kernels.h). */
typedef void (*crafter_twist_fn)(uint32_t *state);
typedef void (*crafter_peek16_fn)(const uint32_t *words, double *out);
crafter_twist_fn crafter_kernels_twist(void);
crafter_peek16_fn crafter_kernels_peek16(void);

/* The light of a run of pixels (shade.h). */
typedef void (*crafter_shade_fn)(const uint8_t *colour, int count, double daylight, int sleeping,
                                 double amount, const double *vignette, const double *noise,
                                 uint8_t *out, ptrdiff_t out_stride);
crafter_shade_fn crafter_kernels_shade(void);

#endif
