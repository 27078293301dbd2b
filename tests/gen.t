#!/bin/sh
# crafter-gen as a user runs it: the ASCII map, the semantic grid, the
# picture, statistics over many seeds, and bad options.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
ASSETS=${ASSETS:-$(dirname "$GOLDEN_DIR")/crafter-assets}
plan 26

"$gen" --help >"$scratch/help"
ok $? "--help exits 0"
grep -q -- "--stats" "$scratch/help" && grep -q -- "--png" "$scratch/help" &&
  grep -q -- "--save" "$scratch/help" && grep -q -- "--config" "$scratch/help"
ok $? "--help lists the options"
"$gen" --version | grep -q "^crafter-gen "
ok $? "--version"

"$gen" --seed 1 >"$scratch/map"
ok $? "the ASCII map of seed 1"
head -n 64 "$scratch/map" | awk 'length($0) != 64 { bad = 1 } END { exit bad || NR != 64 }' &&
  [ "$(head -n 64 "$scratch/map" | tr -cd '@' | wc -c)" -eq 1 ] &&
  sed -n 65p "$scratch/map" | grep -q '^$' && grep -q '^\. grass  ~ water' "$scratch/map"
ok $? "64 rows of 64 cells, one player, then a legend"
[ "$(sed -n 33p "$scratch/map" | cut -c33)" = "@" ]
ok $? "the player stands at the centre (32, 32)"
"$gen" --seed 1 | cmp -s - "$scratch/map" && ! "$gen" --seed 2 | cmp -s - "$scratch/map" &&
  ! "$gen" --seed 1 --episode 2 | cmp -s - "$scratch/map"
ok $? "a world depends on the seed and the episode, and only on them"

"$gen" --seed 3 --area 20,12 | head -n 12 | awk 'length($0) != 20 { bad = 1 } END { exit bad || NR != 12 }'
ok $? "--area sets the size of the map"

"$gen" --seed 1 --semantic >"$scratch/semantic"
awk 'NF != 64 { bad = 1 } END { exit bad || NR != 64 }' "$scratch/semantic" &&
  [ "$(tr ' ' '\n' <"$scratch/semantic" | grep -c '^13$')" -eq 1 ] &&
  [ "$(awk 'NR == 33 { print $33 }' "$scratch/semantic")" = 13 ]
ok $? "the semantic grid: 64 rows of 64 ids, the player (13) once at its place"

if [ -d "$ASSETS" ]; then
  "$gen" --seed 1 --png "$scratch/map.png" --textures "$ASSETS" >"$scratch/out"
  [ $? -eq 0 ] && [ ! -s "$scratch/out" ] &&
    [ "$(od -An -tx1 -j12 -N12 "$scratch/map.png" | tr -d ' \n')" = 494844520000040000000400 ]
  ok $? "--png draws a 1024x1024 picture (16 pixels a cell)"
  "$gen" --seed 1 --png "$scratch/small.png" --unit 4 --textures "$ASSETS" &&
    [ "$(od -An -tx1 -j16 -N8 "$scratch/small.png" | tr -d ' \n')" = 0000010000000100 ]
  ok $? "--unit 4 draws 256x256"
else
  skip "no Crafter assets in $ASSETS"
  skip "no Crafter assets in $ASSETS"
fi
"$gen" --png "$scratch/builtin.png" 2>"$scratch/err"
status=$?
[ $status -eq 0 ] || { [ $status -eq 1 ] && grep -q "texture" "$scratch/err"; }
ok $? "--png with the built-in textures draws, or says which texture is missing"

"$gen" --stats --seeds 1-300 --format json >"$scratch/stats.json"
ok $? "--stats over 300 seeds"
grep -q '"worlds": 300' "$scratch/stats.json" && grep -q '"seconds": [0-9]' "$scratch/stats.json" &&
  grep -q '"diamond": {"count": {"mean": [0-9.]*, "min": [0-9]*, "max": [0-9]*}, "worlds_without": [0-9]*, "nearest": {"mean"' "$scratch/stats.json" &&
  grep -q '"table": {"count": {"mean": 0.0000, "min": 0, "max": 0}, "worlds_without": 300, "nearest": null}' "$scratch/stats.json"
ok $? "the JSON has the worlds, the time, counts and nearest distances"
"$gen" --stats --seeds 1-300 --threads 1 --format json >"$scratch/one.json"
sed 's/"seconds": [0-9.]*, "threads": [0-9]*, "ms_per_world": [0-9.]*//' "$scratch/stats.json" >"$scratch/a"
sed 's/"seconds": [0-9.]*, "threads": [0-9]*, "ms_per_world": [0-9.]*//' "$scratch/one.json" >"$scratch/b"
cmp -s "$scratch/a" "$scratch/b"
ok $? "the statistics do not depend on the number of threads"
"$gen" --stats --seeds 5-6 >"$scratch/stats.txt"
grep -q "^2 worlds (seeds 5-6" "$scratch/stats.txt" && [ "$(grep -c '^[a-z]' "$scratch/stats.txt")" -eq 15 ]
ok $? "the text table has a row for each material and creature"
"$gen" --seed 5 | head -n 64 | tr -cd 'T' | wc -c >"$scratch/trees"
"$gen" --stats --seeds 5 --format json | grep -q "\"tree\": {\"count\": {\"mean\": $(cat "$scratch/trees").0000"
ok $? "the count of trees of one seed matches its map"

"$gen" --stats --seed 3 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "crafter-gen: " "$scratch/err"
ok $? "--stats with --seed is a usage error"
"$gen" --stats --seeds 9-2 >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "a backwards seed range is a usage error"
"$gen" --ascii --semantic >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "two outputs to standard output are a usage error"

# --save writes the world file whole, through outfile.h.
"$gen" --seed 1 --save - >"$scratch/world.txt"
"$gen" --seed 1 --save /dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-gen: cannot write /dev/full: No space left on device$" "$scratch/err"
ok $? "--save to a full device fails and says why"
"$gen" --seed 1 --save - >/dev/full 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ] &&
  grep -q "^crafter-gen: cannot write the world to standard output: No space left on device$" "$scratch/err"
ok $? "--save - to a full standard output says so once"
"$gen" --seed 1 --save "$scratch/missing/w.txt" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -e "$scratch/missing" ] &&
  grep -q "^crafter-gen: cannot write $scratch/missing/w.txt: No such file or directory$" "$scratch/err"
ok $? "--save into a missing folder fails and says why"
echo old >"$scratch/target.txt"
ln -s target.txt "$scratch/link.txt"
"$gen" --seed 1 --save "$scratch/link.txt" && [ -L "$scratch/link.txt" ] &&
  cmp -s "$scratch/target.txt" "$scratch/world.txt"
ok $? "--save through a symbolic link writes its target and keeps the link"
# A file size limit makes the write fail part way, as a full disk does:
# the old file stays whole and no temporary is left beside it.
mkdir "$scratch/limited" && echo old >"$scratch/limited/w.txt"
(trap '' XFSZ; ulimit -f 2; exec "$gen" --seed 1 --save "$scratch/limited/w.txt") 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(cat "$scratch/limited/w.txt")" = old ] &&
  [ "$(ls "$scratch/limited")" = w.txt ] && grep -q "^crafter-gen: cannot write .*: File too large$" "$scratch/err"
ok $? "a failed --save leaves the old file whole and no partial file"
[ "$(wc -c <"$scratch/world.txt")" -gt 2048 ]
ok $? "the world file is larger than the limit above (so that write had to fail)"
finish
