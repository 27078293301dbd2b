/* Runs a fuzz target over files, without libFuzzer: every FILE (or every
 * file of a FILE that is a folder) is given to LLVMFuzzerTestOneInput once.
 * Prints one TAP line per file. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path, int *number) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    printf("not ok %d - %s: cannot open\n", ++*number, path);
    return 1;
  }
  size_t capacity = 1 << 16, size = 0;
  uint8_t *data = malloc(capacity);
  size_t got;
  while (data && (got = fread(data + size, 1, capacity - size, file)) > 0) {
    size += got;
    if (size == capacity) {
      uint8_t *grown = realloc(data, capacity *= 2);
      if (!grown) free(data);
      data = grown;
    }
  }
  fclose(file);
  if (!data) {
    printf("not ok %d - %s: out of memory\n", ++*number, path);
    return 1;
  }
  LLVMFuzzerTestOneInput(data, size);
  free(data);
  printf("ok %d - %s\n", ++*number, path);
  fflush(stdout);
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  int number = 0, failures = 0;
  for (int i = 1; i < argc; i++) {
    struct stat status;
    if (stat(argv[i], &status) == 0 && S_ISDIR(status.st_mode)) {
      DIR *folder = opendir(argv[i]);
      if (!folder) {
        printf("not ok %d - %s: cannot open\n", ++number, argv[i]);
        failures++;
        continue;
      }
      char **names = NULL;
      size_t count = 0;
      struct dirent *entry;
      while ((entry = readdir(folder))) {
        if (entry->d_name[0] == '.') continue;
        char **grown = realloc(names, (count + 1) * sizeof *names);
        if (!grown) break;
        names = grown;
        size_t length = strlen(argv[i]) + strlen(entry->d_name) + 2;
        if (!(names[count] = malloc(length))) break;
        snprintf(names[count++], length, "%s/%s", argv[i], entry->d_name);
      }
      closedir(folder);
      if (count) qsort(names, count, sizeof *names, compare_names);
      for (size_t k = 0; k < count; k++) {
        failures += run_file(names[k], &number);
        free(names[k]);
      }
      free(names);
    } else {
      failures += run_file(argv[i], &number);
    }
  }
  printf("1..%d\n", number);
  return failures ? 1 : 0;
}
