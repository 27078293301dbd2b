/* kernels: which copy of the vector kernels runs.
 *
 * The files of vector kernels (fastgen.c, rng_kernels.c, shade.c) are
 * compiled once for each instruction set the build knows (x86-64-v4 and
 * x86-64-v3 on x86-64, and plain C everywhere), each copy with its own
 * suffix.  This module knows only levels: which copies the processor can
 * run, and which one is chosen; each module that calls kernels keeps its
 * own table of copies (rng.c, render.c, worldgen.c).
 *
 * CRAFTER_KERNELS=plain in the environment forces the plain C copies and
 * the plain paths everywhere (world generation without the fast
 * generator), so that a difference can be bisected; CRAFTER_KERNELS=3
 * (or 4) caps the level. */
#ifndef CRAFTER_KERNELS_H
#define CRAFTER_KERNELS_H

/* In the files compiled once per level, VARIANT(name) names this copy's
 * function: name_v4, name_v3 or name_base. */
#ifndef FASTGEN_SUFFIX
#define FASTGEN_SUFFIX base
#endif
#define VARIANT_JOIN(name, suffix) name##_##suffix
#define VARIANT_EXPAND(name, suffix) VARIANT_JOIN(name, suffix)
#define VARIANT(name) VARIANT_EXPAND(name, FASTGEN_SUFFIX)

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

#endif
