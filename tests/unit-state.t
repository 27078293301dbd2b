#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-state.c), with
# the goals of the project's task suite.
exec "$(dirname "$0")/unit/test-state" "$(dirname "$0")/../data/tasks/crafter-tasks.yaml"
