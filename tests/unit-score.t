#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-score.c).
exec "$(dirname "$0")/unit/test-score"
