#!/bin/sh
# The configuration as the programs use it: data/crafter.yaml replays every
# reference episode; changed values change worlds and episodes; bad files
# are refused with the line and what was expected.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
compare=$top/tests/golden-compare
plan 12

if ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1; then
  "$compare" --config "$top/data/crafter.yaml" "$GOLDEN_DIR"/*.jsonl.gz >"$scratch/golden"
  status=$?
  [ $status -ne 0 ] && grep -v '^ok' "$scratch/golden" | diag
  ok $status "every reference episode replays with data/crafter.yaml loaded"
  first=$(ls "$GOLDEN_DIR"/*.jsonl.gz | head -n 1)
  printf 'daylight:\n  length: 200\n' >"$scratch/day.yaml"
  "$compare" --config "$scratch/day.yaml" "$first" >"$scratch/day" 2>&1
  [ $? -ne 0 ] && grep -q "field daylight differs" "$scratch/day"
  ok $? "a day of 200 steps departs from the reference in daylight"
  printf 'items:\n  health: {max: 9, initial: 8}\n' >"$scratch/health.yaml"
  "$compare" --config "$scratch/health.yaml" "$first" >"$scratch/health" 2>&1
  [ $? -ne 0 ]
  ok $? "a different initial health departs from the reference"
else
  skip "no reference traces in $GOLDEN_DIR"
  skip "no reference traces in $GOLDEN_DIR"
  skip "no reference traces in $GOLDEN_DIR"
fi

"$gen" --seed 4 >"$scratch/plain"
"$gen" --seed 4 --config "$top/data/crafter.yaml" >"$scratch/configured"
cmp -s "$scratch/plain" "$scratch/configured"
ok $? "crafter-gen draws the same world with data/crafter.yaml"

printf 'worldgen:\n  tree: {probability: 0}\n' >"$scratch/notrees.yaml"
"$gen" --seed 4 --config "$scratch/notrees.yaml" | head -n 64 >"$scratch/notrees"
grep -q T "$scratch/plain" && ! grep -q T "$scratch/notrees" && [ "$(wc -l <"$scratch/notrees")" -eq 64 ]
ok $? "a tree probability of 0 gives no trees"

printf 'worldgen:\n  water: {threshold: 5}\n  sand: {water_max: -5}\n' >"$scratch/dry.yaml"
"$gen" --seed 4 --config "$scratch/dry.yaml" | head -n 64 >"$scratch/dry"
grep -q '~' "$scratch/plain" && ! grep -q '[~:]' "$scratch/dry"
ok $? "a water threshold above every noise value gives no water or sand"

printf 'env:\n  area: [30, 20]\n' >"$scratch/area.yaml"
"$gen" --config "$scratch/area.yaml" | head -n 20 | awk 'length($0) != 30 { bad = 1 } END { exit bad }'
ok $? "the env section sets the area"
"$gen" --config "$scratch/area.yaml" --area 12,10 | head -n 11 | awk 'NR <= 10 && length($0) != 12 { bad = 1 } NR == 11 && $0 != "" { bad = 1 } END { exit bad }'
ok $? "a command-line option rules over the file"

printf 'worldgen:\n  tree: {probablity: 0}\n' >"$scratch/typo.yaml"
"$gen" --config "$scratch/typo.yaml" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "typo.yaml:2:10: unknown key 'probablity' in worldgen.tree (expected one of: noise, size, probability)" "$scratch/err"
ok $? "an unknown key is an error naming the line, column and the keys expected"

printf 'balance:\n  cow:\n    material: cheese\n' >"$scratch/cheese.yaml"
"$gen" --config "$scratch/cheese.yaml" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "cheese.yaml:3:15: balance.cow.material: unknown name 'cheese'" "$scratch/err"
ok $? "an unknown material is an error naming the line"

"$gen" --config "$scratch/missing.yaml" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "missing.yaml: No such file" "$scratch/err"
ok $? "a missing file is an error"

"$top/bin/crafter-bench" --config "$scratch/notrees.yaml" --steps 500 --repeats 1 --format json >"$scratch/bench" &&
  grep -q '"sps": [0-9]' "$scratch/bench"
ok $? "crafter-bench runs with --config"
finish
