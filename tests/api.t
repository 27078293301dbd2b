#!/bin/sh
# Trajectory files through the public interface alone (crafter/crafter.h:
# tests/api-trajectory is built with nothing of lib/ on its include path):
# a program's recording is byte for byte the file crafter-step --record
# writes of the same game, with one player and two, by Crafter's rules
# and by a configuration file; the reader's summaries are crafter-dataset
# list's, and each world played again from the actions read plays as
# recorded; and what the interface refuses, it says.
. "$(dirname "$0")/tap.sh"
plan 8
tool=$top/tests/api-trajectory
step=$top/bin/crafter-step

# lines N COUNT SEED: COUNT lines of N random actions.
lines() {
  awk -v n="$1" -v count="$2" -v seed="$3" 'BEGIN { srand(seed); for (i = 0; i < count; i++) {
    line = ""; for (k = 0; k < n; k++) line = line (k ? " " : "") int(rand() * 17); print line } }'
}
printf 'players:\n  damage: 2\nitems:\n  wood: {max: 50, initial: 3}\nenv:\n  length: 150\n' \
  >"$scratch/rules.yaml"

# same NAME PLAYERS [CONFIG]: records a game both ways and compares.
same() {
  name=$1 players=$2 config=$3
  lines "$players" 1500 "$players" >"$scratch/$name.actions"
  "$tool" record 7 "$players" "$scratch/$name-api.traj" $config <"$scratch/$name.actions" \
    2>"$scratch/log" &&
    $step --seed 7 --players "$players" --episodes 1000 ${config:+--config "$config"} \
      --record "$scratch/$name-step.traj" <"$scratch/$name.actions" >/dev/null 2>>"$scratch/log" &&
    [ "$("$top/bin/crafter-dataset" list "$scratch/$name-step.traj" | wc -l)" -gt 3 ] &&
    cmp "$scratch/$name-api.traj" "$scratch/$name-step.traj" >>"$scratch/log" 2>&1
}

same one 1
ok $? "one player: the program's recording is crafter-step --record's file"
diag <"$scratch/log"
same two 2
ok $? "two players: the program's recording is crafter-step --record's file"
diag <"$scratch/log"
same rules 1 "$scratch/rules.yaml"
ok $? "by a configuration file: the program's recording is crafter-step --record's file"
diag <"$scratch/log"

# listed NAME [CONFIG]: the reader's list is crafter-dataset's, and every
# world replays.
listed() {
  "$tool" list "$scratch/$1-api.traj" $2 >"$scratch/ours" 2>"$scratch/replays" &&
    "$top/bin/crafter-dataset" list "$scratch/$1-api.traj" >"$scratch/theirs" &&
    cmp -s "$scratch/ours" "$scratch/theirs"
}
listed one && listed two && listed rules "$scratch/rules.yaml"
ok $? "the summaries read through the interface are crafter-dataset list's"
diff "$scratch/ours" "$scratch/theirs" | head -n 5 | diag
for name in one two; do
  "$tool" list "$scratch/$name-api.traj" >/dev/null 2>"$scratch/replays-$name"
done
cat "$scratch/replays-one" "$scratch/replays-two" "$scratch/replays" >"$scratch/all-replays"
! grep -v ' replayed$' "$scratch/all-replays" >"$scratch/bad" && [ -s "$scratch/all-replays" ]
ok $? "every world played again from the actions read plays as recorded ($(wc -l <"$scratch/all-replays") episodes)"
diag <"$scratch/bad"

(cd "$scratch" && "$tool" errors) >"$scratch/errors" 2>&1
grep -qx 'config: no-such-config.yaml: No such file or directory' "$scratch/errors" &&
  grep -qx 'textures: textures folder no-such-folder does not exist' "$scratch/errors" &&
  grep -q '^params: area must be ' "$scratch/errors"
ok $? "a file or folder that is not there, and parameters out of range, are said"
diag <"$scratch/errors"
grep -qx 'recording by another configuration: the configuration given is not the one the env plays by' \
  "$scratch/errors" &&
  grep -qx 'agent: the agent'"'"'s name "an agent of a long name" is longer than 16 bytes' "$scratch/errors" &&
  [ ! -e "$scratch/unused.traj" ]
ok $? "a recording by another configuration than the env's, or of an agent's name too long, is refused before a file is made"
grep -qx 'player 1 of a game of one: position -1, inventory 0' "$scratch/errors"
ok $? "a player the game does not have has no position and holds nothing"
finish
