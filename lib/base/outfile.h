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
 * A file the user may not write is refused, as opening it would be.
 *
 * A program that calls crafter_outfile_remove_on_signals() leaves no
 * temporary behind when SIGINT, SIGTERM, SIGHUP or SIGPIPE ends it; a
 * SIGKILL (or a crash) can leave the temporary of a file being written,
 * and the path then holds its old file. */
#ifndef CRAFTER_OUTFILE_H
#define CRAFTER_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  FILE *file;      /* write here */
  char *path;      /* the file finally written: the path, or a link's target */
  char *temporary; /* the temporary being written, or NULL when in place */
  int registered;  /* its slot in the list a signal removes, plus 1; 0 for none */
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

/* Flushes what was written and renames the temporary over the path now;
 * the file stays open and what follows is written to it in place (for a
 * file that is worth having as soon as it holds something, such as a
 * recording once it holds an episode).  Nothing to do when written in
 * place.  Returns 0, or -1 with the reason (OUT is then still open, to be
 * aborted). */
int crafter_outfile_publish(crafter_outfile *out, char *error, size_t error_size);

/* ---- signals ----
 *
 * Signals belong to the process, so this is the one state of the library
 * that is process-wide: the list of temporaries being written (at most 16
 * at once, each with a path shorter than PATH_MAX; others are written all
 * the same, only not removed on a signal), the signal that came, and how
 * many writes are under way that must not be cut.  The handler only
 * removes the listed temporaries (unlink(2)) and ends the process by the
 * signal that came; it takes no lock and calls nothing else. */

/* Makes SIGINT, SIGTERM, SIGHUP and SIGPIPE remove every temporary being
 * written, then end the process as the signal would have (a shell then
 * reports status 128 + the signal's number).  A signal the process
 * ignores from its start (nohup, a background job) stays ignored.  For
 * programs, once at their start. */
void crafter_outfile_remove_on_signals(void);

/* Brackets a write that readers of the path must never see cut in the
 * middle (a chunk of a file already at its path, with the rename that
 * publishes it): a signal that comes meanwhile ends the process only at
 * the release, once the write is whole.  Holds nest, from any thread; a
 * hold taken once a signal came does not return (the process ends when
 * the writes under way are whole). */
void crafter_outfile_hold_signals(void);
void crafter_outfile_release_signals(void);

#endif
