/* The entry point every fuzz target defines: libFuzzer calls it with
 * arbitrary bytes (make fuzz), and driver.c with the files of a corpus
 * (tests/fuzz.t, under the sanitizers in make check-asan).  It must never
 * crash, leak or read out of bounds, whatever the bytes. */
#ifndef CRAFTER_FUZZ_H
#define CRAFTER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A target may also define a mutator of its own (repair.h's formats do);
 * it calls LLVMFuzzerMutate, libFuzzer's own mutation, which driver.c
 * stands in for outside libFuzzer. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#endif
