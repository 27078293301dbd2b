#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-cc-state.c).
exec "$(dirname "$0")/unit/test-cc-state"
