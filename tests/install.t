#!/bin/sh
# make install as a C user meets it: the programs, the public headers and
# no internal one, the public headers holding handles and functions but
# no engine struct, and a crafter.pc with which pkg-config builds the
# installed example (examples/crafter-api.c), a program on the public
# interface alone that plays, observes, saves and loads, records and reads
# back an episode exactly as the programs do.
. "$(dirname "$0")/tap.sh"
plan 10

root=$scratch/root
# Not the sanitizer flags of a calling make: everything is built already.
env -u MAKEFLAGS -u MFLAGS make -s -C "$top" install DESTDIR="$root" PREFIX=/opt/crafter \
  >"$scratch/log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/opt/crafter"
diag <"$scratch/log"

prefix=$root/opt/crafter
[ -x "$prefix/bin/crafter-step" ] && [ -f "$prefix/share/man/man1/crafter-step.1" ] &&
  [ -f "$prefix/share/man/man5/crafter-trajectory.5" ] && [ -f "$prefix/lib/libcrafter.a" ] &&
  [ -f "$prefix/share/crafter/crafter.yaml" ] && [ -f "$prefix/share/crafter/crafter-tasks.yaml" ]
ok $? "programs, manual pages, the library and the data files are installed"

# The public headers are include/crafter's, and nothing of lib/.
ls "$prefix/include/crafter" >"$scratch/headers"
ls "$top/include/crafter" | cmp -s - "$scratch/headers"
ok $? "the headers installed are include/crafter's: $(tr '\n' ' ' <"$scratch/headers")"

# Every header the public headers include is installed.
missing=""
for header in $(cat "$scratch/headers"); do
  for included in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$prefix/include/crafter/$header"); do
    [ -f "$prefix/include/crafter/$included" ] || missing="$missing $header:$included"
  done
done
[ -z "$missing" ]
ok $? "every header the public headers include is installed"
echo "$missing" | diag

# The structs the headers define are the plain ones a caller fills or
# reads; every handle (env, configuration, renderer, recording, reader...)
# is declared without its body.
(cd "$prefix/include/crafter" && sed -n 's/.*struct \([a-z_]*\) *{.*/\1/p' *.h) | sort >"$scratch/bodies"
printf '%s\n' crafter_params crafter_step_result crafter_traj_summary | cmp -s - "$scratch/bodies"
ok $? "the installed headers define no struct but the parameters, a step's result and a summary"
diag <"$scratch/bodies"

example=$prefix/share/crafter/examples/crafter-api.c
if ! command -v pkg-config >/dev/null 2>&1; then
  for i in 6 7 8 9 10; do skip "pkg-config is not installed"; done
  finish
fi
sanitize=""
nm "$prefix/lib/libcrafter.a" 2>/dev/null | grep -q __asan_init && sanitize="-fsanitize=address,undefined"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -Wall -Wextra -Werror $sanitize -o "$scratch/crafter-api" "$example" \
  $(pkg-config --cflags --libs crafter) >"$scratch/log" 2>&1
ok $? "the installed example builds with pkg-config --cflags --libs crafter"
diag <"$scratch/log"

awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) print int(rand() * 17) }' >"$scratch/actions"
(cd "$scratch" && ./crafter-api 1 episode.traj <actions >ours 2>"$scratch/log")
diag <"$scratch/log"
step="$top/bin/crafter-step --seed 1 --episodes 1"
$step <"$scratch/actions" |
  sed -n 's/^{"t": \([0-9]*\), "reward": \([-0-9.]*\), "done": \([a-z]*\).*/\1 \2 \3/p' |
  sed 's/ true$/ 1/; s/ false$/ 0/' >"$scratch/theirs"
grep '^[0-9]' "$scratch/ours" >"$scratch/ours-steps"
[ "$(wc -l <"$scratch/ours-steps")" -gt 100 ] && cmp -s "$scratch/ours-steps" "$scratch/theirs"
ok $? "it plays the episode crafter-step plays, step for step ($(wc -l <"$scratch/theirs") steps)"

# The last step as crafter-step's records say it: the player's state, the
# picture's CRC-32 and the text's first line.
last_state=$($step --info state <"$scratch/actions" | tail -n 1)
{
  echo "$last_state" | sed 's/.*"pos": \[\([0-9]*\), \([0-9]*\)\], "facing": \[\([-0-9]*\), \([-0-9]*\)\], "sleeping": \([a-z]*\).*/pos \1 \2 facing \3 \4 sleeping \5/; s/ true$/ 1/; s/ false$/ 0/'
  for part in inventory achievements; do
    echo "$last_state" | sed "s/.*\"$part\": {\([^}]*\)}.*/$part \1/; s/[\":,]//g"
  done
  $step --obs pixels --info full <"$scratch/actions" | tail -n 1 |
    sed 's/.*"obs_crc": \([0-9]*\).*/pixels \1/'
  $step --obs text <"$scratch/actions" | tail -n 1 | sed 's/.*"obs": "\([^\\]*\)\\n.*/text \1/'
} >"$scratch/theirs-end"
grep -e '^pos ' -e '^inventory ' -e '^achievements ' -e '^pixels ' -e '^text ' "$scratch/ours" \
  >"$scratch/ours-end"
cmp -s "$scratch/ours-end" "$scratch/theirs-end"
ok $? "its player's position, facing, sleep, inventory and achievements, its picture and its text are crafter-step's"
diff "$scratch/ours-end" "$scratch/theirs-end" | diag

grep -qx 'state: the copy played [1-9][0-9]* steps as the game, 0 otherwise' "$scratch/ours"
ok $? "a copy loaded from the state saved at step 100 plays on as the game: $(grep '^state:' "$scratch/ours")"

# The file it wrote replays, and scores as crafter-score scores it.
"$top/bin/crafter-dataset" verify "$scratch/episode.traj" >"$scratch/log" 2>&1 &&
  score=$("$top/bin/crafter-score" --format json "$scratch/episode.traj" |
    sed -n 's/.*"score_mean": \([-0-9.e]*\).*/\1/p' | head -n 1) &&
  ours=$(sed -n 's/^score: //p' "$scratch/ours") &&
  grep -q "^file: agent crafter-api, $(wc -l <"$scratch/theirs") steps" "$scratch/ours" &&
  awk -v a="$score" -v b="$ours" 'BEGIN { d = a - b; exit !(a != "" && d < 1e-12 && d > -1e-12) }'
ok $? "its trajectory file verifies, and its score ($ours) is crafter-score's ($score)"
diag <"$scratch/log"
finish
