/* cli: small helpers the programs share for parsing options and reporting
 * errors the same way: `program: what went wrong` on stderr. */
#ifndef CRAFTER_CLI_H
#define CRAFTER_CLI_H

#include <stdint.h>

/* Parses "W,H" (or a single "N" for N,N) into two ints in [minimum, maximum].
 * Returns 0, or -1 if the text is not of that form. */
int crafter_parse_pair(const char *text, int minimum, int maximum, int out[2]);

/* Parses a whole decimal integer in [minimum, maximum]; 0 or -1. */
int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out);

#endif
