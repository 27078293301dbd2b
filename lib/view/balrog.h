/* balrog: the text BALROG's Crafter wrapper shows a language model.
 *
 * BALROG (balrog-ai/BALROG, balrog/environments/crafter/env.py) describes
 * a step of crafter.Env in two texts made from info['semantic'], the
 * player's position, facing, sleep, health and inventory, and the view
 * parameter: the long-term context (what the player sees, each kind of
 * thing once at its nearest, and what it faces) and the short-term
 * context (its vitals and inventory).  These are those texts to the
 * byte, under BALROG's default settings (unique_items, no precise
 * locations, no items skipped or shown only at their edges) or others it
 * takes; crafter-step(1) spells the wording out, tests/balrog-text.t
 * holds it to BALROG's own code.
 *
 * What is looked at is BALROG's window of the semantic map, the cells
 * info['semantic'][x - view[0]//2 : x + view[0]//2 + 1,
 *                  y - view[1]//2 + 1 : y + view[1]//2]
 * around the player at (x, y), with Python's slicing: a bound past the
 * map is cut to it, and a negative start counts from the map's far end,
 * which near the left or top edge leaves the window empty.  Offsets are
 * taken from the window's cell (view[0]//2, view[1]//2 - 1). */
#ifndef CRAFTER_BALROG_H
#define CRAFTER_BALROG_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"

/* BALROG's settings of its Crafter wrapper (crafter_kwargs of its
 * config.yaml).  All zero is BALROG's default. */
typedef struct crafter_balrog_settings {
  int all_items;        /* unique_items false: every cell in view listed, in the order
                           of the scan, not each kind once at its nearest */
  int precise_location; /* "2 steps north and 3 steps west" for "5 steps to your
                           north-west", "at your location" for none */
  uint32_t skip;        /* skip_items: bit id for a semantic id neither listed nor
                           named as what the player faces ("nothing") */
  uint32_t edge_only;   /* edge_only_items: bit id for a semantic id listed only where
                           a cell of the window beside it (left, right, up, down) holds
                           something else */
} crafter_balrog_settings;

/* Reads settings written as BALROG's keys, "key=value" separated by
 * commas: unique_items and precise_location true or false, skip_items and
 * edge_only_items names of what the text names (water, grass, ..., None,
 * player, cow, ...) joined by '+', or empty for none; a key not given
 * keeps BALROG's default.  Returns 0, or -1 with the reason. */
int crafter_balrog_settings_read(crafter_balrog_settings *settings, const char *text,
                                 char *error, size_t error_size);

/* Player `player`'s long-term context, a NUL, its short-term context and
 * a NUL, into `out` (`size` bytes), under `settings` (NULL: BALROG's
 * defaults).  Returns the bytes of both texts and
 * the NUL between them (strlen of the long, plus 1, plus strlen of the
 * short); a text that does not fit is cut, and both always end with a
 * NUL within `size` (which must be at least 2).  Another player in view
 * (games of several players) is named "player"; a player who left the
 * world gets BALROG's answer for a player not on its map, "Error, you
 * are out of the map.", and its inventory. */
size_t crafter_balrog_text(const crafter_env *env, int player,
                           const crafter_balrog_settings *settings, char *out, size_t size);

#endif
