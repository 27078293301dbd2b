#!/bin/sh
# Unit tests of pictures and videos of episodes, written in C
# (tests/unit/test-video.c).
exec "$(dirname "$0")/unit/test-video"
