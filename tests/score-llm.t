#!/bin/sh
# crafter-score --llm: BALROG's progression and SmartPlay's score worked
# out by hand for small logs, and from crafter-step's own records for a
# recorded trajectory: the progression is the mean share of the 22
# achievements an episode unlocked, its standard error the population
# deviation over the square root of the episodes; SmartPlay's score is
# the sum over an episode's steps of the achievements unlocked so far, and
# over 2680 its normalised score.  tests/llm-scores.t holds them to the
# suites' own code.
. "$(dirname "$0")/tap.sh"
score=$top/bin/crafter-score
step=$top/bin/crafter-step
plan 12
ACHIEVEMENTS="collect_coal collect_diamond collect_drink collect_iron collect_sapling collect_stone collect_wood defeat_skeleton defeat_zombie eat_cow eat_plant make_iron_pickaxe make_iron_sword make_stone_pickaxe make_stone_sword make_wood_pickaxe make_wood_sword place_furnace place_plant place_stone place_table wake_up"
# episode N: a stats.jsonl line whose first N achievements have counts
# (the first of them 3, to show that a count is not a share).
episode() {
  line='{"length": 100, "reward": 1.0'
  i=0
  for name in $ACHIEVEMENTS; do
    count=0
    [ $i -lt "$1" ] && count=1
    [ $i -eq 0 ] && [ "$1" -gt 0 ] && count=3
    line="$line, \"achievement_$name\": $count"
    i=$((i + 1))
  done
  echo "$line}"
}
# near A B: A and B agree to 1e-12 of B.
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-12 * (m > 1 ? m : 1)) }'; }
# value FILE OBJECT KEY: the number (or null) at OBJECT's KEY in crafter-score's JSON.
value() { sed -n "s/.*\"$2\": {\"$3\": \([^,}]*\)[,}].*/\1/p; s/.*\"$2\": {[^}]*\"$3\": \([^,}]*\)[,}].*/\1/p" "$1" | head -1; }

mkdir -p "$scratch/walker"
{ episode 0; episode 11; episode 22; } >"$scratch/walker/stats.jsonl"
"$score" --llm -f json "$scratch/walker/stats.jsonl" >"$scratch/json" 2>"$scratch/err"
status=$?
progression=$(value "$scratch/json" balrog progression)
error=$(value "$scratch/json" balrog standard_error)
[ $status -eq 0 ] && near "$progression" 50 && near "$error" 23.570226039551585
ok $? "0, 11 and 22 achievements: progression 50%, standard error 100 sqrt(1/6)/sqrt(3) (got $progression, $error)"
[ "$(value "$scratch/json" smartplay score)" = null ] && [ "$(value "$scratch/json" smartplay normalized)" = null ]
ok $? "a stats.jsonl log holds no steps: SmartPlay's score is null"

episode 5 >"$scratch/walker/one.jsonl"
"$score" --llm -f json "$scratch/walker/one.jsonl" >"$scratch/json" 2>&1
near "$(value "$scratch/json" balrog progression)" 22.727272727272727 &&
  [ "$(value "$scratch/json" balrog standard_error)" = 0.0 ]
ok $? "one episode of 5: progression 5/22, standard error 0 as BALROG's summary gives it"

"$score" --llm "$scratch/walker/stats.jsonl" >"$scratch/table" 2>&1
grep -q "^progression (%) *50.00 ± 23.57$" "$scratch/table" && grep -q "^SmartPlay score *-$" "$scratch/table"
ok $? "the table: progression as BALROG prints it, SmartPlay's score unknown"
"$score" --llm -f csv "$scratch/walker/stats.jsonl" >"$scratch/csv" 2>&1
head -1 "$scratch/csv" | grep -q ",progression,progression_se,smartplay_score,smartplay_normalized$" &&
  tail -1 "$scratch/csv" | grep -q ",50\(\.0\)*,23\.57022603955158[0-9]*,,$"
ok $? "CSV: four more columns, the unknown ones empty"
"$score" -f json "$scratch/walker/stats.jsonl" >"$scratch/plain" 2>&1
"$score" "$scratch/walker/stats.jsonl" >"$scratch/plain-table" 2>&1
! grep -q '"balrog"\|"smartplay"' "$scratch/plain" && ! grep -q "progression\|SmartPlay" "$scratch/plain-table"
ok $? "without --llm nothing of them is written"

# A recorded run: from crafter-step's own records, per episode, the
# achievements unlocked and the sum over steps of those unlocked so far.
awk 'BEGIN { srand(5); for (i = 0; i < 3000; i++) { r = int(rand() * 20); print (r > 16 ? 5 : r) } }' \
  >"$scratch/actions"
"$step" --seed 4 -n 4 --record "$scratch/run.traj" <"$scratch/actions" >"$scratch/records" 2>"$scratch/err"
status=$?
awk -v out="$scratch/expected" '
  /"t": 1,/ { n = 0; delete seen; sum = 0 }
  /"t":/ {
    line = $0; sub(/.*"unlocked": \[/, "", line); sub(/\].*/, "", line)
    k = split(line, names, ", ")
    for (i = 1; i <= k; i++) if (names[i] != "" && !(names[i] in seen)) { seen[names[i]] = 1; n++ }
    sum += n
  }
  /"done": true/ { episodes++; shares[episodes] = n / 22; scores[episodes] = sum }
  END {
    for (e = 1; e <= episodes; e++) { mean += shares[e]; score += scores[e] }
    mean /= episodes; score /= episodes
    for (e = 1; e <= episodes; e++) squares += (shares[e] - mean) ^ 2
    printf "%d %.17g %.17g %.17g %.17g\n", episodes, 100 * mean,
      100 * sqrt(squares / episodes) / sqrt(episodes), score, score / 2680 > out
  }' "$scratch/records"
read -r episodes p_expected e_expected s_expected n_expected <"$scratch/expected"
"$score" --llm -f json "$scratch/run.traj" >"$scratch/json" 2>"$scratch/err"
[ $status -eq 0 ] && [ "$episodes" -eq 4 ] &&
  near "$(value "$scratch/json" balrog progression)" "$p_expected" &&
  near "$(value "$scratch/json" balrog standard_error)" "$e_expected"
ok $? "a recorded run of $episodes episodes: the progression of crafter-step's records ($p_expected% ± $e_expected%)"
near "$(value "$scratch/json" smartplay score)" "$s_expected" &&
  near "$(value "$scratch/json" smartplay normalized)" "$n_expected"
ok $? "its SmartPlay score is the sum over steps of the achievements unlocked so far ($s_expected, /2680: $n_expected)"
awk -v s="$s_expected" 'BEGIN { exit !(s > 100) }'
ok $? "the run unlocks achievements early enough for the score to count them ($s_expected)"

# Runs of a method pooled; a method with a log among its runs has no
# SmartPlay score.
"$score" --llm -f json -m mixed "$scratch/run.traj" "$scratch/walker/stats.jsonl" >"$scratch/json" 2>&1
[ "$(value "$scratch/json" smartplay score)" = null ] &&
  near "$(value "$scratch/json" balrog progression)" \
    "$(awk -v p="$p_expected" 'BEGIN { printf "%.17g", (4 * p + 150) / 7 }')"
ok $? "a trajectory and a log of one method: 7 episodes pooled, SmartPlay unknown"

# The budget counts here as everywhere: only the episodes within it.
first=$(awk '/"done": true/ { print $2; exit }' "$scratch/records" | tr -d ,)
"$score" --llm -f json -B "$first" "$scratch/run.traj" >"$scratch/json" 2>&1
grep -q '"episodes": 1,' "$scratch/json"
ok $? "with a budget of the first episode's $first steps, one episode is scored"

"$score" --help | grep -q -- "--llm"
ok $? "--help lists --llm"
finish
