/* variant: the name of this copy of a vector kernel.  The files of
 * kernels (fastgen.c, rng_kernels.c, shade.c) are compiled once per
 * instruction set with FASTGEN_SUFFIX set to v4, v3 or base, and
 * VARIANT(name) names this copy's function: name_v4, name_v3 or
 * name_base.  kernels.h picks the copy that runs. */
#ifndef CRAFTER_VARIANT_H
#define CRAFTER_VARIANT_H

#ifndef FASTGEN_SUFFIX
#define FASTGEN_SUFFIX base
#endif
#define VARIANT_JOIN(name, suffix) name##_##suffix
#define VARIANT_EXPAND(name, suffix) VARIANT_JOIN(name, suffix)
#define VARIANT(name) VARIANT_EXPAND(name, FASTGEN_SUFFIX)

#endif
