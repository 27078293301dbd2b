#!/bin/sh
# crafter-dataset with Craftax-Classic (crafter-games(7), crafter-trajectory(5)
# version 5): the random agent's episodes end where JAX's do, the file does
# not depend on the threads and its shards merge into it, verify and verify
# --resimulate pass, and a difference planted in a chunk's world key or in
# a stored action is found by --resimulate alone; list, info and the
# exports; a file of one game refused where the other is wanted, naming
# both; frames and video draw an episode's states as
# Craftax-Classic-Pixels-v1 does (the renderer's pictures, with the
# built-in textures or Craftax's); what Craftax-Classic cannot do refused.
. "$(dirname "$0")/tap.sh"
dataset=$top/bin/crafter-dataset
plan 31

cc() { "$dataset" "$@"; }
record() { "$dataset" record -q --game craftax-classic "$@"; }

# 12 episodes on 3 envs (seeds 0, 1, 2), symbolic observations, 2 threads.
record -n 12 -N 3 -T 2 --obs symbolic -o "$scratch/all.traj"
ok $? "12 episodes of 3 envs with symbolic observations are recorded"

# The steps at which JAX's episodes of seeds 0, 1 and 2 end, with the
# random agent's actions (element n of randint(split(PRNGKey(S), 3)[2],
# (3000,), 0, 17)) in Craftax's seed schedule: craftax 1.6.1 on jax 0.10.1,
# tests/reference/craftax_episodes.py --record 50 3000 (the first four ends
# of each seed).
cc list "$scratch/all.traj" >"$scratch/list"
ends=$(awk -F '\t' 'NR > 1 { sum[$2] += $6; printf "%s:%d ", $2, sum[$2] }' "$scratch/list")
[ "$ends" = "0:191 0:302 0:371 0:460 1:37 1:319 1:432 1:523 2:140 2:278 2:375 2:581 " ]
ok $? "the episodes end at the steps where JAX's do (seed:step): $ends"
head -1 "$scratch/list" | grep -q "^index	seed	episode	world_key	schedule_key	length	reward	end	unlocked$" &&
  awk -F '\t' 'function key(k) { return length(k) == 17 && k ~ /^[0-9a-f]+:[0-9a-f]+$/ }
    NR > 1 && !(key($4) && key($5)) { bad = 1 } END { exit bad }' "$scratch/list"
ok $? "list gives each episode's world key and schedule key"
awk -F '\t' 'NR > 1 && $3 != int(($1 % 4)) + 1 { bad = 1 } END { exit bad }' "$scratch/list"
ok $? "each env's episodes are numbered from 1, the envs one after the other"

record -n 12 -N 3 -T 1 --obs symbolic -o "$scratch/one.traj"
cmp -s "$scratch/all.traj" "$scratch/one.traj"
ok $? "the same bytes with one thread"
for k in 1 2 3; do record -n 12 -N 3 --obs symbolic --shard $k/3 -o "$scratch/shard$k.traj"; done
cc merge -o "$scratch/merged.traj" "$scratch/shard3.traj" "$scratch/shard1.traj" "$scratch/shard2.traj" &&
  cmp -s "$scratch/merged.traj" "$scratch/all.traj"
ok $? "the three shards (an env each) merge into the file recorded at once"
[ "$(cc list "$scratch/shard2.traj" | cut -f2 | tail -n +2 | sort -u)" = 1 ]
ok $? "shard 2/3 holds env 1's episodes (seed 1)"

cc verify "$scratch/all.traj" >"$scratch/out"
ok $? "verify: $(tail -1 "$scratch/out")"
cc verify --resimulate "$scratch/all.traj" >"$scratch/out"
status=$?
[ $status -eq 0 ] && ! grep -q note "$scratch/out"
ok $? "verify --resimulate replays every episode from its keys: $(tail -1 "$scratch/out")"

# Planted differences.  A chunk header's world key, its checksum made right:
# the checksums and steps are whole, the replay is another world.
perl -e '
  use Compress::Zlib; local $/; open my $f, "<", $ARGV[0] or die; binmode $f; my $d = <$f>;
  my $c = 128;                                    # the first chunk
  substr($d, $c + 40, 4) = pack("V", unpack("V", substr($d, $c + 40, 4)) ^ 1);
  substr($d, $c + 252, 4) = pack("V", crc32(substr($d, $c, 252)));
  open my $o, ">", $ARGV[1] or die; binmode $o; print $o $d;
' "$scratch/all.traj" "$scratch/world.traj"
cc verify "$scratch/world.traj" >"$scratch/out"
ok $? "a world key changed: verify passes (the checksums hold)"
cc verify --resimulate "$scratch/world.traj" >"$scratch/out"
[ $? -eq 1 ] && grep -q "episode 0 (seed 0, episode 1): step 0: the observation differs" "$scratch/out"
ok $? "verify --resimulate fails on it: $(head -1 "$scratch/out")"

# An action of episode 1 (step 3), the steps compressed again, the chunk's
# sizes and checksums, the offsets after it, the index and trailer
# written anew: a file whose every check holds, but not the replay.
perl -e '
  use Compress::Zlib; local $/; open my $f, "<", $ARGV[0] or die; binmode $f; my $d = <$f>;
  my ($episode, $step) = (1, 3); my $obs = 1345 * 4;
  my ($c, $out, @offsets) = (128, substr($d, 0, 128));
  for (my $i = 0; substr($d, $c, 4) eq "EPSD"; $i++) {
    my $head = substr($d, $c, 256); my $p = unpack("Q<", substr($head, 8, 8));
    my $payload = substr($d, $c + 256, $p);
    if ($i == $episode) {
      my $raw = uncompress($payload); my $at = $obs + ($step - 1) * (16 + $obs);
      my $action = ord(substr($raw, $at, 1)); substr($raw, $at, 1) = chr($action == 1 ? 2 : 1);
      $payload = compress($raw); substr($head, 8, 8) = pack("Q<", length $payload);
      substr($head, 248, 4) = pack("V", crc32($payload));
      substr($head, 252, 4) = pack("V", crc32(substr($head, 0, 252)));
    }
    push @offsets, length $out; $out .= $head . $payload; $c += 256 + $p;
  }
  my $entries = join("", map { pack("Q<", $_) } @offsets); my $index_at = length $out;
  my $index = "INDX" . pack("V", 32) . pack("Q<", scalar @offsets) . pack("Q<", length $entries)
    . pack("V", crc32($entries));
  $out .= $index . pack("V", crc32($index)) . $entries;
  my $trailer = "CRAFTEND" . pack("Q<", $index_at) . pack("Q<", scalar @offsets) . pack("V", 0);
  $out .= $trailer . pack("V", crc32($trailer));
  open my $o, ">", $ARGV[1] or die; binmode $o; print $o $out;
' "$scratch/all.traj" "$scratch/action.traj"
cc verify "$scratch/action.traj" >"$scratch/out" && grep -q ": 12 episodes, 1564 steps: ok" "$scratch/out"
ok $? "an action changed: verify passes (its 12 episodes and 1564 steps are whole)"
cc verify --resimulate "$scratch/action.traj" >"$scratch/out"
[ $? -eq 1 ] && grep -q "episode 1 (seed 0, episode 2): step 3: " "$scratch/out" &&
  [ "$(grep -c "episode" "$scratch/out")" -ge 2 ]
ok $? "verify --resimulate fails on it at step 3: $(head -1 "$scratch/out")"
grep -q "note: episode 2 (seed 0, episode 3) does not start where the episode before it ended" \
  "$scratch/out"
[ $? -ne 0 ] && grep -q "episode 1 (seed 0, episode 2)" "$scratch/out"
ok $? "the episode after it is not noted: the failed replay gives no end to hold it to"

# Episodes of two plays: a chunk of seed 0's episode 2 from another
# recording (first episode 2, so its episode 2 is a fresh world).
record -n 1 -e 2 -o "$scratch/other.traj"
record -n 3 -o "$scratch/three.traj"
cc list "$scratch/other.traj" | tail -1 | cut -f3 | grep -qx 2
ok $? "--first-episode numbers the first episode"
cc merge -o "$scratch/plays.traj" "$scratch/three.traj" "$scratch/other.traj" &&
  cc verify --resimulate "$scratch/plays.traj" >"$scratch/out" &&
  [ "$(grep -c "does not start where the episode before it ended" "$scratch/out")" -eq 1 ]
ok $? "episodes of two plays merged: each replays, and the one that does not follow the episode before is noted: $(grep note "$scratch/out")"

cc info "$scratch/all.traj" >"$scratch/info"
grep -q "^format        crafter-trajectory version 5" "$scratch/info" &&
  grep -q "^game          Craftax-Classic (craftax 1.6.1" "$scratch/info" &&
  grep -q "^observations  symbolic" "$scratch/info" &&
  grep -q "^return % max  " "$scratch/info" && ! grep -q "^area" "$scratch/info"
ok $? "info names the game and gives the return as a percentage of the maximum"
awk -F '\t' 'NR > 1 { sum += $7; n++ } END { printf "%.2f\n", 100 * sum / n / 22 }' \
  "$scratch/list" >"$scratch/percent"
grep -q "^return % max  $(cat "$scratch/percent") " "$scratch/info"
ok $? "that percentage is 100 x the mean of list's returns / 22: $(cat "$scratch/percent")"

cc export --format stats "$scratch/all.traj" >"$scratch/stats.jsonl"
[ "$(wc -l <"$scratch/stats.jsonl")" -eq 12 ] &&
  head -1 "$scratch/stats.jsonl" | grep -q '^{"length": 191, "reward": 3.1, "achievement_collect_coal": 0'
ok $? "export --format stats: a line an episode, Crafter's keys"
cc export --format npz -o "$scratch/npz" "$scratch/all.traj" >"$scratch/names"
[ "$(wc -l <"$scratch/names")" -eq 12 ] && [ -f "$scratch/npz/s0-e1-ach4-len191.npz" ]
ok $? "export --format npz: a file an episode, named as Crafter's"
record -n 4 -o "$scratch/bare.traj"
cc export --format npz -o "$scratch/npz-bare" "$scratch/bare.traj" >/dev/null
if command -v python3 >/dev/null 2>&1 && python3 -c 'import numpy' 2>/dev/null; then
  python3 - "$scratch/npz/s0-e1-ach4-len191.npz" "$scratch/npz-bare/s0-e1-ach4-len191.npz" \
    <<'EOF' >"$scratch/py" 2>&1
import sys
import numpy as np
stored, replayed = np.load(sys.argv[1]), np.load(sys.argv[2])
assert "image" not in stored and "semantic" not in stored, list(stored.keys())
assert stored["symbolic"].shape == (192, 1345) and stored["symbolic"].dtype == np.float32
assert all((stored[k] == replayed[k]).all() for k in stored.keys()), "stored and replayed differ"
assert stored["done"][-1] and not stored["done"][:-1].any()
assert stored["ainventory_health"][-1] == 0 and stored["symbolic"][-1][1323 + 12] == 0
assert stored["discount"][-1] == 0 and stored["achievement_wake_up"][-1] == 1
print("ok")
EOF
  grep -qx ok "$scratch/py"
  ok $? "the arrays: symbolic (192, 1345) float32, the stored ones those a replay makes; the last row the state the episode ended in"
  diag <"$scratch/py"
else
  skip "python3 with numpy is not installed"
fi

# A file of one game where the other is wanted.
"$dataset" record -q -n 2 -o "$scratch/crafter.traj"
cc verify --game craftax-classic "$scratch/crafter.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "crafter.traj: a trajectory of crafter (format version 1), not of craftax-classic" "$scratch/err"
ok $? "a Crafter file is refused where Craftax-Classic's is wanted: $(cat "$scratch/err")"
cc list --game crafter "$scratch/all.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "all.traj: a trajectory of craftax-classic (format version 5), not of crafter" "$scratch/err"
ok $? "a Craftax-Classic file is refused where Crafter's is wanted: $(cat "$scratch/err")"
"$top/bin/crafter-play" --replay "$scratch/all.traj" --no-wait >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "a trajectory of craftax-classic (format version 5), not of crafter" "$scratch/err"
ok $? "crafter-play --replay, Crafter's, refuses it: $(cat "$scratch/err")"
cc merge -o "$scratch/mixed.traj" "$scratch/all.traj" "$scratch/crafter.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "holds episodes of craftax-classic and .*crafter.traj of crafter; only recordings of one game merge" "$scratch/err" &&
  [ ! -e "$scratch/mixed.traj" ]
ok $? "files of two games do not merge: $(cat "$scratch/err")"

# frames: episode 0 is seed 0's first (191 steps), replayed from its keys;
# each picture is the renderer's pixel observation of the state, times
# 255 rounded (tests/unit/test-cc-render --picture, whose random episode
# has the random agent's actions).
render=$top/tests/unit/test-cc-render
cc frames -S 0,100,190 -o "$scratch/frames" "$scratch/all.traj" >"$scratch/names"
status=$?
for step in 0 100 190; do
  name=$(printf 'episode-0-step-%05d.png' $step)
  "$render" --picture builtin $step 0 "$scratch/want.png" &&
    cmp -s "$scratch/want.png" "$scratch/frames/$name" || status=1
done
"$render" --picture builtin 99 0 "$scratch/want.png" &&
  ! cmp -s "$scratch/want.png" "$scratch/frames/episode-0-step-00100.png" || status=1
[ "$(wc -l <"$scratch/names")" -eq 3 ] || status=1
ok $status "frames draws the states of an episode as the renderer does (steps 0, 100, 190, built-in textures; step 99's differs)"
assets=$(craftax_assets)
if [ -z "$assets" ]; then
  skip "no installed craftax package (CRAFTAX_ASSETS): frames with Craftax's textures were NOT checked"
else
  cc frames -S 150 -t "$assets" -o "$scratch/craftax" "$scratch/all.traj" >/dev/null &&
    "$render" --picture "$assets" 150 0 "$scratch/want.png" &&
    cmp -s "$scratch/want.png" "$scratch/craftax/episode-0-step-00150.png" &&
    ! cmp -s "$scratch/craftax/episode-0-step-00150.png" "$scratch/frames/episode-0-step-00100.png"
  ok $? "frames -t with Craftax's assets folder draws Craftax's pictures (step 150)"
fi
cc video -E 1 -S 0-40 --size 126,126 -o "$scratch/episode.gif" "$scratch/all.traj" &&
  [ "$(head -c 6 "$scratch/episode.gif")" = GIF89a ] &&
  [ "$(od -An -tu2 -j6 -N4 "$scratch/episode.gif" | tr -s ' ')" = " 126 126" ]
ok $? "video makes a GIF of 126x126 pictures of episode 1"
cc frames -E 40 -o "$scratch/none" "$scratch/all.traj" 2>"$scratch/err"
lacking=$?
cc frames -t "$top/data/textures" -o "$scratch/none" "$scratch/all.traj" 2>>"$scratch/err"
crafters=$?
[ $lacking -eq 1 ] && [ $crafters -eq 1 ] && grep -q "has no episode 40" "$scratch/err" &&
  grep -q "textures: .*debug_tile.png" "$scratch/err"
ok $? "frames refuses an episode the file lacks and a folder that is not Craftax's assets"

# What Craftax-Classic cannot do.
refused=""
for options in "--agent scripted" "--steps 10" "--obs pixels" "--obs semantic" "--area 9,9" \
               "--players 2" "--tasks x.yaml"; do
  # shellcheck disable=SC2086
  record $options -o "$scratch/x.traj" 2>"$scratch/err"
  status=$?
  first=${options%% *}
  if [ $status -ne 2 ] || [ -e "$scratch/x.traj" ] ||
     ! grep -q -e "$first" -e "${options##* }" "$scratch/err"; then
    refused="$refused [$options: $status $(head -n 1 "$scratch/err")]"
  fi
done
[ -z "$refused" ]
ok $? "record refuses Crafter's agent, options and observation kinds with status 2"
[ -n "$refused" ] && echo "$refused" | diag
"$dataset" record -q -N 2 -o "$scratch/x.traj" 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "envs is Craftax-Classic's" "$scratch/err"
ok $? "--envs is refused for Crafter: $(head -1 "$scratch/err")"
finish
