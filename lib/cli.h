/* cli: small helpers the programs share for parsing options and reporting
 * errors the same way: `program: what went wrong` on stderr. */
#ifndef CRAFTER_CLI_H
#define CRAFTER_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

/* Parses "W,H" (or a single "N" for N,N) into two ints in [minimum, maximum].
 * Returns 0, or -1 if the text is not of that form. */
int crafter_parse_pair(const char *text, int minimum, int maximum, int out[2]);

/* Parses a whole decimal integer in [minimum, maximum]; 0 or -1. */
int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out);

/* Parses the argument of an option as a whole decimal integer in
 * [minimum, maximum], or prints `program: invalid WHAT 'TEXT' (expected an
 * integer from MINIMUM to MAXIMUM)` and a hint to --help, and exits with
 * status 2. */
int64_t crafter_option_int64(const char *program, const char *what, const char *text,
                             int64_t minimum, int64_t maximum);

/* Prints `program: message` (format with one string argument, shown as
 * crafter_escape shows it) and a hint to --help on stderr, and exits with
 * status 2. */
void crafter_usage_error(const char *program, const char *format, const char *argument)
    __attribute__((noreturn));

/* Copies text[0..length) into out[out_size] (at least 4 bytes) for an
 * error message, so that input echoed to a terminal cannot drive it:
 * printable ASCII and well-formed UTF-8 stay as they are, a backslash
 * becomes \\, and every other byte (NUL, control characters, DEL, C1
 * controls, broken UTF-8) becomes \xHH.  When the result does not fit it
 * is cut at a whole character and ends in "...".  Returns out. */
const char *crafter_escape(char *out, size_t out_size, const char *text, size_t length);

/* Finishes standard output at the end of a program: flushes and closes it
 * and checks that everything written reached its destination (a full
 * disk, a closed pipe with SIGPIPE ignored).  On a failure prints
 * `program: write error: reason` on stderr and returns 1; otherwise
 * returns STATUS, so that `return crafter_close_stdout(PROGRAM, status);`
 * ends a main().  A STATUS already non-zero with the stream already in
 * error is taken as reported and returned quietly.  Nothing may be
 * written to stdout afterwards. */
int crafter_close_stdout(const char *program, int status);

#endif
