#!/bin/sh
# crafter-bench: its figures come out in the documented shapes; bad
# options are refused.  No timing is asserted: machines are shared.
. "$(dirname "$0")/tap.sh"
bench=$top/bin/crafter-bench
plan 11

"$bench" --help >"$scratch/help"
ok $? "--help exits 0"
grep -q "reset_us" "$scratch/help" && grep -q -- "--sweep" "$scratch/help"
ok $? "--help explains the figures and options"

"$bench" --steps 2000 --repeats 1 --format json --length 50 >"$scratch/one.json"
ok $? "a short json run"
for key in sps resets_per_s reset_us envs threads bytes_per_env; do
  grep -q "\"$key\": [0-9]" "$scratch/one.json" || echo "# missing $key"
done | grep -q missing
[ $? -ne 0 ] && grep -q '"resets": [1-9]' "$scratch/one.json"
ok $? "json has sps, resets_per_s, reset_us, envs, threads, bytes_per_env and counted resets"

"$bench" --steps 2000 --repeats 1 --envs 4 --threads 2 --obs symbolic --compare "$scratch/one.json" >"$scratch/cmp"
ok $? "--compare against an earlier result"
grep -q "^sps .* [0-9.]*$" "$scratch/cmp"
ok $? "the comparison prints ratios"

"$bench" --steps 1000 --repeats 1 --envs 4 --threads 2 --sweep threads --format json >"$scratch/sweep.json"
[ $? -eq 0 ] && grep -q '"sweep": "threads"' "$scratch/sweep.json" &&
  [ "$(grep -o '"threads": ' "$scratch/sweep.json" | wc -l)" -eq 2 ]
ok $? "--sweep threads measures 1 and 2 threads"

"$bench" --obs text </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid observation kind" "$scratch/err"
ok $? "text observations are refused"

"$bench" --steps 1000 --compare "$scratch/nonexistent.json" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-bench: $scratch/nonexistent.json: No such file" "$scratch/err"
ok $? "a missing comparison file is an error that names the program and the file"
[ ! -s "$scratch/out" ]
ok $? "the comparison file is checked before anything is measured"

if command -v gnuplot >/dev/null 2>&1; then
  "$bench" --steps 4000 --repeats 1 --envs 2 --threads 2 --sweep threads --plot "$scratch/sweep.svg" >/dev/null
  # The first label gnuplot writes is the lowest tick of the y axis.
  first=$(grep -oE '<tspan[^>]*>[^<]*</tspan>' "$scratch/sweep.svg" | head -n 1 | sed 's/<[^>]*>//g; s/ //g')
  [ "$first" = 0 ]
  ok $? "the sweep plot's y axis starts at zero (lowest tick: $first)"
else
  skip "gnuplot is not installed"
fi
finish
