#!/bin/sh
# Craftax-Classic's symbolic observation against JAX itself, where the
# reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): 100 fresh random seeds a run
# (CRAFTAX_OBS to change it), the observation env.reset returns compared
# value for value with the C renderer's of the C world, and for each seed
# that state with the player's place, inventory, vitals, direction,
# creatures, light and sleep drawn at random, rendered by JAX's
# render_craftax_symbolic and by C (tests/reference/craftax_obs.py
# --compare), the first difference said; and a planted difference is
# found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-cc-render
craftax_or_skip "the observations"

craftax_compare craftax_obs.py "$program" "${CRAFTAX_OBS:-100}"
status=$?
ok $status "fresh observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax-Classic symbolic observations with JAX's, value for value"

# The health of every C observation made 0.9 as a float32 quotient: the
# comparison must name it.
craftax_planted craftax_obs.py "$program" '$1 == "obs" { $(4 + 1335) = 1063675494 } { print }' \
  "a planted difference is found" "first difference at \[1335\] (health)"
finish
