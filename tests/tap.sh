# Shell helpers for TAP tests: source it, call plan N, then ok/fail.
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/report.sh"
GOLDEN_DIR=${GOLDEN_DIR:-$top/../shared/golden}
# Deterministic runs: the textures are the ones a test names, never a
# folder CRAFTER_TEXTURES names in the caller's environment.
unset CRAFTER_TEXTURES
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
test_number=0
failures=0
plan() { echo "1..$1"; }
ok() { # ok CONDITION-STATUS DESCRIPTION
  test_number=$((test_number + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $test_number - $2"
  else
    echo "not ok $test_number - $2"
    failures=$((failures + 1))
  fi
}
skip() {
  test_number=$((test_number + 1))
  echo "ok $test_number # skip $1"
  report skipped "$1"
}
diag() { sed 's/^/# /'; }
finish() { [ "$failures" -eq 0 ]; exit $?; }
# Crafter's own textures: beside the project, or in the reference's
# virtual environment (REFERENCE_ENV); prints the folder, or nothing.
crafter_assets() {
  for folder in "$top/../shared/crafter-assets" \
    "${REFERENCE_ENV:-$top/build-reference/venv}"/lib/python3*/site-packages/crafter/assets; do
    [ -f "$folder/grass.png" ] && { echo "$folder"; return; }
  done
}
