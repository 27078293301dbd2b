#!/bin/sh
# Unit tests of instruction tasks, written in C (tests/unit/test-tasks.c),
# and the task files that must load: the example of crafter-task(5), kept
# in the fuzz target's seeds, and the other seeds.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-tasks" "$top"/tests/fuzz/corpus/tasks/*.yaml
