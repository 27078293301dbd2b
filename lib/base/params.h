/* params: the arguments of crafter.Env (area, view, size, reward, length,
 * seed), their defaults and their bounds.  The struct, its defaults and
 * its check are public (crafter/crafter.h); here the bounds the programs
 * and files share. */
#ifndef CRAFTER_PARAMS_H
#define CRAFTER_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "crafter/crafter.h"

/* The ranges of the parameters the programs and files share.  A seed leaves room for
 * seed+i, the seed of environment i, within 64 bits; the episode counter
 * and the time limit are what the trajectory format stores
 * (crafter-trajectory(5)). */
#define CRAFTER_SEED_MIN (INT64_MIN / 2) /* -2**62 */
#define CRAFTER_SEED_MAX (INT64_MAX / 2) /* 2**62 - 1 */
#define CRAFTER_EPISODE_MAX INT32_MAX    /* 2**31 - 1 */
#define CRAFTER_LENGTH_MAX 1000000000

/* The rows of the view a view this wide gives to the inventory. */
int crafter_params_item_rows(int view_width);

#endif
