#!/bin/sh
# crafter-play as a player uses it: options, the frame printed by --keys
# and --replay --no-wait, then the real thing in a terminal: a tmux pane
# (skipped without tmux) where keys move the player and collect wood, q
# gives the terminal back as it was, a recording is written, a replay
# plays it back, and signals and ^Z leave the terminal sane.
. "$(dirname "$0")/tap.sh"
play=$top/bin/crafter-play
dataset=$top/bin/crafter-dataset
plan 64

"$play" --help >"$scratch/help" 2>&1
[ $? -eq 0 ] && grep -q -- "--replay" "$scratch/help" && grep -q -- "--record" "$scratch/help" &&
  grep -q -- "--glyphs" "$scratch/help"
ok $? "--help exits 0 and lists the options"

"$play" --bogus >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "crafter-play: " "$scratch/err"
ok $? "an unknown option exits 2 with a message"

"$play" --seed 1 </dev/null >"$scratch/out" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "not a terminal" "$scratch/err" && [ ! -s "$scratch/out" ]
ok $? "without a terminal it refuses to start: $(head -1 "$scratch/err")"

"$play" --replay "$scratch/x" --seed 3 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "takes the seed" "$scratch/err"
ok $? "--replay with --seed is refused"

"$play" --fps 0 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid fps" "$scratch/err"
ok $? "--fps 0 is refused"
"$play" --fps 5 --keys a >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "fps" "$scratch/err"
ok $? "--fps with --keys is refused: $(cat "$scratch/err")"

"$play" --glyphs --colors 256 --keys q >/dev/null 2>"$scratch/err"
[ $? -eq 2 ]
ok $? "--glyphs with --colors is refused"

# Seed 1: the player starts at (32, 32) facing down; a turns left, four d
# walk right next to a tree, space takes wood (as crafter-step says).
"$play" --glyphs --seed 1 --keys 'a' >"$scratch/frame" 2>&1
grep -q '| \. \. \. \. @ \. \. \. \. |' "$scratch/frame" && grep -q "facing  left" "$scratch/frame" &&
  grep -q "^step 1\| step 1$" "$scratch/frame"
ok $? "--keys a: the player faces left after one step"

"$play" --glyphs --seed 1 --keys 'adddd ' --record "$scratch/keys.traj" >"$scratch/frame" 2>&1
grep -q "wood: 1" "$scratch/frame" && grep -q "collect_wood" "$scratch/frame" &&
  grep -q "reward 1.0" "$scratch/frame"
ok $? "--keys 'adddd ': a tree gives wood"
# A table takes 2 wood (data/crafter.yaml); the player starts with none.
"$play" --glyphs --seed 1 --keys 't' >"$scratch/frame" 2>&1
grep -q "^Cannot place a table: needs 2 wood (you have 0)\.$" "$scratch/frame"
ok $? "t without wood: the status line says what is missing"

"$dataset" list "$scratch/keys.traj" >"$scratch/list" 2>&1
awk -F'\t' 'NR == 2 && $5 == 6 && $7 == "cut" && $8 == "collect_wood" { found = 1 } END { exit !found }' \
  "$scratch/list"
ok $? "--record: crafter-dataset lists one episode of 6 steps, cut, with collect_wood"

"$play" --glyphs --replay "$scratch/keys.traj" --no-wait </dev/null >"$scratch/frame" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q "step 6 of 6" "$scratch/frame" && grep -q "wood: 1" "$scratch/frame"
ok $? "--replay --no-wait plays it back to step 6 with the wood"

# Into a pipe there is no terminal to read escapes: letters, no ESC byte,
# unless colour is asked for (below).
COLORTERM=truecolor TERM=xterm-256color "$play" --replay "$scratch/keys.traj" --no-wait 2>&1 |
  cat >"$scratch/frame"
! grep -q "$(printf '\033')" "$scratch/frame" && grep -q '@' "$scratch/frame"
ok $? "--no-wait into a pipe: no escape sequences, the glyph view"
COLORTERM=truecolor "$play" --seed 1 --keys 'a' 2>&1 | cat >"$scratch/frame"
! grep -q "$(printf '\033')" "$scratch/frame" && grep -q 'facing  left' "$scratch/frame"
ok $? "--keys into a pipe: no escape sequences either"
awk 'length($0) > 80 { wide = 1 } END { exit wide }' "$scratch/frame" && grep -q 'quit: q' "$scratch/frame"
ok $? "--keys into a pipe: the keys help wraps at 80 columns"

# A recording of crafter-step replays to the same end.
yes 'move_left
do
move_up
do
noop
move_right
do
sleep' | head -n 300 >"$scratch/actions"
"$top/bin/crafter-step" --seed 5 --episodes 1 --record "$scratch/step.traj" <"$scratch/actions" |
  tail -n 1 >"$scratch/last"
"$play" --glyphs --replay "$scratch/step.traj" --no-wait >"$scratch/frame" 2>"$scratch/err"
status=$?
"$dataset" list "$scratch/step.traj" | awk -F'\t' 'NR == 2 { print $5, $6 }' >"$scratch/expect"
read -r steps reward <"$scratch/expect"
[ $status -eq 0 ] && grep -q "step $steps of $steps" "$scratch/frame" &&
  grep -q "reward $(printf '%.1f' "$reward")" "$scratch/frame"
ok $? "a crafter-step recording replays to its end ($steps steps, reward $reward)"

"$play" --replay "$scratch/step.traj" --episode-index 3 --no-wait >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "index 3" "$scratch/err"
ok $? "an episode index out of range: $(cat "$scratch/err")"

"$top/bin/crafter-gen" --seed 2 --save "$scratch/world2.txt"
"$play" --glyphs --replay "$scratch/keys.traj" --world "$scratch/world2.txt" --no-wait \
  >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "differs from the recording" "$scratch/err"
ok $? "a replay on another world says where it differs"

"$play" --colors truecolor --seed 1 --keys '' >"$scratch/frame" 2>&1
grep -q "$(printf '\033')\[48;2;" "$scratch/frame" && grep -q "▀" "$scratch/frame"
ok $? "--colors truecolor: half blocks in 24-bit colour"
"$play" --colors 256 --seed 1 --keys '' >"$scratch/frame" 2>&1
grep -q "$(printf '\033')\[48;5;" "$scratch/frame" && ! grep -q "$(printf '\033')\[48;2;" "$scratch/frame"
ok $? "--colors 256: the palette only"

# ---- two players on one keyboard ----
"$play" --players 3 --keys q >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "expected 1 or 2" "$scratch/err"
ok $? "--players 3 is refused: $(head -1 "$scratch/err")"
"$play" --players 2 --record "$scratch/two.traj" --keys q >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "--record" "$scratch/err" && [ ! -e "$scratch/two.traj" ]
ok $? "--players 2 --record is refused: $(head -1 "$scratch/err")"
"$play" --players 2 --replay "$scratch/keys.traj" --no-wait >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q -- "--replay" "$scratch/err"
ok $? "--players 2 --replay is refused"

# A hand-drawn 64x64 world of grass: on row 32, lava at x 28, player 0 at
# x 31 and player 1 at x 33 (the two @ in reading order).
awk 'BEGIN { print "crafter-world 1"; print "size 64 64"; print "map";
  for (y = 0; y < 64; y++) { row = ""; for (x = 0; x < 64; x++)
    row = row (y == 32 && x == 28 ? "%" : y == 32 && (x == 31 || x == 33) ? "@" : ".");
    print row } }' >"$scratch/lava.txt"
"$play" --players 2 --world "$scratch/lava.txt" --keys '' >"$scratch/two0" 2>&1
grep -q '^| \. % \. \. @ \. 1 \. \. |  .*| \. \. 0 \. @ \. \. \. \. |$' "$scratch/two0" &&
  grep -q 'Player 0  seed 0  episode 1 .*Player 1  seed 0  episode 1$' "$scratch/two0"
ok $? "--players 2: both views side by side, each player @ in its own and the other its number"
# Player 1's left arrow: player 1 steps next to player 0, who stays put.
"$play" --players 2 --world "$scratch/lava.txt" --keys "$(printf '\033[D')" >"$scratch/two1" 2>&1
grep -q '^| \. % \. \. @ 1 \. \. \. |  .*| % \. \. 0 @ \. \. \. \. |$' "$scratch/two1" &&
  grep -q 'facing  down, grass .*facing  left, player 0$' "$scratch/two1" &&
  grep -q 'step 1 .*step 1$' "$scratch/two1"
ok $? "player 1's left arrow moves player 1, not player 0, in one step"
# Player 0's a and d: player 0 moves, player 1 does not; Enter is player
# 1's do (facing player 0 it hits, which takes nothing by default).
"$play" --players 2 --world "$scratch/lava.txt" --keys "$(printf 'ad\033[D\r')" >"$scratch/two2" 2>&1
grep -q 'facing  right, player 1 .*facing  left, player 0$' "$scratch/two2" &&
  grep -q 'step 4 .*step 4$' "$scratch/two2" &&
  grep -q '^| \. % \. \. @ 1 \. \. \. |' "$scratch/two2"
ok $? "w a s d are player 0's, the arrows and Enter player 1's, a step each"
"$play" --seed 1 --keys '' >"$scratch/one0" 2>&1
"$play" --players 2 --seed 1 --keys '' >"$scratch/two3" 2>&1
one=$(head -n 1 "$scratch/one0" | awk '{ print length($0) }')
two=$(head -n 1 "$scratch/two3" | awk '{ print length($0) }')
[ "$two" -ge $((one * 2)) ] && [ "$two" -le $((one * 5 / 2)) ] &&
  [ "$(grep -c '^+-------------------+ .*+-------------------+' "$scratch/two3")" -eq 2 ]
ok $? "the frame of two is about twice as wide as one's ($two and $one columns)"
grep -q '^player 0 (left): move w a s d' "$scratch/two3" && grep -q 'player 1 (right): move arrows' "$scratch/two3"
ok $? "the keys of both players are under the views"

# Player 0 walks into the lava (three a) and dies; its later keys do
# nothing; player 1 plays on with the arrows.
"$play" --players 2 --world "$scratch/lava.txt" --keys "$(printf 'aaaw\033[C\033[C')" >"$scratch/dead" 2>&1
grep -q '^|   player 0 died   |  .*| \. \. \. \. @ \. \. \. \. |$' "$scratch/dead" &&
  grep -q '^Player 0 died after 3 steps' "$scratch/dead"
ok $? "a death: player 0's half says it died, player 1's view goes on"
grep -q 'step 5 (died) .*step 5$' "$scratch/dead" && grep -q 'health   0 .*health   9' "$scratch/dead" &&
  grep -q 'facing  nothing .*facing  right, grass$' "$scratch/dead" &&
  ! grep -q 'Any key starts' "$scratch/dead"
ok $? "the dead player's w is no step, player 1's two arrows are; the episode goes on"
# The episode ends when both have: the time limit ends player 1's.
"$play" --players 2 --world "$scratch/lava.txt" --length 6 --keys "$(printf 'aaa\033[C\033[C\033[C\033[C')" >"$scratch/over" 2>&1
grep -q 'Player 0  seed 0  episode 2 .*Player 1  seed 0  episode 2$' "$scratch/over" &&
  grep -q 'step 0 .*step 0$' "$scratch/over" &&
  grep -q '^| \. % \. \. @ \. 1 \. \. |  .*| \. \. 0 \. @ \. \. \. \. |$' "$scratch/over"
ok $? "when both have ended the next key starts episode 2, both players back at the start"
"$play" --players 2 --world "$scratch/lava.txt" --length 6 --keys "$(printf 'aaa\033[C\033[C\033[C')" >"$scratch/over" 2>&1
grep -q 'step 6 (died) .*step 6 (time is up)$' "$scratch/over" &&
  grep -q 'Any key starts episode 2; q' "$scratch/over"
ok $? "after the time limit both halves say how to go on"

# ---- in a terminal ----
if ! command -v tmux >/dev/null 2>&1; then
  for i in $(seq 32); do skip "tmux is not installed"; done
  finish
fi
socket=$scratch/tmux.socket
unset TMUX
trap 'tmux -S "$socket" kill-server 2>/dev/null; rm -rf "$scratch"' EXIT
t() { tmux -S "$socket" "$@"; }
screen() { t capture-pane -p -t "${pane:-play}" >"$scratch/screen" 2>/dev/null; }
# wait_for REGEX: polls the pane for up to 5 seconds.
wait_for() {
  tries=0
  while [ $tries -lt 100 ]; do
    screen
    grep -q -- "$1" "$scratch/screen" && return 0
    sleep 0.05
    tries=$((tries + 1))
  done
  diag <"$scratch/screen"
  return 1
}
pane() { t display-message -p -t play "$1"; }
type_line() { t send-keys -t play -l "$1" && t send-keys -t play Enter; }

if command -v bash >/dev/null 2>&1; then shell="bash --norc --noprofile"; else shell=sh; fi
cd "$top" || exit 1
t -f /dev/null new-session -d -s play -x 120 -y 40 "env PS1='$ ' $shell"
type_line "stty -g >'$scratch/before'; bin/crafter-play --glyphs --seed 1 --record '$scratch/played.traj'; echo \"exit \$?\"; stty -g >'$scratch/after'"

wait_for '^| \. \. \. \. @ \. \. \. T |'
ok $? "the map shows with the player @ in the middle"
[ "$(pane '#{alternate_on}#{cursor_flag}')" = 10 ]
ok $? "on the alternate screen, the cursor hidden"

t send-keys -t play a
wait_for 'facing  left'
ok $? "a turns the player left"
grep -q 'step 1$' "$scratch/screen"
ok $? "one key, one step"

t send-keys -t play d d d d
wait_for 'step 5$'
ok $? "four d are four steps"
t send-keys -t play Space
wait_for 'wood: 1'
ok $? "space on the tree gives wood"
grep -q 'collect_wood' "$scratch/screen" && grep -q 'reward 1.0' "$scratch/screen"
ok $? "the achievement and the reward are shown"
t send-keys -t play Left
wait_for 'step 7$'
ok $? "the left arrow moves too"

t send-keys -t play q
wait_for '^exit 0$'
ok $? "q quits with status 0"
[ "$(pane '#{alternate_on}#{cursor_flag}')" = 01 ]
ok $? "the normal screen is back, with the cursor"
tries=0
while [ ! -s "$scratch/after" ] && [ $tries -lt 100 ]; do sleep 0.05; tries=$((tries + 1)); done
cmp -s "$scratch/before" "$scratch/after"
ok $? "the terminal modes are restored (stty -g before and after)"

"$dataset" list "$scratch/played.traj" >"$scratch/list" 2>&1
awk -F'\t' 'NR == 2 && $5 == 7 && $8 == "collect_wood" { found = 1 } END { exit !found }' "$scratch/list"
ok $? "--record: crafter-dataset lists the 7 steps played"

# The replay plays by itself, then waits at the end.
type_line "clear; bin/crafter-play --glyphs --replay '$scratch/played.traj' --speed 50; echo \"exit \$?\""
wait_for 'step 7 of 7, at the end'
ok $? "--replay plays the recording to the last step"
grep -q 'wood: 1' "$scratch/screen"
ok $? "with the wood of the recording"
t send-keys -t play ',' ',' ','
wait_for 'step 4 of 7, paused'
ok $? ", steps back and pauses"
t send-keys -t play '.'
wait_for 'step 5 of 7, paused'
ok $? ". steps forward"
t send-keys -t play q
wait_for '^exit 0$'
ok $? "q leaves the replay"

# Real time: one key, then frames without a key go on as noops.
type_line "clear; bin/crafter-play --glyphs --seed 1 --fps 20 --record '$scratch/realtime.traj'; echo \"exit \$?\""
wait_for 'real time, 20 steps/s'
t send-keys -t play a
wait_for 'facing  left'
ok $? "--fps: the next frame takes the key"
wait_for 'step [1-9][0-9] (real time'
ok $? "--fps: steps go on with no key pressed"
t send-keys -t play q
wait_for '^exit 0$'
length=$("$dataset" list "$scratch/realtime.traj" | awk -F'\t' 'NR == 2 { print $5 }')
[ "${length:-0}" -ge 10 ]
ok $? "--fps --record: $length steps from one key, so all but one are noops"
"$play" --glyphs --replay "$scratch/realtime.traj" --no-wait >"$scratch/frame" 2>"$scratch/err"
[ $? -eq 0 ] && grep -q "step $length of $length" "$scratch/frame" &&
  grep -q "facing  left" "$scratch/frame"
ok $? "the real-time recording replays as played"

# An 80x24 terminal that has 24-bit colour: colour would not fit, so
# letters; the panel and the status line are all there.
t new-session -d -s small -x 80 -y 24 \
  "env COLORTERM=truecolor TERM=xterm-256color bin/crafter-play --seed 1; sleep 600"
pane=small
wait_for '^+-------------------+'
ok $? "80x24: the view in letters, not blurred colour"
t send-keys -t small t
wait_for '^Cannot place a table: needs 2 wood (you have 0)\.'
ok $? "80x24: the status line says why t did nothing"
grep -q 'inventory  (empty)' "$scratch/screen" &&
  grep -q 'health   9 #########' "$scratch/screen" &&
  grep -q 'achievements 0 of 22' "$scratch/screen" &&
  grep -q 'quit: q' "$scratch/screen"
ok $? "80x24: the inventory, vitals, achievements and keys"
# -J joins a line the terminal wrapped: one wider than 80 columns shows.
t capture-pane -p -J -t small | awk 'length($0) > 80 { wide = 1 } END { exit wide }'
ok $? "80x24: no line wider than the terminal"
t send-keys -t small q
t kill-session -t small
pane=play

# Two players in a 160-column terminal: the arrows and Enter are player
# 1's, w a s d player 0's, each a step.
t new-session -d -s two -x 160 -y 40 \
  "bin/crafter-play --glyphs --players 2 --world '$scratch/lava.txt'; sleep 600"
pane=two
wait_for 'Player 0  seed 0  episode 1 .*Player 1  seed 0  episode 1'
t send-keys -t two Left
wait_for 'facing  down, grass .*facing  left, player 0'
ok $? "two players in a terminal: the left arrow turns player 1 to player 0"
t send-keys -t two Enter d
wait_for 'step 3 .*step 3$' && grep -q 'facing  right, player 1 .*facing  left, player 0' "$scratch/screen" &&
  t capture-pane -p -J -t two | awk 'length($0) > 160 { wide = 1 } END { exit wide }'
ok $? "Enter and d are a step each; no line wider than the terminal"
t send-keys -t two q
t kill-session -t two
pane=play

# SIGTERM: the terminal is given back and the episode so far is stored.
type_line "clear; sh -c 'echo \$\$ >\"$scratch/pid\"; exec bin/crafter-play --glyphs --seed 1 --record \"$scratch/killed.traj\"'; echo \"exit \$?\"; stty -g >'$scratch/after-kill'"
wait_for '^| \. \. \. \. @'
t send-keys -t play d d
wait_for 'step 2$'
kill -TERM "$(cat "$scratch/pid")"
wait_for '^exit 143$'
ok $? "SIGTERM ends it as SIGTERM does (status 143)"
tries=0
while [ ! -s "$scratch/after-kill" ] && [ $tries -lt 100 ]; do sleep 0.05; tries=$((tries + 1)); done
[ "$(pane '#{alternate_on}#{cursor_flag}')" = 01 ] && cmp -s "$scratch/before" "$scratch/after-kill"
ok $? "after SIGTERM the screen, cursor and modes are restored"
"$dataset" list "$scratch/killed.traj" 2>&1 | awk -F'\t' 'NR == 2 && $5 == 2 && $7 == "cut" { found = 1 } END { exit !found }'
ok $? "the 2 steps played before SIGTERM are in the recording"

# ^Z and fg, with a shell that has job control.
if [ "$shell" = sh ]; then
  skip "no bash for job control"
  skip "no bash for job control"
else
  type_line "clear; bin/crafter-play --glyphs --seed 1"
  wait_for '^| \. \. \. \. @'
  t send-keys -t play s
  wait_for 'step 1$'
  t send-keys -t play C-z
  wait_for 'Stopped'
  status=$?
  [ $status -eq 0 ] && [ "$(pane '#{alternate_on}#{cursor_flag}')" = 01 ]
  ok $? "^Z gives the terminal back to the shell"
  type_line "fg"
  wait_for 'step 1$'
  status=$?
  t send-keys -t play q
  wait_for '^\$ *$'
  [ $status -eq 0 ] && [ "$(pane '#{alternate_on}')" = 0 ]
  ok $? "fg brings the game back where it was; q quits"
fi
finish
