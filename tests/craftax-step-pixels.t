#!/bin/sh
# crafter-step --game craftax-classic -O pixels: Craftax-Classic-Pixels-v1's
# observation in both protocols, without JAX.
#
# - The header says it: observation kind 1, float32 (2), 63x63x3, 47628
#   bytes.
# - Every frame's observation (binary protocol, 2 envs on 2 threads) and
#   every record's (JSON lines, base64) is, byte for byte, what the
#   renderer (crafter_cc_render_pixels) draws of the same states along
#   the same seeds' random episodes (tests/unit/test-cc-render
#   --pixel-steps), with the toolkit's own textures: the renderer that
#   tests/unit-cc-pixels.t holds to JAX's CRCs.
# - With Craftax's textures (an installed craftax package's assets folder,
#   found without importing it; skipped, saying so, without one): every
#   observation of seeds 0 and 1's episodes of 500 steps, played in one
#   crafter-step, has the CRC-32 JAX's observation had
#   (tests/data/craftax/pixel-episodes.txt.gz).
# - What is refused: --textures without pixels, a folder that is not
#   Craftax's assets, a texture not 16x16, pixels in crafter-dataset
#   record; crafter-bench measures them.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
render=$top/tests/unit/test-cc-render
plan 13
obs_bytes=47628

u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
crc() { gzip -1c <"$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' '; }

# frames_obs STREAM ENVS ENV OUT: env ENV's observation of every frame of a
# binary stream of ENVS envs, one after the other, into OUT.
frames_obs() {
  header=$(u32 "$1" 12)
  frame=$(u32 "$1" 44)
  offset=$(u32 "$1" $((76 + 4 * 11)))
  size=$(wc -c <"$1")
  frames=$(((size - header) / frame))
  : >"$4"
  k=0
  while [ $k -lt $frames ]; do
    slice "$1" $((header + k * frame + offset + $3 * obs_bytes)) $obs_bytes >>"$4"
    k=$((k + 1))
  done
}

steps=300
"$render" --actions $steps 11 12 >"$scratch/actions" &&
  "$step" --game craftax-classic -b -O pixels -N 2 -T 2 -s 11 <"$scratch/actions" >"$scratch/stream"
ok $? "2 envs played $steps steps in the binary protocol with pixel observations"

[ "$(u32 "$scratch/stream" 20)" = 1 ] && [ "$(u32 "$scratch/stream" 24)" = 2 ] &&
  [ "$(u32 "$scratch/stream" 28)" = 63 ] && [ "$(u32 "$scratch/stream" 32)" = 63 ] &&
  [ "$(u32 "$scratch/stream" 36)" = 3 ] && [ "$(u32 "$scratch/stream" 40)" = $obs_bytes ] &&
  [ "$(slice "$scratch/stream" 128 32 | tr -d '\000')" = craftax-classic ]
ok $? "the header says pixels (kind 1), float32 (type 2), 63x63x3, $obs_bytes bytes"

mismatch=""
for env in 0 1; do
  seed=$((11 + env))
  "$render" --pixel-steps builtin $steps $seed >"$scratch/want$env"
  frames_obs "$scratch/stream" 2 $env "$scratch/got$env"
  [ "$(wc -c <"$scratch/want$env")" -eq $(((steps + 1) * obs_bytes)) ] &&
    cmp -s "$scratch/want$env" "$scratch/got$env" || mismatch="$mismatch $seed"
done
[ -z "$mismatch" ]
ok $? "frames: every observation of seeds 11 and 12 is the renderer's of the same state, byte for byte (built-in textures)"
[ -n "$mismatch" ] && echo "differ: seeds$mismatch" | diag
! cmp -s "$scratch/want0" "$scratch/want1"
ok $? "the two seeds' observations differ (the comparison can fail)"

# JSON lines: the reset's record, then a record a step (a reset record
# after an episode's end repeats the step's observation and is skipped).
"$render" --actions 120 11 | od -An -tu1 -v -w1 | tr -d ' ' >"$scratch/lines"
"$step" --game craftax-classic -O pixels -s 11 -n 0 <"$scratch/lines" >"$scratch/records"
status=$?
awk 'NR == 1 || !/"reset"/' "$scratch/records" | sed -n 's/.*"obs": "\([^"]*\)".*/\1/p' >"$scratch/b64"
: >"$scratch/json-obs"
while read -r line; do printf '%s' "$line" | base64 -d >>"$scratch/json-obs"; done <"$scratch/b64"
head -c $((121 * obs_bytes)) "$scratch/want0" >"$scratch/want-json"
[ $status -eq 0 ] && [ "$(wc -l <"$scratch/b64")" -eq 121 ] && cmp -s "$scratch/want-json" "$scratch/json-obs"
ok $? "JSON lines: the 121 observations in base64 are the renderer's, byte for byte"

assets=$(craftax_assets)
if [ -z "$assets" ]; then
  skip "no installed craftax package (pip install craftax==1.6.1, or CRAFTAX_ASSETS): crafter-step's pixels with Craftax's textures were NOT checked against JAX's CRCs"
  skip "no installed craftax package: Craftax's textures and ours were NOT told apart"
else
  "$render" --actions 500 0 1 >"$scratch/actions01"
  "$step" --game craftax-classic -b -O pixels -N 2 -T 2 -s 0 --textures "$assets" \
    <"$scratch/actions01" >"$scratch/jax-stream"
  bad=""
  for env in 0 1; do
    frames_obs "$scratch/jax-stream" 2 $env "$scratch/jax$env"
    gzip -dc "$top/tests/data/craftax/pixel-episodes.txt.gz" |
      awk -v s=$env '/^#/ { next } NF == 2 && $2 == 500 { on = ($1 == s); next } on { for (i = 1; i <= NF; i++) print $i }' \
      >"$scratch/golden$env"
    split -b $obs_bytes -a 4 "$scratch/jax$env" "$scratch/piece$env."
    for piece in "$scratch/piece$env".*; do crc "$piece"; done >"$scratch/crcs$env"
    rm -f "$scratch/piece$env".*
    [ "$(wc -l <"$scratch/golden$env")" -eq 501 ] && cmp -s "$scratch/golden$env" "$scratch/crcs$env" ||
      bad="$bad $env"
  done
  [ -z "$bad" ]
  ok $? "with Craftax's textures, the 1002 observations of seeds 0 and 1 (500 steps each) have the CRC-32s of JAX's"
  [ -n "$bad" ] && echo "seeds differing:$bad" | diag
  head -c $obs_bytes "$scratch/jax0" >"$scratch/first-craftax"
  "$render" --pixel-steps builtin 0 0 >"$scratch/first-builtin"
  [ "$(wc -c <"$scratch/first-builtin")" -eq $obs_bytes ] &&
    ! cmp -s "$scratch/first-craftax" "$scratch/first-builtin"
  ok $? "Craftax's textures and the toolkit's draw seed 0's first state differently"
fi

"$step" --game craftax-classic -O symbolic --textures "${assets:-$top/data/textures}" </dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "--textures is for --obs pixels" "$scratch/err"
ok $? "--textures without pixels is refused: $(head -n 1 "$scratch/err")"

"$step" --game craftax-classic -O pixels --textures "$top/data/textures" </dev/null >"$scratch/out" 2>"$scratch/err"
[ $? -eq 1 ] && [ ! -s "$scratch/out" ] && grep -q "debug_tile.png" "$scratch/err" &&
  grep -q "Craftax-Classic's assets folder" "$scratch/err"
ok $? "a folder of Crafter's names only is refused, naming the file: $(head -n 1 "$scratch/err" | cut -c1-120)"

"$step" --game craftax-classic -O pixels --textures "$scratch/none" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "$scratch/none" "$scratch/err"
ok $? "a folder that is not there is refused: $(head -n 1 "$scratch/err" | cut -c1-120)"

# A texture of another size: a folder of 16x16 files, grass.png 8x8
# (a picture of 8x8 cells at 1 pixel a cell).
mkdir "$scratch/odd"
for name in debug_tile grass water stone tree wood path coal iron diamond table furnace sand lava \
            plant_on_grass ripe_plant_on_grass; do
  cp "$top/data/textures/unknown.png" "$scratch/odd/$name.png"
done
"$top/bin/crafter-gen" --area 8,8 --png "$scratch/odd/grass.png" --unit 1 -s 1 >/dev/null 2>&1
"$step" --game craftax-classic -O pixels --textures "$scratch/odd" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "grass.png is 8x8, not 16x16" "$scratch/err"
ok $? "a texture that is not 16x16 is refused: $(head -n 1 "$scratch/err" | cut -c1-120)"

"$top/bin/crafter-dataset" record -q --game craftax-classic --obs pixels -o "$scratch/x.traj" \
  </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "drawn by crafter-step" "$scratch/err" && [ ! -e "$scratch/x.traj" ]
ok $? "crafter-dataset record refuses Craftax-Classic's pixels: $(head -n 1 "$scratch/err" | cut -c1-120)"

"$top/bin/crafter-bench" --game craftax-classic -O pixels -S 400 -R 1 -f json >"$scratch/bench" &&
  grep -q '"game": *"craftax-classic"' "$scratch/bench" && grep -q '"obs": *"pixels"' "$scratch/bench"
ok $? "crafter-bench measures Craftax-Classic's pixels: $(grep -o '"sps": *[0-9.]*' "$scratch/bench")"
finish
