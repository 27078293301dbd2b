#!/bin/sh
# crafter-score --llm against the suites' own computations, on the same
# episodes of crafter 1.8.3 (make reference-env): BALROG's progression
# and standard error from BALROG's get_stats and its own summary
# (balrog/environments/crafter/env.py and balrog/utils.py at a pinned
# commit, fetched into a cache outside the project), and SmartPlay's score
# and normalised score as its crafter_env.py and eval.py compute them
# (tests/reference/llm_scores.py); from trajectory files and stats.jsonl
# logs, to the bit.  And a changed standard error is found.
. "$(dirname "$0")/tap.sh"
plan 2
# The Python of make balrog-env (crafter 1.8.3 with gym and SciPy, which
# BALROG's files import) where it is made, else the reference's.
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
BALROG_ENV=${BALROG_ENV:-$top/build-reference/balrog-venv}
python=$REFERENCE_ENV/bin/python
[ -x "$BALROG_ENV/bin/python" ] && python=$BALROG_ENV/bin/python
script=$top/tests/reference/llm_scores.py
if [ ! -x "$python" ]; then
  skip "the reference is not installed (make reference-env or balrog-env): the suites' scores were NOT compared"
  skip "the reference is not installed: a planted difference was NOT checked"
  finish
fi

"$python" "$script" >"$scratch/log" 2>"$scratch/err"
status=$?
[ $status -ne 0 ] && diag <"$scratch/err"
if [ $status -eq 3 ]; then
  skip "BALROG's files are not in the cache and cannot be downloaded (no network?): $(tail -n 1 "$scratch/log" | cut -c1-160); the suites' scores were NOT compared"
  skip "BALROG's files unavailable: a planted difference was NOT checked"
  finish
fi
[ $status -ne 0 ] && diag <"$scratch/log"
grep -q "identical to the suites' computations" "$scratch/log"
ok $(( status || $? )) "BALROG's progression and SmartPlay's score are the suites': $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "BALROG's progression and SmartPlay's score of $(sed -n 's/^llm: \([0-9]*\) episodes.*/\1/p' "$scratch/log") episodes of crafter 1.8.3 with the suites' computations"

# A standard error with a digit more in front.
cat >"$scratch/changed" <<SH
#!/bin/sh
"$top/bin/crafter-score" "\$@" | sed 's/"standard_error": \([0-9]\)/"standard_error": 1\1/'
SH
chmod +x "$scratch/changed"
"$python" "$script" --quick --crafter-score "$scratch/changed" >"$scratch/planted" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "DIFFERENCE: standard error" "$scratch/planted"
status=$?
[ $status -ne 0 ] && diag <"$scratch/planted"
ok $status "a changed standard error is found"
finish
