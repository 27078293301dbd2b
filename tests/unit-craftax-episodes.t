#!/bin/sh
# Craftax-Classic's step against the episodes JAX played: 50 seeds of
# 3,000 random actions each across the env's own resets, every word of
# every step (the state, the symbolic observation, the reward, done) held
# by a running CRC-32 checked every 100 steps
# (tests/unit/test-craftax-episodes.c, tests/data/craftax/episodes.txt.gz),
# and two wrong ways of computing that the file refuses.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-craftax-episodes" "$top/tests/data/craftax/episodes.txt.gz"
