#!/bin/sh
# CRAFTER_KERNELS=plain forces the plain paths everywhere (the scalar twist
# and draws, world generation without the fast generator, the renderer's
# plain composition, the portable copy of every kernel): the project's own
# reference episodes replay alike, the worlds and statistics of many seeds
# are the same as the fast paths', and the programs say what runs.
. "$(dirname "$0")/tap.sh"
plan 6
data=$top/tests/data/reference
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}

CRAFTER_KERNELS=plain "$top/tests/golden-compare" "$data"/*.jsonl.gz >"$scratch/out" 2>&1
status=$?
[ $status -ne 0 ] && grep -v '^ok' "$scratch/out" | diag
ok $status "the plain paths replay the reference episodes of tests/data/reference"

assets=$(crafter_assets)
if [ -n "$assets" ]; then
  CRAFTER_KERNELS=plain "$top/tests/golden-compare" --textures "$assets" "$data"/*.jsonl.gz \
    >"$scratch/out" 2>&1
  status=$?
  [ $status -ne 0 ] && grep -v '^ok' "$scratch/out" | diag
  ok $status "and draw their pixels"
else
  skip "Crafter's textures are not at hand: the plain paths' pixels were NOT compared"
fi

gen=$top/bin/crafter-gen
# The first line says how long it took; the rest is what the worlds hold.
"$gen" --stats --seeds 1-60 --area 48,40 | tail -n +2 >"$scratch/fast" &&
  CRAFTER_KERNELS=plain "$gen" --stats --seeds 1-60 --area 48,40 | tail -n +2 >"$scratch/plain" &&
  [ "$(wc -l <"$scratch/fast")" -gt 5 ] && cmp -s "$scratch/fast" "$scratch/plain"
ok $? "the statistics of 60 worlds are the same either way"
"$gen" --seed 5 --area 30,20 >"$scratch/map" && CRAFTER_KERNELS=plain "$gen" --seed 5 --area 30,20 |
  cmp -s - "$scratch/map"
ok $? "and so is the map of a world"

"$top/bin/crafter-bench" --steps 1000 --repeats 1 >"$scratch/bench" 2>&1 &&
  CRAFTER_KERNELS=plain "$top/bin/crafter-bench" --steps 1000 --repeats 1 >"$scratch/bench-plain" 2>&1
status=$?
grep -q "kernels: plain paths" "$scratch/bench-plain" && ! grep -q "kernels: plain paths" "$scratch/bench"
ok $(( status || $? )) "crafter-bench says what runs: $(sed -n 's/.*kernels: //p' "$scratch/bench") by default, $(sed -n 's/.*kernels: //p' "$scratch/bench-plain") with CRAFTER_KERNELS=plain"

CRAFTER_KERNELS=plain "$top/bin/crafter-bench" --steps 1000 --repeats 1 --format json |
  grep -q '"kernels": "plain paths"'
ok $? "and so does its JSON"
finish
