/* crafter: the public interface of libcrafter, for C programs.
 *
 *   #include <crafter/crafter.h>
 *   cc prog.c $(pkg-config --cflags --libs crafter)
 *
 * Crafter (Hafner, ICLR 2022) exactly: given the same seed, parameters and
 * actions, an env plays as the reference's crafter.Env, step for step.
 * This header and ids.h (the names and numbers of materials, actions,
 * items and achievements) are all a program sees: handles and the
 * functions that work on them, and the few plain structs a caller fills or
 * reads (the parameters, a step's result, a recorded episode's summary).
 * How the engine lays out its memory stays inside the library, so that it
 * can change without breaking programs built against it.
 *
 * Every function that can fail takes `error` and `error_size` and writes
 * a sentence there (never more than error_size bytes, NUL-terminated).
 * The library keeps no global state: handles may be used on different
 * threads, each by one thread at a time.
 *
 * A player is numbered from 0 (Crafter's game has one: 0); a world may
 * hold several (crafter_env_set_players). */
#ifndef CRAFTER_CRAFTER_H
#define CRAFTER_CRAFTER_H

#include <stddef.h>
#include <stdint.h>

#include "ids.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ---- */

/* The arguments of crafter.Env.  Fill with crafter_params_default, then
 * change what differs. */
typedef struct crafter_params {
  int area[2];   /* world width, height */
  int view[2];   /* view grid width, height (local view plus inventory rows) */
  int size[2];   /* observation width, height in pixels */
  int reward;    /* 0: step() reports a reward of 0 */
  long length;   /* time limit in steps; 0 for none */
  int64_t seed;  /* the Env seed */
} crafter_params;

/* Crafter's defaults: area 64x64, view 9x9, size 64x64, reward on,
 * length 10000, seed 0. */
void crafter_params_default(crafter_params *params);

/* Checks parameters; on failure writes a sentence to `error` and returns -1. */
int crafter_params_check(const crafter_params *params, char *error, size_t error_size);

/* ---- configurations (crafter-config(5)) ---- */

/* Every number and rule of a game: Crafter's own, or a YAML file's laid
 * over them. */
typedef struct crafter_config crafter_config;

/* Reads a configuration file (NULL: Crafter's own rules); NULL with a
 * reason.  Free with crafter_config_free, after every env made with it. */
crafter_config *crafter_config_new(const char *path, char *error, size_t error_size);
void crafter_config_free(crafter_config *config);

/* The parameters of the configuration's env section: Crafter's defaults
 * where the file says nothing. */
void crafter_config_params(const crafter_config *config, crafter_params *params);

/* ---- an environment ---- */

typedef struct crafter_env crafter_env;

/* What one step (of one player) hands back. */
typedef struct crafter_step_result {
  double reward;      /* by the config's reward keys; 0 when params.reward is off */
  int done;
  double discount;    /* 0.0 when the player died, else 1.0 */
  uint32_t unlocked;  /* bit i: achievement i unlocked for the first time now */
  double info_reward; /* Crafter's info['reward']: the reward whether params.reward is on
                         or off */
} crafter_step_result;

/* Players a world may hold: Crafter's one, and up to this many sharing it
 * (crafter(7), SEVERAL PLAYERS). */
#define CRAFTER_PLAYERS_MAX 16

/* What a reset returns when the world has no room for every player:
 * crafter_env_no_room says why. */
#define CRAFTER_PLAYERS_UNFIT (-2)

/* Makes an env that plays by `config` (NULL: Crafter's own; it must stay
 * alive until the env is freed, and many envs may share one) with
 * `params` (NULL: Crafter's defaults), which rule over the configuration's
 * env section (crafter_config_params takes the file's).  NULL with a
 * reason. */
crafter_env *crafter_env_new(const crafter_params *params, const crafter_config *config,
                             char *error, size_t error_size);
void crafter_env_free(crafter_env *env);

/* Makes every episode from the next reset a game of `players` players
 * (1 to CRAFTER_PLAYERS_MAX): player 0 where Crafter's player starts, the
 * others on the nearest free cells around it.  0, or -1 with a reason. */
int crafter_env_set_players(crafter_env *env, int players, char *error, size_t error_size);

/* The next reset starts episode `episode` (Crafter counts from 1; the
 * episode's world comes from the Env seed and its number). */
void crafter_env_set_next_episode(crafter_env *env, int64_t episode);

/* Starts the next episode: 0; -1 if memory ran out; or
 * CRAFTER_PLAYERS_UNFIT when the world has no room for every player. */
int crafter_env_reset(crafter_env *env);

/* After a reset: 0 when every player is in the world, else -1 with the
 * reason. */
int crafter_env_no_room(const crafter_env *env, char *error, size_t error_size);

/* One step with an action in [0, CRAFTER_ACTION_COUNT): player 0's, the
 * others (if any) doing nothing. */
void crafter_env_step(crafter_env *env, int action, crafter_step_result *result);

/* One step of every player: actions[p] and results[p] for each of the
 * env's players.  A player's done is its death or the time limit; the
 * world's episode is over when every player's is.  A player who died
 * before gets a reward of 0 and is done again. */
void crafter_env_step_players(crafter_env *env, const int *actions, crafter_step_result *results);

/* The env's parameters, its players, the episode counter (1 after the
 * first reset), the world seed of the episode, the steps taken in it and
 * the daylight (1 by day, down to 0 at night). */
void crafter_env_params(const crafter_env *env, crafter_params *params);
int crafter_env_players(const crafter_env *env);
int64_t crafter_env_episode(const crafter_env *env);
int64_t crafter_env_world_seed(const crafter_env *env);
long crafter_env_steps(const crafter_env *env);
double crafter_env_daylight(const crafter_env *env);

/* The material at a cell (enum crafter_material), CRAFTER_NONE outside the
 * area. */
int crafter_env_material(const crafter_env *env, int x, int y);

/* Player p: the count of an item in its inventory (health, food, drink and
 * energy are items), how many times it unlocked an achievement this
 * episode, whether it sleeps; and where its body stands and which way it
 * faces (each one of -1, 0, 1): 0, or -1 when the player has left the
 * world (it died in a game of several). */
int32_t crafter_env_inventory(const crafter_env *env, int player, int item);
int32_t crafter_env_achievement(const crafter_env *env, int player, int achievement);
int crafter_env_sleeping(const crafter_env *env, int player);
int crafter_env_position(const crafter_env *env, int player, int *x, int *y);
int crafter_env_facing(const crafter_env *env, int player, int *dx, int *dy);

/* ---- observations ----
 *
 * Each observes what player `player` sees: a player whose body is in the
 * world. */

/* Pixels, as Crafter renders them (with its own textures, the bytes of
 * the reference): the textures to draw with, a folder of PNG files named
 * as Crafter's assets or NULL for the built-in ones. */
typedef struct crafter_textures crafter_textures;
crafter_textures *crafter_textures_new(const char *folder, char *error, size_t error_size);
void crafter_textures_free(crafter_textures *textures);

/* A renderer for envs of these parameters, drawing with `textures` (which
 * must outlive it).  NULL with a reason. */
typedef struct crafter_renderer crafter_renderer;
crafter_renderer *crafter_renderer_new(const crafter_textures *textures,
                                       const crafter_params *params, char *error,
                                       size_t error_size);
void crafter_renderer_free(crafter_renderer *renderer);

/* Attaches the renderer to an env (after crafter_env_set_players): from
 * then on every reset and step draws each player's view into `pixels`,
 * player p's size[1] rows of size[0] RGB pixels at p * size[0] * size[1] *
 * 3 (black for a player who left the world).  At night rendering draws
 * noise from the game's generator, as the reference does, so a game with
 * pixels plays on exactly as Crafter's only with its renderer attached
 * from the first reset.  One renderer serves one env. */
void crafter_renderer_attach(crafter_renderer *renderer, crafter_env *env, uint8_t *pixels);

/* info['semantic']: area[0] * area[1] bytes, x-major: material ids,
 * objects as 13 + kind, and in games of several players the other
 * players as CRAFTER_SEMANTIC_OTHER_PLAYER. */
#define CRAFTER_SEMANTIC_OTHER_PLAYER (CRAFTER_MATERIAL_COUNT + CRAFTER_OBJECT_KIND_COUNT)
void crafter_env_semantic(const crafter_env *env, int player, uint8_t *out);

/* The symbolic observation of Craftax-Classic (crafter-protocol(5)):
 * crafter_symbolic_size(players) floats, 1345 for one player, 63 more
 * with several. */
size_t crafter_symbolic_size(int players);
void crafter_render_symbolic(const crafter_env *env, int player, float *out);

/* A text description for language agents; writes at most size bytes,
 * NUL-terminated, and returns the length it needed. */
size_t crafter_render_text(const crafter_env *env, int player, char *out, size_t size);

/* ---- saved states (crafter-state(5)) ---- */

/* Writes the env's whole state into out[0..capacity) when it fits, and
 * returns its size in bytes either way (call with capacity 0 to learn
 * it). */
size_t crafter_state_save(const crafter_env *env, uint8_t *out, size_t capacity);

/* Loads a saved state into an env of the same parameters, configuration
 * and players: it then plays on exactly as the env it was saved from.
 * 0, or -1 with a reason, the env untouched. */
int crafter_state_load(crafter_env *env, const uint8_t *state, size_t size, char *error,
                       size_t error_size);

/* ---- trajectory files (crafter-trajectory(5)) ---- */

/* Writing: a recording of an env's episodes, each player's episode as
 * crafter-step --record keeps it (the actions and what each step
 * returned; no observations), which crafter-dataset, crafter-score and
 * crafter-play read.  Open it once the env has its players
 * (crafter_env_set_players).  `config` is the env's (NULL: Crafter's own
 * rules), and must outlive the recording; `agent` (at most 16 bytes)
 * names who chose the actions.  NULL with a reason. */
typedef struct crafter_recording crafter_recording;
crafter_recording *crafter_recording_open(const char *path, const crafter_env *env,
                                          const crafter_config *config, const char *agent,
                                          char *error, size_t error_size);

/* After each reset of the env: starts an episode of every player. */
int crafter_recording_start(crafter_recording *recording, const crafter_env *env, char *error,
                            size_t error_size);

/* After each step of the env: the actions and results of every player
 * (one for Crafter's game).  A world's episode is written to the file
 * once every player's has ended; steps after that are not recorded. */
int crafter_recording_step(crafter_recording *recording, const crafter_env *env,
                           const int *actions, const crafter_step_result *results, char *error,
                           size_t error_size);

/* Writes an episode under way as cut, closes the file and frees the
 * recording.  0, or -1 with a reason. */
int crafter_recording_close(crafter_recording *recording, char *error, size_t error_size);

/* Reading: the intact episodes of a file, found even past damage.  A
 * file of Crafter's episodes: one of another game the toolkit plays
 * (Craftax-Classic's, format version 5) is refused, the message naming
 * both games. */
typedef struct crafter_traj_reader crafter_traj_reader;
crafter_traj_reader *crafter_traj_open(const char *path, char *error, size_t error_size);
void crafter_traj_close(crafter_traj_reader *reader);

/* The parameters and players of the recording, and who chose the
 * actions ("random", "external"...). */
void crafter_traj_params(const crafter_traj_reader *reader, crafter_params *params);
int crafter_traj_players(const crafter_traj_reader *reader);
const char *crafter_traj_agent(const crafter_traj_reader *reader);

/* How an episode ended. */
enum crafter_traj_end {
  CRAFTER_TRAJ_CUT = 0,        /* the recording stopped before the episode ended */
  CRAFTER_TRAJ_TIME_LIMIT = 1, /* done at the time limit */
  CRAFTER_TRAJ_DIED = 2,       /* done because the player died */
  CRAFTER_TRAJ_GOAL = 3        /* done because the goal was met */
};

/* Name of an end: "cut", "time_limit", "died", "goal". */
const char *crafter_traj_end_name(int end);

/* One episode of a player, as the file sums it up. */
typedef struct crafter_traj_summary {
  int64_t seed;        /* the Env seed */
  int64_t episode;     /* the Env's episode counter, from 1 */
  int64_t world_seed;
  int player;          /* whose episode it is: 0 in Crafter's game */
  long steps;
  double reward;       /* the sum of info['reward'] over its steps */
  int end;             /* enum crafter_traj_end */
  int32_t achievements[CRAFTER_ACHIEVEMENT_COUNT]; /* counts at the end */
  int32_t inventory[CRAFTER_ITEM_COUNT];           /* at the end */
} crafter_traj_summary;

/* The number of episodes, and episode `index`'s summary (0, or -1 for an
 * index out of range). */
size_t crafter_traj_episode_count(const crafter_traj_reader *reader);
int crafter_traj_summary_of(const crafter_traj_reader *reader, size_t index,
                            crafter_traj_summary *summary);

/* Reads and checks episode `index`'s actions into actions[0 .. steps)
 * (its summary's steps, at most `capacity`): with the parameters, the Env
 * seed and the episode counter they play the episode again.  0, or -1
 * with a reason. */
int crafter_traj_read_actions(crafter_traj_reader *reader, size_t index, uint8_t *actions,
                              size_t capacity, char *error, size_t error_size);

/* ---- scores ---- */

/* The Crafter score of success rates in percent (one per achievement: the
 * percentage of episodes that unlocked it): exp(mean(ln(1 + p))) - 1,
 * leaving out NaN rates; NaN when all are. */
double crafter_score_of_rates(const double *percents, size_t count);

#ifdef __cplusplus
}
#endif

#endif
