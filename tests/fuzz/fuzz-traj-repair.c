/* Fuzz target: the trajectory reader (crafter-trajectory(5)) past its
 * checksums.  The input is a trajectory file whose CRC-32s need not hold:
 * repair_traj (repair.h) rewrites every checksum of a copy -- the
 * header's, and each task table's, episode chunk's, index's and
 * trailer's, over the payload it claims -- and the copy goes through
 * fuzz-traj's reading (the header, the index or the scan, every
 * episode's steps).  So a mutation of a field reaches the check of that
 * field, not the checksum in front of it.  Under libFuzzer the mutator of
 * repair.h mutates the inflated steps and task tables too, so the checks
 * of the steps (done, the rewards' sum, the achievements) are reached.
 * fuzz-traj keeps fuzzing the checksums themselves. */
#define LLVMFuzzerTestOneInput fuzz_traj_read
#include "fuzz-traj.c"
#undef LLVMFuzzerTestOneInput

#include "repair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = repair_copy(data, size);
  if (!copy) return 0;
  repair_traj(copy, size);
  fuzz_traj_read(copy, size);
  free(copy);
  return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  return repair_traj_mutate(data, size, max_size, seed);
}
