#!/bin/sh
# Trajectory files of several players (crafter-trajectory(5), version 4):
# a world episode is a chunk per player, and every reader takes whole
# world episodes only.  Level sets number a world's chunks alike, so such
# files verify; a world missing a chunk is damage to verify, info, list
# and crafter-score alike, and merge repairs by dropping it whole; the
# replay plays every player's actions; export npz, frames and video work
# per player; a configuration is kept with the players; crafter-score
# gives each player's column that player's episodes only.  On a level
# set, chunks of two plays of a level never join into one world, and
# every play and every player draws actions of its own.
. "$(dirname "$0")/tap.sh"
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
play=$top/bin/crafter-play
plan 21

# bytes COUNT SEED: COUNT random action bytes.
bytes() {
  awk -v count="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < count; i++) printf "%c", int(rand() * 17) }'
}
# chunks FILE: "offset player" of each episode chunk, walked from the
# header (and the tables after it) on.
chunks() {
  perl -e 'local $/; my $d = <STDIN>;
    my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
    while (substr($d, $at, 4) eq "EPSD") {
      print "$at ", unpack("V", substr($d, $at + 236, 4)) - 1, "\n";
      $at += 256 + unpack("Q<", substr($d, $at + 8, 8));
    }' <"$1"
}

# 1-2. On a level set every chunk of a world carries the world's place,
# so the players' chunks are found together.
"$dataset" record -q -o "$scratch/levels.traj" -n 4 --steps 10 --area 16,16 --players 2 \
  --levels 3
"$dataset" verify --resimulate "$scratch/levels.traj" >"$scratch/out" 2>&1
ok $? "record --players 2 --levels 3 verifies: $(tail -n 1 "$scratch/out")"
bytes 200 1 | "$step" --binary --players 2 --levels 3 --area 16,16 --length 10 \
  --record "$scratch/step-levels.traj" >/dev/null
"$dataset" verify --resimulate "$scratch/step-levels.traj" >"$scratch/out" 2>&1
ok $? "crafter-step --binary --players 2 --levels 3 --record verifies: $(tail -n 1 "$scratch/out")"

# 3-4. Player 1's chunks alone, every action changed and every
# observation zeroed, their checksums made right: no world episode is
# whole, so there is nothing to verify or score, and every reader says so.
"$dataset" record -q -o "$scratch/two.traj" -n 3 --steps 50 --players 2 --seed 3 --obs semantic
perl -MCompress::Zlib -e '
  local $/; my $d = <STDIN>; my $obs = unpack("V", substr($d, 20, 4));
  my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
  my $out = substr($d, 0, $at);
  while (substr($d, $at, 4) eq "EPSD") {
    my $p = unpack("Q<", substr($d, $at + 8, 8)); my $head = substr($d, $at, 256);
    my $steps = uncompress(substr($d, $at + 256, $p));
    if (unpack("V", substr($head, 236, 4)) == 2) {
      substr($steps, 0, $obs) = "\0" x $obs;
      for (my $s = $obs; $s < length $steps; $s += 16 + $obs) {
        substr($steps, $s, 1) = chr((ord(substr($steps, $s, 1)) + 1) % 17);
        substr($steps, $s + 16, $obs) = "\0" x $obs;
      }
      my $packed = compress($steps);
      substr($head, 8, 8) = pack("Q<", length $packed);
      substr($head, 248, 4) = pack("V", crc32($packed));
      substr($head, 252, 4) = pack("V", crc32(substr($head, 0, 252)));
      $out .= $head . $packed;
    }
    $at += 256 + $p;
  }
  print $out' <"$scratch/two.traj" >"$scratch/only1.traj"
[ "$(chunks "$scratch/only1.traj" | awk '{ print $2 }' | sort -u)" = 1 ]
found=$?
"$dataset" verify --resimulate "$scratch/only1.traj" >"$scratch/verify" 2>&1
verified=$?
"$dataset" list "$scratch/only1.traj" >"$scratch/list" 2>"$scratch/notes"
"$dataset" info "$scratch/only1.traj" >"$scratch/info"
"$score" "$scratch/only1.traj" >"$scratch/score" 2>"$scratch/score-notes"
[ $found -eq 0 ] && [ $verified -eq 1 ] &&
  grep -q "player 0's chunk of the world episode of seed 3, episode 1 is missing" "$scratch/verify" &&
  grep -q "FAILED" "$scratch/verify" &&
  [ "$(wc -l <"$scratch/list")" -eq 1 ] && grep -q "lack a player's chunk" "$scratch/notes" &&
  grep -q "^damage .*3 world episodes lack a player's chunk" "$scratch/info" &&
  ! grep -q "^damage  *none" "$scratch/info" &&
  grep -q "lack a player's chunk" "$scratch/score-notes" &&
  grep -q "^episodes  *0  *0$" "$scratch/score"
status=$?
diag <"$scratch/verify"
ok $status "player 1's chunks alone, actions changed: verify fails, list, info and crafter-score see no episode and say why"
# The same damage in a real recording: one chunk of world 0 taken out.
chunks "$scratch/two.traj" >"$scratch/offsets"
cut=$(awk 'NR == 2 { print $1 } NR == 3 { print $1 }' "$scratch/offsets" | tr '\n' ' ')
perl -e 'local $/; my $d = <STDIN>; my ($from, $to) = @ARGV;
  print substr($d, 0, $from), substr($d, $to)' $cut <"$scratch/two.traj" >"$scratch/cut.traj"
"$dataset" list "$scratch/two.traj" | tail -n +4 | cut -f 1 --complement >"$scratch/whole-list"
"$dataset" list "$scratch/cut.traj" 2>"$scratch/notes" | tail -n +2 | cut -f 1 --complement \
  >"$scratch/cut-list"
"$dataset" verify "$scratch/cut.traj" >/dev/null 2>&1
[ $? -eq 1 ] && cmp -s "$scratch/whole-list" "$scratch/cut-list" &&
  grep -q "player 1's chunk of the world episode of seed 3, episode 1 is missing" "$scratch/notes"
ok $? "a world without player 1's chunk is left out whole and reported"

# 5-7. The documented repair: a byte of player 1's chunk of the first
# world damaged; merge keeps the whole worlds only, says what it dropped,
# and the result verifies.
at=$(awk 'NR == 2 { print $1 + 300 }' "$scratch/offsets")
perl -e 'local $/; my $d = <STDIN>; my $at = shift;
  substr($d, $at, 1) = chr(ord(substr($d, $at, 1)) ^ 0xff); print $d' $at \
  <"$scratch/two.traj" >"$scratch/damaged.traj"
"$dataset" merge -o "$scratch/fixed.traj" "$scratch/damaged.traj" 2>"$scratch/merge-notes"
merged=$?
"$dataset" verify --resimulate "$scratch/fixed.traj" >"$scratch/verify" 2>&1
verified=$?
"$dataset" list "$scratch/fixed.traj" | tail -n +2 | cut -f 1 --complement >"$scratch/fixed-list"
[ $merged -eq 0 ] && [ $verified -eq 0 ] && cmp -s "$scratch/whole-list" "$scratch/fixed-list" &&
  grep -q "damaged.traj is damaged: 1 world episode lacks a player's chunk.*not merged" \
    "$scratch/merge-notes"
status=$?
diag <"$scratch/merge-notes"
ok $status "merge of a damaged file of two players keeps whole worlds and verifies: $(tail -n 1 "$scratch/verify")"
"$dataset" verify "$scratch/damaged.traj" >"$scratch/verify" 2>&1
[ $? -eq 1 ] && grep -q "damaged from byte" "$scratch/verify" &&
  grep -q "1 world episode lacks a player's chunk" "$scratch/verify" &&
  "$score" "$scratch/damaged.traj" 2>&1 >/dev/null | grep -q "1 world episode lacks"
ok $? "verify and crafter-score name the damaged chunk and the world it leaves incomplete"

# Two recordings of the same levels by other actions: their worlds have
# the same seeds and places, and merge keeps each world's chunks together.
bytes 200 2 | "$step" --binary --players 2 --levels 3 --area 16,16 --length 10 \
  --record "$scratch/step-levels2.traj" >/dev/null
"$dataset" merge -o "$scratch/both.traj" "$scratch/step-levels.traj" "$scratch/step-levels2.traj" &&
  "$dataset" verify --resimulate "$scratch/both.traj" >"$scratch/verify" 2>&1 &&
  [ "$("$dataset" list "$scratch/both.traj" | tail -n +2 | wc -l)" -eq 40 ]
status=$?
diag <"$scratch/verify"
ok $status "two recordings of the same levels merge world by world and verify"

# One level played twice by two players: the two plays' chunks have the
# same seed and episode and differ only by their place.  Player 1's chunk
# of play 1 and player 0's chunk of play 2 damaged, what is left is
# player 0's of play 1 followed by player 1's of play 2, which must not
# join into one world.
"$dataset" record -q -o "$scratch/replayed.traj" -n 2 --steps 10 --area 16,16 --players 2 \
  --levels 1
chunks "$scratch/replayed.traj" >"$scratch/replayed-offsets"
perl -e 'local $/; my $d = <STDIN>;
  for my $at (@ARGV) { substr($d, $at, 1) = chr(ord(substr($d, $at, 1)) ^ 0xff) } print $d' \
  $(awk 'NR == 2 || NR == 3 { print $1 + 256 + 10 }' "$scratch/replayed-offsets") \
  <"$scratch/replayed.traj" >"$scratch/replayed-damaged.traj"
"$dataset" verify "$scratch/replayed-damaged.traj" >"$scratch/verify" 2>&1
verified=$?
"$dataset" verify --resimulate "$scratch/replayed-damaged.traj" >"$scratch/resimulated" 2>&1
resimulated=$?
"$dataset" merge -o "$scratch/replayed-fixed.traj" "$scratch/replayed-damaged.traj" \
  2>"$scratch/merge-notes"
merged=$?
[ "$(awk '{ print $2 }' "$scratch/replayed-offsets" | tr '\n' ' ')" = "0 1 0 1 " ] &&
  [ $verified -eq 1 ] && grep -q "2 world episodes lack a player's chunk" "$scratch/verify" &&
  [ $resimulated -eq 1 ] && ! tail -n 1 "$scratch/resimulated" | grep -q ": ok" &&
  grep -q "2 world episodes lack a player's chunk" "$scratch/resimulated" &&
  [ $merged -eq 0 ] && grep -q "2 world episodes lack a player's chunk.*not merged" \
    "$scratch/merge-notes" &&
  [ "$("$dataset" list "$scratch/replayed-fixed.traj" | tail -n +2 | wc -l)" -eq 0 ]
status=$?
diag <"$scratch/resimulated"
ok $status "a level played twice, a chunk of each play damaged: two partial worlds, verify fails, merge keeps neither"

# Every player of every play of a level draws its own actions.  The
# random agent draws each action as numpy's RandomState(s).randint(0, 17)
# does, s being the top 32 bits of (world_seed + 0x9e3779b97f4a7c15 * k)
# * 0xbf58476d1ce4e5b9 modulo 2**64 (lib/tools/agents.c), where k is the
# place for player 0 and place * 16 + p for player p: so player 1 at
# place i never plays player 0's actions of place i + 1.
"$dataset" record -q -o "$scratch/streams.traj" -n 4 --steps 40 --area 16,16 --players 2 \
  --levels 1 --seed 6
perl -MCompress::Zlib -e '
  local $/; my $d = <STDIN>; my $obs = unpack("V", substr($d, 20, 4));
  my $at = 128 + unpack("V", substr($d, 104, 4)) + unpack("V", substr($d, 120, 4));
  while (substr($d, $at, 4) eq "EPSD") {
    my $p = unpack("Q<", substr($d, $at + 8, 8));
    my $steps = uncompress(substr($d, $at + 256, $p));
    my @actions;
    for (my $s = $obs; $s < length $steps; $s += 16 + $obs) { push @actions, ord(substr($steps, $s, 1)) }
    printf "%d %d %d %s\n", unpack("V", substr($d, $at + 232, 4)),
      unpack("V", substr($d, $at + 236, 4)) - 1, unpack("q<", substr($d, $at + 40, 8)),
      join(",", @actions);
    $at += 256 + $p;
  }' <"$scratch/streams.traj" >"$scratch/streams"
[ "$(wc -l <"$scratch/streams")" -eq 8 ] &&
  [ "$(awk '{ print $4 }' "$scratch/streams" | sort -u | wc -l)" -eq 8 ] &&
  [ "$(awk '{ print $1, $2 }' "$scratch/streams" | tr '\n' ' ')" = "1 0 1 1 2 0 2 1 3 0 3 1 4 0 4 1 " ]
status=$?
[ $status -eq 0 ] || diag <"$scratch/streams"
ok $status "a level played 4 times by 2 players: 8 action streams, no two alike"
# numpy's: the reference's virtual environment's, else python3's.
python=${REFERENCE_ENV:-$top/build-reference/venv}/bin/python
[ -x "$python" ] || python=python3
if command -v "$python" >/dev/null 2>&1 && "$python" -c 'import numpy' 2>/dev/null; then
  "$python" - "$scratch/streams" <<'EOF' >"$scratch/py" 2>&1
import sys
import numpy as np
bad = 0
for line in open(sys.argv[1]):
    place, player, world_seed, actions = line.split()
    place, player, world_seed = int(place), int(player), int(world_seed)
    actions = [int(a) for a in actions.split(",")]
    play = place if player == 0 else place * 16 + player
    mixed = ((world_seed + 0x9e3779b97f4a7c15 * play) * 0xbf58476d1ce4e5b9) % 2**64
    expected = np.random.RandomState(mixed >> 32).randint(0, 17, size=len(actions)).tolist()
    if actions != expected:
        print("place %d, player %d: %s, expected %s" % (place, player, actions, expected))
        bad += 1
sys.exit(1 if bad else 0)
EOF
  status=$?
  diag <"$scratch/py"
  ok $status "each player's actions at each place are its own generator's draws"
else
  skip "python3 with numpy is not installed"
fi

# 8-10. export npz, frames: per player's episode, the same with stored
# pixels as re-simulated and drawn.
for obs in pixels none; do
  "$dataset" record -q -o "$scratch/px-$obs.traj" -n 2 --steps 60 --players 2 --seed 5 --obs $obs
  "$dataset" export --format npz -o "$scratch/npz-$obs" "$scratch/px-$obs.traj" >"$scratch/npz-$obs.out" 2>&1
  echo $? >>"$scratch/npz-status"
done
same=0
for f in "$scratch"/npz-pixels/*.npz; do
  cmp -s "$f" "$scratch/npz-none/$(basename "$f")" && same=$((same + 1))
done
[ "$(sort -u "$scratch/npz-status")" = 0 ] && [ $same -eq 4 ] &&
  [ "$(ls "$scratch/npz-pixels" | grep -c -- '-p[01]-')" -eq 4 ]
status=$?
diag <"$scratch/npz-pixels.out"
ok $status "export --format npz of two players with pixels stored: a file per player's episode, equal to the one re-simulated"
if command -v python3 >/dev/null 2>&1; then
  "$dataset" list "$scratch/px-pixels.traj" >"$scratch/list"
  python3 - "$scratch/npz-pixels" "$scratch/list" <<'EOF' >"$scratch/py" 2>&1
import ast, glob, struct, sys, zipfile
def array(z, key):
    data = z.read(key + ".npy")
    size = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + size].decode("latin1"))
    return header, data[10 + size:]
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[2])][1:]
starts, planes = {}, {}
for row in rows:
    seed, episode, length, unlocked, player = row[1], row[2], int(row[4]), row[7], row[8]
    name = "%s/s%s-e%s-p%s-ach%d-len%d.npz" % (sys.argv[1], seed, episode, player,
                                              0 if unlocked == "-" else len(unlocked.split(",")), length)
    z = zipfile.ZipFile(name)
    header, image = array(z, "image")
    assert header["shape"] == (length + 1, 64, 64, 3), header
    got = set()
    for key in z.namelist():
        if key.startswith("achievement_"):
            header, data = array(z, key[:-4])
            if struct.unpack("<q", data[-8:])[0] >= 1:
                got.add(key[len("achievement_"):-4])
    want = set() if unlocked == "-" else set(unlocked.split(","))
    assert got == want, (name, got, want)
    header, pos = array(z, "player_pos")
    starts[(episode, player)] = struct.unpack("<qq", pos[16:32])
    header, semantic = array(z, "semantic")
    width, height = header["shape"][1:]
    planes[(episode, player)] = (semantic[width * height:2 * width * height], height)
for episode in ("1", "2"):
    assert starts[(episode, "0")] != starts[(episode, "1")], starts
    # Each player's semantic map is its own view of the area: itself the
    # player (13), the other a teammate (19), x-major.
    for me, other in (("0", "1"), ("1", "0")):
        plane, height = planes[(episode, me)]
        (x, y), (ox, oy) = starts[(episode, me)], starts[(episode, other)]
        assert plane[x * height + y] == 13 and plane[ox * height + oy] == 19, (episode, me)
print("ok")
EOF
  status=$?
  diag <"$scratch/py"
  ok $status "each player's .npz holds its own achievements (as list says), position and semantic view"
else
  skip "python3 is not installed"
fi
for obs in pixels none; do
  "$dataset" frames -E 3 --steps 0,30,60 -o "$scratch/frames-$obs" "$scratch/px-$obs.traj" >/dev/null 2>&1
done
same=0
for f in "$scratch"/frames-pixels/*.png; do
  cmp -s "$f" "$scratch/frames-none/$(basename "$f")" && same=$((same + 1))
done
[ "$(ls "$scratch/frames-pixels" | wc -l)" -eq 3 ] && [ $same -eq 3 ]
ok $? "frames of player 1's episode: re-simulated without pixels, the same as stored"

# 11. A goal's episode exports: the replay tracks the goal that ended it.
"$dataset" record -q --agent scripted --tasks "$top/data/tasks/crafter-tasks.yaml" --split train \
  -n 3 --steps 300 -o "$scratch/goals.traj"
goals=$("$dataset" list "$scratch/goals.traj" | awk -F'\t' '$7 == "goal"' | wc -l)
"$dataset" export --format npz -o "$scratch/npz-goals" "$scratch/goals.traj" >"$scratch/out" 2>&1
[ $? -eq 0 ] && [ "$goals" -ge 1 ] && [ "$(ls "$scratch/npz-goals" | wc -l)" -eq 3 ]
status=$?
diag <"$scratch/out"
ok $status "export npz of episodes that met their goal ($goals of 3)"

# 12-14. A replay of several players plays every player's actions.  On a
# world of two players side by side, player 1 walks right twice while
# player 0 waits: player 0's view ends with player 1 three cells to its
# right, and player 1's with player 0 three cells to its left.
printf 'crafter-world 1\nmap\n.@@......\n.........\n.........\n' >"$scratch/pair.txt"
printf 'noop move_right\nnoop move_right\n' |
  "$step" --players 2 --world "$scratch/pair.txt" --length 2 --record "$scratch/pair.traj" >/dev/null
"$play" --glyphs --replay "$scratch/pair.traj" --no-wait >"$scratch/frame0" 2>"$scratch/err"
status0=$?
"$play" --glyphs --replay "$scratch/pair.traj" --episode-index 1 --no-wait >"$scratch/frame1" 2>>"$scratch/err"
status1=$?
[ $status0 -eq 0 ] && [ $status1 -eq 0 ] && grep -q '@ \. \. 1' "$scratch/frame0" &&
  grep -q '0 \. \. @' "$scratch/frame1" && grep -q "player 1" "$scratch/frame1"
status=$?
diag <"$scratch/err"
ok $status "a replay of two players: each view shows the other where its own actions took it"
bytes 600 5 | "$step" --binary --players 2 --seed 8 --length 150 --record "$scratch/random.traj" >/dev/null
bad=0
count=$("$dataset" list "$scratch/random.traj" | tail -n +2 | wc -l)
for i in $(seq 0 $((count - 1))); do
  "$play" --glyphs --replay "$scratch/random.traj" --episode-index $i --no-wait >/dev/null 2>>"$scratch/err2" ||
    bad=$((bad + 1))
done
[ "$count" -ge 4 ] && [ $bad -eq 0 ]
status=$?
diag <"$scratch/err2" 2>/dev/null
ok $status "every player's episode of a random game of two replays to its end as recorded ($count episodes)"
printf 'noop\nnoop\n' | "$step" --area 9,3 --length 2 --record "$scratch/one.traj" >/dev/null
"$play" --glyphs --replay "$scratch/one.traj" --world "$scratch/pair.txt" --no-wait >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "recorded on" "$scratch/err" && ! grep -q "players or more" "$scratch/err"
ok $? "a replay on a world of more players than the recording says what to give: $(cat "$scratch/err")"

# 15. A stored world of more players than the file's games is refused.
printf 'noop move_right\n' |
  "$step" --players 2 --world "$scratch/pair.txt" --length 1 --record "$scratch/pair1.traj" >/dev/null
perl -MCompress::Zlib -e 'local $/; my $d = <STDIN>;
  substr($d, 8, 4) = pack("V", 3); substr($d, 18, 2) = pack("v", 0);
  substr($d, 124, 4) = pack("V", crc32(substr($d, 0, 124))); print $d' \
  <"$scratch/pair1.traj" >"$scratch/pair-v3.traj"
"$dataset" info "$scratch/pair-v3.traj" >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the stored world has 2 players '@', the file's games 1" "$scratch/err"
ok $? "a file whose stored world has more players than its games is refused: $(cat "$scratch/err")"

# 16. Several players with a configuration: version 4, the players and
# the configuration kept and read back.
printf 'players:\n  damage: 2\nenv:\n  length: 80\n' >"$scratch/rules.yaml"
"$dataset" record -q --players 2 --config "$scratch/rules.yaml" -n 2 --seed 2 -o "$scratch/config.traj"
bytes 400 3 | "$step" --binary --players 2 --config "$scratch/rules.yaml" \
  --record "$scratch/step-config.traj" >/dev/null
for f in config step-config; do
  perl -e 'local $/; my $d = <STDIN>;
    printf "%d %d %d\n", unpack("V", substr($d, 8, 4)), unpack("v", substr($d, 18, 2)),
      unpack("V", substr($d, 120, 4)) > 0' <"$scratch/$f.traj" >"$scratch/$f.fields"
  "$dataset" info "$scratch/$f.traj" >"$scratch/$f.info"
  "$dataset" verify --resimulate "$scratch/$f.traj" >"$scratch/$f.verify" 2>&1
  echo $? >>"$scratch/config-status"
done
size=$(wc -c <"$scratch/rules.yaml")
for f in config step-config; do
  [ "$(cat "$scratch/$f.fields")" = "4 2 1" ] &&
    grep -q "^format .*version 4" "$scratch/$f.info" && grep -q "^players       2" "$scratch/$f.info" &&
    grep -q "^rules  *configuration of $size bytes" "$scratch/$f.info" &&
    grep -q "^length        80" "$scratch/$f.info" || echo "$f: $(cat "$scratch/$f.fields")"
done >"$scratch/config-bad"
[ ! -s "$scratch/config-bad" ] && [ "$(sort -u "$scratch/config-status")" = 0 ]
status=$?
diag <"$scratch/config-bad"
ok $status "record and crafter-step --record of two players with --config: version 4, 2 players, the configuration kept, re-simulated"
# 17-18. crafter-score: each player's column holds that player's episodes
# only.  The expected success rates, returns and lengths are counted from
# the file's own list, player by player; the players must differ for the
# test to tell pooling apart.
"$dataset" record -q -o "$scratch/scored.traj" -n 12 --steps 300 --players 2 --seed 3
"$dataset" list "$scratch/scored.traj" >"$scratch/list"
"$score" --format csv "$scratch/scored.traj" >"$scratch/csv"
perl -e '
  my ($list, $csv) = @ARGV; open my $l, "<", $list or die; <$l>;
  my (%episodes, %steps, %got);
  while (<$l>) { chomp; my @f = split /\t/;
    next if $f[6] eq "cut";
    my $p = $f[8]; $episodes{$p}++; $steps{$p} += $f[4];
    $got{$p}{$_}++ for grep { $_ ne "-" } split /,/, $f[7]; }
  open my $c, "<", $csv or die; my @head = split /,/, scalar <$c>; chomp @head;
  my ($bad, $differ) = (0, 0); my %rate;
  while (<$c>) { chomp; my @f = split /,/; my %row; @row{@head} = @f;
    my ($p) = $row{method} =~ /player (\d+)$/ or die "method $row{method}\n";
    $bad++, warn "player $p: episodes $row{episodes}\n" if $row{episodes} != $episodes{$p};
    $bad++, warn "player $p: length\n" if abs($row{length_mean} - $steps{$p} / $episodes{$p}) > 1e-9;
    for my $k (@head[7 .. $#head]) {
      my $want = 100 * ($got{$p}{$k} || 0) / $episodes{$p}; $rate{$p}{$k} = $want;
      $bad++, warn "player $p: $k $row{$k}, expected $want\n" if abs($row{$k} - $want) > 1e-9;
    } }
  for my $k (@head[7 .. $#head]) { $differ++ if $rate{0}{$k} != $rate{1}{$k} }
  die "the players do not differ\n" unless $differ; exit($bad ? 1 : 0)' \
  "$scratch/list" "$scratch/csv" 2>"$scratch/err"
status=$?
diag <"$scratch/err"
ok $status "crafter-score: each player's success rates, episodes and length from that player's episodes only"
"$score" "$scratch/scored.traj" >"$scratch/table"
[ "$(grep -c '^  .*scored.traj -> random player [01] (agent), seed 3$' "$scratch/table")" -eq 2 ]
ok $? "crafter-score lists the file once per player"
finish
