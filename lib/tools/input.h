/* input: crafter-step's reading of its standard input: a buffer over a
 * descriptor that flushes an output stream before it blocks (so an agent
 * waiting for a record never deadlocks while piped input is still
 * answered in bulk), lines of text up to a limit, and exact runs of
 * bytes. */
#ifndef CRAFTER_INPUT_H
#define CRAFTER_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The input: `fd` read into `buffer`, `flush` flushed before a read
 * that may block. */
typedef struct crafter_input {
  int fd;
  FILE *flush;
  uint8_t buffer[65536];
  size_t start, end;
  int eof;
} crafter_input;

/* A line of text input, grown as needed up to a limit. */
typedef struct crafter_line {
  char *text;
  size_t length, capacity, limit;
} crafter_line;

enum { CRAFTER_LINE_TOO_LONG = -1, CRAFTER_LINE_READ_ERROR = -2, CRAFTER_LINE_NO_MEMORY = -3 };

/* Makes at least `want` bytes available unless the input ends first;
 * returns how many are available, or -1 on a read error. */
long crafter_input_fill(crafter_input *in, size_t want);

/* Reads the next line (without its newline) into line->text[0..length),
 * NUL-terminated.  Returns 1 with a line, 0 at the end, or a CRAFTER_LINE_ error;
 * a line too long leaves its first `limit` bytes in line->text, the rest
 * unread. */
int crafter_input_line(crafter_input *in, crafter_line *line);

/* Drops the rest of a line too long to keep, through its newline.
 * Returns 0, or -1 on a read error. */
int crafter_input_skip_line(crafter_input *in);

/* Reads `size` bytes of input into `out`: those buffered, then the rest
 * straight from the descriptor.  Returns how many came (fewer when the
 * input ended), or -1 on a read error. */
long crafter_input_read_exact(crafter_input *in, uint8_t *out, size_t size);

/* Reads `size` bytes of input and drops them: a state too long to keep.
 * Returns how many came (fewer when the input ended), or -1 on a read
 * error. */
long crafter_input_skip_exact(crafter_input *in, size_t size);

/* The `bytes` bytes of a binary request whose first byte is at the
 * input's start, taken from the input; NULL with "input ended in a WHAT
 * request before step STEP: ..." (or a read error) when they do not all
 * come. */
const uint8_t *crafter_input_request(crafter_input *in, size_t bytes, const char *what, long step,
                                     char *error, size_t error_size);

/* ---- lines of actions ---- */

/* The lines crafter-step reads in JSON lines: `count` actions a line, a
 * number 0..16 or a name each (crafter_proto_parse_action), or a request
 * whose first word is save or load; blank lines and lines starting with
 * # are skipped. */
typedef struct crafter_action_reader {
  crafter_input *in;
  crafter_line line;   /* its limit: the longest line kept whole (a load request's) */
  size_t action_limit; /* the longest line of actions */
  int count;           /* actions a line */
  const char *each;    /* what an action is for, in messages: "env" */
  long number;         /* lines read so far */
  const struct crafter_game_info *game; /* whose actions, by number or name (game/games.h);
                                           NULL: Crafter's */
} crafter_action_reader;

enum {
  CRAFTER_READ_FAILED = -1, /* with the error (a read error, a line too long, a NUL byte, a
                               bad action or count), "line N: ..." */
  CRAFTER_READ_END = 0,     /* the input ended */
  CRAFTER_READ_ACTIONS = 1, /* actions[0..count) */
  CRAFTER_READ_REQUEST = 2  /* *request: the line from its first word, save or load;
                               *too_long: the line was longer than line.limit and the rest
                               of it is dropped */
};

/* A request line the reader gave (line `number`): "save E" (*save 1) or
 * "load E BASE64" (*save 0), E an env of 0..envs-1 into *env, *rest what
 * follows E, blanks skipped.  0, or -1 with the error: no such env, or a
 * save with anything after E. */
int crafter_parse_request(char *line, int envs, long number, int *save, int *env, char **rest,
                          char *error, size_t error_size);

/* The JSON-lines answers to requests, each one line on `out`: a save's,
 * {"env": E, "state": BASE64 of the state's bytes}; a refused load's,
 * {"env": E, "loaded": false, "error": reason}. */
void crafter_reply_saved(FILE *out, long env, const uint8_t *state, size_t size);
void crafter_reply_refused(FILE *out, long env, const char *reason);

/* The error of a load request on line `number` that is not "load E
 * BASE64"; returns -1. */
int crafter_load_request_malformed(long number, char *error, size_t error_size);

/* Reads up to the next line of actions or request.  The line stays
 * valid until the next call. */
int crafter_action_reader_next(crafter_action_reader *reader, int *actions, char **request,
                               int *too_long, char *error, size_t error_size);

#endif
