#!/bin/sh
# Episodes with goals (crafter-task(5)) through the programs: crafter-step
# --tasks in JSON lines and text observations, the same game without the
# goal, bad task options, recording with goals, verify --resimulate, list,
# and crafter-score's goals per family, difficulty and split.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
plan 22

# A tree left of the player: move_left faces it, do takes its wood.
cat >"$scratch/world.txt" <<'EOF'
crafter-world 1
size 9 9
map
.........
.........
.........
.........
...T@....
.........
.........
.........
.........
EOF
cat >"$scratch/tasks.yaml" <<'EOF'
version: 1
tasks:
  - id: wood
    family: achievements
    check: {unlock: [collect_wood]}
    instruction: Collect some wood.
    paraphrases: [Get wood., Chop a tree., Gather wood., Take wood from a tree., Cut some wood.]
    difficulty: easy
    split: train
    reward: 2.5
EOF

printf 'move_left\ndo\nnoop\n' |
  "$step" --world "$scratch/world.txt" --tasks "$scratch/tasks.yaml" >"$scratch/goal.jsonl" 2>"$scratch/err"
ok $? "crafter-step --tasks runs an episode with a goal"
[ "$(wc -l <"$scratch/goal.jsonl")" -eq 3 ] &&
  sed -n 1p "$scratch/goal.jsonl" | grep -q '^{"reset": 1, "task": "wood", "instruction": "[^"]*"}$'
ok $? "a reset record gives the goal first; met at step 2, the episode ends there"
sed -i 1d "$scratch/goal.jsonl"
sed -n 1p "$scratch/goal.jsonl" | grep -q '"t": 1, "reward": 0.0, "done": false, "discount": 1.0, .*"task": "wood", "instruction": "[A-Z][^"]*", "goal": false'
ok $? "a step before the goal carries the task, its instruction and goal false"
sed -n 2p "$scratch/goal.jsonl" | grep -q '"t": 2, "reward": 3.5, "done": true, "discount": 0.0, "unlocked": \["collect_wood"\], "task": "wood", .*"goal": true'
ok $? "the step that meets it: the game's 1.0 plus the task's 2.5, done, discount 0"
instruction=$(sed -n '1s/.*"instruction": "\([^"]*\)".*/\1/p' "$scratch/goal.jsonl")
[ -n "$instruction" ] && grep -qF "$instruction" "$scratch/tasks.yaml"
ok $? "the instruction is one of the task's wordings ($instruction)"

printf 'move_left\ndo\nnoop\n' |
  "$step" --world "$scratch/world.txt" >"$scratch/plain.jsonl"
[ "$(wc -l <"$scratch/plain.jsonl")" -eq 3 ] &&
  sed -n 2p "$scratch/plain.jsonl" | grep -q '"t": 2, "reward": 1.0, "done": false, "discount": 1.0, "unlocked": \["collect_wood"\]}$'
ok $? "without --tasks the same actions play the same game, with no goal keys"
sed 's/, "task": .*}$/}/; 2s/"reward": 3.5, "done": true, "discount": 0.0/"reward": 1.0, "done": false, "discount": 1.0/' \
  "$scratch/goal.jsonl" >"$scratch/stripped"
head -n 2 "$scratch/plain.jsonl" | cmp -s - "$scratch/stripped"
ok $? "records with a goal are those without plus the goal's keys, reward and end"

printf 'noop\n' | "$step" --world "$scratch/world.txt" --tasks "$scratch/tasks.yaml" --obs text |
  head -n 1 | grep -q '"obs": "Instruction: [A-Z][^\\]*\\nStep 0\.'
ok $? "a text observation starts with the instruction"

# The goal is drawn from the seed and the episode: the same every run,
# and all five wordings turn up over episodes.
yes noop | head -n 2000 | "$step" --tasks "$scratch/tasks.yaml" --length 5 -n 40 --seed 3 |
  sed -n 's/.*"instruction": "\([^"]*\)".*/\1/p' | sort -u >"$scratch/wordings"
yes noop | head -n 2000 | "$step" --tasks "$scratch/tasks.yaml" --length 5 -n 40 --seed 3 |
  sed -n 's/.*"instruction": "\([^"]*\)".*/\1/p' | sort -u | cmp -s - "$scratch/wordings" &&
  [ "$(wc -l <"$scratch/wordings")" -eq 6 ]
ok $? "wordings are drawn per episode, reproducibly: all 6 over 40 episodes"

cat >"$scratch/steps.yaml" <<'EOF'
tasks:
  - id: never
    family: achievements
    check: {unlock: [collect_diamond]}
    instruction: Find a diamond.
    paraphrases: [A., B., C., D., E.]
    difficulty: hard
    split: test-new-objects
    steps: 7
EOF
yes noop | head -n 20 | "$step" --tasks "$scratch/steps.yaml" >"$scratch/limit.jsonl"
[ "$(grep -c '"t": ' "$scratch/limit.jsonl")" -eq 7 ] &&
  tail -n 1 "$scratch/limit.jsonl" | grep -q '"t": 7, "reward": 0.0, "done": true, "discount": 1.0, .*"goal": false'
ok $? "a task's own steps end the episode at that limit, discount 1"

"$step" --tasks "$scratch/tasks.yaml" --task nope </dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "tasks.yaml: no task has the id 'nope'" "$scratch/err"
ok $? "--task of an id the file lacks: exit 2, said"
"$step" --tasks "$scratch/tasks.yaml" --split test-paraphrase </dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "no task is in split test-paraphrase" "$scratch/err"
ok $? "--split the file has no task of: exit 2, said"
"$step" --split train </dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "need --tasks" "$scratch/err"
ok $? "--split without --tasks: exit 2"
sed 's/family: achievements/family: lines/' "$scratch/tasks.yaml" >"$scratch/bad.yaml"
"$step" --tasks "$scratch/bad.yaml" </dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "bad.yaml:4:13: .*lines" "$scratch/err"
ok $? "a bad task file: exit 1, with line and column ($(head -c 100 "$scratch/err"))"

# Recorded with goals: the file keeps the task file and each goal.
printf 'move_left\ndo\nnoop\n' |
  "$step" --tasks "$scratch/tasks.yaml" --record "$scratch/step.traj" -n 2 >/dev/null
"$dataset" list "$scratch/step.traj" >"$scratch/list" &&
  head -n 1 "$scratch/list" | grep -q "	task	text$" && sed -n 2p "$scratch/list" | grep -q "	wood	[0-5]$"
ok $? "crafter-step --record keeps each episode's goal (list shows the task)"

"$dataset" record --agent scripted --tasks "$scratch/tasks.yaml" -n 6 -q -o "$scratch/scripted.traj" &&
  "$dataset" record --agent random --tasks "$scratch/tasks.yaml" -n 6 --steps 300 -q -o "$scratch/random.traj"
ok $? "crafter-dataset record --tasks, scripted and random"
"$dataset" verify --resimulate "$scratch/scripted.traj" "$scratch/random.traj" >"$scratch/verify"
ok $? "verify --resimulate replays the goals of both: $(tr '\n' ' ' <"$scratch/verify")"
"$dataset" list "$scratch/scripted.traj" | awk -F'\t' 'NR > 1 && $7 == "goal" && $8 ~ /collect_wood/ { n++ } END { exit n == 0 }'
ok $? "the scripted agent meets the goal, and its episodes end there with collect_wood"
"$dataset" info "$scratch/scripted.traj" | grep -q "^tasks         1 in the file's table$"
ok $? "info shows the task table"

"$score" "$scratch/scripted.traj" "$scratch/random.traj" >"$scratch/score"
awk '/^goals met/ { on = 1 } on && /^family/ { f = 1 } f && $1 == "achievements" { found = 1 } END { exit !found }' "$scratch/score"
ok $? "crafter-score reports goals met per family"
scripted=$("$dataset" list "$scratch/scripted.traj" | awk -F'\t' 'NR > 1 && $7 == "goal" { n++ } END { printf "%.1f", 100 * n / (NR - 1) }')
"$score" -f csv "$scratch/scripted.traj" "$scratch/random.traj" |
  awk -F, -v want="$scripted" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "goal_success") c = i }
    $1 == "scripted" { printf "%.1f\n", $c }' | grep -qx "$scripted"
ok $? "its CSV success rate is the share of episodes that ended on the goal ($scripted%)"
if command -v gnuplot >/dev/null 2>&1; then
  "$score" -p "$scratch/plot.png" "$scratch/scripted.traj" "$scratch/random.traj" >/dev/null &&
    [ -s "$scratch/plot-goals.png" ] && "$dataset" record -n 2 --steps 50 -q -o "$scratch/plain.traj" &&
    "$score" -p "$scratch/none.png" "$scratch/plain.traj" >/dev/null &&
    [ -s "$scratch/none.png" ] && [ ! -e "$scratch/none-goals.png" ]
  ok $? "--plot draws the goals met to FILE-goals.png, only for runs with goals"
else
  skip "gnuplot is not installed: the goals plot was NOT drawn"
fi
finish
