#include "tools/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

