#!/bin/sh
# crafter-step's protocols with several players, field by field: a world
# restarts only when every player's episode has ended (player 0 dying
# first restarts nothing); a render request draws the view of the player
# it names; JSON lines name the env and the player on every record, one
# env or several; with players.reward shared a dead player gets nothing,
# also once the world's episode is over and the env plays on
# (--manual-reset); the messages count actions in the right number.
# And crafter-bench says how many starts found their world made ahead by
# the helper threads.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
plan 9

# Binary output, read by crafter-protocol(5): header size at 12, frame
# size at 44, section offsets at 76 + 4 k (k: 0 reward, 1 discount, 2
# done, 3 reset, 4 unlocked, 5 episode, 6 step, 7 inventory, 9
# position, 11 obs) and, after the 128 bytes, the alive section's at 136.
u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
u8() { od -An -tu1 -j"$2" -N1 "$1" | tr -d ' '; }
f64() { od -An -tf8 -j"$2" -N8 "$1" | tr -d ' '; }
# section FILE FRAME K: where section K of frame FRAME (from 0) starts in FILE
# (K alive: the alive section); frames follow the header back to back.
section() {
  case $3 in
    alive) offset=$(u32 "$1" 136) ;;
    *) offset=$(u32 "$1" $((76 + 4 * $3))) ;;
  esac
  echo $(($(u32 "$1" 12) + $2 * $(u32 "$1" 44) + offset))
}
# field FILE FRAME K AGENT: agent AGENT's value in section K (reward as a
# double, unlocked, episode and step as uint32, done, reset and alive as
# bytes; position: x).
field() {
  at=$(section "$1" "$2" "$3")
  case $3 in
    0) f64 "$1" $((at + 8 * $4)) ;;
    4 | 5 | 6) u32 "$1" $((at + 4 * $4)) ;;
    9) u32 "$1" $((at + 16 * $4)) ;;
    *) u8 "$1" $((at + $4)) ;;
  esac
}
# slice FILE OFFSET COUNT: COUNT bytes from OFFSET.
slice() { tail -c +$(($2 + 1)) "$1" | head -c "$3"; }

# A duel on a small map: player 0 at (1, 0), player 1 at (2, 0) with
# free cells to its right.  Player 1 turns left and hits player 0 with
# players.damage 9: player 0 dies at step 2.  Player 1 plays on (moves
# right twice): the world's episode goes on, the same episode, no reset,
# player 1 alive and not done, its steps counted and its moves made.
printf 'crafter-world 1\nmap\n.@@...\n......\n......\n' >"$scratch/duel.txt"
printf 'players:\n  damage: 9\n' >"$scratch/duel.yaml"
duel="--players 2 --world $scratch/duel.txt --config $scratch/duel.yaml"
# noop/move_left, noop/do, noop/move_right, noop/move_right, noop/noop
printf '\000\001\000\005\000\002\000\002\000\000' | "$step" --binary $duel >"$scratch/duel" 2>"$scratch/err"
status=$?
problems=""
[ $status -eq 0 ] || problems="$problems status $status;"
[ "$(field "$scratch/duel" 2 2 0)$(field "$scratch/duel" 2 alive 0)" = 10 ] ||
  problems="$problems player 0 not dead at step 2;"
for frame in 1 2 3 4 5; do
  for agent in 0 1; do
    [ "$(field "$scratch/duel" $frame 5 $agent)" = 1 ] || problems="$problems frame $frame agent $agent: episode $(field "$scratch/duel" $frame 5 $agent);"
    [ "$(field "$scratch/duel" $frame 3 $agent)" = 0 ] || problems="$problems frame $frame agent $agent: reset;"
  done
  [ "$(field "$scratch/duel" $frame 6 1)" = $frame ] || problems="$problems frame $frame: step $(field "$scratch/duel" $frame 6 1);"
  [ "$(field "$scratch/duel" $frame 2 1)$(field "$scratch/duel" $frame alive 1)" = 01 ] ||
    problems="$problems frame $frame: player 1 done or not alive;"
done
[ "$(field "$scratch/duel" 5 9 1)" = 4 ] || problems="$problems player 1 at x $(field "$scratch/duel" 5 9 1), not 4;"
[ -z "$problems" ] || echo "$problems" | diag
[ -z "$problems" ]
ok $? "binary: player 1 kills player 0 and plays on in the same episode (no restart on player 0's end)"

# The same duel in JSON lines: no reset record after the first two, and
# player 1's records go on not done.
printf 'noop move_left\nnoop do\nnoop move_right\nnoop move_right\n' |
  "$step" $duel --info state >"$scratch/duel.json"
[ "$(grep -c '"reset"' "$scratch/duel.json")" -eq 2 ] &&
  grep -q '"player": 0, "t": 2, .*"done": true, "discount": 0.0' "$scratch/duel.json" &&
  grep -q '"player": 1, "t": 4, .*"done": false.*"pos": \[4, 0\]' "$scratch/duel.json"
ok $? "JSON lines: the same, player 1 at (4, 0) at step 4 in the first episode"

# Render requests (253, agent, width, height) draw the named player's
# view: by day (daylight.length 0: no night noise) a render at the
# observation's size is that player's observation, byte for byte.  Asked
# for player 1, then player 0, before any step; then for player 1 again
# after a step in which player 1 moved down.
printf 'daylight:\n  length: 0\n' >"$scratch/day.yaml"
request() { # AGENT: a render request of 64x64 pixels for AGENT
  printf '\375'
  printf "\\$(printf %03o "$1")\\000\\000\\000\\100\\000\\000\\000\\100\\000\\000\\000"
}
{ request 1; request 0; printf '\000\004'; request 1; } |
  "$step" --binary --players 2 --obs pixels --config "$scratch/day.yaml" >"$scratch/render" 2>"$scratch/err"
status=$?
header=$(u32 "$scratch/render" 12)
frame=$(u32 "$scratch/render" 44)
obs=$((header + $(u32 "$scratch/render" 120)))
view=12288
slice "$scratch/render" $obs $view >"$scratch/obs0"
slice "$scratch/render" $((obs + view)) $view >"$scratch/obs1"
slice "$scratch/render" $((header + frame)) $view >"$scratch/render1"
slice "$scratch/render" $((header + frame + view)) $view >"$scratch/render0"
# After the two requests' pixels comes frame 1, then the third request's.
later=$((header + frame + 2 * view))
slice "$scratch/render" $((later + obs - header + view)) $view >"$scratch/obs1.later"
slice "$scratch/render" $((later + frame)) $view >"$scratch/render1.later"
[ $status -eq 0 ] && [ "$(wc -c <"$scratch/render")" -eq $((header + 2 * frame + 3 * view)) ] &&
  cmp -s "$scratch/render1" "$scratch/obs1" && cmp -s "$scratch/render0" "$scratch/obs0" &&
  ! cmp -s "$scratch/obs0" "$scratch/obs1" &&
  cmp -s "$scratch/render1.later" "$scratch/obs1.later" &&
  ! cmp -s "$scratch/obs1" "$scratch/obs1.later"
ok $? "a render request for player 1 draws player 1's view (its observation by day), also after it moved"

# JSON lines with several players: every record names "env" and
# "player", with one env as with several, whatever the records hold.
printf '0 0\n5 3\n' >"$scratch/two"
printf '0 0 0 0\n5 3 1 2\n' >"$scratch/four"
problems=""
for info in short state full; do
  for obs in none text; do
    "$step" --players 2 --info $info --obs $obs <"$scratch/two" >"$scratch/one-env"
    "$step" --players 2 --envs 2 --info $info --obs $obs <"$scratch/four" >"$scratch/two-envs"
    [ "$(wc -l <"$scratch/one-env")" -eq 6 ] &&
      [ "$(grep -c '^{"env": 0, "player": [01], ' "$scratch/one-env")" -eq 6 ] &&
      [ "$(wc -l <"$scratch/two-envs")" -eq 12 ] &&
      [ "$(grep -c '^{"env": [01], "player": [01], ' "$scratch/two-envs")" -eq 12 ] ||
      problems="$problems $info/$obs"
  done
done
[ -z "$problems" ]
ok $? "JSON lines: \"env\" and \"player\" on every record, one env or two${problems:+ (not:$problems)}"

# players.reward shared: the sum of the running players' rewards goes to
# each of them, never to a dead one.  Player 1 kills player 0 at step 2
# (both were running: both get the -0.9), turns to the tree below it and
# collects wood (step 4, its first: 1 for player 1, 0 for dead player 0);
# the time limit of 4 steps ends the world's episode there; with
# --manual-reset it plays on, and player 1 turns to the water and drinks
# (step 6, its first drink: 1 for player 1, still 0 for player 0, now
# that no recording of its episode hides what the game gives it).
printf 'crafter-world 1\nmap\n.@@~..\n..T...\n......\n' >"$scratch/shared.txt"
printf 'players:\n  damage: 9\n  reward: shared\n' >"$scratch/shared.yaml"
# noop/move_left, noop/do, noop/move_down, noop/do, noop/move_right, noop/do
printf '\000\001\000\005\000\004\000\005\000\002\000\005' |
  "$step" --binary --manual-reset --players 2 --length 4 --world "$scratch/shared.txt" \
    --config "$scratch/shared.yaml" >"$scratch/shared" 2>"$scratch/err"
status=$?
rewards=""
for frame in 2 4 6; do
  rewards="$rewards $(field "$scratch/shared" $frame 0 0)/$(field "$scratch/shared" $frame 0 1)"
done
dones="$(field "$scratch/shared" 4 2 0)$(field "$scratch/shared" 4 2 1)$(field "$scratch/shared" 6 2 1)"
episode="$(field "$scratch/shared" 6 5 0)$(field "$scratch/shared" 6 3 0)"
[ $status -eq 0 ] && [ "$rewards" = " -0.9/-0.9 0/1 0/1" ] && [ "$dones" = 111 ] && [ "$episode" = 10 ]
ok $? "shared reward: dead player 0 gets 0 while player 1 collects, before and after the world's end (player 0/1 at steps 2, 4, 6:$rewards)"

# A goal's own step limit (a task's steps) ends only its player's
# episode, at that many steps of the world: done with discount 1 (a
# truncation); the player then stays where it stands, idle, while the
# other, whose goal has no limit, plays on.  With seed 2 player 0 draws
# the goal without a limit and player 1 the one of 3 steps.
# (steps 0: the environment's limit only)
{
  echo 'tasks:'
  for goal in 'fast 3' 'slow 0'; do
    set -- $goal
    printf '  - {id: diamond.%s, family: achievements, check: {unlock: [collect_diamond]},\n' "$1"
    printf '     instruction: "Find a diamond.", paraphrases: [a, b, c, d, e],\n'
    printf '     difficulty: hard, split: train, steps: %s}\n' "$2"
  done
} >"$scratch/limit.yaml"
printf 'noop noop\nnoop noop\nnoop noop\nmove_right move_down\nmove_right move_down\n' |
  "$step" --players 2 --seed 2 --tasks "$scratch/limit.yaml" --info state >"$scratch/limit"
grep -q '"player": 0, "reset": 1, .*"task": "diamond.slow"' "$scratch/limit" &&
  grep -q '"player": 1, "reset": 1, .*"task": "diamond.fast"' "$scratch/limit" &&
  grep -q '"player": 1, "t": 3, "reward": 0.0, "done": true, "discount": 1.0, .*"pos": \[31, 32\]' "$scratch/limit" &&
  grep -q '"player": 1, "t": 5, .*"done": true, .*"pos": \[31, 32\]' "$scratch/limit" &&
  grep -q '"player": 0, "t": 5, .*"done": false, .*"pos": \[34, 32\]' "$scratch/limit" &&
  [ "$(grep -c '"reset"' "$scratch/limit")" -eq 2 ]
ok $? "a goal's step limit ends its player's episode alone (truncated); the player stays idle"

# Messages count actions in the right number.
printf '0 0\n' | "$step" >/dev/null 2>"$scratch/err"
one=$?
printf '0\n' | "$step" --envs 2 >/dev/null 2>"$scratch/err2"
two=$?
[ $one -eq 1 ] && grep -q 'line 1: expected 1 action, one per env, got more$' "$scratch/err" &&
  [ $two -eq 1 ] && grep -q 'line 1: expected 2 actions, one per env, got fewer$' "$scratch/err2"
ok $? "expected 1 action, expected 2 actions: $(cat "$scratch/err")"
printf '0 0 0\n' | "$step" --players 2 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q 'line 1: expected 2 actions, one per player of each env, got more$' "$scratch/err"
ok $? "with players: $(cat "$scratch/err")"

# crafter-bench --format json counts the episodes started and those that
# started on a world a helper thread made ahead: none with one thread;
# with two, some, and never more than all but each env's first (that
# every one of those does, when the helpers have made the worlds in time,
# is tests/unit/test-batch.c's).
json_int() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$2"; }
for threads in 1 2; do
  "$top/bin/crafter-bench" --envs 2 --threads $threads --obs pixels --length 100 --steps 20000 \
    --repeats 1 --format json >"$scratch/bench$threads" 2>&1
done
starts1=$(json_int starts "$scratch/bench1")
prepared1=$(json_int prepared_starts "$scratch/bench1")
starts2=$(json_int starts "$scratch/bench2")
prepared2=$(json_int prepared_starts "$scratch/bench2")
[ "${starts1:-0}" -gt 200 ] && [ "$prepared1" = 0 ] && [ "$starts2" = "$starts1" ] &&
  [ "${prepared2:-0}" -gt 0 ] && [ "$prepared2" -le $((starts2 - 2)) ]
ok $? "crafter-bench: $prepared2 of $starts2 starts on a prepared world with 2 threads, $prepared1 of $starts1 with 1"
finish
