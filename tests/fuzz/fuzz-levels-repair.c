/* Fuzz target: the level-file reader (crafter-levels(5)) past its
 * checksums.  The input is a level file whose sizes and CRC-32s need not
 * hold: repair_levels (repair.h) sets, in a copy, the compressed size to
 * the bytes after the header, and when those are one whole zlib stream
 * the inflated size and its CRC-32, then the header's CRC-32; the copy
 * goes through fuzz-levels (parsed, checked, played, written back).
 * Under libFuzzer the mutator of repair.h mutates the inflated levels, so
 * every check of a level's fields is reached.  fuzz-levels keeps fuzzing
 * the checksums themselves. */
#define LLVMFuzzerTestOneInput fuzz_levels_read
#include "fuzz-levels.c"
#undef LLVMFuzzerTestOneInput

#include "repair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = repair_copy(data, size);
  if (!copy) return 0;
  repair_levels(copy, size);
  fuzz_levels_read(copy, size);
  free(copy);
  return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  return repair_levels_mutate(data, size, max_size, seed);
}
