/* Craftax's pixel observation (lib/view/cx_pixels.c) against the
 * observations JAX made.
 *
 *   test-cx-pixels --golden DIR GOLDEN.gz STARTS.gz
 *       TAP: every episode of GOLDEN replayed by the C env's step
 *       (crafter_cx_env_step_of the pixels env, whose resets make their
 *       worlds from another key than the symbolic env's) from its first
 *       state (made by crafter_cx_generate_world, or for a crafted one,
 *       ACTION -2 on its step 0, JAX's record of it in STARTS), every
 *       observation drawn
 *       with the textures of DIR (Craftax's assets folder) and its CRC-32
 *       checked; then the same observations drawn with the toolkit's own
 *       textures must all differ from JAX's
 *   test-cx-pixels --episodes DIR FILE
 *       the observations of the episodes of FILE (written by
 *       tests/reference/craftax_full_pixels.py --compare: for each, the
 *       record of its first state, head words S, STEPS, 0xffffffff (C
 *       makes the world) or 0xfffffffe (C starts from the words), then
 *       STEPS actions), every state's float32 bytes on standard output
 *   test-cx-pixels --textures DIR|builtin
 *       the scaled textures, crafter_cx_textures' float32 values in the
 *       order of its fields, on standard output
 *   test-cx-pixels --bench DIR|builtin SEED STEPS
 *       the processor time of a call of crafter_cx_render_pixels over the
 *       states of a random episode of STEPS steps, and of the step itself
 *   test-cx-pixels --picture DIR|builtin GOLDEN.gz STARTS.gz S N OUT.png
 *       the observation of step N of episode S of GOLDEN as an RGB PNG,
 *       each value times 255 rounded to nearest
 *
 * GOLDEN has a line 'S N ACTION CRC' a state (N = 0 the first state,
 * ACTION -1 there, or -2 for a crafted first state; CRC zlib's CRC-32 of
 * the observation's float32 bytes, in hex), '#' lines are comments, as
 * tests/reference/craftax_full_pixels.py --record writes it.
 * tests/unit-cx-pixels.t runs it on tests/data/craftax/cx-pixels.txt.gz
 * and cx-pixel-starts.gz, recorded with the pinned reference (craftax
 * 1.6.1, jax and jaxlib 0.10.1, in a virtual environment VENV):
 *
 *   VENV/bin/python tests/reference/craftax_full_pixels.py --record \
 *       cx-pixels.txt.gz cx-pixel-starts.gz boss:150:6,7 lit:150:8,9,27 \
 *       crafted:200:18,19,20,21,22,23,24,25,26 random:1000:10,11,12
 *
 * No expected value is written here: all come from the files. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/bytes.h"
#include "cx_state_words.h"
#include "game/cx_game.h"
#include "tap.h"
#include "view/cx_pixels.h"
#include "view/textures.h"

static float pixels[CRAFTER_CX_PIXELS_SIZE];

static int load(crafter_cx_textures *t, const char *folder) {
  char error[512];
  int status = strcmp(folder, "builtin") == 0 ? crafter_cx_textures_load_builtin(t, error, sizeof error)
                                              : crafter_cx_textures_load(t, folder, error, sizeof error);
  if (status != 0) fprintf(stderr, "test-cx-pixels: %s\n", error);
  return status;
}

static uint32_t crc_of(const float *values) {
  static uint8_t bytes[sizeof pixels];
  for (int k = 0; k < CRAFTER_CX_PIXELS_SIZE; k++) {
    uint32_t bits;
    memcpy(&bits, &values[k], 4);
    bytes[4 * k] = (uint8_t)bits, bytes[4 * k + 1] = (uint8_t)(bits >> 8),
                bytes[4 * k + 2] = (uint8_t)(bits >> 16), bytes[4 * k + 3] = (uint8_t)(bits >> 24);
  }
  return crafter_crc32_update(0, bytes, sizeof bytes);
}

/* One golden line: 1 read, 0 a comment or blank, -1 the end. */
static int golden_line(gzFile in, long *seed, long *n, long *action, uint32_t *crc) {
  char line[256];
  if (!gzgets(in, line, sizeof line)) return -1;
  unsigned value;
  if (line[0] == '#' || sscanf(line, "%ld %ld %ld %x", seed, n, action, &value) != 4) return 0;
  *crc = value;
  return 1;
}

struct met {
  long states, nights, asleep, dark, torches, ladders, boss, creatures, projectiles, enchanted,
      floors[CRAFTER_CX_LEVELS];
};

static int in_view(const crafter_cx_state *s, const int32_t position[2]) {
  return abs(position[0] - s->player_position[0]) <= 4 && abs(position[1] - s->player_position[1]) <= 5;
}

static int mobs_in_view(const crafter_cx_state *s, const crafter_cx_mobs *m, int slots) {
  for (int k = 0; k < slots; k++)
    if (m->mask[s->player_level][k] && in_view(s, m->position[s->player_level][k])) return 1;
  return 0;
}

/* What a state shows, counted for the summary. */
static void count(struct met *m, const crafter_cx_state *s) {
  int level = s->player_level, dark = 0, torch = 0, ladder = 0, boss = 0;
  m->states++;
  m->nights += level == 0 && s->light_level < 0.5f;
  m->asleep += s->is_sleeping != 0;
  m->floors[level]++;
  for (int r = -4; r <= 4; r++)
    for (int c = -5; c <= 5; c++) {
      int y = s->player_position[0] + r, x = s->player_position[1] + c;
      if (y < 0 || y >= 48 || x < 0 || x >= 48) continue;
      dark |= s->light_map[level][y][x] < 1.0f;
      torch |= s->item_map[level][y][x] == CRAFTER_CX_ITEM_TORCH;
      ladder |= s->item_map[level][y][x] >= CRAFTER_CX_ITEM_LADDER_DOWN;
      boss |= s->map[level][y][x] == CRAFTER_CX_NECROMANCER && s->light_map[level][y][x] > 0.0f;
    }
  m->dark += dark, m->torches += torch, m->ladders += ladder, m->boss += boss;
  m->creatures += mobs_in_view(s, &s->melee_mobs, CRAFTER_CX_MAX_MELEE_MOBS) ||
                  mobs_in_view(s, &s->passive_mobs, CRAFTER_CX_MAX_PASSIVE_MOBS) ||
                  mobs_in_view(s, &s->ranged_mobs, CRAFTER_CX_MAX_RANGED_MOBS);
  m->projectiles += mobs_in_view(s, &s->mob_projectiles, CRAFTER_CX_MAX_MOB_PROJECTILES) ||
                    mobs_in_view(s, &s->player_projectiles, CRAFTER_CX_MAX_PLAYER_PROJECTILES);
  int enchanted = s->sword_enchantment > 0 || (s->bow_enchantment > 0 && s->inventory.arrows > 0);
  for (int i = 0; i < CRAFTER_CX_ARMOUR; i++) enchanted |= s->armour_enchantments[i] > 0;
  m->enchanted += enchanted;
}

static int golden(const char *folder, const char *path, const char *starts) {
  static crafter_cx_textures t, own;
  if (load(&t, folder) != 0 || load(&own, "builtin") != 0) return 2;
  gzFile in = gzopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-pixels: cannot open %s\n", path);
    return 2;
  }
  static crafter_cx_state s;
  crafter_jaxkey key;
  long seed = -1, n, action, current = -1, states = 0, equal = 0, own_differ = 0, total = 0;
  uint32_t crc;
  int alive = 0, status;
  char first[200] = "";
  struct met met = {0};
#define REPORT()                                                                               \
  if (current >= 0) {                                                                          \
    if (alive)                                                                                 \
      ok(1, "episode %ld: the %ld pixel observations are JAX's", current, states);            \
    else                                                                                       \
      ok(0, "episode %ld: %ld pixel observations are JAX's, then %s", current, equal, first);  \
  }
  while ((status = golden_line(in, &seed, &n, &action, &crc)) >= 0) {
    if (status == 0) continue;
    if (n == 0) {
      REPORT();
      current = seed, states = 0, equal = 0, alive = 1, first[0] = 0;
      crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
      if (action == -2) {
        if (cx_crafted_start(starts, seed, &s) != 0) {
          snprintf(first, sizeof first, "no crafted first state of seed %ld in %s", seed, starts);
          alive = 0;
        }
      } else {
        crafter_cx_generate_world(crafter_cx_world_key(CRAFTER_CX_PIXELS_ENV, reset), &s);
      }
    } else if (alive) {
      float reward;
      int done;
      crafter_cx_env_step_of(CRAFTER_CX_PIXELS_ENV, &s, crafter_cx_schedule_next(&key), (int)action, &reward, &done);
    }
    states++;
    if (!alive) continue;
    count(&met, &s);
    crafter_cx_render_pixels(&s, &t, pixels);
    uint32_t mine = crc_of(pixels);
    total++;
    if (mine != crc) {
      snprintf(first, sizeof first,
               "step %ld (action %ld; floor %d, light %.9g, asleep %d) differs: CRC %08" PRIx32
               ", JAX's %08" PRIx32,
               n, action, s.player_level, s.light_level, s.is_sleeping, mine, crc);
      alive = 0;
      continue;
    }
    equal++;
    crafter_cx_render_pixels(&s, &own, pixels);
    own_differ += crc_of(pixels) != crc;
  }
  REPORT();
#undef REPORT
  gzclose(in);
  ok(own_differ == total, "drawn with the toolkit's own textures, %ld of %ld observations differ from JAX's",
     own_differ, total);
  printf("# %ld states: %ld at night, %ld asleep; in view %ld with dark cells, %ld torches, %ld "
         "ladders, %ld the necromancer lit, %ld creatures, %ld projectiles; %ld enchanted; by floor:",
         met.states, met.nights, met.asleep, met.dark, met.torches, met.ladders, met.boss,
         met.creatures, met.projectiles, met.enchanted);
  for (int f = 0; f < CRAFTER_CX_LEVELS; f++) printf(" %ld", met.floors[f]);
  printf("\n");
  return tap_done();
}

static int episodes(const char *folder, const char *path) {
  static crafter_cx_textures t;
  if (load(&t, folder) != 0) return 2;
  FILE *in = fopen(path, "rb");
  if (!in) {
    fprintf(stderr, "test-cx-pixels: cannot open %s\n", path);
    return 2;
  }
  long per = CX_HEAD_WORDS + cx_state_word_count();
  uint32_t *record = malloc(4 * (size_t)per);
  static crafter_cx_state s;
  while (fread(record, 4, (size_t)per, in) == (size_t)per) {
    long seed = record[0], steps = record[1];
    crafter_jaxkey key;
    crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
    if (record[2] == 0xfffffffeU)
      cx_load_words(&s, record + CX_HEAD_WORDS);
    else
      crafter_cx_generate_world(crafter_cx_world_key(CRAFTER_CX_PIXELS_ENV, reset), &s);
    crafter_cx_render_pixels(&s, &t, pixels);
    fwrite(pixels, sizeof pixels, 1, stdout);
    for (long n = 0; n < steps; n++) {
      uint32_t action;
      if (fread(&action, 4, 1, in) != 1) {
        fprintf(stderr, "test-cx-pixels: %s ends inside an episode\n", path);
        return 2;
      }
      float reward;
      int done;
      crafter_cx_env_step_of(CRAFTER_CX_PIXELS_ENV, &s, crafter_cx_schedule_next(&key), (int)action, &reward, &done);
      crafter_cx_render_pixels(&s, &t, pixels);
      fwrite(pixels, sizeof pixels, 1, stdout);
    }
  }
  free(record);
  fclose(in);
  return fflush(stdout) == 0 ? 0 : 2;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench(const char *folder, long seed, long steps) {
  static crafter_cx_textures t;
  if (load(&t, folder) != 0) return 2;
  static crafter_cx_state s;
  crafter_jaxkey key, reset = crafter_cx_schedule_start(seed, &key);
  crafter_cx_generate_world(crafter_cx_world_key(CRAFTER_CX_PIXELS_ENV, reset), &s);
  int32_t *actions = malloc(sizeof(int32_t) * (size_t)steps);
  crafter_jax_randint(crafter_jax_split_inline(crafter_jax_key(seed), 2), actions, steps, 0,
                      CRAFTER_CX_ACTIONS);
  double rendering = 0, stepping = 0, night_rendering = 0;
  long nights = 0;
  for (long n = 0; n < steps; n++) {
    double a = now();
    float reward;
    int done;
    crafter_cx_env_step_of(CRAFTER_CX_PIXELS_ENV, &s, crafter_cx_schedule_next(&key), actions[n], &reward, &done);
    double b = now();
    crafter_cx_render_pixels(&s, &t, pixels);
    double c = now();
    int night = s.player_level == 0 && s.light_level < 0.5f;
    stepping += b - a, rendering += c - b;
    nights += night;
    if (night) night_rendering += c - b;
  }
  printf("%ld observations (%ld at night): %.1f us a call of crafter_cx_render_pixels (%.1f us "
         "by day or below ground, %.1f us at night), %.1f us a step of crafter_cx_env_step\n",
         steps, nights, 1e6 * rendering / steps,
         nights < steps ? 1e6 * (rendering - night_rendering) / (steps - nights) : 0.0,
         nights ? 1e6 * night_rendering / nights : 0.0, 1e6 * stepping / steps);
  free(actions);
  return 0;
}

static int picture(const char *folder, const char *path, const char *starts, long want_seed,
                   long want_step, const char *out) {
  static crafter_cx_textures t;
  if (load(&t, folder) != 0) return 2;
  gzFile in = gzopen(path, "rb");
  if (!in) return 2;
  static crafter_cx_state s;
  crafter_jaxkey key;
  long seed, n, action;
  uint32_t crc;
  int status, found = 0;
  while (!found && (status = golden_line(in, &seed, &n, &action, &crc)) >= 0) {
    if (status == 0 || seed != want_seed) continue;
    if (n == 0) {
      crafter_jaxkey reset = crafter_cx_schedule_start(seed, &key);
      if (action == -2 ? cx_crafted_start(starts, seed, &s) != 0 : 0) return 2;
      if (action != -2) crafter_cx_generate_world(crafter_cx_world_key(CRAFTER_CX_PIXELS_ENV, reset), &s);
    } else {
      float reward;
      int done;
      crafter_cx_env_step_of(CRAFTER_CX_PIXELS_ENV, &s, crafter_cx_schedule_next(&key), (int)action, &reward, &done);
    }
    found = n == want_step;
  }
  gzclose(in);
  if (!found) return 2;
  crafter_cx_render_pixels(&s, &t, pixels);
  static uint8_t rgb[CRAFTER_CX_PIXELS_SIZE];
  for (int k = 0; k < CRAFTER_CX_PIXELS_SIZE; k++) rgb[k] = (uint8_t)floorf(pixels[k] * 255.0f + 0.5f);
  char error[256];
  if (crafter_write_png(out, rgb, CRAFTER_CX_PIXELS_COLUMNS, CRAFTER_CX_PIXELS_ROWS, error,
                        sizeof error) != 0) {
    fprintf(stderr, "test-cx-pixels: %s\n", error);
    return 2;
  }
  return 0;
}

static int textures(const char *folder) {
  static crafter_cx_textures t;
  _Static_assert(sizeof t % sizeof(float) == 0, "the textures are float32 values alone");
  if (load(&t, folder) != 0) return 2;
  return fwrite(&t, sizeof t, 1, stdout) == 1 && fflush(stdout) == 0 ? 0 : 2;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "--golden") == 0) return golden(argv[2], argv[3], argv[4]);
  if (argc == 4 && strcmp(argv[1], "--episodes") == 0) return episodes(argv[2], argv[3]);
  if (argc == 3 && strcmp(argv[1], "--textures") == 0) return textures(argv[2]);
  if (argc == 5 && strcmp(argv[1], "--bench") == 0) return bench(argv[2], atol(argv[3]), atol(argv[4]));
  if (argc == 8 && strcmp(argv[1], "--picture") == 0)
    return picture(argv[2], argv[3], argv[4], atol(argv[5]), atol(argv[6]), argv[7]);
  fprintf(stderr, "usage: test-cx-pixels --golden DIR GOLDEN.gz STARTS.gz | --episodes DIR FILE |\n"
                  "       --textures DIR|builtin |\n"
                  "       --bench DIR|builtin SEED STEPS |\n"
                  "       --picture DIR|builtin GOLDEN.gz STARTS.gz S N OUT.png\n");
  return 2;
}
