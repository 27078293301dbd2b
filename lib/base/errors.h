/* errors: how a function of the library says why it failed.  A function
 * that can fail for a reason the user should read takes `char *error,
 * size_t error_size`, writes one sentence there (no program name, no
 * newline) and returns -1 (or NULL); the program prints it as
 * `program: sentence`. */
#ifndef CRAFTER_ERRORS_H
#define CRAFTER_ERRORS_H

#include <stddef.h>

/* Writes a message into error[error_size] and returns -1. */
int crafter_fail(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
