#!/bin/sh
# The six programs behave alike: output that cannot be written is an
# error that names the program.
. "$(dirname "$0")/tap.sh"
bin=$top/bin
plan 14

"$bin/crafter-dataset" record -q -n 3 --seed 1 -o "$scratch/small.traj" || echo "# record failed"

# /dev/full takes no byte: whatever a program prints fails with ENOSPC.
full() { # full DESCRIPTION COMMAND...: exits 1 and says "write error"
  description=$1
  shift
  echo noop | "$@" >/dev/full 2>"$scratch/err"
  status=$?
  [ $status -eq 1 ] && grep -q "^crafter-[a-z]*: write error" "$scratch/err"
  ok $? "$description >/dev/full exits 1 with a write error (exit $status: $(head -c 200 "$scratch/err"))"
}
full "crafter-dataset list" "$bin/crafter-dataset" list "$scratch/small.traj"
full "crafter-dataset info" "$bin/crafter-dataset" info "$scratch/small.traj"
full "crafter-dataset verify" "$bin/crafter-dataset" verify "$scratch/small.traj"
full "crafter-bench" "$bin/crafter-bench" --steps 1000 --repeats 1
full "crafter-gen --stats" "$bin/crafter-gen" --stats --seeds 1-2 --threads 1
full "crafter-gen" "$bin/crafter-gen" --seed 1
full "crafter-score" "$bin/crafter-score" "$scratch/small.traj"
full "crafter-step --help" "$bin/crafter-step" --help
full "crafter-play --version" "$bin/crafter-play" --version

echo noop | "$bin/crafter-step" --seed 1 >/dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: .*No space left on device" "$scratch/err"
ok $? "crafter-step >/dev/full exits 1 and says why"
"$bin/crafter-play" --keys ww >/dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-play: .*No space left on device" "$scratch/err"
ok $? "crafter-play --keys >/dev/full exits 1 and says why"
[ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "a failed write is reported once"

# A reader that goes away: with SIGPIPE ignored the writes fail with EPIPE.
# The listing is larger than any pipe buffer, so some write must fail.
"$bin/crafter-dataset" record -q -n 3000 --steps 1 --seed 1 -o "$scratch/many.traj" || echo "# record failed"
status=$( (trap '' PIPE; "$bin/crafter-dataset" list "$scratch/many.traj" 2>"$scratch/err"; echo $? >"$scratch/status") | head -n 1 >/dev/null; cat "$scratch/status")
[ "$status" -ne 0 ] && grep -q "^crafter-dataset: write error" "$scratch/err"
ok $? "list | head -1 with SIGPIPE ignored exits non-zero (exit $status)"
status=$( (trap '' PIPE; "$bin/crafter-gen" --seed 1 --area 400,400 2>"$scratch/err"; echo $? >"$scratch/status") | head -n 1 >/dev/null; cat "$scratch/status")
[ "$status" -ne 0 ] && grep -q "^crafter-gen: write error" "$scratch/err"
ok $? "crafter-gen | head -1 with SIGPIPE ignored exits non-zero (exit $status)"

finish
