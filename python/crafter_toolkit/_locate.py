"""Where the crafter-step this package runs is."""

import os
import shutil
import sysconfig

from ._errors import CrafterStepError

HERE = os.path.dirname(os.path.abspath(__file__))


def _runnable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _error(message):
    return CrafterStepError(message)


def find_crafter_step():
    """The path of crafter-step: the environment variable CRAFTER_STEP if
    set (a path, or a bare name looked up on PATH), else the binary shipped
    in this package (crafter_toolkit/bin/crafter-step, in a wheel), else
    the source tree's bin/crafter-step (running from the tree, or an
    editable install), else crafter-step on PATH.  Raises CrafterStepError
    when CRAFTER_STEP names nothing runnable or none is found."""
    return find_program("crafter-step")


def find_program(name):
    """The path of the toolkit's program name (crafter-step,
    crafter-dataset, ...): the environment variable that names it
    (CRAFTER_STEP, CRAFTER_DATASET, ...: a path, or a bare name looked up
    on PATH) if set, else the package's own copy (crafter_toolkit/bin/, the
    wheel's crafter-step), else the source tree's bin/, else the scripts
    folder of this Python (where pip installs the wheel's six programs,
    on PATH or not), else PATH.  Raises CrafterStepError when the variable
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
    for candidate in (os.path.join(HERE, "bin", name),
                      os.path.normpath(os.path.join(HERE, "..", "..", "bin", name)),
                      os.path.join(sysconfig.get_path("scripts"), name)):
        if _runnable(candidate):
            return candidate
    found = shutil.which(name)
    if found:
        return found
    raise _error(
        f"{name} not found: not in {variable}, not in the package "
        f"({os.path.join(HERE, 'bin')}), not in a source tree around it, not beside this "
        "Python, not on PATH; install the package from its wheel or sdist (pip install "
        f"./python builds it), build the source tree (make), or set {variable} to its path")
