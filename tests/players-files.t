#!/bin/sh
# Trajectory files of several players (crafter-trajectory(5), version 4):
# a world episode is a chunk per player, and every reader takes whole
# world episodes only.  Level sets number a world's chunks alike, so such
# files verify; a world missing a chunk is damage to verify, info, list
# and crafter-score alike, and merge repairs by dropping it whole; the
# replay plays every player's actions; export npz, frames and video work
# per player; a configuration is kept with the players; crafter-score
# gives each player's column that player's episodes only.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
play=$top/bin/crafter-play
plan 2

# bytes COUNT SEED: COUNT random action bytes.
bytes() {
  awk -v count="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < count; i++) printf "%c", int(rand() * 17) }'
}
# chunks FILE: "offset player" of each episode chunk, walked from the
# header (and the tables after it) on.
chunks() {
  perl -e 'local $/; my $d = <STDIN>;
    my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
    while (substr($d, $at, 4) eq "EPSD") {
      print "$at ", unpack("V", substr($d, $at + 236, 4)) - 1, "\n";
      $at += 256 + unpack("Q<", substr($d, $at + 8, 8));
    }' <"$1"
}

# 1-2. On a level set every chunk of a world carries the world's place,
# so the players' chunks are found together.
"$dataset" record -q -o "$scratch/levels.traj" -n 4 --steps 10 --area 16,16 --players 2 \
  --levels 3
"$dataset" verify --resimulate "$scratch/levels.traj" >"$scratch/out" 2>&1
ok $? "record --players 2 --levels 3 verifies: $(tail -n 1 "$scratch/out")"
bytes 200 1 | "$step" --binary --players 2 --levels 3 --area 16,16 --length 10 \
  --record "$scratch/step-levels.traj" >/dev/null
"$dataset" verify --resimulate "$scratch/step-levels.traj" >"$scratch/out" 2>&1
ok $? "crafter-step --binary --players 2 --levels 3 --record verifies: $(tail -n 1 "$scratch/out")"

finish
