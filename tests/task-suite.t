#!/bin/sh
# The instruction-task suite: data/tasks/crafter-tasks.yaml is what
# tests/unit/test-task-suite.c asks of it (its size, its splits, every
# family and difficulty; the breadth of its language; every sentence
# naming what its goal checks, by the synonym table data/tasks/synonyms.txt),
# and it is exactly what data/tasks/generate.sh assembles from the
# sentences of data/tasks/wordings, byte for byte; data/tasks/README gives
# its totals.
. "$(dirname "$0")/tap.sh"
suite=$top/data/tasks/crafter-tasks.yaml

"$top/tests/unit/test-task-suite" "$suite" "$top/data/tasks" >"$scratch/unit" 2>&1
status=$?
# Its results, numbered on into this test's own.
grep -v '^1\.\.' "$scratch/unit"
test_number=$(grep -c -e '^ok ' -e '^not ok ' "$scratch/unit")
failures=$(grep -c '^not ok ' "$scratch/unit")
[ "$status" -eq 0 ] || [ "$failures" -gt 0 ]
ok $? "test-task-suite ends as its results say (exit status $status)"

sh "$top/data/tasks/generate.sh" >"$scratch/generated" 2>"$scratch/errors"
ok $? "data/tasks/generate.sh runs"
diag <"$scratch/errors"
cmp "$scratch/generated" "$suite" >"$scratch/cmp" 2>&1
ok $? "data/tasks/crafter-tasks.yaml is what data/tasks/generate.sh assembles (make tasks)"
diag <"$scratch/cmp"

# data/tasks/README gives the totals of the file.
goals=$(grep -c "^  - id: " "$suite")
texts=$(grep -c -e "^    instruction: " -e "^      - " "$suite")
grep -q "^Totals: $goals goals, $texts instruction texts\.\$" "$top/data/tasks/README"
ok $? "data/tasks/README gives the totals: $goals goals, $texts instruction texts"
plan "$test_number"
finish
