#!/bin/sh
# A trajectory file cut short (crafter-trajectory(5), Reading): where the
# damage starts and the reason crafter-dataset verify and info give,
# exactly, for a cut at each boundary of a chunk -- at its end (no damage:
# the file of a killed recording), within the 4 bytes of its tag (bytes
# that are no chunk), right after the tag, within its 256-byte header,
# right after the header (no steps), and within its steps.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
plan 10

u32() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }

# Three episodes of 5 steps; the first chunk starts after the 128-byte
# header, the second after the first.
yes 0 | head -n 15 | "$step" -n 0 --length 5 --record "$scratch/run.traj" >/dev/null
first=128
steps1=$(u32 "$scratch/run.traj" $((first + 8)))
second=$((first + 256 + steps1))
steps2=$(u32 "$scratch/run.traj" $((second + 8)))
[ "$(tail -c +$((second + 1)) "$scratch/run.traj" | head -c 4)" = EPSD ] &&
  [ "$steps2" -gt 6 ]
ok $? "the second chunk starts at byte $second and holds $steps2 bytes of steps"

# cut N: the file's first N bytes, verified and described.
cut() {
  head -c "$1" "$scratch/run.traj" >"$scratch/cut.traj"
  "$dataset" verify "$scratch/cut.traj" >"$scratch/verify" 2>&1
  verify_status=$?
  "$dataset" info "$scratch/cut.traj" >"$scratch/info" 2>&1
}
note="cut.traj: note: no trailer at the end: the recording did not finish (killed, or still running) or the end is damaged; 1 episode found by scanning"

cut "$second"
[ $verify_status -eq 0 ] && [ "$(cat "$scratch/verify")" = "$(printf '%s/%s\n%s' "$scratch" "$note" \
  "$scratch/cut.traj: 1 episode, 5 steps: ok")" ] &&
  grep -q "^damage  *none$" "$scratch/info" &&
  grep -q "^episodes  *1: 1 ended (0 died, 1 at the time limit), 0 cut$" "$scratch/info"
ok $? "cut at the end of the first chunk: no damage, one episode found by scanning, verify ok"
[ $verify_status -eq 0 ] || diag <"$scratch/verify"

# damaged N REASON SKIPPED: a cut N bytes into the second chunk is damage
# from the chunk's first byte, for REASON, SKIPPED bytes; verify fails.
damaged() {
  cut $((second + $1))
  skipped="$3 bytes"
  [ "$3" -eq 1 ] && skipped="1 byte"
  expected="$scratch/cut.traj: damaged from byte $second: $2 (1 damaged region, $skipped skipped); 1 complete episode is readable"
  [ $verify_status -eq 1 ] && [ "$(sed -n 2p "$scratch/verify")" = "$expected" ] &&
    [ "$(sed -n 3p "$scratch/verify")" = "$scratch/cut.traj: 1 episode, 5 steps: FAILED" ] &&
    [ "$(sed -n 's/^damage  *//p' "$scratch/info")" = "from byte $second: $2 (1 region, $skipped)" ]
  status=$?
  [ $status -eq 0 ] || { echo "expected: $expected"; cat "$scratch/verify" "$scratch/info"; } | diag
  return $status
}
damaged 1 "1 byte that is no chunk" 1
ok $? "1 byte into the next chunk: 1 byte that is no chunk"
damaged 3 "3 bytes that are no chunk" 3
ok $? "3 bytes in, the tag unfinished: 3 bytes that are no chunk"
damaged 4 "an episode chunk's header is cut short: 4 of 256 bytes" 4
ok $? "4 bytes in, right after the tag: the chunk's header is cut short, 4 of 256 bytes"
damaged 100 "an episode chunk's header is cut short: 100 of 256 bytes" 100
ok $? "100 bytes in: the header is cut short, 100 of 256 bytes"
damaged 255 "an episode chunk's header is cut short: 255 of 256 bytes" 255
ok $? "255 bytes in: the header is cut short, 255 of 256 bytes"
damaged 256 "the episode chunk is cut short: 0 of $steps2 bytes of steps are in the file" 256
ok $? "256 bytes in, at the end of the header: the chunk is cut short, 0 of $steps2 bytes of steps"
damaged 262 "the episode chunk is cut short: 6 of $steps2 bytes of steps are in the file" 262
ok $? "262 bytes in: 6 of $steps2 bytes of steps"
damaged $((256 + steps2 - 1)) \
  "the episode chunk is cut short: $((steps2 - 1)) of $steps2 bytes of steps are in the file" $((256 + steps2 - 1))
ok $? "one byte short of its end: $((steps2 - 1)) of $steps2 bytes of steps"
finish
