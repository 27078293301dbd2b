/* Craftax-Classic's symbolic observation (lib/view/cc_render.c) against
 * the observations JAX made.
 *
 *   test-cc-render FILE.gz      every seed's observation CRC in FILE
 *   test-cc-render --obs S...   the reset's observation of each seed
 *   test-cc-render --pixels DIR S...  the reset's pixel observation of
 *                               each seed, textures from Craftax's
 *                               assets folder DIR ('pixels S N v0 ...',
 *                               for tests/craftax-pixels.t)
 *   test-cc-render --pixel-steps DIR STEPS S...  the pixel observation
 *                               of every state of each seed's random
 *                               episode (tests/reference/craftax_episodes.py
 *                               says its actions), the reset's and those
 *                               of STEPS steps, as raw little-endian
 *                               float32 on standard output, for
 *                               tests/craftax-pixels.t; DIR "builtin":
 *                               the toolkit's own textures
 *                               (crafter_cc_textures_load_builtin)
 *   test-cc-render --picture DIR|builtin STEP S OUT.png  the pixel
 *                               observation of the state after STEP steps
 *                               of seed S's random episode as an RGB PNG,
 *                               each value times 255 rounded to nearest
 *                               (what crafter-dataset frames draws, for
 *                               tests/craftax-dataset.t)
 *   test-cc-render --actions STEPS S...  those episodes' actions as the
 *                               binary protocol of crafter-step takes
 *                               them: a byte per seed a step, the seeds
 *                               in their order (tests/craftax-step-pixels.t)
 *   test-cc-render --pixel-golden DIR FILE.gz  every seed's episode of
 *                               FILE replayed, every observation's CRC-32
 *                               checked (below), textures from DIR
 *   test-cc-render --render     the observation of each state dumped on
 *                               standard input (the fields the renderer
 *                               reads, in tests/reference/craftax_worlds.py's
 *                               --dump format)
 *
 * The last two print 'obs S N v0 v1 ...' a line, each value a float32's
 * bits, for tests/craftax-obs.t (tests/reference/craftax_obs.py
 * --compare).
 *
 * FILE has a line 'S CRC' per seed S: zlib's CRC-32 of the float32 bytes
 * of the observation env.reset returns for that seed in Craftax's key
 * schedule.  tests/unit-cc-render.t runs it on
 * tests/data/craftax/symbolic-obs.txt.gz (seeds 0..9999), recorded with
 * the pinned reference (craftax 1.6.1, jax and jaxlib 0.10.1, the
 * virtual environment VENV of tests/reference/requirements-craftax.txt):
 *
 *   VENV/bin/python tests/reference/craftax_obs.py --crcs 0 10000 \
 *       | gzip -9n > tests/data/craftax/symbolic-obs.txt.gz
 *
 * No expected value is written here: all come from the file.  Then every
 * observation is drawn two ways Craftax does not draw it
 * (crafter_cc_render_way), and each must fail some CRCs. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cc_game.h"
#include "game/cc_worldgen.h"
#include "kernels/jaxrng.h"
#include "seed_hashes.h"
#include "tap.h"
#include "view/cc_render.h"
#include "view/render.h"
#include "view/textures.h"

static void world(int64_t seed, crafter_cc_state *state) {
  if (crafter_cc_generate_world(crafter_cc_reset_key(seed), state) != 0) {
    fprintf(stderr, "seed %" PRId64 ": out of memory\n", seed);
    exit(2);
  }
}

static uint32_t bits_of(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

static uint32_t obs_crc(const float *obs) {
  uint32_t crc = 0;
  for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) {
    uint32_t bits = bits_of(obs[k]);
    uint8_t bytes[4];
    for (int b = 0; b < 4; b++) bytes[b] = (uint8_t)(bits >> (8 * b));
    crc = crafter_crc32_update(crc, bytes, 4);
  }
  return crc;
}

static void print_obs(int64_t label, const crafter_cc_state *state) {
  float obs[CRAFTER_SYMBOLIC_SIZE];
  crafter_cc_render_symbolic(state, obs);
  printf("obs %" PRId64 " %d", label, CRAFTER_SYMBOLIC_SIZE);
  for (int k = 0; k < CRAFTER_SYMBOLIC_SIZE; k++) printf(" %" PRIu32, bits_of(obs[k]));
  printf("\n");
}

static int obs_of_seeds(int count, char **seeds) {
  static crafter_cc_state state;
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    world(seed, &state);
    print_obs(seed, &state);
  }
  return ferror(stdout) ? 2 : 0;
}

/* One field of a dump into the state: the fields the renderer reads. */
static int read_field(crafter_cc_state *s, const char *name, long count, const uint32_t *v) {
  static const char *const inventory[CRAFTER_CC_INVENTORY] = {
      "wood",        "stone",        "coal",         "iron",       "diamond",      "sapling",
      "wood_pickaxe", "stone_pickaxe", "iron_pickaxe", "wood_sword", "stone_sword", "iron_sword"};
  static const struct {
    const char *name;
    size_t offset;
    int slots;
  } mobs[] = {{"zombies", offsetof(crafter_cc_state, zombies), CRAFTER_CC_MAX_ZOMBIES},
              {"cows", offsetof(crafter_cc_state, cows), CRAFTER_CC_MAX_COWS},
              {"skeletons", offsetof(crafter_cc_state, skeletons), CRAFTER_CC_MAX_SKELETONS},
              {"arrows", offsetof(crafter_cc_state, arrows), CRAFTER_CC_MAX_ARROWS}};
  const long cells = (long)CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE;
#define EXPECT(n) \
  if (count != (n)) return -1
  if (strcmp(name, "map") == 0) {
    EXPECT(cells);
    for (long k = 0; k < cells; k++) (&s->map[0][0])[k] = (uint8_t)v[k];
  } else if (strcmp(name, "player_position") == 0) {
    EXPECT(2);
    s->player_position[0] = (int32_t)v[0];
    s->player_position[1] = (int32_t)v[1];
  } else if (strcmp(name, "player_direction") == 0) {
    EXPECT(1);
    s->player_direction = (int32_t)v[0];
  } else if (strcmp(name, "player_health") == 0) {
    EXPECT(1);
    s->player_health = (int32_t)v[0];
  } else if (strcmp(name, "player_food") == 0) {
    EXPECT(1);
    s->player_food = (int32_t)v[0];
  } else if (strcmp(name, "player_drink") == 0) {
    EXPECT(1);
    s->player_drink = (int32_t)v[0];
  } else if (strcmp(name, "player_energy") == 0) {
    EXPECT(1);
    s->player_energy = (int32_t)v[0];
  } else if (strcmp(name, "is_sleeping") == 0) {
    EXPECT(1);
    s->is_sleeping = (uint8_t)v[0];
  } else if (strcmp(name, "light_level") == 0) {
    EXPECT(1);
    memcpy(&s->light_level, &v[0], sizeof s->light_level);
  } else if (strncmp(name, "inventory.", 10) == 0) {
    EXPECT(1);
    for (int k = 0; k < CRAFTER_CC_INVENTORY; k++)
      if (strcmp(name + 10, inventory[k]) == 0) s->inventory[k] = (int32_t)v[0];
  } else {
    for (size_t m = 0; m < sizeof mobs / sizeof mobs[0]; m++) {
      size_t length = strlen(mobs[m].name);
      if (strncmp(name, mobs[m].name, length) != 0 || name[length] != '.') continue;
      crafter_cc_mobs *kind = (crafter_cc_mobs *)((char *)s + mobs[m].offset);
      if (strcmp(name + length, ".position") == 0) {
        EXPECT(2L * mobs[m].slots);
        for (int k = 0; k < mobs[m].slots; k++) {
          kind->position[k][0] = (int32_t)v[2 * k];
          kind->position[k][1] = (int32_t)v[2 * k + 1];
        }
      } else if (strcmp(name + length, ".mask") == 0) {
        EXPECT(mobs[m].slots);
        for (int k = 0; k < mobs[m].slots; k++) kind->mask[k] = (uint8_t)v[k];
      }
    }
  }
#undef EXPECT
  return 0;
}

static int render_dumps(void) {
  static crafter_cc_state state;
  static uint32_t values[CRAFTER_CC_MAP_SIZE * CRAFTER_CC_MAP_SIZE];
  char *line = NULL;
  size_t size = 0;
  int64_t label = 0;
  int have = 0;
  while (getline(&line, &size, stdin) > 0) {
    char name[64];
    int used;
    int64_t next;
    if (sscanf(line, "seed %" SCNd64, &next) == 1) {
      if (have) print_obs(label, &state);
      label = next;
      memset(&state, 0, sizeof state);
      have = 1;
      continue;
    }
    long count;
    if (!have || sscanf(line, "%63s %ld%n", name, &count, &used) != 2 || count < 0 ||
        count > (long)(sizeof values / sizeof values[0])) {
      fprintf(stderr, "not a dump line: %.60s\n", line);
      free(line);
      return 2;
    }
    char *at = line + used;
    for (long k = 0; k < count; k++) values[k] = (uint32_t)strtoul(at, &at, 10);
    if (read_field(&state, name, count, values) != 0) {
      fprintf(stderr, "%s: %ld values, not what the state holds\n", name, count);
      free(line);
      return 2;
    }
  }
  free(line);
  if (have) print_obs(label, &state);
  return ferror(stdout) ? 2 : 0;
}

static int pixels_of_seeds(const char *folder, int count, char **seeds) {
  static crafter_cc_state state;
  static crafter_cc_textures textures;
  static float pixels[CRAFTER_CC_PIXELS_SIZE];
  char error[512];
  if (crafter_cc_textures_load(&textures, folder, error, sizeof error) != 0) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    world(seed, &state);
    if (crafter_cc_render_pixels(&state, &textures, pixels) != 0) {
      fprintf(stderr, "seed %" PRId64 ": not drawn (night)\n", seed);
      return 2;
    }
    printf("pixels %" PRId64 " %d", seed, CRAFTER_CC_PIXELS_SIZE);
    for (int v = 0; v < CRAFTER_CC_PIXELS_SIZE; v++) printf(" %" PRIu32, bits_of(pixels[v]));
    printf("\n");
  }
  return ferror(stdout) ? 2 : 0;
}

/* Seed S's episode: Craftax's key schedule, action n element n of
 * randint(split(PRNGKey(S), 3)[2], (STEPS,), 0, 17), every state's pixel
 * observation written as float32 bytes. */
static int pixels_of_episodes(const char *folder, long steps, int count, char **seeds) {
  static crafter_cc_state state;
  static crafter_cc_textures textures;
  static float pixels[CRAFTER_CC_PIXELS_SIZE];
  char error[512];
  if ((strcmp(folder, "builtin") == 0
           ? crafter_cc_textures_load_builtin(&textures, error, sizeof error)
           : crafter_cc_textures_load(&textures, folder, error, sizeof error)) != 0) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  int32_t *actions = malloc(sizeof *actions * (size_t)(steps > 0 ? steps : 1));
  if (actions == NULL) return 2;
  for (int k = 0; k < count; k++) {
    int64_t seed = strtoll(seeds[k], NULL, 10);
    crafter_jax_randint(crafter_jax_split_one(crafter_jax_key(seed), 2), actions, steps, 0,
                        CRAFTER_CC_ACTIONS);
    crafter_jaxkey key;
    if (crafter_cc_generate_world(crafter_cc_schedule_start(seed, &key), &state) != 0) return 2;
    for (long n = 0;; n++) {
      if (crafter_cc_render_pixels(&state, &textures, pixels) != 0) {
        fprintf(stderr, "seed %" PRId64 " step %ld: not drawn\n", seed, n);
        return 2;
      }
      fwrite(pixels, sizeof pixels, 1, stdout);
      if (n == steps) break;
      float reward;
      int done;
      if (crafter_cc_env_step(&state, crafter_cc_schedule_next(&key), actions[n], &reward, &done) != 0)
        return 2;
    }
  }
  free(actions);
  return ferror(stdout) ? 2 : 0;
}

static int picture_of_step(const char *folder, long step, const char *seed_text,
                           const char *path) {
  static crafter_cc_state state;
  static crafter_cc_textures textures;
  static float pixels[CRAFTER_CC_PIXELS_SIZE];
  static uint8_t rgb[CRAFTER_CC_PIXELS_SIZE];
  char error[4096 + 200];
  if ((strcmp(folder, "builtin") == 0
           ? crafter_cc_textures_load_builtin(&textures, error, sizeof error)
           : crafter_cc_textures_load(&textures, folder, error, sizeof error)) != 0) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  int64_t seed = strtoll(seed_text, NULL, 10);
  int32_t *actions = malloc(sizeof *actions * (size_t)(step > 0 ? step : 1));
  if (actions == NULL || step < 0) return 2;
  crafter_jax_randint(crafter_jax_split_one(crafter_jax_key(seed), 2), actions, step, 0,
                      CRAFTER_CC_ACTIONS);
  crafter_jaxkey key;
  if (crafter_cc_generate_world(crafter_cc_schedule_start(seed, &key), &state) != 0) return 2;
  for (long n = 0; n < step; n++) {
    float reward;
    int done;
    if (crafter_cc_env_step(&state, crafter_cc_schedule_next(&key), actions[n], &reward, &done) != 0)
      return 2;
  }
  free(actions);
  crafter_cc_render_pixels(&state, &textures, pixels);
  for (int k = 0; k < CRAFTER_CC_PIXELS_SIZE; k++) rgb[k] = (uint8_t)floorf(pixels[k] * 255.0f + 0.5f);
  if (crafter_write_png(path, rgb, CRAFTER_CC_PIXELS_COLUMNS, CRAFTER_CC_PIXELS_ROWS, error,
                        sizeof error) != 0) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  return 0;
}

/* The actions of the seeds' episodes (pixels_of_episodes), interleaved:
 * step n's action of every seed, then step n + 1's. */
static int actions_of_episodes(long steps, int count, char **seeds) {
  if (steps < 1 || count < 1) return 2;
  int32_t *actions = malloc(sizeof *actions * (size_t)steps * (size_t)count);
  unsigned char *bytes = malloc((size_t)steps * (size_t)count);
  if (actions == NULL || bytes == NULL) return 2;
  for (int k = 0; k < count; k++)
    crafter_jax_randint(crafter_jax_split_one(crafter_jax_key(strtoll(seeds[k], NULL, 10)), 2),
                        actions + (size_t)k * (size_t)steps, steps, 0, CRAFTER_CC_ACTIONS);
  for (long n = 0; n < steps; n++)
    for (int k = 0; k < count; k++)
      bytes[(size_t)n * (size_t)count + (size_t)k] = (unsigned char)actions[(size_t)k * (size_t)steps + (size_t)n];
  fwrite(bytes, 1, (size_t)steps * (size_t)count, stdout);
  free(actions);
  free(bytes);
  return ferror(stdout) ? 2 : 0;
}

/* The pixel observations of JAX's episodes: FILE (gzip-compressed text)
 * has for each seed a line 'S STEPS' and then the STEPS + 1 CRC-32s (zlib's,
 * of the float32 bytes, little-endian) of the observations of seed S's
 * episode (--pixel-steps says it), the reset's first, in hexadecimal,
 * eight a line; '#' starts a comment line.  tests/unit-cc-pixels.t runs it
 * on tests/data/craftax/pixel-episodes.txt.gz (seeds 0..3, 500 steps),
 * recorded with the pinned reference (craftax 1.6.1, jax and jaxlib
 * 0.10.1, the virtual environment VENV of
 * tests/reference/requirements-craftax.txt):
 *
 *   VENV/bin/python tests/reference/craftax_pixels.py --crcs 500 0 1 2 3 \
 *       | grep -v '^[A-Z]' | gzip -9n > tests/data/craftax/pixel-episodes.txt.gz
 *
 * A test a seed: every observation's CRC equal, the first step that
 * differs said.  The file holds no textures: they are the installed
 * craftax's, named by DIR. */
static int pixel_golden(const char *folder, const char *path) {
  static crafter_cc_state state;
  static crafter_cc_textures textures;
  static float pixels[CRAFTER_CC_PIXELS_SIZE];
  static unsigned char bytes[sizeof pixels];
  char error[512];
  if (crafter_cc_textures_load(&textures, folder, error, sizeof error) != 0) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  gzFile file = gzopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "%s: cannot be read\n", path);
    return 2;
  }
  char line[256];
  int seeds = 0;
  while (gzgets(file, line, sizeof line)) {
    long long seed;
    long steps;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (sscanf(line, "%lld %ld", &seed, &steps) != 2 || steps < 0 || steps > 100000) {
      fprintf(stderr, "%s: not a seed's line: %s", path, line);
      gzclose(file);
      return 2;
    }
    uint32_t *crcs = malloc(sizeof *crcs * (size_t)(steps + 1));
    int32_t *actions = malloc(sizeof *actions * (size_t)(steps + 1));
    if (crcs == NULL || actions == NULL) return 2;
    long have = 0;
    while (have < steps + 1 && gzgets(file, line, sizeof line)) {
      char *at = line, *end;
      for (;;) {
        unsigned long value = strtoul(at, &end, 16);
        if (end == at) break;
        if (have < steps + 1) crcs[have++] = (uint32_t)value;
        at = end;
      }
    }
    if (have < steps + 1) {
      fprintf(stderr, "%s: seed %lld has %ld CRCs, not %ld\n", path, seed, have, steps + 1);
      gzclose(file);
      return 2;
    }
    crafter_jax_randint(crafter_jax_split_one(crafter_jax_key(seed), 2), actions, steps, 0,
                        CRAFTER_CC_ACTIONS);
    crafter_jaxkey key;
    if (crafter_cc_generate_world(crafter_cc_schedule_start(seed, &key), &state) != 0) return 2;
    long first = -1, nights = 0, asleep = 0, ends = 0;
    for (long n = 0;; n++) {
      crafter_cc_render_pixels(&state, &textures, pixels);
      nights += state.light_level < 0.5f;
      asleep += state.is_sleeping != 0;
      for (int k = 0; k < CRAFTER_CC_PIXELS_SIZE; k++) {
        uint32_t bits = bits_of(pixels[k]);
        for (int b = 0; b < 4; b++) bytes[4 * k + b] = (unsigned char)(bits >> (8 * b));
      }
      if (first < 0 && (uint32_t)crc32(0L, bytes, (uInt)sizeof bytes) != crcs[n]) first = n;
      if (n == steps) break;
      float reward;
      int done;
      if (crafter_cc_env_step(&state, crafter_cc_schedule_next(&key), actions[n], &reward, &done) != 0)
        return 2;
      ends += done != 0;
    }
    if (first < 0)
      ok(1, "seed %lld: the %ld pixel observations of its episode are JAX's (%ld at night, %ld "
            "asleep, %ld episode ends)", seed, steps + 1, nights, asleep, ends);
    else
      ok(0, "seed %lld: pixel observation %ld is not JAX's (CRC %08" PRIx32 ")", seed, first,
         crcs[first]);
    seeds++;
    free(crcs);
    free(actions);
  }
  gzclose(file);
  ok(seeds > 0, "%s holds %d seeds' episodes", path, seeds);
  return tap_done();
}

#define MAX_SEEDS 100000

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--obs") == 0) return obs_of_seeds(argc - 2, argv + 2);
  if (argc == 2 && strcmp(argv[1], "--render") == 0) return render_dumps();
  if (argc == 4 && strcmp(argv[1], "--pixel-golden") == 0) return pixel_golden(argv[2], argv[3]);
  if (argc == 6 && strcmp(argv[1], "--picture") == 0)
    return picture_of_step(argv[2], atol(argv[3]), argv[4], argv[5]);
  if (argc >= 4 && strcmp(argv[1], "--actions") == 0)
    return actions_of_episodes(atol(argv[2]), argc - 3, argv + 3);
  if (argc >= 4 && strcmp(argv[1], "--pixel-steps") == 0)
    return pixels_of_episodes(argv[2], atol(argv[3]), argc - 4, argv + 4);
  if (argc >= 3 && strcmp(argv[1], "--pixels") == 0)
    return pixels_of_seeds(argv[2], argc - 3, argv + 3);
  if (argc != 2) {
    fprintf(stderr,
            "usage: test-cc-render FILE.gz | --obs SEED... | --pixels DIR SEED... |\n"
            "       --pixel-steps DIR|builtin STEPS SEED... | --actions STEPS SEED... |\n"
            "       --picture DIR|builtin STEP SEED OUT.png |\n"
            "       --pixel-golden DIR FILE.gz | --render\n");
    return 2;
  }
  static int64_t seeds[MAX_SEEDS];
  static uint32_t crcs[MAX_SEEDS];
  long n = read_seed_hashes(argv[1], seeds, crcs, MAX_SEEDS);
  if (n < 0) return 2;
  ok(n >= 2000, "the file holds %ld seeds' observation CRCs", n);

  static const struct {
    enum crafter_cc_render_way way;
    const char *what;
  } ways[] = {{CRAFTER_CC_RENDER_AS_CRAFTAX, "as Craftax draws it"},
              {CRAFTER_CC_RENDER_FLOAT32_TENTHS, "with tenths as float32 quotients"},
              {CRAFTER_CC_RENDER_TRANSPOSED, "with the map read [column][row]"}};
  long differ[sizeof ways / sizeof ways[0]] = {0};
  int64_t first_wrong = 0;
  static crafter_cc_state state;
  float obs[CRAFTER_SYMBOLIC_SIZE];
  for (long k = 0; k < n; k++) {
    world(seeds[k], &state);
    for (size_t m = 0; m < sizeof ways / sizeof ways[0]; m++) {
      crafter_cc_render_symbolic_way(&state, ways[m].way, obs);
      if (obs_crc(obs) != crcs[k] && differ[m]++ == 0 && m == 0) first_wrong = seeds[k];
    }
  }
  ok(differ[0] == 0, "%ld of %ld observations are JAX's bit for bit (first wrong seed: %s%" PRId64 ")",
     n - differ[0], n, differ[0] ? "" : "none, ", first_wrong);
  for (size_t m = 1; m < sizeof ways / sizeof ways[0]; m++)
    ok(differ[m] > 0, "drawn %s, %ld of the %ld observations differ", ways[m].what, differ[m], n);
  return tap_done();
}
