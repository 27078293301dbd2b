/* proto: what crafter-step writes and reads over its pipes.
 *
 * Text mode is one JSON object per line, written by json's writer.  A
 * full step record carries the keys and meanings of the reference traces
 * (see crafter-step(1)), so a run can be compared with the reference
 * field by field.  Floats are written as Python writes them, NaN and
 * Infinity included (a symbolic observation holds Infinity where
 * Craftax-Classic's float16 overflows). */
#ifndef CRAFTER_PROTO_H
#define CRAFTER_PROTO_H

#include <stdio.h>

#include "game/env.h"
#include "view/obskind.h"

/* Writes a double as Python's repr() would: the shortest text that reads
 * back to the same value, with ".0" on integral values.  Returns the
 * length written into out (at least 32 bytes).  The same as
 * crafter_json_format_double, the one format of the toolkit's JSON. */
int crafter_format_double(char *out, double value);

/* What a record carries beyond the state.  Rendered pixels give "obs_crc"
 * (CRC-32 of the bytes); with include set the record also has "obs", as
 * its kind's row says (obskind.h): the pixels or the semantic map in
 * base64, the symbolic vector as a list of numbers, the text as a string.
 * env_index >= 0 adds "env" first. */
typedef struct crafter_proto_extra {
  int env_index;
  const uint8_t *pixels; /* NULL when none were rendered */
  size_t pixel_bytes;
  int kind;              /* enum crafter_obs_kind of "obs" (obskind.h) */
  int include;
  const void *data;      /* the observation of that kind */
  size_t size;           /* its bytes (floats: 4 a value; text: its length) */
  const char *task_id;   /* the episode's goal: "task" and "instruction" keys, */
  const char *instruction; /* or NULL for none */
  int goal;              /* a step record's "goal": 1 met at this step, 0 not, -1 no key */
  int64_t level;         /* on a level set: the "level" key (the episode's number), 0: none */
  int player_key;        /* with several players: the "player" key after "env" is this
                            minus 1; 0: no key */
  int loaded;            /* 1: "loaded": true after those (the state a load request
                            brought, crafter-step(1)), then "done"; 0: neither key */
  int loaded_done;       /* with loaded: "done", whether the player's episode had ended */
} crafter_proto_extra;

/* The records below that tell of a player's state are of player `player`
 * (0 in Crafter's game of one). */

/* The reset record: parameters, world seed, material grid and objects;
 * extra may be NULL. */
void crafter_proto_write_reset(FILE *out, const crafter_env *env, int player,
                               const crafter_proto_extra *extra);

/* A full step record after crafter_env_step; extra may be NULL. */
void crafter_proto_write_step(FILE *out, const crafter_env *env, int player, int action,
                              const crafter_step_result *result,
                              const crafter_proto_extra *extra);

/* A short step record: t, reward, done, discount and what was unlocked;
 * with a NULL result, a short reset record {"reset": episode}. */
void crafter_proto_write_short(FILE *out, const crafter_env *env,
                               const crafter_step_result *result,
                               const crafter_proto_extra *extra);

/* A state record: the short record followed by the player's state with
 * names: pos, facing, sleeping, daylight, inventory and achievements as
 * objects from item or achievement name to count.  With a NULL result, a
 * reset record {"reset": episode, "seed", "world_seed", then the state}. */
void crafter_proto_write_state(FILE *out, const crafter_env *env, int player,
                               const crafter_step_result *result,
                               const crafter_proto_extra *extra);

/* What text records carry. */
enum crafter_info_kind { CRAFTER_INFO_SHORT = 0, CRAFTER_INFO_FULL, CRAFTER_INFO_STATE };

/* Name of an info kind ("short", "full", "state"), and back; -1 if unknown. */
const char *crafter_info_kind_name(int kind);
int crafter_info_kind_from_name(const char *name);

/* Reads an action from one line of text: a number 0..16 or an action name,
 * surrounding blanks allowed.  Returns the action or -1. */
int crafter_proto_parse_action(const char *line);

/* Facing as the reference's index: 0 left, 1 right, 2 up, 3 down. */
int crafter_facing_index(int dx, int dy);

#endif
