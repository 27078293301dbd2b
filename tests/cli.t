#!/bin/sh
# The six programs behave alike: a short option means the same in every
# program that has it, every program has --version, and output that cannot
# be written is an error that names the program.
. "$(dirname "$0")/tap.sh"
bin=$top/bin
programs="step play score bench gen dataset"
plan 37

# Every "-x, --name" pair that each program's --help and man page list.
for p in $programs; do
  "$bin/crafter-$p" --help >"$scratch/help-$p" || echo "# crafter-$p --help failed"
  # An option starts its line, or follows a command's name ("verify:  -t, ...").
  grep -oE '^([a-z]+:)?[[:space:]]+-[A-Za-z], --[a-z][a-z-]*' "$scratch/help-$p" |
    sed 's/^[a-z]*:*[[:space:]]*//' | sort -u | sed "s/^/$p /" >>"$scratch/help-pairs"
  sed -n 's/^\.BR \\-\([A-Za-z]\) ", " \\-\\-\([a-z\\-]*\).*/-\1, --\2/p' \
    "$top/man/man1/crafter-$p.1" | sed 's/\\//g' | sort -u | sed "s/^/$p /" >>"$scratch/man-pairs"
done
[ "$(wc -l <"$scratch/help-pairs")" -gt 50 ] && [ "$(wc -l <"$scratch/man-pairs")" -gt 50 ]
ok $? "the short options are found in every --help and man page"

# One meaning per letter: a letter names the same long option everywhere,
# and a long option has the same letter (or none) everywhere.
grep -oE -- '(^|[[:space:]])-[A-Za-z] --[a-z][a-z-]*' "$top/README" |
  sed 's/^[[:space:]]*//; s/ /, /; s/^/README /' >"$scratch/readme-pairs"
cat "$scratch/help-pairs" "$scratch/man-pairs" "$scratch/readme-pairs" | awk '
  { split($2, letter, ","); long = $3
    if (letter[1] in by_letter && by_letter[letter[1]] != long) {
      print "# " letter[1] " is " by_letter[letter[1]] " and " long " (" $1 ")"; bad = 1 }
    if (long in by_long && by_long[long] != letter[1]) {
      print "# " long " is " by_long[long] " and " letter[1] " (" $1 ")"; bad = 1 }
    by_letter[letter[1]] = long; by_long[long] = letter[1] }
  END { exit bad }' >"$scratch/conflicts"
ok $? "each short letter means one long option across the toolkit $(tr '\n' ' ' <"$scratch/conflicts")"

# A program's man page lists the short options its --help lists.
sort -u "$scratch/help-pairs" >"$scratch/help-sorted"
sort -u "$scratch/man-pairs" >"$scratch/man-sorted"
comm -23 "$scratch/help-sorted" "$scratch/man-sorted" >"$scratch/unlisted"
[ ! -s "$scratch/unlisted" ]
ok $? "every short option of --help is in the man page $(tr '\n' ' ' <"$scratch/unlisted")"

# The README's table lists every short option there is.
cut -d' ' -f2- "$scratch/help-pairs" | sort -u >"$scratch/all-pairs"
cut -d' ' -f2- "$scratch/readme-pairs" | sort -u | comm -23 "$scratch/all-pairs" - >"$scratch/unlisted"
[ ! -s "$scratch/unlisted" ]
ok $? "the README lists every short option $(tr '\n' ' ' <"$scratch/unlisted")"

# A letter a program does not list is refused, not taken for something else
# (an old letter gives no silently different behaviour).
for p in $programs; do
  for letter in a b c d e f g i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U W X Y Z; do
    grep -q "^$p -$letter," "$scratch/help-pairs" && continue
    if [ "$p" = dataset ]; then set -- list "-$letter"; else set -- "-$letter"; fi
    "$bin/crafter-$p" "$@" </dev/null >/dev/null 2>"$scratch/err"
    status=$?
    { [ $status -eq 2 ] && grep -q "invalid option" "$scratch/err"; } ||
      echo "crafter-$p -$letter (exit $status)"
  done
done >"$scratch/accepted"
[ ! -s "$scratch/accepted" ]
ok $? "unlisted letters are refused as invalid options $(tr '\n' ' ' <"$scratch/accepted")"

for p in $programs; do
  for option in --version -V; do
    out=$("$bin/crafter-$p" $option) && [ "$out" = "crafter-$p (Crafter toolkit) $(sed -n 's/^VERSION *= *//p' "$top/Makefile")" ] ||
      echo "crafter-$p $option: $out"
  done
done >"$scratch/versions"
[ ! -s "$scratch/versions" ]
ok $? "every program answers --version and -V $(tr '\n' ' ' <"$scratch/versions")"

echo noop | "$bin/crafter-step" -o pixels >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid option -- 'o'" "$scratch/err" &&
  echo noop | "$bin/crafter-step" -O text | grep -q '"obs": "Step 0'
ok $? "crafter-step: -O is --obs; -o, once --obs, is refused"

"$bin/crafter-dataset" record -q -n 3 --seed 1 -o "$scratch/small.traj" || echo "# record failed"

# The limits of --seed, --first-episode and --length: the limit itself is
# taken, one past it is refused with a message that states the range.
seed_range="expected an integer from -4611686018427387904 to 4611686018427387903"
limit() { # limit DESCRIPTION EXPECTED-MESSAGE COMMAND...: exits 2 with the message
  description=$1 expected=$2
  shift 2
  "$@" </dev/null >/dev/null 2>"$scratch/err"
  status=$?
  [ $status -eq 2 ] && grep -qF "$expected" "$scratch/err"
  ok $? "$description is refused, stating the limit (exit $status: $(head -n 1 "$scratch/err"))"
}
echo noop | "$bin/crafter-step" --seed 4611686018427387903 --info full >"$scratch/high" &&
  echo noop | "$bin/crafter-step" --seed -4611686018427387904 --first-episode 2147483647 \
    --length 1000000000 --info full >"$scratch/low"
ok $? "crafter-step takes --seed 2**62-1 and -2**62, --first-episode 2**31-1, --length 10**9"
if command -v python3 >/dev/null 2>&1; then
  # Crafter's world seed is Python's hash((seed, episode)) % (2**31 - 1).
  expected=$(python3 -c 'print(hash((4611686018427387903, 1)) % (2**31 - 1), hash((-4611686018427387904, 2147483647)) % (2**31 - 1))')
  got="$(grep -o '"world_seed": [0-9]*' "$scratch/high" | head -n 1 | cut -d' ' -f2) $(grep -o '"world_seed": [0-9]*' "$scratch/low" | head -n 1 | cut -d' ' -f2)"
  [ "$got" = "$expected" ]
  ok $? "the world seeds at the limits are Python's (expected $expected, got $got)"
else
  skip "python3 is not installed"
fi
limit "crafter-step --seed 2**62" "invalid seed '4611686018427387904' ($seed_range)" \
  "$bin/crafter-step" --seed 4611686018427387904
limit "crafter-step --seed -2**62-1" "invalid seed '-4611686018427387905' ($seed_range)" \
  "$bin/crafter-step" --seed -4611686018427387905
limit "crafter-gen --seed 2**62" "$seed_range" "$bin/crafter-gen" --seed 4611686018427387904
limit "crafter-play --seed 2**62" "$seed_range" "$bin/crafter-play" --keys q --seed 4611686018427387904
limit "crafter-dataset record --seed 2**62" "$seed_range" \
  "$bin/crafter-dataset" record -n 1 -o "$scratch/x.traj" --seed 4611686018427387904
limit "crafter-step --first-episode 2**31" \
  "invalid first episode '2147483648' (expected an integer from 1 to 2147483647)" \
  "$bin/crafter-step" --first-episode 2147483648
limit "crafter-dataset record --first-episode 2**31" "expected an integer from 1 to 2147483647" \
  "$bin/crafter-dataset" record -n 1 -o "$scratch/x.traj" --first-episode 2147483648
limit "crafter-play --first-episode 2**31" "expected an integer from 1 to 2147483647" \
  "$bin/crafter-play" --keys q --first-episode 2147483648
limit "crafter-gen --episode 2**31" "expected an integer from 1 to 2147483647" \
  "$bin/crafter-gen" --episode 2147483648
limit "crafter-step --length 10**9+1" \
  "invalid length '1000000001' (expected an integer from 0 to 1000000000)" \
  "$bin/crafter-step" --length 1000000001
limit "crafter-play --length 10**9+1" "expected an integer from 0 to 1000000000" \
  "$bin/crafter-play" --keys q --length 1000000001
limit "crafter-bench --length 10**9+1" "expected an integer from 0 to 1000000000" \
  "$bin/crafter-bench" --length 1000000001
limit "crafter-dataset record --steps 10**9+1" "expected an integer from 1 to 1000000000" \
  "$bin/crafter-dataset" record -n 1 -o "$scratch/x.traj" --steps 1000000001
[ ! -e "$scratch/x.traj" ]
ok $? "a refused option writes no file"

# /dev/full takes no byte: whatever a program prints fails with ENOSPC.
full() { # full DESCRIPTION COMMAND...: exits 1 and says "write error"
  description=$1
  shift
  echo noop | "$@" >/dev/full 2>"$scratch/err"
  status=$?
  [ $status -eq 1 ] && grep -q "^crafter-[a-z]*: write error" "$scratch/err"
  ok $? "$description >/dev/full exits 1 with a write error (exit $status: $(head -c 200 "$scratch/err"))"
}
full "crafter-dataset list" "$bin/crafter-dataset" list "$scratch/small.traj"
full "crafter-dataset info" "$bin/crafter-dataset" info "$scratch/small.traj"
full "crafter-dataset verify" "$bin/crafter-dataset" verify "$scratch/small.traj"
full "crafter-bench" "$bin/crafter-bench" --steps 1000 --repeats 1
full "crafter-gen --stats" "$bin/crafter-gen" --stats --seeds 1-2 --threads 1
full "crafter-gen" "$bin/crafter-gen" --seed 1
full "crafter-score" "$bin/crafter-score" "$scratch/small.traj"
full "crafter-step --help" "$bin/crafter-step" --help
full "crafter-play --version" "$bin/crafter-play" --version

echo noop | "$bin/crafter-step" --seed 1 >/dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: .*No space left on device" "$scratch/err"
ok $? "crafter-step >/dev/full exits 1 and says why"
"$bin/crafter-play" --keys ww >/dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-play: .*No space left on device" "$scratch/err"
ok $? "crafter-play --keys >/dev/full exits 1 and says why"
[ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "a failed write is reported once"

# A reader that goes away: with SIGPIPE ignored the writes fail with EPIPE.
# The listing is larger than any pipe buffer, so some write must fail.
"$bin/crafter-dataset" record -q -n 3000 --steps 1 --seed 1 -o "$scratch/many.traj" || echo "# record failed"
status=$( (trap '' PIPE; "$bin/crafter-dataset" list "$scratch/many.traj" 2>"$scratch/err"; echo $? >"$scratch/status") | head -n 1 >/dev/null; cat "$scratch/status")
[ "$status" -ne 0 ] && grep -q "^crafter-dataset: write error" "$scratch/err"
ok $? "list | head -1 with SIGPIPE ignored exits non-zero (exit $status)"
status=$( (trap '' PIPE; "$bin/crafter-gen" --seed 1 --area 400,400 2>"$scratch/err"; echo $? >"$scratch/status") | head -n 1 >/dev/null; cat "$scratch/status")
[ "$status" -ne 0 ] && grep -q "^crafter-gen: write error" "$scratch/err"
ok $? "crafter-gen | head -1 with SIGPIPE ignored exits non-zero (exit $status)"

finish
