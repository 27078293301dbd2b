/* jsession: what crafter-step does with the --game of a JAX game
 * (run/jgame.h: Craftax-Classic): the envs of a batch (run/jbatch.h),
 * JSON lines or the binary protocol (crafter-protocol(5): version 3, with
 * the game named after the header), Craftax's auto-reset and seed
 * schedule. */
#ifndef CRAFTER_JSESSION_H
#define CRAFTER_JSESSION_H

#include <stddef.h>
#include <stdio.h>

#include "tools/session.h"

/* The binary protocol's version for games other than Crafter (whose
 * streams stay at CRAFTER_PROTOCOL_VERSION), and the extension after the
 * header that names the game. */
#define CRAFTER_PROTOCOL_GAME_VERSION 3
#define CRAFTER_PROTOCOL_GAME 128u      /* header flag: the game extension follows */
#define CRAFTER_PROTOCOL_GAME_BYTES 32  /* the game's name (games.h), NUL-padded */

/* crafter_session_run for a run of a JAX game (the options checked by
 * crafter_game_options_check_allowing, pixels allowed).  Observations
 * none, symbolic or pixels (the row's; drawn with the textures of
 * run.textures, the reference's assets folder, else the built-in ones);
 * in JSON lines symbolic ones are lists of numbers, pixel ones the
 * float32 values' little-endian bytes in base64.  The same statuses. */
int crafter_jsession_run(const crafter_session_options *options, int input, FILE *output,
                           char *error, size_t error_size);

#endif
