/* Craftax's symbolic observation (lib/view/cx_render.c) against the
 * observations JAX made.
 *
 *   test-cx-render GOLDEN STARTS...  TAP: every observation of GOLDEN
 *                               remade in C, its CRC-32 compared; then
 *                               each way of drawing Craftax does not take
 *                               (crafter_cx_render_way) must fail some;
 *                               the cost of a render said
 *   test-cx-render --render FILE.gz  the observation of each state of a
 *                               file of records (7 head words, then the
 *                               state's words, as
 *                               tests/reference/craftax_full_steps.py
 *                               writes them; head word 5 is 1 for a state
 *                               JAX observed with render_craftax_symbolic
 *                               jitted alone, 0 for the env's
 *                               observation): 'obs K N v0 v1 ...' a line,
 *                               K the record's number from 0, N the
 *                               values' count, each value a float32's
 *                               bits, for tests/cx-obs.t
 *                               (tests/reference/craftax_full_obs.py
 *                               --compare)
 *
 * GOLDEN has a line an observation, 'S N ACTION CRC', in episodes: N = 0
 * the first state (ACTION -1: the world of seed S's reset; -2: a crafted
 * first state, JAX's record of it in one of the STARTS files), then the
 * steps N = 1, 2, ... of ACTION each, taken by the C env's step in
 * Craftax's key schedule (game/cx_game.h); CRC is zlib's CRC-32 of the
 * observation's float32 values, little-endian, in hex.  Lines starting
 * with '#' are comments.  tests/unit-cx-render.t runs it on
 * tests/data/craftax/cx-obs.txt.gz, recorded with the pinned reference
 * (craftax 1.6.1, jax and jaxlib 0.10.1, in a virtual environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_full_obs.py --record resets:0:1000 \
 *       random:400:0,1,2,3,4,5,6,7,8,9 crafted:200:21,24,25 boss:150:6,7 \
 *       | gzip -9n > tests/data/craftax/cx-obs.txt.gz
 *
 * with the crafted first states of seeds 21, 24, 25 (the sewers, the fire
 * and the ice floors), 6 and 7 (beside the boss) from
 * tests/data/craftax/cx-crafted-starts.gz: the same states, made as
 * craftax_full_steps.py makes them (--starts writes them anew).  No
 * expected value is written here: all come from the files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/bytes.h"
#include "cx_state_words.h"
#include "game/cx_game.h"
#include "tap.h"
#include "view/cx_render.h"

enum { HEAD_WORDS = 7, WAYS = 5 };

static const char *const way_names[WAYS] = {
    "as the env", "every x / 10 as x * (1/10), as render_craftax_symbolic jitted alone",
    "every x / 10 divided", "the map transposed", "negative places of creatures not wrapped"};

static uint32_t obs_crc(const float *obs) {
  uint8_t bytes[4 * CRAFTER_CX_SYMBOLIC_SIZE];
  for (int k = 0; k < CRAFTER_CX_SYMBOLIC_SIZE; k++) {
    uint32_t bits;
    memcpy(&bits, &obs[k], 4);
    for (int b = 0; b < 4; b++) bytes[4 * k + b] = (uint8_t)(bits >> (8 * b));
  }
  return crafter_crc32(bytes, sizeof bytes);
}

/* The crafted first state of `seed` from the first of the files holding
 * one, into *s; 0, or -1 when none does. */
static int crafted_start(int count, char **starts, long seed, crafter_cx_state *s) {
  long per = HEAD_WORDS + cx_state_word_count();
  uint32_t *record = malloc(4 * (size_t)per);
  int found = -1;
  for (int f = 0; f < count && found != 0; f++) {
    gzFile in = gzopen(starts[f], "rb");
    if (!in) continue;
    while (found != 0 && gzread(in, record, 4 * (unsigned)per) == 4 * per)
      if (record[0] == (uint32_t)seed && record[1] == 0) {
        cx_load_words(s, record + HEAD_WORDS);
        found = 0;
      }
    gzclose(in);
  }
  free(record);
  return found;
}

/* The cost of a render, said as a diagnostic: the processor time of many
 * calls on one state (time on the processor, not on the clock, so that
 * other work on the machine counts less), and the part of it the map's
 * memset alone takes.  No threshold: machines differ. */
static void render_cost(const crafter_cx_state *s) {
  static float obs[CRAFTER_CX_SYMBOLIC_SIZE];
  enum { CALLS = 200000 };
  double ns[2];
  float sum = 0.0f;
  for (int part = 0; part < 2; part++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int k = 0; k < CALLS; k++) {
      if (part == 0)
        crafter_cx_render_symbolic(s, obs);
      else
        memset(obs, 0, sizeof(float) * CRAFTER_CX_SYMBOLIC_MAP);
      sum += obs[k % CRAFTER_CX_SYMBOLIC_SIZE];
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    ns[part] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / CALLS;
  }
  printf("# render: %.0f ns a call, of which %.0f ns the memset of the map's %d values "
         "(processor time of %d calls on the last state; checksum %g)\n",
         ns[0], ns[1], CRAFTER_CX_SYMBOLIC_MAP, CALLS, (double)sum);
}

static int golden(const char *path, int nstarts, char **starts) {
  gzFile in = gzopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-render: cannot open %s\n", path);
    return 2;
  }
  static crafter_cx_state s;
  static float obs[CRAFTER_CX_SYMBOLIC_SIZE];
  crafter_jaxkey key;
  char line[256], first[256] = "";
  long seed = 0, steps = 0, equal = 0, total = 0, total_equal = 0, resets = 0;
  long lone_firsts = 0, lone_equal = 0, wrong_ways[WAYS] = {0}, env_obs = 0;
  int alive = 0, started = 0, seeds = 0;
  char lone_first[256] = "";
#define REPORT()                                                                                \
  do {                                                                                          \
    if (started && steps == 0) {                                                                \
      lone_firsts++;                                                                            \
      lone_equal += alive;                                                                      \
      if (!alive && !lone_first[0]) snprintf(lone_first, sizeof lone_first, "%s", first);       \
    } else if (started) {                                                                       \
      seeds++;                                                                                  \
      if (alive)                                                                                \
        ok(1, "seed %ld: the first state's and %ld steps' observations are JAX's", seed, steps); \
      else                                                                                      \
        ok(0, "seed %ld: %ld of %ld steps' observations equal, then %s", seed, equal, steps,    \
           first);                                                                              \
    }                                                                                           \
  } while (0)
  while (gzgets(in, line, sizeof line)) {
    long sd, n, action;
    unsigned long want;
    if (line[0] == '#' || sscanf(line, "%ld %ld %ld %lx", &sd, &n, &action, &want) != 4) continue;
    if (n == 0) {
      REPORT();
      started = 1;
      seed = sd, steps = 0, equal = 0, alive = 1, first[0] = 0;
      crafter_jaxkey reset = crafter_cx_schedule_start(sd, &key);
      if (action == -2) {
        if (crafted_start(nstarts, starts, sd, &s) != 0) {
          snprintf(first, sizeof first, "no crafted first state of seed %ld", sd);
          alive = 0;
        }
      } else if (crafter_cx_generate_world(crafter_jax_split_inline(reset, 1), &s) != 0) {
        fprintf(stderr, "test-cx-render: out of memory\n");
        return 2;
      }
    } else {
      steps = n;
      if (!alive) continue;
      float reward;
      int done;
      if (crafter_cx_env_step(&s, crafter_cx_schedule_next(&key), (int)action, &reward, &done) != 0) {
        fprintf(stderr, "test-cx-render: out of memory\n");
        return 2;
      }
      resets += done;
    }
    if (!alive) continue;
    total++;
    /* a crafted first state was observed by render_craftax_symbolic
     * jitted alone, the others are the env's observations */
    int crafted = n == 0 && action == -2;
    crafter_cx_render_symbolic_way(&s, crafted ? CRAFTER_CX_RENDER_ALONE : CRAFTER_CX_RENDER_AS_ENV,
                                   obs);
    uint32_t got = obs_crc(obs);
    if (got != (uint32_t)want) {
      snprintf(first, sizeof first, "step %ld (action %ld): CRC %08" PRIx32 ", JAX's %08lx", n,
               action, got, want);
      alive = 0;
      continue;
    }
    total_equal++;
    if (n > 0) equal++;
    if (crafted) continue;
    env_obs++;
    for (int w = 1; w < WAYS; w++) {
      crafter_cx_render_symbolic_way(&s, (enum crafter_cx_render_way)w, obs);
      wrong_ways[w] += obs_crc(obs) != (uint32_t)want;
    }
  }
  REPORT();
#undef REPORT
  gzclose(in);
  ok(lone_firsts > 0 && lone_equal == lone_firsts,
     "%ld of %ld first states' observations (env.reset's) are JAX's%s%s", lone_equal,
     lone_firsts, lone_first[0] ? "; first difference: " : "", lone_first);
  printf("# %ld of %ld observations equal to JAX's (%d episodes, %ld of them ended and "
         "reset, and %ld first states)\n",
         total_equal, total, seeds, resets, lone_firsts);
  for (int w = 1; w < WAYS; w++)
    ok(wrong_ways[w] > 0, "drawn with %s, %ld of the %ld env observations differ from JAX's",
       way_names[w], wrong_ways[w], env_obs);
  render_cost(&s);
  return tap_done();
}

static int render_file(const char *path) {
  gzFile in = gzopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-render: cannot open %s\n", path);
    return 2;
  }
  long per = HEAD_WORDS + cx_state_word_count();
  uint32_t *record = malloc(4 * (size_t)per);
  static crafter_cx_state s;
  static float obs[CRAFTER_CX_SYMBOLIC_SIZE];
  for (long k = 0; gzread(in, record, 4 * (unsigned)per) == 4 * per; k++) {
    cx_load_words(&s, record + HEAD_WORDS);
    crafter_cx_render_symbolic_way(&s, record[5] ? CRAFTER_CX_RENDER_ALONE : CRAFTER_CX_RENDER_AS_ENV,
                                   obs);
    printf("obs %ld %d", k, CRAFTER_CX_SYMBOLIC_SIZE);
    for (int v = 0; v < CRAFTER_CX_SYMBOLIC_SIZE; v++) {
      uint32_t bits;
      memcpy(&bits, &obs[v], 4);
      printf(" %" PRIu32, bits);
    }
    printf("\n");
  }
  gzclose(in);
  free(record);
  return ferror(stdout) ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--render") == 0) return render_file(argv[2]);
  if (argc >= 2 && argv[1][0] != '-') return golden(argv[1], argc - 2, argv + 2);
  fprintf(stderr, "usage: test-cx-render GOLDEN [STARTS...] | --render FILE.gz\n");
  return 2;
}
