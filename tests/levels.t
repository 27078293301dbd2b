#!/bin/sh
# Level sets through the programs: crafter-gen makes, saves, lists and
# checks them; an episode on level k through crafter-step is the k-th
# episode of the seed, record for record and pixel for pixel, and so is
# every reference trace of GOLDEN_DIR played from a level file holding its
# episode; level orders; trajectories that record levels and verify;
# crafter-dataset's levels per episode; bad files and options.
. "$(dirname "$0")/tap.sh"
gen=$top/bin/crafter-gen
step=$top/bin/crafter-step
dataset=$top/bin/crafter-dataset
bench=$top/bin/crafter-bench
compare=$top/tests/golden-compare
plan 29

awk 'BEGIN { srand(3); for (i = 0; i < 1500; i++) print int(rand() * 17) }' >"$scratch/actions"

# crafter-gen lists the world seeds the episodes have.
"$gen" --levels 3 --start-level 4 --seed 9 >"$scratch/list"
status=$?
for e in 4 5 6; do
  printf '0\n' | "$step" --seed 9 --first-episode "$e" --info state -n 1 |
    sed -n 's/.*"world_seed": \([0-9]*\).*/\1/p' | head -1
done >"$scratch/seeds"
[ $status -eq 0 ] && [ "$(grep -v '^#' "$scratch/list" | cut -d' ' -f2)" = "$(cat "$scratch/seeds")" ] &&
  [ "$(grep -v '^#' "$scratch/list" | cut -d' ' -f1 | tr '\n' ' ')" = "4 5 6 " ]
ok $? "crafter-gen --levels lists levels 4..6 with their episodes' world seeds"

# An episode on level k is episode k, every field and pixel.
"$gen" --levels 4 --seed 9 --save-levels "$scratch/set.lvl"
ok $? "crafter-gen --save-levels writes a level file"
"$gen" --levels "$scratch/set.lvl" >"$scratch/list2" && "$gen" --levels 4 --seed 9 >"$scratch/list3" &&
  cmp -s "$scratch/list2" "$scratch/list3"
ok $? "the file lists as the set made in memory"
for k in 1 3; do
  "$step" --seed 9 --first-episode $k --info full -O pixels -n 1 <"$scratch/actions" >"$scratch/fresh"
  "$step" --seed 9 --levels 2 --start-level $k --level-order sequential --info full -O pixels -n 1 \
    <"$scratch/actions" >"$scratch/level"
  sed 's/, "level": [0-9]*//' "$scratch/level" | cmp -s - "$scratch/fresh" &&
    [ "$(grep -c '"level": '$k'[,}]' "$scratch/level")" -eq "$(wc -l <"$scratch/fresh")" ]
  ok $? "level $k plays as episode $k of the seed, $(wc -l <"$scratch/fresh") records, each with its level"
done
"$step" --levels "$scratch/set.lvl" --level-order sequential --info full -n 1 <"$scratch/actions" >"$scratch/file"
"$step" --seed 9 --levels 4 --level-order sequential --info full -n 1 <"$scratch/actions" >"$scratch/memory"
cmp -s "$scratch/file" "$scratch/memory"
ok $? "a level file plays as the set made in memory"

# Every reference trace from a level file whose levels include its
# episode, the file's area and view taken as the run's.
if ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1; then
  failed=0
  traces=0
  for t in "$GOLDEN_DIR"/*.jsonl.gz; do
    set -- $("$compare" --args "$t")
    # --seed S --first-episode E --area A --view V --size Z --length L
    "$gen" --levels 3 --seed "$2" --start-level "$4" --area "$6" --view "$8" \
      --save-levels "$scratch/golden.lvl" || failed=$((failed + 1))
    "$compare" --actions "$t" >"$scratch/golden-actions"
    "$step" --info full --levels "$scratch/golden.lvl" --level-order sequential --size "${10}" \
      --length "${12}" <"$scratch/golden-actions" >"$scratch/golden-run"
    "$compare" --candidate "$scratch/golden-run" "$t" >"$scratch/golden-cmp" ||
      { failed=$((failed + 1)); grep -v '^ok' "$scratch/golden-cmp" | head -3 | diag; }
    traces=$((traces + 1))
  done
  [ $failed -eq 0 ]
  ok $? "all $traces reference traces replay from level files, field for field"
  report compared "$traces reference episodes played from level sets"
else
  skip "no reference traces in $GOLDEN_DIR"
fi

# Orders: sequential envs share out the levels; random draws cover them.
awk 'BEGIN { for (i = 0; i < 40; i++) print "0 0" }' |
  "$step" --seed 9 --levels 3 --level-order sequential -N 2 --length 5 >"$scratch/two"
got=$(grep '"reset"' "$scratch/two" | sed 's/.*"env": \([0-9]\).*"level": \([0-9]*\).*/\1:\2/' | head -8 | tr '\n' ' ')
[ "$got" = "0:1 1:2 0:3 1:1 0:2 1:3 0:1 1:2 " ]
ok $? "sequential: env 0 plays 1, 3, 2, env 1 plays 2, 1, 3 ($got)"
awk 'BEGIN { for (i = 0; i < 400; i++) print 0 }' |
  "$step" --seed 9 --levels 4 --length 1 -n 400 >"$scratch/random"
counts=$(grep '"reset"' "$scratch/random" | sed 's/.*"level": \([0-9]*\).*/\1/' | sort | uniq -c |
  awk '$1 >= 60 && $1 <= 140 { n++ } END { print n + 0 }')
ok $([ "$counts" -eq 4 ]; echo $?) "random: 400 episodes play each of 4 levels 60 to 140 times"

# The binary protocol on two threads sends the frames of one.
awk 'BEGIN { for (i = 0; i < 1500; i++) printf "\001\005\003\002\005\004\000\005" }' >"$scratch/bytes"
"$step" --binary -N 4 -T 1 --levels 5 --seed 3 -O semantic <"$scratch/bytes" >"$scratch/t1"
"$step" --binary -N 4 -T 2 --levels 5 --seed 3 -O semantic <"$scratch/bytes" >"$scratch/t2"
cmp -s "$scratch/t1" "$scratch/t2" && [ "$(wc -c <"$scratch/t1")" -gt 100000 ]
ok $? "binary frames on levels: two threads send the bytes of one"

# Recording: the set in the header, each episode's level, verified.
"$step" --seed 9 --levels 4 --record "$scratch/run.traj" -n 6 <"$scratch/actions" >/dev/null
"$dataset" verify --resimulate "$scratch/run.traj" >"$scratch/verify"
ok $? "a recording on levels re-simulates: $(cat "$scratch/verify")"
"$dataset" info "$scratch/run.traj" | grep -q "^levels        4: episodes 1 to 4 of the seed, random order"
ok $? "info names the level set"
"$dataset" list "$scratch/run.traj" | awk -F'\t' 'NR > 1 && ($2 != 9 || $3 < 1 || $3 > 4) { bad++ } NR > 1 { n++ } END { exit !(n >= 1 && !bad) }'
ok $? "list shows each episode's level"

# crafter-dataset record: a level per episode index, so shards agree, and
# each play of a level its own actions.
"$dataset" record --levels 3 --seed 2 -n 8 -q -o "$scratch/all.traj" &&
  "$dataset" record --levels 3 --seed 2 -n 8 --shard 1/2 -q -o "$scratch/s1.traj" &&
  "$dataset" record --levels 3 --seed 2 -n 8 --shard 2/2 -q -o "$scratch/s2.traj" &&
  "$dataset" merge -o "$scratch/merged.traj" "$scratch/s1.traj" "$scratch/s2.traj"
"$dataset" list "$scratch/all.traj" | tail -n +2 | cut -f2- | sort >"$scratch/a"
"$dataset" list "$scratch/merged.traj" | tail -n +2 | cut -f2- | sort >"$scratch/b"
cmp -s "$scratch/a" "$scratch/b" && [ "$(wc -l <"$scratch/a")" -eq 8 ]
ok $? "crafter-dataset record --levels: two shards hold the episodes of the whole"
"$dataset" verify --resimulate "$scratch/all.traj" >/dev/null
ok $? "and they re-simulate"
repeats=$(cut -f2 "$scratch/a" | sort | uniq -d | wc -l)
distinct=$(cut -f2,4- "$scratch/a" | sort -u | wc -l)
[ "$repeats" -ge 1 ] && [ "$distinct" -eq 8 ]
ok $? "a level played again plays differently ($repeats levels repeated, $distinct distinct episodes)"

# Bad files and options.
head -c 300 "$scratch/set.lvl" >"$scratch/cut.lvl"
"$step" --levels "$scratch/cut.lvl" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "cut short" "$scratch/err"
ok $? "a cut level file: $(cat "$scratch/err")"
cp "$scratch/set.lvl" "$scratch/flip.lvl"
printf '\125' | dd of="$scratch/flip.lvl" bs=1 seek=5000 conv=notrunc 2>/dev/null
"$step" --levels "$scratch/flip.lvl" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "checksum\|decompress" "$scratch/err"
ok $? "a damaged level file: $(cat "$scratch/err")"
head -c 100 "$scratch/set.lvl" >"$scratch/header.lvl"
"$step" --levels "$scratch/header.lvl" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "header is cut short: 100 of 128 bytes" "$scratch/err"
ok $? "a level file cut in its header: $(cat "$scratch/err")"
"$step" --levels "$scratch/actions" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "not a level file" "$scratch/err"
ok $? "not a level file: $(cat "$scratch/err")"
"$step" --levels "$scratch/set.lvl" --area 32,32 </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "area of 64x64" "$scratch/err"
ok $? "another area: $(cat "$scratch/err")"
"$bench" --levels "$scratch/set.lvl" --view 7,7 -S 100 -R 1 >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "view of 9x9" "$scratch/err"
ok $? "another view: $(cat "$scratch/err")"
printf 'zombie:\n  health: 6\n' >"$scratch/config.yaml"
"$dataset" record --levels "$scratch/set.lvl" -n 1 -q -o "$scratch/x.traj" >/dev/null 2>&1
ok $? "crafter-dataset record plays a level file"
"$step" --levels "$scratch/set.lvl" --config "$scratch/config.yaml" </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "another configuration" "$scratch/err"
ok $? "another configuration: $(cat "$scratch/err")"
"$step" --levels "$scratch/set.lvl" --seed 3 </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "seed 9" "$scratch/err"
ok $? "another seed: $(cat "$scratch/err")"
"$step" --level-order sequential </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "need --levels" "$scratch/err"
ok $? "--level-order without --levels: $(head -1 "$scratch/err")"
"$step" --levels 3 --level-order shuffled </dev/null >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && "$step" --levels 0 </dev/null >/dev/null 2>&1; [ $? -eq 2 ] &&
  "$step" --levels 3 --first-episode 2 </dev/null >/dev/null 2>&1; [ $? -eq 2 ]
ok $? "a bad order, no levels, --levels with --first-episode: usage errors"
"$gen" --levels 2 --save-levels /dev/full 2>"$scratch/err"
[ $? -eq 1 ] && grep -q "/dev/full" "$scratch/err"
ok $? "a failed write says so: $(cat "$scratch/err")"
"$bench" --levels 3 -S 2000 -R 1 -f json >"$scratch/bench"
ok $? "crafter-bench --levels runs: $(sed 's/, "cpu.*//' "$scratch/bench")"
finish
