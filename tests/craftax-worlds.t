#!/bin/sh
# Craftax-Classic's world generation against JAX itself, where the
# reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): 200 fresh random seeds a run, every
# field of each first state (the 64x64 map, the player, the creature and
# plant arrays, the light level, the key) compared value for value with
# the C generator's (tests/reference/craftax_worlds.py --compare), the
# first difference said; and a planted difference is found.
. "$(dirname "$0")/tap.sh"
plan 2
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python
program=$top/tests/unit/test-craftax-worldgen
if [ ! -x "$python" ]; then
  skip "Craftax-Classic is not installed (make craftax-env): the worlds were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  finish
fi

# The pinned reference is jax 0.10.1; 0.10.2 compiles the graph otherwise
# and 3 of the first 10,000 seeds' worlds differ by a cell from 0.10.1's
# (seeds 2620, 6527, 7726).  Under another version a difference is said,
# but as a TODO: it is that version's, not the generator's.
version=$("$python" -c 'import jax; print(jax.__version__)' 2>/dev/null)
"$python" "$top/tests/reference/craftax_worlds.py" --compare "$program" "${CRAFTAX_WORLDS:-200}" \
  >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
if [ $status -eq 1 ] && [ "$version" != 0.10.1 ]; then
  echo "not ok $((test_number + 1)) - fresh worlds against jax $version: $(tail -n 1 "$scratch/log" | cut -c1-80) # TODO jax $version is not the pinned 0.10.1"
  test_number=$((test_number + 1))
  report skipped "jax $version, not the pinned 0.10.1, made a world unlike 0.10.1's"
else
  ok $status "fresh worlds are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
fi
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) worlds equal.*/\1/p' "$scratch/log") Craftax-Classic worlds with JAX's, cell for cell"

# One cell of every C map changed: the comparison must name it.
cat >"$scratch/planted" <<SH
#!/bin/sh
"$program" "\$@" | awk '\$1 == "map" { \$70 = (\$70 == 2 ? 3 : 2) } { print }'
SH
chmod +x "$scratch/planted"
"$python" "$top/tests/reference/craftax_worlds.py" --compare "$scratch/planted" 2 >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "first difference at map\[1\]\[3\]" "$scratch/out"
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "a planted difference is found: $(tail -n 1 "$scratch/out" | cut -c1-100)"
finish
