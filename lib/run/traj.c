#include "run/traj.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "base/bytes.h"
#include "game/cc_worldgen.h"
#include "game/games.h"
#include "run/levels.h"
#include "run/worldfile.h"
#include "view/obskind.h"

/* ---- header ---- */

void crafter_traj_header_set_levels(crafter_traj_header *header,
                                    const crafter_level_set *levels, int order) {
  header->level_count = levels ? levels->count : 0;
  header->level_first = levels ? levels->first : 0;
  header->level_order = levels ? order : 0;
}

int crafter_traj_stores_kind(int obs_kind) {
  const crafter_obs_kind_info *kind = crafter_obs_kind(obs_kind);
  return kind && kind->fixed && kind->traj_code >= 0;
}

uint32_t crafter_traj_obs_bytes(const crafter_params *params, int obs_kind, int players) {
  if (!crafter_traj_stores_kind(obs_kind)) return 0;
  return (uint32_t)crafter_obs_kind_bytes(obs_kind, params, players);
}

uint32_t crafter_traj_textures_crc(const crafter_textures *textures) {
  uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
  for (int i = 0; i < CRAFTER_TEXTURE_COUNT; i++) {
    const crafter_image *image = &textures->images[i];
    uint8_t shape[12];
    crafter_put_u32(shape, (uint32_t)image->width);
    crafter_put_u32(shape + 4, (uint32_t)image->height);
    crafter_put_u32(shape + 8, (uint32_t)image->channels);
    crc = crafter_crc32_update(crc, shape, sizeof(shape));
    if (image->pixels)
      crc = crafter_crc32_update(crc, image->pixels,
                       (size_t)image->width * (size_t)image->height * (size_t)image->channels);
  }
  return crc;
}

void crafter_traj_header_init(crafter_traj_header *header, const crafter_params *params,
                              int obs_kind, const char *agent, const crafter_textures *textures) {
  memset(header, 0, sizeof(*header));
  header->version = CRAFTER_TRAJ_VERSION;
  header->params = *params;
  if (!crafter_traj_stores_kind(obs_kind)) obs_kind = CRAFTER_OBS_NONE;
  header->obs_kind = obs_kind;
  header->obs_bytes = crafter_traj_obs_bytes(params, obs_kind, 1);
  header->players = 1;
  snprintf(header->agent, sizeof(header->agent), "%s", agent ? agent : "");
  if (crafter_obs_kind(obs_kind)->drawn && textures)
    header->textures_crc = crafter_traj_textures_crc(textures);
}

void crafter_traj_game_params(int game, crafter_params *params) {
  crafter_params_default(params);
  if (game != CRAFTER_GAME_CRAFTAX_CLASSIC) return;
  params->area[0] = params->area[1] = CRAFTER_CC_MAP_SIZE;
  params->view[0] = params->view[1] = 9;
  params->size[0] = params->size[1] = 63;
  params->length = 10000;
  params->reward = 1;
}

void crafter_traj_header_init_game(crafter_traj_header *header, int game, int64_t seed,
                                   int obs_kind, const char *agent) {
  crafter_params params;
  crafter_traj_game_params(game, &params);
  params.seed = seed;
  crafter_traj_header_init(header, &params, obs_kind, agent, NULL);
  header->version = CRAFTER_TRAJ_VERSION_GAME;
  header->game = game;
}

void crafter_traj_header_set_players(crafter_traj_header *header, int players) {
  header->players = players > 1 ? players : 1;
  header->obs_bytes = crafter_traj_obs_bytes(&header->params, header->obs_kind, header->players);
}

void crafter_traj_header_set_rules(crafter_traj_header *header, const char *config_text,
                                   size_t config_bytes, const crafter_config *config,
                                   const char *world_text, size_t world_bytes,
                                   const crafter_world_map *world) {
  header->config_text = config_text;
  header->config_bytes = config_text ? config_bytes : 0;
  header->config = config_text ? config : NULL;
  header->world_text = world_text;
  header->world_bytes = world_text ? world_bytes : 0;
  header->world = world_text ? world : NULL;
}

int32_t crafter_traj_item_max(const crafter_traj_header *header, int item) {
  return header->config ? header->config->items[item].max : crafter_config_builtin.items[item].max;
}

const char *crafter_traj_end_name(int end) {
  switch (end) {
    case CRAFTER_TRAJ_CUT: return "cut";
    case CRAFTER_TRAJ_TIME_LIMIT: return "time_limit";
    case CRAFTER_TRAJ_DIED: return "died";
    case CRAFTER_TRAJ_GOAL: return "goal";
    default: return "unknown";
  }
}

int crafter_traj_is_trajectory(const void *data, size_t size) {
  return size >= 8 && memcmp(data, CRAFTER_TRAJ_MAGIC, 8) == 0;
}
