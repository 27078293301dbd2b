/* Craftax-Classic's step (lib/game/cc_game.c) against the episodes JAX
 * played.
 *
 *   test-craftax-episodes FILE.gz          every seed of FILE replayed,
 *                                          every checkpoint's CRC and
 *                                          every reset checked
 *   test-craftax-episodes --dump STEPS S... every step's words, for
 *                                          tests/craftax-episodes.t
 *   test-craftax-episodes --step           states dumped on standard
 *                                          input, each stepped once, for
 *                                          tests/craftax-episodes.t
 *   test-craftax-episodes --speed STEPS [ENVS]
 *                                          steps per second, with and
 *                                          without the observation (ENVS
 *                                          envs side by side: the batched
 *                                          step)
 *
 * The episodes are those of tests/reference/craftax_episodes.py, whose
 * docstring says them: seed S in Craftax's key schedule (key =
 * PRNGKey(S); key, k = split(key); reset(k); then key, k = split(key) and
 * step(k, state, action) a step, the env resetting itself), action n
 * element n of randint(split(PRNGKey(S), 3)[2], (STEPS,), 0, 17), or the
 * actions a line of the file spells.  The words of a step are every field
 * of the state (cc_state_words.h), the symbolic observation's float32
 * bits, the reward's bits and done; step 0, the reset, has the state and
 * observation only.
 *
 * FILE (gzip-compressed text) has a line a seed:
 *
 *   S STEPS [actions LETTERS] crc N1 HEX1 N2 HEX2 ... done D1 D2 ...
 *
 * LETTERS are the episode's STEPS actions, 'a' + the action (the seed's
 * random actions when there are none); HEXk is the CRC-32 of the
 * little-endian bytes of the words of steps 0 to Nk (every 100 steps and
 * the last); D1, D2, ... the steps where an episode ended; '#' starts a
 * comment line.  tests/unit-craftax-episodes.t runs it on
 * tests/data/craftax/episodes.txt.gz: seeds 0..49, 3,000 random actions
 * each; seeds 1000..1009, 3,000 actions each of craftax_episodes.py's
 * scripted player (which goes down the technology tree: stone, coal,
 * iron, diamonds, furnaces, iron tools, fights, plants); and 300 random
 * actions of three seeds whose first worlds once differed from JAX's by a
 * cell (cc_worldgen's noise at the map's thresholds), recorded with the
 * pinned reference (craftax 1.6.1, jax and jaxlib 0.10.1, the virtual
 * environment VENV of tests/reference/requirements-craftax.txt):
 *
 *   (VENV/bin/python tests/reference/craftax_episodes.py --record 50 3000
 *    VENV/bin/python tests/reference/craftax_episodes.py \
 *        --record-scripted 1000 10 3000
 *    VENV/bin/python tests/reference/craftax_episodes.py \
 *        --record-seeds 300 -953919623 -1852304691 94151603) | gzip -9n \
 *       > tests/data/craftax/episodes.txt.gz
 *
 * No expected value is written here: all come from the file.  A failure
 * names the seed and the 100 steps where the words first differ.  Then
 * every episode is played two ways JAX does not compute (crafter_cc_arith:
 * the light level's timestep / 300 divided; the multiply-adds XLA fuses
 * rounded twice), and each must fail some checkpoints.  The spawns'
 * choice(p) over the 4096 cells, whose cumulative sum cc_game evaluates
 * only where the search looks, is held to crafter_jax_cumsum's value for
 * value on states of the episodes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "cc_state_words.h"
#include "game/cc_game.h"
#include "game/cc_worldgen.h"
#include "tap.h"
#include "view/cc_render.h"
#include "view/render.h"

enum { MAX_STEPS = 100000, MAX_CHECKPOINTS = 1100, MAX_DONE = 10000, MAX_SEEDS = 1000 };

/* The words of one step beyond the state's. */
struct step_words {
  struct cc_words state;
  uint32_t obs[CRAFTER_SYMBOLIC_SIZE];
  uint32_t reward, done;
  int has_outcome; /* reward and done: not at the reset */
};

static uint32_t bits_of(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

static void words_of(const crafter_cc_state *state, const float *obs, float reward, int done,
                     int has_outcome, struct step_words *w) {
  cc_state_words(state, &w->state);
  for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) w->obs[k] = bits_of(obs[k]);
  w->reward = bits_of(reward);
  w->done = done ? 1U : 0U;
  w->has_outcome = has_outcome;
}

/* crc32 continued over the words' little-endian bytes. */
static uLong crc_words(uLong crc, const uint32_t *words, long count) {
  static unsigned char bytes[4 * CC_STATE_MAX_WORDS];
  long at = 0;
  for (long k = 0; k < count; k++) {
    bytes[at++] = (unsigned char)words[k];
    bytes[at++] = (unsigned char)(words[k] >> 8);
    bytes[at++] = (unsigned char)(words[k] >> 16);
    bytes[at++] = (unsigned char)(words[k] >> 24);
  }
  return crc32(crc, bytes, (uInt)at);
}

static uLong crc_step(uLong crc, const struct step_words *w) {
  crc = crc_words(crc, w->state.word, w->state.count);
  crc = crc_words(crc, w->obs, CRAFTER_SYMBOLIC_SIZE);
  if (w->has_outcome) {
    uint32_t outcome[2] = {w->reward, w->done};
    crc = crc_words(crc, outcome, 2);
  }
  return crc;
}

/* One seed's episodes, step by step. */
struct player {
  crafter_cc_state state;
  crafter_jaxkey key;
  int32_t actions[MAX_STEPS];
  long steps, step;
  enum crafter_cc_arith arith;
  float obs[CRAFTER_SYMBOLIC_SIZE];
  float reward;
  int done;
};

static void die(const char *what) {
  fprintf(stderr, "%s\n", what);
  exit(2);
}

/* The random actions of seed `seed`. */
static void seed_actions(int64_t seed, int32_t *actions, long steps) {
  crafter_jaxkey key = crafter_jax_split_one(crafter_jax_key(seed), 2);
  crafter_jax_randint(key, actions, steps, 0, CRAFTER_CC_ACTIONS);
}

/* Seed `seed`'s episodes from their start: the actions are `letters`
 * ('a' + action), or the seed's random ones when it is NULL. */
static void start_with(struct player *p, int64_t seed, long steps, enum crafter_cc_arith arith,
                       const char *letters) {
  if (steps > MAX_STEPS) die("too many steps");
  p->steps = steps;
  p->step = 0;
  p->arith = arith;
  if (letters)
    for (long n = 0; n < steps; n++) p->actions[n] = letters[n] - 'a';
  else
    seed_actions(seed, p->actions, steps);
  crafter_jaxkey reset = crafter_cc_schedule_start(seed, &p->key);
  if (crafter_cc_generate_world(reset, &p->state) != 0) die("out of memory");
  crafter_cc_render_symbolic(&p->state, p->obs);
}

static void start(struct player *p, int64_t seed, long steps, enum crafter_cc_arith arith) {
  start_with(p, seed, steps, arith, NULL);
}

static void next(struct player *p) {
  crafter_jaxkey k = crafter_cc_schedule_next(&p->key);
  if (crafter_cc_env_step_arith(&p->state, k, p->actions[p->step], p->arith, &p->reward,
                                &p->done) != 0)
    die("out of memory");
  p->step++;
  crafter_cc_render_symbolic(&p->state, p->obs);
}

static int dump(long steps, int count, char **seeds) {
  static struct player p;
  static struct step_words w;
  for (int s = 0; s < count; s++) {
    int64_t seed = strtoll(seeds[s], NULL, 10);
    start(&p, seed, steps, CRAFTER_CC_AS_JAX);
    for (;;) {
      words_of(&p.state, p.obs, p.reward, p.done, p.step > 0, &w);
      long total = w.state.count + CRAFTER_SYMBOLIC_SIZE + (w.has_outcome ? 2 : 0);
      printf("step %" PRId64 " %ld %ld", seed, p.step, total);
      for (long k = 0; k < w.state.count; k++) printf(" %" PRIu32, w.state.word[k]);
      for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) printf(" %" PRIu32, w.obs[k]);
      if (w.has_outcome) printf(" %" PRIu32 " %" PRIu32, w.reward, w.done);
      printf("\n");
      if (p.step == steps) break;
      next(&p);
    }
  }
  return ferror(stdout) ? 2 : 0;
}

/* Prints the words of a step that began in *state (a case read from a
 * dump): the state after it, its observation, reward and done. */
static void step_case(const char *label, crafter_cc_state *state, crafter_jaxkey key, int action) {
  static struct step_words w;
  static float obs[CRAFTER_SYMBOLIC_SIZE];
  float reward;
  int done;
  if (crafter_cc_env_step(state, key, action, &reward, &done) != 0) die("out of memory");
  crafter_cc_render_symbolic(state, obs);
  words_of(state, obs, reward, done, 1, &w);
  printf("step %s 1 %ld", label, w.state.count + CRAFTER_SYMBOLIC_SIZE + 2);
  for (long k = 0; k < w.state.count; k++) printf(" %" PRIu32, w.state.word[k]);
  for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) printf(" %" PRIu32, w.obs[k]);
  printf(" %" PRIu32 " %" PRIu32 "\n", w.reward, w.done);
}

/* --step: cases on standard input, each 'case ID', the state's fields a
 * line ('NAME N v0 v1 ...', every field, as craftax_worlds.py --dump
 * prints them), 'key K0 K1' and 'action A'; each stepped once by
 * crafter_cc_env_step and its words printed as --dump prints a step
 * ('step ID 1 COUNT w0 w1 ...'). */
static int step_cases(void) {
  static crafter_cc_state state;
  static uint32_t values[CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE];
  struct cc_field fields[CC_FIELDS];
  int field_count = cc_state_fields(&state, fields);
  char *line = NULL, label[64] = "";
  size_t size = 0;
  long have = 0, number = 0;
  crafter_jaxkey key = {{0, 0}};
  int action = 0;
  for (;;) {
    ssize_t length = getline(&line, &size, stdin);
    number++;
    char name[64];
    int used;
    long count;
    if (length <= 0 || strncmp(line, "case ", 5) == 0) {
      if (have && have != field_count + 2) {
        fprintf(stderr, "case %s: %ld of the %d fields, key and action\n", label, have,
                field_count);
        free(line);
        return 2;
      }
      if (have) step_case(label, &state, key, action);
      if (length <= 0) break;
      if (sscanf(line, "case %63s", label) != 1) goto bad;
      memset(&state, 0, sizeof state);
      have = 0;
    } else if (sscanf(line, "key %" SCNu32 " %" SCNu32, &key.word[0], &key.word[1]) == 2 ||
               sscanf(line, "action %d", &action) == 1) {
      have++;
    } else if (sscanf(line, "%63s %ld%n", name, &count, &used) == 2 && count >= 0 &&
               count <= (long)(sizeof values / sizeof values[0])) {
      char *at = line + used;
      for (long k = 0; k < count; k++) values[k] = (uint32_t)strtoul(at, &at, 10);
      int f = 0;
      while (f < field_count && strcmp(fields[f].name, name) != 0) f++;
      if (f == field_count || fields[f].count != count) goto bad;
      for (long k = 0; k < count; k++) cc_field_set(&fields[f], k, values[k]);
      have++;
    } else {
      goto bad;
    }
  }
  free(line);
  return ferror(stdout) ? 2 : 0;
bad:
  fprintf(stderr, "line %ld is not part of a case: %.60s\n", number, line);
  free(line);
  return 2;
}

static double seconds_since(const struct timespec *a) {
  struct timespec b;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
  return (double)(b.tv_sec - a->tv_sec) + 1e-9 * (double)(b.tv_nsec - a->tv_nsec);
}

/* Steps a second of crafter_cc_env_step on seed 0's random actions,
 * without the symbolic observation and with it, and the share of the
 * time the resets' world generation took (timed apart: the game's step is
 * crafter_cc_game_step, a new world crafter_cc_generate_world, as
 * crafter_cc_env_step calls them).  Times are the process's CPU time, so
 * that other processes on the machine count less. */
static int speed(long steps) {
  static struct player p;
  if (steps > MAX_STEPS) steps = MAX_STEPS;
  for (int observe = 0; observe <= 1; observe++) {
    start(&p, 0, steps, CRAFTER_CC_AS_JAX);
    long resets = 0;
    unsigned sink = 0;
    double reset_seconds = 0.0;
    struct timespec a;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    /* The next step's key is drawn before the step, as a caller that
     * keeps its keys can: its hashes then run under the step. */
    crafter_jaxkey k = crafter_cc_schedule_next(&p.key);
    for (long n = 0; n < steps; n++) {
      crafter_jaxkey now = k;
      k = crafter_cc_schedule_next(&p.key);
      p.reward = crafter_cc_game_step(&p.state, crafter_jax_split_one(now, 0), p.actions[n]);
      p.done = crafter_cc_game_over(&p.state);
      if (p.done) {
        struct timespec r;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &r);
        if (crafter_cc_generate_world(crafter_jax_split_one(now, 1), &p.state) != 0)
          die("out of memory");
        reset_seconds += seconds_since(&r);
        resets++;
      }
      if (observe) {
        crafter_cc_render_symbolic(&p.state, p.obs);
        sink += p.obs[CRAFTER_SYMBOLIC_SIZE - 2] > 0.5f;
      }
    }
    double seconds = seconds_since(&a);
    printf("C: %ld steps in %.3f s, %.0f steps/s %s; %ld resets took %.3f s, the steps alone %.0f "
           "steps/s (%u)\n",
           steps, seconds, (double)steps / seconds,
           observe ? "with the symbolic observation" : "without observation", resets,
           reset_seconds, (double)steps / (seconds - reset_seconds), sink % 2);
  }
  return 0;
}

/* The same for `envs` envs (seeds 0, 1, ...) side by side, one
 * crafter_cc_env_step_many call a step, `steps` env steps in all; the
 * resets' share is estimated from worlds generated apart. */
static int speed_many(long steps, int envs) {
  struct player *p = calloc((size_t)envs, sizeof *p);
  crafter_cc_state *states = malloc((size_t)envs * sizeof *states);
  crafter_jaxkey *keys = malloc((size_t)envs * sizeof *keys);
  int *actions = malloc((size_t)envs * sizeof *actions), *dones = malloc((size_t)envs * sizeof *dones);
  float *rewards = malloc((size_t)envs * sizeof *rewards);
  if (!p || !states || !keys || !actions || !dones || !rewards) die("out of memory");
  long rounds = steps / envs;
  if (rounds > MAX_STEPS) rounds = MAX_STEPS;
  for (int observe = 0; observe <= 1; observe++) {
    for (int k = 0; k < envs; k++) {
      start(&p[k], k, rounds, CRAFTER_CC_AS_JAX);
      states[k] = p[k].state;
    }
    long resets = 0;
    unsigned sink = 0;
    struct timespec a;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long n = 0; n < rounds; n++) {
      for (int k = 0; k < envs; k++) {
        keys[k] = crafter_cc_schedule_next(&p[k].key);
        actions[k] = p[k].actions[n];
      }
      if (crafter_cc_env_step_many(states, keys, actions, envs, rewards, dones) != 0)
        die("out of memory");
      for (int k = 0; k < envs; k++) {
        resets += dones[k];
        if (observe) {
          crafter_cc_render_symbolic(&states[k], p[k].obs);
          sink += p[k].obs[CRAFTER_SYMBOLIC_SIZE - 2] > 0.5f;
        }
      }
    }
    double seconds = seconds_since(&a);
    /* the resets' share, at the mean time of a world generated apart */
    struct timespec r;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &r);
    for (int k = 0; k < 200; k++)
      if (crafter_cc_generate_world(crafter_cc_reset_key(k), &states[0]) != 0) die("out of memory");
    double reset_seconds = (double)resets * seconds_since(&r) / 200.0;
    printf("C: %d envs side by side, %ld steps in %.3f s, %.0f steps/s %s; %ld resets took about "
           "%.3f s, the steps alone about %.0f steps/s (%u)\n",
           envs, rounds * envs, seconds, (double)(rounds * envs) / seconds,
           observe ? "with the symbolic observation" : "without observation", resets,
           reset_seconds, (double)(rounds * envs) / (seconds - reset_seconds), sink % 2);
  }
  free(p), free(states), free(keys), free(actions), free(dones), free(rewards);
  return 0;
}

/* One line of the golden file. */
struct golden {
  int64_t seed;
  long steps;
  char *actions; /* the letters of a scripted episode's actions ('a' + action), or NULL */
  long checkpoint[MAX_CHECKPOINTS];
  uint32_t crc[MAX_CHECKPOINTS];
  int checkpoints;
  long done[MAX_DONE];
  int dones;
};

static int parse_line(char *line, struct golden *g) {
  char *at = line, *end;
  g->seed = strtoll(at, &end, 10);
  if (end == at) return -1;
  at = end;
  g->steps = strtol(at, &end, 10);
  if (end == at || g->steps < 1 || g->steps > MAX_STEPS) return -1;
  at = end;
  while (*at == ' ') at++;
  g->actions = NULL;
  if (strncmp(at, "actions ", 8) == 0) {
    at += 8;
    size_t length = strspn(at, "abcdefghijklmnopq");
    if ((long)length != g->steps || !(g->actions = malloc(length + 1))) return -1;
    memcpy(g->actions, at, length);
    g->actions[length] = '\0';
    at += length;
    while (*at == ' ') at++;
  }
  if (strncmp(at, "crc", 3) != 0) return -1;
  at += 3;
  g->checkpoints = 0;
  g->dones = 0;
  for (;;) {
    while (*at == ' ') at++;
    if (strncmp(at, "done", 4) == 0) {
      at += 4;
      break;
    }
    long n = strtol(at, &end, 10);
    if (end == at || g->checkpoints == MAX_CHECKPOINTS) return -1;
    at = end;
    unsigned long crc = strtoul(at, &end, 16);
    if (end == at) return -1;
    at = end;
    g->checkpoint[g->checkpoints] = n;
    g->crc[g->checkpoints++] = (uint32_t)crc;
  }
  for (;;) {
    long n = strtol(at, &end, 10);
    if (end == at) break;
    if (g->dones == MAX_DONE) return -1;
    g->done[g->dones++] = n;
    at = end;
  }
  while (*at == ' ' || *at == '\n' || *at == '\r') at++;
  return *at == '\0' && g->checkpoints > 0 ? 0 : -1;
}

static long read_golden(const char *path, struct golden *g, long max) {
  gzFile file = gzopen(path, "rb");
  if (!file) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  static char line[1 << 16];
  long n = 0, number = 0;
  while (gzgets(file, line, sizeof line)) {
    number++;
    if (line[0] == '#') continue;
    if (n == max || parse_line(line, &g[n]) != 0) {
      fprintf(stderr, "%s: line %ld is not 'S STEPS crc N HEX ... done N ...'\n", path, number);
      gzclose(file);
      return -1;
    }
    n++;
  }
  gzclose(file);
  return n;
}

/* A seed replayed against its line: the first checkpoint whose CRC
 * differs (its index), or -1 when all agree; the resets counted, and
 * whether they fell where the line says. */
struct outcome {
  int wrong_checkpoint;
  long resets;
  int resets_agree;
};

static struct outcome replay(const struct golden *g, enum crafter_cc_arith arith,
                             int stop_at_difference) {
  static struct player p;
  static struct step_words w;
  struct outcome out = {-1, 0, 1};
  start_with(&p, g->seed, g->steps, arith, g->actions);
  uLong crc = crc32(0L, Z_NULL, 0);
  int checkpoint = 0, dones = 0;
  for (;;) {
    words_of(&p.state, p.obs, p.reward, p.done, p.step > 0, &w);
    crc = crc_step(crc, &w);
    if (p.step > 0 && p.done) {
      out.resets++;
      if (dones >= g->dones || g->done[dones] != p.step) out.resets_agree = 0;
      dones++;
    }
    if (checkpoint < g->checkpoints && g->checkpoint[checkpoint] == p.step) {
      if ((uint32_t)crc != g->crc[checkpoint] && out.wrong_checkpoint < 0) {
        out.wrong_checkpoint = checkpoint;
        if (stop_at_difference) return out;
      }
      checkpoint++;
    }
    if (p.step == g->steps) break;
    next(&p);
  }
  if (dones != g->dones) out.resets_agree = 0;
  if (checkpoint != g->checkpoints && out.wrong_checkpoint < 0) out.wrong_checkpoint = checkpoint;
  return out;
}

/* spawn_mobs' p, made here from its rules: the cells of the kind's blocks
 * (grass for cows, grass or path for zombies, path for skeletons)
 * farther than 3 (cows) or 9 from the player and nearer than 14, with no
 * creature, each allowed / count.  Returns the count. */
static int32_t spawn_p(const crafter_cc_state *s, int kind, float *p) {
  int32_t count = 0;
  for (int i = 0; i < CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE; i++) {
    int r = i / CRAFTER_CC_MAP_SIZE, c = i % CRAFTER_CC_MAP_SIZE;
    int32_t distance = abs(r - s->player_position[0]) + abs(c - s->player_position[1]);
    uint8_t block = s->map[r][c];
    int kind_block = kind == 0   ? block == CRAFTER_CC_GRASS
                     : kind == 1 ? block == CRAFTER_CC_GRASS || block == CRAFTER_CC_PATH
                                 : block == CRAFTER_CC_PATH;
    p[i] = kind_block && distance > (kind == 0 ? 3 : 9) && distance < 14 && !s->mob_map[r][c];
    count += p[i] != 0.0f;
  }
  for (int i = 0; i < CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE; i++) p[i] = p[i] / (float)count;
  return count;
}

/* The spawns' cumulative sums against crafter_jax_cumsum's of p, value
 * for value, on the states of the first seeds' episodes (every 23rd step)
 * with the player also moved to the map's corners and edges; their draws
 * against crafter_jax_choice_of_bits. */
static void check_spawn_sums(const struct golden *g, long seeds) {
  enum { CELLS = CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE };
  static struct player p;
  static float prob[CELLS], expect[CELLS], got[CELLS], running[CELLS];
  long sums = 0, wrong_sums = 0, draws = 0, wrong_draws = 0, running_differ = 0;
  uint32_t bits = 12345U;
  static const int32_t places[][2] = {{-1, -1}, {0, 0}, {0, 63}, {63, 0}, {63, 63}, {32, 0},
                                      {0, 32},  {63, 32}, {32, 63}, {5, 7}, {-1, 10}};
  for (long k = 0; k < seeds; k++) {
    start_with(&p, g[k].seed, g[k].steps, CRAFTER_CC_AS_JAX, g[k].actions);
    for (long n = 0; n < g[k].steps; n++) {
      next(&p);
      if (n % 23) continue;
      for (size_t place = 0; place < sizeof places / sizeof places[0] + 1; place++) {
        crafter_cc_state moved = p.state;
        if (place > 0) { /* place 0: where the player is */
          moved.player_position[0] = places[place - 1][0];
          moved.player_position[1] = places[place - 1][1];
        }
        for (int kind = 0; kind < 3; kind++) {
          int32_t count = spawn_p(&moved, kind, prob);
          if (crafter_cc_spawn_cumsum(&moved, kind, got) != count) {
            wrong_sums++;
            continue;
          }
          if (count == 0) continue;
          if (crafter_jax_cumsum(prob, CELLS, expect) != 0) die("out of memory");
          sums++;
          int same = memcmp(expect, got, sizeof got) == 0;
          wrong_sums += !same;
          float sum = 0.0f;
          for (int i = 0; i < CELLS; i++) running[i] = sum = sum + prob[i];
          running_differ += memcmp(expect, running, sizeof running) != 0;
          for (int d = 0; d < 4; d++, draws++) {
            bits = bits * 1664525U + 1013904223U;
            wrong_draws += crafter_cc_spawn_choice(&moved, kind, bits) !=
                           crafter_jax_choice_of_bits(bits, expect, CELLS);
          }
        }
      }
    }
  }
  ok(sums > 1000 && wrong_sums == 0,
     "the spawns' cumulative sums are XLA's tiled ones: %ld of %ld differ (%ld of them differ "
     "from a plain running sum)",
     wrong_sums, sums, running_differ);
  ok(running_differ > 0, "those states tell the tiled sum from a running one");
  ok(wrong_draws == 0, "the spawns' draws are choice(p)'s: %ld of %ld differ", wrong_draws, draws);
}

/* All the seeds of the file replayed side by side, one
 * crafter_cc_env_step_many call a step for all of them: how many seeds
 * fail a checkpoint (-1 when memory cannot be had). */
static long replay_side_by_side(const struct golden *g, long n) {
  struct player *p = calloc((size_t)n, sizeof *p);
  crafter_cc_state *states = malloc((size_t)n * sizeof *states);
  crafter_jaxkey *keys = malloc((size_t)n * sizeof *keys);
  int *actions = malloc((size_t)n * sizeof *actions), *dones = malloc((size_t)n * sizeof *dones);
  float *rewards = malloc((size_t)n * sizeof *rewards);
  uLong *crc = malloc((size_t)n * sizeof *crc);
  int *checkpoint = calloc((size_t)n, sizeof *checkpoint), *wrong = calloc((size_t)n, sizeof *wrong);
  crafter_cc_render_memo *memo = calloc((size_t)n, sizeof *memo);
  static struct step_words w;
  long steps = 0, failed = -1;
  if (!p || !states || !keys || !actions || !dones || !rewards || !crc || !checkpoint || !wrong ||
      !memo)
    goto out;
  for (long k = 0; k < n; k++) {
    start_with(&p[k], g[k].seed, g[k].steps, CRAFTER_CC_AS_JAX, g[k].actions);
    states[k] = p[k].state;
    crc[k] = crc32(0L, Z_NULL, 0);
    steps = g[k].steps > steps ? g[k].steps : steps;
  }
  for (long step = 0;; step++) {
    for (long k = 0; k < n; k++) {
      if (step > g[k].steps) continue;
      /* each observation drawn over the one before it */
      crafter_cc_render_symbolic_memo(&states[k], &memo[k], p[k].obs);
      words_of(&states[k], p[k].obs, rewards[k], dones[k], step > 0, &w);
      crc[k] = crc_step(crc[k], &w);
      if (checkpoint[k] < g[k].checkpoints && g[k].checkpoint[checkpoint[k]] == step)
        wrong[k] |= (uint32_t)crc[k] != g[k].crc[checkpoint[k]++];
    }
    if (step == steps) break;
    for (long k = 0; k < n; k++) {
      keys[k] = crafter_cc_schedule_next(&p[k].key);
      actions[k] = step < g[k].steps ? p[k].actions[step] : 0;
    }
    if (crafter_cc_env_step_many(states, keys, actions, (int)n, rewards, dones) != 0) goto out;
  }
  failed = 0;
  for (long k = 0; k < n; k++) failed += wrong[k] || checkpoint[k] != g[k].checkpoints;
out:
  free(p), free(states), free(keys), free(actions), free(dones), free(rewards), free(crc);
  free(checkpoint), free(wrong), free(memo);
  return failed;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--dump") == 0)
    return dump(atol(argv[2]), argc - 3, argv + 3);
  if (argc == 3 && strcmp(argv[1], "--speed") == 0) return speed(atol(argv[2]));
  if (argc == 4 && strcmp(argv[1], "--speed") == 0) return speed_many(atol(argv[2]), atoi(argv[3]));
  if (argc == 2 && strcmp(argv[1], "--step") == 0) return step_cases();
  if (argc != 2) {
    fprintf(stderr, "usage: test-craftax-episodes FILE.gz | --dump STEPS SEED... | --step | "
                    "--speed STEPS [ENVS]\n");
    return 2;
  }
  static struct golden golden[MAX_SEEDS];
  long n = read_golden(argv[1], golden, MAX_SEEDS);
  if (n < 0) return 2;
  long steps = 0, checkpoints = 0, resets = 0;
  for (long k = 0; k < n; k++) {
    steps += golden[k].steps;
    checkpoints += golden[k].checkpoints;
    resets += golden[k].dones;
  }
  ok(n >= 10 && resets >= n, "the file holds %ld seeds, %ld steps, %ld checkpoints, %ld resets", n,
     steps, checkpoints, resets);

  long wrong = 0, misplaced = 0;
  char first[200] = "none";
  for (long k = 0; k < n; k++) {
    struct outcome out = replay(&golden[k], CRAFTER_CC_AS_JAX, 0);
    if (out.wrong_checkpoint >= 0 && wrong++ == 0) {
      int c = out.wrong_checkpoint;
      long from = c > 0 ? golden[k].checkpoint[c - 1] + 1 : 0;
      snprintf(first, sizeof first, "seed %" PRId64 ", steps %ld to %ld", golden[k].seed, from,
               c < golden[k].checkpoints ? golden[k].checkpoint[c] : golden[k].steps);
    }
    misplaced += !out.resets_agree;
  }
  ok(wrong == 0, "%ld of %ld seeds' episodes are JAX's word for word (first wrong: %s)", n - wrong,
     n, first);
  ok(misplaced == 0, "the resets fall where JAX's did in %ld of %ld seeds", n - misplaced, n);

  long side = replay_side_by_side(golden, n);
  ok(side == 0,
     "played side by side by crafter_cc_env_step_many, each observation drawn over the one "
     "before it (crafter_cc_render_symbolic_memo), %ld of %ld seeds are JAX's",
     n - side, n);
  check_spawn_sums(golden, n < 3 ? n : 3);

  /* Two ways JAX does not compute: each must fail some checkpoints. */
  static const struct {
    enum crafter_cc_arith arith;
    const char *what;
  } wrong_ways[] = {{CRAFTER_CC_TRUE_DIVISION, "timestep / 300 divided, where XLA multiplies by 1/300"},
                    {CRAFTER_CC_UNFUSED, "every product rounded, none fused"}};
  for (size_t m = 0; m < sizeof wrong_ways / sizeof wrong_ways[0]; m++) {
    long differ = 0;
    for (long k = 0; k < n; k++)
      differ += replay(&golden[k], wrong_ways[m].arith, 1).wrong_checkpoint >= 0;
    ok(differ > 0, "with %s, %ld of the %ld seeds differ", wrong_ways[m].what, differ, n);
  }
  return tap_done();
}
