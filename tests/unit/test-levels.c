/* Level sets (levels.h): a reset onto level k is the game a fresh reset of
 * episode k makes, before and after play; a set survives its file; the
 * reader refuses every field out of range, each with a file whose
 * checksums are right; the pickers' orders; and a set checked against
 * envs of other parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "run/levels.h"
#include "tap.h"

enum { LEVELS = 5, SEED = 11 };

/* Whether two games are in the same state, every field the rules read. */
static int same_game(const crafter_game *a, const crafter_game *b, char *why, size_t size) {
  const crafter_world *x = &a->world, *y = &b->world;
  size_t cells = (size_t)x->width * (size_t)x->height;
  size_t chunks = (size_t)x->chunks_x * (size_t)x->chunks_y;
  const char *wrong = NULL;
  if (memcmp(x->materials, y->materials, cells)) wrong = "materials";
  else if (memcmp(x->object_at, y->object_at, cells * sizeof(uint32_t))) wrong = "object_at";
  else if (x->object_count != y->object_count) wrong = "object count";
  else if (x->chunk_touched != y->chunk_touched) wrong = "chunks touched";
  else if (memcmp(x->chunk_order, y->chunk_order, (size_t)x->chunk_touched * sizeof(int16_t)))
    wrong = "chunk order";
  else if (memcmp(x->chunk_seen, y->chunk_seen, chunks)) wrong = "chunks seen";
  else if (memcmp(x->chunk_materials, y->chunk_materials,
                  chunks * CRAFTER_MATERIAL_COUNT * sizeof(uint16_t)))
    wrong = "chunk counts";
  else if (memcmp(&a->rng, &b->rng, sizeof(a->rng))) wrong = "generator";
  else if (memcmp(&a->players[0], &b->players[0], sizeof(a->players[0])) ||
           a->player_count != b->player_count || a->present != b->present) wrong = "player";
  else if (a->step != b->step || a->daylight != b->daylight)
    wrong = "time"; /* not the action: every update sets it before use */
  for (int i = 0; !wrong && i < x->object_count; i++) {
    const crafter_object *p = &x->objects[i], *q = &y->objects[i];
    if (p->kind != q->kind || p->x != q->x || p->y != q->y || p->health != q->health ||
        p->counter != q->counter || p->facing_x != q->facing_x || p->facing_y != q->facing_y ||
        p->removed != q->removed)
      wrong = "an object";
  }
  snprintf(why, size, "%s", wrong ? wrong : "");
  return wrong == NULL;
}

static uint64_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 33;
}

static void test_resets(const crafter_level_set *set) {
  crafter_params params;
  crafter_params_default(&params);
  params.seed = SEED;
  crafter_env played, fresh;
  char error[200];
  if (crafter_env_init(&played, &params, error, sizeof(error)) < 0 ||
      crafter_env_init(&fresh, &params, error, sizeof(error)) < 0) {
    ok(0, "envs: %s", error);
    return;
  }
  uint64_t random = 5;
  /* Levels in an order that leaves the played env's world dirty between
   * them: every reset must undo the last episode. */
  int order[] = {2, 0, 4, 4, 1, 3, 0};
  int same_start = 1, same_play = 1;
  char why[64] = "";
  for (size_t n = 0; n < sizeof(order) / sizeof(order[0]); n++) {
    int k = order[n];
    crafter_levels_start(&played, set, k);
    crafter_env_set_next_episode(&fresh, set->first + k);
    crafter_env_reset(&fresh);
    if (!same_game(&played.game, &fresh.game, why, sizeof(why)) ||
        played.episode != fresh.episode || played.world_seed != fresh.world_seed) {
      same_start = 0;
      break;
    }
    crafter_step_result a, b;
    for (int t = 0; t < 400; t++) {
      int action = (int)(next_random(&random) % CRAFTER_ACTION_COUNT);
      crafter_env_step(&played, action, &a);
      crafter_env_step(&fresh, action, &b);
      if (a.reward != b.reward || a.done != b.done || a.unlocked != b.unlocked ||
          !same_game(&played.game, &fresh.game, why, sizeof(why))) {
        same_play = 0;
        break;
      }
      if (a.done) break;
    }
    if (!same_play) break;
  }
  ok(same_start, "a reset onto a level is the fresh reset of its episode, after play too %s", why);
  ok(same_play, "and 400 steps on it play alike %s", why);
  crafter_env_fini(&played);
  crafter_env_fini(&fresh);
}

static int same_levels(const crafter_level_set *a, const crafter_level_set *b) {
  if (a->count != b->count || a->seed != b->seed || a->first != b->first ||
      a->config_crc != b->config_crc || memcmp(a->area, b->area, sizeof(a->area)) ||
      memcmp(a->view, b->view, sizeof(a->view)))
    return 0;
  size_t cells = (size_t)a->area[0] * (size_t)a->area[1];
  for (int i = 0; i < a->count; i++) {
    const crafter_level *x = &a->levels[i], *y = &b->levels[i];
    if (x->episode != y->episode || x->world_seed != y->world_seed ||
        memcmp(x->materials, y->materials, cells) || x->object_count != y->object_count ||
        memcmp(&x->rng, &y->rng, sizeof(x->rng)) || memcmp(&x->player, &y->player, sizeof(x->player)) ||
        x->chunk_touched != y->chunk_touched || x->daylight != y->daylight)
      return 0;
    for (int j = 0; j < x->object_count; j++)
      if (x->objects[j].kind != y->objects[j].kind || x->objects[j].x != y->objects[j].x ||
          x->objects[j].y != y->objects[j].y || x->objects[j].health != y->objects[j].health)
        return 0;
  }
  return 1;
}

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t *bytes = malloc((size_t)length);
  if (bytes && fread(bytes, 1, (size_t)length, file) != (size_t)length) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *size = (size_t)length;
  return bytes;
}

/* The file of `bytes` with its payload changed by `edit` at byte `at` of
 * the first level, compressed and checksummed again as a writer would. */
typedef void (*edit_fn)(uint8_t *payload, size_t *raw);

static int parse_edited(const uint8_t *bytes, size_t size, edit_fn edit, char *error,
                        size_t error_size) {
  uint64_t raw = crafter_get_u64(bytes + 72);
  uint8_t *payload = malloc((size_t)raw + 64);
  uLongf unpacked = (uLongf)raw;
  uncompress(payload, &unpacked, bytes + 128, (uLong)(size - 128));
  size_t raw_size = (size_t)raw;
  edit(payload, &raw_size);
  uLongf packed = compressBound((uLong)raw_size);
  uint8_t *file = malloc(128 + packed);
  memcpy(file, bytes, 128);
  compress2(file + 128, &packed, payload, (uLong)raw_size, 6);
  crafter_put_u64(file + 64, packed);
  crafter_put_u64(file + 72, raw_size);
  crafter_put_u32(file + 80, crafter_crc32(payload, raw_size));
  crafter_put_u32(file + 124, crafter_crc32(file, 124));
  crafter_level_set set;
  int status = crafter_levels_parse(&set, file, 128 + packed, "edited", error, error_size);
  if (status == 0) crafter_levels_free(&set);
  free(payload);
  free(file);
  return status;
}

/* Offsets in a level of a 64x64 area (crafter-levels(5)). */
enum {
  AT_EPISODE = 0, AT_WORLD_SEED = 8, AT_DAYLIGHT = 16, AT_ACTION = 24, AT_POSITION = 28,
  AT_INVENTORY = 2528, AT_FACING = 2680, AT_SLEEPING = 2688, AT_HUNGER = 2696,
  AT_TOUCHED = 2728, AT_ORDER = 2732, AT_OBJECTS = 2804, AT_OBJECT = 2808
};

static void edit_episode(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u64(p + AT_EPISODE, 7); }
static void edit_world_seed(uint8_t *p, size_t *raw) { (void)raw; p[AT_WORLD_SEED] ^= 1; }
static void edit_daylight(uint8_t *p, size_t *raw) { (void)raw; crafter_put_f64(p + AT_DAYLIGHT, 2.0); }
static void edit_action(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_ACTION, 17); }
static void edit_position(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_POSITION, 625); }
static void edit_inventory(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_INVENTORY, 0xffffffffu); }
static void edit_facing(uint8_t *p, size_t *raw) {
  (void)raw;
  crafter_put_u32(p + AT_FACING, 0);
  crafter_put_u32(p + AT_FACING + 4, 0);
}
static void edit_sleeping(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_SLEEPING, 2); }
static void edit_hunger(uint8_t *p, size_t *raw) { (void)raw; crafter_put_f64(p + AT_HUNGER, NAN); }
static void edit_touched(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_TOUCHED, 37); }
static void edit_order(uint8_t *p, size_t *raw) {
  (void)raw;
  crafter_put_u16(p + AT_ORDER + 2, crafter_get_u16(p + AT_ORDER));
}
static void edit_objects(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_OBJECTS, 0); }
static void edit_player(uint8_t *p, size_t *raw) { (void)raw; p[AT_OBJECT] = CRAFTER_COW; }
static void edit_outside(uint8_t *p, size_t *raw) { (void)raw; crafter_put_u32(p + AT_OBJECT + 20 + 4, 64); }
static void edit_shared(uint8_t *p, size_t *raw) {
  (void)raw;
  memcpy(p + AT_OBJECT + 20 + 4, p + AT_OBJECT + 40 + 4, 8);
}
static void edit_material(uint8_t *p, size_t *raw) {
  size_t objects = crafter_get_u32(p + AT_OBJECTS);
  (void)raw;
  p[AT_OBJECT + 20 * objects + 100] = CRAFTER_NONE;
}
static void edit_extra(uint8_t *p, size_t *raw) { p[*raw] = 0, *raw += 1; }

static void test_file(const crafter_level_set *set, const char *path) {
  char error[300];
  ok(crafter_levels_save(set, path, error, sizeof(error)) == 0, "saved: %s", error);
  crafter_level_set loaded;
  int status = crafter_levels_load(&loaded, path, error, sizeof(error));
  ok(status == 0 && same_levels(set, &loaded), "a saved set loads back the same %s",
     status ? error : "");
  if (status == 0) crafter_levels_free(&loaded);
  size_t size;
  uint8_t *bytes = read_all(path, &size);
  if (!bytes) {
    ok(0, "read the file back");
    return;
  }
  static const struct {
    edit_fn edit;
    const char *expect;
  } cases[] = {
      {edit_episode, "not the set's next"},
      {edit_world_seed, "world seed"},
      {edit_daylight, "daylight"},
      {edit_action, "action"},
      {edit_position, "position"},
      {edit_inventory, "count out of range"},
      {edit_facing, "faces no direction"},
      {edit_sleeping, "sleeping"},
      {edit_hunger, "hidden counter"},
      {edit_touched, "more chunks"},
      {edit_order, "chunk twice"},
      {edit_objects, "object count"},
      {edit_player, "player"},
      {edit_outside, "outside the area"},
      {edit_shared, "share a cell"},
      {edit_material, "no material"},
      {edit_extra, "bytes are left"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    error[0] = '\0';
    int refused = parse_edited(bytes, size, cases[i].edit, error, sizeof(error)) < 0;
    int last = i == sizeof(cases) / sizeof(cases[0]) - 1; /* the extra byte is no level's */
    ok(refused && strstr(error, cases[i].expect) && (last || strstr(error, "level 1")),
       "refused with checksums right: %s", error);
  }
  /* Damage the checksums catch, and a header out of range. */
  uint8_t *copy = malloc(size);
  memcpy(copy, bytes, size);
  copy[size - 10] ^= 0x55;
  status = crafter_levels_parse(&loaded, copy, size, "flipped", error, sizeof(error));
  ok(status < 0 && (strstr(error, "checksum") || strstr(error, "decompress")),
     "a flipped byte of the levels: %s", error);
  memcpy(copy, bytes, size);
  status = crafter_levels_parse(&loaded, copy, size - 1, "cut", error, sizeof(error));
  ok(status < 0 && strstr(error, "cut short"), "a cut file: %s", error);
  memcpy(copy, bytes, size);
  copy[20] ^= 1;
  status = crafter_levels_parse(&loaded, copy, size, "header", error, sizeof(error));
  ok(status < 0 && strstr(error, "header's checksum"), "a flipped header byte: %s", error);
  crafter_put_u32(copy + 16, 0);
  crafter_put_u32(copy + 20, bytes[20]);
  crafter_put_u32(copy + 124, crafter_crc32(copy, 124));
  status = crafter_levels_parse(&loaded, copy, size, "count", error, sizeof(error));
  ok(status < 0 && strstr(error, "level count"), "no levels: %s", error);
  memcpy(copy, bytes, size);
  copy[100] = 1;
  crafter_put_u32(copy + 124, crafter_crc32(copy, 124));
  status = crafter_levels_parse(&loaded, copy, size, "reserved", error, sizeof(error));
  ok(status < 0 && strstr(error, "reserved"), "a reserved byte set: %s", error);
  memcpy(copy, bytes, size);
  crafter_put_u32(copy + 8, 2);
  crafter_put_u32(copy + 124, crafter_crc32(copy, 124));
  status = crafter_levels_parse(&loaded, copy, size, "version", error, sizeof(error));
  ok(status < 0 && strstr(error, "version 2"), "a later version: %s", error);
  free(copy);
  free(bytes);
}

static void test_pickers(const crafter_level_set *set) {
  crafter_level_set four = *set;
  four.count = 4;
  crafter_level_picker first, second;
  crafter_level_picker_init(&first, &four, CRAFTER_LEVEL_ORDER_SEQUENTIAL, 0, 3);
  crafter_level_picker_init(&second, &four, CRAFTER_LEVEL_ORDER_SEQUENTIAL, 1, 3);
  int a[5], b[5];
  for (int i = 0; i < 5; i++) a[i] = crafter_level_pick(&first), b[i] = crafter_level_pick(&second);
  ok(a[0] == 0 && a[1] == 3 && a[2] == 2 && a[3] == 1 && a[4] == 0 && b[0] == 1 && b[1] == 0 &&
         b[2] == 3 && b[3] == 2,
     "sequential: env i of 3 plays levels i, i+3, i+6, ... of 4 (%d %d %d %d, %d %d %d %d)",
     a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
  enum { DRAWS = 50000 };
  crafter_level_set seven = *set;
  seven.count = 7;
  crafter_level_picker_init(&first, &seven, CRAFTER_LEVEL_ORDER_RANDOM, 0, 2);
  crafter_level_picker_init(&second, &seven, CRAFTER_LEVEL_ORDER_RANDOM, 1, 2);
  long counts[7] = {0};
  int differ = 0;
  for (int i = 0; i < DRAWS; i++) {
    int k = crafter_level_pick(&first);
    counts[k]++;
    differ += k != crafter_level_pick(&second);
  }
  /* Binomial(50000, 1/7): a deviation of 6 sigma (about 470) is beyond
   * any fair generator. */
  double expected = DRAWS / 7.0, sigma = sqrt(DRAWS * (1 / 7.0) * (6 / 7.0));
  int fair = 1;
  for (int k = 0; k < 7; k++) fair &= fabs(counts[k] - expected) < 6 * sigma;
  ok(fair, "random: each of 7 levels drawn 1/7 of the time (%ld %ld %ld %ld %ld %ld %ld)",
     counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6]);
  ok(differ > DRAWS / 2, "two envs draw different levels (%d of %d differ)", differ, DRAWS);
}

static void test_check(const crafter_level_set *set) {
  crafter_params params;
  crafter_params_default(&params);
  char error[300];
  ok(crafter_levels_check(set, &params, NULL, error, sizeof(error)) == 0,
     "the set fits envs of its parameters");
  params.area[0] = 32;
  ok(crafter_levels_check(set, &params, NULL, error, sizeof(error)) < 0 && strstr(error, "area"),
     "another area: %s", error);
  crafter_params_default(&params);
  params.view[1] = 7;
  ok(crafter_levels_check(set, &params, NULL, error, sizeof(error)) < 0 && strstr(error, "view"),
     "another view: %s", error);
  crafter_params_default(&params);
  crafter_config config;
  crafter_config_default(&config);
  ok(crafter_levels_check(set, &params, &config, error, sizeof(error)) == 0,
     "a copy of Crafter's configuration is Crafter's");
  config.zombie.health += 1;
  ok(crafter_levels_check(set, &params, &config, error, sizeof(error)) < 0 &&
         strstr(error, "configuration"),
     "another configuration: %s", error);
  ok(crafter_levels_find(set, set->first + 2) == 2 && crafter_levels_find(set, set->first - 1) < 0 &&
         crafter_levels_find(set, set->first + set->count) < 0,
     "levels are found by their episodes");
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "test-levels.lvl";
  crafter_params params;
  crafter_params_default(&params);
  params.seed = SEED;
  crafter_level_set set, threaded;
  char error[300];
  if (crafter_levels_generate(&set, &params, NULL, 3, LEVELS, 1, error, sizeof(error)) < 0 ||
      crafter_levels_generate(&threaded, &params, NULL, 3, LEVELS, 3, error, sizeof(error)) < 0) {
    ok(0, "generate: %s", error);
    return tap_done();
  }
  ok(set.count == LEVELS && set.levels[0].episode == 3 && set.levels[LEVELS - 1].episode == 7,
     "levels 3..7 of the seed");
  ok(same_levels(&set, &threaded), "generating on three threads makes the same set");
  test_resets(&set);
  test_file(&set, path);
  test_pickers(&set);
  test_check(&set);
  crafter_levels_free(&threaded);
  ok(crafter_levels_generate(&threaded, &params, NULL, 0, 2, 1, error, sizeof(error)) < 0,
     "episode 0 is no level: %s", error);
  crafter_levels_free(&set);
  remove(path);
  return tap_done();
}
