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
. "$top/tests/craftax-live.sh"
plan 2
program=$top/tests/unit/test-cc-render
craftax_or_skip "the pixel observations (no golden file: the textures are the installed craftax's)"

craftax_compare craftax_pixels.py "$program" "${CRAFTAX_PIXELS:-30}"
status=$?
ok $status "fresh pixel observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax-Classic pixel observations with JAX's, value for value, 0 ulp"

# The green of the first pixel of every C observation one unit in the last
# place up: the comparison must count each and say 1 ulp.
craftax_planted craftax_pixels.py "$program" '$1 == "pixels" { $(4 + 1) = $(4 + 1) + 1 } { print }' \
  "a planted difference is found" "column 0, channel 1" "^2 of 23814 values differ, by at most 1 ulp"
finish
