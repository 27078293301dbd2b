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
. "$top/tests/balrog-reference.sh"
plan 2
balrog_compare llm_scores.py "the suites' scores" \
  "BALROG's files are not in the cache" "the suites' scores" "BALROG's files"
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
