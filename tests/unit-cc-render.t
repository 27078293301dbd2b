#!/bin/sh
# Craftax-Classic's symbolic observation of the first state of an episode
# against the CRC-32s of the observations JAX returned from env.reset for
# seeds 0..9999 (tests/unit/test-cc-render.c,
# tests/data/craftax/symbolic-obs.txt.gz), and two wrong ways of drawing
# it that the file refuses.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cc-render" "$top/tests/data/craftax/symbolic-obs.txt.gz"
