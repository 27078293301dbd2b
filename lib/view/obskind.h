/* obskind: the kinds of observation, in one table.
 *
 * A kind is a row of the table in obskind.c: its name (crafter-step
 * --obs), the code trajectory headers store it by (crafter-trajectory(5))
 * and its id in the binary protocol (crafter-protocol(5)), the element
 * type and shape of one player's observation, how a JSON line gives it,
 * and the maker that fills a player's observation.  Every module that
 * treats kinds alike looks them up here.  Adding a kind is an enum member,
 * a row and its maker (and its documentation); the codes and ids of the
 * kinds there never change, as files and streams carry them. */
#ifndef CRAFTER_OBSKIND_H
#define CRAFTER_OBSKIND_H

#include <stddef.h>
#include <stdint.h>

#include "game/env.h"
#include "view/balrog.h"

/* The kinds; each is its row's index in the table. */
enum crafter_obs_kind {
  CRAFTER_OBS_NONE = 0,
  CRAFTER_OBS_PIXELS,
  CRAFTER_OBS_SEMANTIC,
  CRAFTER_OBS_SYMBOLIC,
  CRAFTER_OBS_TEXT,
  CRAFTER_OBS_BALROG,
  CRAFTER_OBS_KIND_COUNT
};

/* The type of an observation's elements, numbered as the binary
 * protocol's header numbers them. */
enum crafter_obs_element {
  CRAFTER_OBS_ELEMENT_NONE = 0,
  CRAFTER_OBS_ELEMENT_UINT8 = 1,
  CRAFTER_OBS_ELEMENT_FLOAT32 = 2
};

/* How the "obs" key of a JSON line gives an observation. */
enum crafter_obs_json {
  CRAFTER_OBS_JSON_BASE64 = 0, /* its bytes in base64 */
  CRAFTER_OBS_JSON_NUMBERS,    /* a list of its float32 values */
  CRAFTER_OBS_JSON_STRING,     /* a string of its text */
  CRAFTER_OBS_JSON_CONTEXTS     /* {"long_term_context", "short_term_context"}: its two
                                   texts, each ended by a NUL */
};

/* How a run wants its observations made, beyond their kind: BALROG's
 * settings for balrog.  All zero is every kind's default. */
typedef struct crafter_obs_settings {
  crafter_balrog_settings balrog;
} crafter_obs_settings;

/* Makes player `player`'s observation of the env as it is now into `out`
 * (`size` bytes, crafter_obs_kind_bytes'); `instruction` is the player's
 * goal in words, or NULL; `settings` how the run wants it made, NULL for
 * the defaults.  A player who left the world (several players)
 * has an observation too.  Returns the bytes made: `size`, or for text
 * its length (NUL-terminated within `size`; for two texts, both and the
 * NUL between them). */
typedef size_t (*crafter_obs_make_fn)(const crafter_env *env, int player, const char *instruction,
                                      const crafter_obs_settings *settings, uint8_t *out,
                                      size_t size);

typedef struct crafter_obs_kind_info {
  const char *name;
  int traj_code;   /* the code of a trajectory header; -1: never stored */
  int protocol_id; /* the binary protocol's observation kind; -1: JSON lines only */
  int element;     /* enum crafter_obs_element */
  int fixed;       /* 1: a run's observations all have the same bytes (they can be stored
                      and framed); 0: text, of any length up to a capacity */
  int json;        /* enum crafter_obs_json */
  int drawn;       /* 1: drawn by a renderer attached to the env at every start and
                      step, with the night's draws from its generator (render.h), which
                      needs textures: pixels; 0: made by `make` when asked */
  /* One player's shape as the binary protocol's header gives it, in
   * elements (for text, the capacity); its bytes are their product times
   * the element's size.  NULL: none. */
  void (*shape)(const crafter_params *params, int players, uint32_t shape[3]);
  crafter_obs_make_fn make; /* NULL for none and drawn kinds */
} crafter_obs_kind_info;

/* The row of `kind`; NULL when there is no such kind. */
const crafter_obs_kind_info *crafter_obs_kind(int kind);

/* Name of an observation kind ("pixels"), "?" if unknown; and back, -1 if
 * unknown. */
const char *crafter_obs_kind_name(int kind);
int crafter_obs_kind_from_name(const char *name);

/* The kind a trajectory header's code stands for; -1 if none. */
int crafter_obs_kind_from_traj_code(int code);

/* The shape of one player's observation of `kind` in a game of `players`
 * players, as the binary protocol gives it (all 0 for none); and its
 * bytes (text: the capacity). */
void crafter_obs_kind_shape(int kind, const crafter_params *params, int players,
                            uint32_t shape[3]);
size_t crafter_obs_kind_bytes(int kind, const crafter_params *params, int players);

#endif
