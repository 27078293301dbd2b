#!/bin/sh
# crafter-step --record when the input ends (crafter-step(1), --record;
# crafter-trajectory(5)): every ended episode is stored, an episode still
# running is stored marked as cut, and an input that ends exactly where an
# episode ended leaves no cut episode of no steps behind -- the episode
# that would come next has not started.  Empty input gives a file of no
# episodes that is whole: header, index and trailer, 192 bytes.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
plan 10

# recorded NAME: the episodes of a recording as "episode length end"
# lines, after checking the file verifies.
recorded() {
  "$dataset" verify "$scratch/$1" >/dev/null 2>&1 || echo "verify failed"
  "$dataset" list "$scratch/$1" 2>&1 | awk -F '\t' 'NR > 1 { print $2, $3, $5, $7 }'
}
# the "episodes" line of crafter-dataset info
episodes() { "$dataset" info "$scratch/$1" | sed -n 's/^episodes  *//p'; }

# Ten actions with a time limit of 5: two episodes end, the input ends
# exactly there.
yes 0 | head -n 10 | "$step" -n 0 --length 5 --record "$scratch/boundary.traj" >/dev/null
[ "$(recorded boundary.traj)" = "$(printf '0 1 5 time_limit\n0 2 5 time_limit')" ] &&
  [ "$(episodes boundary.traj)" = "2: 2 ended (0 died, 2 at the time limit), 0 cut" ]
ok $? "input ending at an episode's end: the two ended episodes and no cut one ($(episodes boundary.traj))"
# Seven actions: the second episode is cut after two steps.
yes 0 | head -n 7 | "$step" -n 0 --length 5 --record "$scratch/middle.traj" >/dev/null
[ "$(recorded middle.traj)" = "$(printf '0 1 5 time_limit\n0 2 2 cut')" ] &&
  [ "$(episodes middle.traj)" = "2: 1 ended (0 died, 1 at the time limit), 1 cut" ]
ok $? "input ending within an episode: it is stored as cut, with its 2 steps ($(episodes middle.traj))"
# Empty input: no episode, a whole file.
"$step" -n 0 --length 5 --record "$scratch/empty.traj" </dev/null >/dev/null
[ -z "$(recorded empty.traj)" ] && [ "$(episodes empty.traj)" = "0: 0 ended (0 died, 0 at the time limit), 0 cut" ] &&
  [ "$(wc -c <"$scratch/empty.traj")" -eq 192 ]
ok $? "empty input: a file of 192 bytes and no episode ($(episodes empty.traj))"
"$dataset" info "$scratch/empty.traj" >"$scratch/info" &&
  grep -q "^index  *present$" "$scratch/info" && grep -q "^damage  *none$" "$scratch/info" &&
  "$dataset" verify "$scratch/empty.traj" >"$scratch/verify" 2>&1 &&
  grep -q "empty.traj: 0 episodes, 0 steps: ok$" "$scratch/verify"
ok $? "and it has its index, no damage, and verifies"
# The default for one environment in JSON lines is one episode: the input
# after it is not played, and nothing is cut.
yes 0 | head -n 7 | "$step" --length 5 --record "$scratch/one.traj" >/dev/null
[ "$(recorded one.traj)" = "0 1 5 time_limit" ]
ok $? "with the default of one episode the rest of the input is not recorded"

# Two environments, the input ending at the end of both episodes, then
# two steps into the next ones.
yes '0 0' | head -n 5 | "$step" -n 0 --envs 2 --length 5 --record "$scratch/two.traj" >/dev/null
[ "$(recorded two.traj)" = "$(printf '0 1 5 time_limit\n1 1 5 time_limit')" ]
ok $? "two environments ending together at the end of the input: two ended episodes"
yes '0 0' | head -n 7 | "$step" -n 0 --envs 2 --length 5 --record "$scratch/two-cut.traj" >/dev/null
[ "$(recorded two-cut.traj)" = "$(printf '0 1 5 time_limit\n1 1 5 time_limit\n0 2 2 cut\n1 2 2 cut')" ]
ok $? "two steps further: each environment's second episode cut"

# The binary protocol: the input ends at a frame boundary that ends an
# episode, or at once.
head -c 10 /dev/zero | "$step" --binary --length 5 --record "$scratch/binary.traj" >/dev/null
[ "$(recorded binary.traj)" = "$(printf '0 1 5 time_limit\n0 2 5 time_limit')" ]
ok $? "binary: ten action bytes, two ended episodes and no cut one"
"$step" --binary --length 5 --record "$scratch/binary-empty.traj" </dev/null >/dev/null
[ -z "$(recorded binary-empty.traj)" ] && [ "$(wc -c <"$scratch/binary-empty.traj")" -eq 192 ]
ok $? "binary: no action bytes, no episode"
# Two environments on two threads (where --threads applies to recording;
# one thread runs otherwise): the same.
head -c 10 /dev/zero | "$step" --binary -n 0 --envs 2 --threads 2 --length 5 \
  --record "$scratch/threads.traj" >/dev/null
[ "$(recorded threads.traj)" = "$(printf '0 1 5 time_limit\n1 1 5 time_limit')" ]
ok $? "binary, two environments on two threads, the input ending where both episodes end: no cut one"
finish
