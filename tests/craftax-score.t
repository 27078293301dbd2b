#!/bin/sh
# crafter-score on Craftax-Classic's trajectory files: the success rates,
# the Crafter score, the mean return and length and the return as a
# percentage of the maximum (22), each recomputed here from first
# principles out of crafter-dataset list's episodes; the table, JSON and
# CSV carry the percentage; files of two games are refused, naming both.
. "$(dirname "$0")/tap.sh"
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
plan 9

"$dataset" record -q --game craftax-classic -n 9 -N 3 -s 4 -o "$scratch/cc.traj" &&
  "$dataset" list "$scratch/cc.traj" >"$scratch/list"
ok $? "9 episodes of Craftax-Classic are recorded and listed"
"$score" --format json "$scratch/cc.traj" >"$scratch/json"
ok $? "crafter-score reads the file"

# From list: an achievement's success rate is the percentage of the
# episodes that unlocked it; the score exp(mean(ln(1 + rate))) - 1 over
# the 22; the return and length the means over the episodes (one seed);
# the percentage of the maximum 100 * mean return / 22.
perl -e '
  my ($list, $json) = @ARGV;
  open my $l, "<", $list or die; <$l>;
  my ($n, $returns, $lengths, %unlocked) = (0, 0, 0);
  while (<$l>) {
    chomp; my @f = split /\t/;
    $n++; $lengths += $f[5]; $returns += $f[6];
    $unlocked{$_}++ for grep { $_ ne "-" } split /,/, $f[8];
  }
  open my $j, "<", $json or die; local $/; my $text = <$j>;
  my ($success) = $text =~ /"success": \{([^}]*)\}/ or die "no success rates\n";
  my %got = $success =~ /"(\w+)": ([-0-9.e]+)/g;
  die "expected 22 achievements\n" unless keys %got == 22;
  my $bad = 0; my $logs = 0;
  for my $name (sort keys %got) {
    my $rate = 100 * ($unlocked{$name} || 0) / $n; $logs += log(1 + $rate);
    if (abs($rate - $got{$name}) > 1e-9) { print "$name: $got{$name}, not $rate\n"; $bad++ }
  }
  my %want = (score_mean => exp($logs / 22) - 1, reward_mean => $returns / $n,
              length_mean => $lengths / $n, return_percent_max => 100 * $returns / $n / 22,
              episodes => $n, seeds => 1);
  for my $key (sort keys %want) {
    my ($value) = $text =~ /"\Q$key\E": ([-0-9.e]+)/ or do { print "no $key\n"; $bad++; next };
    my $close = abs($value - $want{$key}) <= 1e-9 * (1 + abs($want{$key}));
    printf "%s %s, from list %.12g%s\n", $key, $value, $want{$key}, $close ? "" : "  WRONG";
    $bad++ unless $close;
  }
  exit($bad ? 1 : 0);
' "$scratch/list" "$scratch/json" >"$scratch/check"
ok $? "the success rates, score, return, length and return (% max) are those of list's episodes"
diag <"$scratch/check"
grep -q '^{"game": "craftax-classic", "methods": \[{"name": "random", ' "$scratch/json"
ok $? "the JSON names the game"

"$score" "$scratch/cc.traj" >"$scratch/table"
percent=$(awk '$1 == "return_percent_max" { printf "%.2f", $2 }' "$scratch/check")
grep -q "^return (% max) *$percent$" "$scratch/table" &&
  grep -q "^game: Craftax-Classic; return (% max) is 100 x return / 22" "$scratch/table"
ok $? "the table has the row return (% max), $percent"
"$score" --format csv "$scratch/cc.traj" >"$scratch/csv"
head -1 "$scratch/csv" | grep -q "^method,score_mean,score_std,reward_mean,length_mean,episodes,seeds,return_percent_max,collect_coal," &&
  [ "$(cut -d, -f8 "$scratch/csv" | tail -1 | awk '{ printf "%.2f", $1 }')" = "$percent" ]
ok $? "the CSV has the column return_percent_max"

# Files of two games.
"$dataset" record -q -n 3 -o "$scratch/crafter.traj"
"$score" "$scratch/crafter.traj" "$scratch/cc.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] &&
  grep -q "cc.traj: a trajectory of craftax-classic, but .*crafter.traj holds crafter's: files of two games are not scored together" "$scratch/err"
ok $? "a Craftax-Classic file after a Crafter one is refused: $(cat "$scratch/err")"
"$score" "$scratch/cc.traj" "$scratch/crafter.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] &&
  grep -q "crafter.traj: a trajectory of crafter, but .*cc.traj holds craftax-classic's" "$scratch/err"
ok $? "and the other way round: $(cat "$scratch/err")"
"$score" --format json "$scratch/crafter.traj" >"$scratch/crafter.json"
! grep -q -e '"game"' -e return_percent_max "$scratch/crafter.json" &&
  ! "$score" "$scratch/crafter.traj" | grep -q "% max"
ok $? "Crafter's results are as they were: no game, no percentage of a maximum"
finish
