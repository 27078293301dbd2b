/* The table of observation kinds: a row for every kind, the codes and ids
 * the file formats and the binary protocol document, the sizes those
 * formats give, and makers that make what the renderers make. */
#include <stdlib.h>
#include <string.h>

#include "game/env.h"
#include "tap.h"
#include "view/balrog.h"
#include "view/obskind.h"
#include "view/render.h"

/* crafter-trajectory(5), "obs kind", and crafter-protocol(5),
 * "observation kind" and "observation type": the numbers files and
 * streams carry (-1: not carried). */
static const struct {
  int kind, code, id, element;
} documented[] = {
    {CRAFTER_OBS_NONE, 0, 0, 0},     {CRAFTER_OBS_PIXELS, 1, 1, 1},
    {CRAFTER_OBS_SEMANTIC, 2, 2, 1}, {CRAFTER_OBS_SYMBOLIC, 3, 3, 2},
    {CRAFTER_OBS_TEXT, -1, -1, -1},  {CRAFTER_OBS_BALROG, -1, -1, -1},
};

static void check_rows(void) {
  int named = 1, distinct = 1, fixed_framed = 1, made = 1;
  for (int kind = 0; kind < CRAFTER_OBS_KIND_COUNT; kind++) {
    const crafter_obs_kind_info *row = crafter_obs_kind(kind);
    named &= row && row->name && crafter_obs_kind_from_name(row->name) == kind &&
             strcmp(crafter_obs_kind_name(kind), row->name) == 0;
    if (!row) continue;
    /* The binary protocol frames exactly the kinds of a fixed size. */
    fixed_framed &= row->fixed == (row->protocol_id >= 0);
    /* A kind is drawn at every step, or made when asked, or is none. */
    made &= (row->make != NULL) + row->drawn == (kind != CRAFTER_OBS_NONE);
    for (int other = 0; other < kind; other++) {
      const crafter_obs_kind_info *before = crafter_obs_kind(other);
      distinct &= (row->traj_code < 0 || row->traj_code != before->traj_code) &&
                  (row->protocol_id < 0 || row->protocol_id != before->protocol_id);
    }
  }
  ok(named, "every kind has a row and a name that reads back");
  ok(distinct, "no two kinds share a trajectory code or a protocol id");
  ok(fixed_framed, "the kinds of a fixed size, and those alone, have a protocol id");
  ok(made, "every kind but none is drawn or has a maker, not both");
  ok(!crafter_obs_kind(-1) && !crafter_obs_kind(CRAFTER_OBS_KIND_COUNT) &&
         strcmp(crafter_obs_kind_name(CRAFTER_OBS_KIND_COUNT), "?") == 0 &&
         crafter_obs_kind_from_name("nothing") == -1,
     "no row, name or number for what is not a kind");
  int same = (int)(sizeof documented / sizeof documented[0]) == CRAFTER_OBS_KIND_COUNT;
  int unused = 0; /* a code past every kind's */
  for (size_t i = 0; same && i < sizeof documented / sizeof documented[0]; i++) {
    const crafter_obs_kind_info *row = crafter_obs_kind(documented[i].kind);
    if (documented[i].code >= unused) unused = documented[i].code + 1;
    same = row->traj_code == documented[i].code && row->protocol_id == documented[i].id &&
           (documented[i].id < 0 || row->element == documented[i].element) &&
           (documented[i].code < 0 ? crafter_obs_kind_from_traj_code(row->traj_code) == -1
                                   : crafter_obs_kind_from_traj_code(row->traj_code) ==
                                         documented[i].kind);
  }
  ok(same && crafter_obs_kind_from_traj_code(unused) == -1 &&
         crafter_obs_kind_from_traj_code(-1) == -1,
     "the trajectory codes, protocol ids and element types are the documented ones");
  ok(crafter_obs_kind(CRAFTER_OBS_SYMBOLIC)->json == CRAFTER_OBS_JSON_NUMBERS &&
         crafter_obs_kind(CRAFTER_OBS_TEXT)->json == CRAFTER_OBS_JSON_STRING &&
         crafter_obs_kind(CRAFTER_OBS_BALROG)->json == CRAFTER_OBS_JSON_CONTEXTS &&
         crafter_obs_kind(CRAFTER_OBS_PIXELS)->json == CRAFTER_OBS_JSON_BASE64 &&
         crafter_obs_kind(CRAFTER_OBS_SEMANTIC)->json == CRAFTER_OBS_JSON_BASE64,
     "JSON lines give symbolic as numbers, text as a string, balrog as its two contexts, the "
     "others in base64");
}

/* The sizes crafter-protocol(5) gives: pixels height x width x 3 bytes,
 * semantic the area, symbolic 1345 floats (63 more with players). */
static void check_sizes(void) {
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = 40;
  params.area[1] = 30;
  params.size[0] = 49;
  params.size[1] = 63;
  uint32_t shape[3];
  crafter_obs_kind_shape(CRAFTER_OBS_PIXELS, &params, 1, shape);
  ok(shape[0] == 63 && shape[1] == 49 && shape[2] == 3 &&
         crafter_obs_kind_bytes(CRAFTER_OBS_PIXELS, &params, 3) == 63 * 49 * 3,
     "pixels: rows of the size's height, its width, 3 channels");
  crafter_obs_kind_shape(CRAFTER_OBS_SEMANTIC, &params, 1, shape);
  ok(shape[0] == 40 && shape[1] == 30 && shape[2] == 1 &&
         crafter_obs_kind_bytes(CRAFTER_OBS_SEMANTIC, &params, 2) == 40 * 30,
     "semantic: the area, a byte a cell");
  crafter_obs_kind_shape(CRAFTER_OBS_SYMBOLIC, &params, 2, shape);
  ok(crafter_obs_kind_bytes(CRAFTER_OBS_SYMBOLIC, &params, 1) == 1345 * 4 &&
         shape[0] == 1345 + 63 && shape[1] == 1 && shape[2] == 1 &&
         crafter_obs_kind_bytes(CRAFTER_OBS_SYMBOLIC, &params, 2) == (1345 + 63) * 4,
     "symbolic: 1345 floats, 1408 with players");
  crafter_obs_kind_shape(CRAFTER_OBS_NONE, &params, 1, shape);
  ok(crafter_obs_kind_bytes(CRAFTER_OBS_NONE, &params, 1) == 0 && !shape[0] && !shape[1] &&
         !shape[2] && crafter_obs_kind_bytes(CRAFTER_OBS_TEXT, &params, 1) > 1000,
     "none: nothing; text: a capacity");
}

/* The makers make what the renderers make, from any player's viewpoint,
 * and something for a player who left the world. */
static void check_makers(void) {
  crafter_params params;
  crafter_params_default(&params);
  crafter_env env;
  char error[256];
  int ready = crafter_env_init(&env, &params, error, sizeof(error)) == 0 &&
              crafter_env_set_players(&env, 2, error, sizeof(error)) == 0 &&
              crafter_env_reset(&env) == 0;
  ok(ready, "a game of two players: %s", ready ? "ready" : error);
  if (!ready) return;
  size_t semantic_bytes = crafter_obs_kind_bytes(CRAFTER_OBS_SEMANTIC, &params, 2);
  size_t symbolic_bytes = crafter_obs_kind_bytes(CRAFTER_OBS_SYMBOLIC, &params, 2);
  size_t text_bytes = crafter_obs_kind_bytes(CRAFTER_OBS_TEXT, &params, 2);
  uint8_t *made = calloc(1, text_bytes), *expected = calloc(1, text_bytes);
  if (!made || !expected) abort();
  const crafter_obs_kind_info *semantic = crafter_obs_kind(CRAFTER_OBS_SEMANTIC);
  const crafter_obs_kind_info *symbolic = crafter_obs_kind(CRAFTER_OBS_SYMBOLIC);
  const crafter_obs_kind_info *text = crafter_obs_kind(CRAFTER_OBS_TEXT);
  crafter_env_semantic(&env, 1, expected);
  ok(semantic->make(&env, 1, NULL, NULL, made, semantic_bytes) == semantic_bytes &&
         memcmp(made, expected, semantic_bytes) == 0,
     "semantic: player 1's map");
  crafter_render_symbolic(&env, 1, (float *)(void *)expected);
  ok(symbolic->make(&env, 1, NULL, NULL, made, symbolic_bytes) == symbolic_bytes &&
         memcmp(made, expected, symbolic_bytes) == 0,
     "symbolic: player 1's vector");
  size_t length = crafter_render_text(&env, 1, (char *)expected, text_bytes);
  ok(text->make(&env, 1, NULL, NULL, made, text_bytes) == length &&
         strcmp((char *)made, (char *)expected) == 0,
     "text: player 1's description");
  ok(text->make(&env, 1, "Find water.", NULL, made, text_bytes) == length + 25 &&
         strncmp((char *)made, "Instruction: Find water.\n", 25) == 0 &&
         strcmp((char *)made + 25, (char *)expected) == 0,
     "text with a goal: the instruction, then the description");
  ok(text->make(&env, 1, NULL, NULL, made, 40) == 39 && strlen((char *)made) == 39,
     "text cut to its room, ended by a NUL");
  const crafter_obs_kind_info *balrog = crafter_obs_kind(CRAFTER_OBS_BALROG);
  length = crafter_balrog_text(&env, 1, NULL, (char *)expected, text_bytes);
  ok(balrog->make(&env, 1, "Find water.", NULL, made, text_bytes) == length &&
         memcmp(made, expected, length + 1) == 0 &&
         strncmp((char *)made, "You see", 7) == 0 &&
         strncmp((char *)made + strlen((char *)made) + 1, "Your status:", 12) == 0,
     "balrog: player 1's long and short context, without the goal");
  /* Player 1 dies; its body leaves the world at the next step. */
  crafter_game_player(&env.game, 1)->inventory[CRAFTER_HEALTH] = 0;
  int actions[2] = {CRAFTER_NOOP, CRAFTER_NOOP};
  crafter_step_result results[2];
  for (int t = 0; t < 2; t++) crafter_env_step_players(&env, actions, results);
  int gone = crafter_game_body_slot(&env.game, 1) < 0;
  memset(made, 1, symbolic_bytes);
  int zeros = symbolic->make(&env, 1, NULL, NULL, made, symbolic_bytes) == symbolic_bytes;
  for (size_t i = 0; i < symbolic_bytes; i++) zeros &= made[i] == 0;
  ok(gone && zeros, "symbolic of a player who left the world: zeros");
  ok(gone && text->make(&env, 1, "Find water.", NULL, made, text_bytes) == 25 &&
         strcmp((char *)made, "Instruction: Find water.\n") == 0 &&
         text->make(&env, 1, NULL, NULL, made, text_bytes) == 0 && made[0] == '\0',
     "text of a player who left the world: its goal alone");
  free(made);
  free(expected);
  crafter_env_fini(&env);
}

int main(void) {
  check_rows();
  check_sizes();
  check_makers();
  return tap_done();
}
