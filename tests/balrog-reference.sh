# Shell helpers for the tests that hold crafter-step's or crafter-score's
# LLM suites' output against the suites' own files (balrog-text.t,
# llm-scores.t): source it after tap.sh.  Each test runs a script of
# tests/reference that compares the two and exits 3 where BALROG's files
# are not in the cache and cannot be downloaded, and then shows that a
# difference planted in the program's output is found.
#
# The Python of make balrog-env (crafter 1.8.3 with gym and SciPy, which
# BALROG's files import) where it is made, else the reference's.
REFERENCE_ENV=${REFERENCE_ENV:-$top/build-reference/venv}
BALROG_ENV=${BALROG_ENV:-$top/build-reference/balrog-venv}
python=$REFERENCE_ENV/bin/python
[ -x "$BALROG_ENV/bin/python" ] && python=$BALROG_ENV/bin/python

# balrog_compare SCRIPT COMPARED MISSING MISSING_COMPARED FILES: runs
# tests/reference/SCRIPT into $scratch/log (its status in status, the
# script's path in script).  The test's two checks are skipped, and it
# finishes, where no Python is installed (COMPARED were NOT compared) or
# the script exits 3 (MISSING and cannot be downloaded; MISSING_COMPARED
# were NOT compared; FILES unavailable).
balrog_compare() {
  script=$top/tests/reference/$1
  if [ ! -x "$python" ]; then
    skip "the reference is not installed (make reference-env or balrog-env): $2 were NOT compared"
    skip "the reference is not installed: a planted difference was NOT checked"
    finish
  fi
  "$python" "$script" >"$scratch/log" 2>"$scratch/err"
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/err"
  if [ $status -eq 3 ]; then
    skip "$3 and cannot be downloaded (no network?): $(tail -n 1 "$scratch/log" | cut -c1-160); $4 were NOT compared"
    skip "$5 unavailable: a planted difference was NOT checked"
    finish
  fi
  [ $status -ne 0 ] && diag <"$scratch/log"
  return 0
}
