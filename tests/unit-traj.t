#!/bin/sh
# Unit tests of the trajectory format, written in C (tests/unit/test-traj.c).
exec "$(dirname "$0")/unit/test-traj"
