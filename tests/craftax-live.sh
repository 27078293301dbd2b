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

# craftax_fresh SCRIPT PROGRAM N WHAT: SCRIPT's comparison of N fresh
# seeds, said as the test's check that WHAT are JAX's; its status in
# status.  The pinned reference is jax 0.10.1; 0.10.2 compiles the graph
# otherwise and 3 of the first 10,000 seeds' Craftax-Classic worlds
# differ by a cell from 0.10.1's (seeds 2620, 6527, 7726).  Under another
# version a difference is said, but as a TODO: it is that version's, not
# the generator's.
craftax_fresh() {
  version=$("$python" -c 'import jax; print(jax.__version__)' 2>/dev/null)
  craftax_compare "$1" "$2" "$3"
  status=$?
  if [ $status -eq 1 ] && [ "$version" != 0.10.1 ]; then
    echo "not ok $((test_number + 1)) - fresh worlds against jax $version: $(tail -n 1 "$scratch/log" | cut -c1-80) # TODO jax $version is not the pinned 0.10.1"
    test_number=$((test_number + 1))
    report skipped "jax $version, not the pinned 0.10.1, made a world unlike 0.10.1's"
  else
    ok $status "$4 are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
  fi
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

# craftax_full_live_or_skip N WHAT: the full game's live checks (cx-*.t)
# each compile Craftax's step or reset in JAX, a minute or two apiece:
# make check-craftax-reference runs them (CRAFTAX_FULL_LIVE=1), and
# elsewhere the test's N checks are skipped, saying WHAT was not compared.
craftax_full_live_or_skip() {
  [ "${CRAFTAX_FULL_LIVE:-0}" = 1 ] && return 0
  count=$1
  shift
  while [ "$count" -gt 0 ]; do
    skip "$* were NOT compared with JAX here: make check-craftax-reference does (CRAFTAX_FULL_LIVE=1)"
    count=$((count - 1))
  done
  finish
}
