#!/bin/sh
# crafter-step --obs balrog against BALROG's own text function: episodes
# of crafter 1.8.3 (make reference-env) described by describe_frame of
# BALROG's balrog/environments/crafter/env.py, at a pinned commit, fetched
# into a cache outside the project (tests/reference/balrog_text.py), give
# the long and short contexts crafter-step writes, byte for byte, at every
# reset and step, under BALROG's default settings and its others
# (crafter-step --balrog); and the comparison does fail for a text changed
# by one character.
. "$(dirname "$0")/tap.sh"
. "$top/tests/balrog-reference.sh"
plan 2
balrog_compare balrog_text.py "BALROG's texts" \
  "BALROG's env.py is not in the cache" "its texts" "BALROG's env.py"
grep -q "identical to BALROG" "$scratch/log"
ok $(( status || $? )) "crafter-step's BALROG texts are BALROG's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^balrog: \([0-9]*\) steps.*/\1/p' "$scratch/log") steps' long and short contexts with BALROG's describe_frame over crafter 1.8.3, and $(sed -n 's/^balrog: other settings.*: \([0-9]*\) steps.*/\1/p' "$scratch/log") under its other settings"
grep -q "edge_only_items NOT compared" "$scratch/log" &&
  report note "BALROG's edge_only_items was NOT compared: no scipy beside the reference or in another venv (SCIPY_PYTHON)"

# "1 step to your" written "1 steps to your".
cat >"$scratch/plural" <<SH
#!/bin/sh
"$top/bin/crafter-step" "\$@" | sed 's/ 1 step to your/ 1 steps to your/g'
SH
chmod +x "$scratch/plural"
"$python" "$script" --quick --crafter-step "$scratch/plural" >"$scratch/planted" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "DIFFERENCE" "$scratch/planted" && grep -q "1 steps to your" "$scratch/planted"
status=$?
[ $status -ne 0 ] && diag <"$scratch/planted"
ok $status "a plural where BALROG writes 'step' is found"
finish
