#!/bin/sh
# Craftax's symbolic observation (the full game) against JAX itself, where
# the reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): CRAFTAX_CX_OBS fresh random seeds
# (default 2), each one's first state and CRAFTAX_CX_OBS_STEPS random
# steps (default 100), a crafted first state on floor S mod 9 and as many
# steps from it, and each of those states once more changed at random
# (floor, place, the window's blocks, items and light, every creature and
# projectile slot, some at negative places, inventory, vitals, direction,
# spells, kills, the boss's wave), JAX's observations compared value for
# value with the C renderer's of the same states
# (tests/reference/craftax_full_obs.py --compare), the first difference
# said; and a planted difference is found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
craftax_full_live_or_skip 2 "Craftax's symbolic observations"
program=$top/tests/unit/test-cx-render
if [ ! -x "$python" ]; then
  skip "Craftax is not installed (make craftax-env): observations were NOT compared with JAX's"
  skip "Craftax is not installed: a planted difference was NOT checked"
  finish
fi
seeds=${CRAFTAX_CX_OBS:-2}
steps=${CRAFTAX_CX_OBS_STEPS:-100}
"$python" "$top/tests/reference/craftax_full_obs.py" --compare "$program" "$seeds" "$steps" \
  >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "fresh observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax symbolic observations with JAX's, value for value"

# The light of the player's own cell (row 4, column 5) made 2 in every C
# observation: the comparison must name it.
craftax_planted craftax_full_obs.py "$program" '$1 == "obs" { $(4 + 4149) = 1073741824 } { print }' \
  "a planted difference is found" "first difference at \[4149\] (row 4, column 5, channel 82: light)"
finish
