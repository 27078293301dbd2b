#!/bin/sh
# The project's own reference episodes (tests/data/reference, recorded from
# the reference by tests/reference/episodes.py): replayed with the library
# and compared field by field on every machine; pixel for pixel where
# Crafter's textures are at hand (beside the project, or in the
# reference's virtual environment); and what the set promises to cover
# (every achievement, each cause of death, nights, sleep, the time limit,
# other areas, views and sizes, iron tools, diamonds) is read from the
# traces themselves.
. "$(dirname "$0")/tap.sh"
data=$top/tests/data/reference
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
count=$(ls "$data"/*.jsonl.gz | wc -l | tr -d ' ')
plan 5

"$top/tests/golden-compare" "$data"/*.jsonl.gz >"$scratch/fields" 2>&1
status=$?
[ $status -ne 0 ] && grep -v '^ok' "$scratch/fields" | diag
[ "$(grep -c '^ok' "$scratch/fields")" -eq "$count" ]
ok $(( status || $? )) "$count reference episodes of tests/data/reference replay field by field"
[ $status -eq 0 ] && report compared "$count reference episodes from tests/data/reference replayed field by field"

assets=$(crafter_assets)
if [ -n "$assets" ]; then
  "$top/tests/golden-compare" --textures "$assets" "$data"/*.jsonl.gz >"$scratch/pixels" 2>&1
  status=$?
  [ $status -ne 0 ] && grep -v '^ok' "$scratch/pixels" | diag
  ok $status "and pixel for pixel with Crafter's textures"
  [ $status -eq 0 ] && report compared "$count reference episodes from tests/data/reference compared pixel for pixel"
else
  skip "Crafter's textures are not at hand (../shared or make reference-env): the pixels of tests/data/reference were NOT compared"
fi

if command -v python3 >/dev/null; then
  python3 "$top/tests/reference/episodes.py" --list | cut -f 1 | sort >"$scratch/listed"
  (cd "$data" && ls -- *.jsonl.gz) | sort >"$scratch/present"
  cmp -s "$scratch/listed" "$scratch/present"
  status=$?
  [ $status -ne 0 ] && diff "$scratch/listed" "$scratch/present" | diag
  ok $status "the folder holds exactly the episodes episodes.py lists"

  python3 "$top/tests/reference/episodes.py" --check "$data" >"$scratch/covered" 2>&1
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/covered"
  ok $status "they cover what they promise: $(cut -c1-120 "$scratch/covered")"

  # Without its only death by lava the set falls short, and says so.
  mkdir "$scratch/short"
  for file in "$data"/*.jsonl.gz; do
    case $file in *-s249-*) ;; *) ln -s "$file" "$scratch/short/" ;; esac
  done
  python3 "$top/tests/reference/episodes.py" --check "$scratch/short" >"$scratch/short.log" 2>&1
  [ $? -eq 1 ] && grep -q "missing: death by lava" "$scratch/short.log"
  ok $? "without the episode of seed 249 the check finds no death by lava"
else
  for what in "the list of episodes" "what the episodes cover" "a set that falls short"; do
    skip "python3 not found: $what was NOT checked"
  done
fi
finish
