# craftax_assets SUBFOLDER MARKER: prints the assets folder SUBFOLDER
# (craftax_classic/assets, craftax/assets) of an installed craftax
# package, holding the file MARKER, found without importing craftax (or
# jax) on the path of the reference environment's Python (CRAFTAX_ENV,
# make craftax-env) or of python3; nothing when there is none.  The
# project holds none of craftax's files: the tests that need its
# textures use this and are skipped without it.  Needs $top.
craftax_assets() {
  for python in "${CRAFTAX_ENV:-$top/build-reference/craftax-venv}/bin/python" python3; do
    command -v "$python" >/dev/null 2>&1 || continue
    found=$("$python" - "$1" "$2" <<'PY' 2>/dev/null
import importlib.machinery, os, sys
spec = importlib.machinery.PathFinder.find_spec('craftax')
for location in (spec.submodule_search_locations or []) if spec else []:
  folder = os.path.join(location, *sys.argv[1].split('/'))
  if os.path.isfile(os.path.join(folder, sys.argv[2])):
    print(folder)
    break
PY
)
    [ -n "$found" ] && { echo "$found"; return; }
  done
}
