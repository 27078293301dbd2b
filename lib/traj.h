/* traj: trajectory files (crafter-trajectory(5)): write, read, verify.
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

#include "env.h"
#include "tasks.h"
#include "textures.h"

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
#define CRAFTER_TRAJ_TASK_CHUNK_HEADER_BYTES 32
#define CRAFTER_TRAJ_HEADER_BYTES 128
#define CRAFTER_TRAJ_CHUNK_HEADER_BYTES 256
#define CRAFTER_TRAJ_STEP_BYTES 16
#define CRAFTER_TRAJ_TRAILER_BYTES 32
#define CRAFTER_TRAJ_AGENT_BYTES 16

typedef struct crafter_traj_header {
  uint32_t version;
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

/* Bytes of one stored observation of a kind for these parameters in a
 * game of `players` players (a symbolic one has 63 values more with
 * several), 0 for none or a kind not stored (text). */
uint32_t crafter_traj_obs_bytes(const crafter_params *params, int obs_kind, int players);

/* CRC-32 of the sizes and pixels of every texture: tells which textures
 * drew the pixels of a file. */
uint32_t crafter_traj_textures_crc(const crafter_textures *textures);

enum crafter_traj_end {
  CRAFTER_TRAJ_CUT = 0,        /* the recording stopped before the episode ended */
  CRAFTER_TRAJ_TIME_LIMIT = 1, /* done at the time limit */
  CRAFTER_TRAJ_DIED = 2,       /* done because the player died */
  CRAFTER_TRAJ_GOAL = 3        /* done because the goal was met */
};

/* Name of an end: "cut", "time_limit", "died", "goal". */
const char *crafter_traj_end_name(int end);

/* An episode as its chunk header describes it. */
typedef struct crafter_traj_episode {
  uint64_t offset;      /* of its chunk in the file */
  uint64_t bytes;       /* of the chunk: header and compressed steps */
  uint64_t raw_bytes;   /* of the steps uncompressed */
  int64_t seed;         /* the Env seed */
  int64_t episode;      /* the Env's episode counter, from 1 */
  int64_t world_seed;
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
  uint8_t died;      /* the player died: Crafter's discount is 0 when set, else 1 */
  uint8_t goal;      /* the episode's goal was met by this step */
  uint32_t unlocked; /* achievements unlocked for the first time by this step */
  double reward;     /* Crafter's info['reward'], whatever params.reward says */
} crafter_traj_step;

/* Builds one episode in memory, compressing as it goes. */
typedef struct crafter_traj_recorder crafter_traj_recorder;

crafter_traj_recorder *crafter_traj_recorder_new(const crafter_traj_header *header);
void crafter_traj_recorder_free(crafter_traj_recorder *recorder);

/* Starts an episode of player `player` (0 in Crafter's game of one) after
 * crafter_env_reset; obs is its first observation (obs_bytes of the
 * header; ignored when there are none).  In a file of several players the
 * chunk is that player's; every step after is given the same player, whose
 * achievements and inventory the episode ends with.  Returns 0, or -1 when
 * memory ran out. */
int crafter_traj_recorder_start(crafter_traj_recorder *recorder, const crafter_env *env,
                                int player, const void *obs);

/* Adds a step of player `player` after crafter_env_step with its action
 * and result; obs is the observation after it.  Returns 0, or -1 when
 * memory ran out. */
int crafter_traj_recorder_step(crafter_traj_recorder *recorder, const crafter_env *env,
                               int player, int action, const crafter_step_result *result,
                               const void *obs);

/* Gives the episode begun by crafter_traj_recorder_start a goal: task
 * index `task` of the header's task set, worded by its text `text`. */
void crafter_traj_recorder_set_task(crafter_traj_recorder *recorder, int task, int text);

/* On a level set: gives the episode begun by crafter_traj_recorder_start
 * its world episode's place (from 1) in the whole dataset, so that the
 * shards of a dataset carry the places the dataset recorded at once has.
 * Without it, a writer numbers world episodes in the order they come. */
void crafter_traj_recorder_set_place(crafter_traj_recorder *recorder, uint32_t place);

/* crafter_traj_recorder_step for an episode with a goal: `goal` is 1 on
 * the step that met it (result->done then set), and result holds the
 * game's reward and discount, without the task's. */
int crafter_traj_recorder_step_goal(crafter_traj_recorder *recorder, const crafter_env *env,
                                    int player, int action, const crafter_step_result *result,
                                    const void *obs, int goal);

/* Finishes the compression of the episode, which takes no more steps: the
 * work crafter_traj_writer_add would do, done beforehand on the thread
 * that played the episode.  0, or -1 when memory ran out. */
int crafter_traj_recorder_seal(crafter_traj_recorder *recorder);

/* Steps added since the start; -1 when no episode is started. */
long crafter_traj_recorder_steps(const crafter_traj_recorder *recorder);

typedef struct crafter_traj_writer crafter_traj_writer;

/* Creates a file and writes its header.  NULL with a reason.  Onto a
 * non-empty regular file that is there, the recording is written to a
 * temporary beside it (lib/outfile.h) that takes the path once a whole
 * world episode that ended has been added, and grows there: stopped before,
 * the old file stays as it was; stopped after, the path holds every
 * episode added.  Adding chunks and closing hold the signals
 * (crafter_outfile_hold_signals), so a signal that ends the process leaves
 * whole chunks and whole worlds. */
crafter_traj_writer *crafter_traj_writer_create(const char *path,
                                                const crafter_traj_header *header, char *error,
                                                size_t error_size);

/* The same, for a file written whole (lib/outfile.h): the chunks go to a
 * temporary file renamed over the path by crafter_traj_writer_close, so a
 * failed or interrupted write leaves the path as it was.  For copies such
 * as merges, where a partial file is worth nothing. */
crafter_traj_writer *crafter_traj_writer_create_whole(const char *path,
                                                      const crafter_traj_header *header,
                                                      char *error, size_t error_size);

/* Gives up a writer: closes the file (a file written whole is removed)
 * and frees the writer. */
void crafter_traj_writer_abort(crafter_traj_writer *writer);

/* Finishes the recorder's episode, appends its chunk and flushes it to
 * the system, so the episode survives the process being killed.  The
 * recorder is then empty until the next start.  Returns 0, or -1 with a
 * reason. */
int crafter_traj_writer_add(crafter_traj_writer *writer, crafter_traj_recorder *recorder,
                            char *error, size_t error_size);

/* Appends a chunk read with crafter_traj_read_chunk from a file of the
 * same header. */
int crafter_traj_writer_add_chunk(crafter_traj_writer *writer, const uint8_t *chunk,
                                  size_t bytes, char *error, size_t error_size);

/* Writes the index and trailer and closes the file; frees the writer
 * whatever happens.  Returns 0, or -1 with a reason. */
int crafter_traj_writer_close(crafter_traj_writer *writer, char *error, size_t error_size);

/* The reader. */
typedef struct crafter_traj_reader crafter_traj_reader;

/* How the episodes were found and what is wrong with the file. */
typedef struct crafter_traj_status {
  uint64_t file_bytes;
  int indexed;            /* 1: the index and trailer listed the chunks; 0: found by scanning */
  char index_note[160];   /* why the chunks were scanned for, "" when indexed */
  int damaged;            /* 1 when some bytes are not part of a good chunk, index or trailer */
  uint64_t damage_offset; /* the first such byte */
  char damage[200];       /* what is wrong there */
  long damaged_regions;   /* stretches of bytes skipped over */
  uint64_t damaged_bytes; /* their total size */
  long duplicates;        /* chunks left out as repeats of an earlier one */
  uint64_t duplicate_offset; /* the first of them */
  /* Files of several players: world episodes some of whose players'
   * chunks are missing (damaged, or never written) are damage too; their
   * remaining chunks are left out, so that the episodes listed are whole
   * worlds, each a chunk per player in the players' order. */
  long partial_worlds;    /* world episodes left out */
  long partial_chunks;    /* their chunks that were there */
  uint64_t partial_offset; /* the first of those chunks */
  char partial[200];      /* what the first such world lacks */
  uint64_t checked_bytes; /* bytes checksummed to open the file: the work done, a
                             small multiple of the file's size whatever its bytes */
} crafter_traj_status;

/* Opens a file, reads its header and finds its episodes.  Only a file
 * whose header cannot be read fails (NULL with a reason); damage further
 * on is reported by crafter_traj_status_of.
 *
 * Every chunk's checksums are checked on opening (the file is read once
 * whole), with or without an index, so that the episodes listed are
 * exactly the intact ones and every program reports the same damage: a
 * damaged chunk is left out and counted as damage, and the episodes after
 * it are found by scanning.  A chunk whose header equals an earlier one's
 * is the same episode again and is left out too (status.duplicates).
 * In a file of several players the episodes listed are whole world
 * episodes only: the chunks of players 0..P-1 of a world, one after the
 * other; a world missing a chunk is left out (status.partial_worlds). */
crafter_traj_reader *crafter_traj_open(const char *path, char *error, size_t error_size);

/* The same over bytes in memory, which must outlive the reader. */
crafter_traj_reader *crafter_traj_open_memory(const uint8_t *data, size_t size, char *error,
                                              size_t error_size);
void crafter_traj_close(crafter_traj_reader *reader);

const crafter_traj_header *crafter_traj_header_of(const crafter_traj_reader *reader);
const crafter_traj_status *crafter_traj_status_of(const crafter_traj_reader *reader);
size_t crafter_traj_episode_count(const crafter_traj_reader *reader);
const crafter_traj_episode *crafter_traj_episode_at(const crafter_traj_reader *reader,
                                                    size_t index);

/* The steps of an episode: steps[steps_count], and (steps_count + 1)
 * observations (the first after the reset), obs_bytes each, or NULL. */
typedef struct crafter_traj_data {
  uint32_t steps_count;
  crafter_traj_step *steps;
  uint8_t *obs;
} crafter_traj_data;

/* Reads and checks episode `index`: the chunk's CRC, the compressed
 * stream, its exact length and every step against the chunk header (the
 * actions in range, done on the last step only, the sum of the rewards
 * and the union of the unlocked achievements).  Returns 0, or -1 with a
 * reason; data is then empty. */
int crafter_traj_read_episode(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                              char *error, size_t error_size);
void crafter_traj_data_free(crafter_traj_data *data);

/* The same checks, keeping the steps only (data->obs is NULL): what
 * re-simulating an episode needs, in memory of 16 bytes a step whatever
 * the size of the observations.  crafter_traj_read_episode's memory too
 * follows what the compressed stream really holds, never what a header
 * claims. */
int crafter_traj_read_steps(crafter_traj_reader *reader, size_t index, crafter_traj_data *data,
                            char *error, size_t error_size);

/* The raw bytes of episode `index`'s chunk, CRC-checked (malloc'ed). */
int crafter_traj_read_chunk(crafter_traj_reader *reader, size_t index, uint8_t **chunk,
                            size_t *bytes, char *error, size_t error_size);

/* Whether the bytes start with the trajectory magic. */
int crafter_traj_is_trajectory(const void *data, size_t size);

#endif
