#include "tools/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/json.h"
#include "crafter/ids.h"
#include "game/games.h"
#include "run/proto.h"

/* Makes at least `want` bytes available unless the input ends first;
 * returns how many are available, or -1 on a read error. */
long crafter_input_fill(crafter_input *in, size_t want) {
  while (in->end - in->start < want && !in->eof) {
    if (in->start > 0) {
      memmove(in->buffer, in->buffer + in->start, in->end - in->start);
      in->end -= in->start;
      in->start = 0;
    }
    if (in->end == sizeof(in->buffer)) break;
    fflush(in->flush);
    ssize_t got;
    do {
      got = read(in->fd, in->buffer + in->end, sizeof(in->buffer) - in->end);
    } while (got < 0 && errno == EINTR);
    if (got < 0) return -1;
    if (got == 0) in->eof = 1;
    in->end += (size_t)got;
  }
  return (long)(in->end - in->start);
}

/* Reads the next line (without its newline) into line->text[0..length),
 * NUL-terminated.  Returns 1 with a line, 0 at the end, or a CRAFTER_LINE_ error;
 * a line too long leaves its first `limit` bytes in line->text, the rest
 * unread. */
int crafter_input_line(crafter_input *in, crafter_line *line) {
  line->length = 0;
  for (;;) {
    size_t available = in->end - in->start;
    uint8_t *chunk = in->buffer + in->start;
    uint8_t *newline = memchr(chunk, '\n', available);
    size_t want = newline ? (size_t)(newline - chunk) : available;
    size_t take = want < line->limit - line->length ? want : line->limit - line->length;
    if (line->length + take + 1 > line->capacity) {
      size_t capacity = line->capacity ? line->capacity : 256;
      while (capacity < line->length + take + 1) capacity *= 2;
      char *grown = realloc(line->text, capacity);
      if (!grown) return CRAFTER_LINE_NO_MEMORY;
      line->text = grown;
      line->capacity = capacity;
    }
    memcpy(line->text + line->length, chunk, take);
    line->length += take;
    line->text[line->length] = '\0';
    if (take < want) { /* what fits is kept */
      in->start += take;
      return CRAFTER_LINE_TOO_LONG;
    }
    in->start += take + (newline ? 1 : 0);
    if (newline) return 1;
    if (in->eof) return line->length > 0;
    if (crafter_input_fill(in, 1) < 0) return CRAFTER_LINE_READ_ERROR;
  }
}

/* Drops the rest of a line too long to keep, through its newline.
 * Returns 0, or -1 on a read error. */
int crafter_input_skip_line(crafter_input *in) {
  for (;;) {
    size_t available = in->end - in->start;
    uint8_t *chunk = in->buffer + in->start;
    uint8_t *newline = memchr(chunk, '\n', available);
    if (newline) {
      in->start += (size_t)(newline - chunk) + 1;
      return 0;
    }
    in->start = in->end;
    if (in->eof) return 0;
    if (crafter_input_fill(in, 1) < 0) return -1;
  }
}

/* Reads `size` bytes of input into `out`: those buffered, then the rest
 * straight from the descriptor.  Returns how many came (fewer when the
 * input ended), or -1 on a read error. */
long crafter_input_read_exact(crafter_input *in, uint8_t *out, size_t size) {
  size_t got = in->end - in->start < size ? in->end - in->start : size;
  memcpy(out, in->buffer + in->start, got);
  in->start += got;
  while (got < size && !in->eof) {
    fflush(in->flush);
    ssize_t count;
    do {
      count = read(in->fd, out + got, size - got);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return -1;
    if (count == 0) in->eof = 1;
    got += (size_t)count;
  }
  return (long)got;
}

/* Reads `size` bytes of input and drops them: a state too long to keep.
 * Returns how many came (fewer when the input ended), or -1 on a read
 * error. */
long crafter_input_skip_exact(crafter_input *in, size_t size) {
  size_t got = 0;
  while (got < size) {
    long available = crafter_input_fill(in, 1);
    if (available < 0) return -1;
    if (available == 0) break;
    size_t take = (size_t)available < size - got ? (size_t)available : size - got;
    in->start += take;
    got += take;
  }
  return (long)got;
}


/* Whether the line's first word is save or load. */
static int is_request(const char *text) {
  size_t word = strcspn(text, " \t\r");
  return word == 4 && (strncmp(text, "save", 4) == 0 || strncmp(text, "load", 4) == 0);
}

/* An action of `game` from a word: its number, or its name; -1. */
static int parse_game_action(const crafter_game_info *game, const char *word) {
  char *end;
  errno = 0;
  long number = strtol(word, &end, 10);
  if (*word >= '0' && *word <= '9' && *end == '\0' && errno == 0)
    return number < game->actions ? (int)number : -1;
  for (int a = 0; a < game->actions; a++)
    if (strcmp(word, game->action_names[a]) == 0) return a;
  return -1;
}

int crafter_action_reader_next(crafter_action_reader *r, int *actions, char **request,
                               int *too_long, char *error, size_t error_size) {
  crafter_line *line = &r->line;
  for (;;) {
    int got = crafter_input_line(r->in, line);
    if (got == 0) return CRAFTER_READ_END;
    r->number++;
    if (got == CRAFTER_LINE_READ_ERROR || got == CRAFTER_LINE_NO_MEMORY) {
      snprintf(error, error_size, "reading standard input: %s",
               got == CRAFTER_LINE_NO_MEMORY ? "out of memory" : strerror(errno));
      return CRAFTER_READ_FAILED;
    }
    char *start = line->text ? line->text + strspn(line->text, " \t") : "";
    if (got == CRAFTER_LINE_TOO_LONG && strncmp(start, "load", 4) == 0) {
      /* Longer than any state of the session's: the rest of the line is
       * dropped, and the request answered (refused, or when it names no
       * env, an error). */
      if (crafter_input_skip_line(r->in) < 0) {
        snprintf(error, error_size, "reading standard input: %s", strerror(errno));
        return CRAFTER_READ_FAILED;
      }
      if (is_request(start)) {
        *request = start;
        *too_long = 1;
        return CRAFTER_READ_REQUEST;
      }
    }
    if (got == CRAFTER_LINE_TOO_LONG ||
        (line->length > r->action_limit && strncmp(start, "load", 4) != 0)) {
      snprintf(error, error_size,
               "line %ld: longer than %zu bytes, the limit for %d env%s (4096 + 64 per env)",
               r->number, r->action_limit, r->count, r->count == 1 ? "" : "s");
      return CRAFTER_READ_FAILED;
    }
    const char *nul = memchr(line->text, '\0', line->length);
    if (nul) {
      char shown[64];
      snprintf(error, error_size, "line %ld: a NUL byte at column %zu: \"%s\" (actions are text)",
               r->number, (size_t)(nul - line->text) + 1,
               crafter_escape(shown, sizeof(shown), line->text, line->length));
      return CRAFTER_READ_FAILED;
    }
    char *cursor = line->text;
    while (*cursor == ' ' || *cursor == '\t' || *cursor == '\r') cursor++;
    if (*cursor == '#') continue; /* a comment */
    if (is_request(cursor)) {
      *request = cursor;
      *too_long = 0;
      return CRAFTER_READ_REQUEST;
    }
    int parsed = 0;
    char *word;
    while (parsed <= r->count && (word = strtok(parsed ? NULL : cursor, " \t\r")) != NULL) {
      if (parsed == r->count) {
        parsed++;
        break;
      }
      int action = r->game && r->game->action_names != crafter_action_names
                       ? parse_game_action(r->game, word)
                       : crafter_proto_parse_action(word);
      if (action < 0) {
        char shown[64];
        const crafter_game_info *game = r->game ? r->game : crafter_game_info_of(0);
        snprintf(error, error_size,
                 "line %ld: invalid action '%s' (expected 0..%d or a name such as %s)",
                 r->number, crafter_escape(shown, sizeof(shown), word, strlen(word)),
                 game->actions - 1, game->action_names[1]);
        return CRAFTER_READ_FAILED;
      }
      actions[parsed++] = action;
    }
    if (parsed == 0) continue; /* a blank line */
    if (parsed != r->count) {
      snprintf(error, error_size, "line %ld: expected %d action%s, one per %s, got %s", r->number,
               r->count, r->count == 1 ? "" : "s", r->each, parsed > r->count ? "more" : "fewer");
      return CRAFTER_READ_FAILED;
    }
    return CRAFTER_READ_ACTIONS;
  }
}

const uint8_t *crafter_input_request(crafter_input *in, size_t bytes, const char *what, long step,
                                     char *error, size_t error_size) {
  long available = crafter_input_fill(in, bytes);
  if (available < 0) {
    snprintf(error, error_size, "reading standard input: %s", strerror(errno));
    return NULL;
  }
  if ((size_t)available < bytes) {
    snprintf(error, error_size, "input ended in a %s request before step %ld: %ld of %zu bytes",
             what, step, available, bytes);
    return NULL;
  }
  const uint8_t *request = in->buffer + in->start;
  in->start += bytes;
  return request;
}

int crafter_parse_request(char *line, int envs, long number, int *save, int *env, char **rest,
                          char *error, size_t error_size) {
  line += strspn(line, " \t");
  *save = strncmp(line, "save", 4) == 0;
  char *at = line + 4 + strspn(line + 4, " \t");
  char *end = at;
  long index = -1;
  if (*at >= '0' && *at <= '9') index = strtol(at, &end, 10);
  if (index < 0 || index >= envs || !(*end == '\0' || *end == ' ' || *end == '\t' || *end == '\r')) {
    snprintf(error, error_size, "line %ld: a %s request names an env, 0..%d: %s E%s", number,
             *save ? "save" : "load", envs - 1, *save ? "save" : "load", *save ? "" : " BASE64");
    return -1;
  }
  end += strspn(end, " \t");
  if (*save && end[strspn(end, " \t\r")] != '\0') {
    snprintf(error, error_size, "line %ld: a save request is \"save E\", with nothing after",
             number);
    return -1;
  }
  *env = (int)index;
  *rest = end;
  return 0;
}

void crafter_reply_saved(FILE *out, long env, const uint8_t *state, size_t size) {
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  crafter_json_key(&json, "env");
  crafter_json_int(&json, env);
  crafter_json_key(&json, "state");
  crafter_json_base64(&json, state, size);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}

void crafter_reply_refused(FILE *out, long env, const char *reason) {
  crafter_json_writer json;
  crafter_json_writer_init_file(&json, out);
  crafter_json_begin_object(&json);
  crafter_json_key(&json, "env");
  crafter_json_int(&json, env);
  crafter_json_key(&json, "loaded");
  crafter_json_bool(&json, 0);
  crafter_json_key(&json, "error");
  crafter_json_string(&json, reason);
  crafter_json_end_object(&json);
  crafter_json_newline(&json);
}

int crafter_load_request_malformed(long number, char *error, size_t error_size) {
  snprintf(error, error_size,
           "line %ld: a load request is \"load E BASE64\": a state (crafter-state(5)) in "
           "base64, as a save request answers",
           number);
  return -1;
}
