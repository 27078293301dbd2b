#!/bin/sh
# Craftax-Classic's states between JAX and crafter-step through the Python
# client (crafter_toolkit.craftax), where the reference is installed (make
# craftax-env, or CRAFTAX_ENV naming a virtual environment with craftax):
# JAX's states of fresh seeds after random steps, given to crafter-step
# with from_jax and the key JAX's loop carries, play on step for step as
# JAX's (observations, rewards, dones, the saved states word for word),
# to_jax(from_jax(state)) is the state, field by field, and JAX plays on
# from to_jax of crafter-step's states as from its own
# (tests/reference/craftax_state.py --check); and a planted difference
# (crafter-step given another key) is found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
CRAFTER_STEP=${CRAFTER_STEP:-$top/bin/crafter-step}
export CRAFTER_STEP
craftax_or_skip "states moved between JAX and crafter-step"

script=$top/tests/reference/craftax_state.py
"$python" "$script" --check "${CRAFTAX_STATES:-4}" 300 400 >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "JAX's states played on by crafter-step and back: $(tail -n 1 "$scratch/log" | cut -c1-110)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) seeds: .*/\1/p' "$scratch/log") Craftax-Classic states from JAX played on by crafter-step, 300 steps each, and back to JAX"

# The key JAX's next step splits off, given to crafter-step as the key
# its loop carries: the comparison must fail, at a step after the load.
"$python" "$script" --check 1 60 20 --plant key >"$scratch/out" 2>&1
found=$?
[ $found -eq 1 ] && grep -q "^first difference: seed [0-9]*, step [0-9]* after the load" "$scratch/out"
found=$?
[ $found -ne 0 ] && diag <"$scratch/out"
ok $found "another key is found: $(tail -n 1 "$scratch/out" | cut -c1-100)"
finish
