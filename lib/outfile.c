/* realpath() is X/Open. */
#define _XOPEN_SOURCE 700

#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void release(crafter_outfile *out) {
  free(out->path);
  free(out->temporary);
  memset(out, 0, sizeof(*out));
}

/* The path a write should replace: a link's final target where it has
 * one, else the path itself (a dangling link is written through). */
static char *target_of(const char *path) {
  struct stat link_status;
  if (lstat(path, &link_status) == 0 && S_ISLNK(link_status.st_mode)) {
    char *resolved = realpath(path, NULL);
    if (resolved) return resolved;
  }
  return strdup(path);
}

int crafter_outfile_open(crafter_outfile *out, const char *path, char *error, size_t error_size) {
  memset(out, 0, sizeof(*out));
  out->path = target_of(path);
  if (!out->path) return crafter_fail(error, error_size, "%s: out of memory", path);
  struct stat status;
  int exists = stat(out->path, &status) == 0;
  if (exists && S_ISDIR(status.st_mode)) {
    release(out);
    return crafter_fail(error, error_size, "%s: %s", path, strerror(EISDIR));
  }
  if (exists && !S_ISREG(status.st_mode)) {
    out->file = fopen(out->path, "wb");
    if (!out->file) {
      int saved = errno;
      release(out);
      return crafter_fail(error, error_size, "%s: %s", path, strerror(saved));
    }
    return 0;
  }
  size_t length = strlen(out->path);
  out->temporary = malloc(length + sizeof(".tmp.XXXXXX"));
  if (!out->temporary) {
    release(out);
    return crafter_fail(error, error_size, "%s: out of memory", path);
  }
  memcpy(out->temporary, out->path, length);
  memcpy(out->temporary + length, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
  int descriptor = mkstemp(out->temporary);
  if (descriptor < 0) {
    int saved = errno;
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
  (void)fchmod(descriptor, mode);
  out->file = fdopen(descriptor, "wb");
  if (!out->file) {
    int saved = errno;
    close(descriptor);
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

void crafter_outfile_abort(crafter_outfile *out) {
  if (out->file) fclose(out->file);
  if (out->temporary) unlink(out->temporary);
  release(out);
}
