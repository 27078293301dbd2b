#!/bin/sh
# crafter-bench: its figures come out in the documented shapes; bad
# options are refused.  No timing is asserted: machines are shared.
. "$(dirname "$0")/tap.sh"
bench=$top/bin/crafter-bench
plan 17

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

grep -q '"save_us"' "$scratch/one.json"
[ $? -ne 0 ]
ok $? "without --state, no state figures"
"$bench" --steps 2000 --repeats 1 --players 2 --obs pixels --state --format json >"$scratch/state.json" &&
  "$bench" --steps 2000 --repeats 1 --state >"$scratch/state.txt"
[ $? -eq 0 ] && grep -q '"save_us": [0-9.]*, "restore_us": [0-9.]*, "state_bytes": [1-9][0-9]*}$' "$scratch/state.json" &&
  grep -q ' save us restore us state bytes$' "$scratch/state.txt"
ok $? "--state adds save_us, restore_us and state_bytes (json and text): $(grep -o '"save_us.*' "$scratch/state.json")"

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

# --record: every episode of the warm-up (a tenth of the steps) and of
# the repetition, on a world file where nothing can kill the player in
# 50 steps: 2200 steps, 44 episodes of 50 steps, each with a goal.
"$bench" --steps 2000 --repeats 1 --length 50 --world "$top/tests/data/worlds/tree-9x9.txt" \
  --tasks "$top/data/tasks/crafter-tasks.yaml" --task ach.place_table --record "$scratch/b.traj" \
  >/dev/null 2>"$scratch/err"
ok $? "--record with --world and --tasks $(cat "$scratch/err")"
"$top/bin/crafter-dataset" verify "$scratch/b.traj" >"$scratch/verify" 2>&1
grep -q ": 44 episodes, 2200 steps: ok" "$scratch/verify"
ok $? "the recording holds every step measured: $(cat "$scratch/verify")"
"$bench" --levels 2 --world "$top/tests/data/worlds/tree-9x9.txt" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "not with --world" "$scratch/err"
ok $? "--levels and --world together are refused"

if [ -w /dev/full ]; then
  "$bench" --steps 1000 --repeats 1 >/dev/full 2>"$scratch/err"
  [ $? -eq 1 ] && grep -q "^crafter-bench: write error: ." "$scratch/err"
  ok $? "a full output device is a failure that says why: $(cat "$scratch/err")"
else
  skip "no /dev/full"
fi

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
