#!/bin/sh
# JAX's random draws (lib/kernels/jaxrng.c) against JAX itself, on cases
# drawn afresh each run (tests/reference/jaxrng.py in Craftax-Classic's
# virtual environment, make craftax-env): every value of every case, bit
# for bit, called as JAX runs them by default and inside jax.jit as
# Craftax does; and the same comparison refuses what JAX draws with its
# other, non-partitionable layout.  The seed of the cases is printed, to
# run them again: tests/reference/jaxrng.py --seed SEED --quick.
. "$(dirname "$0")/tap.sh"
plan 3
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python
check=$top/tests/unit/test-jaxrng
if [ ! -x "$python" ]; then
  skip "JAX is not installed (make craftax-env): JAX's random draws were NOT compared with fresh cases (the golden file still is, by unit-jaxrng.t)"
  skip "JAX is not installed: draws inside jax.jit were NOT compared"
  skip "JAX is not installed: the refusal of the non-partitionable layout was NOT checked with JAX's own draws"
  finish
fi
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "# cases of seed $seed"
reference=$top/tests/reference/jaxrng.py

# compare NAME ARGS...: JAX's cases into $scratch/NAME.txt, checked into
# $scratch/NAME.out; the status is the checker's (2 when JAX failed).
compare() {
  name=$1
  shift
  if ! "$python" "$reference" --seed "$seed" --quick "$@" >"$scratch/$name.txt" 2>"$scratch/$name.err"; then
    diag <"$scratch/$name.err"
    return 2
  fi
  "$check" --fresh "$scratch/$name.txt" >"$scratch/$name.out" 2>&1
}
summary() { sed -n 's/^# \([0-9]* cases, [0-9]* values\) compared.*/\1/p' "$scratch/$1.out"; }

# Inside jax.jit, Craftax's way, alongside (the two take about 10 s each).
compare jit --jit --kinds uniform,randint &
jit_pid=$!
compare eager
status=$?
[ $status -ne 0 ] && diag <"$scratch/eager.out"
ok $status "JAX's draws, called one by one, are the C's: $(summary eager)"
[ $status -eq 0 ] && report compared "$(summary eager) of jax.random (seed $seed) with lib/kernels/jaxrng.c"

wait $jit_pid
status=$?
[ $status -ne 0 ] && diag <"$scratch/jit.out"
ok $status "JAX's uniform and randint draws inside jax.jit are the C's: $(summary jit)"

# With jax_threefry_partitionable off, split and bits differ (a case of
# one value can agree: both layouts hash the counter (0, 0) for it).
compare original --original-layout --kinds split,bits
status=$?
refused=$(sed -n 's/^not ok [0-9]* - \(split\|bits\): .*/\1/p' "$scratch/original.out" | tr '\n' ' ')
[ $status -eq 1 ] && [ "$refused" = "split bits " ]
result=$?
[ $result -ne 0 ] && diag <"$scratch/original.out"
ok $result "JAX's non-partitionable layout is refused: ${refused}differ"
finish
