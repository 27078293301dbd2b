#!/bin/sh
# Craftax's pixel observations (the full game's) along JAX's episodes,
# without JAX: every observation of seeds 10..12's random episodes of
# 1,000 steps (days, nights, sleep, deaths and the next episode's first
# state), and of crafted first states on every floor (200 random steps
# each, with every item, potion and book) and beside the boss (150
# steps, DO seven in ten; its floor dark, and lit so that the
# necromancer is seen), against the CRC-32s of the observations JAX's
# jit(env.step) returned (tests/data/craftax/cx-pixels.txt.gz, the
# crafted first states in cx-pixel-starts.gz; tests/unit/test-cx-pixels.c
# says how they were recorded).  The same observations drawn with the
# toolkit's own textures must all differ.
#
# The observations are drawn with Craftax's own textures, which this
# project does not hold: the assets folder of an installed craftax
# package, found without importing it (or jax), on the path of the
# reference environment's Python (CRAFTAX_ENV, make craftax-env) or of
# python3; CRAFTAX_FULL_ASSETS names the folder instead.  Without one the
# test is skipped, saying so.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/craftax-assets.sh"
assets=${CRAFTAX_FULL_ASSETS:-}
[ -z "$assets" ] && assets=$(craftax_assets craftax/assets gnome_warrior.png)
if [ -z "$assets" ] || [ ! -f "$assets/gnome_warrior.png" ]; then
  echo "1..0 # skip no installed craftax package (pip install craftax==1.6.1, or CRAFTAX_FULL_ASSETS naming its craftax/assets folder): Craftax's pixel observations were NOT checked"
  exit 0
fi
exec "$top/tests/unit/test-cx-pixels" --golden "$assets" "$top/tests/data/craftax/cx-pixels.txt.gz" \
  "$top/tests/data/craftax/cx-pixel-starts.gz"
