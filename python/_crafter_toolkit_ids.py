"""crafter_toolkit's Gymnasium ids in every interpreter of an environment
where the package is installed.

Gymnasium 1.x looks for no plugins: an id is known only once something
registered it in that interpreter.  The wheel therefore installs
crafter_toolkit.pth, which imports this module when Python starts.  It
imports nothing else (neither Gymnasium nor the package): it waits for
`gymnasium` to be imported, then registers the ids, their entry points
given by name, so that `gymnasium.make("crafter_toolkit/Crafter-v1")`
(or crafter's own "CrafterReward-v1", where no other package registered
it) works in any fresh interpreter without `import crafter_toolkit`: the
workers of Stable-Baselines3's SubprocVecEnv and of Gymnasium's
AsyncVectorEnv (spawned, or started by a fork server), notebooks.  The
package itself registers the same ids when it is imported.
"""

import importlib.util
import sys

# crafter's own ids too (gymnasium.make("CrafterReward-v1"), as crafter's
# README makes them with gym), where nothing else has registered them; and
# Craftax-Classic's under Craftax's names (crafter-games(7)).
GYMNASIUM_IDS = {"crafter_toolkit/Crafter-v1": {},
                 "crafter_toolkit/CrafterReward-v1": {"reward": True},
                 "crafter_toolkit/CrafterNoReward-v1": {"reward": False},
                 "CrafterReward-v1": {"reward": True},
                 "CrafterNoReward-v1": {"reward": False},
                 "crafter_toolkit/Craftax-Classic-Symbolic-v1": {},
                 "crafter_toolkit/Craftax-Classic-Pixels-v1": {"obs": "pixels"}}
CRAFTER = ("crafter_toolkit.gym:CrafterEnv", "crafter_toolkit.vector:VectorEnv")
# Each id's (entry point, vector entry point), Crafter's where not listed.
# Craftax-Classic's two ids are one env class with obs "symbolic" (its
# default) or "pixels".
ENTRY_POINTS = {
    "crafter_toolkit/Craftax-Classic-Symbolic-v1": (
        "crafter_toolkit.gym:CraftaxClassicEnv", "crafter_toolkit.vector:CraftaxVectorEnv"),
    "crafter_toolkit/Craftax-Classic-Pixels-v1": (
        "crafter_toolkit.gym:CraftaxClassicEnv", "crafter_toolkit.vector:CraftaxVectorEnv"),
}


def register_gymnasium(gymnasium):
    """The ids in gymnasium's registry, each with its fast vector env as its
    vector entry point; an id already there (another package's) is left
    alone."""
    for name, kwargs in GYMNASIUM_IDS.items():
        if name not in gymnasium.registry:
            entry_point, vector_entry_point = ENTRY_POINTS.get(name, CRAFTER)
            gymnasium.register(id=name, entry_point=entry_point,
                               vector_entry_point=vector_entry_point, kwargs=dict(kwargs))


class _AfterImport:
    """A finder that lets the module `name` be found and loaded as usual,
    then calls then(module) once it has been executed; it removes itself
    from sys.meta_path the first time the module is looked for."""

    def __init__(self, name, then):
        self.name, self.then = name, then

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        execute, then = spec.loader.exec_module, self.then

        def exec_module(module):
            execute(module)
            try:
                then(module)
            except Exception:  # registering is a convenience: never break the import
                pass

        spec.loader.exec_module = exec_module
        return spec


def after_import(name, then):
    """then(module) now if the top-level module `name` is imported, else
    right after it is."""
    module = sys.modules.get(name)
    if module is not None:
        then(module)
    elif not any(isinstance(f, _AfterImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(name, then))


after_import("gymnasium", register_gymnasium)
