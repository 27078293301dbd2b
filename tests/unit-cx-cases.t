#!/bin/sh
# Craftax's step (the full game) from first states made for its rarer
# parts, against the hashes of every field of every step JAX played from
# them (tests/unit/test-cx-game.c; craftax_full_steps.py --record-cases,
# 150 steps each): two with the boss one or two hits from beaten, the
# game's step alone so that the states after it are seen (seeds 2, 7);
# plants ripening and eaten (3); the timestep reaching 100,000 (4);
# diamond swords against the fire and ice floors' creatures (75, 35);
# arrows and spells shot at them, the bow enchanted (76, 36).
# tests/data/craftax/cx-cases-starts.gz holds those first states as JAX
# made them, tests/data/craftax/cx-cases.txt.gz the hashes.
top=$(cd "$(dirname "$0")/.." && pwd)
exec "$top/tests/unit/test-cx-game" "$top/tests/data/craftax/cx-cases.txt.gz" \
  "$top/tests/data/craftax/cx-cases-starts.gz"
