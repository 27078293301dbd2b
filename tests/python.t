#!/bin/sh
# The Python package (python/crafter_toolkit) under pytest: drop-in
# crafter.Env side by side with crafter 1.8.3, the Gymnasium env and
# VectorEnv, both transports, recording, the bench, and errors (a child
# that dies, bad actions, wrong shapes).  In the reference's virtual
# environment (make reference-env) everything runs; with a python3 that
# has numpy and pytest, what needs neither the reference nor gymnasium.
. "$(dirname "$0")/tap.sh"
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
plan 1
python=""
if [ -x "$REFERENCE_ENV/bin/python" ]; then
  python=$REFERENCE_ENV/bin/python
elif command -v python3 >/dev/null && python3 -c 'import numpy, pytest' 2>/dev/null; then
  python=python3
fi
if [ -z "$python" ]; then
  skip "no python3 with numpy and pytest (make reference-env makes one): the Python package was NOT tested"
  finish
fi
CRAFTER_STEP=$top/bin/crafter-step
export CRAFTER_STEP
(cd "$top/python" && "$python" -m pytest -q -rs -p no:cacheprovider tests) >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
summary=$(tail -n 1 "$scratch/log" | sed 's/^=* *//; s/ *=*$//')
ok $status "the Python package's tests: $summary"
grep '^SKIPPED' "$scratch/log" | sed 's/^SKIPPED \[[0-9]*\] //' | sort -u | while read -r line; do
  report skipped "Python: $line"
done
finish
