/* Fuzz target: the reader of Craftax's state as words (game/cx_words.h).
 * The input patches the words of seed 0's first state: after one byte
 * choosing how many steps of actions in turn the base state has taken
 * (0, 30, 60 or 90), records of 8 bytes, each a word's index (taken
 * modulo the count of words) and the value written there, little-endian.
 * A state refused leaves its target untouched; a state taken gives back
 * the very words it was read from, its text observation is made, and it
 * plays on: 20 steps of actions in turn (auto-resets included), the text
 * made after each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "fuzz.h"
#include "game/cx_game.h"
#include "game/cx_words.h"
#include "view/cx_text.h"

static crafter_cx_state bases[4], target, before;
static uint32_t words[CRAFTER_CX_STATE_WORDS], again[CRAFTER_CX_STATE_WORDS];
static char text[8192];
static int ready;

static void prepare(void) {
  crafter_jaxkey key;
  crafter_jaxkey reset = crafter_cx_schedule_start(0, &key);
  if (crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &bases[0]) != 0) abort();
  for (int b = 1; b < 4; b++) {
    bases[b] = bases[b - 1];
    for (int t = 0; t < 30; t++) {
      float reward;
      int done;
      if (crafter_cx_env_step(&bases[b], crafter_cx_schedule_next(&key), t % CRAFTER_CX_ACTIONS,
                              &reward, &done) != 0)
        abort();
    }
  }
  ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) prepare();
  if (size < 1) return 0;
  crafter_cx_state_to_words(&bases[data[0] % 4], words);
  for (size_t at = 1; at + 8 <= size; at += 8)
    words[crafter_get_u32(data + at) % CRAFTER_CX_STATE_WORDS] = crafter_get_u32(data + at + 4);
  memset(&target, 0x5A, sizeof target);
  before = target;
  char error[300];
  if (crafter_cx_state_from_words(&target, words, error, sizeof error) != 0) {
    if (memcmp(&before, &target, sizeof target) != 0) {
      fprintf(stderr, "fuzz-cx-words: refused words changed the state (%s)\n", error);
      abort();
    }
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "refused: %s\n", error);
    return 0;
  }
  crafter_cx_state_to_words(&target, again);
  if (memcmp(again, words, sizeof words) != 0) {
    fprintf(stderr, "fuzz-cx-words: a state taken does not give back its words\n");
    abort();
  }
  if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "taken\n");
  if (crafter_cx_render_text(&target, text, sizeof text) >= sizeof text) abort();
  crafter_jaxkey key;
  crafter_cx_schedule_start(1, &key);
  for (int t = 0; t < 20; t++) {
    float reward;
    int done;
    if (crafter_cx_env_step(&target, crafter_cx_schedule_next(&key), t % CRAFTER_CX_ACTIONS,
                            &reward, &done) != 0)
      abort();
    crafter_cx_render_text(&target, text, sizeof text);
  }
  return 0;
}
