/* Craftax's step (lib/game/cx_game.c) against the states JAX made.
 *
 *   test-cx-game GOLDEN [STARTS]  TAP: every seed of GOLDEN replayed from
 *                                 its first state by the C env's step (a
 *                                 crafted first state, ACTION -2 on its
 *                                 step 0, is JAX's record of it in
 *                                 STARTS)
 *   test-cx-game --extract FILE.gz STARTS S...
 *                                 GOLDEN's lines of seeds S of JAX's
 *                                 recorded steps (the CRC-32s of JAX's
 *                                 own words: the same lines as
 *                                 craftax_full_steps.py --hashes), and
 *                                 their crafted first states' records
 *                                 into STARTS
 *   test-cx-game --jax FILE.gz    JAX's recorded steps
 *                                 (tests/reference/craftax_full_steps.py
 *                                 --record): the episodes replayed by C
 *                                 from their first states, and each step
 *                                 taken by C from JAX's state before it;
 *                                 the first difference of each seed said
 *                                 (step, field, index, both values), the
 *                                 steps equal counted; exit 1 on any
 *                                 difference of a replay (a crafted
 *                                 first state, its action word
 *                                 0xfffffffe, is replayed from JAX's
 *                                 words)
 *
 * GOLDEN has a line a step, 'S N ACTION REWARD DONE H1 .. H85' (N = 0 the
 * reset, ACTION -1 there; REWARD the float32 bits in hex; Hk the CRC-32 of
 * field k's words, in JAX's order: cx_state_words.h), as
 * craftax_full_steps.py --hashes writes it; lines starting with '#' are
 * comments.  A seed whose steps are not all equal fails, naming its first
 * difference.  tests/unit-cx-game.t runs it on
 * tests/data/craftax/cx-steps.txt.gz (160 KB), recorded with the pinned
 * reference (craftax 1.6.1, jax and jaxlib 0.10.1, in a virtual
 * environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_full_steps.py --record moves 300 m.gz 0 1 2
 *   VENV/bin/python tests/reference/craftax_full_steps.py --record random 300 r.gz 0 1 2
 *   (VENV/bin/python tests/reference/craftax_full_steps.py --hashes m.gz; echo '# random';
 *    VENV/bin/python tests/reference/craftax_full_steps.py --hashes r.gz) | gzip -9n >FILE
 *
 * tests/unit-cx-crafted.t runs it on tests/data/craftax/cx-crafted.txt.gz
 * with the first states of tests/data/craftax/cx-crafted-starts.gz,
 * made from recordings of --record-boss 150 (seeds 6, 7) and
 * --record-crafted 200 (seeds 21, 24, 25) by --extract;
 * tests/unit-cx-cases.t on tests/data/craftax/cx-cases.txt.gz and
 * cx-cases-starts.gz, from --record-cases 150 (seeds 2, 3, 4, 7, 35, 36,
 * 75, 76).  A step whose action word has 0x100 added (ACTION 256 and
 * up in GOLDEN) is the game's step alone: craftax_step with split(k)[0]
 * and no reset, done whether the game is over after it.
 *
 *   test-cx-game --lazy SEEDS STEPS
 *                                 TAP: the auto-reset's worlds with floors
 *                                 made when first gone to against the
 *                                 same steps from whole worlds
 *                                 (tests/unit-cx-lazy.t)
 *
 * No expected value is written here: all come from the files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cx_state_words.h"
#include "game/cx_game.h"
#include "tap.h"

enum { HEAD_WORDS = 7, GAME_STEP = 0x100 };

/* The step recorded with action word `action`: the env's step given key
 * k, or, the word having GAME_STEP added, the game's step alone
 * (craftax_step with split(k)[0], no reset; done is whether the game is
 * over after it). */
static void step_as_recorded(crafter_cx_state *s, crafter_jaxkey k, uint32_t action, float *reward,
                             int *done) {
  if (action >= GAME_STEP && action < GAME_STEP + CRAFTER_CX_ACTIONS) {
    *reward = crafter_cx_game_step(s, crafter_jax_split_inline(k, 0), (int)(action - GAME_STEP));
    *done = crafter_cx_game_over(s);
  } else {
    crafter_cx_env_step(s, k, (int)action, reward, done);
  }
}

static void set_word(const struct cx_field *f, long k, uint32_t word) {
  long at = k;
  if (f->per_floor) at = (k / f->per_floor) * f->stride + k % f->per_floor;
  switch (f->kind) {
  case CX_U8: ((uint8_t *)f->at)[at] = (uint8_t)word; break;
  case CX_KEY: ((crafter_jaxkey *)f->at)->word[at] = word; break;
  default: memcpy((char *)f->at + 4 * at, &word, 4); break;
  }
}

/* *s with its pending floors made (a copy: s itself keeps them pending,
 * so that the steps after it make them when they go there). */
static const crafter_cx_state *whole(const crafter_cx_state *s) {
  static crafter_cx_state copy;
  if (!s->pending_floors) return s;
  copy = *s;
  if (crafter_cx_make_floors(&copy) != 0) {
    fprintf(stderr, "test-cx-game: out of memory\n");
    exit(2);
  }
  return &copy;
}

static void load_words(crafter_cx_state *s, const uint32_t *words) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  memset(s, 0, sizeof *s);
  int n = cx_state_fields(s, f, names);
  for (int k = 0; k < n; k++)
    for (long v = 0; v < f[k].count; v++) set_word(&f[k], v, *words++);
}

/* The first difference between *s and words: field and index into what
 * (empty when equal); the count of fields that differ. */
static int first_difference(const crafter_cx_state *s, const uint32_t *words, char *what,
                            size_t size, int *differs) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int n = cx_state_fields(s, f, names), count = 0;
  what[0] = 0;
  for (int k = 0; k < n; k++) {
    int field_differs = 0;
    for (long v = 0; v < f[k].count; v++) {
      uint32_t c = cx_word(&f[k], v), j = words[v];
      if (c != j && !field_differs) {
        field_differs = 1;
        if (!what[0]) snprintf(what, size, "%s[%ld]: C %08" PRIx32 " JAX %08" PRIx32, f[k].name, v, c, j);
      }
    }
    if (differs) differs[k] += field_differs;
    count += field_differs;
    words += f[k].count;
  }
  return count;
}

static int jax_file(const char *path) {
  gzFile in = gzopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-game: cannot open %s\n", path);
    return 2;
  }
  long per = CX_HEAD_WORDS + cx_state_word_count();
  uint32_t *prev = malloc(4 * (size_t)per), *cur = malloc(4 * (size_t)per);
  static crafter_cx_state replay, from_jax, after;
  int unlocked[CRAFTER_CX_ACHIEVEMENTS] = {0}, floors = 0;
  long resets = 0, launched = 0, shot = 0, kills = 0, hurt = 0, boss_hits = 0, spawned = 0;
  long struck[CRAFTER_CX_LEVELS] = {0}, hit_by_projectile[CRAFTER_CX_LEVELS] = {0};
  long ripened = 0, eaten = 0, time_up = 0, beaten_seen = 0, enchanted_shots = 0;
  struct cx_field names_f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int nfields = cx_state_fields(&replay, names_f, names);
  int differs[CX_FIELDS] = {0};
  long steps = 0, from_jax_equal = 0, seeds = 0, replay_equal_seeds = 0, replay_steps_equal = 0;
  int replay_alive = 0, status = 0;
  char what[256];
  while (gzread(in, cur, 4 * (unsigned)per) == 4 * per) {
    uint32_t seed = cur[0], n = cur[1], action = cur[2];
    const uint32_t *words = cur + CX_HEAD_WORDS;
    if (n == 0) {
      if (seeds && replay_alive) replay_equal_seeds++;
      seeds++;
      crafter_jaxkey key;
      crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
      if (reset.word[0] != cur[3] || reset.word[1] != cur[4]) {
        printf("seed %" PRIu32 ": the reset's key differs\n", seed);
        status = 1;
      }
      if (action == 0xfffffffeU) /* a crafted first state: C starts from it */
        cx_load_words(&replay, words);
      else
        crafter_cx_generate_world_first(crafter_jax_split_inline(reset, 1), &replay);
      replay_alive = first_difference(whole(&replay), words, what, sizeof what, NULL) == 0;
      if (!replay_alive) {
        printf("seed %" PRIu32 " step 0: %s\n", seed, what);
        status = 1;
      }
    } else {
      crafter_jaxkey k = {{cur[3], cur[4]}};
      float reward;
      int done;
      uint32_t rbits;
      /* from JAX's state before */
      load_words(&from_jax, prev + HEAD_WORDS);
      load_words(&after, words);
      resets += cur[6] != 0 && action < GAME_STEP;
      time_up += cur[6] != 0 && from_jax.timestep + 1 >= CRAFTER_CX_MAX_TIMESTEPS;
      beaten_seen += action >= GAME_STEP && after.boss_progress >= CRAFTER_CX_LEVELS - 1 &&
                     from_jax.boss_progress < CRAFTER_CX_LEVELS - 1;
      if (after.timestep == from_jax.timestep + 1) { /* not a reset: what the step did */
        for (int a = 0; a < CRAFTER_CX_ACHIEVEMENTS; a++)
          unlocked[a] += after.achievements[a] && !from_jax.achievements[a];
        floors += after.player_level != from_jax.player_level;
        int level = from_jax.player_level;
        if (after.player_level == level) {
          for (int k = 0; k < CRAFTER_CX_MAX_MOB_PROJECTILES; k++)
            launched += after.mob_projectiles.mask[level][k] && !from_jax.mob_projectiles.mask[level][k];
          for (int k = 0; k < CRAFTER_CX_MAX_PLAYER_PROJECTILES; k++)
            shot += after.player_projectiles.mask[level][k] &&
                    !from_jax.player_projectiles.mask[level][k];
          kills += after.monsters_killed[level] - from_jax.monsters_killed[level];
          hurt += after.player_health < from_jax.player_health;
          boss_hits += after.boss_progress - from_jax.boss_progress;
          /* creatures' health falls by the player's hand (DO) or projectiles */
          const crafter_cx_mobs *before_m[3] = {&from_jax.melee_mobs, &from_jax.passive_mobs,
                                                &from_jax.ranged_mobs};
          const crafter_cx_mobs *after_m[3] = {&after.melee_mobs, &after.passive_mobs,
                                               &after.ranged_mobs};
          for (int c = 0; c < 3; c++)
            for (int k = 0; k < CRAFTER_CX_MOB_SLOTS; k++)
              if (before_m[c]->mask[level][k] &&
                  after_m[c]->health[level][k] < before_m[c]->health[level][k]) {
                int by_hand = (action & 0xff) == 5;
                struck[level] += by_hand;
                hit_by_projectile[level] += !by_hand;
                enchanted_shots += !by_hand && from_jax.bow_enchantment > 0;
              }
          for (int r = 0; r < CRAFTER_CX_MAP_SIZE; r++)
            for (int c = 0; c < CRAFTER_CX_MAP_SIZE; c++) {
              ripened += level == 0 && from_jax.map[0][r][c] == CRAFTER_CX_PLANT &&
                         after.map[0][r][c] == CRAFTER_CX_RIPE_PLANT;
              eaten += level == 0 && from_jax.map[0][r][c] == CRAFTER_CX_RIPE_PLANT &&
                       after.map[0][r][c] == CRAFTER_CX_PLANT;
            }
          spawned += after.melee_mobs.mask[level][0] + after.melee_mobs.mask[level][1] +
                     after.melee_mobs.mask[level][2] + after.ranged_mobs.mask[level][0] +
                     after.ranged_mobs.mask[level][1] >
                     from_jax.melee_mobs.mask[level][0] + from_jax.melee_mobs.mask[level][1] +
                     from_jax.melee_mobs.mask[level][2] + from_jax.ranged_mobs.mask[level][0] +
                     from_jax.ranged_mobs.mask[level][1];
        }
      }
      step_as_recorded(&from_jax, k, action, &reward, &done);
      memcpy(&rbits, &reward, 4);
      steps++;
      int count = first_difference(whole(&from_jax), words, what, sizeof what, differs);
      if (count == 0 && rbits == cur[5] && (uint32_t)done == cur[6]) from_jax_equal++;
      if (replay_alive) {
        step_as_recorded(&replay, k, action, &reward, &done);
        memcpy(&rbits, &reward, 4);
        if (first_difference(whole(&replay), words, what, sizeof what, NULL) != 0 || rbits != cur[5] ||
            (uint32_t)done != cur[6]) {
          if (!what[0])
            snprintf(what, sizeof what, "reward C %08" PRIx32 " JAX %08" PRIx32 ", done C %d JAX %u",
                     rbits, cur[5], done, (unsigned)cur[6]);
          printf("seed %" PRIu32 " step %" PRIu32 " (action %" PRIu32 "): first difference %s\n",
                 seed, n, action, what);
          replay_alive = 0;
          status = 1;
        } else {
          replay_steps_equal++;
        }
      }
    }
    uint32_t *t = prev;
    prev = cur;
    cur = t;
  }
  if (seeds && replay_alive) replay_equal_seeds++;
  gzclose(in);
  printf("replayed: %ld of %ld seeds equal throughout; %ld steps equal before the first "
         "difference\n", replay_equal_seeds, seeds, replay_steps_equal);
  printf("from JAX's state before: %ld of %ld steps equal in every field, reward and done\n",
         from_jax_equal, steps);
  printf("in JAX's steps: %ld episodes ended (auto-reset); %d changes of floor; achievements unlocked (number: times):", resets, floors);
  for (int a = 0; a < CRAFTER_CX_ACHIEVEMENTS; a++)
    if (unlocked[a]) printf(" %d:%d", a, unlocked[a]);
  printf("\n");
  printf("in JAX's steps: %ld creatures' projectiles launched, %ld of the player's, %ld monsters "
         "killed, %ld steps the player lost health, %ld monsters spawned, %ld hits on the boss\n",
         launched, shot, kills, hurt, spawned, boss_hits);
  printf("in JAX's steps: creatures struck by DO on floors 0-8:");
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++) printf(" %ld", struck[f]);
  printf("; hit by the player's projectiles:");
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++) printf(" %ld", hit_by_projectile[f]);
  printf(" (%ld while the bow was enchanted); %ld plants ripened, %ld ripe ones eaten; %ld episodes "
         "ended at the time limit; %ld boss beaten with the state after it seen\n",
         enchanted_shots, ripened, eaten, time_up, beaten_seen);
  for (int k = 0; k < nfields; k++)
    if (differs[k]) printf("  %s differs on %d steps\n", names_f[k].name, differs[k]);
  free(prev);
  free(cur);
  return status;
}


/* ---- a golden file from JAX's records ---- */

static void field_hashes(const crafter_cx_state *s, uint32_t *out);

/* The golden lines of the seeds named, from JAX's words in a recorded
 * file (the CRC-32s of JAX's own words), on standard output; the records
 * of their crafted first states into starts (gzip). */
static int extract(const char *path, const char *starts, int count, char **seeds) {
  gzFile in = gzopen(path, "rb"), out = gzopen(starts, "wb9");
  if (!in || !out) {
    fprintf(stderr, "test-cx-game: cannot open %s or %s\n", path, starts);
    return 2;
  }
  long per = CX_HEAD_WORDS + cx_state_word_count();
  uint32_t *record = malloc(4 * (size_t)per);
  static crafter_cx_state s;
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int nfields = cx_state_fields(&s, f, names);
  while (gzread(in, record, 4 * (unsigned)per) == 4 * per) {
    int wanted = 0;
    for (int k = 0; k < count; k++) wanted |= strtoul(seeds[k], NULL, 10) == record[0];
    if (!wanted) continue;
    if (record[1] == 0 && record[2] == 0xfffffffeU) gzwrite(out, record, 4 * (unsigned)per);
    cx_load_words(&s, record + CX_HEAD_WORDS);
    uint32_t hashes[CX_FIELDS];
    field_hashes(&s, hashes);
    long action = record[2] == 0xffffffffU ? -1 : record[2] == 0xfffffffeU ? -2 : (long)record[2];
    printf("%" PRIu32 " %" PRIu32 " %ld %08" PRIx32 " %" PRIu32, record[0], record[1], action,
           record[5], record[6]);
    for (int k = 0; k < nfields; k++) printf(" %08" PRIx32, hashes[k]);
    printf("\n");
  }
  gzclose(in);
  gzclose(out);
  free(record);
  return 0;
}

/* ---- the golden file ---- */

static void field_hashes(const crafter_cx_state *s, uint32_t *out) {
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int n = cx_state_fields(s, f, names);
  for (int k = 0; k < n; k++) out[k] = cx_crc_field(0, &f[k], 0, f[k].count);
}

static int golden(const char *path, const char *starts) {
  gzFile in = gzopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-game: cannot open %s\n", path);
    return 2;
  }
  static crafter_cx_state s;
  struct cx_field f[CX_FIELDS];
  char names[CX_FIELDS][48];
  int nfields = cx_state_fields(&s, f, names);
  char line[2048];
  long seed = -1, last_step = 0, equal_steps = 0;
  int alive = 0, seeds = 0;
  char first[256] = "";
  crafter_jaxkey key;
  long total_steps = 0, total_equal = 0;
#define REPORT()                                                                              \
  do {                                                                                        \
    if (seed >= 0) {                                                                          \
      seeds++;                                                                                \
      total_steps += last_step;                                                               \
      total_equal += equal_steps;                                                             \
      if (alive)                                                                              \
        ok(1, "seed %ld: %ld steps equal to JAX's in every field, reward and done", seed,     \
           last_step);                                                                        \
      else                                                                                    \
        ok(0, "seed %ld: %ld of %ld steps equal, then %s", seed, equal_steps, last_step,      \
           first);                                                                            \
    }                                                                                         \
  } while (0)
  while (gzgets(in, line, sizeof line)) {
    long sd, n, action;
    unsigned reward_bits, done;
    int used;
    if (sscanf(line, "%ld %ld %ld %x %u%n", &sd, &n, &action, &reward_bits, &done, &used) != 5)
      continue;
    uint32_t want[CX_FIELDS];
    char *at = line + used;
    for (int k = 0; k < nfields; k++) want[k] = (uint32_t)strtoul(at, &at, 16);
    if (n == 0) {
      REPORT();
      seed = sd;
      last_step = 0;
      equal_steps = 0;
      crafter_jaxkey reset = crafter_cx_schedule_start(sd, &key);
      alive = 1;
      first[0] = 0;
      if (action == -2) { /* a crafted first state, from starts */
        if (cx_crafted_start(starts, sd, &s) != 0) {
          snprintf(first, sizeof first, "no crafted first state of seed %ld in %s", sd,
                   starts ? starts : "(no file named)");
          alive = 0;
        }
      } else {
        crafter_cx_generate_world_first(crafter_jax_split_inline(reset, 1), &s);
      }
    } else {
      last_step = n;
      if (!alive) continue;
      float reward;
      int d;
      step_as_recorded(&s, crafter_cx_schedule_next(&key), (uint32_t)action, &reward, &d);
      uint32_t rbits;
      memcpy(&rbits, &reward, 4);
      if (rbits != reward_bits || (unsigned)d != done) {
        snprintf(first, sizeof first, "step %ld: reward or done", n);
        alive = 0;
      }
    }
    if (!alive) continue;
    uint32_t got[CX_FIELDS];
    field_hashes(whole(&s), got);
    for (int k = 0; k < nfields && alive; k++)
      if (got[k] != want[k]) {
        snprintf(first, sizeof first, "step %ld (action %ld): %s differs", n, action, f[k].name);
        alive = 0;
      }
    if (alive && n > 0) equal_steps++;
  }
  REPORT();
#undef REPORT
  gzclose(in);
  printf("# %ld of %ld steps of %d seeds replayed equal to JAX's\n", total_equal, total_steps,
         seeds);
  return tap_done();
}

/* ---- floors made when first gone to ---- */

/* Seeds 0 .. seeds-1 stepped twice: from the reset's state with only the
 * overworld made (floors made when the player first goes down or up to
 * them, as crafter_cx_env_step does), and from the whole world, made whole
 * again after every step; equal after every step once the first is made
 * whole, reward and done too.  Both can descend every floor (8 monsters
 * killed on each), their player set on its floor's ladder down every 10
 * steps, and their actions DESCEND 3 in 10, ASCEND 1 in 10, else any. */
static int lazy_floors(long seeds, long steps) {
  static crafter_cx_state lazy, full;
  long floors_made = 0, deepest = 0;
  for (long seed = 0; seed < seeds; seed++) {
    crafter_jaxkey key;
    crafter_jaxkey reset = crafter_jax_split_inline(crafter_cx_schedule_start(seed, &key), 1);
    crafter_cx_generate_world_first(reset, &lazy);
    crafter_cx_generate_world(reset, &full);
    uint64_t x = (uint64_t)seed * 2654435761U + 1;
    long equal = 0, n;
    char first[160] = "";
    for (n = 1; n <= steps && !first[0]; n++) {
      if (n % 10 == 1)
        for (crafter_cx_state *s = &lazy; s; s = s == &lazy ? &full : NULL) {
          for (int f = 0; f < CRAFTER_CX_LEVELS; f++) s->monsters_killed[f] = 8;
          int level = s->player_level < 0 ? 0 : s->player_level > 8 ? 8 : s->player_level;
          s->player_position[0] = full.down_ladders[level][0];
          s->player_position[1] = full.down_ladders[level][1];
        }
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      int u = (int)(x % 100), action = u < 30 ? 18 : u < 40 ? 19 : (int)((x >> 8) % 43);
      crafter_jaxkey k = crafter_cx_schedule_next(&key);
      float r_lazy, r_full;
      int d_lazy, d_full;
      unsigned pending = lazy.pending_floors;
      if (crafter_cx_env_step(&lazy, k, action, &r_lazy, &d_lazy) != 0 ||
          crafter_cx_env_step(&full, k, action, &r_full, &d_full) != 0 ||
          crafter_cx_make_floors(&full) != 0) {
        fprintf(stderr, "test-cx-game: out of memory\n");
        return 2;
      }
      if (!d_lazy) floors_made += __builtin_popcount(pending & ~(unsigned)lazy.pending_floors);
      if (full.player_level > deepest) deepest = full.player_level;
      uint32_t a[CX_FIELDS], b[CX_FIELDS];
      field_hashes(whole(&lazy), a);
      field_hashes(&full, b);
      struct cx_field f[CX_FIELDS];
      char names[CX_FIELDS][48];
      int nfields = cx_state_fields(&full, f, names);
      for (int m = 0; m < nfields && !first[0]; m++)
        if (a[m] != b[m]) snprintf(first, sizeof first, "step %ld: %s differs", n, f[m].name);
      if (!first[0] && (memcmp(&r_lazy, &r_full, 4) != 0 || d_lazy != d_full))
        snprintf(first, sizeof first, "step %ld: reward or done differs", n);
      equal += !first[0];
    }
    ok(!first[0], "seed %ld: %ld of %ld steps equal with floors made when gone to%s%s", seed,
       equal, steps, first[0] ? ", then " : "", first);
  }
  ok(floors_made > 0, "%ld floors made when first gone to (the deepest floor reached %ld)",
     floors_made, deepest);
  return tap_done();
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--lazy") == 0) return lazy_floors(atol(argv[2]), atol(argv[3]));
  if (argc == 3 && strcmp(argv[1], "--jax") == 0) return jax_file(argv[2]);
  if (argc >= 4 && strcmp(argv[1], "--extract") == 0)
    return extract(argv[2], argv[3], argc - 4, argv + 4);
  if ((argc == 2 || argc == 3) && argv[1][0] != '-') return golden(argv[1], argc == 3 ? argv[2] : NULL);
  fprintf(stderr, "usage: test-cx-game GOLDEN [STARTS] | --jax FILE.gz | --extract FILE.gz STARTS SEED... | --lazy SEEDS STEPS\n");
  return 2;
}
