#!/bin/sh
# Unit tests of the library, written in C (tests/unit/test-levels.c).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$(dirname "$0")/unit/test-levels" "$scratch/set.lvl"
