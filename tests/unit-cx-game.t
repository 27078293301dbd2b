#!/bin/sh
# Craftax's step (the full game) against the hashes of every field of
# every step of episodes JAX played (tests/unit/test-cx-game.c,
# tests/data/craftax/cx-steps.txt.gz): seeds 0, 1 and 2, 300 steps each,
# once of moves and DO only and once of random actions of all 43, deaths
# and auto-resets among them.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-game" "$top/tests/data/craftax/cx-steps.txt.gz"
