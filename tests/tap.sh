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
# Craftax-Classic's own textures: the craftax_classic/assets folder of an
# installed craftax package, found without importing it (or jax), on the
# path of the Craftax reference's Python (CRAFTAX_ENV, make craftax-env)
# or of python3; CRAFTAX_ASSETS names it instead.  Prints the folder, or
# nothing.
craftax_assets() {
  if [ -n "${CRAFTAX_ASSETS:-}" ]; then
    [ -f "$CRAFTAX_ASSETS/plant_on_grass.png" ] && echo "$CRAFTAX_ASSETS"
    return
  fi
  for python in "${CRAFTAX_ENV:-$top/build-reference/craftax-venv}/bin/python" python3; do
    command -v "$python" >/dev/null 2>&1 || continue
    "$python" - <<'PY' 2>/dev/null && return
import importlib.machinery, os, sys
spec = importlib.machinery.PathFinder.find_spec('craftax')
for location in (spec.submodule_search_locations or []) if spec else []:
  folder = os.path.join(location, 'craftax_classic', 'assets')
  if os.path.isfile(os.path.join(folder, 'plant_on_grass.png')):
    print(folder)
    sys.exit(0)
sys.exit(1)
PY
  done
}
