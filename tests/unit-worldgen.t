#!/bin/sh
# The fast world generator against the plain one (tests/unit/test-worldgen.c).
exec "$(dirname "$0")/unit/test-worldgen"
