#!/bin/sh
# Craftax-Classic's pixel observation (crafter_cc_render_pixels) against
# JAX itself, where the reference is installed (make craftax-env, or
# CRAFTAX_ENV naming a virtual environment with craftax), drawn with the
# textures the C loader reads and scales from the installed craftax's
# assets folder; the number of values that differ and the most units in
# the last place they differ by are said, and must be 0.
#
# - 30 fresh random seeds a run (CRAFTAX_PIXELS to change it): the
#   observation env.reset of Craftax-Classic-Pixels-v1 returns against the
#   C renderer's of the C world; then a planted difference of one unit in
#   the last place is found.
# - 3 fresh random seeds' episodes of 450 random steps
#   (CRAFTAX_PIXEL_EPISODES, CRAFTAX_PIXEL_STEPS): every observation
#   jit(env.step) returns (days, nights with their static, sleep,
#   creatures, arrows, the inventory, the resets after an episode ends)
#   against the C game's states drawn by the C renderer; the states met
#   are counted.  Then one unit in the last place planted in a night's C
#   observation must be found.
# - crafter-step --game craftax-classic -O pixels --textures (the
#   assets folder): 2 consecutive fresh seeds' episodes of 300 random steps
#   (CRAFTAX_STEP_PIXEL_STEPS) in the binary protocol (2 envs on 2
#   threads) and the first in JSON lines, every observation against
#   JAX's; then crafter-step drawing with its own textures instead must
#   be told apart.
#
# tests/unit-cc-pixels.t holds the renderer to JAX's episodes without
# JAX, from CRC-32s, where craftax's textures are installed.  Craftax
# writes a cache of its scaled textures into its assets folder the first
# time it draws pixels.
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 6
program=$top/tests/unit/test-cc-render
if [ ! -x "$python" ]; then
  skip "Craftax-Classic is not installed (make craftax-env): the pixel observations of resets were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: a planted difference was NOT checked"
  skip "Craftax-Classic is not installed: the pixel observations of episodes were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: a difference planted in an episode was NOT checked"
  skip "Craftax-Classic is not installed: crafter-step's pixel observations were NOT compared with JAX's"
  skip "Craftax-Classic is not installed: crafter-step with other textures was NOT told apart"
  finish
fi

craftax_compare craftax_pixels.py "$program" "${CRAFTAX_PIXELS:-30}"
status=$?
ok $status "fresh pixel observations are JAX's: $(tail -n 1 "$scratch/log" | cut -c1-100)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\([0-9]*\) observations equal.*/\1/p' "$scratch/log") Craftax-Classic pixel observations with JAX's, value for value, 0 ulp"

# The green of the first pixel of every C observation one unit in the last
# place up: the comparison must count each and say 1 ulp.
craftax_planted craftax_pixels.py "$program" '$1 == "pixels" { $(4 + 1) = $(4 + 1) + 1 } { print }' \
  "a planted difference is found" "column 0, channel 1" "^2 of 23814 values differ, by at most 1 ulp"

"$python" "$top/tests/reference/craftax_pixels.py" --steps "$program" \
  "${CRAFTAX_PIXEL_EPISODES:-3}" "${CRAFTAX_PIXEL_STEPS:-450}" >"$scratch/steps" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/steps"
grep -q '^[0-9]* observations of [0-9]* episodes equal' "$scratch/steps" || status=1
ok $status "pixel observations of random episodes are JAX's: $(grep 'episodes equal\|values differ' "$scratch/steps" | tail -n 1 | cut -c1-120)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\(.* episodes equal ([^)]*)\).*/\1/p' "$scratch/steps") of Craftax-Classic-Pixels-v1's env.step with JAX's, value for value, 0 ulp"
grep -q '^planted: 1 value differs by 1 ulp at step [0-9]* row 20 column 30 channel 2, found$' "$scratch/steps"
status=$?
[ $status -ne 0 ] && diag <"$scratch/steps"
ok $status "a difference planted in an episode's observation is found: $(grep '^planted' "$scratch/steps" | cut -c1-100)"

steps=${CRAFTAX_STEP_PIXEL_STEPS:-300}
"$python" "$top/tests/reference/craftax_pixels.py" --crafter-step "$top/bin/crafter-step" 2 "$steps" \
  >"$scratch/session" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/session"
ok $status "crafter-step's pixel observations (frames and JSON lines) are JAX's: $(tail -n 1 "$scratch/session" | cut -c1-120)"
[ $status -eq 0 ] && report compared "$(tail -n 1 "$scratch/session" | sed 's/ (.*//') (crafter-step -O pixels against Craftax-Classic-Pixels-v1, 0 ulp)"

# crafter-step without --textures: the toolkit's own textures, which the
# comparison must tell from Craftax's.
cat >"$scratch/own-textures" <<SH
#!/bin/sh
for argument do
  shift
  if [ "\$skip" = 1 ]; then skip=0; continue; fi
  [ "\$argument" = --textures ] && { skip=1; continue; }
  set -- "\$@" "\$argument"
done
exec "$top/bin/crafter-step" "\$@"
SH
chmod +x "$scratch/own-textures"
"$python" "$top/tests/reference/craftax_pixels.py" --crafter-step "$scratch/own-textures" 2 20 \
  >"$scratch/own" 2>&1
[ $? -eq 1 ] && grep -q "^frames: .* values differ" "$scratch/own"
status=$?
[ $status -ne 0 ] && diag <"$scratch/own"
ok $status "crafter-step drawing with its own textures is told apart: $(tail -n 1 "$scratch/own" | cut -c1-100)"
finish
