#!/bin/sh
# A world without room for every player (crafter(7), SEVERAL PLAYERS):
# each player starts on a cell of grass, sand or path without a creature;
# when the world has fewer, every program says so, with the number it has,
# and exits 1 -- a generated area as a world file.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
bench=$top/bin/crafter-bench
plan 10

cd "$scratch" || exit 1

# The cells a player may start on in a map's rows: grass, sand, path and
# the players already there.
start_cells() { tr -cd '.:_@' | wc -c | tr -d ' '; }

# refused PROGRAM-NAME EXPECTED DESCRIPTION COMMAND...: COMMAND exits 1
# and says exactly "PROGRAM-NAME: EXPECTED".
refused() {
  name=$1 expected=$2 description=$3
  shift 3
  "$@" </dev/null >/dev/null 2>err
  status=$?
  [ $status -eq 1 ] && [ "$(cat err)" = "$name: $expected" ]
  result=$?
  [ $result -ne 0 ] && { echo "expected 1, '$name: $expected'"; echo "got $status"; cat err; } | diag
  ok $result "$description"
}

# A generated 3x3 area: its cells by crafter-gen's map (the first 3 rows).
cells=$("$gen" --area 3,3 | head -n 3 | start_cells)
[ "$cells" -ge 1 ] && [ "$cells" -le 9 ]
ok $? "the generated 3x3 world has $cells cells to start on"
message="no room for 16 players in the 3x3 world: each starts on a cell of grass, path or sand without a creature, and it has $cells"
refused crafter-gen "$message" "crafter-gen --players 16 --area 3,3: no room, exit 1" \
  "$gen" --players 16 --area 3,3
refused crafter-step "$message" "crafter-step --players 16 --area 3,3: no room, exit 1" \
  "$step" --players 16 --area 3,3
refused crafter-dataset "$message" "crafter-dataset record --players 16 --area 3,3: no room, exit 1" \
  "$dataset" record --players 16 --area 3,3 -n 1 -o run.traj
refused crafter-bench "$message" "crafter-bench --players 16 --area 3,3: no room, exit 1" \
  "$bench" --players 16 --area 3,3 --seconds 0.1

# A world file of five such cells: two grass, a sand, a path and its
# player; a cow, water, trees and lava elsewhere.
printf 'crafter-world 1\nmap\n~~T~~\n.@.C:\n~_~~%%\n' >few.txt
cells=$(sed '1,/^map$/d' few.txt | start_cells)
[ "$cells" -eq 5 ] && printf '0 0 0 0 0\n' | "$step" --world few.txt --players 5 >/dev/null
ok $? "a world file of $cells cells to start on plays $cells players"
message="no room for 6 players in the 5x3 world: each starts on a cell of grass, path or sand without a creature, and it has $cells"
refused crafter-gen "$message" "crafter-gen --world --players 6: no room, exit 1" \
  "$gen" --world few.txt --players 6
refused crafter-step "$message" "crafter-step --world --players 6: no room, exit 1" \
  "$step" --world few.txt --players 6
refused crafter-dataset "$message" "crafter-dataset record --world --players 6: no room, exit 1" \
  "$dataset" record --world few.txt --players 6 -n 1 -o run.traj
refused crafter-bench "$message" "crafter-bench --world --players 6: no room, exit 1" \
  "$bench" --world few.txt --players 6 --seconds 0.1
finish
