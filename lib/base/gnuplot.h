/* gnuplot: plots drawn by gnuplot from a script the caller writes.  The
 * script goes through a temporary file rather than a pipe, so a gnuplot
 * that dies early cannot kill the caller with SIGPIPE, and gnuplot reads
 * /dev/null as its standard input, never the caller's (which may be a
 * data pipe). */
#ifndef CRAFTER_GNUPLOT_H
#define CRAFTER_GNUPLOT_H

#include <stddef.h>
#include <stdio.h>

enum {
  CRAFTER_GNUPLOT_OK = 0,
  CRAFTER_GNUPLOT_FAILED = -1,  /* said in the message */
  CRAFTER_GNUPLOT_MISSING = 1,  /* gnuplot cannot be found on PATH */
  CRAFTER_GNUPLOT_REFUSED = 2,  /* gnuplot ran and failed; it said why */
};

typedef struct crafter_gnuplot {
  FILE *script; /* where the caller writes the script */
  char path[4096];
} crafter_gnuplot;

/* Opens a script in a temporary file of $TMPDIR (else /tmp) named after
 * `name`.  0, or -1 with a message. */
int crafter_gnuplot_open(crafter_gnuplot *plot, const char *name, char *error,
                         size_t error_size);

/* Closes the script, runs gnuplot on it, waits for it and removes the
 * script: CRAFTER_GNUPLOT_OK; CRAFTER_GNUPLOT_FAILED with a message (the
 * script could not be written, gnuplot could not be started);
 * CRAFTER_GNUPLOT_MISSING; CRAFTER_GNUPLOT_REFUSED. */
int crafter_gnuplot_run(crafter_gnuplot *plot, char *error, size_t error_size);

/* `text` as a gnuplot single-quoted string: no escapes but '' for a
 * quote; a line break would end the command, so control characters
 * become '?'. */
void crafter_gnuplot_string(FILE *out, const char *text);

#endif
