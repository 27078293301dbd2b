/* traj: trajectory files (crafter-trajectory(5)): what a file holds, its
 * header and its episodes; traj_writer.h writes them, traj_reader.h reads
 * and verifies them.
 *
 * A file is a header (the format version, the environment parameters,
 * what each step stores), then one self-delimiting chunk per episode
 * (a header with the episode's seeds and summary and its own CRC-32, then
 * its steps compressed with zlib, with a CRC-32 of the compressed bytes),
 * then an index of the chunks and a trailer pointing at it.
 *
 * A chunk is written and flushed as soon as its episode ends, and the
 * index only when the file is closed, so a writer killed at any moment
 * leaves a file whose completed episodes can all be read: without a
 * trailer the reader finds the chunks by scanning, and past a damaged
 * chunk it looks for the next good one.  The reader checks every length,
 * checksum and version and never trusts a size it has not bounded; any
 * bytes at all give a message, not a crash.
 *
 * Each step stores the action, Crafter's info['reward'], done, the
 * discount, the achievements it unlocked and optionally an observation;
 * with the parameters, the Env seed and the episode counter that is
 * enough to re-simulate every episode exactly. */
#ifndef CRAFTER_TRAJ_H
#define CRAFTER_TRAJ_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "game/tasks.h"
#include "view/textures.h"

#define CRAFTER_TRAJ_MAGIC "CRAFTTRJ"
#define CRAFTER_TRAJ_VERSION 1       /* a file of episodes without goals */
#define CRAFTER_TRAJ_VERSION_TASKS 2 /* a file of episodes with goals: its task table
                                        follows the header */
#define CRAFTER_TRAJ_VERSION_RULES 3 /* episodes played by a configuration or on a world
                                        file, both stored after the header (and the task
                                        table, if any) */
#define CRAFTER_TRAJ_VERSION_PLAYERS 4 /* episodes of several players: the header counts
                                          them, each chunk is one player's episode (the
                                          rules and tasks as in version 3, if any) */
#define CRAFTER_TRAJ_VERSION_GAME 5 /* episodes of a game other than Crafter (game/games.h):
                                       the header holds its number, the parameters are the
                                       game's own, each chunk holds the keys its episode
                                       started with (Craftax-Classic's world key and
                                       schedule key); no goals, rules, levels or players.
                                       A file of versions 1 to 4 is Crafter's */
#define CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES 32
#define CRAFTER_TRAJ_HEADER_BYTES 128
#define CRAFTER_TRAJ_CHUNK_HEADER_BYTES 256
#define CRAFTER_TRAJ_STEP_BYTES 16
#define CRAFTER_TRAJ_TRAILER_BYTES 32
#define CRAFTER_TRAJ_AGENT_BYTES 16

typedef struct crafter_traj_header {
  uint32_t version;
  int game;               /* enum crafter_game_id (game/games.h): Crafter's 0 in versions 1 to
                             4, another in version 5 */
  crafter_params params;  /* seed: the Env seed of the recording */
  int obs_kind;           /* enum crafter_obs_kind (obskind.h) of a kind that is stored:
                             none, pixels, semantic or symbolic; the file holds its
                             code */
  uint32_t obs_bytes;     /* bytes of one observation, 0 for none */
  char agent[CRAFTER_TRAJ_AGENT_BYTES + 1]; /* who chose the actions: "random", "external" */
  uint32_t textures_crc;  /* pixels: crafter_traj_textures_crc of the textures drawn with */
  /* The task file the goals of the episodes come from (crafter-task(5)),
   * or NULL: episodes without goals.  A writer stores its bytes after the
   * header; a reader's points at the set it read there. */
  const crafter_task_set *tasks;
  /* Episodes played on a level set (crafter-levels(5)): levels
   * level_first .. level_first+level_count-1 of the Env seed params.seed,
   * chosen in level_order; level_count 0 for fresh worlds. */
  int32_t level_count;
  int64_t level_first;
  int level_order;       /* enum crafter_level_order */
  /* The configuration the episodes were played by (crafter-config(5)):
   * the YAML text of its file, or NULL for Crafter's rules; and the world
   * file (crafter-world(5)) every episode started on, or NULL for
   * generated worlds.  A writer stores both texts after the header; a
   * reader's header points at the texts it read, at the configuration they
   * make (config: Crafter's values under the file's) and at the map
   * (world), which replays play by. */
  const char *config_text;
  size_t config_bytes;
  const crafter_config *config;
  const char *world_text;
  size_t world_bytes;
  const struct crafter_world_map *world;
  /* Players sharing each world: 1, or with version 4 2..16, each episode
   * then stored as one chunk per player (crafter_traj_episode.player). */
  int players;
} crafter_traj_header;

/* Fills a header for envs of these parameters with observations of a
 * kind (one that is not stored, text, counts as none).  textures may be NULL
 * unless the kind is pixels. */
void crafter_traj_header_init(crafter_traj_header *header, const crafter_params *params,
                              int obs_kind, const char *agent, const crafter_textures *textures);

/* Fills a header for the episodes of `game`, a game other than Crafter
 * (version 5): the Env seed, observations of a kind the game has (none or
 * symbolic for Craftax-Classic), the agent.  The parameters are the
 * game's own (crafter_traj_game_params). */
void crafter_traj_header_init_game(crafter_traj_header *header, int game, int64_t seed,
                                   int obs_kind, const char *agent);

/* The parameters a file of `game` other than Crafter holds, which no
 * option changes; Craftax-Classic's: its 64x64 map, the 9x9 grid of its
 * observation (9x7 cells and 2 rows of inventory), the 63x63 pixels of
 * Craftax-Classic-Pixels, its time limit of 10000 steps, reward on. */
void crafter_traj_game_params(int game, crafter_params *params);

/* Records that every world has `players` players (1: Crafter's one); with
 * several the file is of version 4 and symbolic observations have 1408
 * values. */
void crafter_traj_header_set_players(crafter_traj_header *header, int players);

/* Records that the episodes are played on `levels` (NULL: fresh worlds)
 * in `order`; the header's seed must be the set's. */
struct crafter_level_set;
void crafter_traj_header_set_levels(crafter_traj_header *header,
                                    const struct crafter_level_set *levels, int order);

/* Records that the episodes are played by the configuration whose file
 * holds `config_text` (NULL: Crafter's rules), which makes `config`, and
 * on the world whose file holds `world_text` (NULL: generated worlds),
 * which makes `world`. */
struct crafter_world_map;
void crafter_traj_header_set_rules(crafter_traj_header *header, const char *config_text,
                                   size_t config_bytes, const crafter_config *config,
                                   const char *world_text, size_t world_bytes,
                                   const struct crafter_world_map *world);

/* The highest count a file's episode may end with in an inventory slot:
 * its configuration's maximum (Crafter's: 9). */
int32_t crafter_traj_item_max(const crafter_traj_header *header, int item);

/* Whether observations of a kind are stored in files: of a fixed size,
 * with a code (none, pixels, semantic, symbolic; not text). */
int crafter_traj_stores_kind(int obs_kind);

/* Bytes of one stored observation of a kind for these parameters in a
 * game of `players` players (a symbolic one has 63 values more with
 * several), 0 for none or a kind not stored (text). */
uint32_t crafter_traj_obs_bytes(const crafter_params *params, int obs_kind, int players);

/* CRC-32 of the sizes and pixels of every texture: tells which textures
 * drew the pixels of a file. */
uint32_t crafter_traj_textures_crc(const crafter_textures *textures);

/* enum crafter_traj_end and crafter_traj_end_name (crafter/crafter.h) say
 * how an episode ended. */

/* An episode as its chunk header describes it. */
typedef struct crafter_traj_episode {
  uint64_t offset;      /* of its chunk in the file */
  uint64_t bytes;       /* of the chunk: header and compressed steps */
  uint64_t raw_bytes;   /* of the steps uncompressed */
  int64_t seed;         /* the Env seed */
  int64_t episode;      /* the Env's episode counter, from 1 */
  int64_t world_seed;   /* Crafter's; 0 in a file of another game */
  int game;             /* the file's game (enum crafter_game_id): what the chunk header holds */
  uint32_t world_key[2];    /* another game's (version 5): the key its world was generated
                               from and the schedule's key at its start, JAX's uint32[2]
                               arrays (game/cc_env.h); 0 in Crafter's */
  uint32_t schedule_key[2];
  uint32_t steps;
  uint32_t unlocked;    /* bit i: achievement i unlocked during the episode */
  double reward;        /* sum of info['reward'] over the steps, in order */
  int end;              /* enum crafter_traj_end */
  int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT]; /* counts at the end */
  int32_t inventory[CRAFTER_ITEM_COUNT];           /* at the end */
  int task;             /* the goal: its index in the file's task table, -1 for none */
  int text;             /* the wording given: 0 the instruction, k paraphrase k */
  uint32_t play;        /* on a level set: the episode's place in its recording, from 1
                           (the same level may be played again); 0 otherwise */
  int player;           /* in a file of several players, whose episode this is (0..);
                           -1 otherwise */
  uint32_t payload_crc;
} crafter_traj_episode;

typedef struct crafter_traj_step {
  uint8_t action;
  uint8_t done;
  uint8_t died;      /* the player died: Crafter's discount is 0 when set, else 1
                        (Craftax-Classic's is 0 at every done) */
  uint8_t goal;      /* the episode's goal was met by this step */
  uint32_t unlocked; /* achievements unlocked for the first time by this step */
  double reward;     /* Crafter's info['reward'], whatever params.reward says; another
                        game's reward (Craftax-Classic's float32) */
} crafter_traj_step;

/* Whether the bytes start with the trajectory magic. */
int crafter_traj_is_trajectory(const void *data, size_t size);

#endif
