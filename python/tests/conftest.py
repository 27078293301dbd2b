import os
import sys

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
