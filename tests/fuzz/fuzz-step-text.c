/* Fuzz target: crafter-step's JSON-lines protocol (crafter-step(1)):
 * lines of actions, one per env, as numbers or names, with comments and
 * blank lines, and save and load requests ("save E", "load E BASE64"),
 * answered by JSON records.  The first three bytes choose
 * the session's options (step.h); the rest is standard input. */
#include "step.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return step_run(data, size, 0); }
