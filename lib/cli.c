#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out) {
  if (!text || !*text) return -1;
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (errno || *end != '\0' || value < minimum || value > maximum) return -1;
  *out = value;
  return 0;
}

int64_t crafter_option_int64(const char *program, const char *what, const char *text,
                             int64_t minimum, int64_t maximum) {
  int64_t value;
  if (crafter_parse_int64(text, minimum, maximum, &value) == 0) return value;
  char format[200];
  snprintf(format, sizeof(format), "invalid %s '%%s' (expected an integer from %lld to %lld)",
           what, (long long)minimum, (long long)maximum);
  crafter_usage_error(program, format, text);
}

int crafter_parse_pair(const char *text, int minimum, int maximum, int out[2]) {
  if (!text || !*text) return -1;
  char *end;
  errno = 0;
  long first = strtol(text, &end, 10);
  long second = first;
  if (errno || end == text) return -1;
  if (*end == ',' || *end == 'x') {
    const char *rest = end + 1;
    second = strtol(rest, &end, 10);
    if (errno || end == rest) return -1;
  }
  if (*end != '\0' || first < minimum || first > maximum || second < minimum ||
      second > maximum)
    return -1;
  out[0] = (int)first;
  out[1] = (int)second;
  return 0;
}

void crafter_usage_error(const char *program, const char *format, const char *argument) {
  /* The argument is the user's text: shown, never obeyed by the terminal. */
  char shown[1024];
  fprintf(stderr, "%s: ", program);
  fprintf(stderr, format, crafter_escape(shown, sizeof(shown), argument, strlen(argument)));
  fprintf(stderr, "\nTry '%s --help' for more information.\n", program);
  exit(2);
}

/* Bytes in the well-formed UTF-8 character at text[0..length) that a
 * terminal prints (not a C1 control), or 0 when there is none. */
static size_t printable_utf8(const unsigned char *text, size_t length) {
  size_t bytes = crafter_utf8_character(text, length);
  return bytes && !(text[0] == 0xc2 && text[1] < 0xa0) ? bytes : 0; /* not U+0080..U+009F */
}

const char *crafter_escape(char *out, size_t out_size, const char *text, size_t length) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *bytes = (const unsigned char *)text;
  size_t limit = out_size - 1, used = 0, cut = 0;
  for (size_t i = 0; i < length;) {
    char piece[4];
    size_t consumed = printable_utf8(bytes + i, length - i), size = consumed;
    if (consumed > 0) {
      memcpy(piece, bytes + i, size);
    } else if (bytes[i] == '\\') {
      memcpy(piece, "\\\\", size = 2);
    } else if (bytes[i] >= 0x20 && bytes[i] < 0x7f) {
      piece[0] = (char)bytes[i];
      size = 1;
    } else {
      piece[0] = '\\';
      piece[1] = 'x';
      piece[2] = hex[bytes[i] >> 4];
      piece[3] = hex[bytes[i] & 15];
      size = 4;
    }
    if (used + size > limit) {
      memcpy(out + cut, "...", 4);
      return out;
    }
    memcpy(out + used, piece, size);
    used += size;
    if (used + 3 <= limit) cut = used;
    i += consumed ? consumed : 1;
  }
  out[used] = '\0';
  return out;
}

int crafter_close_stdout(const char *program, int status) {
  int ferror_before = ferror(stdout) != 0;
  int failed = ferror_before;
  int reason = 0;
  errno = 0;
  if (fflush(stdout) != 0) {
    failed = 1;
    reason = errno;
  }
  /* Closing a stdout that was never open (>&-) is no failure when nothing
   * was written to it. */
  errno = 0;
  if (fclose(stdout) != 0 && !(errno == EBADF && !failed)) {
    if (!failed) reason = errno;
    failed = 1;
  }
  if (!failed) return status;
  /* A program that failed with its output already in error has said why. */
  if (status != 0 && ferror_before) return status;
  if (reason)
    fprintf(stderr, "%s: write error: %s\n", program, strerror(reason));
  else
    fprintf(stderr, "%s: write error\n", program);
  return 1;
}
