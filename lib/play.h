/* play: what crafter-play does between the keyboard and the screen, kept
 * apart from the terminal so that it can be tested without one: reading
 * keys out of the bytes a terminal sends, Crafter's keyboard mapping, the
 * frames of real-time play on a clock the caller reads, a game that
 * records what it plays and says why a failed action did nothing, the
 * replay of a recorded episode, and the frame: the local view in colour
 * (half blocks) or in letters, the vitals, inventory and achievements
 * beside it, a message and a help line; for two players on one keyboard
 * their keys, their game and a frame of both views side by side.
 *
 * Nothing here touches a terminal or a clock or keeps global state; the
 * program owns raw mode, signals and time. */
#ifndef CRAFTER_PLAY_H
#define CRAFTER_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "env.h"
#include "episode.h"
#include "levels.h"
#include "tasks.h"
#include "textures.h"
#include "traj.h"
#include "worldfile.h"
#include "run.h"

/* ---- keys ---- */

/* Keys beyond bytes: above every Unicode code point. */
enum crafter_play_key {
  CRAFTER_KEY_UP = 0x110001,
  CRAFTER_KEY_DOWN,
  CRAFTER_KEY_RIGHT,
  CRAFTER_KEY_LEFT,
  CRAFTER_KEY_ESCAPE,  /* the Escape key alone */
  CRAFTER_KEY_UNKNOWN  /* any other escape sequence or non-ASCII character */
};

/* Reads the first key out of `length` bytes a terminal sent: an ASCII
 * byte is its own key; arrows come as ESC [ A..D or ESC O A..D (with
 * modifiers, ESC [ 1 ; m A); any other escape sequence or UTF-8 character
 * is one CRAFTER_KEY_UNKNOWN.  Returns the bytes used, or 0 when the bytes
 * begin an escape sequence that may not have fully arrived: wait a moment
 * for more, then call again with `final` set, which takes a lone ESC as
 * the Escape key. */
size_t crafter_play_decode_key(const uint8_t *bytes, size_t length, int final, int *key);

/* Crafter's keyboard (crafter/run_gui.py): a, d, w, s or the arrows move;
 * space do; tab sleep; r place_stone; t place_table; f place_furnace;
 * p place_plant; 1..6 make the wood, stone and iron pickaxe, then the
 * wood, stone and iron sword; and, since play here is turn-based, '.' or
 * n for noop.  Letters in either case.  Returns the action, -1 for other
 * keys. */
int crafter_play_action_of_key(int key);

/* The keyboard of a game of `players` players on one keyboard (crafter-play
 * --players 2).  With one player it is crafter_play_action_of_key, player
 * 0's.  With two, player 1 has the arrows to move, Enter (CR or LF) to do,
 * Backspace (DEL or ^H) to sleep, h j k l to place a stone, a table, a
 * furnace, a plant, 7 8 9 to make the wood, stone and iron pickaxe and
 * u i o the wood, stone and iron sword (letters in either case); player 0
 * keeps every other key of crafter_play_action_of_key, w a s d to move and
 * space to do among them; '.' and n are everyone's wait.  Returns the
 * action and sets *player to the player whose key it is (-1 for a wait,
 * which is every player's), or returns -1 for other keys. */
int crafter_play_player_action_of_key(int key, int players, int *player);

enum crafter_play_command {
  CRAFTER_PLAY_NOTHING = 0,
  CRAFTER_PLAY_QUIT,    /* q, Q, Escape, ^C, ^D */
  CRAFTER_PLAY_REDRAW,  /* ^L */
  CRAFTER_PLAY_PAUSE,   /* replay: space */
  CRAFTER_PLAY_FORWARD, /* replay: '.', n or right arrow: one step */
  CRAFTER_PLAY_BACK,    /* replay: ',', b or left arrow: one step back */
  CRAFTER_PLAY_FASTER,  /* '+' or '=' */
  CRAFTER_PLAY_SLOWER   /* '-' or '_' */
};

/* What a key asks of the program: in play (replay 0) only quit, redraw
 * and the speed keys are commands, the rest are actions; in a replay every
 * key above. */
int crafter_play_command_of_key(int key, int replay);

/* ---- real time ---- */

/* The frames of real-time play, as Crafter's own GUI (run_gui.py) plays:
 * one step every 1/fps seconds, with the last action key pressed during
 * that frame, or noop when none was.  The clock is the caller's: times
 * are milliseconds from any fixed origin, so that the logic can be driven
 * by a clock of one's own.  A frame that ends late is taken once, and the
 * next is a whole frame later: time lost is not made up. */
typedef struct crafter_play_frames {
  int fps;
  long start;   /* when frame 0 of the present run began */
  long frame;   /* frames taken since then */
  int pending[CRAFTER_PLAYERS_MAX]; /* each player's action of the frame under way, -1 for
                                       none yet */
} crafter_play_frames;

/* Starts frames at `fps` (1..1000) at time `now`, no key pressed yet. */
void crafter_play_frames_start(crafter_play_frames *frames, int fps, long now);

/* An action key pressed: it is the frame's action unless another follows
 * within the frame.  The first is player 0's; in a game of several
 * players each player has its own, player p's (0 .. CRAFTER_PLAYERS_MAX - 1)
 * by the second. */
void crafter_play_frames_key(crafter_play_frames *frames, int action);
void crafter_play_frames_key_player(crafter_play_frames *frames, int p, int action);

/* Milliseconds from `now` until the frame under way ends; 0 when it has. */
long crafter_play_frames_wait(const crafter_play_frames *frames, long now);

/* When the frame under way has ended at `now`: returns its action (noop
 * when no key was pressed) and begins the next frame.  Else -1. */
int crafter_play_frames_take(crafter_play_frames *frames, long now);

/* The same for a game of `players` players: when the frame has ended,
 * fills actions[p] with each player's action of the frame (noop for a
 * player who pressed none), begins the next frame and returns 1; else 0. */
int crafter_play_frames_take_players(crafter_play_frames *frames, long now, int players,
                                     int *actions);

/* ---- colours ---- */

enum crafter_play_mode {
  CRAFTER_PLAY_GLYPHS = 0,   /* one letter per cell, no colour */
  CRAFTER_PLAY_COLOR_256,    /* half blocks in the 256-colour palette */
  CRAFTER_PLAY_TRUECOLOR     /* half blocks in 24-bit colour */
};

/* The mode output wants: glyphs, which need no escape sequence, when it
 * is not a terminal (`terminal` 0: a pipe or a file); on a terminal, from
 * $COLORTERM and $TERM (either may be NULL): truecolor when COLORTERM is
 * truecolor or 24bit, glyphs when TERM is dumb, else 256 colours. */
int crafter_play_mode_for_terminal(int terminal, const char *colorterm, const char *term);

/* The nearest colour of the xterm 256-colour palette among the 6x6x6 cube
 * (16..231) and the grey ramp (232..255). */
int crafter_play_rgb_to_256(int red, int green, int blue);

/* ---- text ---- */

/* A growing string; `failed` is set when memory ran out. */
typedef struct crafter_play_text {
  char *data;
  size_t length, capacity;
  int failed;
} crafter_play_text;

void crafter_play_text_free(crafter_play_text *text);

/* ---- the frame ---- */

typedef struct crafter_play_screen crafter_play_screen;

/* A screen for envs of these parameters in a mode; colour modes draw with
 * `textures`, which must outlive the screen (unused for glyphs, may be
 * NULL then).  `cell_rows` is the terminal rows a cell takes in colour
 * (a cell is twice as many columns wide, each row two pixels high), 0 to
 * choose for each frame the larger of 3 and 4 that fits the terminal with
 * the panel beside the view; when neither does, the sprites would blur,
 * and that frame is drawn in letters.  NULL with a reason. */
crafter_play_screen *crafter_play_screen_new(const crafter_params *params, int mode,
                                             const crafter_textures *textures, int cell_rows,
                                             char *error, size_t error_size);
void crafter_play_screen_free(crafter_play_screen *screen);

/* What the frame says besides the env's own state. */
typedef struct crafter_play_status {
  const char *title;    /* first line of the panel, e.g. "Crafter  seed 1  episode 1" */
  const char *progress; /* after the step count, e.g. "of 120, paused"; may be NULL */
  double reward;        /* the reward of the episode so far */
  const char *message;  /* the latest event, shown under the view; may be NULL */
  const char *help;     /* the keys, wrapped over the last lines */
  const char *instruction; /* the episode's goal in words, shown above the view; may be
                              NULL */
} crafter_play_status;

/* Draws the frame of player `player` (0 in Crafter's game of one; in a
 * replay, the recorded episode's player): its view and panel, for a
 * terminal of `columns` x `rows` (0 for no limit) into `out` (emptied
 * first): lines separated by '\n', without a final
 * one, with colour escapes but no cursor movement, each line no wider
 * than `columns` and at most `rows` lines.  The message is wrapped over
 * up to three lines, the keys below it; the panel drops its blank lines,
 * pairs the vitals and runs the lists on after their headings when it
 * would not fit the rows otherwise, and gives the achievements as a count
 * alone when even that does not fit.  An instruction goes first, over up
 * to two lines.  In colour the local view is
 * rendered as the pixel observation is (daylight, night, sleep), from the
 * env's state; the night noise comes from a copy of its generator, so the
 * game is left exactly as it was.  Returns 0, or -1 when memory ran
 * out. */
int crafter_play_draw(crafter_play_screen *screen, crafter_env *env, int player,
                      const crafter_play_status *status, int columns, int rows,
                      crafter_play_text *out);

/* The frame of a game of several players (crafter-play --players 2): the
 * views of players 0 .. players - 1 side by side, player 0 on the left,
 * each drawn as crafter_play_draw draws player p with status[p] (its help
 * unused): its goal above, its view, its panel beside
 * or under the view, its message below; the halves' goals, views and
 * messages begin on the same rows.  The keys `help` (may be NULL) are
 * wrapped under them all, across the whole width.  A player who has left
 * the world (it died) has a box saying so where its view was.  Each half
 * gets an equal share of `columns` (0: each takes its natural width, the
 * message wrapped at 80, and the next begins after the widest line of the
 * one before); `rows` (0 for no limit) is the whole frame's.  The night
 * noise of the views comes from one copy of the game's generator, view
 * after view: the game is left exactly as it was.  Returns 0, or -1 when
 * memory ran out. */
int crafter_play_draw_players(crafter_play_screen *screen, crafter_env *env, int players,
                              const crafter_play_status *status, const char *help, int columns,
                              int rows, crafter_play_text *out);

/* The terminal rows a cell takes in the last frame drawn (1 for glyphs). */
int crafter_play_screen_cell_rows(const crafter_play_screen *screen);

/* The mode of the last frame drawn: the screen's, or glyphs where colour
 * did not fit. */
int crafter_play_screen_mode(const crafter_play_screen *screen);

/* ---- a game that records ---- */

/* What a game of several players keeps of each player's episode. */
typedef struct crafter_play_side {
  double reward;      /* of the player's episode so far */
  int over;           /* the player's episode has ended: 0, or enum crafter_traj_end */
  char message[512];  /* the player's latest event, or why its action did nothing */
} crafter_play_side;

typedef struct crafter_play_game {
  crafter_episode *runner;  /* the env, its episodes, goals and recording */
  crafter_episode_options episode;
  crafter_traj_header header;
  const crafter_run *run;   /* what is played (its observations none, its players at most
                               CRAFTER_PLAYERS_MAX, its recording of one player only); must
                               outlive the game with its files */
  crafter_traj_writer *writer;
  double reward;            /* of the episode so far (one player) */
  int over;                 /* the episode has ended: 0, or enum crafter_traj_end (with
                               several players: every player's has, and this is
                               player 0's end) */
  char message[512];        /* the latest event, or why the action did nothing (one
                               player) */
  int record_failed;
  char record_error[300];
  int players;              /* players sharing the world: 1, or more */
  crafter_play_side side[CRAFTER_PLAYERS_MAX]; /* each player's, with several players */
} crafter_play_game;

/* Makes the env, opens the recording and starts the first episode.
 * Returns 0, or -1 with a reason (the game is then freed). */
int crafter_play_game_init(crafter_play_game *game, const crafter_run *run, char *error,
                           size_t error_size);

/* One step with an action; records it; when the episode ends (death, the
 * time limit, or its goal met) stores it and sets `over`.  Does nothing
 * once the episode is over.  With several players it is player 0's
 * action, the others waiting (noop). */
void crafter_play_game_act(crafter_play_game *game, int action);

/* One step of every player, actions[p] for player p (one player: as
 * crafter_play_game_act).  Each player's reward, end and message go to
 * side[p]: a player's episode ends at its death, the time limit or its
 * goal, and the game's (`over`) when every player's has, the others
 * playing on meanwhile.  Does nothing once the game is over. */
void crafter_play_game_act_players(crafter_play_game *game, const int *actions);

/* Whether player p still acts: the game is not over and p has not died. */
int crafter_play_game_player_active(crafter_play_game *game, int p);

/* Whether time should pass by itself: some player still acts, and every
 * player who still acts sleeps. */
int crafter_play_game_asleep(crafter_play_game *game);

/* The game's env, and its episode's goal in words (NULL without tasks). */
crafter_env *crafter_play_game_env(crafter_play_game *game);
const char *crafter_play_game_instruction(const crafter_play_game *game);
const char *crafter_play_game_player_instruction(const crafter_play_game *game, int p);

/* Starts the next episode.  Returns 0, or -1 with a reason. */
int crafter_play_game_next_episode(crafter_play_game *game, char *error, size_t error_size);

/* Stores an episode cut short (if it has steps), closes the recording and
 * frees the game.  Returns 0, or -1 with a reason when recording failed at
 * any time. */
int crafter_play_game_finish(crafter_play_game *game, char *error, size_t error_size);

/* ---- a replay ---- */

typedef struct crafter_play_replay {
  crafter_env env;
  crafter_traj_reader *reader;
  crafter_traj_header header;
  crafter_traj_episode episode;   /* the episode shown */
  size_t index;                   /* of the episode in the file */
  /* A file of several players: the episode is player `player`'s, and its
   * world is replayed with every player acting by its own chunk (the
   * chunks of the world, `first` the index of player 0's); the view is
   * the player's, the others in it. */
  int players;
  int player;
  size_t first;
  crafter_traj_episode episodes[CRAFTER_PLAYERS_MAX]; /* of the world, each player's */
  crafter_traj_data data[CRAFTER_PLAYERS_MAX];        /* their steps */
  uint32_t length;                /* the steps of the episode shown */
  crafter_stored_world replayed;  /* the world as it is replayed, with every player's goal */
  const crafter_world_map *world;
  long t;                         /* steps taken */
  double reward;                  /* their info['reward'] summed */
  long mismatch;                  /* first step (from 1) that differs from the file, or -1 */
  char mismatch_reason[200];      /* what differs there */
  char message[512];
} crafter_play_replay;

/* Opens a trajectory file and starts episode `index` (from 0) at step 0,
 * re-simulated from its parameters, seeds and actions (in a file of
 * several players, its world's, every player's) with `config` and
 * `world` (as the recording was made; NULL for Crafter's own).  Returns
 * 0, 1 with a reason for a file that cannot be read or an index out of
 * range, -1 with a reason when memory ran out. */
int crafter_play_replay_open(crafter_play_replay *replay, const char *path, size_t index,
                             const crafter_config *config, const crafter_world_map *world,
                             char *error, size_t error_size);

/* Moves to step t (0 .. the episode's length), forward by stepping, back
 * by re-simulating from the start.  Each step is compared with the file,
 * every player's that played it: the reward, done, death, the goal and
 * the achievements unlocked; the first difference sets `mismatch` and the
 * message.  Returns 0, or -1 with a reason. */
int crafter_play_replay_seek(crafter_play_replay *replay, long t, char *error,
                             size_t error_size);

void crafter_play_replay_free(crafter_play_replay *replay);

/* The help lines of the two modes, and of play by two players. */
extern const char crafter_play_help[];
extern const char crafter_play_replay_help[];
extern const char crafter_play_two_help[];

/* The goal of the episode a replay plays, in the words the recording
 * gave it (NULL for none). */
const char *crafter_play_replay_instruction(const crafter_play_replay *replay);

/* ---- the program ---- */

/* What crafter-play's command line asks for. */
typedef struct crafter_play_options {
  const char *program;      /* for messages: "crafter-play" */
  crafter_run run;          /* what is played: its players 0 or 1 for one, 2 for two on one
                               keyboard; its textures those the screen draws with */
  int64_t episode_index;
  int glyphs, colors, cell_rows, speed, no_wait, fps;
  int interactive;          /* a terminal to take: not --keys, not --no-wait */
  const char *replay_path, *keys;
} crafter_play_options;

/* Runs crafter-play: opens what the options name, then plays in the
 * terminal (or the keys of --keys, or the replay), giving the terminal back
 * however it ends.  Returns the exit status, after saying what failed. */
int crafter_play_main(crafter_play_options *options);

#endif
