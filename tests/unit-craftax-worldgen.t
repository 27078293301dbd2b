#!/bin/sh
# Craftax-Classic's world generation against the hashes of the first
# states JAX made for seeds 0..9999 and three rarer ones, the fast way and the plain way
# (tests/unit/test-craftax-worldgen.c, tests/data/craftax/worlds.txt.gz),
# two wrong ways of computing that the file refuses, the cosines and sines
# of the noise's angles against JAX's (tests/data/craftax/angles.txt),
# and every level of the kernels against the plain way.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-craftax-worldgen" "$top/tests/data/craftax/worlds.txt.gz" \
  "$top/tests/data/craftax/angles.txt"
