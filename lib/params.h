/* params: the arguments of crafter.Env (area, view, size, reward, length,
 * seed), their defaults and their bounds. */
#ifndef CRAFTER_PARAMS_H
#define CRAFTER_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* The ranges of the parameters the programs and files share.  A seed leaves room for
 * seed+i, the seed of environment i, within 64 bits; the episode counter
 * and the time limit are what the trajectory format stores
 * (crafter-trajectory(5)). */
#define CRAFTER_SEED_MIN (INT64_MIN / 2) /* -2**62 */
#define CRAFTER_SEED_MAX (INT64_MAX / 2) /* 2**62 - 1 */
#define CRAFTER_EPISODE_MAX INT32_MAX    /* 2**31 - 1 */
#define CRAFTER_LENGTH_MAX 1000000000

typedef struct crafter_params {
  int area[2];   /* world width, height */
  int view[2];   /* view grid width, height (local view plus inventory rows) */
  int size[2];   /* observation width, height in pixels */
  int reward;    /* 0: step() reports a reward of 0 */
  long length;   /* time limit in steps; 0 for none */
  int64_t seed;  /* the Env seed */
} crafter_params;

/* Crafter's defaults: area 64x64, view 9x9, size 64x64, reward on,
 * length 10000, seed 0. */
void crafter_params_default(crafter_params *params);

/* Checks parameters; on failure writes a sentence to `error` and returns -1. */
int crafter_params_check(const crafter_params *params, char *error, size_t error_size);

/* The rows of the view a view this wide gives to the inventory. */
int crafter_params_item_rows(int view_width);

#endif
