/* A minimal TAP producer for the unit tests. */
#ifndef CRAFTER_TAP_H
#define CRAFTER_TAP_H

#include <stdio.h>

static int tap_count, tap_failed;

#define ok(condition, ...)                                          \
  do {                                                              \
    int tap_passed_ = (condition) ? 1 : 0;                          \
    printf("%s %d - ", tap_passed_ ? "ok" : "not ok", ++tap_count); \
    printf(__VA_ARGS__);                                            \
    printf("\n");                                                   \
    if (!tap_passed_) {                                             \
      tap_failed++;                                                 \
      printf("#   failed at %s:%d\n", __FILE__, __LINE__);          \
    }                                                               \
  } while (0)

/* A test that cannot run here, said as a TAP skip rather than left out. */
#define skip(...)                                  \
  do {                                             \
    printf("ok %d # skip ", ++tap_count);          \
    printf(__VA_ARGS__);                           \
    printf("\n");                                  \
  } while (0)

static inline int tap_done(void) {
  printf("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}

#endif
