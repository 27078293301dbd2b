#!/bin/sh
# Craftax's (the full game's) states between JAX and the toolkit's words
# through the Python client (crafter_toolkit.craftax), where the
# reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): JAX's states of fresh seeds after
# random steps go to a saved state of game 2 and back equal leaf for leaf
# (dtypes and weak types as JAX's), their words' CRC-32 equal to the C's
# (tests/unit/test-cx-words --crc), the jitted step taking them without
# compiling again (tests/reference/craftax_full_state.py); and planted
# differences (a word changed, a leaf made weakly typed) are found in
# the same run.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
craftax_full_live_or_skip 2 "Craftax's states moved between JAX and the toolkit"
craftax_or_skip "Craftax's states moved between JAX and the toolkit's words"

script=$top/tests/reference/craftax_full_state.py
program=$top/tests/unit/test-cx-words
"$python" "$script" "$program" "${CRAFTAX_STATES:-2}" 150 --plants >"$scratch/log" 2>&1
status=$?
summary=$(grep -v "^planted" "$scratch/log" | tail -n 1 | cut -c1-110)
[ $status -eq 1 ] && diag <"$scratch/log"
[ $status -eq 0 ] || [ $status -eq 3 ]
ok $? "JAX's Craftax states to words and back: $summary"

# In the same run (one compilation): a word changed before its CRC is
# taken, then a leaf made weakly typed, each found at the first state.
[ "$(grep -c "^planted [a-z]* found: seed [0-9]*, step 0" "$scratch/log")" -eq 2 ]
found=$?
[ $found -ne 0 ] && diag <"$scratch/log"
ok $found "planted differences are found: $(grep "^planted" "$scratch/log" | cut -c1-70 | tr '\n' ' ')"
finish
