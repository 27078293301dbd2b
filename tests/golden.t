#!/bin/sh
# Every reference trace in GOLDEN_DIR (default ../shared/golden) replayed
# with the library and compared field by field.
top=$(cd "$(dirname "$0")/.." && pwd)
GOLDEN_DIR=${GOLDEN_DIR:-$top/../shared/golden}
if ! ls "$GOLDEN_DIR"/*.jsonl.gz >/dev/null 2>&1; then
  echo "1..0 # SKIP no reference traces in $GOLDEN_DIR"
  exit 0
fi
exec "$top/tests/golden-compare" "$GOLDEN_DIR"/*.jsonl.gz
