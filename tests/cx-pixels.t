#!/bin/sh
# Craftax's pixel observation (the full game's, crafter_cx_render_pixels)
# against JAX itself, where the reference is installed (make craftax-env,
# or CRAFTAX_ENV naming a virtual environment with craftax), drawn with the
# textures the C loader reads and scales from the installed craftax's
# assets folder.  First those textures against Craftax's own scaled ones,
# every kind (blocks, items, the player, creatures, projectiles, icons,
# enchantments, digits, the night noise), value for value.  Then fresh
# random seeds' episodes of random actions
# (CRAFTAX_CX_PIXEL_EPISODES, default 2, of CRAFTAX_CX_PIXEL_STEPS, default
# 300), as many crafted first states on floor S mod 9 with every item,
# potion and book (100 steps), beside the boss (60 steps, DO seven in
# ten) and beside it with its floor lit (60 steps), every observation jit(env.step) of Craftax-Pixels-v1 returns
# against the C env's states drawn by the C renderer
# (tests/reference/craftax_full_pixels.py --compare): the number of values
# that differ and the most units in the last place they differ by must be
# 0; the states met (floors, nights, sleep, dark cells, creatures,
# projectiles, episode ends) are counted.  Then one unit in the last
# place planted in a C observation must be found, and the same episodes
# drawn with the toolkit's own textures must differ from JAX's in every
# observation.
#
# tests/unit-cx-pixels.t holds the renderer to JAX's episodes without JAX,
# from CRC-32s.  Craftax writes a cache of its scaled textures into its
# assets folder the first time it draws pixels (minutes).
. "$(dirname "$0")/tap.sh"
. "$top/tests/craftax-live.sh"
plan 4
craftax_full_live_or_skip 4 "Craftax's pixel observations"
program=$top/tests/unit/test-cx-pixels
if [ ! -x "$python" ]; then
  skip "Craftax is not installed (make craftax-env): the scaled textures were NOT compared with Craftax's"
  skip "Craftax is not installed: the pixel observations of episodes were NOT compared with JAX's"
  skip "Craftax is not installed: a difference planted in an observation was NOT checked"
  skip "Craftax is not installed: the toolkit's own textures were NOT told apart from Craftax's"
  finish
fi
"$python" "$top/tests/reference/craftax_full_pixels.py" --textures "$program" >"$scratch/textures" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/textures"
ok $status "the C loader's scaled textures are Craftax's: $(tail -n 1 "$scratch/textures" | cut -c1-100)"
count=${CRAFTAX_CX_PIXEL_EPISODES:-2}
steps=${CRAFTAX_CX_PIXEL_STEPS:-300}
"$python" "$top/tests/reference/craftax_full_pixels.py" --compare "$program" \
  "random:$steps:$count" "crafted:100:$count" "boss:60:$count" "lit:60:$count" >"$scratch/log" 2>&1
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
grep -q '^[0-9]* observations of [0-9]* episodes equal' "$scratch/log" || status=1
ok $status "pixel observations of fresh episodes are JAX's: $(grep 'episodes equal\|values differ' "$scratch/log" | tail -n 1 | cut -c1-160)"
[ $status -eq 0 ] && report compared "$(sed -n 's/^\(.* episodes equal ([^)]*)\).*/\1/p' "$scratch/log") of Craftax-Pixels-v1's env.step with JAX's, value for value, 0 ulp"
grep -q '^planted: 1 value differs by 1 ulp at state [0-9]* row 20 column 30 channel 2, found$' "$scratch/log"
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "a difference planted in an observation is found: $(grep '^planted' "$scratch/log" | cut -c1-100)"
grep -q "^own textures: \([0-9]*\) of \1 observations" "$scratch/log"
status=$?
[ $status -ne 0 ] && diag <"$scratch/log"
ok $status "drawn with the toolkit's own textures, every observation is told apart: $(grep '^own textures' "$scratch/log" | cut -c1-100)"
finish
