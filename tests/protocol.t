#!/bin/sh
# The binary protocol of crafter-step: sizes, auto-reset, and every input
# error giving one line and a non-zero status.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 18

bytes() { wc -c <"$1" | tr -d ' '; }

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

printf 'not a png' >"$scratch/bad.png"
mkdir "$scratch/textures" && cp "$scratch/bad.png" "$scratch/textures/unknown.png"
"$step" --obs pixels --textures "$scratch/textures" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown.png: not a PNG" "$scratch/err"
ok $? "a broken texture file is refused: $(cat "$scratch/err")"
finish
