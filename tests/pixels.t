#!/bin/sh
# Observations with Crafter's own textures equal the reference's byte for
# byte: obs_crc on every step and obs where the trace records it.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/report.sh"
GOLDEN_DIR=${GOLDEN_DIR:-$top/../shared/golden}
ASSETS=${ASSETS:-$(dirname "$GOLDEN_DIR")/crafter-assets}
if ! ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1 || [ ! -f "$ASSETS/grass.png" ]; then
  report skipped "the reference episodes of ../shared or Crafter's textures are not beside the project: their pixels were NOT compared"
  echo "1..0 # SKIP no reference traces or Crafter textures beside the project"
  exit 0
fi
report compared "$(ls "$GOLDEN_DIR"/*.jsonl.gz | wc -l | tr -d ' ') reference episodes from $GOLDEN_DIR compared pixel for pixel with Crafter's textures"
exec "$top/tests/golden-compare" --textures "$ASSETS" "$GOLDEN_DIR"/*.jsonl.gz
