#!/bin/sh
# Writing onto a file that is there, stopped by a signal
# (crafter-step(1), crafter-dataset(1), crafter-gen(1), SIGNALS): a
# recording takes the name at its first finished episode, so once one
# ended any stop leaves the episodes at the name and no temporary; before,
# the old file stays byte for byte.  SIGINT, SIGTERM, SIGHUP and SIGPIPE
# remove the temporary and end the program by the signal (status 128+N).
# A signal that comes while a chunk is written waits for the chunk.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
gen=$top/bin/crafter-gen
plan 17

cd "$scratch" || exit 1

# A background job of a shell script ignores SIGINT; the programs run
# through ./unignored, with every signal at its default as from a terminal
# (an exec, so that $! is the program's process).
if env --default-signal true 2>/dev/null; then
  printf '#!/bin/sh\nexec env --default-signal "$@"\n' >unignored
else
  printf '#!/bin/sh\nexec perl -e %s "$@"\n' \
    "'\$SIG{\$_} = \"DEFAULT\" for qw(INT TERM HUP PIPE); exec @ARGV or exit 127'" >unignored
fi
chmod +x unignored
unignored=$scratch/unignored

# wait_until COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails
# after 600 tries, so that a broken program fails the test, not hangs it.
wait_until() {
  tries=0
  until "$@"; do
    tries=$((tries + 1))
    [ $tries -ge 600 ] && return 1
    sleep 0.1
  done
}

# The file that is there: four finished episodes of 5 steps.
yes 0 | head -n 20 | "$step" -n 0 --length 5 --record old.traj >/dev/null

# Whether the recording into run.traj finished an episode: the name holds
# something new, or a temporary beside it holds an episode (so that a
# program that never renames is caught below, not waited for).
ended_one() {
  cmp -s run.traj old.traj || return 0
  for temporary in run.traj.tmp.*; do
    [ -f "$temporary" ] && "$dataset" list "$temporary" 2>/dev/null | tail -n +2 | grep -q . &&
      return 0
  done
  return 1
}
temporary_made() { ls | grep -q '^run\.traj\.tmp\.'; }
leftovers() { ls | grep '\.tmp\.'; }

# ended_by STATUS SIGNAL: the status of a process SIGNAL ended.
ended_by() { [ "$1" -gt 128 ] && [ "$(kill -l $(($1 - 128)))" = "$2" ]; }

# checked SIGNAL STATUS DESCRIPTION: the name holds the new recording, a
# trajectory of at least one episode that verify accepts (after SIGKILL,
# or reports damaged at the end, where the kill cut a chunk, its whole
# episodes readable), no temporary is left, and the program ended by
# SIGNAL.
checked() {
  "$dataset" verify run.traj >verify 2>&1
  verified=$?
  episodes=$(sed -n 's/^run\.traj: \([0-9]*\) episodes\{0,1\}, .*/\1/p' verify)
  { [ $verified -eq 0 ] ||
    { [ "$1" = KILL ] &&
      grep -Eq "^run\.traj: damaged from byte [0-9]+: .*; [0-9]+ complete episodes? (is|are) readable$" verify; }; } &&
    [ "${episodes:-0}" -ge 1 ] && ! cmp -s run.traj old.traj && [ -z "$(leftovers)" ] &&
    ended_by "$2" "$1"
  result=$?
  [ $result -ne 0 ] && { echo "status $2"; cat verify; leftovers; } | diag
  ok $result "$3"
  rm -f run.traj.tmp.*
}

# stopped_after SIGNAL WHAT COMMAND...: COMMAND, with actions on its
# input, records onto run.traj (a copy of old.traj) until SIGNAL stops it,
# once an episode has ended.
stopped_after() {
  signal=$1 what=$2
  shift 2
  cp old.traj run.traj
  yes 0 | "$unignored" "$@" >/dev/null 2>err &
  pid=$!
  wait_until ended_one
  kill -s $signal $pid
  wait $pid 2>/dev/null
  checked $signal $? "$what onto a file, SIG$signal after an episode: the episodes at the name"
}
for signal in INT TERM HUP KILL; do
  stopped_after $signal "crafter-step --record" "$step" -n 0 --length 5 --record run.traj
done

# SIGPIPE: the reader of the records goes away after a finished episode.
cp old.traj run.traj
{ yes 0 | "$unignored" "$step" -n 0 --length 5 --record run.traj 2>err; echo $? >status; } |
  grep -m 1 -q '"done": true'
checked PIPE "$(cat status)" "crafter-step --record onto a file, its reader gone (SIGPIPE): the episodes at the name"

for signal in INT TERM HUP PIPE KILL; do
  stopped_after $signal "crafter-dataset record" "$dataset" record -n 1000000 --steps 10 -o run.traj
done

# Stopped before its first episode ends (two steps of five played): the
# old file stays byte for byte; a catchable signal removes the temporary.
mkfifo actions
for signal in INT TERM HUP KILL; do
  cp old.traj run.traj
  "$unignored" "$step" -n 0 --length 5 --record run.traj <actions >/dev/null 2>err &
  pid=$!
  exec 3>actions
  printf '0\n0\n' >&3
  wait_until temporary_made
  kill -s $signal $pid
  wait $pid 2>/dev/null
  status=$?
  exec 3>&-
  cmp -s run.traj old.traj && ended_by $status $signal &&
    { [ $signal = KILL ] || [ -z "$(leftovers)" ]; }
  result=$?
  [ $result -ne 0 ] && { echo "status $status"; leftovers; } | diag
  ok $result "crafter-step --record, SIG$signal before an episode ended: the old file as it was$([ $signal = KILL ] || echo ', no temporary')"
  rm -f run.traj.tmp.*
done

# crafter-gen --save-levels writes aside (hundreds of MB for large sets):
# a signal removes the temporary, and the old file stays.
echo "old levels" >levels
for signal in INT TERM; do
  "$unignored" "$gen" --levels 1000000 --save-levels levels --threads 1 2>err &
  pid=$!
  wait_until eval 'ls | grep -q "^levels\.tmp\."'
  kill -s $signal $pid
  wait $pid 2>/dev/null
  status=$?
  [ "$(cat levels)" = "old levels" ] && [ -z "$(leftovers)" ] && ended_by $status $signal
  result=$?
  [ $result -ne 0 ] && { echo "status $status"; leftovers; } | diag
  ok $result "crafter-gen --save-levels, SIG$signal: the old file as it was, no temporary"
  rm -f levels.tmp.*
done
# A signal that comes while a chunk is being written ends the program
# only once the chunk is whole.  The recording goes to a FIFO whose
# reader takes its first K bytes, K a thousand bytes into the steps of
# a chunk of more than a MiB, then sends SIGTERM and only then reads on:
# at the signal the program has written part of that chunk and cannot
# have written the rest, which no pipe holds, so it is blocked in the
# middle of the chunk.  What the reader gets is the recording up to the
# end of that chunk, which verifies.
"$dataset" record -q -n 2 --steps 300 --size 128,128 --obs pixels -o whole.traj
perl -e 'local $/; my $d = <STDIN>;
  my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
  while (substr($d, $at, 4) eq "EPSD") {
    my $end = $at + 256 + unpack("Q<", substr($d, $at + 8, 8));
    print $at + 1256, " $end\n" if $end - $at > 2**20 + 1256;
    $at = $end;
  }' <whole.traj | head -n 1 >cut
read -r at end <cut
mkfifo recording
"$unignored" "$dataset" record -q -n 2 --steps 300 --size 128,128 --obs pixels -o recording 2>err &
pid=$!
{
  dd bs="${at:-0}" count=1 iflag=fullblock of=received 2>/dev/null
  kill -s TERM $pid
  cat >>received
} <recording
wait $pid
status=$?
head -c "${end:-0}" whole.traj >expected
"$dataset" verify received >verify 2>&1
verified=$?
[ -n "$at" ] && ended_by $status TERM && cmp -s received expected && [ $verified -eq 0 ]
result=$?
[ $result -ne 0 ] && { echo "status $status, $(wc -c <received) bytes received, a chunk from $at to $end"; cat err verify; } | diag
ok $result "crafter-dataset record into a FIFO, SIGTERM while a chunk is blocked half written: the chunk is finished, then the program ends"
finish
