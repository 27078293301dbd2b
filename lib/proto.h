/* proto: what crafter-step writes and reads over its pipes.
 *
 * Text mode is one JSON object per line.  A full step record carries the
 * keys and meanings of the reference traces (see crafter-step(1)), so a
 * run can be compared with the reference field by field. */
#ifndef CRAFTER_PROTO_H
#define CRAFTER_PROTO_H

#include <stdio.h>

#include "env.h"

/* Writes a double as Python's repr() would: the shortest text that reads
 * back to the same value, with ".0" on integral values.  Returns the
 * length written into out (at least 32 bytes). */
int crafter_format_double(char *out, double value);

/* The observation a record carries, if any: rendered pixels give an
 * "obs_crc" (CRC-32 of the bytes) and, when include is set, "obs" (the
 * bytes in base64). */
typedef struct crafter_record_pixels {
  const uint8_t *bytes;
  size_t size;
  int include;
} crafter_record_pixels;

/* Writes data as base64 (RFC 4648, with padding). */
void crafter_write_base64(FILE *out, const uint8_t *data, size_t size);

/* The reset record: parameters, world seed, material grid and objects;
 * pixels may be NULL. */
void crafter_proto_write_reset(FILE *out, const crafter_env *env,
                               const crafter_record_pixels *pixels);

/* A full step record after crafter_env_step; pixels may be NULL. */
void crafter_proto_write_step(FILE *out, const crafter_env *env, int action,
                              const crafter_step_result *result,
                              const crafter_record_pixels *pixels);

/* A short step record: reward, done and what was unlocked. */
void crafter_proto_write_short(FILE *out, const crafter_env *env,
                               const crafter_step_result *result);

/* Reads an action from one line of text: a number 0..16 or an action name,
 * surrounding blanks allowed.  Returns the action or -1. */
int crafter_proto_parse_action(const char *line);

/* Facing as the reference's index: 0 left, 1 right, 2 up, 3 down. */
int crafter_facing_index(int dx, int dy);

#endif
