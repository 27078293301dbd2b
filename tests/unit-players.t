#!/bin/sh
# Games of several players, scene by scene (tests/unit/test-players.c).
exec "$(dirname "$0")/unit/test-players"
