#!/bin/sh
# Unit tests of instruction tasks, written in C (tests/unit/test-tasks.c).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-tasks"
