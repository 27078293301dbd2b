#!/bin/sh
# Craftax's world generation (all nine floors) against the hashes of the
# first states JAX made for seeds 0..9999, floor by floor and whole
# (tests/unit/test-cx-worldgen.c, tests/data/craftax/cx-worlds.txt.gz).
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-worldgen" "$top/tests/data/craftax/cx-worlds.txt.gz"
