/* The golden files of the Craftax-Classic tests: one "SEED HEX" line a
 * seed (its seed, and the CRC-32 JAX's result hashed to), gzip-compressed
 * (tests/data/craftax/). */
#ifndef CRAFTER_TEST_SEED_HASHES_H
#define CRAFTER_TEST_SEED_HASHES_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

/* Reads at most `max` lines of the file at `path` into seeds[] and
 * hashes[]: how many, or -1 having said on stderr what is wrong. */
static long read_seed_hashes(const char *path, int64_t *seeds, uint32_t *hashes, long max) {
  gzFile file = gzopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  long n = 0;
  char line[128];
  while (gzgets(file, line, sizeof line)) {
    if (n == max || sscanf(line, "%" SCNd64 " %" SCNx32, &seeds[n], &hashes[n]) != 2) {
      fprintf(stderr, "%s: line %ld is not 'SEED HEX'\n", path, n + 1);
      gzclose(file);
      return -1;
    }
    n++;
  }
  gzclose(file);
  return n;
}

#endif
