#!/bin/sh
# crafter-score --train-levels: episodes recorded by crafter-step on a
# level set and on fresh worlds, scored on training levels apart from
# unseen ones.  Each side must score as crafter-score scores the file of
# that side alone; the counts follow from the recordings; inputs that
# record no levels and bad option values are refused; without the option
# nothing changes.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
score=$top/bin/crafter-score
plan 29

# field CSV METHOD COLUMN: one value of crafter-score's CSV output.
field() {
  awk -F, -v method="$2" -v name="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) column = i; next }
    $1 == method { print $column }' "$1"
}
# near A B: A and B agree to 1e-9.
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'; }
achievements="collect_coal collect_diamond collect_drink collect_iron collect_sapling
  collect_stone collect_wood defeat_skeleton defeat_zombie eat_cow eat_plant
  make_iron_pickaxe make_iron_sword make_stone_pickaxe make_stone_sword
  make_wood_pickaxe make_wood_sword place_furnace place_plant place_stone
  place_table wake_up"
# same_side SPLIT PREFIX ALONE: the columns PREFIX_* of the split CSV
# equal the columns of the CSV of one file alone.
same_side() {
  for column in score_mean score_std episodes seeds $achievements; do
    [ "$(field "$1" external "$2_$column")" = "$(field "$3" external "$column")" ] || {
      echo "$2_$column: $(field "$1" external "$2_$column") against" \
        "$(field "$3" external "$column")" | diag
      return 1
    }
  done
}

"$score" --help >"$scratch/help"
grep -q -- "--train-levels=N|FILE" "$scratch/help" && grep -q -- "--train-seed=S" "$scratch/help" &&
  grep -q -- "--train-start=K" "$scratch/help" && awk 'length > 80 { exit 1 }' "$scratch/help"
ok $? "--help lists --train-levels, --train-seed and --train-start within 80 columns"

# Random actions, do often (it collects and fights), from a fixed seed.
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) print (rand() < 0.4 ? 5 : int(rand() * 17)) }' \
  >"$scratch/actions"
# Five episodes on levels 1..3 of seed 0, four on levels 4..6, three on
# fresh worlds of seed 1 (episodes 1..3) and four on fresh worlds of
# seed 0 (episodes 1..4: the first three are the training levels).
record() { # record FILE OPTION...
  out=$1
  shift
  "$step" --length 150 --record "$scratch/$out" "$@" <"$scratch/actions" >/dev/null
}
record train.traj --levels 3 --seed 0 -n 5 && record unseen.traj --levels 3 --start-level 4 --seed 0 -n 4 &&
  record fresh1.traj --seed 1 -n 3 && record fresh0.traj --seed 0 -n 4
ok $? "crafter-step records episodes on training levels, unseen levels and fresh worlds"

for name in train unseen fresh1 fresh0; do
  "$score" --format csv "$scratch/$name.traj" >"$scratch/$name.csv" || echo "$name" | diag
done
"$score" --train-levels 3 --format csv "$scratch/train.traj" "$scratch/unseen.traj" >"$scratch/split.csv"
ok $? "--train-levels 3 scores a training and a test recording of one agent and seed"
[ "$(field "$scratch/split.csv" external train_episodes)" = 5 ] &&
  [ "$(field "$scratch/split.csv" external unseen_episodes)" = 4 ] &&
  [ "$(field "$scratch/split.csv" external train_seeds)" = 1 ] &&
  [ "$(field "$scratch/split.csv" external unseen_seeds)" = 1 ]
ok $? "5 episodes on training levels and 4 on unseen ones, one seed each"
same_side "$scratch/split.csv" train "$scratch/train.csv"
ok $? "the training side scores as the training file alone, achievement by achievement"
same_side "$scratch/split.csv" unseen "$scratch/unseen.csv"
ok $? "the unseen side scores as the test file alone"
near "$(field "$scratch/split.csv" external score_gap)" \
  "$(awk -v a="$(field "$scratch/train.csv" external score_mean)" \
    -v b="$(field "$scratch/unseen.csv" external score_mean)" 'BEGIN { printf "%.17g", a - b }')"
ok $? "the gap is the training score minus the unseen score"
[ "$(field "$scratch/split.csv" external episodes)" = 9 ] &&
  [ "$(field "$scratch/split.csv" external seeds)" = 1 ]
ok $? "over both sides the two files are one seed of 9 episodes"

"$score" --train-levels 3 "$scratch/train.traj" "$scratch/unseen.traj" >"$scratch/table"
grep -q "^levels: training = episodes 1\.\.3 of seed 0; unseen = all others$" "$scratch/table" &&
  grep -q "^ *train *unseen$" "$scratch/table" && grep -q "^episodes  *5  *4$" "$scratch/table" &&
  grep -q "^gap (train-unseen)  *-\{0,1\}[0-9]*\.[0-9]$" "$scratch/table" &&
  grep -q "^success rate (%) on training and unseen levels$" "$scratch/table" &&
  grep -q "train.traj -> external (agent), seed 0, 5 on training levels, 0 unseen$" "$scratch/table" &&
  grep -q "unseen.traj -> external (agent), seed 0, 0 on training levels, 4 unseen$" "$scratch/table"
ok $? "the table shows both sides, the gap and each file's episodes on each"
"$top/bin/crafter-gen" --levels 3 --seed 0 --save-levels "$scratch/train.lvl" &&
  "$score" --train-levels "$scratch/train.lvl" "$scratch/train.traj" "$scratch/unseen.traj" |
  cmp -s - "$scratch/table"
ok $? "--train-levels FILE with a saved set reports as --train-levels 3"
"$score" --train-levels 3 --format json "$scratch/train.traj" "$scratch/unseen.traj" >"$scratch/json"
grep -q '"train": {"score_mean": [-0-9.e]*, "score_std": null, "success": {"collect_coal": ' \
  "$scratch/json" && grep -q '"unseen": {"score_mean": ' "$scratch/json" &&
  grep -q '"episodes": 5, "seeds": 1}, "unseen": ' "$scratch/json" &&
  grep -q '"episodes": 4, "seeds": 1}, "gap": [-0-9.e]*}' "$scratch/json" &&
  grep -q '"train_levels": {"seed": 0, "first": 1, "count": 3}' "$scratch/json" &&
  grep -q '"train_episodes": 5, "unseen_episodes": 0}' "$scratch/json"
ok $? "JSON carries train, unseen, gap, the training levels and each run's episodes"

# Fresh worlds of another seed are unseen levels of another run: the
# unseen side averages the two runs' scores.
"$score" --train-levels 3 --format csv "$scratch/train.traj" "$scratch/unseen.traj" \
  "$scratch/fresh1.traj" >"$scratch/three.csv"
a=$(field "$scratch/unseen.csv" external score_mean)
b=$(field "$scratch/fresh1.csv" external score_mean)
[ "$(field "$scratch/three.csv" external unseen_episodes)" = 7 ] &&
  [ "$(field "$scratch/three.csv" external unseen_seeds)" = 2 ] &&
  [ "$(field "$scratch/three.csv" external train_episodes)" = 5 ] &&
  near "$(field "$scratch/three.csv" external unseen_score_mean)" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.17g", (a + b) / 2 }')" &&
  near "$(field "$scratch/three.csv" external unseen_score_std)" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / 2; printf "%.17g", d < 0 ? -d : d }')"
ok $? "fresh worlds of seed 1 add a second unseen seed: the mean and deviation of the two"
[ "$(field "$scratch/three.csv" external seeds)" = 2 ] &&
  [ "$(field "$scratch/three.csv" external episodes)" = 12 ]
ok $? "and a second seed over both sides"

# A fresh world of seed 0 and episode k is level k of seed 0.
"$score" --train-levels 3 --format csv "$scratch/fresh0.traj" >"$scratch/out"
[ "$(field "$scratch/out" external train_episodes)" = 3 ] &&
  [ "$(field "$scratch/out" external unseen_episodes)" = 1 ]
ok $? "fresh worlds of seed 0: episodes 1..3 are training levels, episode 4 is not"
"$score" --train-levels 2 --train-start 2 --format csv "$scratch/fresh0.traj" >"$scratch/out"
[ "$(field "$scratch/out" external train_episodes)" = 2 ] &&
  [ "$(field "$scratch/out" external unseen_episodes)" = 2 ]
ok $? "--train-start 2 --train-levels 2: episodes 2 and 3"
"$score" --train-levels 3 --train-seed 1 --format csv "$scratch/fresh0.traj" >"$scratch/out"
[ "$(field "$scratch/out" external train_episodes)" = 0 ] &&
  [ "$(field "$scratch/out" external unseen_episodes)" = 4 ] &&
  [ -z "$(field "$scratch/out" external train_score_mean)" ] &&
  [ -z "$(field "$scratch/out" external score_gap)" ]
ok $? "--train-seed 1: no episode of seed 0 is a training level; no score, no gap"

# Inputs that record no levels are refused, whatever else is given.
refused() { # refused DESCRIPTION PATTERN FILE...
  description=$1 pattern=$2
  shift 2
  "$score" --train-levels 3 "$scratch/train.traj" "$@" >"$scratch/out" 2>"$scratch/err"
  status=$?
  [ $status -eq 1 ] && [ ! -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "^crafter-score: $pattern" "$scratch/err"
  ok $? "$description: $(cat "$scratch/err")"
}
refused "a stats.jsonl log is refused" \
  ".*walker/stats.jsonl: a stats.jsonl log does not record which levels its episodes played" \
  "$top/tests/data/score/walker/stats.jsonl"
refused "a run file is refused" ".*runs.json: a run file does not record which levels" \
  "$top/tests/data/score/runs.json"
refused "a file given twice is refused" ".*train.traj: the file is given twice" \
  "$scratch/train.traj"

# Bad option values: status 2 and a message.
bad_option() { # bad_option DESCRIPTION PATTERN OPTION...
  description=$1 pattern=$2
  shift 2
  "$score" "$@" "$scratch/train.traj" >"$scratch/out" 2>"$scratch/err"
  status=$?
  [ $status -eq 2 ] && [ ! -s "$scratch/out" ] && grep -q "^crafter-score: $pattern" "$scratch/err"
  ok $? "$description exits 2 (got $status): $(head -1 "$scratch/err")"
}
bad_option "--train-levels 0" "invalid number of training levels '0'" --train-levels 0
bad_option "an empty --train-levels" "the training levels are empty" --train-levels=
bad_option "--train-seed x" "invalid training seed 'x'" --train-levels 3 --train-seed x
bad_option "--train-start 0" "invalid first training level '0'" --train-levels 3 --train-start 0
bad_option "--train-seed without --train-levels" "--train-seed and --train-start need" \
  --train-seed 1
bad_option "levels past episode 2**31-1" "--train-start and --train-levels go past" \
  --train-levels 2 --train-start 2147483647
"$score" --train-levels "$scratch/train.traj" "$scratch/train.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-score: .*train.traj: not a level file" "$scratch/err"
ok $? "a --train-levels FILE that is no level file is bad input: $(cat "$scratch/err")"

# Without --train-levels nothing of it shows, and files of one agent and
# seed still clash.
"$score" --format csv "$scratch/train.traj" >"$scratch/out"
[ "$(head -1 "$scratch/out" | tr ',' '\n' | wc -l)" -eq 29 ] &&
  "$score" --format json "$scratch/train.traj" | grep -v -q -e '"train' -e '"unseen' &&
  "$score" "$scratch/train.traj" >"$scratch/out" && ! grep -q -e "^levels" -e "unseen" "$scratch/out" &&
  grep -q "train.traj -> external (agent), seed 0$" "$scratch/out"
ok $? "without --train-levels: the usual columns, keys and table"
"$score" "$scratch/train.traj" "$scratch/unseen.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "seed '0' is already read" "$scratch/err"
ok $? "and two files of one agent and seed are still an error"

if command -v gnuplot >/dev/null 2>&1; then
  "$score" --train-levels 3 --plot "$scratch/plot.png" "$scratch/train.traj" \
    "$scratch/unseen.traj" >/dev/null
  [ $? -eq 0 ] && [ "$(head -c 4 "$scratch/plot-levels.png" | tail -c 3)" = PNG ] &&
    [ -s "$scratch/plot.png" ] && [ -s "$scratch/plot-scores.png" ]
  ok $? "--plot adds the scores on training and unseen levels (-levels)"
else
  skip "gnuplot is not installed"
fi
finish
