#include "run/state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/errors.h"
#include "game/games.h"
#include "run/levels.h"
#include "run/proto.h"

/* Counts and counters a state may hold: far beyond what a game reaches,
 * and far enough from INT32_MAX that no step can overflow them. */
#define STATE_COUNT_LIMIT (1 << 30)
/* Bytes of an object, and of a player (the env's last health and
 * unlocked achievements, then the player's own fields). */
#define OBJECT_BYTES 20
#define PLAYER_BYTES (8 + 4 * (CRAFTER_ITEM_COUNT + CRAFTER_ACHIEVEMENT_COUNT + 5) + 8 * 4)
#define TRAILER_BYTES 4

/* ---- writing ---- */

/* Writes the fields of a state in order; with `out` NULL only counts. */
typedef struct writer {
  uint8_t *out;
  size_t at;
} writer;

static void put_bytes(writer *w, const void *data, size_t size) {
  if (w->out && size) memcpy(w->out + w->at, data, size);
  w->at += size;
}
static void put_u8(writer *w, uint8_t value) { put_bytes(w, &value, 1); }
static void put_u16(writer *w, uint16_t value) {
  if (w->out) crafter_put_u16(w->out + w->at, value);
  w->at += 2;
}
static void put_u32(writer *w, uint32_t value) {
  if (w->out) crafter_put_u32(w->out + w->at, value);
  w->at += 4;
}
static void put_i32(writer *w, int32_t value) { put_u32(w, (uint32_t)value); }
static void put_u64(writer *w, uint64_t value) {
  if (w->out) crafter_put_u64(w->out + w->at, value);
  w->at += 8;
}
static void put_i64(writer *w, int64_t value) { put_u64(w, (uint64_t)value); }
static void put_f64(writer *w, double value) {
  if (w->out) crafter_put_f64(w->out + w->at, value);
  w->at += 8;
}

/* ---- what must match: the parameters, and a runner's rules ---- */

static uint32_t crc_u64(uint32_t crc, uint64_t value) {
  uint8_t bytes[8];
  crafter_put_u64(bytes, value);
  return crafter_crc32_update(crc, bytes, sizeof(bytes));
}

static uint32_t crc_text(uint32_t crc, const char *text) {
  crc = crc_u64(crc, strlen(text));
  return crafter_crc32_update(crc, text, strlen(text));
}

/* The goals episodes draw from: the task file's bytes and the pool's
 * candidates (or, for tasks made without a file, their ids and words). */
static uint32_t goals_print(const crafter_task_pool *pool) {
  const crafter_task_set *set = pool->set;
  uint32_t crc = crc_u64(0, (uint64_t)pool->count);
  if (set->source) crc = crafter_crc32_update(crc, set->source, set->source_bytes);
  for (int c = 0; c < pool->count; c++) {
    const crafter_task *task = &set->tasks[pool->tasks[c]];
    crc = crc_u64(crc, (uint64_t)pool->tasks[c]);
    if (set->source) continue;
    crc = crc_text(crc, task->id);
    for (int k = 0; k < task->text_count; k++) crc = crc_text(crc, task->text[k]);
  }
  return crc;
}

static uint32_t levels_print(const crafter_level_set *set, int order) {
  const int64_t fields[] = {set->seed, set->first,   set->count,   set->area[0],    set->area[1],
                            set->view[0], set->view[1], set->chunk[0], set->chunk[1],
                            set->config_crc, order};
  uint32_t crc = 0;
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
    crc = crc_u64(crc, (uint64_t)fields[i]);
  return crc;
}

static uint32_t world_print(const crafter_world_map *map) {
  uint32_t crc = crc_u64(crc_u64(0, (uint64_t)map->width), (uint64_t)map->height);
  crc = crafter_crc32_update(crc, map->materials, (size_t)map->width * (size_t)map->height);
  for (int i = 0; i < map->object_count; i++) {
    const crafter_object *object = &map->objects[i];
    const int64_t fields[] = {object->kind, object->facing_x, object->facing_y, object->x,
                              object->y,    object->health,   object->counter};
    for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
      crc = crc_u64(crc, (uint64_t)fields[k]);
  }
  return crc;
}

static crafter_rules_print work_out_print(const crafter_env *env, const crafter_episode *e) {
  crafter_rules_print print = {1, 0, crafter_config_crc(env->config), 0, 0, 0};
  const crafter_episode_options *options = e ? crafter_episode_options_of(e) : NULL;
  if (options && options->tasks) {
    print.flags |= CRAFTER_STATE_GOALS;
    print.goals = goals_print(options->tasks);
  }
  if (options && options->levels) {
    print.flags |= CRAFTER_STATE_LEVELS;
    print.levels = levels_print(options->levels, options->level_order);
  }
  if (options && options->world) {
    print.flags |= CRAFTER_STATE_WORLD;
    print.world = world_print(options->world);
  }
  return print;
}

/* The checksums of the rules: a runner's, worked out once and kept. */
static crafter_rules_print fingerprint_of(const crafter_env *env, crafter_episode *e) {
  if (!e) return work_out_print(env, NULL);
  crafter_rules_print *kept = crafter_episode_rules_print(e);
  if (!kept->ready) *kept = work_out_print(env, e);
  return *kept;
}

/* The bytes of one player's pixel observation, 0 without pixels. */
static size_t pixel_bytes(const crafter_env *env, const crafter_episode *e) {
  if (!e || crafter_episode_options_of(e)->obs_kind != CRAFTER_OBS_PIXELS) return 0;
  return (size_t)env->params.size[0] * (size_t)env->params.size[1] * 3;
}

/* ---- the state, written ---- */

static void write_header(writer *w, const crafter_env *env, uint32_t flags,
                         const crafter_rules_print *print, size_t pixels, size_t total) {
  const crafter_params *params = &env->params;
  put_bytes(w, CRAFTER_STATE_MAGIC, 8);
  put_u32(w, CRAFTER_STATE_VERSION);
  put_u32(w, flags);
  put_u64(w, (uint64_t)total);
  for (int axis = 0; axis < 2; axis++) put_u32(w, (uint32_t)params->area[axis]);
  for (int axis = 0; axis < 2; axis++) put_u32(w, (uint32_t)params->view[axis]);
  for (int axis = 0; axis < 2; axis++) put_u32(w, (uint32_t)params->size[axis]);
  put_u64(w, (uint64_t)params->length);
  put_u32(w, (uint32_t)(params->reward != 0));
  put_u32(w, (uint32_t)env->players);
  put_u32(w, print->config);
  put_u32(w, print->goals);
  put_u32(w, print->levels);
  put_u32(w, print->world);
  put_u32(w, (uint32_t)pixels);
  for (int i = 0; i < 3; i++) put_u32(w, 0);
}

static void write_env(writer *w, const crafter_env *env) {
  const crafter_game *game = &env->game;
  const crafter_world *world = &game->world;
  put_i64(w, env->params.seed);
  put_i64(w, env->episode);
  put_i64(w, env->world_seed);
  put_i64(w, (int64_t)game->step);
  put_f64(w, game->daylight);
  put_u32(w, (uint32_t)game->action);
  put_u32(w, (uint32_t)game->player_count);
  put_u32(w, game->present);
  put_u32(w, (uint32_t)game->rng.position);
  for (int i = 0; i < CRAFTER_MT_N; i++) put_u32(w, game->rng.state[i]);
  for (int p = 0; p < env->players; p++) {
    const crafter_player *player = crafter_game_player_const(game, p);
    put_i32(w, env->last_health[p]);
    put_u32(w, env->unlocked[p]);
    for (int k = 0; k < CRAFTER_ITEM_COUNT; k++) put_i32(w, player->inventory[k]);
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) put_i32(w, player->achievements[k]);
    put_i32(w, player->facing_x);
    put_i32(w, player->facing_y);
    put_i32(w, player->sleeping);
    put_i32(w, player->last_health);
    put_i32(w, player->kills);
    put_f64(w, player->hunger);
    put_f64(w, player->thirst);
    put_f64(w, player->fatigue);
    put_f64(w, player->recover);
  }
  put_bytes(w, world->materials, (size_t)world->width * (size_t)world->height);
  put_u32(w, (uint32_t)world->object_count);
  for (int slot = 0; slot < world->object_count; slot++) {
    const crafter_object *object = &world->objects[slot];
    put_u8(w, object->kind);
    put_u8(w, (uint8_t)object->facing_x);
    put_u8(w, (uint8_t)object->facing_y);
    put_u8(w, 0);
    put_i32(w, object->x);
    put_i32(w, object->y);
    put_i32(w, object->health);
    put_i32(w, object->counter);
  }
  put_u32(w, (uint32_t)world->chunk_touched);
  for (int i = 0; i < world->chunk_touched; i++) put_u16(w, (uint16_t)world->chunk_order[i]);
}

static void write_runner(writer *w, crafter_episode *e, uint32_t flags, size_t pixels) {
  crafter_episode_progress progress;
  crafter_episode_get_progress(e, &progress);
  const crafter_env *env = crafter_episode_env_const(e);
  put_u32(w, (uint32_t)progress.started);
  put_u32(w, (uint32_t)progress.ended);
  put_u32(w, (uint32_t)progress.steps);
  put_u32(w, progress.done);
  put_i32(w, progress.next_level);
  if (flags & CRAFTER_STATE_LEVELS) {
    put_u64(w, progress.picker.state);
    put_i64(w, progress.picker.next);
    put_u32(w, (uint32_t)progress.picker.stride);
  }
  for (int p = 0; (flags & CRAFTER_STATE_GOALS) && p < env->players; p++) {
    const crafter_task_tracker *tracker = crafter_episode_player_tracker(e, p);
    put_u32(w, (uint32_t)progress.candidate[p]);
    put_u32(w, (uint32_t)progress.text[p]);
    for (int k = 0; k < CRAFTER_ITEM_COUNT; k++) put_i32(w, tracker->before[k]);
    put_u32(w, (uint32_t)tracker->met);
    put_i64(w, (int64_t)tracker->met_step);
    size_t cells = tracker->placed ? (size_t)tracker->width * (size_t)tracker->height : 0;
    uint32_t marks = 0;
    for (size_t cell = 0; cell < cells; cell++) marks += tracker->placed[cell] != 0;
    put_u32(w, marks);
    for (size_t cell = 0; cell < cells; cell++)
      if (tracker->placed[cell]) {
        put_u32(w, (uint32_t)cell);
        put_u8(w, tracker->placed[cell]);
      }
  }
  for (int p = 0; pixels && p < env->players; p++) {
    size_t bytes;
    put_bytes(w, crafter_episode_observe_player(e, p, &bytes), pixels);
  }
}

static size_t save(const crafter_env *env, crafter_episode *e, uint8_t *out, size_t capacity) {
  crafter_rules_print print = fingerprint_of(env, e);
  size_t pixels = pixel_bytes(env, e);
  uint32_t flags = print.flags | (e ? CRAFTER_STATE_RUNNER : 0) | (pixels ? CRAFTER_STATE_PIXELS : 0);
  /* Counted first, then written if it fits. */
  writer w = {NULL, 0};
  for (int pass = 0; pass < 2; pass++) {
    size_t total = w.at + TRAILER_BYTES;
    w.at = 0;
    write_header(&w, env, flags, &print, pixels, total);
    write_env(&w, env);
    if (e) write_runner(&w, e, flags, pixels);
    if (pass == 1) {
      put_u32(&w, crafter_crc32(out, w.at));
      return w.at;
    }
    if (w.at + TRAILER_BYTES > capacity) return w.at + TRAILER_BYTES;
    w.out = out;
  }
  return 0;
}

size_t crafter_state_save(const crafter_env *env, uint8_t *out, size_t capacity) {
  return save(env, NULL, out, capacity);
}

size_t crafter_state_save_episode(crafter_episode *e, uint8_t *out, size_t capacity) {
  return save(crafter_episode_env_const(e), e, out, capacity);
}

/* ---- reading ---- */

/* Reads fields in order; past the end it reads zeros and says so. */
typedef struct reader {
  const uint8_t *at, *end;
  int short_read;
} reader;

static const uint8_t *take(reader *r, size_t size) {
  static const uint8_t zeros[8];
  if ((size_t)(r->end - r->at) < size) {
    r->short_read = 1;
    r->at = r->end;
    return size <= sizeof(zeros) ? zeros : NULL;
  }
  const uint8_t *here = r->at;
  r->at += size;
  return here;
}
static uint8_t get_u8(reader *r) { return *take(r, 1); }
static uint16_t get_u16(reader *r) { return crafter_get_u16(take(r, 2)); }
static uint32_t get_u32(reader *r) { return crafter_get_u32(take(r, 4)); }
static int32_t get_i32(reader *r) { return (int32_t)get_u32(r); }
static uint64_t get_u64(reader *r) { return crafter_get_u64(take(r, 8)); }
static int64_t get_i64(reader *r) { return (int64_t)get_u64(r); }
static double get_f64(reader *r) { return crafter_get_f64(take(r, 8)); }

/* Where a count says more fields follow than the state holds. */
static const char *cut_short(reader *r) {
  r->short_read = 1;
  r->at = r->end;
  return NULL;
}

static int count_ok(int64_t value) { return value >= 0 && value <= STATE_COUNT_LIMIT; }
static int signed_ok(int64_t value) {
  return value >= -STATE_COUNT_LIMIT && value <= STATE_COUNT_LIMIT;
}
static int counter_ok(double value) { return fabs(value) <= STATE_COUNT_LIMIT; }
static int facing_ok(int x, int y) {
  return x >= -1 && x <= 1 && y >= -1 && y <= 1 && (x == 0) != (y == 0);
}

static const char *player_wrong(const crafter_player *player, int32_t last_health,
                                uint32_t unlocked, int counts_ok) {
  if (!counts_ok || !signed_ok(last_health) || !signed_ok(player->last_health) ||
      !count_ok(player->kills))
    return "a player holds a count out of range";
  if (unlocked >> CRAFTER_ACHIEVEMENT_COUNT) return "a player unlocked achievements that do not exist";
  if (!facing_ok(player->facing_x, player->facing_y)) return "a player faces no direction";
  if (player->sleeping != 0 && player->sleeping != 1)
    return "a player's sleeping flag is neither 0 nor 1";
  if (!counter_ok(player->hunger) || !counter_ok(player->thirst) || !counter_ok(player->fatigue) ||
      !counter_ok(player->recover))
    return "a hidden counter of a player is out of range";
  return NULL;
}

/* What the header says, read and checked against the loader. */
typedef struct header {
  uint32_t flags;
  size_t pixels;
} header;

/* Checks the frame of the state (magic, version, length, checksum), then
 * that it was saved by an env of the loader's parameters and rules. */
static int read_header(const uint8_t *state, size_t size, const crafter_env *env,
                       crafter_episode *e, header *h, char *error, size_t error_size) {
  if (size < 8 || memcmp(state, CRAFTER_STATE_MAGIC, 8) != 0)
    return crafter_fail(error, error_size, "not a saved state (it does not begin with %s)",
                        CRAFTER_STATE_MAGIC);
  if (size < CRAFTER_STATE_HEADER_BYTES + TRAILER_BYTES)
    return crafter_fail(error, error_size, "a saved state cut short: %zu bytes", size);
  uint32_t version = crafter_get_u32(state + 8);
  int game = crafter_state_game(state, size);
  if (game > CRAFTER_GAME_CRAFTER)
    return crafter_fail(error, error_size, "a state of %s (format version %u), not of crafter",
                        crafter_game_info_of(game)->name, version);
  if (version != CRAFTER_STATE_VERSION)
    return crafter_fail(error, error_size,
                        "a state of format version %u; this toolkit reads version %d "
                        "(crafter-state(5))",
                        version, CRAFTER_STATE_VERSION);
  uint64_t length = crafter_get_u64(state + 16);
  if (length != size)
    return crafter_fail(error, error_size, "a saved state of %zu bytes that says it has %llu",
                        size, (unsigned long long)length);
  if (crafter_crc32(state, size - TRAILER_BYTES) != crafter_get_u32(state + size - TRAILER_BYTES))
    return crafter_fail(error, error_size, "the saved state is damaged: its checksum does not match");
  reader r = {state + 12, state + CRAFTER_STATE_HEADER_BYTES, 0};
  h->flags = get_u32(&r);
  (void)get_u64(&r);
  const crafter_params *params = &env->params;
  uint32_t area[2], view[2], pixels[2];
  for (int axis = 0; axis < 2; axis++) area[axis] = get_u32(&r);
  for (int axis = 0; axis < 2; axis++) view[axis] = get_u32(&r);
  for (int axis = 0; axis < 2; axis++) pixels[axis] = get_u32(&r);
  uint64_t steps = get_u64(&r);
  uint32_t reward = get_u32(&r), players = get_u32(&r), config = get_u32(&r);
  uint32_t goals = get_u32(&r), levels = get_u32(&r), world = get_u32(&r);
  uint32_t pixel_size = get_u32(&r);
  const char *whose = "this env's";
  if (h->flags & ~31u)
    return crafter_fail(error, error_size, "a saved state with flags %#x this toolkit does not know",
                        h->flags & ~31u);
  for (size_t at = 84; at < CRAFTER_STATE_HEADER_BYTES; at++)
    if (state[at])
      return crafter_fail(error, error_size,
                          "a saved state whose reserved header byte at offset %zu holds %#04x "
                          "(bytes 84 to %d are zero)",
                          at, state[at], CRAFTER_STATE_HEADER_BYTES - 1);
  if (reward > 1)
    return crafter_fail(error, error_size,
                        "a saved state whose reward field holds %u, neither 0 (off) nor 1 (on)",
                        reward);
  if (area[0] != (uint32_t)params->area[0] || area[1] != (uint32_t)params->area[1])
    return crafter_fail(error, error_size, "the state was saved by an env of area %ux%u; %s is %dx%d", area[0],
                        area[1], whose, params->area[0], params->area[1]);
  if (view[0] != (uint32_t)params->view[0] || view[1] != (uint32_t)params->view[1])
    return crafter_fail(error, error_size, "the state was saved by an env of view %ux%u; %s is %dx%d", view[0],
                        view[1], whose, params->view[0], params->view[1]);
  if (pixels[0] != (uint32_t)params->size[0] || pixels[1] != (uint32_t)params->size[1])
    return crafter_fail(error, error_size, "the state was saved by an env of size %ux%u; %s is %dx%d",
                        pixels[0], pixels[1], whose, params->size[0], params->size[1]);
  if (steps != (uint64_t)params->length)
    return crafter_fail(error, error_size, "the state was saved by an env of length %llu; %s is %ld",
                        (unsigned long long)steps, whose, params->length);
  if (reward != (uint32_t)(params->reward != 0))
    return crafter_fail(error, error_size, "the state was saved by an env with reward %s; this env has it %s",
                        reward ? "on" : "off", params->reward ? "on" : "off");
  if (players != (uint32_t)env->players)
    return crafter_fail(error, error_size, "the state was saved by an env of %u player%s; this env has %d", players,
                        players == 1 ? "" : "s", env->players);
  crafter_rules_print print = fingerprint_of(env, e);
  if (config != print.config)
    return crafter_fail(error, error_size,
                        "the state was saved by an env that plays by other rules (another configuration)");
  if ((h->flags & CRAFTER_STATE_RUNNER) != (e ? CRAFTER_STATE_RUNNER : 0))
    return crafter_fail(error, error_size,
                        e ? "the state was saved by a plain env; this is an episode runner"
                          : "the state was saved by an episode runner; this is a plain env");
  static const struct {
    uint32_t flag;
    const char *what;
  } rules[] = {{CRAFTER_STATE_GOALS, "goals (--tasks)"},
               {CRAFTER_STATE_LEVELS, "a level set (--levels)"},
               {CRAFTER_STATE_WORLD, "a world file (--world)"}};
  const uint32_t said[] = {goals, levels, world}, have[] = {print.goals, print.levels, print.world};
  for (int k = 0; k < 3; k++) {
    int saved = (h->flags & rules[k].flag) != 0, here = (print.flags & rules[k].flag) != 0;
    if (saved != here)
      return crafter_fail(error, error_size, "the state was saved %s %s, which this env plays %s",
                          saved ? "with" : "without", rules[k].what, here ? "with" : "without");
    if (saved && said[k] != have[k])
      return crafter_fail(error, error_size, "the state was saved with %s other than this env's",
                          rules[k].what);
    if (!saved && said[k] != 0)
      return crafter_fail(error, error_size,
                          "a saved state with a checksum of %s it says it has none of",
                          rules[k].what);
  }
  if (!(h->flags & CRAFTER_STATE_RUNNER) && (h->flags & CRAFTER_STATE_PIXELS))
    return crafter_fail(error, error_size, "a plain env's state that says it holds pixels");
  h->pixels = h->flags & CRAFTER_STATE_PIXELS ? pixel_size : 0;
  if (pixel_size != ((h->flags & CRAFTER_STATE_PIXELS) ? (size_t)pixels[0] * pixels[1] * 3 : 0))
    return crafter_fail(error, error_size, "a state whose pictures are of %u bytes, not %ux%ux3",
                        pixel_size, pixels[0], pixels[1]);
  return 0;
}

/* Reads (and with `apply` stores) the env's part.  Checking comes first,
 * with apply 0, so that nothing is stored from a state that is refused;
 * `occupied` is scratch of a bit per cell, all clear. */
static const char *read_env(reader *r, crafter_env *env, int apply, uint8_t *occupied,
                            uint32_t *object_count) {
  crafter_game *game = &env->game;
  crafter_world *world = &game->world;
  int64_t seed = get_i64(r), episode = get_i64(r), world_seed = get_i64(r);
  int64_t step = get_i64(r);
  double daylight = get_f64(r);
  uint32_t action = get_u32(r), player_count = get_u32(r), present = get_u32(r);
  uint32_t position = get_u32(r);
  if (seed < CRAFTER_SEED_MIN - ((int64_t)1 << 40) || seed > CRAFTER_SEED_MAX + ((int64_t)1 << 40))
    return "its Env seed is out of range";
  if (episode < 0 || episode > ((int64_t)1 << 53)) return "its episode counter is out of range";
  if (world_seed < 0 || world_seed >= INT32_MAX) return "its world seed is out of range";
  if (step < 0 || step > ((int64_t)1 << 53)) return "its step is out of range";
  if (!(daylight >= 0 && daylight <= 1)) return "its daylight is not in [0, 1]";
  if (action >= CRAFTER_ACTION_COUNT) return "its last action is out of range";
  if (player_count < 1 || player_count > (uint32_t)env->players)
    return "its count of players in the game is out of range";
  uint32_t all = (uint32_t)((1ull << player_count) - 1);
  if (present == 0 || (present & ~all) || (player_count == 1 && present != 1))
    return "it names players in the world that the game does not have";
  if (position > CRAFTER_MT_N) return "its generator's position is out of range";
  const uint8_t *words = take(r, 4 * CRAFTER_MT_N);
  if (apply) {
    env->params.seed = seed;
    env->episode = episode;
    env->world_seed = world_seed;
    game->step = (long)step;
    game->daylight = daylight;
    game->action = (int)action;
    game->player_count = (int)player_count;
    game->present = present;
    game->rng.position = (int)position;
    for (int i = 0; i < CRAFTER_MT_N; i++) game->rng.state[i] = crafter_get_u32(words + 4 * i);
  }
  for (int p = 0; p < env->players; p++) {
    crafter_player player;
    int32_t last_health = get_i32(r);
    uint32_t unlocked = get_u32(r);
    int counts_ok = 1;
    for (int k = 0; k < CRAFTER_ITEM_COUNT; k++) {
      player.inventory[k] = get_i32(r);
      counts_ok &= count_ok(player.inventory[k]);
    }
    for (int k = 0; k < CRAFTER_ACHIEVEMENT_COUNT; k++) {
      player.achievements[k] = get_i32(r);
      counts_ok &= count_ok(player.achievements[k]);
    }
    player.facing_x = get_i32(r);
    player.facing_y = get_i32(r);
    player.sleeping = get_i32(r);
    player.last_health = get_i32(r);
    player.kills = get_i32(r);
    player.hunger = get_f64(r);
    player.thirst = get_f64(r);
    player.fatigue = get_f64(r);
    player.recover = get_f64(r);
    /* Players the game never had (a world without room for them) are
     * never read: they keep what they held. */
    const char *wrong = player_wrong(&player, last_health, unlocked, counts_ok);
    if (wrong && (uint32_t)p < player_count) return wrong;
    if (apply) {
      env->last_health[p] = last_health;
      env->unlocked[p] = unlocked;
      *crafter_game_player(game, p) = player;
    }
  }
  size_t cells = (size_t)world->width * (size_t)world->height;
  const uint8_t *materials = take(r, cells);
  if (!materials) return cut_short(r);
  if (!apply)
    for (size_t i = 0; i < cells; i++)
      if (materials[i] == CRAFTER_NONE || materials[i] >= CRAFTER_MATERIAL_COUNT)
        return "a cell holds no material";
  uint32_t objects = get_u32(r);
  int bodies = __builtin_popcount(present);
  if (objects < (uint32_t)bodies || objects > cells) return "its count of objects is out of range";
  if ((size_t)(r->end - r->at) / OBJECT_BYTES < objects) return cut_short(r);
  *object_count = objects;
  if (apply) {
    /* The cells of the objects there were are freed first. */
    for (int slot = 0; slot < world->object_count; slot++) {
      const crafter_object *old = &world->objects[slot];
      world->object_at[(size_t)old->x * (size_t)world->height + (size_t)old->y] = 0;
    }
    memcpy(world->materials, materials, cells);
    world->object_count = (int)objects;
    world->removed_pending = 0;
    world->change_count = 0;
  }
  for (uint32_t slot = 0; slot < objects; slot++) {
    const uint8_t *at = take(r, OBJECT_BYTES);
    crafter_object object = {at[0], 0, (int8_t)at[1], (int8_t)at[2], (int32_t)crafter_get_u32(at + 4),
                             (int32_t)crafter_get_u32(at + 8), (int32_t)crafter_get_u32(at + 12),
                             (int32_t)crafter_get_u32(at + 16)};
    size_t cell = (size_t)object.x * (size_t)world->height + (size_t)object.y;
    if (!apply) {
      if (object.kind >= CRAFTER_OBJECT_KIND_COUNT ||
          (slot < (uint32_t)bodies) != (object.kind == CRAFTER_PLAYER))
        return "an object is of no kind, or the players' bodies are not the first objects";
      if (at[3] != 0 || object.facing_x < -1 || object.facing_x > 1 || object.facing_y < -1 ||
          object.facing_y > 1)
        return "an object faces no direction";
      if (!crafter_world_inside(world, object.x, object.y)) return "an object lies outside the area";
      if (!signed_ok(object.health) || !signed_ok(object.counter))
        return "an object's health or counter is out of range";
      if (occupied[cell / 8] & (1u << (cell % 8))) return "two objects share a cell";
      occupied[cell / 8] |= (uint8_t)(1u << (cell % 8));
    } else {
      world->objects[slot] = object;
      world->object_at[cell] = slot + 1;
    }
  }
  uint32_t touched = get_u32(r);
  size_t chunks = (size_t)world->chunks_x * (size_t)world->chunks_y;
  if (touched > chunks) return "it touched more chunks than there are";
  uint8_t seen[(INT16_MAX + 1) / 8];
  if (!apply) memset(seen, 0, (chunks + 7) / 8);
  if (apply) {
    memset(world->chunk_seen, 0, chunks);
    world->chunk_touched = (int)touched;
  }
  for (uint32_t i = 0; i < touched; i++) {
    uint16_t chunk = get_u16(r);
    if (!apply) {
      if (chunk >= chunks || (seen[chunk / 8] & (1u << (chunk % 8))))
        return "its chunk order names a chunk twice or one that does not exist";
      seen[chunk / 8] |= (uint8_t)(1u << (chunk % 8));
    } else {
      world->chunk_order[i] = (int16_t)chunk;
      world->chunk_seen[chunk] = 1;
    }
  }
  if (apply) crafter_world_recount(world);
  return NULL;
}

/* Reads (and with `apply` stores) the runner's part; a reason that
 * names values is written into `why`. */
static const char *read_runner(reader *r, crafter_episode *e, const header *h, int apply,
                               char *why, size_t why_size) {
  const crafter_episode_options *options = crafter_episode_options_of(e);
  crafter_env *env = crafter_episode_env(e);
  int players = env->players;
  crafter_episode_progress progress;
  crafter_episode_get_progress(e, &progress);
  uint32_t started = get_u32(r), ended = get_u32(r), steps = get_u32(r), done = get_u32(r);
  int32_t next_level = get_i32(r);
  if (started > 1 || ended > 1) return "its runner's flags are neither 0 nor 1";
  if (steps > INT32_MAX) return "its runner's step count is out of range";
  if (done >> players) return "it says players' episodes ended that the game does not have";
  int levels = options->levels ? options->levels->count : 0;
  if (next_level < -1 || next_level >= levels) {
    snprintf(why, why_size,
             levels ? "its next level is %d, not one of the set's %d (0 to %d, or -1: the picker's)"
                    : "its next level is %d, but this runner plays no level set (-1: none)",
             (int)next_level, levels, levels - 1);
    return why;
  }
  progress.started = (int)started;
  progress.ended = (int)ended;
  progress.steps = (int)steps;
  progress.done = done;
  progress.next_level = next_level;
  if (h->flags & CRAFTER_STATE_LEVELS) {
    progress.picker.state = get_u64(r);
    progress.picker.next = get_i64(r);
    uint32_t stride = get_u32(r);
    if (progress.picker.next < 0 || progress.picker.next >= levels) {
      snprintf(why, why_size, "its level picker's next level is %lld, not one of the set's %d (0 to %d)",
               (long long)progress.picker.next, levels, levels - 1);
      return why;
    }
    if (stride < 1 || stride > STATE_COUNT_LIMIT) return "its level picker's stride is out of range";
    progress.picker.stride = (int)stride;
  }
  const crafter_task_pool *pool = options->tasks;
  size_t cells = (size_t)env->game.world.width * (size_t)env->game.world.height;
  for (int p = 0; (h->flags & CRAFTER_STATE_GOALS) && p < players; p++) {
    uint32_t candidate = get_u32(r), text = get_u32(r);
    if (candidate >= (uint32_t)pool->count) return "a goal is not one of the pool's";
    const crafter_task *task = &pool->set->tasks[pool->tasks[candidate]];
    if (text >= (uint32_t)task->text_count) return "a goal's wording is not one of its own";
    progress.candidate[p] = (int)candidate;
    progress.text[p] = (int)text;
    crafter_task_tracker *tracker = crafter_episode_player_tracker(e, p);
    int32_t before[CRAFTER_ITEM_COUNT];
    int counts_ok = 1;
    for (int k = 0; k < CRAFTER_ITEM_COUNT; k++) {
      before[k] = get_i32(r);
      counts_ok &= count_ok(before[k]);
    }
    uint32_t met = get_u32(r);
    int64_t met_step = get_i64(r);
    uint32_t marks = get_u32(r);
    if (!counts_ok) return "a goal's tracker holds a count out of range";
    if (met > 1 || met_step < 0 || met_step > ((int64_t)1 << 53))
      return "a goal's tracker says it was met out of range";
    if (marks > cells) return "a goal's tracker marks more cells than there are";
    if ((size_t)(r->end - r->at) / 5 < marks) return cut_short(r);
    if (apply) {
      tracker->task = task;
      tracker->width = env->game.world.width;
      tracker->height = env->game.world.height;
      memcpy(tracker->before, before, sizeof(before));
      tracker->met = (int)met;
      tracker->met_step = (long)met_step;
      memset(tracker->placed, 0, cells);
    }
    int64_t last = -1;
    for (uint32_t k = 0; k < marks; k++) {
      uint32_t cell = get_u32(r);
      uint8_t mark = get_u8(r);
      if ((int64_t)cell <= last || cell >= cells || mark < 1 || mark > 2)
        return "a goal's tracker marks a cell out of order or out of range";
      last = cell;
      if (apply) tracker->placed[cell] = mark;
    }
  }
  const uint8_t *pixels = h->pixels ? take(r, h->pixels * (size_t)players) : NULL;
  if (r->short_read) return NULL;
  if (apply) {
    crafter_episode_set_progress(e, &progress);
    if (options->obs_kind == CRAFTER_OBS_PIXELS) {
      size_t bytes;
      uint8_t *obs = (uint8_t *)crafter_episode_observe(e, &bytes);
      if (pixels) {
        memcpy(obs, pixels, h->pixels * (size_t)players);
      } else if (env->observe) {
        /* Pictures the saver did not draw: drawn now, at night with noise
         * from a copy of the generator, so the game goes on unchanged. */
        crafter_rng kept = env->game.rng;
        env->observe(env->observer, env);
        env->game.rng = kept;
      }
    }
  }
  return NULL;
}

/* Makes room for what the state holds (objects, the trackers' grids)
 * without changing what the env or runner plays. */
static int make_room(crafter_env *env, crafter_episode *e, uint32_t objects) {
  crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  if (crafter_world_reserve(world, (int)objects) < 0) return -1;
  for (int p = 0; e && crafter_episode_options_of(e)->tasks && p < env->players; p++) {
    crafter_task_tracker *tracker = crafter_episode_player_tracker(e, p);
    if (tracker->placed && tracker->width == world->width && tracker->height == world->height)
      continue;
    uint8_t *placed = realloc(tracker->placed, cells ? cells : 1);
    if (!placed) return -1;
    memset(placed, 0, cells);
    tracker->placed = placed;
    tracker->width = world->width;
    tracker->height = world->height;
  }
  return 0;
}

static int load(crafter_env *env, crafter_episode *e, const uint8_t *state, size_t size,
                char *error, size_t error_size) {
  header h = {0, 0};
  if (read_header(state, size, env, e, &h, error, error_size) < 0) return -1;
  if (e && crafter_episode_recorder(e))
    return crafter_fail(error, error_size,
                        "this env records its episodes: a recording cannot hold a jump in state");
  crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  uint8_t small[4096];
  uint8_t *occupied = cells / 8 + 1 <= sizeof(small) ? small : malloc(cells / 8 + 1);
  if (!occupied) return crafter_fail(error, error_size, "out of memory");
  memset(occupied, 0, cells / 8 + 1);
  const uint8_t *body = state + CRAFTER_STATE_HEADER_BYTES;
  const uint8_t *end = state + size - TRAILER_BYTES;
  int status = 0;
  uint32_t objects = 0;
  char why[160];
  for (int apply = 0; apply < 2 && status == 0; apply++) {
    reader r = {body, end, 0};
    const char *wrong = read_env(&r, env, apply, occupied, &objects);
    if (!wrong && e && !r.short_read) wrong = read_runner(&r, e, &h, apply, why, sizeof(why));
    if (!wrong && !r.short_read && r.at != r.end) wrong = "bytes are left over after its fields";
    if (r.short_read && !wrong) wrong = "its fields run past its end";
    if (wrong) {
      status = crafter_fail(error, error_size, "a saved state that cannot be loaded: %s", wrong);
    } else if (apply == 0 && make_room(env, e, objects) < 0) {
      status = crafter_fail(error, error_size, "out of memory");
    }
  }
  if (occupied != small) free(occupied);
  return status;
}

int crafter_state_load(crafter_env *env, const uint8_t *state, size_t size, char *error,
                       size_t error_size) {
  return load(env, NULL, state, size, error, error_size);
}

int crafter_state_load_episode(crafter_episode *e, const uint8_t *state, size_t size, char *error,
                               size_t error_size) {
  return load(crafter_episode_env(e), e, state, size, error, error_size);
}

size_t crafter_state_episode_limit(const crafter_episode *e) {
  const crafter_env *env = crafter_episode_env_const(e);
  const crafter_world *world = &env->game.world;
  size_t cells = (size_t)world->width * (size_t)world->height;
  size_t chunks = (size_t)world->chunks_x * (size_t)world->chunks_y;
  size_t players = (size_t)env->players;
  return CRAFTER_STATE_HEADER_BYTES + 64 + 4 * CRAFTER_MT_N + players * PLAYER_BYTES + cells +
         4 + cells * OBJECT_BYTES + 4 + 2 * chunks + 64 +
         players * (16 + 4 * CRAFTER_ITEM_COUNT + 16 + cells * 5) +
         players * (size_t)env->params.size[0] * (size_t)env->params.size[1] * 3 + TRAILER_BYTES;
}

int crafter_state_game(const uint8_t *state, size_t size) {
  if (size < 16 || memcmp(state, CRAFTER_STATE_MAGIC, 8) != 0) return -1;
  uint32_t version = crafter_get_u32(state + 8);
  if (version == CRAFTER_STATE_VERSION) return CRAFTER_GAME_CRAFTER;
  if (version != CRAFTER_GAME_STATE_VERSION) return -1;
  uint32_t game = crafter_get_u32(state + 12);
  return crafter_game_info_of((int)game) && game != CRAFTER_GAME_CRAFTER ? (int)game : -1;
}

