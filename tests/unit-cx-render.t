#!/bin/sh
# Craftax's symbolic observation (the full game) against the CRC-32s of
# the observations JAX returned (tests/unit/test-cx-render.c,
# tests/data/craftax/cx-obs.txt.gz): env.reset's for seeds 0..999, every
# step of seeds 0..9's episodes of 400 random actions (deaths and resets
# among them), and episodes from crafted first states on the sewers, the
# fire and the ice floors and beside the boss (their first states from
# tests/data/craftax/cx-crafted-starts.gz); then four ways of drawing
# that the file refuses, and the cost of a render.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-render" "$top/tests/data/craftax/cx-obs.txt.gz" \
  "$top/tests/data/craftax/cx-crafted-starts.gz"
