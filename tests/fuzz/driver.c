/* Runs a fuzz target over files, without libFuzzer: every FILE (or every
 * file of a FILE that is a folder) is given to LLVMFuzzerTestOneInput once,
 * and, for a target with a mutator of its own (LLVMFuzzerCustomMutator),
 * so are a few mutants of it, made by that mutator with the simple
 * LLVMFuzzerMutate below standing in for libFuzzer's.  Prints one TAP line
 * per file. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Defined by the targets that have one. */
__attribute__((weak)) size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                                     size_t max_size, unsigned int seed);

enum { MUTANTS = 6 };

/* libFuzzer's mutation, in small: one of a few edits, chosen in turn, at
 * places chosen by a fixed generator, so runs repeat. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) {
  static uint64_t state = 0x853c49e6748fea9bULL;
  static const uint32_t interesting[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x40000000};
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  uint64_t draw = state >> 17;
  size_t at = size ? (size_t)(draw >> 8) % size : 0;
  switch (draw % 4) {
    case 0: /* a byte flipped */
      if (size) data[at] ^= (uint8_t)(1 + (draw >> 40) % 255);
      return size;
    case 1: /* an interesting 32-bit value */
      if (size >= 4) {
        uint32_t value = interesting[(draw >> 40) % 6];
        at = at > size - 4 ? size - 4 : at;
        for (int i = 0; i < 4; i++) data[at + i] = (uint8_t)(value >> (8 * i));
      }
      return size;
    case 2: /* a byte inserted */
      if (size < max_size) {
        memmove(data + at + 1, data + at, size - at);
        data[at] = (uint8_t)(draw >> 40);
        return size + 1;
      }
      return size;
    default: /* cut short */
      return size > 1 ? size - 1 - at / 2 : size;
  }
}

/* The mutants of a file, each run once. */
static void run_mutants(const uint8_t *data, size_t size) {
  size_t max_size = 2 * size + 4096;
  uint8_t *mutant = malloc(max_size);
  for (unsigned seed = 1; mutant && seed <= MUTANTS; seed++) {
    memcpy(mutant, data, size);
    size_t mutated = LLVMFuzzerCustomMutator(mutant, size, max_size, seed);
    if (mutated > max_size) abort();
    LLVMFuzzerTestOneInput(mutant, mutated);
  }
  free(mutant);
}

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
  if (LLVMFuzzerCustomMutator) run_mutants(data, size);
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
