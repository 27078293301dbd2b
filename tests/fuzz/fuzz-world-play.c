/* Fuzz target: a world file (crafter-world(5)) read, then played.  A map
 * the reader accepts must be playable: an env of its area starts an
 * episode on it (crafter_world_map_start), which must hold the map's
 * grid and objects, and takes steps with every observation drawn (pixels
 * through an attached renderer, semantic, symbolic, text, and BALROG's
 * texts of every player, in the world or not), then starts a second
 * episode on it.  Maps of more than 128x128 cells are only read, so that
 * a run stays short.  World files have no checksum: mutations
 * reach the reader as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "run/worldfile.h"
#include "view/balrog.h"
#include "view/render.h"
#include "view/textures.h"

#define PLAY_CELLS_MAX (128 * 128)
#define PLAY_STEPS 24

/* Made once and kept (still reachable at exit). */
static crafter_renderer *play_renderer(const crafter_params *params) {
  static crafter_textures textures;
  static crafter_renderer *renderer;
  char error[512];
  if (!renderer) {
    if (crafter_textures_load_builtin(&textures, error, sizeof(error)) < 0 ||
        !(renderer = crafter_renderer_new(&textures, params, error, sizeof(error)))) {
      fprintf(stderr, "fuzz-world-play: %s\n", error);
      abort();
    }
  }
  return renderer;
}

/* The episode holds the map: its grid, and its objects in their order. */
static void check_holds(const crafter_env *env, const crafter_world_map *map) {
  crafter_world_map now;
  if (crafter_world_map_from_game(&now, &env->game) < 0) abort(); /* out of memory */
  if (now.width != map->width || now.height != map->height ||
      memcmp(now.materials, map->materials, (size_t)map->width * (size_t)map->height) != 0 ||
      now.object_count != map->object_count)
    abort();
  for (int i = 0; i < map->object_count; i++)
    if (now.objects[i].kind != map->objects[i].kind || now.objects[i].x != map->objects[i].x ||
        now.objects[i].y != map->objects[i].y)
      abort();
  crafter_world_map_free(&now);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_world_map map;
  char error[512];
  if (crafter_world_map_parse(&map, (const char *)data, size, "fuzz.txt", error,
                              sizeof(error)) != 0)
    return 0;
  if ((long)map.width * map.height > PLAY_CELLS_MAX) {
    crafter_world_map_free(&map);
    return 0;
  }
  crafter_params params;
  crafter_params_default(&params);
  params.area[0] = map.width, params.area[1] = map.height;
  params.size[0] = params.size[1] = 27; /* 3 pixels a cell: every texture scaled */
  params.length = PLAY_STEPS / 2;       /* an episode that ends, then another */
  params.seed = (int64_t)size;
  crafter_env env;
  int players = 0;
  for (int i = 0; i < map.object_count; i++) players += map.objects[i].kind == CRAFTER_PLAYER;
  if (crafter_env_init(&env, &params, error, sizeof(error)) < 0 ||
      crafter_env_set_players(&env, players, error, sizeof(error)) < 0) {
    fprintf(stderr, "fuzz-world-play: %s\n", error);
    abort();
  }
  static uint8_t pixels[27 * 27 * 3 * CRAFTER_PLAYERS_MAX]; /* every player's view */
  static float symbolic[CRAFTER_SYMBOLIC_SIZE + CRAFTER_SYMBOLIC_ROWS * CRAFTER_SYMBOLIC_COLUMNS];
  static char text[8192];
  uint8_t *semantic = malloc((size_t)map.width * (size_t)map.height);
  if (!semantic) abort();
  crafter_renderer_attach(play_renderer(&params), &env, pixels);
  /* A map the reader accepted is one an episode can start on. */
  if (crafter_world_map_start(&env, &map, error, sizeof(error)) < 0) {
    fprintf(stderr, "fuzz-world-play: an accepted map is refused: %s\n", error);
    abort();
  }
  check_holds(&env, &map);
  for (int t = 0; t < PLAY_STEPS; t++) {
    int actions[CRAFTER_PLAYERS_MAX];
    for (int p = 0; p < players; p++)
      actions[p] = size ? data[((size_t)t * 7919 + (size_t)p * 31) % size] % CRAFTER_ACTION_COUNT : 0;
    crafter_step_result results[CRAFTER_PLAYERS_MAX];
    crafter_env_step_players(&env, actions, results);
    int over = 1;
    for (int p = 0; p < players; p++) {
      over &= results[p].done != 0;
      (void)crafter_balrog_text(&env, p, NULL, text, sizeof(text));
      if (crafter_game_body_slot(&env.game, p) < 0) continue;
      crafter_env_semantic(&env, p, semantic);
      crafter_render_symbolic(&env, p, symbolic);
      (void)crafter_render_text(&env, p, text, sizeof(text));
    }
    if (over && crafter_world_map_start(&env, &map, error, sizeof(error)) < 0) abort();
  }
  free(semantic);
  crafter_env_fini(&env);
  crafter_world_map_free(&map);
  return 0;
}
