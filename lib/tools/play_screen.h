/* play_screen: crafter-play's frame as text: the local view in colour
 * (half blocks, in 256 colours or 24-bit) or in letters, the vitals,
 * inventory and achievements beside it, a goal above, a message and a help
 * line below; for two players on one keyboard both views side by side.
 * It writes into a string and touches no terminal. */
#ifndef CRAFTER_PLAY_SCREEN_H
#define CRAFTER_PLAY_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "view/textures.h"

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

#endif
