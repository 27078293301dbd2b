#!/bin/sh
# The Python package's wheel carries the engine: built from a copy of the
# tree (pip wheel ./python) and from its sdist (with the tree gone), it
# holds all six programs as scripts, each stored once (the package runs
# the crafter-step among them), executable, libyaml, libpng and zlib
# linked in, and the man pages for <environment>/share/man, under the manylinux tag of
# the newest C library symbols they use (auditwheel agrees, where it can be
# had), and no path of the machine that built it; installed into a fresh
# virtual environment without a compiler it plays from another folder with
# neither CRAFTER_STEP nor the project's bin on PATH, its programs are on
# the environment's PATH, man finds their pages for that PATH, and
# crafter-score reads the stats it writes.  pip install -e builds and finds the tree's
# bin/crafter-step.  The builds need no network; numpy for the virtual
# environments comes from PyPI (the checks that need it are skipped,
# saying so, without it).
. "$(dirname "$0")/tap.sh"
tests=21
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
      --exclude=__pycache__ --exclude=./lib/view/builtin_textures.c --exclude=./tests/unit \
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
# wheel_checks WHEEL: the six programs as scripts in it, regular files
# with execute bits, linked to no library but the C library's, each stored
# once (no other file of the wheel has a program's bytes); every man page
# of the tree's man/ in the wheel's data/share/man; the manylinux tag of
# the newest GLIBC_2.N symbol version they need (objdump's list, where
# binutils is at hand) in the name and in WHEEL, not purelib.
wheel_checks() {
  "$python" - "$1" "$top/man" <<'PYTHON'
import hashlib, os, re, shutil, stat, subprocess, sys, sysconfig, tempfile, zipfile
path, man = sys.argv[1], sys.argv[2]
arch = sysconfig.get_platform().split("-", 1)[1].replace("-", "_").replace(".", "_")
problems = []
programs = [f"crafter_toolkit-0.1.0.data/scripts/crafter-{name}"
            for name in ("step", "score", "bench", "gen", "dataset", "play")]
newest = 17
with zipfile.ZipFile(path) as wheel, tempfile.TemporaryDirectory() as folder:
    names = wheel.namelist()
    stored = {}
    for name in names:
        stored.setdefault(hashlib.sha256(wheel.read(name)).digest(), []).append(name)
    for copies in stored.values():
        if len(copies) > 1 and set(copies) & set(programs):
            problems.append(f"a program stored {len(copies)} times: {', '.join(copies)}")
    for section in sorted(os.listdir(man)):
        for page in sorted(os.listdir(os.path.join(man, section))):
            name = f"crafter_toolkit-0.1.0.data/data/share/man/{section}/{page}"
            if name not in names:
                problems.append(f"no {name}")
            elif wheel.read(name) != open(os.path.join(man, section, page), "rb").read():
                problems.append(f"{name} is not man/{section}/{page}")
    for program in programs:
        if program not in names:
            problems.append(f"no {program}")
            continue
        mode = wheel.getinfo(program).external_attr >> 16
        if not (stat.S_ISREG(mode) and mode & 0o111 == 0o111):
            problems.append(f"{program} has mode {oct(mode)}")
        if shutil.which("objdump"):
            binary = wheel.extract(program, folder)
            dump = subprocess.run(["objdump", "-p", "-T", binary], capture_output=True,
                                  text=True).stdout
            needed = set(re.findall(r"NEEDED\s+(\S+)", dump))
            if not needed <= {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2"}:
                problems.append(f"{program} needs {sorted(needed)}")
            for minor in re.findall(r"GLIBC_2\.(\d+)", dump):
                newest = max(newest, int(minor))
    tag = f"py3-none-manylinux_2_{newest}_{arch}"
    if not shutil.which("objdump"):  # then any manylinux tag of this machine's kind
        found = re.search(r"py3-none-manylinux_2_\d+_" + arch, os.path.basename(path))
        tag = found.group(0) if found else f"py3-none-manylinux_2_N_{arch}"
    if not os.path.basename(path).endswith(f"-{tag}.whl"):
        problems.append(f"{os.path.basename(path)} is not tagged {tag}")
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
e = c.Env(seed=1, textures="builtin"); e.reset(); print(e.step(5)[1:3]); e.close()
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
ok $? "the wheel holds the six programs once each, executable, needing only the C library, and the man pages, tagged manylinux for the symbols they use"
diag <"$scratch/problems"

unpacked_step=$scratch/unpacked/crafter_toolkit-0.1.0.data/scripts/crafter-step
unpack "$wheel" "$scratch/unpacked" && [ -x "$unpacked_step" ] &&
  "$unpacked_step" --help >/dev/null 2>&1
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
    csrc/include/crafter/crafter.h csrc/include/crafter/ids.h csrc/lib/game/env.c csrc/lib/crafter.pc.in \
    csrc/bin/crafter-step.c \
    csrc/data/embed-textures.sh csrc/data/textures/grass.png csrc/man/man1/crafter-step.1 \
    csrc/man/man5/crafter-trajectory.5 csrc/man/man7/crafter.7; do
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
# No compiler: PATH holds the environment's bin alone, and CC fails.
env PATH="$venv/bin" CC=false "$venv/bin/pip" install $quiet --no-deps --no-index "$wheel" \
  >"$scratch/log" 2>&1
ok $? "the wheel installs into a fresh virtual environment, no compiler on PATH"
diag <"$scratch/log"

site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
output=$(play "$venv/bin/python" 2>&1)
played "$output"
ok $? "installed, it plays from another folder without CRAFTER_STEP or the project's bin on PATH: $(echo "$output" | head -n 1)"
echo "$output" | diag

[ "$(echo "$output" | sed -n 3p)" = "$venv/bin/crafter-step" ] &&
  [ "$(echo "$output" | sed -n 2p)" = "$site/crafter_toolkit/__init__.py" ]
ok $? "find_crafter_step() is the crafter-step the wheel installed in the virtual environment"

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
  [ "$(echo "$output" | sed -n 3p)" = "$venv/bin/crafter-step" ]
ok $? "the sdist's wheel installs and plays: $(echo "$output" | head -n 1)"
[ $status -eq 0 ] || diag <"$scratch/log"
echo "$output" | diag

# 13-18: the programs, the stats, auditwheel, the sdist's wheel, the data.
missing=""
for name in step score bench gen dataset play; do
  (cd "$scratch" && env PATH="$venv/bin" CC=false "crafter-$name" --help >/dev/null 2>&1) ||
    missing="$missing crafter-$name"
done
[ -z "$missing" ]
ok $? "the six programs are on the environment's PATH and run${missing:+ (not:$missing)}"

if command -v man >/dev/null 2>&1; then
  missing=""
  for page in crafter-step crafter-score crafter-bench crafter-gen crafter-dataset crafter-play \
    "5 crafter-trajectory" "7 crafter"; do
    name=${page#* }
    # shellcheck disable=SC2086
    MANWIDTH=80 man -M "$venv/share/man" -P cat $page 2>/dev/null |
      grep -q "^ *$name  *- " || missing="$missing $name"
  done
  [ -z "$missing" ]
  ok $? "man -M <environment>/share/man shows the programs' pages, crafter-trajectory(5) and crafter(7)${missing:+ (not:$missing)}"
else
  skip "man is not installed: the wheel's man pages were NOT read by man"
fi

mkdir -p "$scratch/run"
output=$(cd "$scratch/run" && env -u CRAFTER_STEP -u PYTHONPATH PATH="$venv/bin" CC=false \
  "$venv/bin/python" -c '
import crafter_toolkit as c
env = c.Env(seed=3, length=30, obs="none", stats="logs")
for _ in range(3):
    env.reset(); done = False
    while not done:
        done = env.step(5)[2]
env.close()' 2>&1 &&
  cd "$scratch/run" && env PATH="$venv/bin" CC=false crafter-score logs/stats.jsonl 2>&1)
status=$?
[ $status -eq 0 ] && echo "$output" | grep -qi "score"
ok $? "crafter-score, from the wheel, reads the stats.jsonl Env(stats=) wrote"
echo "$output" | diag

tag=$(basename "$wheel" .whl | sed 's/.*-py3-none-//')
auditwheel=${CLIENTS_ENV:-$top/build-reference/clients-venv}/bin/auditwheel
if [ ! -x "$auditwheel" ] && "$venv/bin/pip" install $quiet --retries 1 --timeout 20 \
   auditwheel >"$scratch/log" 2>&1; then
  auditwheel=$venv/bin/auditwheel
fi
if [ -x "$auditwheel" ]; then
  "$auditwheel" show "$wheel" >"$scratch/audit" 2>&1
  status=$?
  case $tag in manylinux_*) ;; *) status=1 ;; esac  # a tag PyPI takes
  [ $status -eq 0 ] && tr '\n' ' ' <"$scratch/audit" | grep -q "consistent with the following platform tag: \"$tag\""
  ok $? "auditwheel show finds the wheel consistent with its manylinux tag ($tag)"
  diag <"$scratch/audit"
else
  diag <"$scratch/log"
  skip "auditwheel could not be installed (make clients-env has it): the wheel's tag was NOT checked by auditwheel"
fi

listed() { "$python" -c '
import sys, zipfile
for line in zipfile.ZipFile(sys.argv[1]).read("crafter_toolkit-0.1.0.dist-info/RECORD").decode().splitlines():
    print(line)' "$1" | LC_ALL=C sort; }
[ -f "$sdist_wheel" ] && [ "$(basename "$sdist_wheel")" = "$(basename "$wheel")" ] &&
  listed "$wheel" >"$scratch/record" && listed "$sdist_wheel" >"$scratch/record-sdist" &&
  cmp -s "$scratch/record" "$scratch/record-sdist"
ok $? "the sdist builds the same wheel: its name, and every file's hash and size"
diff "$scratch/record" "$scratch/record-sdist" | diag

output=$(cd "$scratch" && env -u PYTHONPATH PATH="$venv/bin" "$venv/bin/python" -c '
import sys
print("_crafter_toolkit_ids" in sys.modules)
import crafter_toolkit as c
print(len(c.constants.achievements), len(c.constants.items), c.constants.materials[0])' 2>&1)
[ "$output" = "$(printf 'True\n22 16 water')" ] && [ -f "$site/crafter_toolkit.pth" ]
ok $? "installed, crafter_toolkit.pth runs at start-up and constants reads the wheel's data: $(echo $output)"

# 19-21: pip install -e into another virtual environment.
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
