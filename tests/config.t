#!/bin/sh
# The configuration as the programs use it: data/crafter.yaml replays every
# reference episode; changed values change worlds and episodes; bad files
# are refused with the line and what was expected.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
compare=$top/tests/golden-compare
plan 16

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

# nested N: a mapping holding N-1 nested flow sequences, N levels deep.
nested() { awk -v n="$1" 'BEGIN { s = "a: "; for (i = 1; i < n; i++) s = s "["; for (i = 1; i < n; i++) s = s "]"; print s }'; }
nested 100000 >"$scratch/deep.yaml"
"$gen" --config "$scratch/deep.yaml" >/dev/null 2>"$scratch/err"
# The 33rd level is the 32nd '[', at column 3 + 32.
[ $? -eq 1 ] && grep -q "deep.yaml:1:35: nested more than 32 deep" "$scratch/err"
ok $? "a file nested 100000 deep is refused at the 33rd level: $(cat "$scratch/err")"
nested 32 >"$scratch/deep32.yaml"
"$gen" --config "$scratch/deep32.yaml" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && ! grep -q "nested" "$scratch/err" && grep -q "unknown key 'a'" "$scratch/err"
ok $? "32 levels are read (and the key refused as unknown): $(cat "$scratch/err")"
# Comment lines of 1024 bytes: 1024 of them make 1 MiB, the most allowed.
awk 'BEGIN { s = "#"; for (i = 1; i < 1023; i++) s = s "x"; for (i = 0; i < 1024; i++) print s }' >"$scratch/mib.yaml"
"$gen" --config "$scratch/mib.yaml" >/dev/null
ok $? "a configuration of 1 MiB (comments only) is read"
printf '#\n' >>"$scratch/mib.yaml"
"$gen" --config "$scratch/mib.yaml" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "mib.yaml: larger than 1048576 bytes" "$scratch/err"
ok $? "a configuration over 1 MiB is refused, saying so: $(cat "$scratch/err")"

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
