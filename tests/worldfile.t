#!/bin/sh
# World files (crafter-world(5)): saved, read back and edited with
# crafter-gen; episodes started from them replay the reference exactly;
# bad maps are refused with the line and column.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
step=$top/bin/crafter-step
compare=$top/tests/golden-compare
plan 32

# refused NAME EXPECTED-MESSAGE DESCRIPTION: crafter-gen --world exits 1
# and says EXPECTED-MESSAGE.
refused() {
  "$gen" --world "$scratch/$1" >/dev/null 2>"$scratch/err"
  status=$?
  [ $status -eq 1 ] && grep -qF -- "$2" "$scratch/err"
  result=$?
  [ $result -ne 0 ] && { echo "exit $status"; cat "$scratch/err"; } | diag
  ok $result "$3"
}

"$gen" --seed 2 --save "$scratch/world.txt" >"$scratch/out"
[ $? -eq 0 ] && [ ! -s "$scratch/out" ] && head -n 1 "$scratch/world.txt" | grep -qx "crafter-world 1" &&
  grep -qx "size 64 64" "$scratch/world.txt" && grep -qx "map" "$scratch/world.txt"
ok $? "--save writes a versioned world file with its size"
[ "$(sed -n '/^map$/,$p' "$scratch/world.txt" | tail -n +2 | wc -l)" -eq 64 ]
ok $? "the map has 64 rows"
"$gen" --world "$scratch/world.txt" --save - | grep -v '^#' >"$scratch/again"
grep -v '^#' "$scratch/world.txt" | cmp -s - "$scratch/again"
ok $? "a saved world reads back and saves the same"
"$gen" --world "$scratch/world.txt" | head -n 64 >"$scratch/shown"
"$gen" --seed 2 | head -n 64 | cmp -s - "$scratch/shown"
ok $? "the world file shows as the generated world"
"$gen" --world - <"$scratch/world.txt" | head -n 64 | cmp -s - "$scratch/shown"
ok $? "--world - reads standard input"

if ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1; then
  "$compare" --via-world "$GOLDEN_DIR"/*.jsonl.gz >"$scratch/golden"
  status=$?
  [ $status -ne 0 ] && grep -v '^ok' "$scratch/golden" | diag
  ok $status "every reference episode replays when started from its saved world file"
else
  skip "no reference traces in $GOLDEN_DIR"
fi

# Editing: a table and a furnace beside the player, a zombie on sand.
awk '/^map$/ { map = 1; print; next }
     map { row++ }
     map && row == 33 { $0 = substr($0, 1, 30) "tf" substr($0, 33) }
     map && row == 1 { $0 = "Z" substr($0, 2) }
     { print }' "$scratch/world.txt" | sed 's/^size 64 64$/size 64 64\nground 0 0 sand/' >"$scratch/edited.txt"
"$gen" --world "$scratch/edited.txt" --semantic >"$scratch/edited.sem"
[ $? -eq 0 ] && [ "$(awk 'NR == 33 { print $31, $32, $33 }' "$scratch/edited.sem")" = "11 12 13" ] &&
  [ "$(awk 'NR == 1 { print $1 }' "$scratch/edited.sem")" = 15 ]
ok $? "an edited map shows the table, the furnace and the zombie where they were drawn"
"$gen" --world "$scratch/edited.txt" --save - | grep -qx "ground 0 0 sand"
ok $? "the ground under an object survives a round trip"

printf 'crafter-world 1\n# a hand-drawn world\nmap\n~~~~~\n.@.T.\n#_c:C\n' >"$scratch/small.txt"
"$gen" --world "$scratch/small.txt" >"$scratch/small.out"
[ $? -eq 0 ] && [ "$(head -n 3 "$scratch/small.out" | tr '\n' '|')" = "~~~~~|.@.T.|#_c:C|" ]
ok $? "a small hand-drawn map without a size line loads"

printf 'crafter-world 1\nmap\n..x..\n.@...\n' >"$scratch/unknown.txt"
refused unknown.txt "unknown.txt:3:3: unknown character 'x'" "an unknown character names its line and column"
printf 'crafter-world 1\nmap\n.....\n.....\n' >"$scratch/noplayer.txt"
refused noplayer.txt "no player: the map needs one '@'" "a map without a player"
printf 'crafter-world 1\nmap\n.@@@@\n@@@@@\n@@@@@\n@@@@.\n' >"$scratch/many.txt"
refused many.txt "many.txt:6:3: a player '@' more than 16 (the first is at line 3, column 2)" "seventeen players"
printf 'crafter-world 1\nmap\n.@...\n...@.\n' >"$scratch/two.txt"
printf '0\n' | "$step" --world "$scratch/two.txt" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the world has 2 players '@'; play it with 2 players or more" "$scratch/err"
ok $? "a world of two players is refused for one, as a bad world (status 1, as in every program)"
printf '0 4 0\n' | "$step" --world "$scratch/two.txt" --players 3 --info state >"$scratch/two.out"
grep -q '"player": 0, "reset": 1.*"pos": \[1, 0\]' "$scratch/two.out" &&
  grep -q '"player": 1, "reset": 1.*"pos": \[3, 1\]' "$scratch/two.out" &&
  grep -q '"player": 2, "reset": 1.*"pos": \[0, 0\]' "$scratch/two.out"
ok $? "a world of two players starts them on their '@' in reading order, a third by the rule"
printf 'crafter-world 1\nplayer 0 3 1\nmap\n.@...\n...@.\n' >"$scratch/named.txt"
printf '0 0\n' | "$step" --world "$scratch/named.txt" --players 2 --info state >"$scratch/named.out"
grep -q '"player": 0, "reset": 1.*"pos": \[3, 1\]' "$scratch/named.out" &&
  grep -q '"player": 1, "reset": 1.*"pos": \[1, 0\]' "$scratch/named.out"
ok $? "a player line names player 0; the other '@' is player 1"
printf 'crafter-world 1\nplayer 0 2 1\nmap\n.@...\n...@.\n' >"$scratch/misnamed.txt"
refused misnamed.txt "misnamed.txt:2:1: player 0: no '@' at 2 1" "a player line without its '@'"
printf 'crafter-world 1\nplayer 1 1 0\nmap\n.@...\n.....\n' >"$scratch/one.txt"
refused one.txt "one.txt:2:1: player 1: the map has one player '@', player 0" \
  "a player line past a map of one player"
printf 'crafter-world 1\nplayer 3 1 0\nmap\n.@.@.\n...@.\n' >"$scratch/three.txt"
refused three.txt "three.txt:2:1: player 3: the map has 3 players '@', players 0 to 2" \
  "a player line past the players of a map"
printf 'crafter-world 1\nplayer 0 -1 0\nmap\n.@.@.\n' >"$scratch/negative-x.txt"
refused negative-x.txt "negative-x.txt:2:10: player 0: X '-1' is no column of a map (0 to 4095)" \
  "a negative X names X, at its column"
printf 'crafter-world 1\nplayer 1 3 -2\nmap\n.@.@.\n' >"$scratch/negative-y.txt"
refused negative-y.txt "negative-y.txt:2:12: player 1: Y '-2' is no row of a map (0 to 4095)" \
  "a negative Y names Y, at its column"
printf 'crafter-world 1\nplayer 16 1 0\nmap\n.@.@.\n' >"$scratch/big-k.txt"
refused big-k.txt "big-k.txt:2:8: player '16': K is a player from 0 to 15" \
  "a player number out of range names K"
# e with acute accent, U+00E9, is two bytes in UTF-8: the row would look
# six cells wide; it is the third character of line 3.
printf 'crafter-world 1\nmap\n..\303\251..\n.@...\n' >"$scratch/accent.txt"
refused accent.txt "accent.txt:3:3: non-ASCII character '$(printf '\303\251')' (U+00E9)" "a non-ASCII character names itself, its line and column"
printf 'crafter-world 1\nmap\n.....\n.@.\377.\n' >"$scratch/byte.txt"
refused byte.txt "byte.txt:4:4: byte 0xFF is not an ASCII character" "a byte that is no character is named in hex"
printf 'crafter-world 1\nmap\n.@...\n....\n' >"$scratch/ragged.txt"
refused ragged.txt "ragged.txt:4:1: this row is 4 cells wide but the first row (line 3) is 5" "rows of different lengths"
awk 'BEGIN { print "crafter-world 1"; print "map"; s = "@"; for (i = 1; i < 4097; i++) s = s "."; print s }' >"$scratch/wide.txt"
refused wide.txt "the row is 4097 cells wide; at most 4096 are allowed" "a map wider than allowed"
printf 'crafter-world 1\nsize 5 3\nmap\n.@...\n.....\n' >"$scratch/size.txt"
refused size.txt "size.txt:2:1: the header says size 5 3 but the map is 5 wide and 2 high" "a size line that does not match"
printf 'crafter-map 1\nmap\n.@.\n' >"$scratch/magic.txt"
refused magic.txt "magic.txt:1:1: not a world file" "a file that is not a world file"
printf 'crafter-world 7\nmap\n.@.\n' >"$scratch/version.txt"
refused version.txt "world file version '7' is not known" "an unknown version"
printf 'crafter-world 1\nground 0 0 sand\nmap\n.@.\n' >"$scratch/ground.txt"
refused ground.txt "ground.txt:2:1: ground 0 0: no object stands there" "a ground line without an object"
printf 'crafter-world 1\nspawn 1 1\nmap\n.@.\n' >"$scratch/header.txt"
refused header.txt "header.txt:2:1: unknown header line 'spawn'" "an unknown header line"
printf 'crafter-world 1\n' >"$scratch/nomap.txt"
refused nomap.txt "no map" "a file without a map"
refused absent.txt "absent.txt: No such file" "a missing file"
finish
