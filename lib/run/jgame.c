#include "run/jgame.h"

#include <string.h>

#include "base/json.h"
#include "crafter/ids.h"
#include "game/cc_env.h"
#include "game/cc_words.h"
#include "view/cc_render.h"
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
/* Craftax's directions 1..4 (LEFT RIGHT UP DOWN) as (dx, dy); another
 * value as (0, 0). */
static void cc_position(const void *state, int32_t *row, int32_t *column, int facing[2]) {
  static const int table[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  const crafter_cc_state *s = state;
  *row = s->player_position[0];
  *column = s->player_position[1];
  int d = s->player_direction >= 0 && s->player_direction <= 4 ? s->player_direction : 0;
  facing[0] = table[d][0];
  facing[1] = table[d][1];
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

const crafter_jgame *crafter_jgame_of(int game) {
  return game == CRAFTER_GAME_CRAFTAX_CLASSIC ? &craftax_classic : NULL;
}
