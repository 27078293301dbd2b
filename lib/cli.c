#include "cli.h"

#include <errno.h>
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
