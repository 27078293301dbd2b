#!/bin/sh
# Trajectory files from crafter-step --record: what they hold, their exact
# re-simulation, and damaged files (truncated, bytes flipped) read by the
# programs without a crash.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
plan 12

"$step" --help | grep -q -- "--record=FILE"
ok $? "crafter-step --help lists --record"

# Two envs, three episodes of 30 steps each ended, the rest cut short.
seq 0 199 | awk '{ print ($1 * 7) % 17, ($1 * 11) % 17 }' >"$scratch/actions"
"$step" --seed 9 --envs 2 --length 30 --episodes 0 --obs symbolic --record "$scratch/run.traj" \
  <"$scratch/actions" >"$scratch/out"
ok $? "crafter-step --record writes a file"
[ "$(head -c 8 "$scratch/run.traj")" = CRAFTTRJ ]
ok $? "it starts with the magic"
"$dataset" list "$scratch/run.traj" >"$scratch/list"
[ "$(grep -c "time_limit" "$scratch/list")" -eq 12 ] && [ "$(grep -c "cut" "$scratch/list")" -eq 2 ] &&
  [ "$(awk 'NR > 1 { print $2 }' "$scratch/list" | sort -u | tr '\n' ' ')" = "10 9 " ]
ok $? "every episode of both envs is there; the two the input ended are marked cut"
"$dataset" info "$scratch/run.traj" >"$scratch/info"
grep -q "^agent  *external" "$scratch/info" && grep -q "^observations  *symbolic" "$scratch/info"
ok $? "info tells the agent and observations"
"$dataset" verify --resimulate "$scratch/run.traj" >"$scratch/out"
ok $? "every step re-simulates exactly: $(tail -1 "$scratch/out")"

# The rewards crafter-step printed are the ones stored.
cut -d' ' -f1 "$scratch/actions" >"$scratch/actions1"
"$step" --seed 9 --length 30 --episodes 1 --record "$scratch/one.traj" <"$scratch/actions1" |
  sed -n 's/.*"reward": \([-0-9.]*\).*/\1/p' | awk '{ s += $1 } END { printf "%.1f\n", s }' >"$scratch/printed"
"$dataset" list "$scratch/one.traj" | awk 'NR == 2 { print $6 }' >"$scratch/stored"
[ -s "$scratch/stored" ] && cmp -s "$scratch/printed" "$scratch/stored"
ok $? "the stored return is the sum of the printed rewards ($(cat "$scratch/stored"))"

# --no-reward stores Crafter's info['reward'] all the same.
"$step" --seed 9 --length 30 --episodes 1 --no-reward --record "$scratch/noreward.traj" <"$scratch/actions1" >/dev/null
"$dataset" list "$scratch/noreward.traj" | awk 'NR == 2 { print $6 }' >"$scratch/stored2"
cmp -s "$scratch/stored" "$scratch/stored2" && "$dataset" verify -r "$scratch/noreward.traj" >/dev/null
ok $? "--no-reward stores info['reward'] and re-simulates"

# Truncated at many offsets: whole episodes are read, damage is named, no crash.
size=$(wc -c <"$scratch/run.traj")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
  head -c $cut "$scratch/run.traj" >"$scratch/cut.traj"
  "$dataset" verify "$scratch/cut.traj" >"$scratch/out" 2>"$scratch/err"
  status=$?
  if [ $status -gt 1 ]; then bad=$((bad + 1)); echo "# cut at $cut: status $status"; fi
  if [ $cut -ge 128 ] && ! grep -q "found by scanning" "$scratch/out"; then bad=$((bad + 1)); fi
  cut=$((cut + 97))
done
ok $bad "truncated every 97 bytes: verify answers 0 or 1 and finds the episodes by scanning"

# Bytes flipped at random places: verify answers, never crashes.
bad=0
for seed in $(seq 1 40); do
  perl -e 'srand(shift); local $/; my $d = <STDIN>;
           for (1 .. 1 + int(rand(3))) { my $i = int(rand(length $d)); substr($d, $i, 1) = chr(ord(substr($d, $i, 1)) ^ (1 + int(rand(255)))) }
           print $d' $seed <"$scratch/run.traj" >"$scratch/flip.traj"
  "$dataset" verify --resimulate "$scratch/flip.traj" >/dev/null 2>&1
  status=$?
  [ $status -gt 1 ] && { bad=$((bad + 1)); echo "# flip seed $seed: status $status"; }
  "$dataset" list "$scratch/flip.traj" >/dev/null 2>&1
  status=$?
  [ $status -gt 1 ] && { bad=$((bad + 1)); echo "# flip seed $seed: list status $status"; }
done
ok $bad "40 files with flipped bytes: verify and list answer 0 or 1"

printf 'CRAFTTRJ\001\000' >"$scratch/short.traj"
"$dataset" info "$scratch/short.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "crafter-dataset: .*short.traj: the header is cut short" "$scratch/err"
ok $? "a cut header: $(cat "$scratch/err")"
"$dataset" verify "$top/README" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "not a trajectory file" "$scratch/err"
ok $? "another file: $(cat "$scratch/err")"
finish
