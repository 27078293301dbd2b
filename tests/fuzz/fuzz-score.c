/* Fuzz target: crafter-score's readers (Crafter's stats.jsonl logs and
 * the run files of its analysis scripts, trajectory files, whose steps
 * are read for SmartPlay's score), then the summary, the warnings, the
 * grouping and the JSON of what they accepted, with the measures of
 * language-model suites. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "tools/score.h"
#include "tools/score_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  crafter_score_set set;
  char error[512];
  crafter_score_set_init(&set, 1e6);
  set.llm = 1;
  if (crafter_score_read(&set, (const char *)data, size, NULL, "fuzz", NULL, error,
                         sizeof error) == 0) {
    size_t count;
    crafter_score_method *methods = crafter_score_summarize(&set, &count);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      crafter_score_write_warnings(sink, "fuzz", &set);
      crafter_score_write_runs(sink, &set);
      if (methods) {
        crafter_score_write_table(sink, methods, count);
        crafter_score_write_json(sink, methods, count, &set);
      }
      fclose(sink);
    }
    free(methods);
  }
  crafter_score_set_free(&set);
  return 0;
}
