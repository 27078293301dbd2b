#!/bin/sh
# Craftax-Classic's world generation against JAX itself, where the
# reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): 200 fresh random seeds a run, every
# field of each first state (the 64x64 map, the player, the creature and
# plant arrays, the light level, the key) compared value for value with
# the C generator's (tests/reference/craftax_worlds.py --compare), the
# first difference said; and a planted difference is found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-craftax-worldgen
craftax_or_skip "the worlds"

craftax_fresh craftax_worlds.py "$program" "${CRAFTAX_WORLDS:-200}" "fresh worlds"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) worlds equal.*/\1/p' "$scratch/log") Craftax-Classic worlds with JAX's, cell for cell"

# One cell of every C map changed: the comparison must name it.
craftax_planted craftax_worlds.py "$program" '$1 == "map" { $70 = ($70 == 2 ? 3 : 2) } { print }' \
  "a planted difference is found" "first difference at map\[1\]\[3\]"
finish
