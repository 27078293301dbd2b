/* Fuzz target: crafter-step's binary protocol (crafter-protocol(5)):
 * action bytes, N a step (0..16, 255 to reset), and where a step would
 * start render requests (the byte 253, then uint32 env, width and
 * height), save requests (252, uint32 env) and load requests (251, uint32
 * env, uint32 L and a state of L bytes, crafter-state(5)).
 * The first three bytes choose the session's options (step.h); the
 * rest is standard input. */
#include "step.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return step_run(data, size, 1); }
