/* realpath() and readlink() are X/Open. */
#define _XOPEN_SOURCE 700

#include "base/outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errors.h"

enum { MAX_LINK_HOPS = 40 };

/* ---- the temporaries a signal removes (outfile.h, signals) ----
 *
 * Process-wide, as signals are.  A slot is taken (FREE to FILLING by a
 * compare-and-swap, so threads never share one), its path copied, then
 * marked LISTED: the handler reads only LISTED slots, whose path is whole.
 * A slot is freed only after its temporary was renamed or removed, so a
 * signal in between at worst removes a name that no longer exists. */
enum { REGISTRY_SLOTS = 16, SLOT_FREE = 0, SLOT_FILLING, SLOT_LISTED };
static struct {
  atomic_int state;
  char path[PATH_MAX];
} registry[REGISTRY_SLOTS];
static atomic_int pending_signal; /* the signal that came, 0 for none */
static atomic_int holds;          /* writes under way that a signal must not cut */

static void list_temporary(crafter_outfile *out) {
  size_t length = strlen(out->temporary);
  if (length >= PATH_MAX) return;
  for (int slot = 0; slot < REGISTRY_SLOTS; slot++) {
    int expected = SLOT_FREE;
    if (!atomic_compare_exchange_strong(&registry[slot].state, &expected, SLOT_FILLING)) continue;
    memcpy(registry[slot].path, out->temporary, length + 1);
    atomic_store(&registry[slot].state, SLOT_LISTED);
    out->registered = slot + 1;
    return;
  }
}

static void unlist_temporary(crafter_outfile *out) {
  if (out->registered) atomic_store(&registry[out->registered - 1].state, SLOT_FREE);
  out->registered = 0;
}

/* Async-signal-safe: unlink(2), sigaction(2) and raise(3) only. */
static void end_by_signal(int signal_number) {
  for (int slot = 0; slot < REGISTRY_SLOTS; slot++)
    if (atomic_load(&registry[slot].state) == SLOT_LISTED) unlink(registry[slot].path);
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, NULL);
  raise(signal_number); /* delivered once the handler returns, when called from it */
}

/* The signal is noted before the holds are looked at, and a release drops
 * its hold before it looks at the signal: whichever comes last sees the
 * other, so a signal is never lost between the two. */
static void on_signal(int signal_number) {
  int saved = errno;
  atomic_store(&pending_signal, signal_number);
  if (atomic_load(&holds) == 0) end_by_signal(signal_number);
  errno = saved;
}

void crafter_outfile_remove_on_signals(void) {
  static const int signals[] = {SIGHUP, SIGINT, SIGPIPE, SIGTERM};
  enum { COUNT = sizeof(signals) / sizeof(signals[0]) };
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < COUNT; i++) sigaddset(&action.sa_mask, signals[i]);
  /* A deferred signal must not disturb the program's reads and writes. */
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < COUNT; i++) {
    struct sigaction old;
    if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(signals[i], &action, NULL);
  }
}

void crafter_outfile_release_signals(void) {
  if (atomic_fetch_sub(&holds, 1) != 1) return;
  int signal_number = atomic_load(&pending_signal);
  if (signal_number) end_by_signal(signal_number);
}

/* A write that would begin once a signal came never begins: the process
 * ends at the last release of the writes under way (or here, when there
 * is none). */
void crafter_outfile_hold_signals(void) {
  atomic_fetch_add(&holds, 1);
  if (!atomic_load(&pending_signal)) return;
  crafter_outfile_release_signals();
  for (;;) pause();
}

/* ---- output files ---- */

static void release(crafter_outfile *out) {
  unlist_temporary(out);
  free(out->path);
  free(out->temporary);
  memset(out, 0, sizeof(*out));
}

/* The descriptor a path names without opening anything new: /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N; -1 for any other path.  Such a
 * path is written through a copy of the descriptor, so an append (>>) or a
 * redirection shared with other commands keeps what it holds. */
static int descriptor_named(const char *path) {
  if (strcmp(path, "/dev/stdout") == 0) return STDOUT_FILENO;
  if (strcmp(path, "/dev/stderr") == 0) return STDERR_FILENO;
  const char *number = NULL;
  if (strncmp(path, "/dev/fd/", 8) == 0) number = path + 8;
  if (strncmp(path, "/proc/self/fd/", 14) == 0) number = path + 14;
  if (!number || *number < '0' || *number > '9') return -1;
  char *end;
  long descriptor = strtol(number, &end, 10);
  return *end == '\0' && descriptor <= INT_MAX ? (int)descriptor : -1;
}

/* Follows the chain of symbolic links from path to the name a write
 * should replace: the last link's target, whether or not it exists yet.
 * NULL when out of memory; the path itself when it is no link, for a
 * chain that leads into /dev or /proc (written in place there), and for
 * one too long to follow (the open then fails with ELOOP). */
static char *target_of(const char *path) {
  char *current = strdup(path);
  for (int hop = 0; current && hop < MAX_LINK_HOPS; hop++) {
    struct stat status;
    if (lstat(current, &status) != 0 || !S_ISLNK(status.st_mode)) return current;
    char link[PATH_MAX];
    ssize_t length = readlink(current, link, sizeof(link) - 1);
    if (length < 0) return current;
    link[length] = '\0';
    if (strncmp(link, "/dev/", 5) == 0 || strncmp(link, "/proc/", 6) == 0) break;
    char *next;
    const char *slash = strrchr(current, '/');
    if (link[0] == '/' || !slash) {
      next = strdup(link);
    } else { /* relative to the link's own folder */
      size_t folder = (size_t)(slash - current) + 1;
      next = malloc(folder + (size_t)length + 1);
      if (next) {
        memcpy(next, current, folder);
        memcpy(next + folder, link, (size_t)length + 1);
      }
    }
    free(current);
    current = next;
  }
  free(current);
  return strdup(path);
}

static int open_in_place(crafter_outfile *out, const char *path, int descriptor, char *error,
                         size_t error_size) {
  int copy = descriptor >= 0 ? dup(descriptor) : -1;
  out->file = descriptor >= 0 ? (copy >= 0 ? fdopen(copy, "wb") : NULL) : fopen(out->path, "wb");
  if (!out->file) {
    int saved = errno;
    if (copy >= 0) close(copy);
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(saved));
  }
  return 0;
}

int crafter_outfile_open(crafter_outfile *out, const char *path, char *error, size_t error_size) {
  memset(out, 0, sizeof(*out));
  int descriptor = descriptor_named(path);
  out->path = descriptor >= 0 ? strdup(path) : target_of(path);
  if (!out->path) return crafter_fail(error, error_size, "%s: out of memory", path);
  if (descriptor >= 0) return open_in_place(out, path, descriptor, error, error_size);
  struct stat status;
  int exists = stat(out->path, &status) == 0;
  if (exists && S_ISDIR(status.st_mode)) {
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(EISDIR));
  }
  if (exists && !S_ISREG(status.st_mode)) return open_in_place(out, path, -1, error, error_size);
  /* A file the user may not write stays as it is, as an open would. */
  if (exists && access(out->path, W_OK) != 0) {
    int saved = errno;
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(saved));
  }
  size_t length = strlen(out->path);
  out->temporary = malloc(length + sizeof(".tmp.XXXXXX"));
  if (!out->temporary) {
    release(out);
    return crafter_fail(error, error_size, "%s: out of memory", path);
  }
  memcpy(out->temporary, out->path, length);
  memcpy(out->temporary + length, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
  /* Listed as soon as it exists: a signal in between waits. */
  crafter_outfile_hold_signals();
  int file_descriptor = mkstemp(out->temporary);
  if (file_descriptor >= 0) list_temporary(out);
  crafter_outfile_release_signals();
  if (file_descriptor < 0) {
    int saved = errno;
    /* A writable file in a folder that takes no new names: written in
     * place, as the only way to write it at all. */
    if (exists && saved == EACCES) {
      free(out->temporary);
      out->temporary = NULL;
      return open_in_place(out, path, -1, error, error_size);
    }
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(saved));
  }
  /* mkstemp makes the file private; give it the mode a new file would get,
   * or the mode of the file it replaces. */
  mode_t mode;
  if (exists) {
    mode = status.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  (void)fchmod(file_descriptor, mode);
  out->file = fdopen(file_descriptor, "wb");
  if (!out->file) {
    int saved = errno;
    close(file_descriptor);
    unlink(out->temporary);
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(saved));
  }
  return 0;
}

int crafter_outfile_commit(crafter_outfile *out, char *error, size_t error_size) {
  int saved = 0, failed = 0;
  if (fflush(out->file) != 0) saved = errno, failed = 1;
  if (ferror(out->file)) failed = 1;
  if (fclose(out->file) != 0 && !saved) saved = errno, failed = 1;
  out->file = NULL;
  if (!failed && out->temporary && rename(out->temporary, out->path) != 0)
    saved = errno, failed = 1;
  if (failed) {
    if (out->temporary) unlink(out->temporary);
    crafter_fail(error, error_size, "%s: %s", out->path, strerror(saved ? saved : EIO));
    release(out);
    return -1;
  }
  release(out);
  return 0;
}

int crafter_outfile_publish(crafter_outfile *out, char *error, size_t error_size) {
  if (!out->temporary) return 0;
  errno = 0;
  if (fflush(out->file) != 0 || ferror(out->file) || rename(out->temporary, out->path) != 0)
    return crafter_fail(error, error_size, "%s: %s", out->path, strerror(errno ? errno : EIO));
  unlist_temporary(out);
  free(out->temporary);
  out->temporary = NULL;
  return 0;
}

void crafter_outfile_abort(crafter_outfile *out) {
  if (out->file) fclose(out->file);
  if (out->temporary) unlink(out->temporary);
  release(out);
}
