/* cc_session: what crafter-step does with --game craftax-classic: the
 * envs of a Craftax-Classic batch (run/cc_batch.h), JSON lines or the
 * binary protocol (crafter-protocol(5): version 3, with the game named
 * after the header), Craftax's auto-reset and seed schedule. */
#ifndef CRAFTER_CC_SESSION_H
#define CRAFTER_CC_SESSION_H

#include <stddef.h>
#include <stdio.h>

#include "tools/session.h"

/* The binary protocol's version for games other than Crafter (whose
 * streams stay at CRAFTER_PROTOCOL_VERSION), and the extension after the
 * header that names the game. */
#define CRAFTER_PROTOCOL_GAME_VERSION 3
#define CRAFTER_PROTOCOL_GAME 128u      /* header flag: the game extension follows */
#define CRAFTER_PROTOCOL_GAME_BYTES 32  /* the game's name (games.h), NUL-padded */

/* crafter_session_run for a run of --game craftax-classic (the options
 * checked by crafter_game_options_check_allowing, pixels allowed).
 * Observations none, symbolic or pixels (view/cc_render.h; drawn with the
 * textures of run.textures, Craftax's assets folder, else the built-in
 * ones); in JSON lines symbolic ones are lists of numbers, pixel ones the
 * float32 values' little-endian bytes in base64.  The same statuses. */
int crafter_cc_session_run(const crafter_session_options *options, int input, FILE *output,
                           char *error, size_t error_size);

#endif
