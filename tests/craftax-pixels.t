#!/bin/sh
# Craftax-Classic's pixel observation (crafter_cc_render_pixels) against
# JAX itself, where the reference is installed (make craftax-env, or
# CRAFTAX_ENV naming a virtual environment with craftax): 30 fresh random
# seeds a run (CRAFTAX_PIXELS to change it), the observation env.reset of
# Craftax-Classic-Pixels-v1 returns compared value for value with the C
# renderer's of the C world, drawn with the textures the C loader reads
# and scales from the installed craftax's assets folder; the number of
# values that differ and the most units in the last place they differ by
# are said, and must be 0.  Then a planted difference of one unit in the
# last place is found.
#
# There is no golden file: the textures are Craftax's own, which only the
# installed package has, so without it nothing here can be checked.
# Craftax writes a cache of its scaled textures into its assets folder the
# first time it draws pixels.
. "$(dirname "$0")/tap.sh"
plan 2
CRAFTAX_ENV=${CRAFTAX_ENV:-$top/build-reference/craftax-venv}
python=$CRAFTAX_ENV/bin/python
program=$top/tests/unit/test-cc-render
if [ ! -x "$python" ]; then
  skip "Craftax-Classic is not installed (make craftax-env): the pixel observations were NOT compared with JAX's (no golden file: the textures are the installed craftax's)"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  finish
fi

"$python" "$top/tests/reference/craftax_pixels.py" --compare "$program" "${CRAFTAX_PIXELS:-30}" \
  >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "fresh pixel observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax-Classic pixel observations with JAX's, value for value, 0 ulp"

# The green of the first pixel of every C observation one unit in the last
# place up: the comparison must count each and say 1 ulp.
cat >"$scratch/planted" <<SH
#!/bin/sh
"$program" "\$@" | awk '\$1 == "pixels" { \$(4 + 1) = \$(4 + 1) + 1 } { print }'
SH
chmod +x "$scratch/planted"
"$python" "$top/tests/reference/craftax_pixels.py" --compare "$scratch/planted" 2 >"$scratch/out" 2>&1
status=$?
[ $status -eq 1 ] && grep -q "column 0, channel 1" "$scratch/out" &&
  grep -q "^2 of 23814 values differ, by at most 1 ulp" "$scratch/out"
status=$?
[ $status -ne 0 ] && diag <"$scratch/out"
ok $status "a planted difference is found: $(tail -n 1 "$scratch/out" | cut -c1-100)"
finish
