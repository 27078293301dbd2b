#!/bin/sh
# crafter-step as a user drives it: options, input errors, auto-reset, and
# a reference trace replayed through the pipe.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 32

"$step" --help >"$scratch/help" 2>&1
ok $? "--help exits 0"
grep -q -- "--first-episode" "$scratch/help" && grep -q -- "--info" "$scratch/help"
ok $? "--help lists the options"

"$step" --bogus </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "crafter-step: " "$scratch/err"
ok $? "an unknown option exits 2 with a message"

"$step" --area 64 --view 3,3 </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "inventory" "$scratch/err"
ok $? "an impossible view is refused: $(head -1 "$scratch/err")"

"$step" --seed abc </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid seed" "$scratch/err"
ok $? "a non-numeric seed is refused"

printf '0\n1\njump\n2\n' | "$step" >"$scratch/out" 2>"$scratch/err"
status=$?
[ $status -eq 1 ] && grep -q "line 3" "$scratch/err" && [ "$(wc -l <"$scratch/out")" -eq 2 ]
ok $? "a bad action names its line and stops (status $status)"

printf '17\n' | "$step" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "invalid action" "$scratch/err"
ok $? "an action out of range is refused"

# A NUL byte ends no line: the line is refused, naming it, before any step.
printf '0\n5\000garbage\n' | "$step" >"$scratch/out" 2>"$scratch/err"
status=$?
[ $status -eq 1 ] && [ "$(wc -l <"$scratch/out")" -eq 1 ] &&
  grep -q '^crafter-step: line 2: a NUL byte at column 2: "5\\x00garbage"' "$scratch/err"
ok $? "a NUL byte in a line is an error naming the line (status $status): $(cat "$scratch/err")"

# Input echoed in a message shows control bytes as \xHH: ESC (0x1b) never
# reaches the terminal.
esc=$(printf '\033')
printf 'jump\033[31m\n' | "$step" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "invalid action 'jump\\\\x1b\[31m'" "$scratch/err" && ! grep -q "$esc" "$scratch/err"
ok $? "a bad action is echoed with its control bytes escaped: $(cat "$scratch/err")"
"$step" --seed "$(printf '1\033]0;x\007')" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid seed '1\\\\x1b\]0;x\\\\x07'" "$scratch/err" && ! grep -q "$esc" "$scratch/err"
ok $? "a bad option argument is echoed escaped: $(head -1 "$scratch/err")"

# Lines grow with the number of envs: 4096 bytes + 64 a env.  5000 envs
# take 24,999 bytes of "noop" and blanks, 20000 envs 99,999 bytes (more
# than is read at once); each env writes a reset and a step record.
actions() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%s", (i ? " " : "") "noop"; print "" }'; }
actions 5000 | "$step" --envs 5000 --area 16,16 >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ "$(grep -c '"t": 1,' "$scratch/out")" -eq 5000 ]
ok $? "5000 envs are driven by lines of 24,999 bytes $(cat "$scratch/err")"
actions 20000 | "$step" --envs 20000 --area 16,16 >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ "$(grep -c '"t": 1,' "$scratch/out")" -eq 20000 ]
ok $? "20000 envs are driven by lines of 99,999 bytes $(cat "$scratch/err")"
# One env: 4096 + 64 = 4160 bytes; 4200 blanks and an action are more.
awk 'BEGIN { for (i = 0; i < 4200; i++) printf " "; print "0" }' | "$step" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -s "$scratch/out" ] &&
  grep -q "^crafter-step: line 1: longer than 4160 bytes, the limit for 1 env" "$scratch/err"
ok $? "a line over the limit says the limit: $(cat "$scratch/err")"

printf 'noop\nmove_left\n\n5\n' | "$step" >"$scratch/out"
[ $? -eq 0 ] && [ "$(wc -l <"$scratch/out")" -eq 3 ] && grep -q '"reward"' "$scratch/out"
ok $? "names, numbers and blank lines; one short record per step"

printf '# a comment\n1\n  # indented, with 9 actions: 1 2 3\n2\n' | "$step" --info state >"$scratch/out"
[ $? -eq 0 ] && [ "$(grep -c '"t": ' "$scratch/out")" -eq 2 ] && grep -q '"t": 2' "$scratch/out"
ok $? "lines starting with # are comments: two actions, two steps"
printf '1 # no comment after an action\n' | "$step" >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "got more" "$scratch/err"
ok $? "a # after an action is not a comment: $(cat "$scratch/err")"

yes 0 | head -n 20 | "$step" --length 5 --episodes 2 --info full >"$scratch/out"
[ "$(grep -c '"kind": "reset"' "$scratch/out")" -eq 2 ] &&
  [ "$(grep -c '"kind": "step"' "$scratch/out")" -eq 10 ] &&
  grep -q '"episode": 2' "$scratch/out"
ok $? "auto-reset: two episodes of length 5, then exit"

yes 0 | head -n 3 | "$step" --first-episode 4 --seed 9 --info full | head -1 >"$scratch/a"
yes 0 | head -n 3 | "$step" --first-episode 4 --seed 9 --info full | head -1 >"$scratch/b"
cmp -s "$scratch/a" "$scratch/b" && grep -q '"episode": 4' "$scratch/a"
ok $? "the same seed and episode give the same world"

yes 0 | head -n 3 | "$step" --seed 10 --info full | head -1 >"$scratch/c"
! cmp -s "$scratch/a" "$scratch/c"
ok $? "another seed gives another world"

yes 0 | head -n 3 | "$step" --no-reward --length 1 --info full | tail -1 >"$scratch/out"
grep -q '"reward": 0.0' "$scratch/out" && grep -q '"done": true' "$scratch/out"
ok $? "--no-reward and --length"

# A world file of seed 3 plays exactly as the generated world of seed 3;
# an edited one starts from the edit.
"$top/bin/crafter-gen" --seed 3 --save "$scratch/world.txt"
yes 5 | head -n 200 >"$scratch/do"
"$step" --seed 3 --info full <"$scratch/do" >"$scratch/generated"
"$step" --seed 3 --world "$scratch/world.txt" --info full <"$scratch/do" >"$scratch/from-file"
cmp -s "$scratch/generated" "$scratch/from-file"
ok $? "--world with the saved world of the same seed plays the same episode"

# Put a tree below the player (who faces down) and collect it.
awk '!/^#/ && /@/ && !done { i = index($0, "@"); print; getline; $0 = substr($0, 1, i - 1) "T" substr($0, i + 1); done = 1 } { print }' \
  "$scratch/world.txt" >"$scratch/edited.txt"
printf 'do\n' | "$step" --seed 3 --world "$scratch/edited.txt" >"$scratch/out"
grep -q '"unlocked": \["collect_wood"\]' "$scratch/out"
ok $? "an edited world file: a tree drawn below the player gives wood"

# The discount tells the two ends apart: 1.0 at the time limit, 0.0 when
# the player died.  Lava drawn below the player (who faces down) kills on
# the first step down.
yes 0 | head -n 3 | "$step" --length 3 | tail -1 >"$scratch/out"
grep -q '"done": true, "discount": 1.0,' "$scratch/out"
ok $? "a short record at the time limit: discount 1.0: $(cat "$scratch/out")"
awk '!/^#/ && /@/ && !done { i = index($0, "@"); print; getline; $0 = substr($0, 1, i - 1) "%" substr($0, i + 1); done = 1 } { print }' \
  "$scratch/world.txt" >"$scratch/lava.txt"
printf 'move_down\n' | "$step" --seed 3 --world "$scratch/lava.txt" >"$scratch/out"
grep -q '"done": true, "discount": 0.0,' "$scratch/out"
ok $? "a short record of a death: discount 0.0: $(cat "$scratch/out")"

# --info state names what --info full lists: its inventory and achievements
# objects hold, in the order of the names in crafter-step(1), the counts
# of the full record's lists, and the tree below the player gave wood.
printf 'do\nnoop\n' | "$step" --seed 3 --world "$scratch/edited.txt" --info state >"$scratch/state"
printf 'do\nnoop\n' | "$step" --seed 3 --world "$scratch/edited.txt" --info full >"$scratch/full"
perl -MJSON::PP -e '
  my @items = qw(health food drink energy sapling wood stone coal iron diamond wood_pickaxe
    stone_pickaxe iron_pickaxe wood_sword stone_sword iron_sword);
  my @achievements = qw(collect_coal collect_diamond collect_drink collect_iron collect_sapling
    collect_stone collect_wood defeat_skeleton defeat_zombie eat_cow eat_plant make_iron_pickaxe
    make_iron_sword make_stone_pickaxe make_stone_sword make_wood_pickaxe make_wood_sword
    place_furnace place_plant place_stone place_table wake_up);
  open my $s, "<", $ARGV[0] or die; open my $f, "<", $ARGV[1] or die;
  my @state = map { decode_json($_) } <$s>; my @full = map { decode_json($_) } <$f>;
  die "records: " . @state . " and " . @full . "\n" unless @state == 3 && @full == 3;
  die "reset\n" unless $state[0]{reset} == 1 && $state[0]{world_seed} == $full[0]{world_seed}
    && $state[0]{inventory}{health} == 9 && $state[0]{achievements}{collect_wood} == 0;
  for my $i (1, 2) {
    my ($a, $b) = ($state[$i], $full[$i]);
    die "item names\n" unless join(" ", sort keys %{$a->{inventory}}) eq join(" ", sort @items);
    die "achievement names\n"
      unless join(" ", sort keys %{$a->{achievements}}) eq join(" ", sort @achievements);
    for my $k (0 .. $#items) { die "$items[$k] at $i\n" unless $a->{inventory}{$items[$k]} == $b->{inventory}[$k] }
    for my $k (0 .. $#achievements) {
      die "$achievements[$k] at $i\n" unless $a->{achievements}{$achievements[$k]} == $b->{achievements}[$k] }
    for my $key (qw(t reward done discount pos facing sleeping daylight)) {
      die "$key at $i\n" unless encode_json([$a->{$key}]) eq encode_json([$b->{$key}]) }
  }
  die "wood\n" unless $state[1]{inventory}{wood} == 1 && $state[1]{achievements}{collect_wood} == 1
    && "@{$state[1]{unlocked}}" eq "collect_wood";
' "$scratch/state" "$scratch/full" 2>"$scratch/err"
ok $? "--info state: named inventory and achievements equal the full record's lists $(cat "$scratch/err")"
"$step" --info state --binary </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "info state is for JSON lines" "$scratch/err"
ok $? "--info state is refused with --binary"

printf 'x\n' >"$scratch/bad-world.txt"
"$step" --world "$scratch/bad-world.txt" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "bad-world.txt" "$scratch/err" && [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "a broken world file: $(cat "$scratch/err")"

# A config without trees makes worlds without trees.
sed 's/^  tree: {noise: 0, size: 7, probability: 0.2}/  tree: {noise: 0, size: 7, probability: 0}/' \
  "$top/data/crafter.yaml" >"$scratch/treeless.yaml"
printf '0\n' | "$step" --config "$scratch/treeless.yaml" --info full | head -1 >"$scratch/reset"
printf '0\n' | "$step" --info full | head -1 >"$scratch/reset-default"
materials() { sed 's/.*"materials": "\([a-m]*\)".*/\1/' "$1"; }
[ "$(materials "$scratch/reset" | tr -cd g | wc -c)" -eq 0 ] &&
  [ "$(materials "$scratch/reset-default" | tr -cd g | wc -c)" -gt 0 ]
ok $? "--config with a tree probability of 0: no trees (letter g) in the world"

printf 'env:\n  bogus: 1\n' >"$scratch/bad.yaml"
"$step" --config "$scratch/bad.yaml" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "bad.yaml:2" "$scratch/err"
ok $? "an unknown key in a config names its line: $(cat "$scratch/err")"

# A reference trace through the pipe, compared with the reference.
trace=$(ls "$GOLDEN_DIR"/random-s7-*.jsonl.gz 2>/dev/null | head -1)
trace2=$(ls "$GOLDEN_DIR"/scripted-*.jsonl.gz 2>/dev/null | head -1)
if [ -n "$trace" ] && [ -n "$trace2" ]; then
  for t in "$trace" "$trace2"; do
    "$top/tests/golden-compare" --actions "$t" >"$scratch/actions"
    # shellcheck disable=SC2046
    "$step" --info full $("$top/tests/golden-compare" --args "$t") <"$scratch/actions" >"$scratch/run"
    "$top/tests/golden-compare" --candidate "$scratch/run" "$t" >"$scratch/cmp"
    status=$?
    diag <"$scratch/cmp" | grep -v "^# ok\|^# 1\.\." 
    ok $status "crafter-step reproduces $(basename "$t")"
  done
  "$top/tests/golden-compare" --actions "$trace" | head -n 30 >"$scratch/actions"
  "$step" --info full $("$top/tests/golden-compare" --args "$trace") <"$scratch/actions" >"$scratch/run"
  sed -i '20s/"t": 19, "action": [0-9]*/"t": 19, "action": 99/; 21s/"reward": [^,]*/"reward": 7.5/' "$scratch/run"
  "$top/tests/golden-compare" --candidate "$scratch/run" "$trace" >"$scratch/cmp"
  grep -q "step 19: field action" "$scratch/cmp" || grep -q "step 20: field reward" "$scratch/cmp"
  ok $? "the comparison names the step and field of a difference"
else
  skip "no reference traces in $GOLDEN_DIR"
  skip "no reference traces in $GOLDEN_DIR"
  skip "no reference traces in $GOLDEN_DIR"
fi
finish
