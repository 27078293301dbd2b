#!/bin/sh
# Craftax-Classic's world generation against the hashes of the first
# states JAX made for seeds 0..9999 (tests/unit/test-craftax-worldgen.c,
# tests/data/craftax/worlds.txt.gz), and two wrong ways of computing that
# the file refuses.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-craftax-worldgen" "$top/tests/data/craftax/worlds.txt.gz"
