#!/bin/sh
# Hostile and impossible requests are refused with a reason, never a
# crash: files whose checksums hold but whose fields would overflow
# (tests/fuzz/corpus holds them, so the fuzz targets run them under the
# sanitizers too), level sets and batches of envs too large for memory,
# and level files that cannot be written.
. "$(dirname "$0")/tap.sh"
plan 12
corpus=$top/tests/fuzz/corpus

# refused PATTERN DESCRIPTION COMMAND...: the command fails (not by a
# signal), saying PATTERN on its standard output or error.
refused() {
  pattern=$1 description=$2
  shift 2
  "$@" >"$scratch/said" 2>&1
  status=$?
  [ "$status" -ne 0 ] && [ "$status" -lt 128 ] && grep -q -e "$pattern" "$scratch/said"
  verdict=$?
  ok $verdict "$description"
  [ $verdict -eq 0 ] || { echo "exit status $status"; cat "$scratch/said"; } | diag
}

refused "the episode's goal is task 2147483648 of a table of 1" \
  "a goal field of 0x80000000 is refused by name" \
  "$top/bin/crafter-dataset" verify "$corpus/traj/goal-overflow.traj"
refused "the episode has a goal, but the file .*no task table" \
  "a goal in a file without a task table is refused" \
  "$top/bin/crafter-dataset" verify "$corpus/traj/goal-without-table.traj"
refused "level 1: the player faces no direction" \
  "a facing of (0x40000000, 0x40000000) is refused" \
  "$top/bin/crafter-gen" --levels "$corpus/levels/facing-overflow.lvl"

if [ -w /dev/full ]; then
  refused "cannot write /dev/full: No space left on device" \
    "--save-levels /dev/full says why it cannot write" \
    "$top/bin/crafter-gen" --levels 3 --save-levels /dev/full
  refused "standard output: No space left on device" \
    "--save-levels - on a full standard output says why" \
    sh -c '"$1" --levels 3 --save-levels - >/dev/full' sh "$top/bin/crafter-gen"
else
  skip "no /dev/full here"
  skip "no /dev/full here"
fi
mkdir "$scratch/locked"
chmod a-w "$scratch/locked"
if [ -w "$scratch/locked" ]; then
  skip "running as a user every folder lets write"
else
  refused "locked/set.lvl: Permission denied" \
    "--save-levels into a folder that takes no files says why" \
    "$top/bin/crafter-gen" --levels 2 --save-levels "$scratch/locked/set.lvl"
fi

refused "1000000 levels of a 4096x4096 area take about [0-9.]* TB of memory, more than the" \
  "a set larger than the machine's memory is refused up front, with its size" \
  "$top/bin/crafter-step" --levels 1000000 --area 4096,4096 </dev/null
# Under AddressSanitizer the address space cannot be limited.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  skip "ulimit -v under the sanitizers"
else
  refused "64x64 area take about [0-9.]* GB of memory, more than the 2.0 GB this process may use" \
    "a set larger than ulimit -v allows is refused up front" \
    sh -c 'ulimit -v 2000000 && exec "$1" --levels 1000000 </dev/null' sh "$top/bin/crafter-step"
fi
# So are envs: how much they would take, and what.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  skip "ulimit -v under the sanitizers"
else
  refused "^crafter-step: 65536 envs with pixels observations take about [0-9.]* GB of memory, more than the 2.0 GB this process may use$" \
    "--envs 65536 -O pixels larger than ulimit -v allows is refused up front, with its size" \
    sh -c 'ulimit -v 2000000 && exec "$1" --envs 65536 -O pixels </dev/null' sh "$top/bin/crafter-step"
fi

# A picture is drawn a band of cells at a time: 6144x6144 pixels (113 MB
# whole) within 60 MB of address space.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  skip "ulimit -v under the sanitizers"
else
  sh -c 'ulimit -v 60000 && exec "$1" --area 96,96 --unit 64 --png "$2"' sh "$top/bin/crafter-gen" \
    "$scratch/big.png" 2>"$scratch/err" &&
    [ "$(od -An -tx1 -j16 -N8 "$scratch/big.png" | tr -d ' \n')" = 0000180000001800 ]
  ok $? "--png draws a picture larger than the memory it may use $(cat "$scratch/err")"
  rm -f "$scratch/big.png"
fi

# The two ways a level file is written -- over a blank header in a file,
# and through a temporary file to a pipe -- give the same bytes.
"$top/bin/crafter-gen" --levels 70 --area 20,18 --seed 4 --threads 1 \
  --save-levels "$scratch/file.lvl" &&
  "$top/bin/crafter-gen" --levels 70 --area 20,18 --seed 4 --threads 1 --save-levels - |
  cat >"$scratch/pipe.lvl"
cmp -s "$scratch/file.lvl" "$scratch/pipe.lvl"
ok $? "a level file written to a file and to a pipe holds the same bytes"
"$top/bin/crafter-gen" --levels "$scratch/pipe.lvl" >"$scratch/list" 2>"$scratch/err" &&
  [ "$(grep -c -v '^#' "$scratch/list")" -eq 70 ]
ok $? "and it reads back whole"
finish
