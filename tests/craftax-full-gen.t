#!/bin/sh
# crafter-gen --game craftax: the first world of a seed as the maps of its
# nine floors (crafter_cx_render_floor's letters), agreeing with what
# crafter-step --game craftax shows and saves of the same world; level
# sets of Craftax (crafter-levels(5), version 2, game 2) listed with the
# CRC-32 of each level's state, that of crafter-step's saved state of
# seed S+k-1; the options Craftax does not take refused.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
step=$top/bin/crafter-step
plan 7

"$gen" --game craftax -s 7 >"$scratch/maps"
awk 'NR == 1 { next } /^floor [0-8]: / { floors++; rows = 0; next }
     NF == 0 { next } { rows++; if (length($0) != 48) bad = 1; at += gsub(/@/, "@") }
     END { exit !(floors == 9 && !bad && at == 1) }' "$scratch/maps"
ok $? "nine floors of 48 rows of 48 letters, the player on one of them"

if command -v python3 >/dev/null 2>&1; then
  # The 9x11 window around the player in the overworld's map is the text
  # observation's view, but for the cells the dark hides ('?').
  printf '' | "$step" --game craftax -s 7 -O text -n 0 | head -n 1 >"$scratch/first"
  python3 - "$scratch/maps" "$scratch/first" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split('\n')
start = lines.index('floor 0: the overworld') + 1
floor = lines[start:start + 48]
obs = json.loads(open(sys.argv[2]).read())['obs'].split('\n')
top = obs.index(next(l for l in obs if l.startswith('View ('))) + 1
view = obs[top:top + 9]
r0 = next(r for r in range(48) if '@' in floor[r]); c0 = floor[r0].index('@')
for i in range(9):
    for j in range(11):
        r, c = r0 - 4 + i, c0 - 5 + j
        want = floor[r][c] if 0 <= r < 48 and 0 <= c < 48 else 'X'
        got = view[i][j]
        if got != '?' and got != want:
            sys.exit('row %d column %d: view %r, map %r' % (r, c, got, want))
PY
  ok $? "the overworld's map around the player is crafter-step's text view of the same world"
else
  skip "python3 is not installed: the map was NOT compared with crafter-step's view"
fi

"$gen" --game craftax --levels 3 -s 5 >"$scratch/levels"
head -n 1 "$scratch/levels" | grep -q '^levels 3 seed 5 first 1 game craftax$' &&
  [ "$(grep -c '^level ' "$scratch/levels")" -eq 3 ]
ok $? "--levels 3 lists three levels of game craftax"

if command -v python3 >/dev/null 2>&1; then
  status=0
  for k in 1 2 3; do
    want=$(sed -n "$((k + 1))p" "$scratch/levels" | sed 's/.* crc \([0-9a-f]*\) .*/\1/')
    got=$(printf 'save 0\n' | "$step" --game craftax -s $((4 + k)) -n 0 | tail -n 1 | python3 -c '
import base64, json, sys, zlib
d = base64.b64decode(json.loads(sys.stdin.read())["state"])
print("%08x" % (zlib.crc32(d[56:-4]) & 0xffffffff))')
    [ "$want" = "$got" ] || status=1
  done
  ok $status "level k's CRC is that of crafter-step's state of seed 5+k-1 at its start"
else
  skip "python3 is not installed"
fi

# --png: the nine floors at 10 pixels a cell, 1460 pixels a side, the
# same picture again from the same seed, another from another seed, and
# the toolkit's own textures unlike craftax's where those are installed.
. "$top/tests/craftax-assets.sh"
size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 "x" $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'; }
"$gen" --game craftax -s 4 --png "$scratch/a.png" && "$gen" --game craftax -s 4 --png "$scratch/b.png" &&
  "$gen" --game craftax -s 5 --png "$scratch/c.png" && [ "$(size "$scratch/a.png")" = 1460x1460 ] &&
  cmp -s "$scratch/a.png" "$scratch/b.png" && ! cmp -s "$scratch/a.png" "$scratch/c.png"
status=$?
assets=$(craftax_assets craftax/assets gnome_warrior.png)
if [ $status -eq 0 ] && [ -n "$assets" ]; then
  "$gen" --game craftax -s 4 --png "$scratch/d.png" --textures "$assets" &&
    [ "$(size "$scratch/d.png")" = 1460x1460 ] && ! cmp -s "$scratch/a.png" "$scratch/d.png"
  status=$?
fi
ok $status "--png draws the nine floors, 1460 pixels a side, the same for the same seed${assets:+, with craftax's textures too}"

"$gen" --game craftax --levels 2 -s 9 --save-levels "$scratch/cx.lvl" &&
  "$step" --game craftax --levels "$scratch/cx.lvl" -O none --info state </dev/null |
  head -n 1 | grep -q '"level": [12], "seed": 9'
ok $? "a saved Craftax level set plays in crafter-step"

status=0
for options in "--stats --seeds 1-3" "--png x.png --unit 4" "--save w.txt" "--semantic" "--episode 2"; do
  # shellcheck disable=SC2086
  "$gen" --game craftax $options >/dev/null 2>"$scratch/err"
  [ $? -eq 2 ] && [ -s "$scratch/err" ] || status=1
done
"$gen" --game craftax-classic --levels 2 --save-levels "$scratch/cc.lvl" 2>/dev/null
"$gen" --game craftax --levels "$scratch/cc.lvl" >/dev/null 2>"$scratch/err"
grep -q "a level file of craftax-classic, not of craftax" "$scratch/err" || status=1
ok $status "options Craftax does not take, and Craftax-Classic's level files, are refused"
finish
