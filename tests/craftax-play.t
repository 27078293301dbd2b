#!/bin/sh
# crafter-play --game craftax-classic: frames of letters after the keys of
# --keys, checked against crafter-step (the same actions give the same
# step, position and vitals) and crafter-gen (the view is the map around
# that position); an episode that ends starts the next, as Craftax's
# auto-reset does; Crafter's options are refused.
. "$(dirname "$0")/tap.sh"
play=$top/bin/crafter-play
step=$top/bin/crafter-step
gen=$top/bin/crafter-gen
plan 9

keys='dddwwaaas'
"$play" --game craftax-classic -s 5 --keys "$keys" >"$scratch/frame"
ok $? "a frame after the keys $keys"
printf 'move_right\nmove_right\nmove_right\nmove_up\nmove_up\nmove_left\nmove_left\nmove_left\nmove_down\n' |
  "$step" --game craftax-classic -s 5 --info state | tail -n 1 >"$scratch/state"
pos=$(sed 's/.*"pos": \[\([0-9]*\), \([0-9]*\)\].*/\1 \2/' "$scratch/state")
x=${pos% *} y=${pos#* }
grep -q "step 9\$" "$scratch/frame"
ok $? "the frame is of step 9 (crafter-step's player at $x,$y)"
health=$(sed 's/.*"health": \([0-9]*\),.*/\1/' "$scratch/state")
food=$(sed 's/.*"food": \([0-9]*\),.*/\1/' "$scratch/state")
grep -q "health *$health " "$scratch/frame" && grep -q "food *$food " "$scratch/frame"
ok $? "health $health and food $food as crafter-step says"
# The view: rows y-3..y+3 and columns x-4..x+4 of crafter-gen's map (the
# world is unchanged by moves), the player's cell drawn '@'.
"$gen" --game craftax-classic -s 5 | head -n 64 | sed "s/@/./" >"$scratch/map"
awk -v x="$x" -v y="$y" 'NR >= y - 2 && NR <= y + 4 {
  line = ""; for (c = x - 3; c <= x + 5; c++) line = line (c >= 1 && c <= 64 ? substr($0, c, 1) : " ") " "
  print line }' "$scratch/map" | sed '4s/^\(........\)./\1@/' >"$scratch/want"
sed -n '2,8p' "$scratch/frame" | cut -c3-20 >"$scratch/got"
sed 's/ $//' "$scratch/want" >"$scratch/want.trim"
sed 's/ $//' "$scratch/got" >"$scratch/got.trim"
cmp -s "$scratch/want.trim" "$scratch/got.trim"
ok $? "the view is the map around the player"
paste "$scratch/want.trim" "$scratch/got.trim" | diag

# Noops until the episode ends (food and drink run out, then health).
"$play" --game craftax-classic --keys "$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "." }')" >"$scratch/frame"
grep -q "episode 2\$" "$scratch/frame"
ok $? "300 waits: the episode ends (step 242) and episode 2 is played"

for options in "--replay x.traj" "--fps 10" "--players 2" "--record x.traj"; do
  # shellcheck disable=SC2086
  "$play" --game craftax-classic $options --keys . >/dev/null 2>"$scratch/err"
  [ $? -eq 2 ] && grep -q -- "${options%% *}" "$scratch/err"
  ok $? "$options is refused: $(head -n 1 "$scratch/err" | cut -c1-80)"
done
finish
