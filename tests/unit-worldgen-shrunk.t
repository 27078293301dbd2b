#!/bin/sh
# The worldgen test's thresholds on cells against a fast generator whose
# error bound is 100 times too small: they must find it out
# (tests/unit/test-worldgen.c, built with SHRUNK_BOUND).
exec "$(dirname "$0")/unit/test-worldgen-shrunk"
