#!/bin/sh
# Saved states through crafter-step (crafter-state(5), crafter-protocol(5)):
# a state saved by one session and loaded by another of another seed plays
# on exactly as the first, in JSON lines and in the binary protocol, with
# several envs, players and threads; a state of other parameters, a damaged
# one, one longer than any of the session's parameters, or a load while
# recording is refused and the session goes on; a request that cannot be
# read (naming no env, cut short) ends the session as bad input does.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 23

bytes() { wc -c <"$1" | tr -d ' '; }
u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }
# le32 N: N as 4 little-endian bytes.
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
  $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
# Random action lines: N lines of K actions.
actions() { awk -v n="$1" -v k="$2" -v seed="$3" 'BEGIN { srand(seed); for (i = 0; i < n; i++) {
  line = ""; for (j = 0; j < k; j++) line = line (j ? " " : "") int(rand() * 17); print line } }'; }
state_of() { sed -n "s/^{\"env\": $2, \"state\": \"\([^\"]*\)\"}$/\1/p" "$1"; }

# JSON lines: 250 steps, a save, 450 more (the end of an episode of 300
# steps, nights, the next episode); another session of another seed loads
# the state and plays the 450: the same records, pixels (obs_crc) included.
actions 700 1 1 >"$scratch/acts"
{ head -n 250 "$scratch/acts"; echo "save 0"; tail -n 450 "$scratch/acts"; } |
  "$step" --seed 5 --obs pixels --info full --length 300 -n 0 >"$scratch/a" 2>"$scratch/err"
status=$?
{ echo "load 0 $(state_of "$scratch/a" 0)"; tail -n 450 "$scratch/acts"; } |
  "$step" --seed 99 --obs pixels --info full --length 300 -n 0 >"$scratch/b" 2>>"$scratch/err"
[ $status -eq 0 ] && [ $? -eq 0 ] && [ -n "$(state_of "$scratch/a" 0)" ] &&
  tail -n 450 "$scratch/a" >"$scratch/a.tail" && tail -n 450 "$scratch/b" >"$scratch/b.tail" &&
  cmp -s "$scratch/a.tail" "$scratch/b.tail" &&
  [ "$(grep -c '"kind": "reset"' "$scratch/a.tail")" -ge 1 ]
ok $? "JSON lines: a loaded state plays on as the saver did, across an episode's end $(cat "$scratch/err")"
sed -n 2p "$scratch/b" | grep -q '^{"env": 0, "loaded": true, "done": false, "kind": "reset", "seed": 5,'
ok $? "the load is answered with the state's records, \"loaded\": true and \"done\" after \"env\""

# Several envs and players, goals, two threads (worlds made ahead): both
# envs saved, loaded into a session of another seed; the same records.
tasks=$top/data/tasks/crafter-tasks.yaml
actions 600 4 2 >"$scratch/acts4"
run4() { "$step" --envs 2 --players 2 --threads 2 --tasks "$tasks" --obs symbolic --info state \
  --length 150 "$@"; }
{ head -n 200 "$scratch/acts4"; echo "save 0"; echo "save 1"; tail -n 400 "$scratch/acts4"; } |
  run4 --seed 8 >"$scratch/a4" 2>"$scratch/err"
{ echo "load 1 $(state_of "$scratch/a4" 1)"; echo "load 0 $(state_of "$scratch/a4" 0)";
  tail -n 400 "$scratch/acts4"; } | run4 --seed 40 >"$scratch/b4" 2>>"$scratch/err"
tail -n 1600 "$scratch/a4" >"$scratch/a.tail"
tail -n 1600 "$scratch/b4" >"$scratch/b.tail"
cmp -s "$scratch/a.tail" "$scratch/b.tail" && [ "$(grep -c '"loaded": true' "$scratch/b4")" -eq 4 ] &&
  [ "$(grep -c '"reset"' "$scratch/a.tail")" -ge 4 ]
ok $? "two envs of two players with goals on two threads play on alike from their states $(cat "$scratch/err")"

# Refusals are answered and the session goes on.
{ echo 0; echo "load 0 $(state_of "$scratch/a" 0)"; echo 1; } |
  "$step" --area 48,48 -n 0 >"$scratch/out" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q '^{"env": 0, "loaded": false, "error": "the state was saved by an env of area 64x64; this env.s is 48x48"}$' "$scratch/out" &&
  [ "$(grep -c '"t": ' "$scratch/out")" -eq 2 ]
ok $? "a state of another area is refused with the reason, the session goes on: $(sed -n 2p "$scratch/out")"
damaged=$(state_of "$scratch/a" 0 | sed 's/^\(.\{400\}\)A/\1B/; t; s/^\(.\{400\}\)./\1A/')
{ echo "load 0 $damaged"; echo 1; } | "$step" --seed 5 --obs pixels --length 300 -n 0 >"$scratch/out"
[ $? -eq 0 ] && grep -q '"loaded": false, "error": "the saved state is damaged: its checksum does not match"' "$scratch/out"
ok $? "a damaged state is refused: $(grep loaded "$scratch/out")"
{ echo 0; echo "load 0 $(state_of "$scratch/a" 0)"; echo 1; } |
  "$step" --seed 5 --obs pixels --length 300 -n 0 --record "$scratch/rec.traj" >"$scratch/out"
[ $? -eq 0 ] && grep -q '"loaded": false, "error": "this env records its episodes: a recording cannot hold a jump in state"' "$scratch/out"
ok $? "--record refuses loads: $(grep loaded "$scratch/out")"

# Requests that cannot be read end the session, as bad actions do.
for request in "save" "save 2" "load 0" "load 0 !!!!" "load 0 QUJ"; do
  printf '%s\n' "$request" | "$step" --envs 2 >/dev/null 2>>"$scratch/bad"
  echo "$?" >>"$scratch/bad-status"
done
[ "$(sort -u "$scratch/bad-status")" = 1 ] && [ "$(wc -l <"$scratch/bad")" -eq 5 ] &&
  grep -q '^crafter-step: line 1: a save request names an env, 0..1: save E$' "$scratch/bad" &&
  grep -q '^crafter-step: line 1: a load request is "load E BASE64"' "$scratch/bad"
ok $? "a request that cannot be read ends the session with one line: $(tr '\n' ';' <"$scratch/bad")"

# Binary: 300 steps, a save request (252, env), 400 more; another session
# of another seed loads the state (251, env, length, bytes) and plays the
# 400: the same frames.
awk 'BEGIN { srand(4); for (i = 0; i < 700; i++) printf "%c", int(rand() * 17) }' >"$scratch/bin-acts"
head -c 300 "$scratch/bin-acts" >"$scratch/first"
tail -c 400 "$scratch/bin-acts" >"$scratch/rest"
{ cat "$scratch/first"; printf '\374'; le32 0; cat "$scratch/rest"; } |
  "$step" --binary --seed 6 --obs pixels --length 300 >"$scratch/a.bin"
frame=$(u32 "$scratch/a.bin" 44)
at=$((128 + 301 * frame))
size=$(u32 "$scratch/a.bin" $at)
slice "$scratch/a.bin" $((at + 4)) "$size" >"$scratch/state"
{ printf '\373'; le32 0; le32 "$size"; cat "$scratch/state" "$scratch/rest"; } |
  "$step" --binary --seed 77 --obs pixels --length 300 >"$scratch/b.bin" 2>"$scratch/err"
status=$?
tail -c $((400 * frame)) "$scratch/a.bin" >"$scratch/a.rest"
tail -c $((400 * frame)) "$scratch/b.bin" >"$scratch/b.rest"
[ $status -eq 0 ] && [ "$(bytes "$scratch/a.bin")" -eq $((at + 4 + size + 400 * frame)) ] &&
  [ "$(bytes "$scratch/b.bin")" -eq $((128 + frame + 8 + 401 * frame)) ] &&
  [ "$(u32 "$scratch/b.bin" $((128 + frame)))" -eq 0 ] &&
  [ "$(u32 "$scratch/b.bin" $((132 + frame)))" -eq 0 ] &&
  cmp -s "$scratch/a.rest" "$scratch/b.rest" && [ "$(head -c 8 "$scratch/state")" = CRAFTSTA ]
ok $? "binary: a state of $size bytes loaded by another session plays on as the saver ($(cat "$scratch/err"))"
obs=$(u32 "$scratch/a.bin" 120)
slice "$scratch/a.bin" $((128 + 300 * frame + obs)) 12288 >"$scratch/saved-obs"
slice "$scratch/b.bin" $((128 + frame + 8 + obs)) 12288 >"$scratch/loaded-obs"
cmp -s "$scratch/saved-obs" "$scratch/loaded-obs"
ok $? "the load's frame carries the saver's last observation"

# Several envs on two threads, with worlds made ahead: env 1's state
# loaded into env 0 of the same session, then both envs play the same.
awk 'BEGIN { srand(5); for (i = 0; i < 300; i++) { a = int(rand() * 17); printf "%c%c", a, a } }' >"$scratch/pairs"
{ head -c 100 "$scratch/pairs"; printf '\374'; le32 1; } |
  "$step" --binary --envs 2 --threads 2 --seed 3 --obs semantic --length 60 >"$scratch/c.bin"
frame=$(u32 "$scratch/c.bin" 44)
at=$((128 + 51 * frame))
size=$(u32 "$scratch/c.bin" $at)
slice "$scratch/c.bin" $((at + 4)) "$size" >"$scratch/state1"
{ head -c 100 "$scratch/pairs"; printf '\373'; le32 0; le32 "$size"; cat "$scratch/state1";
  tail -c 500 "$scratch/pairs"; } |
  "$step" --binary --envs 2 --threads 2 --seed 3 --obs semantic --length 60 >"$scratch/d.bin"
same=0
obs=$(u32 "$scratch/d.bin" 120)
for k in 0 1 2 100 250; do
  base=$((128 + 51 * frame + 8 + k * frame + obs))
  slice "$scratch/d.bin" "$base" 4096 >"$scratch/env0"
  slice "$scratch/d.bin" $((base + 4096)) 4096 >"$scratch/env1"
  cmp -s "$scratch/env0" "$scratch/env1" || same=1
done
[ $same -eq 0 ] && [ "$(bytes "$scratch/d.bin")" -eq $((128 + 51 * frame + 8 + 251 * frame)) ]
ok $? "two envs on two threads: env 0 loaded with env 1's state plays as env 1 across resets"

# A state whose episode had ended (--manual-reset, length 5): loaded with
# --manual-reset its frame says done; without, the next episode starts at
# once (reset 1, episode 2).
{ head -c 6 /dev/zero; printf '\374'; le32 0; } |
  "$step" --binary --manual-reset --length 5 --seed 2 >"$scratch/f.bin"
fframe=$(u32 "$scratch/f.bin" 44)
at=$((128 + 7 * fframe))
ended_size=$(u32 "$scratch/f.bin" $at)
slice "$scratch/f.bin" $((at + 4)) "$ended_size" >"$scratch/ended"
byte() { slice "$1" "$2" 1 | od -An -tu1 | tr -d ' '; }
for mode in --manual-reset --length=5; do
  { printf '\373'; le32 0; le32 "$ended_size"; cat "$scratch/ended"; } |
    "$step" --binary --length 5 $mode >"$scratch/g$mode.bin"
done
load=$((128 + fframe + 8))
done_at=$(u32 "$scratch/f.bin" $((76 + 4 * 2)))
reset_at=$(u32 "$scratch/f.bin" $((76 + 4 * 3)))
episode_at=$(u32 "$scratch/f.bin" $((76 + 4 * 5)))
step_at=$(u32 "$scratch/f.bin" $((76 + 4 * 6)))
g="$scratch/g--manual-reset.bin"
[ "$(byte "$g" $((load + done_at)))" = 1 ] && [ "$(byte "$g" $((load + reset_at)))" = 0 ] &&
  [ "$(u32 "$g" $((load + step_at)))" -eq 6 ] && [ "$(u32 "$g" $((load + episode_at)))" -eq 1 ]
ok $? "with --manual-reset, a state whose episode had ended loads as done (step 6 of episode 1)"
g="$scratch/g--length=5.bin"
[ "$(byte "$g" $((load + done_at)))" = 0 ] && [ "$(byte "$g" $((load + reset_at)))" = 1 ] &&
  [ "$(u32 "$g" $((load + step_at)))" -eq 0 ] && [ "$(u32 "$g" $((load + episode_at)))" -eq 2 ]
ok $? "without, its next episode starts at once (reset 1, step 0 of episode 2)"

# Two players, player 1 dead, player 0 alive (a duel on a small map:
# player 0 turns right and hits player 1 with players.damage 9 at step
# 2): loaded into a session of another seed, each player's done flag is
# its own, [0, 1], in both protocols; the binary frame's alive is [1, 0].
printf 'crafter-world 1\nmap\n.@@...\n......\n......\n' >"$scratch/duel.txt"
printf 'players:\n  damage: 9\n' >"$scratch/duel.yaml"
duel="--players 2 --world $scratch/duel.txt --config $scratch/duel.yaml"
{ printf '\002\000\005\000\374'; le32 0; } | "$step" --binary $duel >"$scratch/duel.bin"
dframe=$(u32 "$scratch/duel.bin" 44)
at=$(($(u32 "$scratch/duel.bin" 12) + 3 * dframe))
dsize=$(u32 "$scratch/duel.bin" $at)
slice "$scratch/duel.bin" $((at + 4)) "$dsize" >"$scratch/duel.state"
{ printf '\373'; le32 0; le32 "$dsize"; cat "$scratch/duel.state"; } |
  "$step" --binary --seed 9 $duel >"$scratch/duel2.bin" 2>"$scratch/err"
load=$(($(u32 "$scratch/duel2.bin" 12) + dframe + 8))
done_at=$((load + $(u32 "$scratch/duel2.bin" $((76 + 4 * 2)))))
alive_at=$((load + $(u32 "$scratch/duel2.bin" 136)))
flags="$(byte "$scratch/duel2.bin" $done_at)$(byte "$scratch/duel2.bin" $((done_at + 1)))"
alive="$(byte "$scratch/duel2.bin" $alive_at)$(byte "$scratch/duel2.bin" $((alive_at + 1)))"
[ "$(byte "$scratch/duel.bin" $(($(u32 "$scratch/duel.bin" 12) + 2 * dframe + $(u32 "$scratch/duel.bin" 84) + 1)))" = 1 ] &&
  [ "$(u32 "$scratch/duel2.bin" $((load - 8)))" -eq 0 ] && [ "$flags" = 01 ] && [ "$alive" = 10 ]
ok $? "binary: a state of two players, player 1 dead, loads with done [0, 1] and alive [1, 0] (done $flags, alive $alive) $(cat "$scratch/err")"
printf 'move_right noop\ndo noop\nsave 0\n' | "$step" $duel >"$scratch/duel.json"
echo "load 0 $(state_of "$scratch/duel.json" 0)" | "$step" --seed 9 $duel >"$scratch/duel2.json" 2>"$scratch/err"
grep -q '^{"env": 0, "player": 1, "t": 2, .*"done": true' "$scratch/duel.json" &&
  grep -q '^{"env": 0, "player": 0, "loaded": true, "done": false, ' "$scratch/duel2.json" &&
  grep -q '^{"env": 0, "player": 1, "loaded": true, "done": true, ' "$scratch/duel2.json"
ok $? "JSON lines: the same state's records say done false for player 0, true for player 1 $(cat "$scratch/err")"

# Binary refusals: status 1 and the reason, no frame, the session goes on.
{ printf '\373'; le32 0; le32 "$size"; cat "$scratch/state1"; printf '\000'; } |
  "$step" --binary --area 32,32 >"$scratch/e.bin" 2>"$scratch/err"
status=$?
frame=$(u32 "$scratch/e.bin" 44)
length=$(u32 "$scratch/e.bin" $((132 + frame)))
reason=$(slice "$scratch/e.bin" $((136 + frame)) "$length")
[ $status -eq 0 ] && [ "$(u32 "$scratch/e.bin" $((128 + frame)))" -eq 1 ] &&
  [ "$(bytes "$scratch/e.bin")" -eq $((136 + length + 2 * frame)) ] &&
  echo "$reason" | grep -q "area 64x64"
ok $? "binary: a state of another area: status 1, the reason, then the next step's frame: $reason"

{ printf '\374'; le32 3; } | "$step" --binary >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: a save request before step 1 names env 3 of 1$" "$scratch/err"
ok $? "binary: a save request naming no env ends the session: $(cat "$scratch/err")"
{ printf '\373'; le32 2; le32 "$size"; cat "$scratch/state1"; } |
  "$step" --binary --envs 2 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: a load request before step 1 names env 2 of 2$" "$scratch/err"
ok $? "binary: a load request naming env E of E envs ends the session: $(cat "$scratch/err")"
{ echo "load 2 $(state_of "$scratch/a4" 1)"; } | run4 --seed 8 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q '^crafter-step: line 1: a load request names an env, 0..1: load E BASE64$' "$scratch/err"
ok $? "JSON lines: a load request naming env E of E envs ends the session: $(cat "$scratch/err")"

# A state longer than any of the session's parameters (16 players'
# pictures of 128x128 into a session of 64x64, a megabyte of zeros) is
# read to its end and refused; the session goes on.
{ printf '\374'; le32 0; } | "$step" --binary --players 16 --obs pixels --size 128,128 >"$scratch/p16.bin"
at=$(u32 "$scratch/p16.bin" 12)
at=$((at + $(u32 "$scratch/p16.bin" 44)))
size16=$(u32 "$scratch/p16.bin" $at)
slice "$scratch/p16.bin" $((at + 4)) "$size16" >"$scratch/state16"
{ printf '\373'; le32 0; le32 "$size16"; cat "$scratch/state16"; head -c 16 /dev/zero;
  printf '\373'; le32 0; le32 1048576; head -c 1048576 /dev/zero; head -c 16 /dev/zero; } |
  "$step" --binary --players 16 --obs pixels >"$scratch/h.bin" 2>"$scratch/err"
status=$?
head_bytes=$(u32 "$scratch/h.bin" 12)
frame=$(u32 "$scratch/h.bin" 44)
first=$((head_bytes + frame))
length=$(u32 "$scratch/h.bin" $((first + 4)))
reason=$(slice "$scratch/h.bin" $((first + 8)) "$length")
second=$((first + 8 + length + frame))
length2=$(u32 "$scratch/h.bin" $((second + 4)))
reason2=$(slice "$scratch/h.bin" $((second + 8)) "$length2")
[ $status -eq 0 ] && [ "$(u32 "$scratch/h.bin" $first)" -eq 1 ] && [ "$(u32 "$scratch/h.bin" $second)" -eq 1 ] &&
  [ "$(bytes "$scratch/h.bin")" -eq $((second + 8 + length2 + frame)) ] &&
  echo "$reason" | grep -q "^a state of $size16 bytes, longer than one of these parameters can be (.* bytes): it was saved by an env of other parameters, or it is not a state$" &&
  echo "$reason2" | grep -q "^a state of 1048576 bytes, longer than"
ok $? "binary: a 16-player state of another size and a megabyte of zeros are refused, the session goes on ($(cat "$scratch/err")): $reason"
{ printf '\373'; le32 0; le32 4000000000; head -c 1000 /dev/zero; } | "$step" --binary >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: input ended in a load request before step 1: 1000 of the state's 4000000000 bytes$" "$scratch/err"
ok $? "binary: input ending inside a state too long to keep ends the session: $(cat "$scratch/err")"
{ printf 'save 0\n'; } | "$step" --players 16 --obs pixels --size 128,128 >"$scratch/p16.json"
{ echo "load 0 $(state_of "$scratch/p16.json" 0)"; echo "load 0 $(head -c 1048576 /dev/zero | base64 -w 0)";
  printf '0 %.0s' $(seq 16); echo; } |
  "$step" --players 16 --obs pixels >"$scratch/h.json" 2>"$scratch/err"
status=$?
refusal='"loaded": false, "error": "a state longer than one of these parameters can be ([0-9]* bytes, [0-9]* in base64): it was saved by an env of other parameters, or it is not a state"}$'
[ $status -eq 0 ] && [ "$(grep -c "^{\"env\": 0, $refusal" "$scratch/h.json")" -eq 2 ] &&
  [ "$(grep -c '"t": 1,' "$scratch/h.json")" -eq 16 ]
ok $? "JSON lines: the same states in base64 are refused, the session goes on ($(cat "$scratch/err")): $(sed -n 17p "$scratch/h.json")"
{ printf '\373'; le32 0; le32 "$size"; head -c 100 "$scratch/state1"; } | "$step" --binary >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: input ended in a load request before step 1: 100 of the state's $size bytes$" "$scratch/err"
ok $? "binary: input ending inside a state ends the session: $(cat "$scratch/err")"
{ printf '\373'; le32 0; } | "$step" --binary >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-step: input ended in a load request before step 1: 5 of 9 bytes$" "$scratch/err"
ok $? "binary: input ending inside a load request's head ends the session: $(cat "$scratch/err")"
finish
