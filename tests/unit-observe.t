#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-observe.c).
exec "$(dirname "$0")/unit/test-observe"
