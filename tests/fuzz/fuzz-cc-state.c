/* Fuzz target: the reader of Craftax-Classic's saved states (cc_state.h,
 * crafter-state(5) format version 2).  The input is a state; it is loaded
 * into an env as it is, then again with its length field and CRC-32 made
 * right, so that mutations reach the checks of every value behind the
 * checksum.  A state refused leaves the env as it was; a state that loads
 * saves back to the very bytes it was loaded from, and plays on: 40 steps
 * of every action in turn (auto-resets included), the symbolic
 * observation made after each.  JAX's own states hold positions off the
 * map (arrows drift), which the step must take without reading or writing
 * out of bounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "fuzz.h"
#include "run/cc_state.h"
#include "view/cc_render.h"

static void try_state(const uint8_t *data, size_t size) {
  static crafter_cc_env env, before;
  static uint8_t again[CRAFTER_CC_STATE_BYTES];
  static int ready;
  char error[400];
  if (!ready) {
    if (crafter_cc_env_start(&env, 3) != 0) abort();
    ready = 1;
  }
  before = env;
  if (crafter_cc_state_load(&env, data, size, error, sizeof error) < 0) {
    if (memcmp(&before, &env, sizeof env) != 0) {
      fprintf(stderr, "fuzz-cc-state: a refused state changed the env (%s)\n", error);
      abort();
    }
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "refused: %s\n", error);
    return;
  }
  crafter_cc_state_save(&env, again);
  if (size != CRAFTER_CC_STATE_BYTES || memcmp(again, data, size) != 0) {
    fprintf(stderr, "fuzz-cc-state: a loaded state does not save back to its bytes\n");
    abort();
  }
  if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "loaded\n");
  float obs[CRAFTER_SYMBOLIC_SIZE];
  for (int t = 0; t < 40; t++) {
    crafter_cc_outcome outcome;
    if (crafter_cc_env_act(&env, t % CRAFTER_CC_ACTIONS, &outcome) != 0) abort();
    crafter_cc_render_symbolic(&env.state, obs);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try_state(data, size);
  if (size >= CRAFTER_CC_STATE_HEADER_BYTES + 4) {
    uint8_t *repaired = malloc(size);
    if (!repaired) return 0;
    memcpy(repaired, data, size);
    crafter_put_u64(repaired + 16, (uint64_t)size);
    crafter_put_u32(repaired + size - 4, crafter_crc32(repaired, size - 4));
    try_state(repaired, size);
    free(repaired);
  }
  return 0;
}
