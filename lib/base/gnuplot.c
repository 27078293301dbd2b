#include "base/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/errors.h"

extern char **environ; /* for posix_spawnp; unistd.h declares it only for _GNU_SOURCE */

int crafter_gnuplot_open(crafter_gnuplot *plot, const char *name, char *error,
                         size_t error_size) {
  const char *directory = getenv("TMPDIR");
  snprintf(plot->path, sizeof(plot->path), "%s/%s-XXXXXX",
           directory && *directory ? directory : "/tmp", name);
  int descriptor = mkstemp(plot->path);
  plot->script = descriptor < 0 ? NULL : fdopen(descriptor, "w");
  if (plot->script) return 0;
  int saved = errno;
  if (descriptor >= 0) {
    close(descriptor);
    unlink(plot->path);
  }
  return crafter_fail(error, error_size, "cannot write the gnuplot script: %s", strerror(saved));
}

int crafter_gnuplot_run(crafter_gnuplot *plot, char *error, size_t error_size) {
  int write_failed = ferror(plot->script);
  if (fclose(plot->script) != 0) write_failed = 1;
  plot->script = NULL;
  if (write_failed) {
    unlink(plot->path);
    return crafter_fail(error, error_size, "cannot write the gnuplot script %s", plot->path);
  }
  char program[] = "gnuplot";
  char *arguments[] = {program, plot->path, NULL};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  fflush(NULL); /* the caller's output first, then anything gnuplot says */
  pid_t child;
  int spawned = posix_spawnp(&child, program, &actions, NULL, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (spawned == 0)
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) continue;
  unlink(plot->path);
  /* A libc that cannot report a failed exec makes the child exit 127. */
  if (spawned == ENOENT || (spawned == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127))
    return CRAFTER_GNUPLOT_MISSING;
  if (spawned != 0) return crafter_fail(error, error_size, "cannot run gnuplot: %s", strerror(spawned));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return CRAFTER_GNUPLOT_REFUSED;
  return CRAFTER_GNUPLOT_OK;
}

void crafter_gnuplot_string(FILE *out, const char *text) {
  fputc('\'', out);
  for (; *text; text++) {
    if (*text == '\'') fputc('\'', out);
    fputc((unsigned char)*text < 0x20 ? '?' : *text, out);
  }
  fputc('\'', out);
}
