#!/bin/sh
# Craftax's step (the full game) from crafted first states, against the
# hashes of every field of every step JAX played from them
# (tests/unit/test-cx-game.c): two beside the boss, struck seven steps in
# ten (150 steps), and three on the sewers, the fire and the ice floors
# with every item, potion and book (200 random actions);
# tests/data/craftax/cx-crafted-starts.gz holds those first states as JAX
# made them, tests/data/craftax/cx-crafted.txt.gz the hashes.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-game" "$top/tests/data/craftax/cx-crafted.txt.gz" \
  "$top/tests/data/craftax/cx-crafted-starts.gz"
