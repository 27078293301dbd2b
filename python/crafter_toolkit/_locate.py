"""Where the crafter-step this package runs is."""

import functools
import os
import shutil
import sysconfig

from ._errors import CrafterStepError

HERE = os.path.dirname(os.path.abspath(__file__))


def _runnable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _error(message):
    return CrafterStepError(message)


@functools.lru_cache(maxsize=None)
def _installed_script(name):
    """The script `name` pip installed with this very package (its
    distribution's RECORD lists where), or None."""
    try:
        from importlib import metadata
    except ImportError:
        return None
    for distribution_name in ("crafter-toolkit", "crafter_toolkit"):
        try:
            distribution = metadata.distribution(distribution_name)
            files = distribution.files or []
            ours = str(distribution.locate_file("crafter_toolkit/__init__.py"))
            if not os.path.samefile(ours, os.path.join(HERE, "__init__.py")):
                return None  # another copy of the package than this one
        except Exception:
            continue
        for path in files:
            if path.name == name and path.parent.name == "bin":
                return os.path.normpath(str(distribution.locate_file(path)))
        return None
    return None


def find_crafter_step():
    """The path of crafter-step: the environment variable CRAFTER_STEP if
    set (a path, or a bare name looked up on PATH), else the source tree's
    bin/crafter-step (running from the tree, or an editable install), else
    the one installed with this package (the wheel's, where pip put its
    scripts), else crafter-step on PATH.  Raises CrafterStepError when
    CRAFTER_STEP names nothing runnable or none is found."""
    return find_program("crafter-step")


def find_program(name):
    """The path of the toolkit's program name (crafter-step,
    crafter-dataset, ...): the environment variable that names it
    (CRAFTER_STEP, CRAFTER_DATASET, ...: a path, or a bare name looked up
    on PATH) if set, else a copy in the package (crafter_toolkit/bin/),
    else the source tree's bin/, else the one installed with this package
    (the wheel's six programs are its scripts: found through the package's
    installed file list, wherever pip put them: a virtual environment's
    bin, ~/.local/bin, a --prefix), else the scripts folder of
    this Python, else PATH.  Raises CrafterStepError when the variable
    names nothing runnable or none is found."""
    variable = name.upper().replace("-", "_")
    named = os.environ.get(variable)
    if named:
        # As the system runs a program: a name without a slash is looked
        # up on PATH.
        found = named if os.sep in named else shutil.which(named)
        if found is None:
            raise _error(f"{variable} names {named!r}, which is not on PATH")
        if not os.path.exists(found):
            raise _error(f"{variable} names {named!r}, which does not exist")
        if not _runnable(found):
            raise _error(f"{variable} names {found!r}, which is not an executable file")
        return found
    # Looked at in turn: the installed file list is read only when the
    # package's own folders and the tree have no such program.
    candidates = (lambda: os.path.join(HERE, "bin", name),
                  lambda: os.path.normpath(os.path.join(HERE, "..", "..", "bin", name)),
                  lambda: _installed_script(name),
                  lambda: os.path.join(sysconfig.get_path("scripts"), name))
    for candidate in candidates:
        path = candidate()
        if path and _runnable(path):
            return path
    found = shutil.which(name)
    if found:
        return found
    raise _error(
        f"{name} not found: not in {variable}, not in the package "
        f"({os.path.join(HERE, 'bin')}), not in a source tree around it, not beside this "
        "Python, not on PATH; install the package from its wheel or sdist (pip install "
        f"./python builds it), build the source tree (make), or set {variable} to its path")
