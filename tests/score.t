#!/bin/sh
# crafter-score as a user runs it: the paper's human-expert result from the
# reference's run file, small hand-made logs and run files whose numbers
# were worked out by hand, the output formats, the budget, bad input and
# plots.
. "$(dirname "$0")/tap.sh"
score=$top/bin/crafter-score
data=$top/tests/data/score
SCORES_DIR=${SCORES_DIR:-$(dirname "$GOLDEN_DIR")/scores}
plan 40

# field CSV METHOD COLUMN: one value of crafter-score's CSV output.
field() {
  awk -F, -v method="$2" -v name="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) column = i; next }
    $1 == method { print $column }' "$1"
}
# near A B: A and B agree to 1e-9.
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'; }

"$score" --help >"$scratch/help" 2>&1
ok $? "--help exits 0"
grep -q -- "--budget" "$scratch/help" && grep -q -- "--plot" "$scratch/help" &&
  grep -q -- "--format" "$scratch/help" && grep -q -- "--method" "$scratch/help"
ok $? "--help lists the options"

"$score" --bogus </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "crafter-score" "$scratch/err"
ok $? "an unknown option exits 2"
"$score" --budget lots "$data/runs.json" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^crafter-score: invalid budget 'lots'" "$scratch/err"
ok $? "a bad budget exits 2: $(head -1 "$scratch/err")"
"$score" --format yaml "$data/runs.json" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "a bad format exits 2"
"$score" --plot out.pdf "$data/runs.json" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "png or .svg" "$scratch/err"
ok $? "a plot name without .png or .svg exits 2"

# The human experts of the paper: 50.5 +- 6.8 (README of danijar/crafter,
# computed with numpy's nanstd, ddof 0) and the success rates of its
# Table C.1, which the reference's analysis/print_spectrum.py prints.
human=$SCORES_DIR/crafter_reward-human.json
if [ -f "$human" ]; then
  "$score" "$human" >"$scratch/table"
  grep -q "^score (%)  *50\.5 ± 6\.8$" "$scratch/table"
  ok $? "human experts score 50.5 ± 6.8 as in the paper"
  "$score" --format csv "$human" >"$scratch/csv"
  rates=$(cut -d, -f8- "$scratch/csv" | tail -1)
  [ "$rates" = "86.0,12.0,92.0,53.0,67.0,100.0,100.0,31.0,84.0,89.0,8.0,26.0,22.0,78.0,78.0,100.0,45.0,32.0,24.0,90.0,100.0,73.0" ]
  ok $? "human success rates are those of Table C.1: $rates"
  [ "$(field "$scratch/csv" human episodes)" = 100 ] && [ "$(field "$scratch/csv" human seeds)" = 5 ]
  ok $? "100 episodes over 5 seeds"
else
  skip "no $human"
  skip "no $human"
  skip "no $human"
fi

# tests/data/score/walker/stats.jsonl: four episodes of lengths 100..400;
# collect_wood in episodes 1-3, place_table in 1 and 3, wake_up in 3.
# Rates 75, 50, 25 and 19 zeros: score (76*51*26)^(1/22) - 1 = 0.68821;
# returns 1.1 0.9 2.0 -0.9: mean 0.775; lengths: mean 250.
"$score" --format csv "$data/walker/stats.jsonl" >"$scratch/csv"
ok $? "reads a stats.jsonl log"
near "$(field "$scratch/csv" walker score_mean)" 0.6882055491645351 &&
  [ -z "$(field "$scratch/csv" walker score_std)" ]
ok $? "its score is 0.68821, one seed has no deviation, its method the directory's name"
[ "$(field "$scratch/csv" walker collect_wood)" = 75.0 ] &&
  [ "$(field "$scratch/csv" walker place_table)" = 50.0 ] &&
  [ "$(field "$scratch/csv" walker wake_up)" = 25.0 ] &&
  [ "$(field "$scratch/csv" walker eat_cow)" = 0.0 ] &&
  [ "$(field "$scratch/csv" walker reward_mean)" = 0.775 ] &&
  [ "$(field "$scratch/csv" walker length_mean)" = 250.0 ]
ok $? "its success rates, return and length"

# The budget 600 keeps episodes ending at steps 100, 300, 600: rates 100,
# 66.67, 33.33, score (101*67.667*34.333)^(1/22) - 1 = 0.75432.
"$score" --budget 600 --format csv "$data/walker/stats.jsonl" >"$scratch/csv"
near "$(field "$scratch/csv" walker score_mean)" 0.7543233430154661 &&
  [ "$(field "$scratch/csv" walker episodes)" = 3 ]
ok $? "--budget 600 keeps three episodes, score 0.75432"

# tests/data/score/runs.json: alpha seed 0 unlocks everything (score 100),
# seed 1 nothing (score 0): 50 ± 50 with the population deviation, every
# rate 50.  beta unlocks collect_wood in one of its two episodes within
# 1e6 steps: 51^(1/22) - 1 = 0.19569; its third episode ends at step 2e6.
"$score" --format csv "$data/runs.json" >"$scratch/csv"
near "$(field "$scratch/csv" alpha score_mean)" 50 && near "$(field "$scratch/csv" alpha score_std)" 50 &&
  [ "$(field "$scratch/csv" alpha make_iron_sword)" = 50.0 ]
ok $? "a run file: alpha scores 50 ± 50 over two seeds"
near "$(field "$scratch/csv" beta score_mean)" 0.1956851243871809 &&
  [ "$(field "$scratch/csv" beta episodes)" = 2 ]
ok $? "beta scores 0.19569 in the default budget of 1e6 steps"
# With 3e6 steps: collect_wood 2 of 3 episodes, the rest 1 of 3:
# exp((ln 67.667 + 21 ln 34.333) / 22) - 1 = 34.40866.
"$score" --budget 3e6 --format csv "$data/runs.json" >"$scratch/csv"
awk -v s="$(field "$scratch/csv" beta score_mean)" 'BEGIN { exit !(s > 34.40865 && s < 34.40867) }' &&
  [ "$(field "$scratch/csv" beta episodes)" = 3 ]
ok $? "--budget 3e6 counts beta's third episode: 34.40866"

# Methods are grouped across files, in the order they first appear.
"$score" "$data/runs.json" "$data/walker/stats.jsonl" >"$scratch/table"
head -1 "$scratch/table" | grep -q "^method  *alpha  *beta  *walker$" &&
  [ "$(sed -n '/^runs:/q;p' "$scratch/table" | wc -l)" -eq 31 ]
ok $? "the table: one column per method, 5 summary rows and 22 achievements"
# How the files were grouped: runs.json holds alpha seeds 0 and 1 and
# beta seed 0; the log takes its directory's name, walker, as seed 0.
sed -n '/^runs:/,$p' "$scratch/table" >"$scratch/runs"
cat >"$scratch/expected" <<EOF
runs: file -> method (taken from), seed
  $data/runs.json -> alpha (run file), seed 0
  $data/runs.json -> alpha (run file), seed 1
  $data/runs.json -> beta (run file), seed 0
  $data/walker/stats.jsonl -> walker (directory name), seed 0
EOF
cmp -s "$scratch/runs" "$scratch/expected"
ok $? "the table ends with each run's file, method, its origin, and seed"
"$score" "$data/runs.json" | grep -q "^score (%)  *50\.0 ± 50\.0  *0\.2 ± n/a$"
ok $? "a method of one seed shows its deviation as n/a"

"$score" --format csv "$data/runs.json" "$data/walker/stats.jsonl" >"$scratch/csv"
[ "$(wc -l <"$scratch/csv")" -eq 4 ] &&
  [ "$(awk -F, '{ print NF }' "$scratch/csv" | sort -u)" = 29 ] &&
  head -1 "$scratch/csv" | grep -q "^method,score_mean,score_std,reward_mean,length_mean,episodes,seeds,collect_coal,.*,wake_up$"
ok $? "csv: a header and one line of 29 fields per method"

"$score" --format json "$data/runs.json" "$data/walker/stats.jsonl" >"$scratch/json"
perl -MJSON::PP -e '
  local $/; my $d = decode_json(<STDIN>);
  my @keys = sort keys %$d; die "top keys @keys\n" unless "@keys" eq "methods runs";
  my @names = map { $_->{name} } @{$d->{methods}};
  die "names @names\n" unless "@names" eq "alpha beta walker";
  for my $m (@{$d->{methods}}) {
    my $k = join " ", sort keys %$m;
    die "keys $k\n" unless $k eq "episodes length_mean name reward_mean score_mean score_std seeds success";
    die "success\n" unless keys %{$m->{success}} == 22 && exists $m->{success}{collect_diamond};
  }
  die "walker\n" unless $d->{methods}[2]{success}{collect_wood} == 75 && $d->{methods}[2]{seeds} == 1;
  die "walker deviation\n" if defined $d->{methods}[2]{score_std};
  my @runs = map { "$_->{method}/$_->{seed}/$_->{method_from}/$_->{episodes}" } @{$d->{runs}};
  die "runs @runs\n" unless "@runs" eq "alpha/0/run file/2 alpha/1/run file/2 beta/0/run file/2 walker/0/directory name/4";
  die "run keys\n" unless join(" ", sort keys %{$d->{runs}[3]}) eq "agent episodes file method method_from params seed";
  die "walker file\n" unless $d->{runs}[3]{file} =~ m{walker/stats\.jsonl$} && !defined $d->{runs}[3]{agent};
' <"$scratch/json" 2>"$scratch/err"
ok $? "json: {methods: [{name, score_mean, score_std, success, reward_mean, length_mean, episodes, seeds}], runs: [...]} $(cat "$scratch/err")"

# Trajectory files of two agents in one directory are two methods, named
# by the agents they record, with their Env seeds; forced into one method
# by --method they are warned of.
"$top/bin/crafter-dataset" record --agent random -n 2 --seed 1 --steps 50 -o "$scratch/random.traj" 2>/dev/null &&
  "$top/bin/crafter-dataset" record --agent scripted -n 2 --seed 2 --steps 50 -o "$scratch/scripted.traj" 2>/dev/null
"$score" "$scratch/random.traj" "$scratch/scripted.traj" >"$scratch/table" 2>"$scratch/err"
[ $? -eq 0 ] && [ ! -s "$scratch/err" ] && head -1 "$scratch/table" | grep -q "^method  *random  *scripted$" &&
  grep -q "^seeds  *1  *1$" "$scratch/table" && grep -q "^score (%)  *[0-9.]* ± n/a  *[0-9.]* ± n/a$" "$scratch/table" &&
  grep -q "^  $scratch/random.traj -> random (agent), seed 1$" "$scratch/table" &&
  grep -q "^  $scratch/scripted.traj -> scripted (agent), seed 2$" "$scratch/table"
ok $? "trajectories of two agents in one directory are two methods, one seed each $(cat "$scratch/err")"
"$score" --method w "$scratch/random.traj" "$scratch/scripted.traj" >"$scratch/table" 2>"$scratch/err"
[ $? -eq 0 ] && head -1 "$scratch/table" | grep -q "^method  *w$" && grep -q "^seeds  *2$" "$scratch/table" &&
  grep -q "^  $scratch/scripted.traj -> w (--method), seed 2$" "$scratch/table" &&
  grep -q "^crafter-score: warning: method 'w' groups different agents: .*random.traj records 'random', .*scripted.traj 'scripted'$" "$scratch/err"
ok $? "--method still overrides, and mixing agents is warned of: $(cat "$scratch/err")"
"$top/bin/crafter-dataset" record --agent random -n 2 --seed 1 --steps 50 -o "$scratch/again.traj" 2>/dev/null
"$score" "$scratch/random.traj" "$scratch/again.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "seed '1' is already read from .*random.traj (shards of one recording?" "$scratch/err"
ok $? "one agent and seed recorded twice: an error that suggests merging shards"
"$top/bin/crafter-dataset" record --agent random -n 2 --seed 5 --steps 50 -o "$scratch/other.traj" 2>/dev/null
"$score" --seed x "$scratch/random.traj" "$scratch/other.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "seed 'x' is already read" "$scratch/err" && ! grep -q shards "$scratch/err"
ok $? "a clash of the user's --seed suggests no merge: $(cat "$scratch/err")"

"$score" --method mine --seed 7 - <"$data/walker/stats.jsonl" >"$scratch/table"
head -1 "$scratch/table" | grep -q "^method  *mine$"
ok $? "standard input with --method"

"$score" "$data/walker/stats.jsonl" "$data/walker/stats.jsonl" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q "^seeds  *2$" "$scratch/out"
ok $? "two logs of one method are seeds 0 and 1"
"$score" --seed 3 "$data/walker/stats.jsonl" "$data/walker/stats.jsonl" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -s "$scratch/out" ] &&
  grep -q "stats.jsonl: line 1: method 'walker' seed '3' is already read" "$scratch/err"
ok $? "the same method and seed twice is an error: $(cat "$scratch/err")"

# Bad input: one line naming the file and line, status 1, nothing printed.
bad() { # bad NAME DESCRIPTION PATTERN
  "$score" "$scratch/$1" >"$scratch/out" 2>"$scratch/err"
  status=$?
  [ $status -eq 1 ] && [ ! -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
    grep -q "^crafter-score: $scratch/$1: $3" "$scratch/err"
  ok $? "$2: $(cat "$scratch/err")"
}
printf 'length 100 reward 1\n' >"$scratch/text"
bad text "not JSON" "line 1: not JSON"
{ sed -n '1,3p' "$data/runs.json"; sed -n '4s/\("xs": \[5, 15\).*/\1/p' "$data/runs.json" | tr -d '\n'; } >"$scratch/cut.json"
bad cut.json "a truncated run file" "line 4: .*truncated"
{ head -n 2 "$data/walker/stats.jsonl"; head -c 300 "$data/walker/stats.jsonl"; } >"$scratch/cut.jsonl"
bad cut.jsonl "a truncated log" "line 3: .*truncated"
sed '2s/"length": 200/"length": "200"/' "$data/walker/stats.jsonl" >"$scratch/type.jsonl"
bad type.jsonl "a wrong type in a log" 'line 2: "length" is missing or not a count'
sed '4s/"xs": \[5, 15, 2000000\]/"xs": [5, 15]/' "$data/runs.json" >"$scratch/short.json"
bad short.json "lists of unequal length" 'line 4: run 3: "length" has 3 values for 2 episodes'
# Names are kept whole or refused: a method cut at a NUL would pool
# "alpha\u0000b" with alpha, a seed "0\u0000" run 2 with run 1.
sed '3s/"method": "alpha"/"method": "alpha\\u0000b"/' "$data/runs.json" >"$scratch/nul-method.json"
bad nul-method.json "a method with a NUL" 'line 3: run 2: "method" holds a NUL character (\\u0000)'
sed '3s/"seed": "1"/"seed": "0\\u0000"/' "$data/runs.json" >"$scratch/nul-seed.json"
bad nul-seed.json "a seed with a NUL" 'line 3: run 2: "seed" holds a NUL character (\\u0000)'
# Rewards whose sum passes the largest double: a mean that cannot be
# computed is an empty CSV field and null in JSON (CSV crashed on it).
sed -n 1p "$data/walker/stats.jsonl" | sed 's/"reward": [-0-9.e]*/"reward": 1e308/' >"$scratch/huge.jsonl"
cat "$scratch/huge.jsonl" "$scratch/huge.jsonl" >"$scratch/huge2.jsonl"
"$score" --format csv "$scratch/huge2.jsonl" >"$scratch/csv" 2>"$scratch/err" &&
  [ "$(field "$scratch/csv" "$(basename "$scratch")" reward_mean)" = "" ] &&
  [ "$(field "$scratch/csv" "$(basename "$scratch")" length_mean)" = 100.0 ] &&
  "$score" --format json "$scratch/huge2.jsonl" | grep -q '"reward_mean": null, "length_mean": 100.0,'
ok $? "a mean past the largest double: an empty CSV field, null in JSON $(cat "$scratch/err")"
head -c 3000 /dev/urandom >"$scratch/noise"
printf '{' | cat - "$scratch/noise" >"$scratch/brace"
"$score" "$scratch/noise" "$scratch/brace" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "random bytes are refused, not a crash"

if command -v gnuplot >/dev/null 2>&1; then
  "$score" --plot "$scratch/spectrum.png" "$data/runs.json" "$data/walker/stats.jsonl" >"$scratch/out"
  status=$?
  [ $status -eq 0 ] && [ -s "$scratch/spectrum.png" ] && [ -s "$scratch/spectrum-scores.png" ] &&
    [ "$(head -c 4 "$scratch/spectrum.png" | tail -c 3)" = PNG ] && grep -q "^seeds" "$scratch/out"
  ok $? "--plot draws the spectrum and the scores to two PNG files"
  "$score" --plot "$scratch/spectrum.svg" "$data/runs.json" >/dev/null
  grep -q "<svg" "$scratch/spectrum.svg" && grep -q "<svg" "$scratch/spectrum-scores.svg"
  ok $? "--plot draws SVG by the name"
else
  skip "gnuplot is not installed"
  skip "gnuplot is not installed"
fi
PATH=/nonexistent "$score" --plot "$scratch/none.png" "$data/runs.json" >"$scratch/out" 2>"$scratch/err"
status=$?
[ $status -eq 0 ] && grep -q "^seeds" "$scratch/out" && grep -q "gnuplot is not installed" "$scratch/err" &&
  [ ! -e "$scratch/none.png" ]
ok $? "without gnuplot: the numbers, a message, status 0 (got $status)"
finish
