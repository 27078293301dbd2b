#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-games.c).
exec "$(dirname "$0")/unit/test-games"
