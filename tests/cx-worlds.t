#!/bin/sh
# Craftax's world generation (the full game: nine floors) against JAX
# itself, where the reference is installed (make craftax-env, or
# CRAFTAX_ENV naming a virtual environment with craftax): 300 fresh
# random seeds a run (CRAFTAX_CX_WORLDS), every field of each first state
# (the nine 48x48 maps, item maps, light maps and ladders, the creature,
# projectile and plant arrays, the player, the potions' mapping, the key)
# compared value for value with the C generator's
# (tests/reference/craftax_full_worlds.py --compare): for every field that
# differs, how many seeds and the first difference; and a planted
# difference is found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
craftax_full_live_or_skip 2 "Craftax's nine-floor worlds"
program=$top/tests/unit/test-cx-worldgen
craftax_or_skip "Craftax's nine-floor worlds"

craftax_fresh craftax_full_worlds.py "$program" "${CRAFTAX_CX_WORLDS:-300}" "fresh Craftax worlds"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) states equal.*/\1/p' "$scratch/log") Craftax worlds (nine floors) with JAX's, field for field"

# One cell of the C sewers' map changed: the comparison must name it.
craftax_planted craftax_full_worlds.py "$program" \
  '$1 == "map" { k = 3 * 2304 + 5 * 48 + 7 + 3; $k = ($k == 17 ? 18 : 17) } { print }' \
  "a planted difference is found" "map: 2 of 2 seeds differ" "map\[3\]\[5\]\[7\]"
finish
