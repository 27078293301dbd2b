/* Fuzz target: the task file reader (crafter-task(5)). */
#include "fuzz.h"
#include "game/tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char error[512];
  crafter_task_set set;
  if (crafter_tasks_load_string((const char *)data, size, "fuzz.yaml", &set, error,
                                sizeof error) == 0)
    (void)crafter_task_find(&set, "a");
  crafter_task_set_free(&set);
  return 0;
}
