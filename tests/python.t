#!/bin/sh
# The Python package (python/crafter_toolkit) under pytest, twice:
#
# - in the reference's virtual environment (make reference-env): drop-in
#   crafter.Env and Recorder side by side with crafter 1.8.3 (numpy 1.24),
#   the Gymnasium env and VectorEnv, both transports, recording, the
#   bench, and errors (a child that dies, bad actions, wrong shapes);
# - in the clients' (make clients-env): the same tests beside numpy 2,
#   and those of the clients themselves: Stable-Baselines3 training,
#   Gymnasium's checkers and wrappers, make_vec, crafter's README with gym,
#   Ray's recording and RLlib's PPO on a local cluster of two nodes, Minari
#   datasets written and read back.
#
# Either run plays BALROG's Crafter environment (its files fetched at a
# pinned commit, python/tests/test_balrog.py) over crafter 1.8.3 and over
# the package in the Python of make balrog-env, where it is made.
#
# Without either, a python3 that has numpy and pytest runs what needs
# neither the reference nor the clients.
. "$(dirname "$0")/tap.sh"
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
CLIENTS_ENV=${CLIENTS_ENV:-$top/build-reference/clients-venv}
plan 2
CRAFTER_STEP=$top/bin/crafter-step
export CRAFTER_STEP

# start_tests NAME PYTHON: the package's tests under that python, started
# in the background (the runs share nothing but the sources, and each
# takes minutes: side by side they take the longer one's time on two
# cores); report_tests, once they are all started, waits for each and
# says how it went, in the order they were started.  The tests a run
# skipped go to $scratch/skipped.N, one "file:line: reason" each.
runs=0
start_tests() {
  runs=$((runs + 1))
  echo "$1" >"$scratch/name.$runs"
  (cd "$top/python" && "$2" -m pytest -q -rs -p no:cacheprovider tests) >"$scratch/log.$runs" 2>&1 &
  echo $! >"$scratch/pid.$runs"
}
report_tests() {
  for k in $(seq 1 "$runs"); do
    wait "$(cat "$scratch/pid.$k")"
    status=$?
    [ $status -ne 0 ] && diag <"$scratch/log.$k"
    summary=$(tail -n 1 "$scratch/log.$k" | sed 's/^=* *//; s/ *=*$//')
    ok $status "the Python package's tests, $(cat "$scratch/name.$k"): $summary"
    grep '^SKIPPED' "$scratch/log.$k" | sed 's/^SKIPPED \[[0-9]*\] //' | sort -u >"$scratch/skipped.$k"
  done
}

if [ -x "$REFERENCE_ENV/bin/python" ]; then
  start_tests "beside the reference" "$REFERENCE_ENV/bin/python"
elif command -v python3 >/dev/null && python3 -c 'import numpy, pytest' 2>/dev/null; then
  start_tests "with $(command -v python3)" python3
else
  skip "no python3 with numpy and pytest (make reference-env makes one): the Python package was NOT tested"
fi

if [ -x "$CLIENTS_ENV/bin/python" ]; then
  start_tests "inside the clients" "$CLIENTS_ENV/bin/python"
else
  skip "the clients are not installed (make clients-env): Stable-Baselines3, Gymnasium's checkers, PettingZoo, gym, Ray, RLlib and Minari were NOT run"
fi
report_tests
# What no run ran was not checked (a test one run skips, another may run).
if [ "$runs" -gt 0 ]; then
  cp "$scratch/skipped.1" "$scratch/never"
  for k in $(seq 2 "$runs"); do
    cut -d: -f1-2 "$scratch/skipped.$k" | sort -u >"$scratch/where"
    awk -F: 'NR == FNR { seen[$1 ":" $2] = 1; next } ($1 ":" $2) in seen' \
      "$scratch/where" "$scratch/never" >"$scratch/both" && mv "$scratch/both" "$scratch/never"
  done
  while read -r line; do report skipped "Python: $line"; done <"$scratch/never"
fi
finish
