#!/bin/sh
# Several players in one world (crafter-step --players): random play of 2,
# 4 and 16 players over many short episodes gives the same records and
# frames on 1 and 2 threads and in a second run; the observation kind
# asked for never changes the game (every view draws its night noise
# whether or not it is looked at); one player is Crafter's game exactly;
# goals and level sets work per player; what cannot work is refused.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
bench=$top/bin/crafter-bench
dataset=$top/bin/crafter-dataset
tasks=$top/data/tasks/crafter-tasks.yaml
plan 19

# lines N COUNT SEED: COUNT lines of N random actions.
lines() {
  awk -v n="$1" -v count="$2" -v seed="$3" 'BEGIN { srand(seed); for (i = 0; i < count; i++) {
    line = ""; for (k = 0; k < n; k++) line = line (k ? " " : "") int(rand() * 17); print line } }'
}
# bytes COUNT SEED: COUNT random action bytes.
bytes() {
  awk -v count="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < count; i++) printf "%c", int(rand() * 17) }'
}

for players in 2 4 16; do
  count=500
  [ $players -gt 4 ] && count=320
  lines $((3 * players)) $count $players >"$scratch/lines"
  bytes $((3 * players * count)) $players >"$scratch/bytes"
  runs="1 2"
  [ $players -eq 2 ] && runs="1 2 2"
  text_obs=symbolic
  [ $players -gt 4 ] && text_obs=none
  for t in $runs; do
    "$step" --players $players --envs 3 --seed 7 --length 150 --obs $text_obs --info state \
      --threads $t <"$scratch/lines" >"$scratch/text$t.$players" 2>"$scratch/err"
    echo $? >>"$scratch/status"
    obs=pixels
    [ $players -gt 4 ] && obs=semantic
    "$step" --binary --players $players --envs 3 --seed 7 --length 150 --obs $obs \
      --threads $t <"$scratch/bytes" >"$scratch/binary$t.$players" 2>>"$scratch/err"
    echo $? >>"$scratch/status"
    # The second run on 2 threads must equal the first.
    cmp -s "$scratch/text$t.$players" "$scratch/text2.$players" || echo "text differs: $t" >>"$scratch/err"
    cmp -s "$scratch/binary$t.$players" "$scratch/binary2.$players" || echo "binary differs: $t" >>"$scratch/err"
  done
  episodes=$(grep -c '"reset": ' "$scratch/text1.$players")
  cmp -s "$scratch/text1.$players" "$scratch/text2.$players" &&
    cmp -s "$scratch/binary1.$players" "$scratch/binary2.$players" &&
    [ "$(sort -u "$scratch/status")" = 0 ] && [ ! -s "$scratch/err" ] &&
    [ "$episodes" -ge $((3 * players * 3)) ]
  status=$?
  diag <"$scratch/err"
  ok $status "$players players, 3 envs, $((episodes / players)) episodes: the same records and frames on 1 and 2 threads$([ $players -eq 2 ] && echo ' and again')"
  : >"$scratch/status"
done

# Every player of every env has its record, in env then player order.
awk -F'"player": ' 'NR <= 48 { split($2, a, ","); printf "%s ", a[1] }' "$scratch/text1.16" >"$scratch/order"
expected=$(awk 'BEGIN { for (e = 0; e < 3; e++) for (p = 0; p < 16; p++) printf "%d ", p }')
[ "$(cat "$scratch/order")" = "$expected" ] && grep -q '"env": 2, "player": 15, "reset": 1' "$scratch/text1.16"
ok $? "a record per player of each env, env by env"

# The observation kind changes nothing in the game: the state records of
# two players over 600 steps (two nights) agree for none, pixels,
# semantic and text once the observation is taken out.
lines 2 600 3 | sed 's/[0-9][0-9]*/0/2' >"$scratch/lines2" # player 1 idles, player 0 plays
for obs in none pixels semantic text; do
  "$step" --players 2 --seed 3 --obs $obs --info state <"$scratch/lines2" |
    sed 's/, "obs": .*}$/}/' >"$scratch/state.$obs"
done
nights=$(grep -c '"player": 0, "t": .*"daylight": 0\.[0-3]' "$scratch/state.none")
cmp -s "$scratch/state.none" "$scratch/state.pixels" &&
  cmp -s "$scratch/state.none" "$scratch/state.semantic" &&
  cmp -s "$scratch/state.none" "$scratch/state.text" && [ "$nights" -gt 50 ]
ok $? "the game is the same whatever observation is asked for ($nights night steps)"

# One player is Crafter: --players 1 gives the records of no --players.
lines 1 400 5 >"$scratch/lines1"
"$step" --seed 2 --info full --obs semantic <"$scratch/lines1" >"$scratch/plain"
"$step" --seed 2 --info full --obs semantic --players 1 <"$scratch/lines1" >"$scratch/one"
cmp -s "$scratch/plain" "$scratch/one" && ! grep -q '"player"' "$scratch/one"
ok $? "--players 1 is the one-player game, record for record"

# Goals per player: each player's record names its own goal, drawn from
# the env's seed, the episode and the player.
printf '0 0 0 0\n' | "$step" --players 4 --tasks "$tasks" --seed 1 >"$scratch/goals"
count=$(grep -c '"task"' "$scratch/goals")
distinct=$(sed -n 's/.*"task": "\([^"]*\)".*/\1/p' "$scratch/goals" | sort -u | wc -l)
[ "$count" -eq 8 ] && [ "$distinct" -ge 2 ]
ok $? "goals per player: $distinct different goals among 4 players"

# A level set: every player's episode starts on the set's level.
printf '0 0\n0 0\n' | "$step" --players 2 --levels 3 --info state >"$scratch/levels"
[ "$(grep -c '"level": ' "$scratch/levels")" -eq 6 ] &&
  [ "$(grep -c '"player": 1, "reset": 1' "$scratch/levels")" -eq 1 ]
ok $? "a level set with two players"

# Other players are marked: player 1 starts one cell left of player 0, so
# player 0's symbolic observation has 1408 values with a single 1 among
# the last 63, at row 3, column 3 of the window (value 1345 + 30), and its
# semantic map has 19 at (31, 32).
printf '0 0\n' | "$step" --players 2 --obs symbolic | head -n 1 |
  sed 's/.*"obs": \[\([^]]*\)\].*/\1/' |
  awk -F', ' '{ s = 0; for (i = 1346; i <= NF; i++) s += $i; exit !(NF == 1408 && s == 1 && $1376 == 1) }'
symbolic=$?
printf '0 0\n' | "$step" --players 2 --obs semantic --info state | head -n 1 | grep -q '"pos": \[32, 32\]'
[ $symbolic -eq 0 ] && [ $? -eq 0 ]
ok $? "other players are marked in the symbolic window (63 more values) and stand where expected"

# The binary header of several players: flag 64, N counts players, the
# extension gives players, envs and the alive section's offset.
printf '' | "$step" --binary --players 3 --envs 2 >"$scratch/header" 2>/dev/null
od -A n -t u4 -j 12 -N 8 "$scratch/header" | tr -s ' ' >"$scratch/fields"
od -A n -t u4 -j 68 -N 4 "$scratch/header" | tr -s ' ' >>"$scratch/fields"
od -A n -t u4 -j 128 -N 8 "$scratch/header" | tr -s ' ' >>"$scratch/fields"
[ "$(tr '\n' ' ' <"$scratch/fields" | tr -s ' ')" = " 144 6 65 3 2 " ]
ok $? "binary header: size 144, N 6, flags 65, 3 players, 2 envs ($(tr '\n' ' ' <"$scratch/fields"))"

# Refused: more than 16 players, final observations with several.
"$step" --players 17 </dev/null >/dev/null 2>"$scratch/e1"
s1=$?
"$step" --binary --players 2 --final-obs </dev/null >/dev/null 2>"$scratch/e2"
s2=$?
[ $s1 -eq 2 ] && grep -q "invalid number of players '17'" "$scratch/e1" && [ $s2 -eq 2 ] &&
  grep -q "several players" "$scratch/e2"
ok $? "--players 17 and --final-obs with several players are refused"

# Recording games of several players: a chunk per player's episode (format
# version 4), the same file on 1 and 2 threads, re-simulated together, and
# scored per player.
lines 6 500 9 >"$scratch/rec-lines"
for t in 1 2; do
  "$step" --players 3 --envs 2 --seed 4 --length 120 --obs symbolic --threads $t \
    --tasks "$tasks" --record "$scratch/rec$t.traj" <"$scratch/rec-lines" >/dev/null
done
cmp -s "$scratch/rec1.traj" "$scratch/rec2.traj"
ok $? "a recording of 3 players is the same file on 1 and 2 threads"
"$dataset" verify --resimulate "$scratch/rec1.traj" >"$scratch/verify" 2>&1
verified=$?
"$dataset" info "$scratch/rec1.traj" >"$scratch/info"
"$dataset" list "$scratch/rec1.traj" >"$scratch/list"
[ $verified -eq 0 ] && grep -q "re-simulated: ok" "$scratch/verify" &&
  grep -q "^format .*version 4" "$scratch/info" && grep -q "^players       3" "$scratch/info" &&
  [ "$(awk -F'\t' 'NR > 1 { print $NF }' "$scratch/list" | sort -u | tr '\n' ' ')" = "0 1 2 " ]
ok $? "it re-simulates with every player's goal and lists each player's episodes"
for t in 1 2; do
  "$dataset" record -q --players 2 --agent scripted -n 4 --steps 300 --threads $t --obs semantic \
    --tasks "$tasks" -o "$scratch/agents$t.traj"
done
cmp -s "$scratch/agents1.traj" "$scratch/agents2.traj" &&
  "$dataset" verify --resimulate "$scratch/agents1.traj" >/dev/null &&
  [ "$("$dataset" list "$scratch/agents1.traj" | wc -l)" -eq 9 ]
ok $? "crafter-dataset record --players 2: scripted agents, the same file on 1 and 2 threads, re-simulated"
"$top/bin/crafter-score" "$scratch/rec1.traj" >"$scratch/score"
head -n 1 "$scratch/score" | grep -q "external player 0 *external player 1 *external player 2"
ok $? "crafter-score scores each player apart"

# crafter-gen --players shows the start cells, and a saved world starts
# the same players: player 0 at (32, 32) for seed 0, the others at
# distance 1 by x then y (31,32), (32,31), (32,33).
"$top/bin/crafter-gen" --players 4 --save "$scratch/four.txt"
printf '0 0 0 0\n' | "$step" --players 4 --info state >"$scratch/generated"
printf '0 0 0 0\n' | "$step" --players 4 --info state --world "$scratch/four.txt" >"$scratch/saved"
[ "$(grep -c '@' "$scratch/four.txt")" -eq 4 ] &&
  grep -q '"player": 1, "reset": 1.*"pos": \[31, 32\]' "$scratch/generated" &&
  grep -q '"player": 3, "reset": 1.*"pos": \[32, 33\]' "$scratch/generated" &&
  [ "$(grep -o '"pos": [^]]*]' "$scratch/generated")" = "$(grep -o '"pos": [^]]*]' "$scratch/saved")" ]
ok $? "crafter-gen --players 4 saves the start cells an episode of 4 players starts on"

# Damage between players only when configured: player 0 turns to player
# 1 and hits; with players.damage 9 the hit kills (a kill counted, player 1
# done with discount 0, player 0 playing on); without, nothing happens.
printf 'crafter-world 1\nmap\n.@@..\n.....\n.....\n' >"$scratch/duel.txt"
printf 'players:\n  damage: 9\n' >"$scratch/duel.yaml"
printf 'move_right noop\ndo noop\nnoop noop\n' |
  "$step" --players 2 --world "$scratch/duel.txt" --config "$scratch/duel.yaml" --info state \
  >"$scratch/duel"
printf 'move_right noop\ndo noop\n' |
  "$step" --players 2 --world "$scratch/duel.txt" --info state >"$scratch/peace"
grep -q '"player": 0, "t": 2, .*"kills": 1' "$scratch/duel" &&
  grep -q '"player": 1, "t": 2, "reward": -0.9, "done": true, "discount": 0.0' "$scratch/duel" &&
  grep -q '"player": 1, "t": 3, .*"pos": null' "$scratch/duel" &&
  grep -q '"player": 0, "t": 3, .*"done": false' "$scratch/duel" &&
  grep -q '"player": 1, "t": 2, .*"health": 9' "$scratch/peace"
ok $? "a hit takes players.damage health and counts a kill; by default it does nothing"

# crafter-bench --players: world steps and player steps.
"$bench" --players 4 --steps 2000 --repeats 1 --format json >"$scratch/bench" 2>&1
grep -q '"players": 4' "$scratch/bench" &&
  awk -F'"sps": |, "resets' '{ sps = $2 } END { exit !(sps > 0) }' "$scratch/bench"
ok $? "crafter-bench --players 4 measures"

# A render request names an entry of the frame (an env's player): one
# past the last is refused by its number and the frame's entries.
render_entry6='\375\006\000\000\000\132\000\000\000\074\000\000\000'
printf "$render_entry6" | "$step" --binary --envs 3 --players 2 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && [ "$(cat "$scratch/err")" = "crafter-step: a render request before step 1 names entry 6, but a frame has 6 (0 to 5: 3 envs of 2 players)" ]
ok $? "a render request past the last entry says how many entries a frame has"
finish
