/* play_keys: crafter-play's keyboard and clock, kept apart from the
 * terminal so that they can be tested without one: reading keys out of
 * the bytes a terminal sends, Crafter's keyboard mapping (and that of two
 * players on one keyboard), the commands of play and replay, their help
 * lines, and the frames of real-time play on a clock the caller reads.
 * Nothing here touches a terminal or a clock or keeps global state. */
#ifndef CRAFTER_PLAY_KEYS_H
#define CRAFTER_PLAY_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h" /* CRAFTER_PLAYERS_MAX */

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

/* The help lines of the two modes, and of play by two players. */
extern const char crafter_play_help[];
extern const char crafter_play_replay_help[];
extern const char crafter_play_two_help[];

#endif
