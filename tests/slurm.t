#!/bin/sh
# examples/slurm/record.sh as a Slurm job array would run it: each task
# with SLURM_ARRAY_TASK_ID and its friends set, one after the other, then
# the shards merged: one machine's crafter-dataset record, byte for byte.
. "$(dirname "$0")/tap.sh"
script=$top/examples/slurm/record.sh
dataset=$top/bin/crafter-dataset
CRAFTER_DATASET=$dataset
export CRAFTER_DATASET
plan 8
cd "$scratch" || exit 1
options="-n 9 --obs semantic --seed 5 -a scripted --steps 300"
"$dataset" record -q $options -o one.traj || exit 1

# array IDS MIN MAX STEP OUTDIR: run the tasks of an array, in reverse.
array() {
  ids=$1 min=$2 max=$3 step=$4 outdir=$5
  count=$(echo $ids | wc -w)
  for id in $(echo $ids | tr ' ' '\n' | sort -rn); do
    SLURM_ARRAY_JOB_ID=77 SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_COUNT=$count \
      SLURM_ARRAY_TASK_MIN=$min SLURM_ARRAY_TASK_MAX=$max SLURM_ARRAY_TASK_STEP=$step \
      SLURM_CPUS_PER_TASK=2 "$script" "$outdir" $options >>log 2>&1 || return 1
  done
}

array "0 1 2 3" 0 3 1 out1 &&
  [ "$(ls out1)" = "$(printf 'shard-1-of-4.traj\nshard-2-of-4.traj\nshard-3-of-4.traj\nshard-4-of-4.traj')" ]
ok $? "--array=0-3: a shard a task, shard-K-of-4.traj"
"$dataset" merge -o merged1.traj out1/shard-*-of-4.traj && cmp -s merged1.traj one.traj
ok $? "its shards merge into one machine's file"
[ "$(ls -A out1 | grep -c '^\.')" -eq 0 ]
ok $? "no part file left"

array "3 5 7" 3 7 2 out2 && "$dataset" merge -o merged2.traj out2/shard-*-of-3.traj &&
  cmp -s merged2.traj one.traj
ok $? "--array=3-7:2: three shards, and their merge is one machine's file"

SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=9 \
  "$script" out3 $options 2>err
[ $? -eq 2 ] && grep -q 'not a range' err && [ ! -e out3 ]
ok $? "an array that is not a range (--array=1,4,9) is refused"

env -u SLURM_ARRAY_TASK_ID "$script" out4 $options 2>err
[ $? -eq 2 ] && grep -q 'SLURM_ARRAY_TASK_ID' err && grep -q 'sbatch --array' err
ok $? "outside an array job: refused, saying so"

SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=1 \
  "$script" out5 $options --shard 1/2 2>err
[ $? -eq 2 ] && grep -q -- '--shard' err
ok $? "--shard is the script's"

SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=1 \
  "$script" out6 -n 2 --obs colour 2>err
[ $? -eq 2 ] && grep -q '^crafter-dataset: ' err && [ -z "$(ls -A out6)" ]
ok $? "crafter-dataset's refusal passes through, and no shard is left"
finish
