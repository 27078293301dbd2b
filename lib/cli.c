#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int crafter_parse_int64(const char *text, int64_t minimum, int64_t maximum, int64_t *out) {
  if (!text || !*text) return -1;
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (errno || *end != '\0' || value < minimum || value > maximum) return -1;
  *out = value;
  return 0;
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

int crafter_fail(char *error, size_t error_size, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(error, error_size, format, arguments);
  va_end(arguments);
  return -1;
}

void crafter_usage_error(const char *program, const char *format, const char *argument) {
  fprintf(stderr, "%s: ", program);
  fprintf(stderr, format, argument);
  fprintf(stderr, "\nTry '%s --help' for more information.\n", program);
  exit(2);
}
