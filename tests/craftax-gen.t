#!/bin/sh
# crafter-gen --game craftax-classic: the first world of a seed as Crafter's
# maps are shown, checked against the observation crafter-step gives of
# the same seed (whose first observations are JAX's, tests/craftax-step.t):
# the 9x7 cells around the player in the ASCII map are the blocks of the
# symbolic observation.  Statistics over seeds hold what every first world
# holds by Craftax's rules (a diamond at least, the player on grass, no
# creature yet); what Craftax-Classic has no meaning for is refused.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
step=$top/bin/crafter-step
plan 9

# The characters of Craftax's blocks 0..16, as crafter-gen draws them
# (invalid, out of bounds and wood never occur: '?').
chars='??.~#T?_cidtf:%..'
mismatch=""
for seed in 0 17 4242; do
  "$gen" --game craftax-classic -s "$seed" >"$scratch/map" || mismatch="$mismatch $seed:status"
  printf '' | "$step" --game craftax-classic -b -O symbolic -s "$seed" >"$scratch/stream"
  header=$(od -An -tu4 -j12 -N4 "$scratch/stream" | tr -d ' ')
  offset=$(od -An -tu4 -j$((76 + 44)) -N4 "$scratch/stream" | tr -d ' ')
  # The window's 63 cells, 21 float32 channels each: the block is the
  # channel of the first 17 that holds 1.
  od -An -v -tf4 -j$((header + offset)) -N$((63 * 21 * 4)) "$scratch/stream" |
    tr -s ' ' '\n' | grep -v '^$' |
    awk -v chars="$chars" '{ v[NR - 1] = $1 } END {
      for (r = 0; r < 7; r++) { line = ""
        for (c = 0; c < 9; c++) { b = -1
          for (k = 0; k < 17; k++) if (v[(r * 9 + c) * 21 + k] + 0 == 1) b = k
          line = line substr(chars, b + 1, 1) }
        print line } }' >"$scratch/window"
  # Rows 29..35 and columns 28..36 of the map, the player's cell (32, 32)
  # shown as grass, which is what it stands on.
  sed -n '30,36p' "$scratch/map" | cut -c29-37 | sed '4s/^\(....\)@/\1./' >"$scratch/cut"
  cmp -s "$scratch/window" "$scratch/cut" || mismatch="$mismatch $seed"
done
[ -z "$mismatch" ]
ok $? "the map around the player is the first observation's blocks (seeds 0, 17, 4242)"
[ -n "$mismatch" ] && { echo "differ:$mismatch"; paste "$scratch/window" "$scratch/cut"; } | diag
[ "$(sed -n 33p "$scratch/map" | cut -c33)" = @ ]
ok $? "the player is drawn at the centre, (32, 32)"

"$gen" --game craftax-classic --stats --seeds 0-99 -T 2 -f json >"$scratch/stats"
ok $? "statistics over the first worlds of seeds 0..99"
grep -q '"game": "craftax-classic", "worlds": 100' "$scratch/stats" &&
  grep -q '"diamond": {"count": {"mean": [0-9.]*, "min": [1-9]' "$scratch/stats" &&
  grep -q '"cow": {"count": {"mean": 0.0000, "min": 0, "max": 0}, "worlds_without": 100' "$scratch/stats" &&
  grep -q '"grass": {[^}]*}, "worlds_without": 0, "nearest": {"mean": 0.0000, "median": 0' "$scratch/stats"
ok $? "every world has a diamond, the player stands on grass, no creature at the start"

"$gen" --game craftax-classic --png "$scratch/map.png" -u 2
[ "$(od -An -tu1 -j16 -N8 "$scratch/map.png" | tr -s ' ' | sed 's/^ //')" = "0 0 0 128 0 0 0 128" ]
ok $? "the picture is 128x128 at 2 pixels a cell"

for options in "--episode 2" "--save $scratch/w.txt" "--area 32,32" "--players 2"; do
  # shellcheck disable=SC2086
  "$gen" --game craftax-classic $options >/dev/null 2>"$scratch/err"
  [ $? -eq 2 ] && grep -q -- "${options%% *}" "$scratch/err"
  ok $? "$options is refused naming it: $(head -n 1 "$scratch/err" | cut -c1-70)"
done
finish
