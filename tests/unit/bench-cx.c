/* The speed of Craftax's step (lib/game/cx_game.c) and of its world
 * generation on one thread.
 *
 *   bench-cx [STEPS [ENVS [WORLDS]]]
 *
 * ENVS environments (default 64), seeds 0 .. ENVS-1, take STEPS steps in
 * all (default 200,000), one step of each in turn, with the auto-reset
 * env's step (crafter_cx_env_step) and actions drawn uniformly from the
 * 43 by a xorshift generator seeded with 1; then WORLDS worlds (default
 * 200) are generated from the keys of seeds 0 .. WORLDS-1, whole and with
 * the overworld alone (the reset's).  Prints the steps per second, the
 * episodes ended, the milliseconds a world takes either way,
 * and a checksum of the final states (the CRC-32 of every state's words,
 * as JAX's fields are hashed: cx_state_words.h), which changes of speed
 * must leave alone.  Times are
 * the thread's CPU time, which other work on the machine leaves alone. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cx_state_words.h"
#include "game/cx_game.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  long steps = argc > 1 ? atol(argv[1]) : 200000;
  int envs = argc > 2 ? atoi(argv[2]) : 64;
  int worlds = argc > 3 ? atoi(argv[3]) : 200;
  if (steps < 0 || envs < 1 || worlds < 0) {
    fprintf(stderr, "usage: bench-cx [STEPS [ENVS [WORLDS]]]\n");
    return 2;
  }
  crafter_cx_state *state = malloc(sizeof *state * (size_t)envs);
  crafter_jaxkey *key = malloc(sizeof *key * (size_t)envs);
  if (!state || !key) {
    fprintf(stderr, "bench-cx: out of memory\n");
    return 1;
  }
  for (int e = 0; e < envs; e++) {
    crafter_jaxkey reset = crafter_cx_schedule_start(e, &key[e]);
    crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &state[e]);
  }
  uint64_t x = 1;
  long episodes = 0;
  double start = now();
  for (long n = 0; n < steps; n++) {
    int e = (int)(n % envs);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    float reward;
    int done;
    if (crafter_cx_env_step(&state[e], crafter_cx_schedule_next(&key[e]), (int)(x % 43), &reward,
                            &done) != 0) {
      fprintf(stderr, "bench-cx: out of memory\n");
      return 1;
    }
    episodes += done;
  }
  double stepping = now() - start;
  uint32_t crc = 0;
  for (int e = 0; e < envs; e++) {
    struct cx_field f[CX_FIELDS];
    char names[CX_FIELDS][48];
    if (crafter_cx_make_floors(&state[e]) != 0) {
      fprintf(stderr, "bench-cx: out of memory\n");
      return 1;
    }
    int n = cx_state_fields(&state[e], f, names);
    for (int k = 0; k < n; k++) crc = cx_crc_field(crc, &f[k], 0, f[k].count);
  }
  double generating[2];
  for (int lazy = 0; lazy < 2; lazy++) {
    start = now();
    for (int w = 0; w < worlds; w++) {
      crafter_jaxkey k;
      crafter_jaxkey reset = crafter_cx_schedule_start(w, &k);
      if (lazy)
        crafter_cx_generate_world_first(crafter_jax_split_inline(reset, 1), &state[0]);
      else
        crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &state[0]);
    }
    generating[lazy] = now() - start;
  }
  printf("%ld steps of %d envs: %.0f steps/s, %ld episodes ended, checksum %08lx\n", steps, envs,
         stepping > 0 ? (double)steps / stepping : 0.0, episodes, (unsigned long)crc);
  if (worlds > 0)
    printf("%d worlds: %.3f ms a world of nine floors, %.3f ms with the overworld alone\n",
           worlds, 1e3 * generating[0] / worlds, 1e3 * generating[1] / worlds);
  free(state);
  free(key);
  return 0;
}
