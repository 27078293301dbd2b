#include "view/obskind.h"

#include <stdio.h>
#include <string.h>

#include "view/balrog.h"
#include "view/render.h"

/* The bytes a text observation may take, its instruction included. */
enum { TEXT_CAPACITY = 8192 };

static void pixels_shape(const crafter_params *params, int players, uint32_t shape[3]) {
  (void)players;
  shape[0] = (uint32_t)params->size[1];
  shape[1] = (uint32_t)params->size[0];
  shape[2] = 3;
}

static void semantic_shape(const crafter_params *params, int players, uint32_t shape[3]) {
  (void)players;
  shape[0] = (uint32_t)params->area[0];
  shape[1] = (uint32_t)params->area[1];
  shape[2] = 1;
}

static size_t make_semantic(const crafter_env *env, int player, const char *instruction,
                            const crafter_obs_settings *settings, uint8_t *out, size_t size) {
  (void)instruction;
  (void)settings;
  crafter_env_semantic(env, player, out);
  return size;
}

static void symbolic_shape(const crafter_params *params, int players, uint32_t shape[3]) {
  (void)params;
  shape[0] = (uint32_t)crafter_symbolic_size(players);
  shape[1] = shape[2] = 1;
}

/* A player who left the world sees zeros. */
static size_t make_symbolic(const crafter_env *env, int player, const char *instruction,
                            const crafter_obs_settings *settings, uint8_t *out, size_t size) {
  (void)instruction;
  (void)settings;
  if (crafter_game_body_slot(&env->game, player) >= 0)
    crafter_render_symbolic(env, player, (float *)(void *)out);
  else
    memset(out, 0, size);
  return size;
}

static void text_shape(const crafter_params *params, int players, uint32_t shape[3]) {
  (void)params;
  (void)players;
  shape[0] = TEXT_CAPACITY;
  shape[1] = shape[2] = 1;
}

/* The goal first when there is one; a player who left the world has it
 * alone. */
static size_t make_text(const crafter_env *env, int player, const char *instruction,
                        const crafter_obs_settings *settings, uint8_t *out, size_t size) {
  (void)settings;
  char *text = (char *)out;
  size_t at = 0;
  if (instruction) {
    int written = snprintf(text, size, "Instruction: %s\n", instruction);
    at = written > 0 && (size_t)written < size ? (size_t)written : 0;
  }
  if (crafter_game_body_slot(&env->game, player) < 0) {
    text[at] = '\0';
    return at;
  }
  size_t length = at + crafter_render_text(env, player, text + at, size - at);
  return length < size ? length : size - 1;
}

/* BALROG's two texts; a goal is no part of them (records carry it). */
static size_t make_balrog(const crafter_env *env, int player, const char *instruction,
                          const crafter_obs_settings *settings, uint8_t *out, size_t size) {
  (void)instruction;
  return crafter_balrog_text(env, player, settings ? &settings->balrog : NULL, (char *)out, size);
}

/* The codes and ids are those files and streams carry: they never
 * change. */
static const crafter_obs_kind_info kinds[] = {
    [CRAFTER_OBS_NONE] = {"none", 0, 0, CRAFTER_OBS_ELEMENT_NONE, 1, CRAFTER_OBS_JSON_BASE64, 0,
                          NULL, NULL},
    [CRAFTER_OBS_PIXELS] = {"pixels", 1, 1, CRAFTER_OBS_ELEMENT_UINT8, 1, CRAFTER_OBS_JSON_BASE64,
                            1, pixels_shape, NULL},
    [CRAFTER_OBS_SEMANTIC] = {"semantic", 2, 2, CRAFTER_OBS_ELEMENT_UINT8, 1,
                              CRAFTER_OBS_JSON_BASE64, 0, semantic_shape, make_semantic},
    [CRAFTER_OBS_SYMBOLIC] = {"symbolic", 3, 3, CRAFTER_OBS_ELEMENT_FLOAT32, 1,
                              CRAFTER_OBS_JSON_NUMBERS, 0, symbolic_shape, make_symbolic},
    [CRAFTER_OBS_TEXT] = {"text", -1, -1, CRAFTER_OBS_ELEMENT_UINT8, 0, CRAFTER_OBS_JSON_STRING, 0,
                          text_shape, make_text},
    [CRAFTER_OBS_BALROG] = {"balrog", -1, -1, CRAFTER_OBS_ELEMENT_UINT8, 0,
                            CRAFTER_OBS_JSON_CONTEXTS, 0, text_shape, make_balrog},
};
_Static_assert(sizeof kinds / sizeof kinds[0] == CRAFTER_OBS_KIND_COUNT,
               "an observation kind without a row");

const crafter_obs_kind_info *crafter_obs_kind(int kind) {
  return kind >= 0 && kind < CRAFTER_OBS_KIND_COUNT ? &kinds[kind] : NULL;
}

const char *crafter_obs_kind_name(int kind) {
  const crafter_obs_kind_info *info = crafter_obs_kind(kind);
  return info ? info->name : "?";
}

int crafter_obs_kind_from_name(const char *name) {
  for (int kind = 0; kind < CRAFTER_OBS_KIND_COUNT; kind++)
    if (kinds[kind].name && strcmp(name, kinds[kind].name) == 0) return kind;
  return -1;
}

int crafter_obs_kind_from_traj_code(int code) {
  for (int kind = 0; code >= 0 && kind < CRAFTER_OBS_KIND_COUNT; kind++)
    if (kinds[kind].traj_code == code) return kind;
  return -1;
}

void crafter_obs_kind_shape(int kind, const crafter_params *params, int players,
                            uint32_t shape[3]) {
  const crafter_obs_kind_info *info = crafter_obs_kind(kind);
  shape[0] = shape[1] = shape[2] = 0;
  if (info && info->shape) info->shape(params, players, shape);
}

size_t crafter_obs_kind_bytes(int kind, const crafter_params *params, int players) {
  static const size_t element_bytes[] = {
      [CRAFTER_OBS_ELEMENT_NONE] = 0,
      [CRAFTER_OBS_ELEMENT_UINT8] = 1,
      [CRAFTER_OBS_ELEMENT_FLOAT32] = 4,
  };
  const crafter_obs_kind_info *info = crafter_obs_kind(kind);
  if (!info) return 0;
  uint32_t shape[3];
  crafter_obs_kind_shape(kind, params, players, shape);
  return (size_t)shape[0] * shape[1] * shape[2] * element_bytes[info->element];
}
