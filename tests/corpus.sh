#!/bin/sh
# tests/corpus.sh DIR: the outputs of the programs over many option sets,
# one file each in DIR, for showing that a change meant to keep behaviour
# keeps it: run it with the build before and the build after, then
#   diff -r BEFORE AFTER
# must print nothing.  crafter-step's JSON lines and binary streams,
# trajectories of crafter-step, crafter-bench and crafter-dataset,
# crafter-score's tables, crafter-gen's maps, pictures, statistics, world
# and level files, crafter-dataset's info, list, verify and exports,
# crafter-play's frames, crafter-bench's JSON without its timings, and the
# messages of refused options.  Takes about a minute.  crafter-bench's
# bytes_per_env is masked with its timings: it measures the build's
# memory layout (the sizes of its structs), not what the programs do.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: tests/corpus.sh DIR}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset CRAFTER_TEXTURES CRAFTER_KERNELS
step=$top/bin/crafter-step
gen=$top/bin/crafter-gen
score=$top/bin/crafter-score
bench=$top/bin/crafter-bench
dataset=$top/bin/crafter-dataset
play=$top/bin/crafter-play
tasks=$top/data/tasks/crafter-tasks.yaml
assets=$top/../shared/crafter-assets

# lines N COUNT SEED: COUNT lines of N random actions.
lines() {
  awk -v n="$1" -v count="$2" -v seed="$3" 'BEGIN { srand(seed); for (i = 0; i < count; i++) {
    line = ""; for (k = 0; k < n; k++) line = line (k ? " " : "") int(rand() * 17); print line } }'
}
# bytes COUNT SEED: COUNT random action bytes.
bytes() {
  awk -v count="$1" -v seed="$2" 'BEGIN { srand(seed); for (i = 0; i < count; i++) printf "%c", int(rand() * 17) }'
}
# case NAME COMMAND...: runs COMMAND, its stdout to NAME.out, its stderr
# and exit status to NAME.err.
case_() {
  name=$1
  shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "exit $?" >>"$out/$name.err"
}

printf 'players:\n  damage: 2\n  reward: shared\nitems:\n  wood: {max: 50, initial: 3}\nenv:\n  length: 300\n' >rules.yaml
printf 'crafter-world 1\nmap\n.@@..\n.....\n..T..\n' >duel.txt
"$gen" --seed 3 --save world3.txt 2>/dev/null
lines 1 1500 1 >one
lines 2 400 8 >two
lines 3 800 2 >three
lines 4 600 3 >four
lines 6 500 4 >six
bytes 6000 5 >b1
bytes 9000 6 >b3
bytes 12000 7 >b4

# crafter-step, JSON lines.
case_ step-default "$step" --seed 1 <one
case_ step-full "$step" --seed 2 --info full <one
case_ step-state-text "$step" --seed 3 --info state --obs text <one
for obs in pixels semantic symbolic; do
  case_ step-$obs "$step" --seed 4 --obs $obs -n 2 --length 300 <one
done
case_ step-envs "$step" --envs 3 --threads 2 --seed 5 --length 200 --info state <three
case_ step-params "$step" --area 32,24 --view 7,9 --size 49,63 --length 150 --no-reward \
  --obs pixels --info state -n 3 <one
case_ step-tasks "$step" --tasks "$tasks" --envs 3 --length 200 --obs text --info state <three
case_ step-split "$step" --tasks "$tasks" --split test-new-objects --envs 3 --length 100 <three
case_ step-levels "$step" --levels 5 --envs 3 --threads 2 --length 100 --info state <three
case_ step-levels-seq "$step" --levels 4 --level-order sequential --start-level 3 --envs 3 \
  --length 80 --info state <three
case_ step-config "$step" --config rules.yaml --players 2 --envs 2 --info state --obs symbolic <four
case_ step-world "$step" --world world3.txt --length 200 --info state --obs semantic <one
case_ step-players "$step" --players 2 --world duel.txt --config rules.yaml --info full <two
case_ step-players4 "$step" --players 4 --seed 6 --length 120 --obs symbolic --info state <four
# Each player's own view, goal and state in a world of several.
case_ step-players-text "$step" --players 2 --seed 7 --length 150 --obs text --info state <two
case_ step-players-tasks "$step" --players 2 --envs 2 --tasks "$tasks" --length 150 --obs semantic \
  --info full <four
case_ step-players-pixels "$step" --players 3 --seed 8 --length 100 --obs pixels --info full <three
case_ step-names "$step" <<EOF
noop
move_left
do
# a comment

make_wood_pickaxe
EOF
[ -d "$assets" ] && case_ step-crafter-textures "$step" --obs pixels --textures "$assets" -n 1 <one

# crafter-step, binary.
case_ bin-none "$step" --binary --seed 1 --length 200 <b1
case_ bin-pixels "$step" --binary --envs 3 --threads 2 --obs pixels --length 150 <b3
case_ bin-semantic "$step" --binary --envs 3 --obs semantic --tasks "$tasks" --length 150 <b3
case_ bin-symbolic "$step" --binary --envs 2 --players 2 --obs symbolic --length 150 <b4
case_ bin-manual "$step" --binary --manual-reset --length 50 --envs 3 <b3
case_ bin-levels "$step" --binary --levels 3 --envs 3 --threads 2 --length 100 <b3
case_ bin-final "$step" --binary --final-obs --obs semantic --envs 3 --length 60 <b3
printf '\375\000\000\000\000\200\000\000\000\140\000\000\000\000\001\002' |
  case_ bin-render "$step" --binary --obs pixels
# A render request of player 1's view, and the semantic maps of every
# player's frame entries.
printf '\000\001\375\001\000\000\000\200\000\000\000\140\000\000\000\002\003' |
  case_ bin-render-players "$step" --binary --players 2 --obs pixels
case_ bin-players-semantic "$step" --binary --players 2 --envs 2 --semantic --tasks "$tasks" \
  --obs symbolic --length 100 <b4

# Recordings.
case_ rec-step "$step" --record rec-step.traj --envs 3 --threads 2 --obs semantic --length 150 \
  --tasks "$tasks" <three
case_ rec-step-players "$step" --binary --record rec-players.traj --players 2 --envs 2 \
  --levels 3 --obs pixels --length 100 <b4
"$bench" --record rec-bench.traj --envs 4 --steps 3000 --repeats 1 --obs symbolic >/dev/null
case_ rec-random "$dataset" record -q -n 12 --steps 200 --obs pixels -o rec-random.traj
case_ rec-scripted "$dataset" record -q -a scripted -n 6 --steps 400 --tasks "$tasks" --threads 2 \
  --obs semantic -o rec-scripted.traj
case_ rec-dataset-players "$dataset" record -q -n 6 --steps 100 --players 3 --config rules.yaml \
  --obs symbolic -o rec-dataset-players.traj
case_ rec-levels "$dataset" record -q -n 8 --steps 80 --levels 4 --shard 2/3 -o rec-levels.traj
case_ rec-world "$dataset" record -q -n 3 --steps 100 --world world3.txt -o rec-world.traj
case_ rec-scripted-players "$dataset" record -q -a scripted -n 4 --steps 200 --players 2 \
  --tasks "$tasks" --obs semantic -o rec-scripted-players.traj
for f in rec-step rec-players rec-bench rec-random rec-scripted rec-dataset-players rec-levels \
    rec-world rec-scripted-players; do
  [ -f $f.traj ] && cp $f.traj "$out/$f.traj"
  case_ info-$f "$dataset" info $f.traj
  case_ list-$f "$dataset" list $f.traj
  case_ verify-$f "$dataset" verify --resimulate $f.traj
  case_ score-$f "$score" $f.traj
done
case_ merge "$dataset" merge -o merged.traj rec-random.traj rec-random.traj
"$dataset" record -q -n 5 --steps 200 --obs pixels --first-episode 13 -o rec-random9.traj
case_ merge1 "$dataset" merge -o merged1.traj rec-random9.traj rec-random.traj
case_ merge2 "$dataset" merge -o merged2.traj rec-levels.traj
cp merged2.traj "$out/merged2.traj" 2>/dev/null

# crafter-score.
mkdir run
"$dataset" export --format stats -o run/stats.jsonl rec-random.traj
for format in table json csv; do
  case_ score-$format "$score" --format $format rec-random.traj rec-scripted.traj run/stats.jsonl
done
case_ score-budget "$score" --budget 500 --method m --seed 4 run/stats.jsonl
case_ score-train "$score" --train-levels 2 rec-levels.traj

# Exports.
case_ export-stats "$dataset" export --format stats rec-scripted.traj
mkdir npz npz-players
case_ export-npz "$dataset" export --format npz -o npz rec-random.traj
case_ export-npz-players "$dataset" export --format npz -o npz-players rec-players.traj
for f in npz/* npz-players/*; do cp "$f" "$out/$(echo "$f" | tr / _)"; done
mkdir frames
case_ frames "$dataset" frames -E 2 -S 0,5,10-12 --size 96 -o frames rec-random.traj
for f in frames/*; do cp "$f" "$out/frames_$(basename "$f")"; done
case_ video "$dataset" video -E 1 -S 0-3 -o video.gif rec-scripted.traj
cp video.gif "$out/" 2>/dev/null
# Player 1's view, drawn again from the world re-simulated.
mkdir frames-players
case_ frames-players "$dataset" frames -E 1 -S 0,20,40-42 -o frames-players rec-dataset-players.traj
for f in frames-players/*; do cp "$f" "$out/frames-players_$(basename "$f")"; done

# crafter-gen.
case_ gen-ascii "$gen" --seed 7
case_ gen-semantic "$gen" --seed 8 --episode 3 --semantic --area 40,30
case_ gen-players "$gen" --seed 9 --players 5
case_ gen-config "$gen" --config rules.yaml --seed 2
case_ gen-world "$gen" --world duel.txt
case_ gen-png "$gen" --seed 10 --png map.png --unit 4
cp map.png "$out/" 2>/dev/null
case_ gen-save "$gen" --seed 11 --players 2 --save -
# (without the timings)
"$gen" --stats --seeds 1-40 --threads 2 2>&1 | sed -E 's/ in [0-9.]+ s (.*): [0-9.]+ ms a world/ in T s \1: T ms a world/' >"$out/gen-stats.out"
"$gen" --stats --seeds 1-20 --format json 2>&1 | sed -E 's/"(seconds|ms_per_world)": [^,}]*/"\1": T/g' >"$out/gen-stats-json.out"
case_ gen-levels "$gen" --levels 6 --seed 3
case_ gen-save-levels "$gen" --levels 5 --seed 4 --save-levels levels.bin
cp levels.bin "$out/" 2>/dev/null
case_ step-levels-file "$step" --levels levels.bin --length 60 --info state --envs 3 <three

# crafter-play.
case_ play-keys "$play" --seed 3 --keys 'dddddddd wwww  aaaa s1t' --glyphs
case_ play-keys-2 "$play" --seed 3 --players 2 --keys 'dd  ' --glyphs
case_ play-replay "$play" --replay rec-random.traj --episode-index 3 --no-wait --glyphs
case_ play-replay-players "$play" --replay rec-players.traj --episode-index 1 --no-wait --glyphs
case_ play-replay-players-colour "$play" --replay rec-scripted-players.traj --episode-index 3 \
  --no-wait --colors truecolor

# crafter-bench: its JSON without figures that are timings.
for f in merged1.traj; do [ -f $f ] && cp $f "$out/"; done
for args in "--envs 4" "--obs pixels --envs 2" "--players 3 --levels 3" \
    "--tasks $tasks --obs semantic"; do
  name=bench-$(echo "$args" | sed "s|$tasks|tasks|" | tr -c 'a-z0-9' '_' | cut -c1-40)
  # shellcheck disable=SC2086
  "$bench" $args --threads 1 --steps 2000 --repeats 1 --format json 2>"$out/$name.err" |
    sed -E 's/"(sps|player_sps|resets_per_s|reset_us|seconds|cpu|cpu_name|date|elapsed|[a-z_]*_us|[a-z_]*_per_s|prepared_starts|starts|bytes_per_env)": [^,}]*/"\1": T/g' \
      >"$out/$name.out"
done

# Refusals and their messages.
case_ bad-step "$step" --players 17
case_ bad-step2 "$step" --obs nothing
case_ bad-step3 "$step" --area 0,5
case_ bad-gen "$gen" --seeds 5-1 --stats
case_ bad-dataset "$dataset" record -o x.traj --shard 4/3
case_ bad-score "$score" --format yaml
case_ bad-bench "$bench" --threads 0
case_ bad-play "$play" --players 3 --keys a
for p in step gen score bench dataset play; do
  case_ help-$p "$top/bin/crafter-$p" --help
done

# Every way an option is read or refused.  The programs run by their bare
# names, so that getopt's own messages (which name argv[0]) do not depend
# on where the build is; with no input.
PATH=$top/bin:$PATH
export PATH
# show COMMAND...: the command, its output (stdout too with -o) cut at
# 300 bytes, and its exit status.
show() {
  both=
  [ "$1" = -o ] && both=1 && shift
  echo "\$ $*"
  if [ -n "$both" ]; then "$@" </dev/null >said 2>&1; else "$@" </dev/null 2>said >/dev/null; fi
  status=$?
  head -c 300 said
  echo "exit $status"
}
# shows PROGRAM ARGS...: show for each ARGS (words, quotes kept) after PROGRAM.
shows() {
  program=$1
  shift
  for args in "$@"; do eval "show $program $args"; done
}
for p in step gen score bench play; do
  case_ version-$p crafter-$p --version
  case_ version-short-$p crafter-$p -V
  case_ help-short-$p crafter-$p -h
  case_ unexpected-$p crafter-$p --seed 1 stray </dev/null
done
case_ help-dataset-short crafter-dataset -h
case_ help-dataset-record crafter-dataset record --help
case_ help-dataset-info crafter-dataset info -h
case_ version-dataset crafter-dataset --version
case_ version-dataset-record crafter-dataset record -V
case_ no-command crafter-dataset
case_ unknown-command crafter-dataset shuffle
# Every abbreviation of every long option (an ambiguous one lists its
# candidates), with and without an argument, and every letter, in each
# program; each dataset command.  sweep PROGRAM COMMAND: the long options
# are those its --help names (with "=": those that take an argument);
# abbreviations of up to four letters and the whole name.  Nothing here
# gets to run the program but flags that need nothing more (crafter-step -b).
sweep() {
  program=$1
  command=$2
  "$program" --help >help.txt
  takes=" $(grep -oE -- '--[a-z][a-z-]*=' help.txt | sed 's/^--//; s/=$//' | sort -u | tr '\n' ' ') "
  seen=" "
  for name in $(grep -oE -- '--[a-z][a-z-]*' help.txt | sed 's/^--//' | sort -u) level-order episode; do
    for length in 1 2 3 4 ${#name}; do
      [ $length -gt ${#name} ] && continue
      prefix=$(echo "$name" | cut -c1-$length)
      case $seen in *" $prefix "*) continue ;; esac
      seen="$seen$prefix "
      case $takes in
        *" $name "*) cases="--$prefix|--$prefix=x --zzz|--$prefix=0 --zzz" ;;
        *) cases="--$prefix --zzz|--$prefix=x --zzz" ;;
      esac
      old_ifs=$IFS
      IFS='|'
      for args in $cases; do
        IFS=$old_ifs
        # shellcheck disable=SC2086
        show -o "$program" $command $args
      done
      IFS=$old_ifs
    done
  done
  for letter in a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O \
      P Q R S T U V W X Y Z 0; do
    # shellcheck disable=SC2086
    show -o "$program" $command "-$letter"
    # shellcheck disable=SC2086
    show -o "$program" $command "-${letter}1" --zzz
  done
}
mkdir sweep
(cd sweep && for p in step gen score bench play; do sweep crafter-$p "" >"$out/sweep-$p.out"; done
  for c in record info frames video verify export merge list; do
    sweep crafter-dataset $c >"$out/sweep-dataset-$c.out"
  done)
# The value of each shared option refused, in each program that takes it
# (bench and dataset with little to do when one is accepted).
for p in step "dataset record -q -n 1 --steps 5 -o v.traj" play "bench --steps 100 --repeats 1" gen; do
  n=$(echo "$p" | cut -d' ' -f1)
  shows "crafter-$p" "--seed x" "--seed 99999999999999999999" "-s -1" "--area 0" "--area 4097,3" \
    "--area 3x" "--view 9,0" "--size ," "--length -1" "--length 1000000001" "--first-episode 0" \
    "-e 2147483648" "--episode 0" "--episodes -1" "-n 0" "-n 2147483648" "--envs 0" \
    "-N 100001" "--threads 0" "-T 1025" "--players 0" "--players 17" "--players 3" \
    "--obs text" "--obs bogus" "-O none" "--textures" "--tasks ''" "--split bogus" "--task ''" \
    "--levels ''" "--levels 0" "--levels 1000001" "--start-level 0" "--level-order bogus" \
    "--record ''" "--config ''" "--world ''" "--players 1x" "--seed=" "--area=" \
    "--split test --tasks" "--start-level 2" "--level-order random" "--task x" \
    "--levels 2 --world w.txt" "--levels 2 --first-episode 3" \
    "--levels 2 --start-level 2147483647" "--players '$(printf '\033[2J')'" "--players 'a\\b'" \
    "--seed '$(printf '\302\233')'" "--no-reward --zzz" >"$out/values-$n.out"
done
# Each program's own options refused.
{
  shows crafter-step "--info bogus" "-i full -b" "--binary --manual-reset --final-obs" \
    "--semantic" "--shm-fd -1" "--shm-slots 65" "--shm-slots 0" "--final-obs -b --players 2" \
    "--envs 5000 --players 16" "-N 65537" "--textures x" "--record ''" "-b --obs text"
  shows crafter-gen "--unit 0" "--unit 257" "--seeds 3-" "--seeds x" "--format xml" \
    "--save-levels ''" "--stats --seed 3" "--stats --world w" "--seeds 1-2" "--world w --seed 1" \
    "--textures x" "--ascii --semantic" "--levels 2 --stats" "--levels 2 --level-order random" \
    "--view 5,5" "--save-levels x" "--players 2 --stats" "--players 2 --levels 2" "--unit 3" \
    "-T 2" "--episode 3 --world w" "--ascii --save -"
  shows crafter-score "--method ''" "--seed ''" "--budget x" "--budget -1" "--budget inf" \
    "--plot x.gif" "--train-seed 3" "--train-start 2" "--train-levels ''" "--train-levels 0" \
    "--train-levels 2 --train-seed x" "--train-levels 2 --train-start 2147483647" \
    "--train-levels 3 --train-start 0"
  shows crafter-bench "--obs text" "--obs bogus" "--steps 0" "-S x" "--seconds 0" "--seconds x" \
    "--repeats 64" "-R 0" "--format xml" "--sweep bogus" "--plot x.png" "--seed 2147483648" \
    "-s -1" "--levels 2 --world w" "--envs 100001" "--players 17"
  shows crafter-play "--replay ''" "--record ''" "--episode-index 1" "--no-wait" "--colors bogus" \
    "--cell 0" "--cell 17" "--speed 0" "--fps 1001" "--episode-index -1" "--replay x --seed 2" \
    "--replay x --episode 2" "--replay x --record y" "--players 2 --record y" \
    "--players 2 --replay x" "--replay x --tasks y" "--replay x --levels 2" \
    "--levels 2 --episode 2" "--no-wait --keys a --replay x" "--fps 3 --keys a" \
    "--glyphs --colors 256" "--glyphs --cell 3" "--glyphs --textures x" \
    "--keys a --players 2 --fps 2" "--cell 'a\\b'" "--colors '$(printf '\033[2J')'" \
    "--players '$(printf '\033[2J')'" "--seed x --keys a" "--speed '$(printf '\302\233')'"
  shows crafter-dataset "record" "record -o x --agent bogus" "record -o x --shard 1" \
    "record -o x --shard 0/2" "record -o x --textures t" "record -o x --obs text" \
    "record -o x --steps 0" "record x.traj" "record -o x --fps 3" "info" "list a b" "verify" \
    "merge a" "export a" "export --format xml a" "export --format npz a" \
    "export a b --format stats" "frames" "frames a b" "video a" "video -o v.gif a b" \
    "frames -E -1 a" "video --fps 0 -o v.gif a" "video --fps 101 -o v.gif a" \
    "video -f bogus -o v a" "info --agent random a" "list -o x a" "verify --steps 3 a" \
    "frames --shard 1/2 a" "merge --fps 3 -o x a" "frames -n 3 a" "export -S 1 a" "info -S 1 a" \
    "info --resimulate a" "record -r -o x" "record --size 3 -o x --obs pixels -q -n 1 --steps 1"
} >"$out/own-options.out"
# Files the options name that cannot be opened, or disagree, in each
# program; two at once, to see which is said first.
printf 'crafter-world 1\nmap\n.@\n..\n' >small.txt
printf 'not: [yaml\n' >broken.yaml
"$gen" --levels 2 --seed 5 --save-levels five.lvl 2>/dev/null
cp "$tasks" tasks.yaml
for p in step "dataset record -o o.traj -q -n 1 --steps 5" "play --keys a" \
    "bench --steps 10 --repeats 1" gen; do
  n=$(echo "$p" | cut -d' ' -f1)
  shows "crafter-$p" "--config missing.yaml" "--config broken.yaml" "--world missing.txt" \
    "--world small.txt --area 5,5" "--tasks missing.yaml" "--tasks broken.yaml" \
    "--tasks tasks.yaml --task nothing" "--levels missing.lvl" "--levels five.lvl --seed 4" \
    "--levels five.lvl --start-level 2" "--levels five.lvl --area 9,9" \
    "--config missing.yaml --tasks missing.yaml" "--tasks missing.yaml --levels missing.lvl" \
    "--config broken.yaml --world missing.txt" "--view 99,99 --tasks missing.yaml" \
    "--view 99,99 --levels 2" "--view 99,99 --levels missing.lvl" \
    "--view 99,99 --config missing.yaml" "--levels missing.lvl --config broken.yaml" \
    "--world small.txt --players 3" >"$out/files-$n.out"
done
# Craftax-Classic: crafter-step's both protocols and modes, recordings and
# what crafter-dataset and crafter-score make of them, level sets, maps,
# frames of letters and crafter-bench's JSON.
cc="--game craftax-classic"
head -c 600 b3 >b3short
case_ cc-step "$step" $cc --seed 1 --info state <one
case_ cc-step-symbolic "$step" $cc --seed 2 --obs symbolic --info state <one
head -n 40 one >one40
case_ cc-step-pixels "$step" $cc --seed 3 --obs pixels -n 0 <one40
case_ cc-step-envs "$step" $cc --envs 3 --threads 2 --seed 5 --obs symbolic --info state <three
case_ cc-step-levels "$step" $cc --levels 5 --envs 3 --info state <three
case_ cc-step-levels-seq "$step" $cc --levels 4 --level-order sequential --start-level 3 \
  --envs 3 --info state <three
{ head -n 50 one; echo "save 0"; } | case_ cc-step-save "$step" $cc -n 0 --info state
case_ cc-bin-none "$step" $cc --binary --seed 1 <b1
case_ cc-bin-symbolic "$step" $cc --binary --envs 3 --threads 2 --obs symbolic <b3
case_ cc-bin-pixels "$step" $cc --binary --envs 2 --obs pixels <b3short
case_ cc-bin-manual "$step" $cc --binary --manual-reset --obs symbolic --envs 3 <b3
case_ cc-bin-final "$step" $cc --binary --final-obs --obs symbolic --envs 3 <b3
case_ cc-bin-levels "$step" $cc --binary --levels 3 --envs 3 --threads 2 <b3
case_ cc-rec-step "$step" $cc --record cc-rec-step.traj --envs 3 --threads 2 --obs symbolic <three
case_ cc-rec "$dataset" record -q $cc -n 9 --envs 3 --seed 4 -o cc-rec.traj
case_ cc-rec-pixels "$step" $cc --binary --obs pixels --envs 2 --record cc-rec-pixels.traj <b3short
case_ cc-rec-levels "$dataset" record -q $cc -n 6 --seed 4 --first-episode 3 -o cc-rec-levels.traj
for f in cc-rec-step cc-rec cc-rec-pixels cc-rec-levels; do
  [ -f $f.traj ] && cp $f.traj "$out/$f.traj"
  case_ info-$f "$dataset" info $f.traj
  case_ list-$f "$dataset" list $f.traj
  case_ verify-$f "$dataset" verify --resimulate $f.traj
  case_ score-$f "$score" $f.traj
done
case_ cc-merge "$dataset" merge -o cc-merged.traj cc-rec.traj cc-rec-levels.traj
cp cc-merged.traj "$out/" 2>/dev/null
case_ cc-score-json "$score" --format json cc-rec.traj cc-rec-levels.traj
case_ cc-export-stats "$dataset" export --format stats cc-rec.traj
mkdir cc-npz cc-frames
case_ cc-export-npz "$dataset" export --format npz -o cc-npz cc-rec-levels.traj
case_ cc-frames "$dataset" frames -E 1 -S 0,5,10-12 -o cc-frames cc-rec-pixels.traj
for f in cc-npz/* cc-frames/*; do cp "$f" "$out/$(echo "$f" | tr / _)"; done
case_ cc-video "$dataset" video -E 1 -S 0-3 -o cc-video.gif cc-rec-pixels.traj
cp cc-video.gif "$out/" 2>/dev/null
case_ cc-gen "$gen" $cc --seed 7
case_ cc-gen-png "$gen" $cc --seed 10 --png cc-map.png --unit 2
cp cc-map.png "$out/" 2>/dev/null
"$gen" $cc --stats --seeds 1-40 --threads 2 2>&1 | sed -E 's/ in [0-9.]+ s (.*): [0-9.]+ ms a world/ in T s \1: T ms a world/' >"$out/cc-gen-stats.out"
"$gen" $cc --stats --seeds 1-20 --format json 2>&1 | sed -E 's/"(seconds|ms_per_world)": [^,}]*/"\1": T/g' >"$out/cc-gen-stats-json.out"
case_ cc-gen-levels "$gen" $cc --levels 6 --seed 3
case_ cc-gen-save-levels "$gen" $cc --levels 5 --seed 4 --save-levels cc-levels.bin
cp cc-levels.bin "$out/" 2>/dev/null
case_ cc-step-levels-file "$step" $cc --levels cc-levels.bin --info state --envs 3 <three
case_ cc-play "$play" $cc --seed 3 --keys 'dddddddd wwww  aaaa s1t'
for args in "--envs 4" "--obs pixels --envs 2" "--levels 3 --envs 3"; do
  name=cc-bench-$(echo "$args" | tr -c 'a-z0-9' '_' | cut -c1-40)
  # shellcheck disable=SC2086
  "$bench" $cc $args --threads 1 --steps 2000 --repeats 1 --format json 2>"$out/$name.err" |
    sed -E 's/"(sps|player_sps|resets_per_s|reset_us|seconds|cpu|cpu_name|date|elapsed|[a-z_]*_us|[a-z_]*_per_s|prepared_starts|starts|bytes_per_env)": [^,}]*/"\1": T/g' \
      >"$out/$name.out"
done
{
  for p in step gen score bench dataset play; do
    shows "crafter-$p" "--game craftax-classic --seed x" "--game bogus" "--game craftax-classic --players 2" \
      "--game craftax-classic --tasks t.yaml" "--game craftax-classic --config c.yaml" \
      "--game craftax-classic --levels cc.lvl"
  done
} >"$out/cc-options.out"
# Large outputs are kept as their checksums.
find "$out" -type f -size +1M | while read -r f; do
  sha256sum <"$f" >"$f.sha256" && rm -f "$f"
done
exit 0
