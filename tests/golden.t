#!/bin/sh
# Every reference trace in GOLDEN_DIR (default ../shared/golden) replayed
# with the library and compared field by field.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/report.sh"
GOLDEN_DIR=${GOLDEN_DIR:-$top/../shared/golden}
if ! ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1; then
  report skipped "the reference episodes of ../shared were NOT compared: none in $GOLDEN_DIR (the project's own are, in reference-episodes.t)"
  echo "1..0 # SKIP no reference traces in $GOLDEN_DIR"
  exit 0
fi
report compared "$(ls "$GOLDEN_DIR"/*.jsonl.gz | wc -l | tr -d ' ') reference episodes from $GOLDEN_DIR replayed field by field"
exec "$top/tests/golden-compare" "$GOLDEN_DIR"/*.jsonl.gz
