#!/bin/sh
# A dataset of crafter-dataset record as a Slurm job array: each array task
# records one shard, OUTDIR/shard-K-of-N.traj, and a merge of the N shards
# is the file one crafter-dataset record with the same options writes on
# one machine, byte for byte.
#
#   sbatch --array=1-32 --cpus-per-task=4 examples/slurm/record.sh \
#       runs/random -n 100000 --obs pixels
#   ls runs/random/shard-*-of-32.traj | wc -l    # 32 once every task ended
#   crafter-dataset merge -o random.traj runs/random/shard-*-of-32.traj
#
# The array is a range MIN-MAX or MIN-MAX:STEP (a "%LIMIT" suffix is fine);
# its task K (from 1) of N records --shard K/N, read from
# SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN,
# SLURM_ARRAY_TASK_MAX and SLURM_ARRAY_TASK_STEP.  Without --threads it
# records on SLURM_CPUS_PER_TASK threads.  A shard is written beside its
# name and renamed once whole, so a task that was stopped (preempted, out
# of time) leaves no shard for the merge; run it again
# (sbatch --array=K ...) and the shard is the same bytes.  crafter-dataset
# is the one CRAFTER_DATASET names, else the one on PATH.
#SBATCH --job-name=crafter-record
#SBATCH --ntasks=1

program=$(basename "$0")
usage() {
  echo "$program: $1" >&2
  echo "usage: sbatch --array=MIN-MAX[:STEP] $program OUTDIR [crafter-dataset record's options]" >&2
  exit 2
}
[ $# -ge 1 ] || usage "OUTDIR is missing"
outdir=$1
shift
threads=
for option in "$@"; do
  case $option in
    --shard | --shard=* | -o | --output | --output=* | -o?*)
      usage "$option is this script's: it gives each task its shard and file" ;;
    -T | -T?* | --threads | --threads=*) threads=given ;;
  esac
done
for name in SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX; do
  eval "value=\${$name:-}"
  case $value in
    '' | *[!0-9]*) usage "$name is '$value', not a number: run as a Slurm array job (sbatch --array)" ;;
  esac
done
id=$SLURM_ARRAY_TASK_ID count=$SLURM_ARRAY_TASK_COUNT
min=$SLURM_ARRAY_TASK_MIN max=$SLURM_ARRAY_TASK_MAX step=${SLURM_ARRAY_TASK_STEP:-1}
case $step in '' | *[!0-9]* | 0) step=1 ;; esac
# Only a range numbers its tasks 1..N from their ids; a list such as 1,4,9
# would give shards no merge could check were all there.
if [ $((min + (count - 1) * step)) -ne "$max" ] || [ $(((id - min) % step)) -ne 0 ] ||
  [ "$id" -lt "$min" ] || [ "$id" -gt "$max" ]; then
  usage "the array is not a range MIN-MAX[:STEP] (ids $min..$max, step $step, $count tasks, this one $id)"
fi
shard=$(((id - min) / step + 1))
mkdir -p "$outdir" || exit 1
name=$outdir/shard-$shard-of-$count.traj
part=$outdir/.shard-$shard-of-$count.traj.part
if [ -z "$threads" ] && [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then
  set -- "$@" --threads "$SLURM_CPUS_PER_TASK"
fi
rm -f "$part"
"${CRAFTER_DATASET:-crafter-dataset}" record --quiet "$@" --shard "$shard/$count" -o "$part" ||
  { status=$?; rm -f "$part"; exit $status; }
mv -f "$part" "$name" && echo "$program: shard $shard of $count: $name"
