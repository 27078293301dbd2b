import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(TOP, "python"))


def crafter_assets():
    """Crafter's own textures: beside the project, or in the installed
    reference; None without either."""
    shared = os.path.join(TOP, "..", "shared", "crafter-assets")
    if os.path.isfile(os.path.join(shared, "grass.png")):
        return shared
    try:
        import crafter
    except ImportError:
        return None
    return str(crafter.constants.root / "assets")


@pytest.fixture(autouse=True, scope="session")
def sb3_log_folder(tmp_path_factory):
    """Stable-Baselines3's logger makes a folder for every model that logs
    (SB3_LOGDIR, else a new one in the system's temporary folder each
    time): the tests' go to one folder of pytest's, not to /tmp for good.
    Programs the tests run inherit it."""
    folder = tmp_path_factory.mktemp("sb3")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SB3_LOGDIR", str(folder))
        yield folder
