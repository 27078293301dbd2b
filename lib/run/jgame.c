#include "run/jgame.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "crafter/ids.h"
#include "game/cc_env.h"
#include "game/cc_words.h"
#include "game/cx_env.h"
#include "game/cx_words.h"
#include "view/cc_render.h"
#include "view/cx_pixels.h"
#include "view/cx_render.h"
#include "view/obskind.h"
#include "view/cx_text.h"
#include "view/render.h"

/* Craftax-Classic (game/cc_env.h, view/cc_render.h). */

static crafter_jenv_fields cc_fields(void *env) {
  crafter_cc_env *e = env;
  return (crafter_jenv_fields){&e->key, &e->world_key, &e->seed, &e->episode, &e->reset_due};
}
static void *cc_state(void *env) { return &((crafter_cc_env *)env)->state; }
static int cc_start(void *env, int64_t seed) { return crafter_cc_env_start(env, seed); }
static int cc_start_keys(void *env, int64_t seed, int64_t episode, crafter_jaxkey world_key,
                         crafter_jaxkey schedule_key) {
  return crafter_cc_env_start_keys(env, seed, episode, world_key, schedule_key);
}
static int cc_restart(void *env) { return crafter_cc_env_restart(env); }
static int cc_reset_due(void *env) { return crafter_cc_env_reset_due(env); }
static void cc_next_keys(void *env, crafter_jaxkey *world, crafter_jaxkey *schedule) {
  const crafter_cc_env *e = env;
  *schedule = e->key;
  *world = e->reset_due ? e->reset_key : crafter_cc_schedule_next(schedule);
}

static void cc_outcome(const crafter_cc_outcome *from, crafter_jgame_outcome *to) {
  to->reward = from->reward;
  to->done = from->done;
  to->died = from->died;
  memset(to->unlocked, 0, sizeof to->unlocked);
  to->unlocked[0] = from->unlocked;
  to->length = from->length;
  memcpy(to->achievements, from->achievements, CRAFTER_ACHIEVEMENT_COUNT);
  memcpy(to->inventory, from->inventory, sizeof from->inventory);
}

static void cc_act_only_many(void *envs, const int *actions, int count,
                             crafter_jgame_outcome *outcomes) {
  enum { PIECE = 64 };
  crafter_cc_outcome piece[PIECE];
  for (int first = 0; first < count; first += PIECE) {
    int n = count - first < PIECE ? count - first : PIECE;
    crafter_cc_env_act_only_many((crafter_cc_env *)envs + first, actions + first, n, piece);
    for (int i = 0; i < n; i++)
      if (actions[first + i] >= 0) cc_outcome(&piece[i], &outcomes[first + i]);
  }
}

static int cc_over(const void *state) { return crafter_cc_game_over(state); }
static int32_t cc_timestep(const void *state) {
  return ((const crafter_cc_state *)state)->timestep;
}
static void cc_report(const void *state, uint8_t *achievements, int32_t *inventory) {
  if (achievements) crafter_cc_report_achievements(state, achievements);
  if (inventory) crafter_cc_report_inventory(state, inventory);
}
/* The player's cell of both games' states, and Craftax's directions 1..4
 * (LEFT RIGHT UP DOWN) as (dx, dy); another value as (0, 0). */
static void player_place(const int32_t position[2], int32_t direction, int32_t *row,
                         int32_t *column, int facing[2]) {
  static const int table[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  *row = position[0];
  *column = position[1];
  int d = direction >= 0 && direction <= 4 ? direction : 0;
  facing[0] = table[d][0];
  facing[1] = table[d][1];
}

static void cc_position(const void *state, int32_t *row, int32_t *column, int facing[2]) {
  const crafter_cc_state *s = state;
  player_place(s->player_position, s->player_direction, row, column, facing);
}
static void cc_state_json(const void *state, struct crafter_json_writer *json) {
  const crafter_cc_state *s = state;
  crafter_json_key(json, "sleeping");
  crafter_json_bool(json, s->is_sleeping);
  crafter_json_key(json, "light_level");
  crafter_json_python_double(json, s->light_level);
}
static int cc_generate(crafter_jaxkey key, void *state) {
  return crafter_cc_generate_world(key, state);
}
static void cc_to_words(const void *state, uint32_t *words) {
  crafter_cc_state_to_words(state, words);
}
static int cc_from_words(void *state, const uint32_t *words, char *error, size_t error_size) {
  return crafter_cc_state_from_words(state, words, error, error_size);
}
static void cc_symbolic(const void *state, float *out) { crafter_cc_render_symbolic(state, out); }
static int cc_textures_load(void *t, const char *folder, char *error, size_t error_size) {
  return crafter_cc_textures_load(t, folder, error, error_size);
}
static int cc_textures_builtin(void *t, char *error, size_t error_size) {
  return crafter_cc_textures_load_builtin(t, error, error_size);
}
static int cc_pixels(const void *state, const void *t, float *out) {
  return crafter_cc_render_pixels(state, t, out);
}

static const crafter_jgame craftax_classic = {
    .game = CRAFTER_GAME_CRAFTAX_CLASSIC,
    .items = CRAFTER_ITEM_COUNT,
    .item_names = crafter_item_names,
    .map_rows = CRAFTER_CC_MAP_SIZE,
    .map_columns = CRAFTER_CC_MAP_SIZE,
    .floors = 1,
    .view_columns = 9,
    .view_rows = 7,
    .env_size = sizeof(crafter_cc_env),
    .state_size = sizeof(crafter_cc_state),
    .fields = cc_fields,
    .state = cc_state,
    .start = cc_start,
    .start_keys = cc_start_keys,
    .restart = cc_restart,
    .act_only_many = cc_act_only_many,
    .reset_due = cc_reset_due,
    .next_keys = cc_next_keys,
    .over = cc_over,
    .timestep = cc_timestep,
    .report = cc_report,
    .position = cc_position,
    .state_json = cc_state_json,
    .reset_key = crafter_cc_reset_key,
    .schedule_start = crafter_cc_schedule_start,
    .schedule_next = crafter_cc_schedule_next,
    .generate = cc_generate,
    .state_words = CRAFTER_CC_STATE_WORDS,
    .to_words = cc_to_words,
    .from_words = cc_from_words,
    .symbolic_size = CRAFTER_SYMBOLIC_SIZE,
    .symbolic = cc_symbolic,
    .pixel_rows = CRAFTER_CC_PIXELS_ROWS,
    .pixel_columns = CRAFTER_CC_PIXELS_COLUMNS,
    .textures_size = sizeof(crafter_cc_textures),
    .assets_folder = "Craftax-Classic's assets folder, craftax_classic/assets of an installed "
                     "craftax package",
    .textures_load = cc_textures_load,
    .textures_builtin = cc_textures_builtin,
    .pixels = cc_pixels,
};

/* Craftax (game/cx_env.h). */

static crafter_jenv_fields cx_fields(void *env) {
  crafter_cx_env *e = env;
  return (crafter_jenv_fields){&e->key, &e->world_key, &e->seed, &e->episode, &e->reset_due};
}
static void *cx_state(void *env) { return &((crafter_cx_env *)env)->state; }
static void cx_configure(void *env, int obs_kind) {
  ((crafter_cx_env *)env)->kind =
      obs_kind == CRAFTER_OBS_PIXELS ? CRAFTER_CX_PIXELS_ENV : CRAFTER_CX_SYMBOLIC_ENV;
}
static int cx_start(void *env, int64_t seed) { return crafter_cx_env_start(env, seed); }
static int cx_start_keys(void *env, int64_t seed, int64_t episode, crafter_jaxkey world_key,
                         crafter_jaxkey schedule_key) {
  return crafter_cx_env_start_keys(env, seed, episode, world_key, schedule_key);
}
static int cx_restart(void *env) { return crafter_cx_env_restart(env); }
static int cx_reset_due(void *env) { return crafter_cx_env_reset_due(env); }
static void cx_next_keys(void *env, crafter_jaxkey *world, crafter_jaxkey *schedule) {
  const crafter_cx_env *e = env;
  *schedule = e->key;
  *world = e->reset_due ? e->reset_key
                        : crafter_cx_world_key((enum crafter_cx_env_kind)e->kind,
                                               crafter_cx_schedule_next(schedule));
}
static void cx_act_only_many(void *envs, const int *actions, int count,
                             crafter_jgame_outcome *outcomes) {
  for (int i = 0; i < count; i++) {
    if (actions[i] < 0) continue;
    crafter_cx_env *env = (crafter_cx_env *)envs + i;
    crafter_cx_outcome o;
    crafter_cx_env_act_only(env, actions[i], &o);
    crafter_jgame_outcome *to = &outcomes[i];
    to->reward = o.reward;
    to->done = o.done;
    to->died = o.died;
    memset(to->unlocked, 0, sizeof to->unlocked);
    memcpy(to->unlocked, o.unlocked, sizeof o.unlocked);
    to->length = o.length;
    crafter_cx_report(&env->state, to->achievements, to->inventory);
  }
}
static int cx_over(const void *state) { return crafter_cx_game_over(state); }
static int32_t cx_timestep(const void *state) {
  return ((const crafter_cx_state *)state)->timestep;
}
static void cx_report(const void *state, uint8_t *achievements, int32_t *inventory) {
  crafter_cx_report(state, achievements, inventory);
}
static void cx_position(const void *state, int32_t *row, int32_t *column, int facing[2]) {
  const crafter_cx_state *s = state;
  player_place(s->player_position, s->player_direction, row, column, facing);
}
static void cx_state_json(const void *state, struct crafter_json_writer *json) {
  const crafter_cx_state *s = state;
  crafter_json_key(json, "floor");
  crafter_json_int(json, s->player_level);
  crafter_json_key(json, "health");
  crafter_json_python_double(json, s->player_health);
  crafter_json_key(json, "sleeping");
  crafter_json_bool(json, s->is_sleeping);
  crafter_json_key(json, "resting");
  crafter_json_bool(json, s->is_resting);
  crafter_json_key(json, "light_level");
  crafter_json_python_double(json, s->light_level);
}
static crafter_jaxkey cx_schedule_start(int64_t seed, crafter_jaxkey *key) {
  return crafter_cx_schedule_start(seed, key);
}
static int cx_generate(crafter_jaxkey key, void *state) {
  return crafter_cx_generate_world(key, state);
}

/* The words of every floor: floors not made yet are made in a copy
 * (cx_worldgen.h), the state itself left as it is. */
static void cx_to_words(const void *state, uint32_t *words) {
  const crafter_cx_state *s = state;
  if (!s->pending_floors) {
    crafter_cx_state_to_words(s, words);
    return;
  }
  crafter_cx_state *whole = malloc(sizeof *whole);
  if (whole) *whole = *s;
  if (!whole || crafter_cx_make_floors(whole) != 0) {
    memset(words, 0, 4 * (size_t)CRAFTER_CX_STATE_WORDS); /* no memory: a state no load takes */
    free(whole);
    return;
  }
  crafter_cx_state_to_words(whole, words);
  free(whole);
}
static int cx_from_words(void *state, const uint32_t *words, char *error, size_t error_size) {
  return crafter_cx_state_from_words(state, words, error, error_size);
}

static void cx_symbolic(const void *state, float *out) { crafter_cx_render_symbolic(state, out); }
static int cx_textures_load(void *t, const char *folder, char *error, size_t error_size) {
  return crafter_cx_textures_load(t, folder, error, error_size);
}
static int cx_textures_builtin(void *t, char *error, size_t error_size) {
  return crafter_cx_textures_load_builtin(t, error, error_size);
}
static int cx_pixels(const void *state, const void *t, float *out) {
  return crafter_cx_render_pixels(state, t, out);
}
static size_t cx_text(const void *state, char *out, size_t size) {
  return crafter_cx_render_text(state, out, size);
}

static const crafter_jgame craftax = {
    .game = CRAFTER_GAME_CRAFTAX,
    .items = CRAFTER_CX_REPORT_ITEMS,
    .item_names = crafter_cx_item_names,
    .map_rows = CRAFTER_CX_MAP_SIZE,
    .map_columns = CRAFTER_CX_MAP_SIZE,
    .floors = CRAFTER_CX_LEVELS,
    .view_columns = 11,
    .view_rows = 9,
    .env_size = sizeof(crafter_cx_env),
    .state_size = sizeof(crafter_cx_state),
    .fields = cx_fields,
    .configure = cx_configure,
    .state = cx_state,
    .start = cx_start,
    .start_keys = cx_start_keys,
    .restart = cx_restart,
    .act_only_many = cx_act_only_many,
    .reset_due = cx_reset_due,
    .next_keys = cx_next_keys,
    .over = cx_over,
    .timestep = cx_timestep,
    .report = cx_report,
    .position = cx_position,
    .state_json = cx_state_json,
    .reset_key = crafter_cx_reset_key,
    .schedule_start = cx_schedule_start,
    .schedule_next = crafter_cx_schedule_next,
    .generate = cx_generate,
    .state_words = CRAFTER_CX_STATE_WORDS,
    .to_words = cx_to_words,
    .from_words = cx_from_words,
    .symbolic_size = CRAFTER_CX_SYMBOLIC_SIZE,
    .symbolic = cx_symbolic,
    .text = cx_text,
    .pixel_rows = CRAFTER_CX_PIXELS_ROWS,
    .pixel_columns = CRAFTER_CX_PIXELS_COLUMNS,
    .textures_size = sizeof(crafter_cx_textures),
    .assets_folder = "Craftax's assets folder, craftax/assets of an installed craftax package",
    .textures_load = cx_textures_load,
    .textures_builtin = cx_textures_builtin,
    .pixels = cx_pixels,
};

const crafter_jgame *crafter_jgame_of(int game) {
  return game == CRAFTER_GAME_CRAFTAX_CLASSIC ? &craftax_classic
         : game == CRAFTER_GAME_CRAFTAX       ? &craftax
                                             : NULL;
}
