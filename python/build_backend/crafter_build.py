"""A PEP 517 / PEP 660 build backend for crafter_toolkit that needs nothing
but Python's standard library, so building needs no network.

The wheel carries the engine: build_wheel compiles the programs with the
project's own build (./configure, then make bin/crafter-step ...) in a
temporary copy of the C sources and ships them once, as the wheel's
scripts (pip installs them beside python; the package finds its
crafter-step there through its installed file list), with their man pages
in share/man of the environment, in a wheel for this platform.  The C sources are the
project's folder (the parent of python/) in a source tree, or csrc/ in the
sdist, which build_sdist fills.  build_editable builds bin/crafter-step in
the source tree itself and installs a .pth file naming the package's
folder; the package then finds the tree's crafter-step.

This file sits in <package root>/build_backend/, where the package root
holds crafter_toolkit/ (python/ in the source tree, the top of the sdist),
whether pip was pointed at python/ or at the project's top (whose
pyproject.toml names python/build_backend).
"""

import base64
import hashlib
import io
import os
import shlex
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

NAME, VERSION = "crafter_toolkit", "0.1.0"
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST_INFO = f"{NAME}-{VERSION}.dist-info"
DATA = f"{NAME}-{VERSION}.data"
PROGRAMS = ("crafter-step", "crafter-score", "crafter-bench", "crafter-gen", "crafter-dataset",
            "crafter-play")
DEBIAN_PACKAGES = "gcc make zlib1g-dev libyaml-dev libpng-dev"
# Installed beside the package: Python runs it at start-up, and it registers
# the Gymnasium ids once gymnasium is imported (python/_crafter_toolkit_ids.py).
IDS_MODULE = "_crafter_toolkit_ids"
PTH_FILE = ("crafter_toolkit.pth", f"import {IDS_MODULE}\n")
# Files of the C sources the package reads (crafter_toolkit/data/ in a wheel).
PACKAGE_DATA = {"ids.h": "include/crafter/ids.h", "crafter.yaml": "data/crafter.yaml"}
# The programs' and formats' man pages, installed in <environment>/share/man,
# where man finds them for the environment's PATH.
MAN_SECTIONS = ("1", "5", "7")
EXTRAS = {
    "gymnasium": ["gymnasium>=1.0"],
    "sb3": ["stable-baselines3>=2.0", "gymnasium>=1.0"],
    "ray": ["ray>=2.40", "gymnasium>=1.0"],
    "rllib": ["ray[rllib]>=2.40", "torch", "gymnasium>=1.0"],
    "minari": ["minari[hdf5,arrow]>=0.5", "pillow", "gymnasium>=1.0"],
}


class CrafterBuildError(RuntimeError):
    """The C build of crafter-step failed; the message says how it ended."""


# ---------------------------------------------------------------- metadata

def _readme():
    try:
        with open(os.path.join(PACKAGE_ROOT, "README.md"), encoding="utf-8") as stream:
            return stream.read()
    except OSError:
        return ""


def _metadata():
    lines = [
        "Metadata-Version: 2.1",
        "Name: crafter-toolkit",
        f"Version: {VERSION}",
        "Summary: The Crafter benchmark, exact and fast, through crafter-step: "
        "crafter.Env, Gymnasium and vector envs",
        "License: MIT",
        "Requires-Python: >=3.8",
        "Requires-Dist: numpy",
    ]
    for extra, requirements in EXTRAS.items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + _readme()


def _wheel_file(tag, purelib):
    return ("Wheel-Version: 1.0\nGenerator: crafter_build\n"
            f"Root-Is-Purelib: {'true' if purelib else 'false'}\nTag: {tag}\n")


# ------------------------------------------------------------- the sources

def _c_root():
    """The folder with the C sources: csrc/ of the sdist, else the project's
    folder around python/."""
    for root in (os.path.join(PACKAGE_ROOT, "csrc"), os.path.dirname(PACKAGE_ROOT)):
        if all(os.path.exists(os.path.join(root, name))
               for name in ("Makefile", "configure", "include", "lib", "bin")):
            return root
    raise CrafterBuildError(
        f"the C sources of crafter-step are not here: neither {PACKAGE_ROOT}/csrc nor "
        f"the folder above {PACKAGE_ROOT} has Makefile, configure, include/, lib/ and bin/")


def _listed(root, folder, suffixes, skip=()):
    """The files of folder (relative to root) and of the folders in it
    whose names end with one of the suffixes, but those named in skip."""
    found = []
    for parent, folders, names in os.walk(os.path.join(root, folder)):
        folders.sort()
        relative = os.path.relpath(parent, root).replace(os.sep, "/")
        found += [f"{relative}/{name}" for name in sorted(names)
                  if name.endswith(suffixes) and name not in skip]
    return found


def _c_files(root):
    """The files, relative to root, that make bin/crafter-step needs (the
    Makefile's rules for it: the library, the program, the built-in
    textures), the licence and the man pages."""
    files = ["Makefile", "configure", "COPYING", "data/embed-textures.sh", "data/crafter.yaml"]
    # lib/view/builtin_textures.c is made by the build from data/textures.
    files += _listed(root, "lib", (".c", ".h", ".in"), skip=("builtin_textures.c",))
    files += _listed(root, "include", (".h",))
    files += _listed(root, "bin", (".c",))
    files += _listed(root, "data/textures", (".png",))
    files += _man_pages(root)
    return [name for name in files if os.path.isfile(os.path.join(root, name))]


def _man_pages(root):
    """The man pages of the C sources, relative to root: man/manN/*.N."""
    return [name for section in MAN_SECTIONS
            for name in _listed(root, f"man/man{section}", (f".{section}",))]


def _package_files():
    """The package's files, relative to the package root: no bytecode, no
    hidden files, no built binary; and the module its .pth file imports."""
    package = os.path.join(PACKAGE_ROOT, NAME)
    found = [f"{IDS_MODULE}.py"]
    for folder, folders, names in os.walk(package):
        relative = os.path.relpath(folder, PACKAGE_ROOT).replace(os.sep, "/")
        folders[:] = sorted(f for f in folders if f != "__pycache__" and not f.startswith(".")
                            and not (relative == NAME and f == "bin"))
        found += [f"{relative}/{name}" for name in sorted(names)
                  if not name.startswith(".") and not name.endswith((".pyc", ".pyo", "~"))]
    return found


# ------------------------------------------------------------- the C build

def _make_environment():
    """The environment for make: not the flags or jobserver of a make
    that may be running pip (make check, say)."""
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def _run(command, cwd, log):
    """Runs command in cwd, its output appended to the list log; raises
    CrafterBuildError with the output's tail when it fails."""
    log.append("$ " + " ".join(shlex.quote(part) for part in command) + "\n")
    try:
        done = subprocess.run(command, cwd=cwd, env=_make_environment(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    except OSError as error:
        log.append(f"{error}\n")
        _fail(f"cannot run {command[0]}", log)
    log.append(done.stdout.decode("utf-8", "replace"))
    if done.returncode != 0:
        _fail(f"{' '.join(command[:2])} failed (exit status {done.returncode})", log)


def _fail(what, log):
    tail = "".join(log).splitlines()[-40:]
    raise CrafterBuildError(
        f"building crafter-step: {what}.\n"
        "The wheel carries crafter-step, compiled from the project's C sources: this needs a "
        "C11 compiler, make, zlib, libyaml and libpng (with their headers); on Debian: "
        f"sudo apt-get install {DEBIAN_PACKAGES}\n"
        "The build's last lines:\n" + "\n".join(tail))


def _jobs():
    return str(max(1, min(os.cpu_count() or 1, 16)))


def _compile(source, build):
    """Copies the C sources from source into build and builds the programs
    there, libyaml, libpng and zlib linked statically where their .a files
    are at hand (else, saying so, dynamically).  Returns ({program: path of
    the stripped binary}, whether the libraries are linked statically)."""
    for name in _c_files(source):
        target = os.path.join(build, *name.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(source, name), target)
        shutil.copymode(os.path.join(source, name), target)
    log = []
    _run(["sh", "./configure"], build, log)
    # No debugging information, and the build folder's name mapped to "."
    # so that no path of this machine lands in the binaries.
    make = ["make", "-j", _jobs(), *[f"bin/{name}" for name in PROGRAMS], "OPTFLAGS=-O2",
            "EXTRA_CFLAGS=-ffile-prefix-map=" + shlex.quote(build) + "=."]
    static = True
    try:
        _run(make + ["STATIC_DEPS=yes"], build, log)
    except CrafterBuildError as error:
        static = False
        sys.stderr.write("crafter_build: libyaml, libpng and zlib could not be linked "
                         "statically (their .a files missing?); the programs need them at run "
                         "time, and the wheel is tagged for this machine only, not manylinux:\n"
                         + str(error).splitlines()[-1] + "\n")
        _run(make, build, log)
    programs = {}
    for name in PROGRAMS:
        program = os.path.join(build, "bin", name)
        if not os.access(program, os.X_OK):
            _fail(f"make did not leave an executable bin/{name}", log)
        strip = shutil.which("strip")
        if strip:
            stripped = subprocess.run([strip, program], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT)
            if stripped.returncode != 0:
                sys.stderr.write(f"crafter_build: strip failed, {name} is shipped unstripped: "
                                 + stripped.stdout.decode("utf-8", "replace"))
        programs[name] = program
    return programs, static


# -------------------------------------------------------- the wheel's tag

# What a manylinux program may need besides symbols of these (PEP 600).
MANYLINUX_LIBRARIES = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                       "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "libgcc_s.so.1"}


def _elf_needs(path):
    """(the shared libraries, the symbol versions) a 64-bit little-endian
    ELF file needs, from its dynamic section and its version needs; None
    for another kind of file."""
    import struct
    data = _read(path)
    if data[:6] != b"\x7fELF\x02\x01":
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]

    def string(section, at):
        offset = sections[section][4] + at
        return data[offset:data.index(b"\0", offset)].decode()

    libraries, versions = set(), set()
    for _, kind, _, _, offset, size, link, info, _, _ in sections:
        if kind == 6:  # SHT_DYNAMIC: DT_NEEDED entries
            for at in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", data, at)
                if tag == 1:
                    libraries.add(string(link, value))
        elif kind == 0x6FFFFFFE:  # SHT_GNU_verneed
            at = offset
            for _ in range(info):
                _, count, _, aux, following = struct.unpack_from("<HHIII", data, at)
                entry = at + aux
                for _ in range(count):
                    _, _, _, name, step = struct.unpack_from("<IHHII", data, entry)
                    versions.add(string(link, name))
                    entry += step
                at += following
    return libraries, versions


def _platform_tag(programs=(), static=False):
    """manylinux_2_N_<arch> for programs that need only the C library (and
    its companions), N the newest GLIBC_2.N symbol version they use;
    otherwise (or off Linux) this machine's platform, linux_<arch>."""
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if not static or not platform.startswith("linux_") or not programs:
        return platform
    newest = 17  # manylinux2014, the oldest tag pip still looks for
    for program in programs:
        needs = _elf_needs(program)
        if needs is None or not needs[0] <= MANYLINUX_LIBRARIES:
            return platform
        for version in needs[1]:
            if version.startswith("GLIBC_2."):
                try:
                    newest = max(newest, int(version[len("GLIBC_2."):].split(".")[0]))
                except ValueError:
                    pass
    return f"manylinux_2_{newest}_{platform[len('linux_'):]}"


# ----------------------------------------------------------------- archives

def _timestamp():
    try:
        return max(int(os.environ["SOURCE_DATE_EPOCH"]), 315532800)  # zip starts at 1980
    except (KeyError, ValueError):
        return int(time.time())


class _Wheel:
    """A wheel being written: files go in with their RECORD lines."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.records = []
        self.date_time = time.gmtime(_timestamp())[:6]

    def add(self, name, data, executable=False):
        if isinstance(data, str):
            data = data.encode("utf-8")
        info = zipfile.ZipInfo(name, self.date_time)
        # A regular file's mode: pip makes a file executable only when the
        # mode says regular file with an execute bit.
        info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append(f"{name},sha256={digest},{len(data)}")

    def close(self, tag, purelib):
        self.add(f"{DIST_INFO}/METADATA", _metadata())
        self.add(f"{DIST_INFO}/WHEEL", _wheel_file(tag, purelib))
        self.add(f"{DIST_INFO}/top_level.txt", f"{IDS_MODULE}\n{NAME}\n")
        self.records.append(f"{DIST_INFO}/RECORD,,")
        info = zipfile.ZipInfo(f"{DIST_INFO}/RECORD", self.date_time)
        info.external_attr = (stat.S_IFREG | 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, "\n".join(self.records) + "\n")
        self.zip.close()


def _read(path):
    with open(path, "rb") as stream:
        return stream.read()


# -------------------------------------------------------------- the hooks

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    # Without it, pip would build the wheel (compiling crafter-step) to
    # read the metadata.
    os.makedirs(os.path.join(metadata_directory, DIST_INFO), exist_ok=True)
    with open(os.path.join(metadata_directory, DIST_INFO, "METADATA"), "w",
              encoding="utf-8") as stream:
        stream.write(_metadata())
    return DIST_INFO


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    source = _c_root()
    # The real path: the one the compiler sees as its working folder.
    build = os.path.realpath(tempfile.mkdtemp(prefix="crafter-build-"))
    try:
        programs, static = _compile(source, build)
        tag = f"py3-none-{_platform_tag(programs.values(), static)}"
        wheel_name = f"{NAME}-{VERSION}-{tag}.whl"
        path = os.path.join(wheel_directory, wheel_name)
        wheel = _Wheel(path)
        try:
            for name in _package_files():
                wheel.add(name, _read(os.path.join(PACKAGE_ROOT, *name.split("/"))))
            wheel.add(PTH_FILE[0], PTH_FILE[1])
            # Every program on PATH (the scripts pip installs beside
            # python), crafter-step among them for the package, and their
            # man pages where man looks for that PATH (<environment>/share/man).
            for name, program in programs.items():
                wheel.add(f"{DATA}/scripts/{name}", _read(program), executable=True)
            for name in _man_pages(source):
                wheel.add(f"{DATA}/data/share/{name}",
                          _read(os.path.join(source, *name.split("/"))))
            # What crafter_toolkit.constants reads: the engine's names and rules.
            for name, data in PACKAGE_DATA.items():
                wheel.add(f"{NAME}/data/{name}", _read(os.path.join(source, *data.split("/"))))
            if os.path.isfile(os.path.join(source, "COPYING")):
                wheel.add(f"{DIST_INFO}/COPYING", _read(os.path.join(source, "COPYING")))
            wheel.close(tag, purelib=False)
        except BaseException:
            wheel.zip.close()
            os.unlink(path)
            raise
    finally:
        shutil.rmtree(build, ignore_errors=True)
    return wheel_name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    tree = os.path.dirname(PACKAGE_ROOT)
    if not all(os.path.exists(os.path.join(tree, name))
               for name in ("Makefile", "configure", "include", "lib", "bin")):
        raise CrafterBuildError(
            "an editable install needs the project's source tree (python/ inside it, with "
            f"Makefile, configure, include/, lib/ and bin/ above); {PACKAGE_ROOT} is not in one: "
            "install the sdist without -e")
    log = []
    if not os.path.isfile(os.path.join(tree, "config.mk")):
        _run(["sh", "./configure"], tree, log)
    _run(["make", "-j", _jobs(), "bin/crafter-step"], tree, log)
    if not os.access(os.path.join(tree, "bin", "crafter-step"), os.X_OK):
        _fail("make did not leave an executable bin/crafter-step", log)
    tag = "py3-none-any"
    wheel_name = f"{NAME}-{VERSION}-{tag}.whl"
    wheel = _Wheel(os.path.join(wheel_directory, wheel_name))
    # The package is imported from the tree; crafter_toolkit finds the
    # tree's bin/crafter-step next to it.
    wheel.add(f"__editable__.{NAME}-{VERSION}.pth", PACKAGE_ROOT + "\n" + PTH_FILE[1])
    wheel.close(tag, purelib=True)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    source = _c_root()
    base = f"{NAME}-{VERSION}"
    name = f"{base}.tar.gz"
    mtime = _timestamp()

    def add(archive, arcname, data, mode=0o644):
        info = tarfile.TarInfo(f"{base}/{arcname}")
        info.size, info.mtime, info.mode = len(data), mtime, mode
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        archive.addfile(info, io.BytesIO(data))

    def executable(path):
        return 0o755 if os.stat(path).st_mode & 0o111 else 0o644

    path = os.path.join(sdist_directory, name)
    try:
        with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as archive:
            add(archive, "PKG-INFO", _metadata().encode("utf-8"))
            for relative in ["pyproject.toml", "README.md", "build_backend/crafter_build.py"] \
                    + _package_files():
                full = os.path.join(PACKAGE_ROOT, *relative.split("/"))
                if os.path.isfile(full):
                    add(archive, relative, _read(full))
            for relative in _c_files(source):
                full = os.path.join(source, *relative.split("/"))
                add(archive, f"csrc/{relative}", _read(full), executable(full))
    except BaseException:
        if os.path.exists(path):
            os.unlink(path)
        raise
    return name
