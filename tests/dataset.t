#!/bin/sh
# crafter-dataset as a user runs it: the random agent against the
# reference's random agent, determinism, shards and merge, the scripted
# agent, verify and re-simulation, a recording killed with SIGKILL, and the
# exports (stats.jsonl, .npz, PNG frames).
. "$(dirname "$0")/tap.sh"
dataset=$top/bin/crafter-dataset
score=$top/bin/crafter-score
ASSETS_DIR=${ASSETS_DIR:-$(dirname "$GOLDEN_DIR")/crafter-assets}
plan 40

"$dataset" --help >"$scratch/help" 2>&1
ok $? "--help exits 0"
grep -q -- "--shard" "$scratch/help" && grep -q -- "--resimulate" "$scratch/help" &&
  grep -q -- "--agent" "$scratch/help" && grep -q "frames" "$scratch/help"
ok $? "--help lists the commands and options"
"$dataset" bogus >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "^crafter-dataset: unknown command 'bogus'" "$scratch/err"
ok $? "an unknown command exits 2: $(head -1 "$scratch/err")"
"$dataset" record -n 3 >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "needs an output file" "$scratch/err"
ok $? "record without -o exits 2"
"$dataset" record --shard 4/3 -o "$scratch/x" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "invalid shard '4/3'" "$scratch/err"
ok $? "a shard that does not exist exits 2"
"$dataset" list --resimulate "$scratch/x" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "list does not take the option --resimulate" "$scratch/err"
ok $? "an option of another command exits 2"

# The random agent against the reference's random agent.  Reference counts:
# danijar/crafter scores/crafter_noreward-random.json, 5 seeds of 1M steps,
# 29784 episodes; an achievement counts in an episode when its count is at
# least 1 (as the paper's success rates).  For each achievement the number
# of successes in our n episodes must lie in the central 99.9% interval of
# Binomial(n, p) with p = successes / 29784 (p's own uncertainty over 29784
# episodes is small against that interval's width at n = 300).
n=300
"$dataset" record -q --agent random -n $n --seed 1 -o "$scratch/random.traj"
ok $? "record $n random episodes"
"$dataset" export --format stats "$scratch/random.traj" >"$scratch/stats.jsonl"
perl -e '
  my $n = shift; my %ref = (collect_coal=>0, collect_diamond=>0, collect_drink=>2776,
    collect_iron=>0, collect_sapling=>14947, collect_stone=>4, collect_wood=>7260,
    defeat_skeleton=>5, defeat_zombie=>41, eat_cow=>112, eat_plant=>2, make_iron_pickaxe=>0,
    make_iron_sword=>0, make_stone_pickaxe=>0, make_stone_sword=>0, make_wood_pickaxe=>96,
    make_wood_sword=>95, place_furnace=>0, place_plant=>13288, place_stone=>3,
    place_table=>1299, wake_up=>27878);
  my %got; my $episodes = 0;
  while (<STDIN>) { $episodes++; while (/"achievement_(\w+)": (\d+)/g) { $got{$1}++ if $2 >= 1 } }
  die "expected $n episodes, got $episodes\n" unless $episodes == $n;
  my $bad = 0;
  for my $name (sort keys %ref) {
    my $p = $ref{$name} / 29784; my $k = $got{$name} || 0;
    # central 99.9%: lo = smallest k with P(X <= k) > 0.0005, hi = smallest k with P(X <= k) >= 0.9995
    my ($cdf, $lo, $hi) = (0, undef, undef);
    for my $i (0 .. $n) {
      my $pmf;
      if ($p == 0) { $pmf = $i == 0 ? 1 : 0 }
      else {
        my $log = 0; $log += log($n - $_ + 1) - log($_) for 1 .. $i;
        $log += $i * log($p) + ($n - $i) * log(1 - $p);
        $pmf = exp($log);
      }
      $cdf += $pmf;
      $lo = $i if !defined $lo && $cdf > 0.0005;
      $hi = $i if !defined $hi && $cdf >= 0.9995;
    }
    $hi = $n unless defined $hi;
    my $status = ($k >= $lo && $k <= $hi) ? "ok" : "OUT";
    $bad++ if $status ne "ok";
    printf "%-18s %4d of %d  reference %5.2f%%  interval [%d, %d]  %s\n", $name, $k, $n, 100 * $p, $lo, $hi, $status;
  }
  exit($bad ? 1 : 0);
' $n <"$scratch/stats.jsonl" >"$scratch/rates"
status=$?
diag <"$scratch/rates"
ok $status "each achievement's successes lie in the 99.9% binomial interval of the reference's rate"

"$dataset" verify --resimulate "$scratch/random.traj" >"$scratch/out"
ok $? "verify --resimulate replays the $n episodes: $(tail -1 "$scratch/out")"

"$dataset" record -q -n 20 --seed 1 -o "$scratch/again.traj"
"$dataset" record -q -n 20 --seed 1 -o "$scratch/again2.traj"
cmp -s "$scratch/again.traj" "$scratch/again2.traj"
ok $? "recording is deterministic: the same seed gives the same bytes"

# Shards: three machines make the same file as one.
for k in 1 2 3; do
  "$dataset" record -q -n 20 --seed 1 --shard $k/3 -o "$scratch/shard$k.traj" || echo fail
done
"$dataset" merge -o "$scratch/merged-a.traj" "$scratch/shard1.traj" "$scratch/shard2.traj" "$scratch/shard3.traj" &&
  "$dataset" merge -o "$scratch/merged-b.traj" "$scratch/shard3.traj" "$scratch/shard1.traj" "$scratch/shard2.traj"
cmp -s "$scratch/merged-a.traj" "$scratch/merged-b.traj"
ok $? "merge gives the same bytes whatever the order of the inputs"
cmp -s "$scratch/merged-a.traj" "$scratch/again.traj"
ok $? "the merged shards equal the dataset recorded at once"
[ "$("$dataset" list "$scratch/shard2.traj" | cut -f3 | tail -n +2 | tr '\n' ' ')" = "2 5 8 11 14 17 20 " ]
ok $? "shard 2/3 holds episodes 2, 5, ..., 20"
# On a level set too, with two players: the shards carry the dataset's
# places, so their merge is the file recorded at once.
"$dataset" record -q -n 9 --steps 10 --levels 3 --players 2 -o "$scratch/levels-all.traj"
for k in 1 2 3; do
  "$dataset" record -q -n 9 --steps 10 --levels 3 --players 2 --shard $k/3 \
    -o "$scratch/levels$k.traj" || echo fail
done
"$dataset" merge -o "$scratch/levels-merged.traj" "$scratch/levels3.traj" "$scratch/levels1.traj" \
  "$scratch/levels2.traj" &&
  cmp -s "$scratch/levels-merged.traj" "$scratch/levels-all.traj"
ok $? "the merged shards of a level set with two players equal the dataset recorded at once"
"$dataset" merge -o "$scratch/dup.traj" "$scratch/shard1.traj" "$scratch/shard1.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "the same shard twice" "$scratch/err"
ok $? "merging a shard twice is refused: $(cat "$scratch/err")"
"$dataset" record -q -n 2 --seed 2 -o "$scratch/other.traj"
"$dataset" merge -o "$scratch/bad.traj" "$scratch/shard1.traj" "$scratch/other.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "differ in their seed" "$scratch/err"
ok $? "files of other settings do not merge: $(cat "$scratch/err")"

# The scripted agent climbs the technology tree.
"$dataset" record -q --agent scripted -n 10 --seed 3 -o "$scratch/scripted.traj"
"$dataset" record -q --agent scripted -n 10 --seed 3 -o "$scratch/scripted2.traj"
cmp -s "$scratch/scripted.traj" "$scratch/scripted2.traj"
ok $? "the scripted agent is deterministic"
"$dataset" info "$scratch/scripted.traj" >"$scratch/info"
diag <"$scratch/info"
rate() { awk -v name="$2" '$1 == name { print $2 }' "$1"; }
awk -v a="$(rate "$scratch/info" make_stone_pickaxe)" -v b="$(rate "$scratch/info" place_furnace)" \
    -v c="$(rate "$scratch/info" collect_coal)" 'BEGIN { exit !(a >= 70 && b >= 50 && c >= 50) }'
ok $? "it makes stone pickaxes, places furnaces and collects coal in most episodes"
"$dataset" verify --resimulate "$scratch/scripted.traj" >"$scratch/out"
ok $? "its episodes re-simulate"

# Crafter's stats.jsonl and crafter-score.
head -1 "$scratch/stats.jsonl" | grep -q '^{"length": [0-9]*, "reward": -\{0,1\}[0-9]*\.[0-9], "achievement_collect_coal": [0-9]*, "achievement_collect_diamond"'
ok $? "stats.jsonl has the Recorder's keys in its order"
"$score" --method m --format csv "$scratch/stats.jsonl" >"$scratch/a.csv" &&
  "$score" --method m --format csv "$scratch/random.traj" >"$scratch/b.csv"
cmp -s "$scratch/a.csv" "$scratch/b.csv"
ok $? "crafter-score gives the same numbers from the file and from its stats.jsonl"

# A recording killed with SIGKILL keeps every completed episode.
"$dataset" record -q -n 1000000 --seed 5 -o "$scratch/killed.traj" &
pid=$!
count=0
for i in $(seq 1 300); do
  count=$("$dataset" list "$scratch/killed.traj" 2>/dev/null | tail -n +2 | wc -l)
  [ "$count" -ge 30 ] && break
  sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null
"$dataset" list "$scratch/killed.traj" >"$scratch/list" 2>"$scratch/err"
after=$(tail -n +2 "$scratch/list" | wc -l)
[ "$count" -ge 30 ] && [ "$after" -ge "$count" ] && grep -q "found by scanning" "$scratch/err"
ok $? "after kill -9: $after episodes listed (at least the $count seen before)"
"$dataset" verify --resimulate "$scratch/killed.traj" >"$scratch/out"
status=$?
diag <"$scratch/out"
! grep -q ": episode [0-9]* (seed" "$scratch/out" &&
  { [ $status -eq 0 ] || grep -q "damaged from byte" "$scratch/out"; }
ok $? "every listed episode verifies; only the episode in progress can be lost"
"$dataset" merge -o "$scratch/repaired.traj" "$scratch/killed.traj" 2>/dev/null &&
  "$dataset" verify "$scratch/repaired.traj" >/dev/null &&
  [ "$("$dataset" list "$scratch/repaired.traj" | tail -n +2 | wc -l)" -eq "$after" ]
ok $? "merge writes the readable episodes into a whole file"

# Two plays of a level alike in achievements and length get two files:
# six plays of one level, three steps each, no achievement.
"$dataset" record -q -n 6 --steps 3 --levels 1 --obs pixels -o "$scratch/alike.traj"
"$dataset" export --format npz -o "$scratch/alike" "$scratch/alike.traj" >"$scratch/out"
[ $? -eq 0 ] && [ "$(ls "$scratch/alike" | wc -l)" -eq 6 ] && [ "$(sort -u "$scratch/out" | wc -l)" -eq 6 ] &&
  [ -f "$scratch/alike/s0-e1-ach0-len3.npz" ] && [ -f "$scratch/alike/s0-e1-ach0-len3-6.npz" ]
ok $? "export npz gives episodes of the same name a file each (name, name-2, ...)"

# Crafter's episode .npz files.
"$dataset" record -q -n 2 --seed 4 --obs semantic -o "$scratch/sem.traj"
if [ -d "$ASSETS_DIR" ]; then
  "$dataset" export --format npz --textures "$ASSETS_DIR" -o "$scratch/npz" "$scratch/sem.traj" >"$scratch/out"
  ok $? "export npz writes $(wc -l <"$scratch/out") files"
  if command -v python3 >/dev/null 2>&1; then
    python3 - "$scratch/npz" "$ASSETS_DIR" <<'EOF' >"$scratch/py" 2>&1
import ast, glob, struct, sys, zipfile
files = sorted(glob.glob(sys.argv[1] + "/*.npz"))
assert len(files) == 2, files
for name in files:
    z = zipfile.ZipFile(name)
    assert z.testzip() is None
    keys = [n[:-4] for n in z.namelist()]
    assert keys[:7] == ["image", "action", "reward", "done", "discount", "semantic", "player_pos"], keys
    assert len(keys) == 7 + 22 + 16 and keys[7] == "achievement_collect_coal" and keys[-1] == "ainventory_iron_sword", keys
    length = int(name.split("-len")[1][:-4])
    shapes = {}
    for key in keys:
        data = z.read(key + ".npy")
        assert data[:8] == b"\x93NUMPY\x01\x00"
        size = struct.unpack("<H", data[8:10])[0]
        assert (10 + size) % 64 == 0
        header = ast.literal_eval(data[10:10 + size].decode("latin1"))
        shapes[key] = (header["descr"], header["shape"])
        count = 1
        for d in header["shape"]:
            count *= d
        assert len(data) - 10 - size == count * int(header["descr"][2:]), key
    assert shapes["image"] == ("|u1", (length + 1, 64, 64, 3)), shapes["image"]
    assert shapes["semantic"] == ("|u1", (length + 1, 64, 64)), shapes["semantic"]
    assert shapes["player_pos"] == ("<i8", (length + 1, 2))
    assert shapes["done"] == ("|b1", (length + 1,)) and shapes["reward"] == ("<f8", (length + 1,))
    done = z.read("done.npy")[-(length + 1):]
    assert done[-1] == 1 and done[0] == 0
print("ok")
EOF
    status=$?
    diag <"$scratch/py"
    ok $status "the .npz files hold Crafter's EpisodeRecorder arrays, as numpy.load reads them"
  else
    skip "python3 is not installed"
  fi
  "$dataset" frames --textures "$ASSETS_DIR" --episode 1 --steps 0,3-4 -o "$scratch/frames" "$scratch/sem.traj" >"$scratch/out"
  [ $? -eq 0 ] && [ "$(wc -l <"$scratch/out")" -eq 3 ] &&
    [ "$(head -c 4 "$scratch/frames/episode-1-step-00003.png" | tail -c 3)" = PNG ]
  ok $? "frames draws the chosen steps as PNG files"
  "$dataset" record -q -n 1 --seed 4 --obs pixels --textures "$ASSETS_DIR" -o "$scratch/pix.traj" &&
    "$dataset" frames --steps 0 -o "$scratch/frames2" "$scratch/pix.traj" >/dev/null &&
    "$dataset" frames --textures "$ASSETS_DIR" --steps 0 -o "$scratch/frames3" "$scratch/sem.traj" >/dev/null &&
    cmp -s "$scratch/frames2/episode-0-step-00000.png" "$scratch/frames3/episode-0-step-00000.png"
  ok $? "stored pixels and re-simulated pixels give the same frame"
  "$dataset" verify --resimulate --textures "$ASSETS_DIR" "$scratch/pix.traj" >/dev/null
  ok $? "stored pixels re-simulate"
else
  skip "no textures in $ASSETS_DIR"
  skip "no textures in $ASSETS_DIR"
  skip "no textures in $ASSETS_DIR"
  skip "no textures in $ASSETS_DIR"
  skip "no textures in $ASSETS_DIR"
fi
"$dataset" frames --steps 999 "$scratch/sem.traj" >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "step 999 is past the end" "$scratch/err"
ok $? "a step past the end is refused: $(cat "$scratch/err")"
# Outputs on a full disk: merge and export fail with the reason and leave
# no partial file.  /dev/full is a device, written in place; a regular
# file is written through a temporary renamed over it when complete, so a
# write cut short by the file size limit (as a full disk would) leaves the
# old file whole and no temporary beside it.
"$dataset" merge -o /dev/full "$scratch/shard1.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "^crafter-dataset: writing /dev/full: No space left on device" "$scratch/err"
ok $? "merge onto a full disk: $(cat "$scratch/err")"
"$dataset" export --format stats -o /dev/full "$scratch/random.traj" 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "No space left on device" "$scratch/err"
ok $? "export onto a full disk: $(cat "$scratch/err")"
mkdir "$scratch/limited" && printf 'old\n' >"$scratch/limited/out.traj"
(trap '' XFSZ; ulimit -f 8; "$dataset" merge -o "$scratch/limited/out.traj" "$scratch/random.traj") 2>"$scratch/err"
status=$?
[ $status -eq 1 ] && [ "$(cat "$scratch/limited/out.traj")" = old ] &&
  [ "$(ls "$scratch/limited")" = out.traj ]
ok $? "a merge cut short by the file size limit leaves the old file and no temporary: $(cat "$scratch/err")"
(trap '' XFSZ; ulimit -f 8; "$dataset" export --format stats -o "$scratch/limited/out.traj" "$scratch/random.traj") 2>"$scratch/err"
status=$?
[ $status -eq 1 ] && [ "$(cat "$scratch/limited/out.traj")" = old ] &&
  [ "$(ls "$scratch/limited")" = out.traj ]
ok $? "so does an export: $(cat "$scratch/err")"
"$dataset" merge -o "$scratch/limited/out.traj" "$scratch/shard1.traj" &&
  cmp -s "$scratch/limited/out.traj" "$scratch/shard1.traj" && [ "$(ls "$scratch/limited")" = out.traj ]
ok $? "a merge that succeeds replaces the file whole"

# A file recorded under another configuration keeps it and re-simulates
# by it (tests/unit/test-traj.c shows a re-simulation that fails).
printf 'items:\n  health: {max: 9, initial: 8}\n' >"$scratch/health.yaml"
seq 0 299 | awk '{ print $1 % 17 }' |
  "$top/bin/crafter-step" --seed 3 --length 100 --episodes 1 --config "$scratch/health.yaml" \
    --record "$scratch/config.traj" >/dev/null
"$dataset" verify --resimulate "$scratch/config.traj" >"$scratch/out"
[ $? -eq 0 ] && grep -q "1 episode, 100 steps, re-simulated: ok" "$scratch/out"
ok $? "an episode of other rules re-simulates by the rules it keeps: $(head -1 "$scratch/out")"
"$dataset" verify "$scratch/config.traj" >/dev/null
ok $? "its checksums and steps are whole all the same"

# frames when the replay cannot start: a chunk whose world seed was
# changed (its header's checksum made right again) is whole to the reader
# but not the episode its seeds make.
perl -MCompress::Zlib -e 'local $/; my $d = <STDIN>; my $at = 128;
  substr($d, $at + 40, 8) = pack("Q<", 12345);
  substr($d, $at + 252, 4) = pack("V", crc32(substr($d, $at, 252))); print $d' \
  <"$scratch/other.traj" >"$scratch/seeded.traj"
"$dataset" frames --steps 0 -o "$scratch/frames-seeded" "$scratch/seeded.traj" 2>"$scratch/err" >/dev/null
[ $? -eq 1 ] && grep -q "world seed differs: stored 12345" "$scratch/err"
ok $? "frames whose replay cannot start: $(cat "$scratch/err")"
"$dataset" record -Z 2>"$scratch/err"
[ $? -eq 2 ] && head -n 1 "$scratch/err" | grep -q "^crafter-dataset record: invalid option"
ok $? "a bad option names the program and its command: $(head -n 1 "$scratch/err")"
finish
