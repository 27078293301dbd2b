#!/bin/sh
# The Python package's wheel carries the engine: built from a copy of the
# tree (pip wheel ./python) and from its sdist (with the tree gone), it
# holds crafter_toolkit/bin/crafter-step, executable, under a platform tag,
# and no path of the machine that built it; installed into a fresh virtual
# environment it plays from another folder with neither CRAFTER_STEP nor
# the project's bin on PATH.  pip install -e builds and finds the tree's
# bin/crafter-step.  The builds need no network; numpy for the virtual
# environments comes from PyPI (the checks that need it are skipped,
# saying so, without it).
. "$(dirname "$0")/tap.sh"
tests=15
plan $tests

python=python3
quiet="--disable-pip-version-check --no-input --quiet"
# Temporary files (pip's, the C build's) inside $scratch: a path of the
# build that leaked into the wheel is then one the checks look for.
mkdir -p "$scratch/tmp"
TMPDIR=$scratch/tmp
export TMPDIR
# Not the flags or jobserver of a make running this test.
unset MAKEFLAGS MFLAGS MAKELEVEL CRAFTER_STEP
clean_path=/usr/bin:/bin

skip_rest() { # skip_rest REASON: skips the tests left in the plan
  while [ "$test_number" -lt "$tests" ]; do skip "$1"; done
  finish
}
case "${EXTRA_CFLAGS:-}" in
  *-fsanitize*) skip_rest "under the sanitizers: the wheel is built with its own flags, and make check tests it" ;;
esac
if ! command -v "$python" >/dev/null 2>&1; then
  skip_rest "python3 is not installed: the Python package's wheel was NOT tested"
fi
if ! "$python" -m pip --version >/dev/null 2>&1; then
  skip_rest "python3 has no pip (Debian package python3-pip): the Python package's wheel was NOT tested"
fi

# copy_tree DIR: the project's sources, without what the build made.
copy_tree() {
  mkdir -p "$1" || return 1
  if [ -e "$top/.git" ] && command -v git >/dev/null 2>&1; then
    (cd "$top" && git ls-files -c -o --exclude-standard | while read -r file; do
      [ -f "$file" ] && printf '%s\n' "$file"; done | tar cf - -T -) | (cd "$1" && tar xf -)
  else
    (cd "$top" && tar cf - --exclude=./.git --exclude='./build-*' --exclude='*.o' --exclude='*.a' \
      --exclude='./bin/crafter-*[!c]' --exclude=./config.mk --exclude=./.venv \
      --exclude=__pycache__ --exclude=./lib/builtin_textures.c --exclude=./tests/unit \
      --exclude=./tests/fuzz --exclude=./tests/reference/npmath.so .) | (cd "$1" && tar xf -)
  fi
}
# listing DIR: its files, for seeing what a build wrote there.
listing() { (cd "$1" && find . -name __pycache__ -prune -o -print | LC_ALL=C sort); }
# no_paths DIR: no file under DIR holds $scratch or $top.
no_paths() {
  grep -r -a -l -F -e "$scratch" -e "$top" "$1" >"$scratch/leaks"
  [ $? -eq 1 ]
}
# wheel_checks WHEEL: bin/crafter-step in it, a regular file with execute
# bits, the platform's tag in the name and in WHEEL, not purelib.
wheel_checks() {
  "$python" - "$1" <<'PYTHON'
import os, stat, sys, sysconfig, zipfile
path = sys.argv[1]
platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
tag = f"py3-none-{platform}"
problems = []
if not os.path.basename(path).endswith(f"-{tag}.whl"):
    problems.append(f"{os.path.basename(path)} is not tagged {tag}")
with zipfile.ZipFile(path) as wheel:
    names = wheel.namelist()
    if "crafter_toolkit/bin/crafter-step" not in names:
        problems.append("no crafter_toolkit/bin/crafter-step")
    else:
        mode = wheel.getinfo("crafter_toolkit/bin/crafter-step").external_attr >> 16
        if not (stat.S_ISREG(mode) and mode & 0o111 == 0o111):
            problems.append(f"crafter-step has mode {oct(mode)}")
    info = [n for n in names if n.endswith(".dist-info/WHEEL")]
    text = wheel.read(info[0]).decode() if info else ""
    if f"Tag: {tag}\n" not in text or "Root-Is-Purelib: false\n" not in text:
        problems.append(f"WHEEL says: {text!r}")
    if any(n.endswith("_source_tree.py") for n in names):
        problems.append("a _source_tree.py")
if problems:
    print("\n".join(problems))
sys.exit(1 if problems else 0)
PYTHON
}
# play PYTHON: one step of seed 1 from $scratch, with neither CRAFTER_STEP
# nor the project's bin on PATH; prints (reward, done) then where the
# package and crafter-step are.
play() {
  (cd "$scratch" && env -u CRAFTER_STEP -u PYTHONPATH PATH="$clean_path" "$1" -c '
import crafter_toolkit as c
e = c.Env(seed=1); e.reset(); print(e.step(5)[1:3]); e.close()
print(c.__file__); print(c.find_crafter_step())')
}
# unpack WHEEL DIR: extracts it as unzip does, with the modes it records
# (pip's own rule for execute bits is checked by wheel_checks).
unpack() {
  rm -rf "$2" && mkdir -p "$2" && "$python" -c '
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for info in wheel.infolist():
        path = wheel.extract(info, sys.argv[2])
        if info.external_attr >> 16:
            os.chmod(path, (info.external_attr >> 16) & 0o777)' "$1" "$2"
}
played() { # played OUTPUT: the first line is a (reward, done) pair
  printf '%s\n' "$1" | head -n 1 | grep -Eq '^\((np\.float(32|64)\()?-?[0-9.e-]+\)?, (np\.)?(True|False)\)$'
}
start=$(date +%s)

# 1-6: the wheel and the sdist from a copy of the tree.
tree=$scratch/tree
copy_tree "$tree"
listing "$tree" >"$scratch/before"
"$python" -m pip wheel $quiet --no-deps --no-index --no-build-isolation -w "$scratch/dist" \
  "$tree/python" >"$scratch/log" 2>&1
status=$?
wheel=$(ls "$scratch"/dist/*.whl 2>/dev/null)
[ $status -eq 0 ] && [ -f "$wheel" ]
ok $? "pip wheel ./python builds a wheel: ${wheel##*/}"
[ -f "$wheel" ] || diag <"$scratch/log"

wheel_checks "$wheel" >"$scratch/problems" 2>&1
ok $? "the wheel holds crafter_toolkit/bin/crafter-step, executable, tagged py3-none-<platform>"
diag <"$scratch/problems"

unpack "$wheel" "$scratch/unpacked" &&
  [ -x "$scratch/unpacked/crafter_toolkit/bin/crafter-step" ] &&
  "$scratch/unpacked/crafter_toolkit/bin/crafter-step" --help >/dev/null 2>&1
ok $? "unpacked, its crafter-step is executable and runs"

no_paths "$scratch/unpacked"
ok $? "no file of the wheel holds a path of the build (the tree, the scratch folder)"
diag <"$scratch/leaks"

# The sdist, by the backend as pip calls it, from python/ and from the top.
sdist_from() { # sdist_from FOLDER BACKEND-PATH OUT
  mkdir -p "$3" && (cd "$1" && "$python" -c '
import sys
sys.path.insert(0, sys.argv[1])
import crafter_build
print(crafter_build.build_sdist(sys.argv[2]))' "$2" "$3")
}
sdist_from "$tree/python" build_backend "$scratch/sdist" >"$scratch/log" 2>&1 &&
  sdist_from "$tree" python/build_backend "$scratch/sdist-top" >>"$scratch/log" 2>&1
status=$?
sdist=$(ls "$scratch"/sdist/*.tar.gz 2>/dev/null)
members() { tar tzf "$1" | sed 's|^[^/]*/||' | LC_ALL=C sort; }
if [ $status -eq 0 ] && [ -f "$sdist" ]; then
  members "$sdist" >"$scratch/members"
  members "$scratch"/sdist-top/*.tar.gz >"$scratch/members-top"
  missing=""
  for file in PKG-INFO pyproject.toml README.md build_backend/crafter_build.py \
    crafter_toolkit/__init__.py crafter_toolkit/_locate.py csrc/Makefile csrc/configure csrc/COPYING \
    csrc/lib/crafter.h csrc/lib/env.c csrc/lib/crafter.pc.in csrc/bin/crafter-step.c \
    csrc/data/embed-textures.sh csrc/data/textures/grass.png; do
    grep -qx "$file" "$scratch/members" || missing="$missing $file"
  done
  mkdir -p "$scratch/sdist-unpacked" && tar xzf "$sdist" -C "$scratch/sdist-unpacked"
  no_paths "$scratch/sdist-unpacked" && [ -z "$missing" ] &&
    cmp -s "$scratch/members" "$scratch/members-top"
  status=$?
  [ -z "$missing" ] || echo "missing from the sdist:$missing" | diag
  diag <"$scratch/leaks"
fi
ok $status "the sdist (from python/ and from the top alike) carries the C sources in csrc/ and no path of the build"
[ $status -eq 0 ] || diag <"$scratch/log"

listing "$tree" >"$scratch/after"
cmp -s "$scratch/before" "$scratch/after"
ok $? "building the wheel and the sdist wrote nothing into the tree"
diff "$scratch/before" "$scratch/after" | diag
rm -rf "$tree"

# 7-12: installed into a fresh virtual environment, the tree gone.
venv=$scratch/venv
if ! "$python" -m venv "$venv" >"$scratch/log" 2>&1 || [ ! -x "$venv/bin/pip" ]; then
  diag <"$scratch/log"
  skip_rest "python3 -m venv does not work (Debian package python3-venv): the installed wheel was NOT tested"
fi
"$venv/bin/pip" install $quiet --retries 1 --timeout 20 numpy >"$scratch/log" 2>&1 ||
  { diag <"$scratch/log"; skip_rest "numpy cannot be installed into a virtual environment (no network to PyPI?): the installed wheel was NOT tested"; }
"$venv/bin/pip" install $quiet --no-deps --no-index "$wheel" >"$scratch/log" 2>&1
ok $? "the wheel installs into a fresh virtual environment"
diag <"$scratch/log"

site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
output=$(play "$venv/bin/python" 2>&1)
played "$output"
ok $? "installed, it plays from another folder without CRAFTER_STEP or the project's bin on PATH: $(echo "$output" | head -n 1)"
echo "$output" | diag

[ "$(echo "$output" | sed -n 3p)" = "$site/crafter_toolkit/bin/crafter-step" ] &&
  [ "$(echo "$output" | sed -n 2p)" = "$site/crafter_toolkit/__init__.py" ]
ok $? "find_crafter_step() is the crafter-step inside the virtual environment"

output=$(cd "$scratch" && CRAFTER_STEP=$scratch/nowhere/crafter-step "$venv/bin/python" -c '
import crafter_toolkit as c
try:
    c.find_crafter_step()
except c.CrafterStepError as error:
    print(error)' 2>&1)
echo "$output" | grep -q "CRAFTER_STEP.*$scratch/nowhere/crafter-step"
ok $? "a CRAFTER_STEP naming nothing is a CrafterStepError naming it: $output"

"$python" -m pip wheel $quiet --no-deps --no-index -w "$scratch/dist-sdist" "$sdist" \
  >"$scratch/log" 2>&1
status=$?
sdist_wheel=$(ls "$scratch"/dist-sdist/*.whl 2>/dev/null)
[ $status -eq 0 ] && [ -f "$sdist_wheel" ] && wheel_checks "$sdist_wheel" >>"$scratch/log" 2>&1 &&
  unpack "$sdist_wheel" "$scratch/unpacked" && no_paths "$scratch/unpacked"
status=$?
ok $status "pip wheel of the sdist, the tree gone, builds a wheel with crafter-step and no path of the build"
[ $status -eq 0 ] || { diag <"$scratch/log"; diag <"$scratch/leaks"; }

"$venv/bin/pip" install $quiet --no-deps --no-index --force-reinstall "$sdist_wheel" \
  >"$scratch/log" 2>&1
status=$?
output=$(play "$venv/bin/python" 2>&1)
[ $status -eq 0 ] && played "$output" &&
  [ "$(echo "$output" | sed -n 3p)" = "$site/crafter_toolkit/bin/crafter-step" ]
ok $? "the sdist's wheel installs and plays: $(echo "$output" | head -n 1)"
[ $status -eq 0 ] || diag <"$scratch/log"
echo "$output" | diag

# 13-15: pip install -e into another virtual environment.
edit=$scratch/edit
copy_tree "$edit"
listing "$edit/python" >"$scratch/before"
venv2=$scratch/venv-editable
if "$python" -m venv "$venv2" >"$scratch/log" 2>&1 &&
   "$venv2/bin/pip" install $quiet --retries 1 --timeout 20 numpy >>"$scratch/log" 2>&1; then
  "$venv2/bin/pip" install $quiet --no-deps --no-index -e "$edit/python" >"$scratch/log" 2>&1
  status=$?
  [ $status -eq 0 ] && [ -x "$edit/bin/crafter-step" ]
  ok $? "pip install -e ./python builds the tree's bin/crafter-step and installs"
  diag <"$scratch/log"

  output=$(play "$venv2/bin/python" 2>&1)
  played "$output" &&
    [ "$(echo "$output" | sed -n 2p)" = "$edit/python/crafter_toolkit/__init__.py" ] &&
    [ "$(echo "$output" | sed -n 3p)" = "$edit/bin/crafter-step" ]
  ok $? "installed editable, it imports from the tree and plays the tree's bin/crafter-step: $(echo "$output" | head -n 1)"
  echo "$output" | diag

  listing "$edit/python" >"$scratch/after"
  cmp -s "$scratch/before" "$scratch/after"
  ok $? "the editable install left nothing in python/"
  diff "$scratch/before" "$scratch/after" | diag
else
  diag <"$scratch/log"
  skip_rest "no second virtual environment with numpy: pip install -e was NOT tested"
fi
echo "wheel.t took $(($(date +%s) - start)) s" | diag
finish
