#!/bin/sh
# Craftax-Classic's pixel observations along JAX's episodes, without JAX:
# every observation of seeds 0..3's random episodes of 500 steps (nights,
# sleep, creatures, the inventory, episode ends) against the CRC-32s of
# the observations JAX's jit(env.step) returned
# (tests/data/craftax/pixel-episodes.txt.gz, tests/unit/test-cc-render.c
# --pixel-golden says how it was recorded).
#
# The observations are drawn with Craftax's own textures, which this
# project does not hold: the assets folder of an installed craftax
# package, found without importing it (or jax), on the path of the
# reference environment's Python (CRAFTAX_ENV, make craftax-env) or of
# python3; CRAFTAX_ASSETS names the folder instead.  Without one the test
# is skipped, saying so.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/craftax-assets.sh"
assets=${CRAFTAX_ASSETS:-}
[ -z "$assets" ] && assets=$(craftax_assets craftax_classic/assets grass.png)
if [ -z "$assets" ] || [ ! -f "$assets/grass.png" ]; then
  echo "1..0 # skip no installed craftax package (pip install craftax==1.6.1, or CRAFTAX_ASSETS naming its craftax_classic/assets folder): Craftax-Classic's pixel observations were NOT checked"
  exit 0
fi
exec "$top/tests/unit/test-cc-render" --pixel-golden "$assets" "$top/tests/data/craftax/pixel-episodes.txt.gz"
