"""Where the crafter-step this package runs is."""

import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def _runnable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _error(message):
    from ._stream import CrafterStepError  # here: _stream imports this module
    return CrafterStepError(message)


def find_crafter_step():
    """The path of crafter-step: the environment variable CRAFTER_STEP if
    set (a path, or a bare name looked up on PATH), else the binary shipped
    in this package (crafter_toolkit/bin/crafter-step, in a wheel), else
    the source tree's bin/crafter-step (running from the tree, or an
    editable install), else crafter-step on PATH.  Raises CrafterStepError
    when CRAFTER_STEP names nothing runnable or none is found."""
    named = os.environ.get("CRAFTER_STEP")
    if named:
        # As the system runs a program: a name without a slash is looked
        # up on PATH.
        found = named if os.sep in named else shutil.which(named)
        if found is None:
            raise _error(f"CRAFTER_STEP names {named!r}, which is not on PATH")
        if not os.path.exists(found):
            raise _error(f"CRAFTER_STEP names {named!r}, which does not exist")
        if not _runnable(found):
            raise _error(f"CRAFTER_STEP names {found!r}, which is not an executable file")
        return found
    for candidate in (os.path.join(HERE, "bin", "crafter-step"),
                      os.path.normpath(os.path.join(HERE, "..", "..", "bin", "crafter-step"))):
        if _runnable(candidate):
            return candidate
    found = shutil.which("crafter-step")
    if found:
        return found
    raise _error(
        "crafter-step not found: not in CRAFTER_STEP, not in the package "
        f"({os.path.join(HERE, 'bin')}), not in a source tree around it, not on PATH; "
        "install the package from its wheel or sdist (pip install ./python builds it), "
        "build the source tree (make), or set CRAFTER_STEP to its path")
