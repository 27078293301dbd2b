#!/bin/sh
# Craftax's step (the full game) against JAX itself, where the reference
# is installed (make craftax-env, or CRAFTAX_ENV naming a virtual
# environment with craftax): CRAFTAX_CX_STEP_SEEDS fresh random seeds
# (default 2) of CRAFTAX_CX_STEPS random actions (default 150) from their
# first states, as many crafted first states (the player on floor S mod 9
# on a ladder, every item, potion and book, attributes, the tables around
# the player), and as many crafted first states beside the boss, struck
# seven steps in ten, recorded by
# tests/reference/craftax_full_steps.py and replayed by
# tests/unit/test-cx-game --jax, which names the first field and step that
# differ.  cx_game.h says which parts of the step are written.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 3
craftax_full_live_or_skip 3 "Craftax's steps"
program=$top/tests/unit/test-cx-game
if [ ! -x "$python" ]; then
  skip "Craftax is not installed (make craftax-env): random episodes were NOT compared with JAX's"
  skip "Craftax is not installed: crafted episodes were NOT compared with JAX's"
  skip "Craftax is not installed: episodes at the boss were NOT compared with JAX's"
  finish
fi
seeds=${CRAFTAX_CX_STEP_SEEDS:-2}
steps=${CRAFTAX_CX_STEPS:-150}
list=$(awk -v n="$seeds" 'BEGIN { srand(); for (i = 0; i < n; i++) printf "%d ", int(rand() * 2000000000) }')
for kind in random crafted boss; do
  case $kind in
  random) mode="--record random" ;;
  crafted) mode=--record-crafted ;;
  boss) mode=--record-boss ;;
  esac
  "$python" "$top/tests/reference/craftax_full_steps.py" $mode "$steps" \
    "$scratch/$kind.gz" $list >"$scratch/record" 2>&1
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
