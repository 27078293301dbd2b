"""crafter.objects' classes, as read-only pictures of the game's objects.

`Env._world.objects`, `Env._player` and `Env._world[pos]` give instances
of these classes, made from the engine's saved state (crafter-state(5)):
each holds what crafter 1.8.3's object of that class holds at that step,
under the same names, with the same values (`pos`, `health`,
`inventory`, `removed`; a player's `facing`, `achievements`, `action`,
`sleeping`, `_last_health`, `_hunger`, `_thirst`, `_fatigue`,
`_recover`; a zombie's `player` and `cooldown`, a skeleton's `player` and
`reload`, an arrow's `facing`, a plant's `grown` and `ripe`; `texture`
and `walkable`) and crafter's questions that change nothing
(`distance`, `toward`, `is_free`).  Nothing can be written: setting an
attribute, an inventory count or a cell raises ReadOnlyError, and the
methods that would change the game (`move`, `update`, `random_dir`)
raise it too.

An instance shows the step it was read at: after a step, read
`env._player` (or the world's objects) again, as BALROG and SmartPlay do.

The classes' names are crafter's, so code that names them from
`str(cls)` ("<class 'crafter_toolkit.objects.Player'>", parsed after
"objects.") finds "Player", "Cow", "Zombie", "Skeleton", "Arrow" and
"Plant" as with crafter; `Env._sem_view._obj_ids` is keyed by them."""

import functools

import numpy as np

from ._errors import ReadOnlyError
from .names import ACHIEVEMENTS, ITEMS

__all__ = ["Object", "Player", "Cow", "Zombie", "Skeleton", "Arrow", "Plant", "Fence",
           "ReadOnlyError"]



def _walkable():
    """crafter.constants.walkable (read from the engine's data on first
    use, so that importing the package reads nothing)."""
    from . import constants
    return list(constants.walkable)

_FACING_TEXTURE = {(-1, 0): "left", (1, 0): "right", (0, -1): "up", (0, 1): "down"}


def refuse(what):
    """ReadOnlyError for writing `what`."""
    return ReadOnlyError(f"{what} cannot be written: crafter_toolkit shows crafter's insides "
                         "as a read-only view of the engine's state (play through step())")


class ReadOnlyDict(dict):
    """A dict (crafter's inventories and achievements are dicts: equal to
    them, JSON-able, copied with .copy()) that refuses every change."""

    __slots__ = ()
    _what = "this dict"

    def _refuse(self, *args, **kwargs):
        raise refuse(self._what)

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = clear = setdefault = _refuse

    def __reduce__(self):
        return dict, (dict(self),)  # a copy or a pickle is a plain dict


class ReadOnlySet(frozenset):
    """A frozenset (crafter's Env._unlocked is a set: equal to it) whose
    set methods that would change it say that the view is read-only."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise refuse("Env._unlocked")

    add = remove = discard = pop = clear = update = _refuse
    intersection_update = difference_update = symmetric_difference_update = _refuse

    def __reduce__(self):
        return set, (set(self),)


_DICTS = {}


def frozen(values, what):
    """A ReadOnlyDict of values whose refusals name `what`."""
    kind = _DICTS.get(what)
    if kind is None:
        kind = _DICTS[what] = type("ReadOnlyDict", (ReadOnlyDict,),
                                   {"__slots__": (), "_what": what})
    return kind(values)


def read_only_array(array):
    array.flags.writeable = False
    return array


class Object:
    """crafter.objects.Object: a thing in the world at a cell."""

    def __init__(self, world, pos, health):
        # Made by the view only (pos a pair of ints); attributes are then
        # fixed.  pos and inventory are made when first read.
        self.__dict__.update(world=world, _xy=pos, _health=health, removed=False)

    @functools.cached_property
    def pos(self):
        return read_only_array(np.array(self._xy, np.int64))

    @functools.cached_property
    def inventory(self):
        return frozen({"health": self._health}, "inventory")

    def __setattr__(self, name, value):
        raise refuse(f"{type(self).__name__}.{name}")

    def __delattr__(self, name):
        raise refuse(f"{type(self).__name__}.{name}")

    def __repr__(self):
        x, y = self._xy
        return f"<crafter_toolkit.objects.{type(self).__name__} at ({x}, {y})>"

    @property
    def texture(self):
        raise NotImplementedError

    @property
    def walkable(self):
        return _walkable()

    @property
    def health(self):
        return self._health

    @property
    def all_dirs(self):
        return ((-1, 0), (+1, 0), (0, -1), (0, +1))

    def distance(self, target):
        if hasattr(target, "pos"):
            target = target.pos
        return np.abs(target - self.pos).sum()

    def toward(self, target, long_axis=True):
        if hasattr(target, "pos"):
            target = target.pos
        offset = target - self.pos
        dists = np.abs(offset)
        if (dists[0] > dists[1] if long_axis else dists[0] <= dists[1]):
            return np.array((np.sign(offset[0]), 0))
        return np.array((0, np.sign(offset[1])))

    def is_free(self, target, materials=None):
        materials = self.walkable if materials is None else materials
        material, obj = self.world[target]
        return obj is None and material in materials

    def move(self, direction):
        raise refuse(f"{type(self).__name__}.move()")

    def update(self):
        raise refuse(f"{type(self).__name__}.update()")

    def random_dir(self):
        raise refuse(f"{type(self).__name__}.random_dir() (it draws from the world's generator)")


class Player(Object):
    """crafter.objects.Player."""

    def __init__(self, world, pos, record, action):
        super().__init__(world, pos, int(record["inventory"][0]))
        fields = self.__dict__
        fields.update(
            facing=(int(record["facing"][0]), int(record["facing"][1])),
            inventory=frozen(zip(ITEMS, record["inventory"].tolist()), "inventory"),
            achievements=frozen(zip(ACHIEVEMENTS, record["achievements"].tolist()),
                                "achievements"),
            action=action, sleeping=bool(record["sleeping"]),
            _last_health=int(record["last_health"]))
        # crafter's counters start as ints and turn floats once a sleeping
        # step adds a half: ints where whole, the same values.
        for name in ("hunger", "thirst", "fatigue", "recover"):
            value = float(record[name])
            fields["_" + name] = int(value) if value.is_integer() else value

    @property
    def texture(self):
        if self.sleeping:
            return "player-sleep"
        return "player-" + _FACING_TEXTURE[tuple(self.facing)]

    @property
    def walkable(self):
        return _walkable() + ["lava"]


class Cow(Object):
    """crafter.objects.Cow."""

    @property
    def texture(self):
        return "cow"


class Zombie(Object):
    """crafter.objects.Zombie."""

    def __init__(self, world, pos, health, player, cooldown):
        super().__init__(world, pos, health)
        self.__dict__.update(player=player, cooldown=cooldown)

    @property
    def texture(self):
        return "zombie"


class Skeleton(Object):
    """crafter.objects.Skeleton."""

    def __init__(self, world, pos, health, player, reload):
        super().__init__(world, pos, health)
        self.__dict__.update(player=player, reload=reload)

    @property
    def texture(self):
        return "skeleton"


class _StaticProperty:
    """crafter.engine.staticproperty: Arrow.walkable on the class too."""

    def __init__(self, function):
        self.function = function

    def __get__(self, instance, owner=None):
        return self.function()


class Arrow(Object):
    """crafter.objects.Arrow."""

    def __init__(self, world, pos, health, facing):
        super().__init__(world, pos, health)
        self.__dict__["facing"] = read_only_array(np.array(facing, np.int64))

    @property
    def texture(self):
        return "arrow-" + _FACING_TEXTURE[tuple(int(v) for v in self.facing)]

    @_StaticProperty
    def walkable():
        return _walkable() + ["water", "lava"]


class Plant(Object):
    """crafter.objects.Plant."""

    def __init__(self, world, pos, health, grown):
        super().__init__(world, pos, health)
        self.__dict__["grown"] = grown

    @property
    def texture(self):
        return "plant-ripe" if self.ripe else "plant"

    @property
    def ripe(self):
        return self.grown > 300


class Fence(Object):
    """crafter.objects.Fence (crafter has the class; its game places none)."""

    @property
    def texture(self):
        return "fence"
