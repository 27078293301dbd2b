# Shell helpers for the tests that hold a Craftax-Classic piece against
# JAX itself (craftax-worlds.t, craftax-obs.t, craftax-pixels.t): source
# it after tap.sh.  Each test runs a script of tests/reference with
# --compare PROGRAM N, which draws N fresh seeds, asks PROGRAM (a unit
# test's binary) for the C side and says the first difference, and then
# shows a difference planted in PROGRAM's output is found.
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python

# craftax_or_skip WHAT: skips the test's two checks, saying WHAT was not
# compared, where the reference is not installed; otherwise nothing.
craftax_or_skip() {
  [ -x "$python" ] && return 0
  skip "Craftax-Classic is not installed (make craftax-env): $1 were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  finish
}

# craftax_compare SCRIPT PROGRAM N: SCRIPT's comparison of N fresh seeds
# into $scratch/log; its status.
craftax_compare() {
  "$python" "$top/tests/reference/$1" --compare "$2" "$3" >"$scratch/log" 2>&1
  status=$?
  [ $status -ne 0 ] && diag <"$scratch/log"
  return $status
}

# craftax_planted SCRIPT PROGRAM AWK DESCRIPTION PATTERN...: PROGRAM's
# output changed by the awk program AWK, compared on 2 seeds, must fail
# with a report holding every grep PATTERN.
craftax_planted() {
  script=$1 program=$2 change=$3 description=$4
  shift 4
  cat >"$scratch/planted" <<SH
#!/bin/sh
"$program" "\$@" | awk '$change'
SH
  chmod +x "$scratch/planted"
  "$python" "$top/tests/reference/$script" --compare "$scratch/planted" 2 >"$scratch/out" 2>&1
  found=$?
  [ $found -eq 1 ] && found=0 || found=1
  for pattern in "$@"; do grep -q "$pattern" "$scratch/out" || found=1; done
  [ $found -ne 0 ] && diag <"$scratch/out"
  ok $found "$description: $(tail -n 1 "$scratch/out" | cut -c1-100)"
}
