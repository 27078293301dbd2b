#!/bin/sh
# The symbolic observation against Craftax-Classic's own renderer
# (craftax 1.6.1 on JAX's CPU backend, make craftax-env): every value of
# every step of several episodes and of inventories up to the config's
# limit is the same float32, bit for bit (tests/reference/symbolic.py);
# and the comparison does fail for a vector whose tenths are float32
# quotients rather than Craftax's float16 products.
. "$(dirname "$0")/tap.sh"
plan 2
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python
if [ ! -x "$python" ]; then
  skip "Craftax-Classic is not installed (make craftax-env): the symbolic observation was NOT compared with its renderer"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  finish
fi

"$python" "$top/tests/reference/symbolic.py" >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
grep -q "identical to Craftax-Classic" "$scratch/log"
ok $(( status || $? )) "the symbolic observation is Craftax-Classic's: $(tail -n 1 "$scratch/log" | cut -c1-90)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^craftax: \([0-9]*\) .*/\1/p' "$scratch/log") symbolic observations with Craftax-Classic's renderer (craftax 1.6.1)"

# 9 / 10 as a float32 quotient (0.9f) where Craftax has 0.89990234375.
cat >"$scratch/float32-tenths" <<SH
#!/bin/sh
"$top/bin/crafter-step" "\$@" | sed 's/0\.89990234375/0.8999999761581421/g'
SH
chmod +x "$scratch/float32-tenths"
"$python" "$top/tests/reference/symbolic.py" --episodes 1 --steps 20 \
  --crafter-step "$scratch/float32-tenths" >"$scratch/planted" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "DIFFERENCE" "$scratch/planted" && grep -q "health: ours" "$scratch/planted"
status=$?
[ $status -ne 0 ] && diag <"$scratch/planted"
ok $status "float32 tenths in place of Craftax's float16 ones are found"
finish
