#include "kernels/kernels.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/cc_kernels.h"
#include "kernels/fastgen.h"
#include "kernels/rng_kernels.h"
#include "kernels/shade.h"

static int chosen_level = -1;
static int plain_paths = -1;

int crafter_kernels_best(void) {
  int best = 0;
#if defined(CRAFTER_FASTGEN_X86)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("bmi2"))
    best = 3;
  if (best == 3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    best = 4;
#endif
  return best;
}

int crafter_kernels_plain(void) {
  int plain = __atomic_load_n(&plain_paths, __ATOMIC_RELAXED);
  if (plain < 0) {
    const char *asked = getenv("CRAFTER_KERNELS");
    plain = asked && strcmp(asked, "plain") == 0;
    __atomic_store_n(&plain_paths, plain, __ATOMIC_RELAXED);
  }
  return plain;
}

void crafter_kernels_set_plain(int plain) {
  __atomic_store_n(&plain_paths, plain < 0 ? -1 : plain != 0, __ATOMIC_RELAXED);
  crafter_kernels_set_level(-1);
}

int crafter_kernels_set_level(int level) {
  int best = crafter_kernels_best();
  const char *asked = getenv("CRAFTER_KERNELS");
  if (crafter_kernels_plain())
    best = 0;
  else if (asked && (strcmp(asked, "3") == 0 || strcmp(asked, "0") == 0) && atoi(asked) < best)
    best = atoi(asked);
  int chosen = level < 0 || level > best ? best : level < 3 ? 0 : level;
  __atomic_store_n(&chosen_level, chosen, __ATOMIC_RELAXED);
  return chosen;
}

int crafter_kernels_level(void) {
  int level = __atomic_load_n(&chosen_level, __ATOMIC_RELAXED);
  return level >= 0 ? level : crafter_kernels_set_level(-1);
}

const char *crafter_kernels_name(void) {
  if (crafter_kernels_plain()) return "plain paths";
  switch (crafter_kernels_level()) {
    case 4: return "x86-64-v4";
    case 3: return "x86-64-v3";
    default: return "plain C";
  }
}

/* ---- The copies, by level ---- */

#define FASTGEN_KERNELS(suffix)                                         \
  {crafter_noise_field_add_##suffix, crafter_fastgen_facts_##suffix, \
   crafter_fastgen_settle_##suffix}
static const crafter_fastgen_kernels fastgen_base = FASTGEN_KERNELS(base);
#if defined(CRAFTER_FASTGEN_X86)
static const crafter_fastgen_kernels fastgen_v3 = FASTGEN_KERNELS(v3),
                                     fastgen_v4 = FASTGEN_KERNELS(v4);
#endif

const crafter_fastgen_kernels *crafter_kernels_fastgen(void) {
#if defined(CRAFTER_FASTGEN_X86)
  switch (crafter_kernels_level()) {
    case 4: return &fastgen_v4;
    case 3: return &fastgen_v3;
  }
#endif
  return &fastgen_base;
}

int crafter_noise_field_add(const crafter_noise *noise, double z, double ax, double ay,
                            double weight, int width, int blocks, const uint8_t *wanted,
                            double *acc, int stride) {
  return crafter_kernels_fastgen()->field_add(noise, z, ax, ay, weight, width, blocks, wanted,
                                              acc, stride);
}

#define CC_KERNELS(suffix)                                                          \
  {crafter_cc_bits_##suffix, crafter_cc_sincos_##suffix, crafter_cc_gradients_##suffix, \
   crafter_cc_noise_##suffix, crafter_cc_terrain_##suffix}
static const crafter_cc_kernels cc_base = CC_KERNELS(base);
#if defined(CRAFTER_FASTGEN_X86)
static const crafter_cc_kernels cc_v3 = CC_KERNELS(v3), cc_v4 = CC_KERNELS(v4);
#endif

const crafter_cc_kernels *crafter_kernels_cc(void) {
#if defined(CRAFTER_FASTGEN_X86)
  switch (crafter_kernels_level()) {
    case 4: return &cc_v4;
    case 3: return &cc_v3;
  }
#endif
  return &cc_base;
}

crafter_twist_fn crafter_kernels_twist(void) {
#if defined(CRAFTER_FASTGEN_X86)
  switch (crafter_kernels_level()) {
    case 4: return crafter_mt_twist_v4;
    case 3: return crafter_mt_twist_v3;
  }
#endif
  return crafter_mt_twist_base;
}

crafter_peek16_fn crafter_kernels_peek16(void) {
#if defined(CRAFTER_FASTGEN_X86)
  switch (crafter_kernels_level()) {
    case 4: return crafter_rng_peek16_v4;
    case 3: return crafter_rng_peek16_v3;
  }
#endif
  return crafter_rng_peek16_base;
}

crafter_shade_fn crafter_kernels_shade(void) {
#if defined(CRAFTER_FASTGEN_X86)
  switch (crafter_kernels_level()) {
    case 4: return crafter_shade_run_v4;
    case 3: return crafter_shade_run_v3;
  }
#endif
  return crafter_shade_run_base;
}
