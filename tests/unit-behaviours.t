#!/bin/sh
# Unit tests of behaviours a mutation study left unpinned, written in C
# (tests/unit/test-behaviours.c).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-behaviours"
