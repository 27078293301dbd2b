#!/bin/sh
# A recording never costs a file its episodes: onto a trajectory that is
# there, crafter-step --record and crafter-dataset record write aside and
# replace it only once the recording has finished an episode; bad input,
# or input that stops mid-episode, leaves the old file whole.  A file that cannot be written fails the run (status
# 1), as crafter-step(1) says.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
plan 6

"$dataset" record -q -n 6 --seed 2 -o "$scratch/good.traj" &&
  cp "$scratch/good.traj" "$scratch/before.traj"
printf 'bogus\n' | "$step" --record "$scratch/good.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && cmp -s "$scratch/good.traj" "$scratch/before.traj" &&
  [ "$(ls "$scratch" | grep -c '^good.traj')" -eq 1 ]
ok $? "bad input to a recording onto a file of 6 episodes leaves it as it was, and nothing beside it"

printf '\000\000\021' | "$step" --binary --record "$scratch/good.traj" >/dev/null 2>&1
[ $? -eq 1 ] && "$dataset" info "$scratch/good.traj" | grep -q '^episodes *6:'
ok $? "so does a binary recording that stops on a bad byte after two steps: 6 episodes still"

printf '0\n0\n0\n' | "$step" --record "$scratch/good.traj" >/dev/null &&
  "$dataset" info "$scratch/good.traj" | grep -q '^episodes *6:' &&
  printf '0\n0\n0\n0\n' | "$step" --length 3 --envs 1 -n 0 --record "$scratch/good.traj" >/dev/null &&
  "$dataset" info "$scratch/good.traj" | grep -q '^episodes *2: 1 ended.*1 cut'
ok $? "an episode cut after 3 steps does not replace it; one that ended (and the next, cut) does"

cp "$scratch/before.traj" "$scratch/again.traj"
"$dataset" record -q -n 2 --seed 3 -o "$scratch/again.traj" &&
  "$dataset" info "$scratch/again.traj" | grep -q '^episodes *2:'
ok $? "crafter-dataset record onto a file replaces it with its own episodes"

"$step" --record /dev/full </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: writing /dev/full: No space left on device$" "$scratch/err"
ok $? "a file that cannot be written: status 1 and the reason: $(cat "$scratch/err")"

"$dataset" record -q -n 1 -o /dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$scratch/err"
ok $? "crafter-dataset record to a full device: status 1: $(cat "$scratch/err")"
finish
