/* Fuzz target: crafter-step's session of the JAX games (tools/jsession.h:
 * Craftax-Classic and Craftax), JSON lines or the binary protocol, with
 * save and load requests, run through the library over the input as
 * crafter-step runs it over its standard input.
 *
 *   byte 0  bit 0     the game: craftax-classic, craftax
 *           bit 1     the binary protocol, else JSON lines
 *           bits 2-3  observation: none, symbolic, text (Craftax in JSON
 *                     lines; none otherwise), none
 *           bit 4     2 envs, else 1
 *           bit 5     binary: --manual-reset; JSON lines: --info state
 *           bit 6     binary: --final-obs (not with --manual-reset)
 *           bit 7     binary: --threads 2
 *   the rest          what the session reads (through a memfd).
 * What it writes goes to /dev/null. */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "game/games.h"
#include "run/proto.h"
#include "tools/jsession.h"
#include "view/obskind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
  uint8_t choice = data[0];
  crafter_session_options options;
  memset(&options, 0, sizeof(options));
  crafter_run *run = &options.run;
  crafter_run_init(run);
  run->game = choice & 1 ? CRAFTER_GAME_CRAFTAX : CRAFTER_GAME_CRAFTAX_CLASSIC;
  options.binary = (choice >> 1) & 1;
  int kind = (choice >> 2) & 3;
  run->obs_kind = kind == 1                                         ? CRAFTER_OBS_SYMBOLIC
                  : kind == 2 && (choice & 1) && !options.binary ? CRAFTER_OBS_TEXT
                                                                   : CRAFTER_OBS_NONE;
  run->envs = choice & 16 ? 2 : 1;
  run->threads = 1;
  run->params.seed = 3;
  options.shm_fd = -1;
  options.shm_slots = 2;
  if (options.binary) {
    options.manual_reset = (choice >> 5) & 1;
    options.final_obs = (choice >> 6) & 1 && !options.manual_reset;
    if (choice & 128) run->threads = 2;
  } else {
    options.info = choice & 32 ? CRAFTER_INFO_STATE : CRAFTER_INFO_SHORT;
  }
  int input = memfd_create("fuzz-jstep-input", 0);
  if (input < 0) abort();
  if (write(input, data + 1, size - 1) != (ssize_t)(size - 1) || lseek(input, 0, SEEK_SET) != 0)
    abort();
  char error[1024];
  int status = crafter_jsession_run(&options, input, sink, error, sizeof(error));
  /* Options crafter-step accepts never fail as options. */
  if (status == 2) {
    fprintf(stderr, "fuzz-jstep: options refused: %s\n", error);
    abort();
  }
  if (getenv("FUZZ_VERBOSE"))
    fprintf(stderr, "fuzz-jstep: status %d%s%s\n", status, status ? ": " : "", status ? error : "");
  close(input);
  clearerr(sink);
  return 0;
}
