#!/bin/sh
# crafter-play --game craftax: the frame after the keys of --keys is the
# text observation (crafter-step --game craftax --obs text) of the state
# the same actions reach, under a line of the seed, episode and reward;
# each of Craftax's keys plays its action (the keys of Craftax's own
# player, as the frame lists them); refused options say why.
. "$(dirname "$0")/tap.sh"
play=$top/bin/crafter-play
step=$top/bin/crafter-step
plan 5

# frame_text KEYS SEED: the text part of the frame.
frame_text() {
  "$play" --game craftax -s "$2" --keys "$1" | sed -n '2,/^Books:/p'
}
# step_text SEED ACTIONS...: the last text observation crafter-step gives.
step_text() {
  seed=$1
  shift
  for a in "$@"; do echo "$a"; done |
    "$step" --game craftax -s "$seed" -O text -n 0 | tail -n 1 |
    python3 -c 'import json, sys; sys.stdout.write(json.loads(sys.stdin.read())["obs"])'
}

if ! command -v python3 >/dev/null 2>&1; then
  skip "python3 is not installed: frames were NOT compared with crafter-step's text"
  skip "python3 is not installed"
  skip "python3 is not installed"
else
  frame_text 'dddd  aa wwww ' 3 >"$scratch/frame"
  step_text 3 2 2 2 2 5 5 1 1 5 3 3 3 3 5 >"$scratch/text"
  cmp -s "$scratch/frame" "$scratch/text"
  ok $? "the frame after 14 keys is crafter-step's text observation after the 14 actions" ||
    diff "$scratch/frame" "$scratch/text" | diag
  # Every key of Craftax's, one after the other, against the actions 1..42.
  keys=$(printf 'adws \trtfp123567e><48yuioghjzxcvbnmkl[]-=;')
  frame_text "$keys" 5 >"$scratch/frame"
  step_text 5 $(seq 1 42) >"$scratch/text"
  cmp -s "$scratch/frame" "$scratch/text"
  ok $? "Craftax's 42 keys play actions 1 to 42" || diff "$scratch/frame" "$scratch/text" | diag
  # A long play: 300 random keys of the 43, the text the steps' own.
  awk 'BEGIN { srand(7); for (i = 0; i < 300; i++) print int(rand() * 43) }' >"$scratch/actions"
  keys=$(awk 'BEGIN { k = ".adws \trtfp123567e><48yuioghjzxcvbnmkl[]-=;" }
    { printf "%s", substr(k, $1 + 1, 1) }' "$scratch/actions")
  frame_text "$keys" 11 >"$scratch/frame"
  step_text 11 $(cat "$scratch/actions") >"$scratch/text"
  cmp -s "$scratch/frame" "$scratch/text"
  ok $? "300 random keys: the frame is the text after the 300 actions" ||
    diff "$scratch/frame" "$scratch/text" | diag
fi
"$play" --game craftax --keys . >"$scratch/frame"
grep -q '^Craftax  seed 0  episode 1  reward 0$' "$scratch/frame" &&
  grep -q 'ladders: > down, < up' "$scratch/frame" && grep -q 'achievements 0 of 67' "$scratch/frame"
ok $? "the frame names the game, seed and episode, counts the 67 achievements and lists the keys"
"$play" --game craftax --replay x.traj --keys a >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "Craftax-Classic and Craftax are played one step per key" "$scratch/err"
ok $? "Crafter's own options are refused with --game craftax"
finish
