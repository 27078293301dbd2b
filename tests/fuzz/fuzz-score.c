/* Fuzz target: crafter-score's readers (Crafter's stats.jsonl logs and
 * the run files of its analysis scripts, trajectory files), then the
 * summary, the warnings and the grouping of what they accepted. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "tools/score.h"
#include "tools/score_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_score_set set;
  char error[512];
  crafter_score_set_init(&set, 1e6);
  if (crafter_score_read(&set, (const char *)data, size, NULL, "fuzz", NULL, error,
                         sizeof error) == 0) {
    size_t count;
    free(crafter_score_summarize(&set, &count));
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      crafter_score_write_warnings(sink, "fuzz", &set);
      crafter_score_write_runs(sink, &set);
      fclose(sink);
    }
  }
  crafter_score_set_free(&set);
  return 0;
}
