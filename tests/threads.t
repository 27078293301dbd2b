#!/bin/sh
# Threads change nothing but the speed: crafter-step (JSON lines and the
# binary protocol) and crafter-dataset record give the same bytes, and
# trajectory files, whatever --threads is, with recording, goals, level
# sets, a configuration, a world file and an episode count together.  And
# a trajectory keeps the configuration and the world file it was played
# by: a run whose configuration lets wood go to 50 records, reads back,
# scores and re-simulates.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
tasks=$top/data/tasks/crafter-tasks.yaml
tree=$top/tests/data/worlds/tree-9x9.txt
plan 14

bytes() { wc -c <"$1" | tr -d ' '; }

# Rules a little off Crafter's, which a replay without them gets wrong:
# trees stay, wood goes up to 50, the first wood is worth 3.
cat >"$scratch/config.yaml" <<'YAML'
items:
  wood: {max: 50}
collect:
  tree: {leaves: tree}
reward:
  achievements: {collect_wood: 3}
YAML

awk 'BEGIN { srand(11); for (i = 0; i < 1500; i++)
  printf "%d %d %d\n", int(rand() * 17), int(rand() * 17), int(rand() * 17) }' >"$scratch/lines"
awk 'BEGIN { srand(11); for (i = 0; i < 4500; i++) printf "%c", int(rand() * 17) }' >"$scratch/bytes"

# same_runs NAME OPTIONS...: crafter-step on 1 and 2 threads, text and
# binary, recording; the outputs and the files must be equal.
same_runs() {
  name=$1
  shift
  for t in 1 2; do
    "$step" --envs 3 --seed 5 --obs symbolic --info state --threads $t \
      --record "$scratch/text$t.traj" "$@" <"$scratch/lines" >"$scratch/text$t" 2>"$scratch/err$t"
    echo $? >>"$scratch/err$t"
    "$step" --binary --envs 3 --seed 5 --obs pixels --threads $t \
      --record "$scratch/binary$t.traj" "$@" <"$scratch/bytes" >"$scratch/binary$t" 2>>"$scratch/err$t"
    echo $? >>"$scratch/err$t"
  done
  cmp -s "$scratch/text1" "$scratch/text2" && cmp -s "$scratch/text1.traj" "$scratch/text2.traj" &&
    cmp -s "$scratch/binary1" "$scratch/binary2" && cmp -s "$scratch/binary1.traj" "$scratch/binary2.traj" &&
    cmp -s "$scratch/err1" "$scratch/err2" && [ "$(sort -u "$scratch/err1")" = 0 ] &&
    [ "$(bytes "$scratch/text1.traj")" -gt 1000 ] && [ "$(bytes "$scratch/binary1")" -gt 100000 ]
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/err2"
  ok $status "crafter-step with $name: the same records, frames and files on 1 and 2 threads"
}

same_runs "goals and a configuration" --tasks "$tasks" --split train --config "$scratch/config.yaml"
same_runs "a level set and goals" --levels 4 --tasks "$tasks" --level-order sequential
same_runs "an episode count" --episodes 5 --length 80
cat >"$scratch/world.txt" <<'WORLD'
crafter-world 1
size 20 12
map
....................
..T......~~~........
....................
.......@............
..........T.........
....................
.....~~~............
....................
..T.................
....................
.........T..........
....................
WORLD
same_runs "a world file and short episodes" --world "$scratch/world.txt" --length 50

# crafter-dataset record: the same file on 1, 2 and 3 threads.
for t in 1 2 3; do
  "$dataset" record -q --agent scripted -n 9 --seed 7 --steps 400 --tasks "$tasks" --split train \
    --levels 5 --config "$scratch/config.yaml" --threads $t -o "$scratch/set$t.traj" 2>"$scratch/err"
  echo $? >>"$scratch/status"
done
[ "$(sort -u "$scratch/status")" = 0 ] && cmp -s "$scratch/set1.traj" "$scratch/set2.traj" &&
  cmp -s "$scratch/set1.traj" "$scratch/set3.traj"
status=$?
[ $status -ne 0 ] && diag <"$scratch/err"
ok $status "crafter-dataset record with goals, levels and a configuration: one file on 1, 2 and 3 threads ($(bytes "$scratch/set1.traj") bytes)"
"$dataset" verify --resimulate "$scratch/set2.traj" >"$scratch/verify" 2>&1
ok $? "and it re-simulates by its stored configuration: $(tail -n 1 "$scratch/verify")"
"$dataset" record -q -n 4 --seed 7 --threads 2 -o "$scratch/plain.traj" &&
  "$dataset" info "$scratch/plain.traj" | grep -q 'version 1,'
ok $? "a recording by Crafter's rules stays a file of version 1"

# Wood up to 50: a tree in front of the player, 60 do actions.
awk 'BEGIN { for (i = 0; i < 60; i++) print "do" }' >"$scratch/chops"
"$step" --area 9,9 --world "$tree" --config "$scratch/config.yaml" --length 60 \
  --info state --record "$scratch/wood.traj" <"$scratch/chops" >"$scratch/wood.jsonl" 2>"$scratch/err"
[ $? -eq 0 ] && tail -n 1 "$scratch/wood.jsonl" | grep -q '"wood": 50'
ok $? "a configuration with wood up to 50 lets the player hold 50"
"$dataset" info "$scratch/wood.traj" >"$scratch/info" 2>&1 && grep -q 'version 3' "$scratch/info" &&
  grep -q '^rules *configuration .* bytes, world 9x9' "$scratch/info"
status=$?
[ $status -ne 0 ] && diag <"$scratch/info"
ok $status "the recording is a file of version 3 that says it keeps its configuration and world"
"$dataset" list "$scratch/wood.traj" >"$scratch/list" 2>&1 && grep -q 'time_limit' "$scratch/list"
ok $? "it reads back: its episode of 60 steps is listed"
"$score" "$scratch/wood.traj" >"$scratch/score" 2>&1 && grep -q 'collect_wood *100.0' "$scratch/score"
status=$?
[ $status -ne 0 ] && diag <"$scratch/score"
ok $status "crafter-score scores it"
"$dataset" verify --resimulate "$scratch/wood.traj" >"$scratch/verify" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/verify"
ok $status "verify --resimulate replays it by the stored rules: $(tail -n 1 "$scratch/verify")"
# The same steps by Crafter's rules end with 1 wood (the tree goes at the
# first blow): a replay that ignored the stored configuration would differ.
"$step" --area 9,9 --world "$tree" --length 60 --info state <"$scratch/chops" |
  tail -n 1 | grep -q '"wood": 1,'
ok $? "by Crafter's rules the same actions end with 1 wood"
"$dataset" merge -o "$scratch/merged.traj" "$scratch/wood.traj" "$scratch/plain.traj" \
  >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "configuration" "$scratch/err"
ok $? "files of other configurations do not merge: $(cat "$scratch/err")"
finish
