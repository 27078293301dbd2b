/* outfile: output files that a reader never sees half written, and that
 * never replace what their path names with something else.
 *
 * A path that names a regular file, or nothing yet, is written to a
 * temporary file in the same folder and renamed over the path only once it
 * is complete: an interrupted or failed write leaves the old file (or no
 * file) and at most a temporary `PATH.tmp.XXXXXX` beside it.  (The data is
 * not forced to disk: a crash of the whole machine is not covered.)
 * Symbolic links are followed: the last target is what gets written, made
 * if it does not exist, and the links stay links.  /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N are written through a copy
 * of that descriptor, so `>>` and a redirection shared with other commands
 * keep what they hold.  A path that names anything else (a FIFO, a device
 * such as /dev/full, a terminal) is written in place, since renaming over
 * it would replace the node; so is a file whose folder takes no new names.
 * A file the user may not write is refused, as opening it would be. */
#ifndef CRAFTER_OUTFILE_H
#define CRAFTER_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  FILE *file;      /* write here */
  char *path;      /* the file finally written: the path, or a link's target */
  char *temporary; /* the temporary being written, or NULL when in place */
} crafter_outfile;

/* Opens PATH for writing in binary mode.  Returns 0, or -1 with a reason
 * that names the path in error[error_size]. */
int crafter_outfile_open(crafter_outfile *out, const char *path, char *error, size_t error_size);

/* Flushes and closes the file and, for a temporary, renames it over the
 * path.  Returns 0, or -1 with the reason (the temporary is then removed
 * and the path left as it was).  Either way OUT is released. */
int crafter_outfile_commit(crafter_outfile *out, char *error, size_t error_size);

/* Gives up: closes the file and removes the temporary.  Safe to call on an
 * OUT that was released or never opened (zeroed). */
void crafter_outfile_abort(crafter_outfile *out);

#endif
