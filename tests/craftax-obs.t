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
plan 2
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python
program=$top/tests/unit/test-cc-render
if [ ! -x "$python" ]; then
  skip "Craftax-Classic is not installed (make craftax-env): the observations were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  finish
fi

"$python" "$top/tests/reference/craftax_obs.py" --compare "$program" "${CRAFTAX_OBS:-100}" \
  >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "fresh observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax-Classic symbolic observations with JAX's, value for value"

# The health of every C observation made 0.9 as a float32 quotient: the
# comparison must name it.
cat >"$scratch/planted" <<SH
#!/bin/sh
"$program" "\$@" | awk '\$1 == "obs" { \$(4 + 1335) = 1063675494 } { print }'
SH
chmod +x "$scratch/planted"
"$python" "$top/tests/reference/craftax_obs.py" --compare "$scratch/planted" 2 >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "first difference at \[1335\] (health)" "$scratch/out"
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "a planted difference is found: $(tail -n 1 "$scratch/out" | cut -c1-100)"
finish
