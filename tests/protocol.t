#!/bin/sh
# The binary protocol of crafter-step: sizes, auto-reset, and every input
# error giving one line and a non-zero status.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 27

bytes() { wc -c <"$1" | tr -d ' '; }
# u32 FILE OFFSET: the little-endian uint32 at OFFSET.
u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
# slice FILE OFFSET COUNT: COUNT bytes from OFFSET.
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }

# A frame as crafter-protocol(5) lays it out for N envs: reward (double), discount,
# done, reset, unlocked, episode, step, inventory (16 int32), achievements
# (22 int32), position (4 int32), semantic (CELLS bytes), the observation
# (OBS bytes), each section starting on a multiple of 64 bytes.
frame_bytes() { # N OBS [CELLS]
  awk -v n="$1" -v obs="$2" -v cells="${3:-0}" 'function up(b) { return int((b + 63) / 64) * 64 }
    BEGIN { n4 = up(4 * n); print up(8 * n) + 4 * n4 + 2 * up(n) + up(64 * n) + up(88 * n) + up(16 * n) + up(cells * n) + up(obs * n) }'
}

printf '\000\001\002' | "$step" --binary >"$scratch/out"
ok $? "three steps without observations"
# header 128, then four frames (the reset and three steps)
[ "$(bytes "$scratch/out")" -eq $((128 + 4 * $(frame_bytes 1 0))) ]
ok $? "header and frames have the documented sizes ($(bytes "$scratch/out") bytes)"
[ "$(head -c 8 "$scratch/out")" = "CRAFTSTP" ]
ok $? "the stream starts with the magic"

printf '\000\000\000\000' | "$step" --binary --envs 2 --obs pixels >"$scratch/out"
[ "$(bytes "$scratch/out")" -eq $((128 + 3 * $(frame_bytes 2 12288))) ]
ok $? "two envs with 64x64 pixels: frames of $(frame_bytes 2 12288) bytes"

printf '\000' | "$step" --binary --obs symbolic --semantic --area 20,12 >"$scratch/out"
[ "$(bytes "$scratch/out")" -eq $((128 + 2 * $(frame_bytes 1 5380 240))) ]
ok $? "symbolic frames hold 1345 floats, and --semantic adds the 20x12 map"

head -c 30 /dev/zero | "$step" --binary --length 10 --episodes 2 >"$scratch/out"
[ $? -eq 0 ] && [ "$(bytes "$scratch/out")" -eq $((128 + 21 * $(frame_bytes 1 0))) ]
ok $? "--episodes 2 with --length 10 stops after 20 steps"

printf '\000\021' | "$step" --binary >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "step 2, env 0: action 17 out of range" "$scratch/err" &&
  [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "an action out of range: $(cat "$scratch/err")"

printf '\000\377\000' | "$step" --binary >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && [ "$(bytes "$scratch/out")" -eq $((128 + 4 * $(frame_bytes 1 0))) ]
ok $? "action 255 resets the env and is answered by a frame"

"$step" --semantic </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "are for the binary protocol" "$scratch/err"
ok $? "binary-only options are refused in JSON lines: $(cat "$scratch/err")"

"$step" --binary --shm-fd 9 </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^crafter-step: --shm-fd 9: cannot size the shared memory: Bad file descriptor$" "$scratch/err"
ok $? "a descriptor that is not open: $(cat "$scratch/err")"

printf '\000\000\000' | "$step" --binary --envs 2 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "input ended in the middle of step 2: 1 of 2" "$scratch/err"
ok $? "input ending mid-step: $(cat "$scratch/err")"

"$step" --binary --obs text </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && [ "$(wc -l <"$scratch/err")" -eq 1 ]
ok $? "text observations are refused in binary: $(cat "$scratch/err")"

# Threads change nothing in the bytes: 8 envs, 500 steps of random actions.
awk 'BEGIN { srand(3); for (i = 0; i < 4000; i++) printf "%c", int(rand() * 17) + 0 }' >"$scratch/actions" 2>/dev/null
"$step" --binary --envs 8 --obs symbolic <"$scratch/actions" >"$scratch/one"
"$step" --binary --envs 8 --threads 2 --obs symbolic <"$scratch/actions" >"$scratch/two"
cmp -s "$scratch/one" "$scratch/two" && [ "$(bytes "$scratch/one")" -gt 1000000 ]
ok $? "two threads write the same frames as one"

# Into a pipe frames are lent, not copied: a reader that lags behind input
# given ahead must still see every frame as it was.
head -c 3999 "$scratch/actions" >"$scratch/actions3"
"$step" --binary --envs 3 --obs pixels <"$scratch/actions3" >"$scratch/file"
"$step" --binary --envs 3 --obs pixels <"$scratch/actions3" | (sleep 1; cat) >"$scratch/piped"
"$step" --binary --envs 3 --threads 2 --obs pixels <"$scratch/actions3" | (sleep 1; cat) >"$scratch/piped2"
cmp -s "$scratch/file" "$scratch/piped" && cmp -s "$scratch/file" "$scratch/piped2"
ok $? "frames through a pipe whose reader lags equal those written to a file"

"$step" --binary --frobnicate </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ]
ok $? "an unknown option exits 2"

"$step" --obs pixels --textures "$scratch/nonexistent" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^crafter-step: textures folder $scratch/nonexistent does not exist$" "$scratch/err"
ok $? "a missing texture folder is named, not a file in it: $(cat "$scratch/err")"
: >"$scratch/plain"
"$step" --obs pixels --textures "$scratch/plain" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^crafter-step: textures folder $scratch/plain is not a folder$" "$scratch/err"
ok $? "a file given as the texture folder is said not to be one: $(cat "$scratch/err")"

# --final-obs: a section after the observations holds the observation that
# ended each episode, the one --manual-reset shows in the frame itself.
head -c 12 /dev/zero | "$step" --binary --obs symbolic --length 5 --final-obs >"$scratch/final"
fb=$(($(frame_bytes 1 5380) + 5440))
[ "$(bytes "$scratch/final")" -eq $((128 + 13 * fb)) ] && [ "$(u32 "$scratch/final" 68)" -eq 33 ] &&
  [ "$(u32 "$scratch/final" 44)" -eq $fb ]
ok $? "--final-obs adds flag 32 and a section of one observation a env (frames of $fb bytes)"
head -c 5 /dev/zero | "$step" --binary --obs symbolic --length 5 --manual-reset >"$scratch/manual"
obs=$(u32 "$scratch/final" 120)
slice "$scratch/manual" $((128 + 5 * $(frame_bytes 1 5380) + obs)) 5380 >"$scratch/ended"
slice "$scratch/final" $((128 + 5 * fb + obs + 5440)) 5380 >"$scratch/kept"
slice "$scratch/final" $((128 + 5 * fb + obs)) 5380 >"$scratch/next"
cmp -s "$scratch/ended" "$scratch/kept" && ! cmp -s "$scratch/kept" "$scratch/next" &&
  [ "$(slice "$scratch/final" $((128 + 5 * fb + 128)) 1 | od -An -tu1 | tr -d ' ')" = 1 ] &&
  [ "$(slice "$scratch/final" $((128 + 5 * fb + 192)) 1 | od -An -tu1 | tr -d ' ')" = 1 ]
ok $? "the final section of the ending step holds the final observation, the obs the next episode's"
# The ending step's frame reports the achievements the episode ended with,
# by default as with --manual-reset, on one thread and on two.
awk 'BEGIN { for (i = 0; i < 60; i++) printf "%c", (i % 3 ? 5 : 1) }' >"$scratch/gather"
awk 'BEGIN { for (i = 0; i < 60; i++) printf "%c%c", (i % 3 ? 5 : 1), (i % 3 ? 5 : 1) }' >"$scratch/gather2"
achievements() { # FRAMES-FILE FRAME-BYTES STEP
  slice "$1" $((128 + $3 * $2 + $(u32 "$1" $((76 + 4 * 8))))) 88 | od -An -v -tu4 | tr -s ' \n' ' '
}
"$step" --binary --seed 3 --length 60 --manual-reset <"$scratch/gather" >"$scratch/ends-manual"
"$step" --binary --seed 3 --length 60 <"$scratch/gather" >"$scratch/ends-auto"
"$step" --binary --seed 3 --length 60 --envs 2 --threads 2 <"$scratch/gather2" >"$scratch/ends-two"
fb0=$(frame_bytes 1 0)
ended=$(achievements "$scratch/ends-manual" "$fb0" 60)
[ "$ended" = "$(achievements "$scratch/ends-auto" "$fb0" 60)" ] &&
  [ "$(echo "$ended" | tr ' ' '\n' | grep -c '^[1-9]')" -gt 0 ] &&
  [ "$(achievements "$scratch/ends-two" "$(frame_bytes 2 0)" 60 | cut -d' ' -f1-23)" = "$(echo "$ended" | cut -d' ' -f1-23)" ]
ok $? "the step that ends an episode reports the achievements it ended with:$ended"
"$step" --binary --envs 8 --obs pixels --length 30 --final-obs <"$scratch/actions" >"$scratch/file"
cksum <"$scratch/file" >"$scratch/one"
"$step" --binary --envs 8 --obs pixels --length 30 --final-obs --threads 2 <"$scratch/actions" |
  (sleep 1; cksum) >"$scratch/two"
"$step" --binary --envs 8 --obs pixels --length 30 --final-obs <"$scratch/actions" |
  (sleep 1; cksum) >"$scratch/three"
cmp -s "$scratch/one" "$scratch/two" && cmp -s "$scratch/one" "$scratch/three"
ok $? "final sections are the same on two threads and through a pipe whose reader lags"
"$step" --binary --manual-reset --final-obs </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "final-obs is for auto-reset" "$scratch/err"
ok $? "--final-obs with --manual-reset is refused: $(cat "$scratch/err")"

# A render request (253, env, width, height) draws a view at another size
# and steps nothing: by day, the picture --size gives at that step.
render_90x60='\375\000\000\000\000\132\000\000\000\074\000\000\000'
printf "\002\002$render_90x60\000" | "$step" --binary --obs pixels >"$scratch/render"
printf '\002\002\000' | "$step" --binary --obs pixels --size 90,60 >"$scratch/sized"
small=$(frame_bytes 1 12288)
big=$(frame_bytes 1 16200)
slice "$scratch/render" $((128 + 3 * small)) 16200 >"$scratch/picture"
slice "$scratch/sized" $((128 + 2 * big + $(u32 "$scratch/sized" 120))) 16200 >"$scratch/expected"
[ "$(bytes "$scratch/render")" -eq $((128 + 4 * small + 16200)) ] &&
  cmp -s "$scratch/picture" "$scratch/expected"
ok $? "a render request is answered by the view at 90x60 and no frame"
slice "$scratch/render" $((128 + 3 * small + 16200)) "$small" >"$scratch/after"
slice "$scratch/sized" $((128 + 3 * big)) 4 >/dev/null
printf '\002\002\000' | "$step" --binary --obs pixels >"$scratch/plain3"
slice "$scratch/plain3" $((128 + 3 * small)) "$small" | cmp -s - "$scratch/after"
ok $? "by day a render changes nothing: the next step's frame is as without it"
for request in '\375\001\000\000\000\132\000\000\000\074\000\000\000' \
  '\375\000\000\000\000\021\000\000\000\074\000\000\000' '\375\000\000\000'; do
  printf "$request" | "$step" --binary >/dev/null 2>>"$scratch/render-errors"
  echo $? >>"$scratch/render-errors"
done
printf '\000\375' | "$step" --binary --envs 2 >/dev/null 2>>"$scratch/render-errors"
echo $? >>"$scratch/render-errors"
[ "$(grep -c '^1$' "$scratch/render-errors")" -eq 4 ] &&
  grep -q "names env 1 of 1" "$scratch/render-errors" &&
  grep -q "asks for 17x60 pixels: a view of 9x9 cells is drawn at 18x18 to 4096x4096" "$scratch/render-errors" &&
  grep -q "input ended in a render request before step 1: 4 of 13 bytes" "$scratch/render-errors" &&
  grep -q "step 1, env 1: action 253 out of range" "$scratch/render-errors"
status=$?
[ $status -ne 0 ] && diag <"$scratch/render-errors"
ok $status "bad render requests each say what is wrong and exit 1"
render_env1='\375\001\000\000\000\132\000\000\000\074\000\000\000'
printf "\002\002\002\002$render_env1\000\000" | "$step" --binary --envs 2 --obs pixels >"$scratch/one"
printf "\002\002\002\002$render_env1\000\000" | "$step" --binary --envs 2 --threads 2 --obs pixels >"$scratch/two"
cmp -s "$scratch/one" "$scratch/two" && [ "$(bytes "$scratch/one")" -eq $((128 + 4 * $(frame_bytes 2 12288) + 16200)) ]
ok $? "render requests are answered alike on two threads"

printf 'not a png' >"$scratch/bad.png"
mkdir "$scratch/textures" && cp "$scratch/bad.png" "$scratch/textures/unknown.png"
"$step" --obs pixels --textures "$scratch/textures" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown.png: not a PNG" "$scratch/err"
ok $? "a broken texture file is refused: $(cat "$scratch/err")"
finish
