#!/bin/sh
# crafter-step --game craftax-classic: the options it takes and refuses,
# the binary protocol's version 3 header that names the game, first
# observations equal to JAX's (the CRCs of tests/data/craftax/
# symbolic-obs.txt.gz, recorded from the pinned reference), results that
# do not depend on the threads, and JSON lines and frames that agree on
# when an episode ends; --record: a trajectory file (crafter-trajectory(5)
# version 5) whose episodes end where the records say, replay from their
# keys, and are those crafter-dataset records for the same actions.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 26

u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
# crc FILE: zlib's CRC-32 of FILE, read from the trailer of its gzip.
crc() { gzip -c <"$1" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' '; }

"$step" --game tetris </dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "unknown game 'tetris' (the games are crafter, craftax-classic or craftax)" "$scratch/err"
ok $? "an unknown game is refused with the names of the games: $(head -n 1 "$scratch/err")"

refused=""
for options in "--area 32,32" "--length 100" "--world x.txt" "--players 2" "-O semantic" \
               "-b --semantic" "--info full"; do
  # shellcheck disable=SC2086
  "$step" --game craftax-classic $options </dev/null >/dev/null 2>"$scratch/err"
  status=$?
  first=${options%% *}
  if [ $status -ne 2 ] || ! grep -q -e "$first" -e "${options##* }" "$scratch/err"; then
    refused="$refused [$options: $status $(head -n 1 "$scratch/err")]"
  fi
done
[ -z "$refused" ]
ok $? "Crafter's options are refused with status 2, naming the option"
[ -n "$refused" ] && echo "$refused" | diag

# The binary protocol: 3 envs, symbolic observations, 5 steps.
printf '\000\001\002\003\004\005\006\007\010\011\012\013\014\015\016' |
  "$step" --game craftax-classic -b -N 3 -O symbolic -s 7 >"$scratch/stream"
ok $? "three envs stepped five times in the binary protocol"
header=$(u32 "$scratch/stream" 12)
frame=$(u32 "$scratch/stream" 44)
[ "$(head -c 8 "$scratch/stream")" = CRAFTSTP ] && [ "$(u32 "$scratch/stream" 8)" = 3 ] &&
  [ "$header" = 160 ] && [ $(($(u32 "$scratch/stream" 68) & 128)) -ne 0 ]
ok $? "version 3, the game flag (128) set, a header of 128 + 32 bytes"
[ "$(slice "$scratch/stream" 128 32 | tr -d '\000')" = craftax-classic ]
ok $? "the game's name follows the header, NUL-padded"
[ "$(u32 "$scratch/stream" 16)" = 3 ] && [ "$(u32 "$scratch/stream" 40)" = 5380 ] &&
  [ "$(u32 "$scratch/stream" 48)" = 17 ] && [ "$(u32 "$scratch/stream" 52)" = 22 ] &&
  [ "$(wc -c <"$scratch/stream")" -eq $((header + 6 * frame)) ]
ok $? "3 envs, 1345 float32 values an observation, 17 actions, 22 achievements, 6 frames"

# First observations against JAX's: seeds 4000..4011 in one frame.
printf '' | "$step" --game craftax-classic -b -N 12 -O symbolic -s 4000 >"$scratch/first"
offset=$(u32 "$scratch/first" $((76 + 4 * 11)))
mismatch=""
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
  slice "$scratch/first" $((header + offset + 5380 * i)) 5380 >"$scratch/obs"
  want=$(gzip -dc "$top/tests/data/craftax/symbolic-obs.txt.gz" | awk -v s=$((4000 + i)) '$1 == s { print $2 }')
  [ "$(crc "$scratch/obs")" = "$want" ] || mismatch="$mismatch $((4000 + i))"
done
[ -z "$mismatch" ]
ok $? "the first observations of seeds 4000..4011 are JAX's, CRC for CRC"
[ -n "$mismatch" ] && echo "seeds whose observation differs:$mismatch" | diag

# Threads change nothing: 8 envs, 300 random steps, 1 and 2 threads.
awk 'BEGIN { srand(3); for (t = 0; t < 300; t++) for (i = 0; i < 8; i++) printf "%c", int(rand() * 17) }' \
  >"$scratch/actions"
"$step" --game craftax-classic -b -N 8 -O symbolic -T 1 <"$scratch/actions" >"$scratch/one"
"$step" --game craftax-classic -b -N 8 -O symbolic -T 2 <"$scratch/actions" >"$scratch/two"
cmp -s "$scratch/one" "$scratch/two"
ok $? "8 envs over 300 steps: the same stream on 1 and 2 threads"

# An episode of noops ends (food and drink run out); JSON lines stop
# there with -n 1 (the default for one env), the frames say the same step.
awk 'BEGIN { for (t = 0; t < 3000; t++) print "noop" }' >"$scratch/noops"
"$step" --game craftax-classic <"$scratch/noops" >"$scratch/json"
ok $? "an episode of noops in JSON lines"
last=$(tail -n 1 "$scratch/json")
length=$(wc -l <"$scratch/json" | tr -d ' ')
echo "$last" | grep -q "\"t\": $length, .*\"done\": true, \"discount\": 0.0"
ok $? "it stops at the step that ends it, done with discount 0: $(echo "$last" | cut -c1-80)"
awk 'BEGIN { for (t = 0; t < 3000; t++) printf "%c", 0 }' |
  "$step" --game craftax-classic -b -n 1 >"$scratch/frames"
frames=$(( ($(wc -c <"$scratch/frames") - header) / $(u32 "$scratch/frames" 44) ))
done_at=$(u32 "$scratch/frames" 76)
[ "$frames" -eq $((length + 1)) ]
ok $? "the binary protocol with -n 1 stops at the same step ($frames frames for $length steps)"
reward_json=$(echo "$last" | sed 's/.*"reward": \([-0-9.e]*\),.*/\1/')
[ -n "$reward_json" ] && [ "$reward_json" != "$last" ]
ok $? "the last record has a reward ($reward_json)"

# The next record after an end is the next episode's: with -n 2, "reset" 2.
"$step" --game craftax-classic -n 2 --info state <"$scratch/noops" >"$scratch/two-episodes"
grep -q '^{"reset": 2, "seed": 0, ' "$scratch/two-episodes"
ok $? "--info state: the auto-reset's record starts episode 2"
[ "$(grep -c '"done": true' "$scratch/two-episodes")" -eq 2 ]
ok $? "two episodes end with -n 2"

# Saved states: saved after 50 steps and loaded, the next 100 records are
# those of the env that went on; the binary protocol saves the same bytes;
# a state of the other game is refused by each, naming both games.
awk 'BEGIN { srand(5); for (t = 0; t < 50; t++) print int(rand() * 17) }' >"$scratch/a50"
awk 'BEGIN { srand(6); for (t = 0; t < 100; t++) print int(rand() * 17) }' >"$scratch/b100"
{ cat "$scratch/a50"; echo "save 0"; } | "$step" --game craftax-classic -n 0 |
  tail -n 1 | sed 's/.*"state": "\(.*\)"}/\1/' >"$scratch/state.b64"
cat "$scratch/a50" "$scratch/b100" | "$step" --game craftax-classic -n 0 -O symbolic --info state |
  tail -n 100 >"$scratch/direct"
{ echo "load 0 $(cat "$scratch/state.b64")"; cat "$scratch/b100"; } |
  "$step" --game craftax-classic -n 0 -O symbolic --info state >"$scratch/loaded"
sed -n 2p "$scratch/loaded" | grep -q '^{"env": 0, "loaded": true, "done": false, "t": 50, ' &&
  tail -n 100 "$scratch/loaded" | cmp -s - "$scratch/direct"
ok $? "a state saved at step 50 and loaded goes on as the env did, 100 records byte for byte"
awk '{ printf "%c", $1 }' "$scratch/a50" >"$scratch/a50.bin"
{ cat "$scratch/a50.bin"; printf '\374\000\000\000\000'; } |
  "$step" --game craftax-classic -b >"$scratch/saved-stream"
size=$(u32 "$scratch/saved-stream" $((header + 51 * $(u32 "$scratch/saved-stream" 44))))
slice "$scratch/saved-stream" $((header + 51 * $(u32 "$scratch/saved-stream" 44) + 4)) "$size" >"$scratch/state.bin"
base64 -d "$scratch/state.b64" >"$scratch/state.json.bin" 2>/dev/null
cmp -s "$scratch/state.bin" "$scratch/state.json.bin" && [ "$size" -gt 0 ]
ok $? "request 252 answers the state JSON lines' save gives ($size bytes)"
printf 'noop\nsave 0\n' | "$step" -n 0 | tail -n 1 | sed 's/.*"state": "\(.*\)"}/\1/' >"$scratch/crafter.b64"
echo "load 0 $(cat "$scratch/crafter.b64")" | "$step" --game craftax-classic -n 0 >"$scratch/out"
grep -q '"loaded": false, "error": "a state of crafter (format version 1), not of craftax-classic"' "$scratch/out"
ok $? "a Crafter state is refused by craftax-classic: $(cut -c1-110 "$scratch/out")"
echo "load 0 $(cat "$scratch/state.b64")" | "$step" -n 0 >"$scratch/out"
grep -q '"loaded": false, "error": "a state of craftax-classic (format version 2), not of crafter"' "$scratch/out"
ok $? "a craftax-classic state is refused by Crafter: $(cut -c1-110 "$scratch/out")"
echo "load 0 QUFBQUFBQUFB" | "$step" --game craftax-classic -n 0 >"$scratch/out"
grep -q '"loaded": false, "error": "not a saved state' "$scratch/out"
ok $? "bytes that are no state are refused and the session goes on: $(cut -c1-90 "$scratch/out")"

# --record: 700 random actions in JSON lines with symbolic observations.
dataset=$top/bin/crafter-dataset
awk 'BEGIN { srand(7); for (t = 0; t < 700; t++) print int(rand() * 17) }' >"$scratch/a700"
"$step" --game craftax-classic -n 0 -O symbolic -s 3 --record "$scratch/rec.traj" \
  <"$scratch/a700" >"$scratch/records"
ok $? "--record writes the episodes of 700 steps"
awk '/"done": true/ { print n + 1 } /"t": / { n++ }' "$scratch/records" | tr '\n' ' ' >"$scratch/json-ends"
"$dataset" list "$scratch/rec.traj" >"$scratch/list"
awk -F '\t' 'NR > 1 && $8 != "cut" { sum += $6; printf "%d ", sum }' "$scratch/list" >"$scratch/file-ends"
[ -s "$scratch/json-ends" ] && cmp -s "$scratch/json-ends" "$scratch/file-ends" &&
  tail -1 "$scratch/list" | cut -f8 | grep -qx cut &&
  [ "$(awk -F '\t' 'NR > 1 { sum += $6 } END { print sum }' "$scratch/list")" -eq 700 ]
ok $? "its episodes end at the steps the records end them ($(cat "$scratch/json-ends")), the last cut, 700 steps in all"
"$dataset" verify --resimulate "$scratch/rec.traj" >"$scratch/out" && ! grep -q note "$scratch/out"
ok $? "they replay from their keys, each starting where the one before ended: $(tail -1 "$scratch/out")"
echo "load 0 $(cat "$scratch/state.b64")" |
  "$step" --game craftax-classic -n 0 --record "$scratch/load.traj" >"$scratch/out"
grep -q '"loaded": false, "error": "this env records its episodes: a recording cannot hold a jump in state"' "$scratch/out"
ok $? "a load is refused while recording: $(cut -c1-120 "$scratch/out")"

# The binary protocol on 3 envs, 2 threads, a reset (255) of env 1 after
# 20 steps: the episode it cuts is stored cut, the next one starts from the
# schedule's next key, and 1 thread records the same bytes.
awk 'BEGIN { srand(8); for (t = 0; t < 300; t++) for (e = 0; e < 3; e++)
  printf "%c", (t == 20 && e == 1) ? 255 : int(rand() * 17) }' >"$scratch/b300"
"$step" --game craftax-classic -b -N 3 -T 2 -O symbolic --record "$scratch/b2.traj" \
  <"$scratch/b300" >/dev/null &&
  "$step" --game craftax-classic -b -N 3 -T 1 -O symbolic --record "$scratch/b1.traj" \
    <"$scratch/b300" >/dev/null &&
  cmp -s "$scratch/b1.traj" "$scratch/b2.traj"
ok $? "a binary recording of 3 envs is the same bytes on 1 and 2 threads"
"$dataset" list "$scratch/b2.traj" | awk -F '\t' '$2 == 1' | head -2 >"$scratch/env1"
"$dataset" verify --resimulate "$scratch/b2.traj" >"$scratch/out" && ! grep -q note "$scratch/out" &&
  [ "$(head -1 "$scratch/env1" | cut -f6,8)" = "20	cut" ] &&
  [ "$(sed -n 2p "$scratch/env1" | cut -f3)" = 2 ]
ok $? "env 1's episode cut by the reset after 20 steps is stored cut, and the next replays from the reset's keys"

# The same actions as crafter-dataset's random agent give the episodes it
# recorded: the same keys, lengths, returns and ends.
"$dataset" record -q --game craftax-classic -n 3 -s 5 -o "$scratch/agent.traj"
"$dataset" export --format npz -o "$scratch/npz" "$scratch/agent.traj" >"$scratch/names"
if command -v python3 >/dev/null 2>&1 && python3 -c 'import numpy' 2>/dev/null; then
  python3 - $(cat "$scratch/names") <<'EOF' >"$scratch/agent-actions"
import sys
import numpy as np
for name in sys.argv[1:]:
    for action in np.load(name)["action"][1:]:
        print(int(action))
EOF
  "$step" --game craftax-classic -n 3 -s 5 --record "$scratch/again.traj" \
    <"$scratch/agent-actions" >/dev/null
  "$dataset" list "$scratch/agent.traj" >"$scratch/list-agent"
  "$dataset" list "$scratch/again.traj" >"$scratch/list-again"
  cmp -s "$scratch/list-agent" "$scratch/list-again"
  ok $? "crafter-step --record, given crafter-dataset's random actions, records its episodes"
else
  skip "python3 with numpy is not installed"
fi
finish
