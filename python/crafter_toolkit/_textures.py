"""Which textures crafter-step draws with.

By default Crafter's own: the assets folder of the `crafter` package
wherever it is installed (found on sys.path without importing it, so
neither crafter nor its dependencies need to import here; `pip install
--no-deps crafter` is enough; a `crafter` that is a shim of this
package, without the textures, is passed over).  The environment variable CRAFTER_TEXTURES,
which every program of the toolkit reads, comes first.  Without either,
the toolkit's built-in textures, and the first pixel observation of the
process says so once (TexturesWarning)."""

import functools
import importlib.metadata
import os
import sys
import warnings

BUILTIN = "builtin"  # textures= for the toolkit's own textures
VARIABLE = "CRAFTER_TEXTURES"
# What a folder must hold to be Crafter's assets (crafter-step reads these
# and more; a folder with these is taken for Crafter's own).
PROBES = ("grass", "water", "player-left", "zombie", "1", "9", "iron_sword")
INSTALL = "pip install --no-deps crafter"

_noticed = False


class TexturesWarning(UserWarning):
    """Pixels are drawn with the toolkit's built-in textures, not the
    game's own (Crafter's, or Craftax's for Craftax-Classic)."""


@functools.lru_cache(maxsize=None)
def crafter_assets():
    """The assets folder of the installed crafter package, or None: the
    first folder crafter/assets holding Crafter's textures among the
    sys.path entries, in order, else where pip installed the crafter
    distribution.  crafter is not imported, and a package named crafter
    without the textures (a shim that makes `import crafter` this package)
    is passed over: the real crafter behind it still gives its textures."""
    for entry in sys.path:
        folder = _assets_in(os.path.join(entry or os.curdir, "crafter"))
        if folder:
            return folder
    try:
        distribution = importlib.metadata.distribution("crafter")
        return _assets_in(str(distribution.locate_file("crafter")))
    except (importlib.metadata.PackageNotFoundError, OSError, ValueError, TypeError):
        return None


def _assets_in(package):
    """package/assets when it holds Crafter's textures, else None."""
    folder = os.path.join(package, "assets")
    try:
        if all(os.path.isfile(os.path.join(folder, name + ".png")) for name in PROBES):
            return os.path.abspath(folder)
    except (OSError, ValueError, TypeError):
        pass
    return None


def choose(textures):
    """(arguments for crafter-step, environment for it or None, whether
    these are the built-in textures by default) for textures=: a folder,
    "builtin", or None (CRAFTER_TEXTURES, else Crafter's assets, else the
    built-in ones)."""
    if textures is None:
        if os.environ.get(VARIABLE):
            return [], None, False  # crafter-step reads it itself
        textures = crafter_assets()
        if textures is None:
            return [], None, True
    elif isinstance(textures, str) and textures == BUILTIN:
        environment = {k: v for k, v in os.environ.items() if k != VARIABLE}
        return [], environment, False
    return ["--textures", os.fspath(textures)], None, False


def notice():
    """Says once a process that pixels are drawn with the built-in
    textures, and how to get Crafter's."""
    global _noticed
    if _noticed:
        return
    _noticed = True
    warnings.warn(
        "crafter_toolkit draws pixels with its built-in textures, which are not Crafter's: "
        f"observations differ from crafter.Env's.  `{INSTALL}` installs Crafter's textures, "
        "which crafter_toolkit then uses by itself (or name a folder with textures= or "
        f"{VARIABLE}; textures='builtin' chooses the built-in ones without this notice)",
        TexturesWarning, stacklevel=4)


# Craftax-Classic's pixels (crafter-games(7)) are drawn with Craftax's own
# textures: the craftax_classic/assets folder of the installed craftax
# package, found without importing it (nor jax: `pip install --no-deps
# craftax==1.6.1` is enough), else a folder the caller names, else the
# toolkit's built-in textures, which the first pixel observation of the
# process then says once.  CRAFTER_TEXTURES, which names Crafter's
# textures, is not read for them.
CRAFTAX_PROBES = ("grass", "plant_on_grass", "ripe_plant_on_grass", "debug_tile", "player-left",
                  "1", "9", "iron_sword")
CRAFTAX_INSTALL = "pip install --no-deps craftax==1.6.1"

_noticed_craftax = False


@functools.lru_cache(maxsize=None)
def craftax_assets():
    """The craftax_classic/assets folder of the installed craftax package
    (the first `craftax` on sys.path, as `import craftax` would find it),
    or None.  Neither craftax nor jax is imported."""
    try:
        spec = importlib.machinery.PathFinder.find_spec("craftax")
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        folder = os.path.join(location, "craftax_classic", "assets")
        if all(os.path.isfile(os.path.join(folder, name + ".png")) for name in CRAFTAX_PROBES):
            return folder
    return None


def choose_craftax(textures):
    """(arguments for crafter-step, whether these are the built-in
    textures by default) for Craftax-Classic's pixels with textures=: a
    folder (Craftax's assets folder), "builtin", or None (the installed
    craftax's assets, else the built-in ones)."""
    if textures is None:
        textures = craftax_assets()
        if textures is None:
            return [], True
    elif isinstance(textures, str) and textures == BUILTIN:
        return [], False
    return ["--textures", os.fspath(textures)], False


def notice_craftax():
    """Says once a process that Craftax-Classic's pixels are drawn with
    the built-in textures, and how to get Craftax's."""
    global _noticed_craftax
    if _noticed_craftax:
        return
    _noticed_craftax = True
    warnings.warn(
        "crafter_toolkit draws Craftax-Classic's pixels with its built-in textures, which are "
        "not Craftax's: observations differ from Craftax-Classic-Pixels-v1's.  "
        f"`{CRAFTAX_INSTALL}` installs Craftax's textures, which crafter_toolkit then uses by "
        "itself (or name its craftax_classic/assets folder with textures=; textures='builtin' "
        "chooses the built-in ones without this notice)",
        TexturesWarning, stacklevel=4)
