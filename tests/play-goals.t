#!/bin/sh
# crafter-play with goals and levels, and replays of files that keep their
# rules: the instruction above the view, a goal met ending the episode,
# the level in the title, a recording with goals replayed with them, a
# recording made with a configuration and a world replayed by them.
. "$(dirname "$0")/tap.sh"
play=$top/bin/crafter-play
dataset=$top/bin/crafter-dataset
tasks=$top/data/tasks/crafter-tasks.yaml
tree=$top/tests/data/worlds/tree-9x9.txt
plan 8


"$play" --glyphs --tasks "$tasks" --task ach.collect_wood --world "$tree" --keys '.' \
  >"$scratch/frame" 2>&1
[ $? -eq 0 ] && head -n 1 "$scratch/frame" | grep -q '^Goal: .*wood'
ok $? "the goal is shown above the view: $(head -n 1 "$scratch/frame")"

"$play" --glyphs --tasks "$tasks" --task ach.collect_wood --world "$tree" --keys ' ' \
  --record "$scratch/goal.traj" >"$scratch/frame" 2>&1
[ $? -eq 0 ] && grep -q 'Goal met after 1 steps' "$scratch/frame"
ok $? "collecting the wood meets it at once and ends the episode: $(grep -o 'Goal met[^.]*' "$scratch/frame")"
"$dataset" list "$scratch/goal.traj" | awk -F'\t' 'NR == 2 && $7 == "goal" { f = 1 } END { exit !f }'
ok $? "the recording stores the episode as ended by its goal"
"$play" --glyphs --replay "$scratch/goal.traj" --no-wait >"$scratch/replayed" 2>&1
[ $? -eq 0 ] && head -n 1 "$scratch/replayed" | grep -q '^Goal: .*wood'
ok $? "its replay shows the goal and plays alike"

"$play" --glyphs --levels 4 --seed 2 --level-order sequential --keys '.' >"$scratch/frame" 2>&1
[ $? -eq 0 ] && grep -q 'Crafter  seed 2  level 1' "$scratch/frame"
ok $? "on a level set the title names the level: $(grep -o 'seed 2  level [0-9]*' "$scratch/frame")"

"$play" --levels 4 --world "$tree" --keys . >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "levels chooses each episode's world" "$scratch/err"
ok $? "--levels with --world is refused: $(head -n 1 "$scratch/err")"

# A recording made by a configuration on a world keeps both.
printf 'items:\n  wood: {max: 50}\ncollect:\n  tree: {leaves: tree}\n' >"$scratch/config.yaml"
"$play" --glyphs --config "$scratch/config.yaml" --world "$tree" --keys '            ' \
  --record "$scratch/rules.traj" >/dev/null 2>&1 &&
  "$play" --glyphs --replay "$scratch/rules.traj" --no-wait >"$scratch/replayed" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q 'wood *12\|wood: 12\|wood 12' "$scratch/replayed"
status=$?
[ $status -ne 0 ] && diag <"$scratch/replayed" && diag <"$scratch/err"
ok $status "a recording made with a configuration and a world replays by them without options"
"$play" --glyphs --replay "$scratch/rules.traj" --config "$scratch/config.yaml" --no-wait \
  >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "keeps the configuration it was played by" "$scratch/err"
ok $? "--config with such a file is refused: $(cat "$scratch/err")"
finish
