#include "base/memory.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/errors.h"

uint64_t crafter_memory_available(const char **whose) {
  long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
  uint64_t available = pages > 0 && page_bytes > 0 ? (uint64_t)pages * (uint64_t)page_bytes
                                                   : UINT64_MAX;
  *whose = "this machine has";
  const int resources[] = {RLIMIT_AS, RLIMIT_DATA};
  for (int i = 0; i < 2; i++) {
    struct rlimit limit;
    if (getrlimit(resources[i], &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        (uint64_t)limit.rlim_cur < available) {
      available = (uint64_t)limit.rlim_cur;
      *whose = "this process may use";
    }
  }
  return available;
}

const char *crafter_memory_text(char *text, size_t size, uint64_t bytes) {
  static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  double value = (double)bytes;
  int unit = 0;
  while (value >= 1000 && unit < 5) value /= 1000, unit++;
  snprintf(text, size, unit == 0 ? "%.0f %s" : value < 10 ? "%.1f %s" : "%.0f %s", value,
           units[unit]);
  return text;
}

int crafter_memory_check(uint64_t needed, const char *what, char *error, size_t error_size) {
  const char *whose;
  uint64_t available = crafter_memory_available(&whose);
  if (needed <= available) return 0;
  char needed_text[32], available_text[32];
  return crafter_fail(error, error_size, "%s take about %s of memory, more than the %s %s", what,
                      crafter_memory_text(needed_text, sizeof(needed_text), needed),
                      crafter_memory_text(available_text, sizeof(available_text), available),
                      whose);
}
