#!/bin/sh
# Unit tests of crafter-play's library side, written in C (tests/unit/test-play.c).
exec "$(dirname "$0")/unit/test-play"
