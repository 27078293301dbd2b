#!/bin/sh
# Craftax-Classic's world generation against JAX itself, where the
# reference is installed (make craftax-env, or CRAFTAX_ENV naming a
# virtual environment with craftax): 200 fresh random seeds a run, every
# field of each first state (the 64x64 map, the player, the creature and
# plant arrays, the light level, the key) compared value for value with
# the C generator's (tests/reference/craftax_worlds.py --compare), the
# first difference said; and a planted difference is found.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-craftax-worldgen
craftax_or_skip "the worlds"

# The pinned reference is jax 0.10.1; 0.10.2 compiles the graph otherwise
# and 3 of the first 10,000 seeds' worlds differ by a cell from 0.10.1's
# (seeds 2620, 6527, 7726).  Under another version a difference is said,
# but as a TODO: it is that version's, not the generator's.
version=$("$python" -c 'import jax; print(jax.__version__)' 2>/dev/null)
craftax_compare craftax_worlds.py "$program" "${CRAFTAX_WORLDS:-200}"
status=$?
if [ $status -eq 1 ] && [ "$version" != 0.10.1 ]; then
  echo "not ok $((test_number + 1)) - fresh worlds against jax $version: $(tail -n 1 "$scratch/log" | cut -c1-80) # TODO jax $version is not the pinned 0.10.1"
  test_number=$((test_number + 1))
  report skipped "jax $version, not the pinned 0.10.1, made a world unlike 0.10.1's"
else
  ok $status "fresh worlds are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
fi
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) worlds equal.*/\1/p' "$scratch/log") Craftax-Classic worlds with JAX's, cell for cell"

# One cell of every C map changed: the comparison must name it.
craftax_planted craftax_worlds.py "$program" '$1 == "map" { $70 = ($70 == 2 ? 3 : 2) } { print }' \
  "a planted difference is found" "first difference at map\[1\]\[3\]"
finish
