/* episode: one environment's life for every program: the env, how each
 * episode starts (a fresh world, a level of a set, a world file; a goal
 * drawn from a task pool), the task tracker, what a step hands back (the
 * reward once, from the config, the goal's reward added; the achievements
 * unlocked; whether the goal was met; done; discount), the observation of
 * the kind asked for, and the recording of each episode.  crafter-step's
 * sessions, the batch's threads, crafter-dataset record, crafter-play and
 * crafter-bench all run their environments on it.
 *
 * A runner owns its env, renderer and recorder and shares nothing
 * writable, so runners may be stepped on different threads. */
#ifndef CRAFTER_EPISODE_H
#define CRAFTER_EPISODE_H

#include <stddef.h>
#include <stdint.h>

#include "game/config.h"
#include "game/env.h"
#include "game/tasks.h"
#include "run/levels.h"
#include "run/traj.h"
#include "run/traj_reader.h"
#include "run/traj_writer.h"
#include "run/worldfile.h"
#include "view/obskind.h"
#include "view/render.h"
#include "view/textures.h"

/* What every runner of a run shares; read only while they run. */
typedef struct crafter_episode_options {
  crafter_params params;          /* the run's; runner i plays seed params.seed + i */
  const crafter_config *config;   /* the rules; NULL for Crafter's */
  int obs_kind;                   /* enum crafter_obs_kind: what crafter_episode_observe makes */
  crafter_obs_settings obs_settings; /* and how (BALROG's settings) */
  const crafter_textures *textures; /* for pixels; NULL: no pixels are drawn */
  int64_t first_episode;          /* the episode counter of the first episode */
  const crafter_world_map *world; /* every episode on this map, or NULL */
  const crafter_level_set *levels; /* every episode on a level of this set, or NULL */
  int level_order;                /* enum crafter_level_order */
  int level_envs;                 /* runners sharing the set's sequential order (>= 1) */
  const crafter_task_pool *tasks; /* a goal for every episode, or NULL */
  const crafter_traj_header *recording; /* keep each episode in a recorder of this
                                           header, or NULL */
  int players;                    /* players sharing each world (0 or 1: Crafter's one) */
} crafter_episode_options;

/* What a step (or a start) hands back. */
typedef struct crafter_step_outcome {
  double reward;      /* what the agent gets: the game's reward (0 with reward off), plus
                         the task's reward on the step that meets the goal */
  double info_reward; /* Crafter's info['reward']: the game's reward, even with reward off */
  uint32_t unlocked;  /* achievements unlocked for the first time at this step */
  int goal;           /* 1 when this step met the episode's goal */
  int done;           /* the episode ended at this step: death, time limit, goal or the
                         task's own step limit */
  double discount;    /* 0 when the player died or met the goal, else 1 */
  int finished;       /* this step ended the episode: its first done (a step after the
                         end, which plays on as crafter.Env does, is done again but does
                         not finish anything); with several players, the player's */
  int over;           /* the world's episode ended at this step: every player's has
                         (with one player, finished) */
} crafter_step_outcome;

typedef struct crafter_episode crafter_episode;

/* Runner `index` of a run: its env (seed options->params.seed + index,
 * next episode options->first_episode), and with levels its picker (env
 * `index` of options->level_envs).  `share` (or NULL): a runner of the same
 * run whose scaled textures it borrows, which must outlive it.  NULL with
 * a reason. */
crafter_episode *crafter_episode_new(const crafter_episode_options *options, int index,
                                     const crafter_episode *share, char *error,
                                     size_t error_size);
void crafter_episode_free(crafter_episode *episode);

/* Where the observations go from now on: a buffer of
 * crafter_episode_obs_bytes() that the caller keeps alive, or NULL for the
 * runner's own.  Pixels are drawn there at every start and step; other
 * kinds when crafter_episode_observe is called. */
void crafter_episode_set_obs_buffer(crafter_episode *episode, uint8_t *buffer);

/* The bytes of the observations of the options' kind, every player's one
 * after another (for text, the capacity: a text observation is
 * NUL-terminated within its player's part), and of one player's. */
size_t crafter_episode_obs_bytes(const crafter_episode *episode);
size_t crafter_episode_player_obs_bytes(const crafter_episode *episode);
int crafter_episode_players(const crafter_episode *episode);

/* What the next start plays: episode counter `episode` (set_next), or
 * the level of index `level` of the set (set_level) instead of the
 * picker's choice.  Each holds for one start. */
void crafter_episode_set_next(crafter_episode *episode, int64_t number);
void crafter_episode_set_level(crafter_episode *episode, int level);

/* Starts the next episode: a level of the set (the picker's, or the one
 * set), a world file, or a fresh world, made in `prepared` ahead of time
 * when it is that episode's (NULL: made now); then the goal, the
 * recording, and the first observation.  0, or -1 with a reason;
 * CRAFTER_PLAYERS_UNFIT (game.h) with the reason when the world cannot
 * hold the players (no room, or a world file with more players '@'). */
int crafter_episode_start(crafter_episode *episode, crafter_prepared *prepared, char *error,
                          size_t error_size);

/* One step with an action in [0, CRAFTER_ACTION_COUNT).  A step after
 * the episode ended plays on, as crafter.Env does, and is not recorded.
 * 0, or -1 when recording ran out of memory (the step was played). */
int crafter_episode_step(crafter_episode *episode, int action, crafter_step_outcome *out);

/* One step of every player: actions[p], out[p] for each of the runner's
 * players.  A player's episode ends at its death, the time limit or its
 * goal (out[p].finished once); it stays in the world unless it died.  The
 * world's episode ends when every player's has (out[*].over). */
int crafter_episode_step_players(crafter_episode *episode, const int *actions,
                                 crafter_step_outcome *out);

/* The observation of the options' kind now, in the buffer (made at most
 * once between two steps); its bytes in *bytes (text: its length). */
const uint8_t *crafter_episode_observe(crafter_episode *episode, size_t *bytes);

/* Player p's observation (made with every player's), and its bytes. */
const uint8_t *crafter_episode_observe_player(crafter_episode *episode, int p, size_t *bytes);

/* Whether the episode has ended (done), whether it is under way with a
 * step not yet stored (a cut if it is given up), and its steps so far. */
int crafter_episode_ended(const crafter_episode *episode);
/* Whether player p's episode has ended (its death, the time limit, its goal). */
int crafter_episode_player_done(const crafter_episode *episode, int p);
int crafter_episode_unfinished(const crafter_episode *episode);

/* The recorder holding the episode (NULL when not recording): once it
 * ended, or to store it as cut. */
crafter_traj_recorder *crafter_episode_recorder(crafter_episode *episode);

/* Stores the episode in `writer` (a file of the options' recording header):
 * every player's chunk, in the players' order, as cut if it has not
 * ended.  0, or -1 with a reason. */
int crafter_episode_store(crafter_episode *episode, crafter_traj_writer *writer, char *error,
                          size_t error_size);

/* Hands over the recorder of the episode that ended and records the next
 * episodes with `fresh` (a recorder of the same header), so that the
 * ended one can be stored later while the runner plays on. */
crafter_traj_recorder *crafter_episode_swap_recorder(crafter_episode *episode,
                                                     crafter_traj_recorder *fresh);

/* The same for player p's recorder (p = 0: crafter_episode_swap_recorder). */
crafter_traj_recorder *crafter_episode_swap_player_recorder(crafter_episode *episode, int p,
                                                            crafter_traj_recorder *fresh);

/* The env; the goal (NULL without tasks), its candidate in the pool, its
 * wording and whether it was met at the last step. */
crafter_env *crafter_episode_env(crafter_episode *episode);
const crafter_env *crafter_episode_env_const(const crafter_episode *episode);
const crafter_task *crafter_episode_task(const crafter_episode *episode);
int crafter_episode_candidate(const crafter_episode *episode);
int crafter_episode_text(const crafter_episode *episode);
const char *crafter_episode_instruction(const crafter_episode *episode);
crafter_task_tracker *crafter_episode_tracker(crafter_episode *episode);

/* The same for player p of a game of several (p = 0: the ones above). */
const crafter_task *crafter_episode_player_task(const crafter_episode *episode, int p);
int crafter_episode_player_candidate(const crafter_episode *episode, int p);
int crafter_episode_player_text(const crafter_episode *episode, int p);
const char *crafter_episode_player_instruction(const crafter_episode *episode, int p);
crafter_task_tracker *crafter_episode_player_tracker(crafter_episode *episode, int p);

/* The level being played (its number, from 1 as records show it), or 0
 * without levels. */
int64_t crafter_episode_level(const crafter_episode *episode);

/* Replays begin here: starts `env` (made for the file's parameters and
 * configuration) on episode `stored` of a file of `header` -- its Env seed
 * and episode counter, on the file's world map if it has one -- so that its
 * stored actions play it again.  With `tracker` (or NULL), *task is the
 * episode's goal, begun in the tracker for the chunk's player, or NULL.  The caller compares the
 * world seed with the stored one.  0, or -1 with a reason. */
int crafter_episode_start_stored(crafter_env *env, const crafter_traj_header *header,
                                 const crafter_traj_episode *stored, crafter_task_tracker *tracker,
                                 const crafter_task **task, char *error, size_t error_size);

/* A world episode replayed from its stored chunks, one a player (one
 * chunk with one player): every player acts by its own chunk's actions
 * until the chunk ends and then does nothing, as the runner played it,
 * and each player's goal is tracked. */
typedef struct crafter_stored_world {
  int players;                    /* the env's */
  const crafter_traj_data *data;  /* [players]: each player's steps, the caller's */
  crafter_task_tracker tracker[CRAFTER_PLAYERS_MAX];
  const crafter_task *task[CRAFTER_PLAYERS_MAX]; /* each player's goal, or NULL */
  uint32_t t;                     /* steps taken */
  int actions[CRAFTER_PLAYERS_MAX];                 /* of the last step */
  crafter_step_result results[CRAFTER_PLAYERS_MAX]; /* of the last step */
  int goal[CRAFTER_PLAYERS_MAX];  /* the last step met the player's goal */
} crafter_stored_world;

/* Starts `env` (made for the file's parameters, configuration and
 * players) on the world episode whose player p's chunk is stored[p] with
 * the steps data[p], for every player of the env: crafter_episode_start_stored
 * with every player's goal begun.  A world that starts afresh forgets
 * the steps taken.  The caller compares the world seed with the stored
 * one.  0, or -1 with a reason. */
int crafter_stored_world_start(crafter_stored_world *world, crafter_env *env,
                               const crafter_traj_header *header,
                               const crafter_traj_episode *const *stored,
                               const crafter_traj_data *data, char *error, size_t error_size);

/* Plays the next step: each player's stored action while its chunk has
 * steps, else noop; the results and goals of the players who played. */
void crafter_stored_world_step(crafter_stored_world *world, crafter_env *env);

/* Whether player p played the last step by its chunk (it had not ended). */
int crafter_stored_world_played(const crafter_stored_world *world, int p);

void crafter_stored_world_free(crafter_stored_world *world);

/* What a runner keeps beyond its env, its trackers and its observations,
 * for saved states (state.h): whether an episode started and ended, its
 * steps, which players' episodes ended, the level held for the next start,
 * each player's goal (its candidate in the pool and its wording) and the
 * level picker.  Setting it forgets the observations made, so that the
 * next crafter_episode_observe makes them again. */
typedef struct crafter_episode_progress {
  int started, ended, steps;
  uint32_t done;
  int next_level;
  int candidate[CRAFTER_PLAYERS_MAX], text[CRAFTER_PLAYERS_MAX];
  crafter_level_picker picker;
} crafter_episode_progress;
void crafter_episode_get_progress(const crafter_episode *episode,
                                  crafter_episode_progress *progress);
void crafter_episode_set_progress(crafter_episode *episode,
                                  const crafter_episode_progress *progress);

/* The options the runner was made with. */
const crafter_episode_options *crafter_episode_options_of(const crafter_episode *episode);

/* Checksums of the rules a runner plays by (its configuration, goals,
 * level set and world file), which a saved state must have been saved
 * under (state.h): worked out by the state module on a runner's first
 * save or load, and kept in the runner, since a task file's checksum
 * costs more than a state. */
typedef struct crafter_rules_print {
  int ready;
  uint32_t flags; /* CRAFTER_STATE_GOALS, _LEVELS, _WORLD: what the runner has */
  uint32_t config, goals, levels, world;
} crafter_rules_print;
crafter_rules_print *crafter_episode_rules_print(crafter_episode *episode);

/* The renderer drawing the pixels (NULL without), for a runner to share. */
const crafter_renderer *crafter_episode_renderer(const crafter_episode *episode);

#endif
