#!/bin/sh
# Every program's JSON is JSON: crafter-step's records of every kind,
# crafter-score --format json (with names that need escaping: a newline,
# a tab, a quote, a backslash, a control byte, broken UTF-8, in the
# method, the seed and the file's path), crafter-bench --format json,
# crafter-gen --stats --format json and crafter-dataset's stats.jsonl.
# Each line is read by the project's reader (tests/unit/test-json
# --check) and, where there is python3, by Python's json module, which
# also insists on UTF-8.  Only crafter-step's records, in the format of
# the reference traces that Python writes, may hold NaN and Infinity (a
# symbolic observation does where Craftax-Classic's float16 overflows).
. "$(dirname "$0")/tap.sh"
bin=$top/bin
check=$top/tests/unit/test-json
plan 19

# python_reads CONSTANTS FILE...: Python reads every non-blank line as one
# JSON text of UTF-8; NaN and Infinity only when CONSTANTS is "constants".
python_reads() {
  python3 -c '
import json, sys
def refuse(constant):
    raise ValueError("not JSON: " + constant)
hook = {} if sys.argv[1] == "constants" else {"parse_constant": refuse}
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    json.loads(line.decode("utf-8"), **hook)
                except ValueError as e:
                    sys.exit("%s:%d: %s" % (path, number, e))
' "$@"
}
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1
# both WHAT CONSTANTS FILE...: the project's reader and Python agree the
# files are JSON.
both() {
  what=$1 constants=$2
  shift 2
  "$check" --check "$@" >"$scratch/why" 2>&1
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/why"
  ok $status "$what: the project's reader takes every line"
  if [ $have_python -eq 1 ]; then
    python_reads "$constants" "$@" >"$scratch/why" 2>&1
    status=$?
    [ $status -ne 0 ] && diag <"$scratch/why"
    if [ "$constants" = constants ]; then
      ok $status "$what: Python's json takes every line as UTF-8"
    else
      ok $status "$what: Python's json takes every line as UTF-8, with no NaN or Infinity"
    fi
  else
    skip "$what: python3 is not installed"
  fi
}

awk 'BEGIN { srand(5); for (i = 0; i < 600; i++) print (rand() < 0.4 ? 5 : int(rand() * 17)) }' \
  >"$scratch/actions"
tasks=$top/data/tasks/crafter-tasks.yaml
steps="$scratch/step-short $scratch/step-state $scratch/step-full"
for info in short state full; do
  "$bin/crafter-step" --seed 1 --info $info -n 2 --length 150 <"$scratch/actions" >"$scratch/step-$info"
done
for obs in pixels semantic symbolic text; do
  head -30 "$scratch/actions" |
    "$bin/crafter-step" --seed 2 --obs $obs --info state --length 20 >"$scratch/step-obs-$obs"
  steps="$steps $scratch/step-obs-$obs"
done
# Three envs take three actions a line.
paste -d ' ' - - - <"$scratch/actions" >"$scratch/actions3"
"$bin/crafter-step" --seed 3 --envs 3 -n 2 --length 30 --info full <"$scratch/actions3" >"$scratch/step-envs" &&
  "$bin/crafter-step" --seed 3 --levels 3 -n 3 --length 40 --info state <"$scratch/actions" >"$scratch/step-levels" &&
  "$bin/crafter-step" --seed 3 --tasks "$tasks" -n 3 --length 40 --obs text --info full \
    <"$scratch/actions" >"$scratch/step-tasks"
ok $? "crafter-step writes records of every kind: short, state, full; observations; envs; levels; goals"
steps="$steps $scratch/step-envs $scratch/step-levels $scratch/step-tasks"
# Counts past float16's range: Infinity in the symbolic observation.
printf 'items: {wood: {max: 1000000, initial: 70000}}\n' >"$scratch/many.yaml"
head -5 "$scratch/actions" |
  "$bin/crafter-step" --config "$scratch/many.yaml" --obs symbolic --info full >"$scratch/step-inf"
grep -q '"obs": \[.*, Infinity, ' "$scratch/step-inf"
ok $? "crafter-step: a symbolic observation past float16's range holds Infinity, as Python writes it"
# shellcheck disable=SC2086 # the list of files splits on purpose
both "crafter-step" constants $steps "$scratch/step-inf"

# A log in a directory whose name, the method, needs escaping.
weird_dir=$(printf '%s/we"ird\\ dir\001 caf\303\251 \377' "$scratch")
mkdir -p "$weird_dir" && cp "$top/tests/data/score/walker/stats.jsonl" "$weird_dir/stats.jsonl"
"$bin/crafter-step" --seed 4 --record "$scratch/run.traj" -n 2 --length 100 <"$scratch/actions" >/dev/null &&
  "$bin/crafter-step" --seed 5 --tasks "$tasks" --record "$scratch/goals.traj" -n 3 --length 60 \
    <"$scratch/actions" >/dev/null &&
  "$bin/crafter-step" --seed 0 --levels 2 -n 3 --length 60 --record "$scratch/train.traj" \
    <"$scratch/actions" >/dev/null
ok $? "trajectories to score"
score() { "$bin/crafter-score" --format json "$@" 2>>"$scratch/score-err"; }
{
  score "$weird_dir/stats.jsonl" "$top/tests/data/score/runs.json" &&
    score --method "$(printf 'tab\there\nnewline "quoted" back\\slash \001 \377')" \
      --seed "$(printf 's"\t1')" - <"$top/tests/data/score/walker/stats.jsonl" &&
    score "$scratch/run.traj" "$scratch/goals.traj" &&
    score --train-levels 2 "$scratch/train.traj"
} >"$scratch/score"
ok $? "crafter-score --format json with names that need escaping, goals and levels"
[ "$(grep -c . "$scratch/score")" -eq 4 ]
ok $? "one line of JSON a run of crafter-score"
both "crafter-score" strict "$scratch/score"
if [ $have_python -eq 1 ]; then
  python3 -c '
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
method = lines[0]["methods"][0]["name"]
assert method == "we\"ird\\ dir\x01 caf\u00e9 \ufffd", repr(method)
assert lines[0]["runs"][0]["file"].endswith("/we\"ird\\ dir\x01 caf\u00e9 \ufffd/stats.jsonl")
assert lines[1]["methods"][0]["name"] == "tab\there\nnewline \"quoted\" back\\slash \x01 \ufffd"
assert lines[1]["runs"][0]["seed"] == "s\"\t1"
' "$scratch/score" 2>"$scratch/why"
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/why"
  ok $status "crafter-score's names read back as given (broken UTF-8 as U+FFFD)"
else
  skip "python3 is not installed"
fi

"$bin/crafter-bench" --steps 400 --repeats 1 --length 50 --format json >"$scratch/bench" &&
  "$bin/crafter-bench" --steps 400 --repeats 1 --envs 2 --threads 2 --sweep threads --format json >>"$scratch/bench" &&
  "$bin/crafter-bench" --steps 400 --repeats 1 --envs 3 --sweep envs --obs semantic --format json >>"$scratch/bench"
ok $? "crafter-bench --format json, alone and in sweeps"
both "crafter-bench" strict "$scratch/bench"

"$bin/crafter-gen" --stats --seeds 1-20 --format json >"$scratch/gen"
ok $? "crafter-gen --stats --format json"
both "crafter-gen" strict "$scratch/gen"

"$bin/crafter-dataset" export --format stats "$scratch/run.traj" >"$scratch/stats.jsonl"
ok $? "crafter-dataset export --format stats"
both "crafter-dataset" strict "$scratch/stats.jsonl"
finish
