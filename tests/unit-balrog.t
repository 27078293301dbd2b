#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-balrog.c).
exec "$(dirname "$0")/unit/test-balrog"
