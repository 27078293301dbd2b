#!/bin/sh
# Trajectory files from crafter-step --record: what they hold, their exact
# re-simulation, and damaged files (truncated, bytes flipped, chunks
# repeated) read by the programs without a crash and reported alike by all.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
plan 25

"$step" --help | grep -q -- "--record=FILE"
ok $? "crafter-step --help lists --record"

# Two envs, three episodes of 30 steps each ended, the rest cut short.
seq 0 199 | awk '{ print ($1 * 7) % 17, ($1 * 11) % 17 }' >"$scratch/actions"
"$step" --seed 9 --envs 2 --length 30 --episodes 0 --obs symbolic --record "$scratch/run.traj" \
  <"$scratch/actions" >"$scratch/out"
ok $? "crafter-step --record writes a file"
[ "$(head -c 8 "$scratch/run.traj")" = CRAFTTRJ ]
ok $? "it starts with the magic"
"$dataset" list "$scratch/run.traj" >"$scratch/list"
[ "$(grep -c "time_limit" "$scratch/list")" -eq 12 ] && [ "$(grep -c "cut" "$scratch/list")" -eq 2 ] &&
  [ "$(awk 'NR > 1 { print $2 }' "$scratch/list" | sort -u | tr '\n' ' ')" = "10 9 " ]
ok $? "every episode of both envs is there; the two the input ended are marked cut"
"$dataset" info "$scratch/run.traj" >"$scratch/info"
grep -q "^agent  *external" "$scratch/info" && grep -q "^observations  *symbolic" "$scratch/info"
ok $? "info tells the agent and observations"
"$dataset" verify --resimulate "$scratch/run.traj" >"$scratch/out"
ok $? "every step re-simulates exactly: $(tail -1 "$scratch/out")"

# The rewards crafter-step printed are the ones stored.
cut -d' ' -f1 "$scratch/actions" >"$scratch/actions1"
"$step" --seed 9 --length 30 --episodes 1 --record "$scratch/one.traj" <"$scratch/actions1" |
  sed -n 's/.*"reward": \([-0-9.]*\).*/\1/p' | awk '{ s += $1 } END { printf "%.1f\n", s }' >"$scratch/printed"
"$dataset" list "$scratch/one.traj" | awk 'NR == 2 { print $6 }' >"$scratch/stored"
[ -s "$scratch/stored" ] && cmp -s "$scratch/printed" "$scratch/stored"
ok $? "the stored return is the sum of the printed rewards ($(cat "$scratch/stored"))"

# --no-reward stores Crafter's info['reward'] all the same.
"$step" --seed 9 --length 30 --episodes 1 --no-reward --record "$scratch/noreward.traj" <"$scratch/actions1" >/dev/null
"$dataset" list "$scratch/noreward.traj" | awk 'NR == 2 { print $6 }' >"$scratch/stored2"
cmp -s "$scratch/stored" "$scratch/stored2" && "$dataset" verify --resimulate "$scratch/noreward.traj" >/dev/null
ok $? "--no-reward stores info['reward'] and re-simulates"

# Truncated at many offsets: whole episodes are read, damage is named, no crash.
size=$(wc -c <"$scratch/run.traj")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
  head -c $cut "$scratch/run.traj" >"$scratch/cut.traj"
  "$dataset" verify "$scratch/cut.traj" >"$scratch/out" 2>"$scratch/err"
  status=$?
  if [ $status -gt 1 ]; then bad=$((bad + 1)); echo "# cut at $cut: status $status"; fi
  if [ $cut -ge 128 ] && ! grep -q "found by scanning" "$scratch/out"; then bad=$((bad + 1)); fi
  cut=$((cut + 97))
done
ok $bad "truncated every 97 bytes: verify answers 0 or 1 and finds the episodes by scanning"

# Bytes flipped at random places: verify answers, never crashes.
bad=0
for seed in $(seq 1 40); do
  perl -e 'srand(shift); local $/; my $d = <STDIN>;
           for (1 .. 1 + int(rand(3))) { my $i = int(rand(length $d)); substr($d, $i, 1) = chr(ord(substr($d, $i, 1)) ^ (1 + int(rand(255)))) }
           print $d' $seed <"$scratch/run.traj" >"$scratch/flip.traj"
  "$dataset" verify --resimulate "$scratch/flip.traj" >/dev/null 2>&1
  status=$?
  [ $status -gt 1 ] && { bad=$((bad + 1)); echo "# flip seed $seed: status $status"; }
  "$dataset" list "$scratch/flip.traj" >/dev/null 2>&1
  status=$?
  [ $status -gt 1 ] && { bad=$((bad + 1)); echo "# flip seed $seed: list status $status"; }
done
ok $bad "40 files with flipped bytes: verify and list answer 0 or 1"

printf 'CRAFTTRJ\001\000' >"$scratch/short.traj"
"$dataset" info "$scratch/short.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "crafter-dataset: .*short.traj: the header is cut short" "$scratch/err"
ok $? "a cut header: $(cat "$scratch/err")"
"$dataset" verify "$top/README" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "not a trajectory file" "$scratch/err"
ok $? "another file: $(cat "$scratch/err")"
# One byte flipped in each episode's chunk in turn, at its tag, its first
# and middle bytes of steps and its last byte: that episode alone is lost,
# whether the index survives or not, and every program says so alike --
# info and verify name the chunk's offset, list, export and crafter-score
# leave the episode out with a note, merge keeps the episodes after it.  The chunks' offsets come
# from the index (crafter-trajectory(5)): the trailer holds the index's
# offset and count, the index the chunks' offsets.
"$dataset" record -q -n 10 --seed 4 -o "$scratch/ten.traj"
perl -e 'local $/; my $d = <STDIN>; my $n = length $d;
  my ($index, $count) = unpack "Q<Q<", substr($d, $n - 24, 16);
  my @o = unpack "Q<*", substr($d, $index + 32, 8 * $count); push @o, $index;
  print "$_ $o[$_] ", $o[$_ + 1] - $o[$_], "\n" for 0 .. $count - 1' <"$scratch/ten.traj" >"$scratch/chunks"
[ "$(wc -l <"$scratch/chunks")" -eq 10 ]
ok $? "the index lists 10 chunks"
flip() { # flip FILE OFFSET OUT
  perl -e 'local $/; my $d = <STDIN>; my $at = shift; substr($d, $at, 1) = chr(ord(substr($d, $at, 1)) ^ 0x20); print $d' "$2" <"$1" >"$3"
}
info_bad=0 list_bad=0 export_bad=0 verify_bad=0 merge_bad=0 score_bad=0 cases=0
while read -r episode offset bytes; do
  for at in 1 256 $((256 + (bytes - 256) / 2)) $((bytes - 1)); do
    cases=$((cases + 1))
    flip "$scratch/ten.traj" $((offset + at)) "$scratch/hit.traj"
    "$dataset" info "$scratch/hit.traj" >"$scratch/info" 2>&1
    grep -q "^damage  *from byte $offset: " "$scratch/info" &&
      grep -q "^episodes  *9: " "$scratch/info" || info_bad=$((info_bad + 1))
    "$dataset" list "$scratch/hit.traj" >"$scratch/list" 2>"$scratch/notes"
    { [ "$(tail -n +2 "$scratch/list" | wc -l)" -eq 9 ] &&
      ! awk -v e=$((episode + 1)) 'NR > 1 && $3 == e { found = 1 } END { exit !found }' "$scratch/list" &&
      grep -q "damaged from byte $offset" "$scratch/notes"; } || list_bad=$((list_bad + 1))
    "$dataset" export --format stats "$scratch/hit.traj" >"$scratch/stats" 2>"$scratch/notes"
    [ "$(wc -l <"$scratch/stats")" -eq 9 ] && grep -q "damaged from byte $offset" "$scratch/notes" ||
      export_bad=$((export_bad + 1))
    "$dataset" verify "$scratch/hit.traj" >"$scratch/out" 2>&1
    [ $? -eq 1 ] && grep -q "damaged from byte $offset" "$scratch/out" &&
      grep -q ": 9 episodes, .*FAILED" "$scratch/out" || verify_bad=$((verify_bad + 1))
    rm -f "$scratch/fixed.traj"
    { "$dataset" merge -o "$scratch/fixed.traj" "$scratch/hit.traj" 2>/dev/null &&
      "$dataset" verify "$scratch/fixed.traj" >/dev/null &&
      [ "$("$dataset" list "$scratch/fixed.traj" | tail -n +2 | wc -l)" -eq 9 ]; } || merge_bad=$((merge_bad + 1))
    "$score" --format json "$scratch/hit.traj" >"$scratch/json" 2>"$scratch/notes"
    grep -q '"episodes": 9,' "$scratch/json" && grep -q "note: .*damaged from byte $offset" "$scratch/notes" ||
      score_bad=$((score_bad + 1))
  done
done <"$scratch/chunks"
ok $info_bad "info reports the damaged chunk and 9 episodes in $cases of $cases cases"
ok $list_bad "list leaves out the damaged episode alone and notes the damage"
ok $export_bad "export writes the 9 intact episodes and notes the damage"
ok $verify_bad "verify fails and names the damaged chunk"
ok $merge_bad "merge keeps the 9 intact episodes, before and after the damage, in a file that verifies"
ok $score_bad "crafter-score scores the 9 intact episodes with a note"

# A chunk repeated (files concatenated by hand): the episode counts once.
perl -e 'open my $c, "<", shift; my @c = map { [split] } <$c>; my $d = do { local $/; <STDIN> };
  my ($e, $o, $b) = @{$c[0]}; my ($e2, $o2, $b2) = @{$c[1]};
  print substr($d, 0, $o2 + $b2), substr($d, $o, $b)' "$scratch/chunks" <"$scratch/ten.traj" >"$scratch/twice.traj"
"$dataset" list "$scratch/twice.traj" >"$scratch/list" 2>"$scratch/notes"
[ "$(tail -n +2 "$scratch/list" | wc -l)" -eq 2 ] && grep -q "repeats an episode" "$scratch/notes"
ok $? "list shows a repeated chunk's episode once: $(grep repeat "$scratch/notes")"
"$score" --format json "$scratch/twice.traj" 2>/dev/null | grep -q '"episodes": 2,'
ok $? "crafter-score counts it once"
"$dataset" verify "$scratch/twice.traj" >/dev/null
[ $? -eq 1 ]
ok $? "verify fails on a repeated chunk"
"$dataset" info "$scratch/twice.traj" | grep -q "^duplicates  *1 chunk from byte [0-9]* repeats an episode"
ok $? "info reports it"

# Damaged and repeated at once: crafter-score notes both.
perl -e 'open my $c, "<", shift; my @c = map { [split] } <$c>; my $d = do { local $/; <STDIN> };
  my (undef, $o2, $b2) = @{$c[1]}; substr($d, $o2 + $b2 - 8, 1) ^= "\xff"; print $d' \
  "$scratch/chunks" <"$scratch/twice.traj" >"$scratch/both.traj"
"$score" "$scratch/both.traj" 2>"$scratch/notes" >/dev/null
grep -q "note: .*damaged from byte.*; 1 chunk repeats an episode" "$scratch/notes"
ok $? "crafter-score notes damage and a repeated chunk together: $(cat "$scratch/notes")"
# An action out of range, the chunk's checksums made right: every reader
# names the file, the episode, the step and the action.
seq 0 59 | awk '{ print $1 % 17 }' |
  "$step" --seed 3 --length 20 --episodes 2 --record "$scratch/actions.traj" >/dev/null
perl -MCompress::Zlib -e '
  local $/; my $d = <STDIN>; my $obs = unpack("V", substr($d, 20, 4));
  my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
  $at += 256 + unpack("Q<", substr($d, $at + 8, 8));
  my $p = unpack("Q<", substr($d, $at + 8, 8)); my $head = substr($d, $at, 256);
  my $steps = uncompress(substr($d, $at + 256, $p));
  substr($steps, $obs + 5 * (16 + $obs), 1) = chr(17);
  my $packed = compress($steps);
  substr($head, 8, 8) = pack("Q<", length $packed);
  substr($head, 248, 4) = pack("V", crc32($packed));
  substr($head, 252, 4) = pack("V", crc32(substr($head, 0, 252)));
  print STDERR "$at\n";
  print substr($d, 0, $at), $head, $packed, substr($d, $at + 256 + $p)' \
  <"$scratch/actions.traj" >"$scratch/action17.traj" 2>"$scratch/at"
at=$(cat "$scratch/at")
said="step 6 of the episode at byte $at: its action 17 is out of range (0..16)"
"$dataset" verify "$scratch/action17.traj" >"$scratch/verify" 2>&1
verified=$?
"$top/bin/crafter-play" --replay "$scratch/action17.traj" --episode-index 1 --no-wait \
  >/dev/null 2>"$scratch/play"
played=$?
[ $verified -eq 1 ] &&
  grep -q "^$scratch/action17.traj: episode 1 (seed 3, episode 2): $said$" "$scratch/verify" &&
  [ $played -eq 1 ] &&
  [ "$(cat "$scratch/play")" = "crafter-play: $scratch/action17.traj: episode 1: $said" ]
status=$?
[ $status -ne 0 ] && diag <"$scratch/verify" && diag <"$scratch/play"
ok $status "an action out of range is named with its file, episode and step: $(cat "$scratch/play")"
finish
