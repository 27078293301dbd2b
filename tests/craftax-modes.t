#!/bin/sh
# crafter-step's modes and level sets with --game craftax-classic
# (crafter-games(7), crafter-levels(5)): level k of seed S is the first
# world of seed S+k-1, its state's hash JAX's (tests/data/craftax/
# worlds.txt.gz); level files name their game and each game refuses the
# other's; an env on levels plays its own seed's keys; --manual-reset
# plays on after the end and its reset lands on the key the auto-reset
# schedule has there too; --final-obs carries the state an episode ended
# in; --shm-fd frames are the pipe's; render requests and --semantic are
# refused.  Where the pinned reference is installed, --manual-reset and
# --levels are played by JAX too (tests/reference/craftax_modes.py).
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
step=$top/bin/crafter-step
gen=$top/bin/crafter-gen
dataset=$top/bin/crafter-dataset
bench=$top/bin/crafter-bench
plan 28

u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
cc="--game craftax-classic"

# ---- level sets ----

# The list's CRC is the hash JAX printed for the seed's first state.
hashes() { gzip -dc "$top/tests/data/craftax/worlds.txt.gz" | awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b { print $1, $2 }'; }
# shellcheck disable=SC2086
"$gen" $cc --levels 20 --seed 100 >"$scratch/list"
awk 'NR > 1 { print $4, $8 }' "$scratch/list" >"$scratch/got"
hashes 100 119 >"$scratch/want"
cmp -s "$scratch/got" "$scratch/want" && [ "$(wc -l <"$scratch/got")" -eq 20 ]
ok $? "levels 1..20 of seed 100 are the first worlds of seeds 100..119, hash for hash JAX's"
# shellcheck disable=SC2086
"$gen" $cc --levels 5 --start-level 7 --seed 50 | awk 'NR > 1 { print $4, $8 }' >"$scratch/got"
hashes 56 60 >"$scratch/want"
cmp -s "$scratch/got" "$scratch/want" && [ "$(wc -l <"$scratch/got")" -eq 5 ]
ok $? "--start-level 7: levels 7..11 of seed 50 are the worlds of seeds 56..60"
hashes 101 120 >"$scratch/shifted"
awk 'NR > 1 { print $4, $8 }' "$scratch/list" | cut -d' ' -f2 >"$scratch/a"
cut -d' ' -f2 "$scratch/shifted" >"$scratch/b"
! cmp -s "$scratch/a" "$scratch/b"
ok $? "the check can fail: the hashes of seeds 101..120 are not those levels'"

# shellcheck disable=SC2086
"$gen" $cc --levels 6 --seed 40 --save-levels "$scratch/cc.lvl" &&
  "$gen" $cc --levels "$scratch/cc.lvl" >"$scratch/from-file" &&
  "$gen" $cc --levels 6 --seed 40 >"$scratch/from-memory"
cmp -s "$scratch/from-file" "$scratch/from-memory" && [ "$(u32 "$scratch/cc.lvl" 8)" = 2 ] &&
  [ "$(u32 "$scratch/cc.lvl" 84)" = 1 ] &&
  [ "$(tail -c +89 "$scratch/cc.lvl" | head -c 32 | tr -d '\000')" = craftax-classic ]
ok $? "a level file (version 2, game 1, named craftax-classic) lists as the set made in memory"

"$gen" --levels 2 --save-levels "$scratch/crafter.lvl"
"$gen" --levels "$scratch/cc.lvl" >/dev/null 2>"$scratch/err1"
s1=$?
"$step" --levels "$scratch/cc.lvl" </dev/null >/dev/null 2>>"$scratch/err1"
s2=$?
# shellcheck disable=SC2086
"$step" $cc --levels "$scratch/crafter.lvl" </dev/null >/dev/null 2>"$scratch/err2"
s3=$?
[ $s1 -eq 1 ] && [ $s2 -eq 1 ] && [ $s3 -eq 1 ] &&
  [ "$(grep -c 'a level file of craftax-classic, not of crafter' "$scratch/err1")" -eq 2 ] &&
  grep -q 'a level file of crafter, not of craftax-classic' "$scratch/err2"
ok $? "each game refuses the other's level file, naming both: $(head -n 1 "$scratch/err2")"

size=$(wc -c <"$scratch/cc.lvl")
{ head -c $((size / 2)) "$scratch/cc.lvl"; printf 'X'; tail -c +$((size / 2 + 2)) "$scratch/cc.lvl"; } >"$scratch/bad.lvl"
# shellcheck disable=SC2086
"$gen" $cc --levels "$scratch/bad.lvl" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "bad.lvl" "$scratch/err"
ok $? "a damaged level file is refused: $(cat "$scratch/err")"
# shellcheck disable=SC2086
"$step" $cc --levels "$scratch/cc.lvl" --seed 41 </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "holds levels of seed 40, not of --seed 41" "$scratch/err"
ok $? "a level file of another seed than --seed is refused with status 2"

# Env i on levels plays seed+i's keys: with levels in order, env i's
# first episode is level i+1, the first world of seed 10+i, so the run
# is the plain run of seed 10 until an episode ends, but for "level".
awk 'BEGIN { srand(5); for (t = 0; t < 400; t++) print int(rand() * 17), int(rand() * 17), int(rand() * 17) }' >"$scratch/actions"
# shellcheck disable=SC2086
"$step" $cc -N 3 -s 10 -n 3 -O symbolic --levels 3 --level-order sequential <"$scratch/actions" >"$scratch/on-levels"
# shellcheck disable=SC2086
"$step" $cc -N 3 -s 10 -n 3 -O symbolic <"$scratch/actions" >"$scratch/plain"
first_end=$(grep -n '"done": true' "$scratch/plain" | head -n 1 | cut -d: -f1)
# (A reset record's number is the episode's level there, its counter here.)
head -n "$((first_end - 1))" "$scratch/on-levels" | sed -e 's/"reset": [0-9]*, "level": [0-9]*/"reset"/' -e 's/, "level": [0-9]*//' >"$scratch/a"
head -n "$((first_end - 1))" "$scratch/plain" | sed 's/"reset": [0-9]*/"reset"/' >"$scratch/b"
levels_ok=$(head -n 3 "$scratch/on-levels" | sed -n 's/.*"reset": \([0-9]*\), "level": \([0-9]*\).*/\1\2/p' | tr '\n' ' ')
cmp -s "$scratch/a" "$scratch/b" && [ -n "$first_end" ] && [ "$levels_ok" = "11 22 33 " ]
ok $? "on levels in order env i plays level i+1 with seed 10+i's keys: the plain run's records up to the first end (step record $first_end), but for the level"
# After an end the next level's first observation comes, not the auto-reset's world.
next=$(awk 'NR > '"$first_end"' && /"reset"/ { print; exit }' "$scratch/on-levels")
env=$(echo "$next" | sed 's/.*"env": \([0-9]\).*/\1/')
level=$(echo "$next" | sed 's/.*"level": \([0-9]*\).*/\1/')
# shellcheck disable=SC2086
want=$("$step" $cc -s $((10 + level - 1)) -O symbolic </dev/null | sed 's/.*"obs"/"obs"/')
# (3 envs on 3 levels in order: env i plays level i+1 every episode.)
[ "$(echo "$next" | sed 's/.*"obs"/"obs"/')" = "$want" ] && [ "$level" = $((env + 1)) ]
ok $? "env $env's episode after its end starts on level $level again: the first observation of seed $((10 + level - 1))"

awk 'BEGIN { srand(8); for (t = 0; t < 1500; t++) printf "%c", int(rand() * 17) }' >"$scratch/bytes"
# shellcheck disable=SC2086
"$step" $cc -b -N 4 -T 1 --levels 5 --seed 3 -O symbolic <"$scratch/bytes" >"$scratch/t1"
# shellcheck disable=SC2086
"$step" $cc -b -N 4 -T 2 --levels 5 --seed 3 -O symbolic <"$scratch/bytes" >"$scratch/t2"
cmp -s "$scratch/t1" "$scratch/t2" && [ $(($(u32 "$scratch/t1" 68) & 16)) -eq 16 ]
ok $? "binary frames on levels (flag 16): two threads send the bytes of one"

# shellcheck disable=SC2086
"$step" $cc -b --levels 4 --seed 9 -O symbolic --record "$scratch/levels.traj" <"$scratch/bytes" >/dev/null &&
  "$dataset" verify --resimulate "$scratch/levels.traj" >"$scratch/verify" 2>/dev/null
ok $? "a recording on levels re-simulates from each episode's keys: $(tail -n 1 "$scratch/verify")"
"$dataset" list "$scratch/levels.traj" | awk -F'\t' 'NR > 1 && ($2 != 9 || $3 < 1 || $3 > 4) { bad++ } NR > 1 { n++ } END { exit !(n >= 2 && !bad) }'
ok $? "its episodes are numbered by their levels, 1 to 4"

# shellcheck disable=SC2086
"$bench" $cc --levels 50 -N 4 --steps 4000 --repeats 1 >"$scratch/bench" 2>&1
ok $? "crafter-bench measures on levels: $(grep -i 'steps' "$scratch/bench" | head -n 1)"

# ---- modes, frame by frame ----
if ! command -v python3 >/dev/null 2>&1; then
  for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do skip "python3 is not installed: frames NOT compared"; done
  finish
fi
# frames STREAM: 'FRAME CRC DONE REWARD T RESET' a frame (craftax_modes.py's
# format and the reset byte), the CRC of the observation; with FINAL, that
# of the final section instead.
frames() {
  python3 - "$@" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
final = len(sys.argv) > 2
hsize, n = struct.unpack_from('<2I', data, 12)
obs_bytes, frame_bytes = struct.unpack_from('<2I', data, 40)
flags = struct.unpack_from('<I', data, 68)[0]
sec = struct.unpack_from('<12I', data, 76)
at, k = hsize, 0
while at + frame_bytes <= len(data):
  f = data[at:at + frame_bytes]
  reward = struct.unpack_from('<d', f, sec[0])[0]
  done, reset = f[sec[2]], f[sec[3]]
  t = struct.unpack_from('<I', f, sec[6])[0]
  if done and flags & 1:
    t = -1
  bits = struct.unpack('<I', struct.pack('<f', reward))[0]
  start = (sec[11] + n * obs_bytes + 63) // 64 * 64 if final else sec[11]
  print('%d %08x %d %08x %d %d' % (k, zlib.crc32(f[start:start + obs_bytes]), done, bits, t, reset))
  at += frame_bytes
  k += 1
EOF
}

# An episode of noops that ends, 7 steps played on, a reset, 90 steps, a
# reset, 30 steps.
awk 'BEGIN { for (t = 0; t < 3000; t++) printf "%c", 0 }' >"$scratch/noops"
# shellcheck disable=SC2086
"$step" $cc -b -O symbolic <"$scratch/noops" >"$scratch/noop-stream"
frames "$scratch/noop-stream" >"$scratch/noop-frames"
end=$(awk '$1 > 0 && $3 == 1 { print $1; exit }' "$scratch/noop-frames")
{
  head -c "$end" "$scratch/noops"
  printf '\005\001\002\003\004\000\006\377'
  awk 'BEGIN { for (t = 0; t < 30; t++) printf "\001\005\003"; printf "\377"; for (t = 0; t < 10; t++) printf "\002\002\005" }'
} >"$scratch/manual-actions"
# shellcheck disable=SC2086
"$step" $cc -b -O symbolic --manual-reset <"$scratch/manual-actions" >"$scratch/manual"
# shellcheck disable=SC2086
"$step" $cc -b -O symbolic --final-obs <"$scratch/manual-actions" >"$scratch/auto"
frames "$scratch/manual" >"$scratch/m"
frames "$scratch/auto" >"$scratch/a"
frames "$scratch/auto" final >"$scratch/f"
[ $(($(u32 "$scratch/manual" 68) & 1)) -eq 0 ] && [ $(($(u32 "$scratch/auto" 68) & 33)) -eq 33 ]
ok $? "--manual-reset clears flag 1; --final-obs sets flag 32"
sed -n "$((end + 1))p" "$scratch/m" | awk '{ exit !($3 == 1 && $6 == 0) }' &&
  sed -n "$((end + 1)),$((end + 8))p" "$scratch/m" | awk '{ n++ } $6 == 0 { z++ } END { exit !(n == 8 && z == 8) }'
ok $? "manual reset: the episode ends at step $end (done 1, reset 0) and plays on 7 steps without a reset"
zeros=$(python3 -c 'import zlib; print("%08x" % zlib.crc32(bytes(5380)))')
[ "$(sed -n "$((end + 1))p" "$scratch/f" | cut -d' ' -f2)" = "$(sed -n "$((end + 1))p" "$scratch/m" | cut -d' ' -f2)" ] &&
  [ "$(awk -v e="$end" '$1 != e { print $2 }' "$scratch/f" | sort -u)" = "$zeros" ]
ok $? "--final-obs: the final section at the end is the state the episode ended in (the manual reset's frame), zeros at every other step"
head -n "$end" "$scratch/m" | cut -d' ' -f1-5 >"$scratch/m1"
head -n "$end" "$scratch/a" | cut -d' ' -f1-5 >"$scratch/a1"
tail -n +$((end + 9)) "$scratch/m" | cut -d' ' -f1-4 >"$scratch/m2"
tail -n +$((end + 9)) "$scratch/a" | cut -d' ' -f1-4 >"$scratch/a2"
cmp -s "$scratch/m1" "$scratch/a1" && cmp -s "$scratch/m2" "$scratch/a2" && [ "$(wc -l <"$scratch/m2")" -eq 122 ]
ok $? "the reset after playing on lands on the key auto-reset's reset does: the next 122 frames are the same"
sed -n "$((end + 9))p" "$scratch/m" | awk '{ exit !($6 == 1 && $3 == 0) }'
ok $? "the reset's frame: reset 1, done 0"

# shellcheck disable=SC2086
"$step" $cc -b -O symbolic --manual-reset --record "$scratch/manual.traj" <"$scratch/manual-actions" >/dev/null &&
  "$dataset" verify --resimulate "$scratch/manual.traj" >"$scratch/verify" 2>/dev/null &&
  [ "$("$dataset" list "$scratch/manual.traj" | awk -F'\t' 'NR > 1 { printf "%s/%s ", $6, $8 }')" = "$end/died 90/cut 30/cut " ]
ok $? "a recording with manual reset: the ended episode stored at its end ($end steps), the steps played on not; re-simulated"

# The recording of the same run stores the ended state's observation as
# its episode's last (Crafter's episode files, read with numpy).
# shellcheck disable=SC2086
"$step" $cc -b -O symbolic --final-obs --record "$scratch/final.traj" <"$scratch/manual-actions" >/dev/null &&
  "$dataset" export --format npz -o "$scratch/npz" "$scratch/final.traj"
if python3 -c 'import numpy' 2>/dev/null; then
  recorded=$(python3 -c '
import glob, sys, zlib, numpy as np
episode = np.load(sorted(glob.glob(sys.argv[1] + "/*-e1-*.npz"))[0])
print("%08x %d" % (zlib.crc32(episode["symbolic"][-1].astype("<f4").tobytes()), len(episode["symbolic"]) - 1))' "$scratch/npz")
  [ "$recorded" = "$(sed -n "$((end + 1))p" "$scratch/f" | cut -d' ' -f2) $end" ]
  ok $? "the recording's last observation of the ended episode is the final section's ($recorded)"
else
  skip "numpy is not installed: the recording's final observation NOT compared"
fi

# --episodes counts an ended episode once: steps played on after its end
# do not end the run; nor do those of a loaded state an episode ended in.
{ head -c "$end" "$scratch/noops"; head -c 20 "$scratch/noops"; } >"$scratch/play-on"
# shellcheck disable=SC2086
"$step" $cc -b --manual-reset -n 2 <"$scratch/play-on" >"$scratch/play-on-stream"
frames "$scratch/play-on-stream" | awk -v e="$end" '$1 >= e { n++; if ($3 != 1) bad++ } END { exit !(n == 21 && !bad) }'
ok $? "--manual-reset -n 2: 20 steps played on after the end (done each) do not end the run"
{ head -c "$end" "$scratch/noops"; printf '\374\000\000\000\000'; } |
  "$step" $cc -b --manual-reset >"$scratch/saved-stream"
length=$(wc -c <"$scratch/saved-stream")
state_bytes=$(od -An -tu4 -j $((length - 33432 - 4)) -N4 "$scratch/saved-stream" | tr -d ' ')
{
  printf '\373\000\000\000\000'
  python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<I", int(sys.argv[1])))' "$state_bytes"
  tail -c 33432 "$scratch/saved-stream"
  printf '\000\000\000'
} | "$step" $cc -b --manual-reset -n 1 >"$scratch/loaded-stream"
status=$?
count=$(tail -c +$(($(u32 "$scratch/loaded-stream" 12) + 1)) "$scratch/loaded-stream" | wc -c)
frame=$(u32 "$scratch/loaded-stream" 44)
[ $status -eq 0 ] && [ "$state_bytes" = 33432 ] && [ "$count" -eq $((5 * frame + 8)) ]
ok $? "a state saved at the end, loaded with --manual-reset -n 1, waits: 3 steps on it are answered"

# Shared memory: the frames of the ring are the pipe's, a load's too.
python3 - "$step" "$scratch/manual-actions" <<'EOF' >"$scratch/shm"
import os, struct, subprocess, sys
step, actions = sys.argv[1], open(sys.argv[2], 'rb').read()[:300]
base = [step, '--game', 'craftax-classic', '-b', '-O', 'symbolic', '--final-obs', '-N', '2']
acts = b''.join(bytes([a, (a + 3) % 17]) for a in actions)
save = bytes([252]) + struct.pack('<I', 1)
def pipe():
  out = subprocess.run(base, input=acts[:200] + save + acts[200:], capture_output=True).stdout
  hsize, frame = struct.unpack_from('<I', out, 12)[0], struct.unpack_from('<I', out, 44)[0]
  frames = [out[hsize + i * frame: hsize + (i + 1) * frame] for i in range(101)]
  at = hsize + 101 * frame
  size = struct.unpack_from('<I', out, at)[0]
  state = out[at + 4: at + 4 + size]
  at += 4 + size
  rest = out[at:]
  frames += [rest[i * frame:(i + 1) * frame] for i in range(len(rest) // frame)]
  return frames, state
frames, state = pipe()
fd = os.memfd_create('ring')
proc = subprocess.Popen(base + ['--shm-fd', str(fd), '--shm-slots', '3'], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, pass_fds=(fd,))
hsize = struct.unpack_from('<I', proc.stdout.read(16), 12)[0]
head = proc.stdout.read(hsize - 16)
frame = struct.unpack_from('<I', head, 44 - 16)[0]
def next_frame():
  slot, number = struct.unpack('<2I', proc.stdout.read(8))
  return os.pread(fd, frame, slot * frame), number
got = [next_frame()[0]]
for i in range(100):
  proc.stdin.write(acts[2 * i:2 * i + 2]); proc.stdin.flush()
  got.append(next_frame()[0])
proc.stdin.write(bytes([251]) + struct.pack('<2I', 0, len(state)) + state); proc.stdin.flush()
status = struct.unpack('<2I', proc.stdout.read(8))
loaded, number = next_frame()
proc.stdin.close(); proc.wait()
same = sum(a == b for a, b in zip(got, frames[:101]))
print(same, len(got), status[0], number, int(loaded[:64] != got[-1][:64] or loaded != got[-1]))
EOF
read -r same count status number changed <"$scratch/shm"
[ "$same" = 101 ] && [ "$count" = 101 ] && [ "$status" = 0 ] && [ "$number" = 101 ] && [ "$changed" = 1 ]
ok $? "--shm-fd: 101 frames in a ring of 3 slots are the pipe's; a load's frame follows as frame 101 ($(cat "$scratch/shm"))"

printf '\375\000\000\000\000\100\000\000\000\100\000\000\000' |
  "$step" --game craftax-classic -b >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "asks for a render, which Craftax-Classic does not answer" "$scratch/err"
ok $? "a render request is refused: $(cat "$scratch/err")"
"$step" --game craftax-classic -b --semantic </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "has no semantic map" "$scratch/err"
ok $? "--semantic is refused with status 2: $(cat "$scratch/err")"

# ---- against JAX ----
if [ -x "$python" ]; then
  "$python" "$top/tests/reference/craftax_modes.py" manual 0 "$scratch/manual-actions" >"$scratch/jax-manual" 2>"$scratch/jax-err"
  cut -d' ' -f1-5 "$scratch/m" >"$scratch/c-manual"
  cmp -s "$scratch/c-manual" "$scratch/jax-manual"
  ok $? "--manual-reset is JAX's without auto-reset, frame for frame ($(wc -l <"$scratch/jax-manual") frames)"
  [ -s "$scratch/jax-err" ] && head -n 5 "$scratch/jax-err" | diag
  awk 'BEGIN { srand(4); for (t = 0; t < 800; t++) { r = int(rand() * 9); printf "%c", r < 4 ? 0 : r - 3 } }' >"$scratch/level-actions"
  "$step" $cc -b -O symbolic --levels 3 --level-order sequential -s 3 <"$scratch/level-actions" >"$scratch/lv"
  frames "$scratch/lv" | cut -d' ' -f1-5 >"$scratch/c-levels"
  "$python" "$top/tests/reference/craftax_modes.py" levels 3 3 "$scratch/level-actions" >"$scratch/jax-levels" 2>/dev/null
  cmp -s "$scratch/c-levels" "$scratch/jax-levels" && [ "$(awk '$3 == 1' "$scratch/c-levels" | wc -l)" -ge 2 ]
  ok $? "--levels is JAX's with level states put in place of the auto-reset's: $(awk '$3 == 1' "$scratch/c-levels" | wc -l) ends over 800 steps"
  [ "$(head -n 3 "$scratch/jax-manual" | tail -n 1)" != "$(head -n 3 "$scratch/c-levels" | tail -n 1)" ]
  ok $? "the comparison can fail: another run's frames are not those"
else
  skip "Craftax-Classic is not installed (make craftax-env): --manual-reset NOT played by JAX"
  skip "Craftax-Classic is not installed: --levels NOT played by JAX"
  skip "Craftax-Classic is not installed"
fi
finish
