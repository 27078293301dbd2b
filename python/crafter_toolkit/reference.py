"""The reference crafter 1.8.3 made deterministic, for comparing it with
this package side by side.

crafter 1.8.3 is not quite deterministic: every 10 steps each chunk of the
world may despawn one of its creatures of a kind, drawn with the world's
generator from the chunk's objects, which crafter collects in a Python
set.  A set of objects iterates in the order of their memory addresses,
so which creature goes depends on where Python put them: two runs of
crafter itself, same seed and actions, can part ways there.  The engine
lists the candidates in creation order (the order the world added them);
`creation_order()` makes an installed crafter do the same.  Every random
draw stays crafter's own; only the order of the list drawn from changes.

    import crafter
    from crafter_toolkit.reference import creation_order
    creation_order()            # patches crafter.Env for this process
    theirs = crafter.Env(seed=3)  # now plays as crafter_toolkit.Env(seed=3)
"""

import importlib
import importlib.metadata

VERSION = "1.8.3"  # the crafter this patch is for


def creation_order(crafter=None):
    """Patches crafter.Env (the module given, else `import crafter`) so that
    a chunk's despawn candidates come in creation order, the world's object
    index, instead of the memory-address order of a Python set.  Patching
    twice changes nothing.  Returns the crafter module.  Raises
    RuntimeError for a crafter other than 1.8.3, whose code this patch
    does not know."""
    if crafter is None:
        crafter = importlib.import_module("crafter")
    try:
        version = importlib.metadata.version("crafter")
    except importlib.metadata.PackageNotFoundError:
        version = None
    if version != VERSION:
        raise RuntimeError(f"crafter_toolkit.reference.creation_order patches crafter {VERSION}, "
                           f"not crafter {version}")
    original = crafter.Env._balance_object
    if getattr(original, "creation_order", False):
        return crafter

    def balance_object(self, chunk, objs, *args, **kwargs):
        index = self._world._obj_map  # a cell's object: its index in creation order
        ordered = sorted(objs, key=lambda obj: int(index[tuple(obj.pos)]))
        return original(self, chunk, ordered, *args, **kwargs)

    balance_object.creation_order = True
    balance_object.__doc__ = original.__doc__
    crafter.Env._balance_object = balance_object
    return crafter
