/* Fuzz target: the world-file reader (crafter-world(5)); a map it accepts
 * is written back out, which must not fail. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "run/worldfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_world_map map;
  char error[512];
  if (crafter_world_map_parse(&map, (const char *)data, size, "fuzz.txt", error,
                              sizeof error) != 0)
    return 0;
  FILE *sink = fopen("/dev/null", "w");
  if (sink) {
    if (crafter_world_map_write(sink, &map, NULL) != 0) abort();
    fclose(sink);
  }
  crafter_world_map_free(&map);
  return 0;
}
