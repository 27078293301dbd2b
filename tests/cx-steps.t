#!/bin/sh
# Craftax's step (the full game) against JAX itself, where the reference
# is installed (make craftax-env, or CRAFTAX_ENV naming a virtual
# environment with craftax): CRAFTAX_CX_STEP_SEEDS fresh random seeds
# (default 2) of CRAFTAX_CX_STEPS random actions (default 150) from their
# first states, and as many crafted first states (every item, potion and
# book, the tables around the player on the ladder down), recorded by
# tests/reference/craftax_full_steps.py and replayed by
# tests/unit/test-cx-game --jax, which names the first field and step that
# differ.  cx_game.h says which parts of the step are written.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-cx-game
if [ ! -x "$python" ]; then
  skip "Craftax is not installed (make craftax-env): random episodes were NOT compared with JAX's"
  skip "Craftax is not installed: crafted episodes were NOT compared with JAX's"
  finish
fi
seeds=${CRAFTAX_CX_STEP_SEEDS:-2}
steps=${CRAFTAX_CX_STEPS:-150}
list=$(awk -v n="$seeds" 'BEGIN { srand(); for (i = 0; i < n; i++) printf "%d ", int(rand() * 2000000000) }')
for kind in random crafted; do
  if [ $kind = random ]; then
    "$python" "$top/tests/reference/craftax_full_steps.py" --record random "$steps" \
      "$scratch/$kind.gz" $list >"$scratch/record" 2>&1
  else
    "$python" "$top/tests/reference/craftax_full_steps.py" --record-crafted "$steps" \
      "$scratch/$kind.gz" $list >"$scratch/record" 2>&1
  fi
  status=$?
  if [ $status -eq 0 ]; then
    "$program" --jax "$scratch/$kind.gz" >"$scratch/log" 2>&1
    status=$?
  else
    cp "$scratch/record" "$scratch/log"
  fi
  [ $status -ne 0 ] && diag <"$scratch/log"
  ok $status "$kind episodes of seeds $list($steps steps) are JAX's: $(grep '^replayed' "$scratch/log" | cut -c1-80)"
  [ $status -eq 0 ] && report compared "$seeds $kind Craftax episodes of $steps steps with JAX's, field for field"
done
finish
