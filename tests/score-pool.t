#!/bin/sh
# crafter-score --train-levels pools the trajectory files of one method
# and seed into one run (crafter-score(1), "Training and unseen levels"):
# two recordings of the external agent on seed 0, each with episodes on
# training levels and on unseen ones, must score on each side -- and over
# both -- as the episodes of both files counted together.  The expected
# numbers are worked out here from crafter-dataset list: per side, the
# success rate of each achievement over the pooled episodes and the
# geometric-mean score exp(mean(ln(1 + rate))) - 1.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
score=$top/bin/crafter-score
dataset=$top/bin/crafter-dataset
plan 7

achievements="collect_coal collect_diamond collect_drink collect_iron collect_sapling
  collect_stone collect_wood defeat_skeleton defeat_zombie eat_cow eat_plant
  make_iron_pickaxe make_iron_sword make_stone_pickaxe make_stone_sword
  make_wood_pickaxe make_wood_sword place_furnace place_plant place_stone
  place_table wake_up"

# field CSV METHOD COLUMN: one value of crafter-score's CSV output.
field() {
  awk -F, -v method="$2" -v name="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) column = i; next }
    $1 == method { print $column }' "$1"
}

# Random actions, do often, from a fixed seed.  File a: episodes 1..4 of
# seed 0 (1..3 training levels, 4 unseen); file b: episodes 3..5 (3 a
# training level, 4 and 5 unseen), played with other actions.
awk 'BEGIN { srand(7); for (i = 0; i < 4000; i++) print (rand() < 0.4 ? 5 : int(rand() * 17)) }' \
  >"$scratch/actions"
"$step" --length 150 --seed 0 -n 4 --record "$scratch/a.traj" <"$scratch/actions" >/dev/null &&
  "$step" --length 150 --seed 0 -e 3 -n 3 --record "$scratch/b.traj" <"$scratch/actions" >/dev/null &&
  "$dataset" list "$scratch/a.traj" >"$scratch/a.list" &&
  "$dataset" list "$scratch/b.traj" >"$scratch/b.list"
ok $? "two recordings of seed 0: episodes 1..4 and 3..5"

# The expected columns, "column value" per line, from the two lists.
awk -v names="$achievements" '
  BEGIN { count = split(names, name, /[ \n]+/) }
  FNR == 1 { next }
  {
    side = ($2 == 0 && $3 >= 1 && $3 <= 3) ? "train" : "unseen"
    episodes[side]++; episodes["all"]++
    returns += $6; lengths += $5
    n = split($8, got, ",")
    for (i = 1; i <= n; i++) { successes[side, got[i]]++; successes["all", got[i]]++ }
  }
  END {
    split("all train unseen", sides, " ")
    for (s = 1; s <= 3; s++) {
      side = sides[s]; prefix = side == "all" ? "" : side "_"
      printf "%sepisodes %d\n", prefix, episodes[side]
      printf "%sseeds 1\n", prefix
      logs = 0
      for (k = 1; k <= count; k++) {
        rate = 100 * successes[side, name[k]] / episodes[side]
        printf "%s%s %.17g\n", prefix, name[k], rate
        logs += log(1 + rate)
      }
      printf "%sscore_mean %.17g\n", prefix, exp(logs / count) - 1
    }
    printf "reward_mean %.17g\n", returns / episodes["all"]
    printf "length_mean %.17g\n", lengths / episodes["all"]
  }' "$scratch/a.list" "$scratch/b.list" >"$scratch/expected"
[ "$(grep -c . "$scratch/expected")" -eq 77 ] &&
  grep -q "^train_episodes 4$" "$scratch/expected" && grep -q "^unseen_episodes 3$" "$scratch/expected"
ok $? "the pooled expectation: 4 episodes on training levels, 3 unseen"
# Each file must have episodes on both sides and the files must differ on
# a side, or pooling would be no different from taking one file.
awk 'FNR > 1 && !seen[FILENAME, $3 <= 3]++ { kinds++ } END { exit kinds != 4 }' "$scratch/a.list" "$scratch/b.list" &&
  ! cmp -s "$scratch/a.list" "$scratch/b.list"
ok $? "each file has episodes on training and on unseen levels"

# agree CSV: every expected column agrees (1e-9; the return and length
# to 1e-6, as list rounds returns to 0.1).
agree() {
  while read -r column value; do
    got=$(field "$1" external "$column")
    case $column in reward_mean | length_mean) tolerance=1e-6 ;; *) tolerance=1e-9 ;; esac
    awk -v a="$got" -v b="$value" -v t="$tolerance" \
      'BEGIN { d = a - b; exit !(a != "" && d < t && d > -t) }' || {
      echo "$column: crafter-score says '$got', the pooled episodes give $value" | diag
      return 1
    }
  done <"$scratch/expected"
}
"$score" --train-levels 3 --format csv "$scratch/a.traj" "$scratch/b.traj" >"$scratch/split.csv"
ok $? "--train-levels 3 scores the two files of one agent and seed"
agree "$scratch/split.csv"
ok $? "each side, and both together, score the episodes of both files pooled into one seed"
"$score" --train-levels 3 --format csv "$scratch/b.traj" "$scratch/a.traj" >"$scratch/reversed.csv"
cmp -s "$scratch/split.csv" "$scratch/reversed.csv"
ok $? "the order of the files changes nothing"
"$score" --train-levels 3 "$scratch/a.traj" "$scratch/b.traj" >"$scratch/table"
grep -q "^episodes  *4  *3$" "$scratch/table" && grep -q "^seeds  *1  *1$" "$scratch/table" &&
  grep -q "a.traj -> external (agent), seed 0, 3 on training levels, 1 unseen$" "$scratch/table" &&
  grep -q "b.traj -> external (agent), seed 0, 1 on training levels, 2 unseen$" "$scratch/table"
ok $? "the table: one seed of 4 episodes on training levels and 3 unseen, each file's share"
finish
