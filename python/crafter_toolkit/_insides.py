"""crafter's insides on crafter_toolkit.Env, read-only: `_world`,
`_sem_view`, `_local_view`, `_item_view`, `_player`, `_unlocked`, `_step`,
`_episode`, `_last_health`, as crafter 1.8.3's Env has them.

They are made from the env's saved state (crafter-state(5): the grid, the
objects in creation order, the counters, the player), asked of
crafter-step only when one of them is read, and kept until the env's next
frame (a step, a reset, a load): an env whose insides are never read
never asks.  `_world`, `_sem_view`, `_local_view` and `_item_view` are one
object each for the env's life, as crafter's are, and always show the
current step; the objects they give (`world.objects`, `_player`, ...)
show the step they were read at."""

import struct

import numpy as np

from . import objects
from .names import ACHIEVEMENTS, ACTIONS, ITEMS
from .objects import frozen, read_only_array, refuse

MATERIALS = ("water", "grass", "stone", "path", "sand", "tree", "lava", "coal", "iron",
             "diamond", "table", "furnace")
MAT_IDS = {name: i for i, name in enumerate((None,) + MATERIALS)}
MAT_NAMES = {i: name for name, i in MAT_IDS.items()}
# crafter's SemanticView(world, [Player, Cow, Zombie, Skeleton, Arrow,
# Plant]): the engine's object kinds, in that order.
KINDS = (objects.Player, objects.Cow, objects.Zombie, objects.Skeleton, objects.Arrow,
         objects.Plant)
OBJ_IDS = {cls: len(MAT_IDS) + i for i, cls in enumerate(KINDS)}
CHUNK = (12, 12)  # crafter's World(area, materials, (12, 12))

# crafter-state(5), format version 1.
MAGIC, VERSION = b"CRAFTSTA", 1
PLAYERS_AT = 2648
PLAYER = np.dtype([
    ("health_at_reward", "<i4"), ("unlocked", "<u4"), ("inventory", "<i4", 16),
    ("achievements", "<i4", 22), ("facing", "<i4", 2), ("sleeping", "<i4"),
    ("last_health", "<i4"), ("kills", "<i4"), ("hunger", "<f8"), ("thirst", "<f8"),
    ("fatigue", "<f8"), ("recover", "<f8")])
OBJECT = np.dtype([("kind", "u1"), ("facing", "i1", 2), ("zero", "u1"), ("x", "<i4"),
                   ("y", "<i4"), ("health", "<i4"), ("counter", "<i4")])
assert PLAYER.itemsize == 212 and OBJECT.itemsize == 20


class Snapshot:
    """One step's insides, from a saved state (or, before the first reset,
    crafter's: an empty world, no player, no counters)."""

    def __init__(self, world, area, state=None):
        self.world = world
        self._objects = self._player = self._at = None
        if state is None:
            self.seed = None
            self.step = self.episode = self.unlocked = self.last_health = None
            self.episode = 0
            self.daylight = 0.0
            self.materials = read_only_array(np.zeros(tuple(area), np.uint8))
            self.rows = np.zeros(0, OBJECT)
            self.chunk_ids = np.zeros(0, np.uint16)
            self.record = None
            return
        if state[:8] != MAGIC or struct.unpack_from("<I", state, 8)[0] != VERSION:
            raise ValueError("not a saved state of Crafter (crafter-state(5), version 1)")
        width, height = struct.unpack_from("<II", state, 24)
        players = struct.unpack_from("<I", state, 60)[0]
        self.seed, self.episode, _, self.step = struct.unpack_from("<qqqq", state, 96)
        self.daylight = struct.unpack_from("<d", state, 128)[0]
        self.action, _, self.present = struct.unpack_from("<III", state, 136)
        records = np.frombuffer(state, PLAYER, players, PLAYERS_AT)
        self.record = records[0]
        at = PLAYERS_AT + PLAYER.itemsize * players
        self.materials = np.frombuffer(state, np.uint8, width * height, at).reshape(width, height)
        at += width * height
        count = struct.unpack_from("<I", state, at)[0]
        self.rows = np.frombuffer(state, OBJECT, count, at + 4)
        at += 4 + OBJECT.itemsize * count
        touched = struct.unpack_from("<I", state, at)[0]
        self.chunk_ids = np.frombuffer(state, "<u2", touched, at + 4)
        bits = int(self.record["unlocked"])
        self.unlocked = objects.ReadOnlySet(
            name for i, name in enumerate(ACHIEVEMENTS) if bits >> i & 1)
        self.last_health = int(self.record["health_at_reward"])

    @property
    def player(self):
        if self.record is None:
            return None
        if self._player is None:
            row = self.rows[0] if self.present & 1 and len(self.rows) else None
            pos = (int(row["x"]), int(row["y"])) if row is not None else (-1, -1)
            # A reset makes crafter's player anew, its action "noop"; the
            # engine keeps the last action given.
            action = ACTIONS[self.action] if self.step else "noop"
            self._player = objects.Player(self.world, pos, self.record, action)
        return self._player

    @property
    def objects(self):
        """The world's objects in creation order (crafter's world.objects)."""
        if self._objects is None:
            made = []
            for kind, facing, _, x, y, health, counter in self.rows.tolist():
                pos = (x, y)
                if kind == 0:
                    made.append(self.player)
                elif kind == 1:
                    made.append(objects.Cow(self.world, pos, health))
                elif kind == 2:
                    made.append(objects.Zombie(self.world, pos, health, self.player, counter))
                elif kind == 3:
                    made.append(objects.Skeleton(self.world, pos, health, self.player, counter))
                elif kind == 4:
                    made.append(objects.Arrow(self.world, pos, health, facing))
                else:
                    made.append(objects.Plant(self.world, pos, health, counter))
            self._objects = made
        return self._objects

    def object_at(self, pos):
        if self._at is None:
            self._at = {obj._xy: obj for obj in self.objects}
        return self._at.get(pos)

    def semantic(self):
        canvas = self.materials.copy()
        canvas[self.rows["x"], self.rows["y"]] = len(MAT_IDS) + self.rows["kind"]
        return canvas


def _pos(pos):
    return int(pos[0]), int(pos[1])


class _Fixed:
    """Refuses every attribute written (the insides are read-only)."""

    def __setattr__(self, name, value):
        raise refuse(f"{self._what}.{name}")

    def __delattr__(self, name):
        raise refuse(f"{self._what}.{name}")


class World(_Fixed):
    """crafter.engine.World of the env (env._world), read-only: its area,
    daylight, objects, materials, chunks and what crafter's World answers
    without changing anything."""

    _what = "Env._world"

    def __init__(self, insides):
        object.__setattr__(self, "_insides", insides)

    @property
    def _now(self):
        return self._insides.snapshot()

    @property
    def area(self):
        return self._insides.env._area

    @property
    def daylight(self):
        return self._now.daylight

    @property
    def objects(self):
        return list(self._now.objects)

    @property
    def _mat_map(self):
        return self._now.materials

    @property
    def _mat_ids(self):
        return frozen(MAT_IDS, "World._mat_ids")

    @property
    def _mat_names(self):
        return frozen(MAT_NAMES, "World._mat_names")

    @property
    def _chunk_size(self):
        return CHUNK

    @property
    def random(self):
        raise AttributeError("crafter_toolkit's Env._world has no random generator to draw from: "
                             "a draw would change the game, and the view is read-only")

    @property
    def chunks(self):
        """crafter's chunks: {(xmin, xmax, ymin, ymax): the objects in it}
        for every chunk an object was ever in this episode, in the order
        they were first so (the order crafter's balancing walks them)."""
        now = self._now
        width, height = self.area
        rows = -(-height // CHUNK[1])
        members = {}
        for obj in now.objects:
            members.setdefault(self.chunk_key(obj._xy), set()).add(obj)
        chunks = {}
        for chunk in now.chunk_ids.tolist():
            x, y = chunk // rows * CHUNK[0], chunk % rows * CHUNK[1]
            key = (x, min(x + CHUNK[0], width), y, min(y + CHUNK[1], height))
            chunks[key] = frozenset(members.get(key, ()))
        return chunks

    def __getitem__(self, pos):
        x, y = _pos(pos)
        width, height = self.area
        if not (0 <= x < width and 0 <= y < height):
            return None, None
        now = self._now
        return MAT_NAMES[int(now.materials[x, y])], now.object_at((x, y))

    def __setitem__(self, pos, material):
        raise refuse("Env._world[pos]")

    def nearby(self, pos, distance):
        (x, y), d = _pos(pos), distance
        now = self._now
        ids = set(now.materials[x - d: x + d + 1, y - d: y + d + 1].flatten().tolist())
        materials = tuple(MAT_NAMES[i] for i in ids)
        objs = set()
        for obj in now.objects:
            ox, oy = obj._xy
            if max(x - d, 0) <= ox < x + d + 1 and max(y - d, 0) <= oy < y + d + 1:
                objs.add(obj)
        return materials, objs

    def mask(self, xmin, xmax, ymin, ymax, material):
        return self._now.materials[xmin: xmax, ymin: ymax] == MAT_IDS[material]

    def count(self, material):
        return (self._now.materials == MAT_IDS[material]).sum()

    def chunk_key(self, pos):
        (x, y), (csx, csy) = _pos(pos), CHUNK
        xmin, ymin = (x // csx) * csx, (y // csy) * csy
        return (xmin, min(xmin + csx, self.area[0]), ymin, min(ymin + csy, self.area[1]))

    def _refuse(self, *args, **kwargs):
        raise refuse("Env._world (add, remove, move, reset)")

    add = remove = move = reset = _refuse


class SemanticView(_Fixed):
    """crafter.engine.SemanticView of the env (env._sem_view): called, the
    world's materials with its objects drawn over them (the map info
    ["semantic"] holds), an array of its own; `_obj_ids` keyed by the
    classes of crafter_toolkit.objects."""

    _what = "Env._sem_view"

    def __init__(self, insides):
        object.__setattr__(self, "_insides", insides)

    @property
    def _mat_ids(self):
        return frozen(MAT_IDS, "SemanticView._mat_ids")

    @property
    def _obj_ids(self):
        return frozen(OBJ_IDS, "SemanticView._obj_ids")

    def __call__(self):
        return self._insides.snapshot().semantic()


def _unit(unit):
    unit = np.array(unit).astype(np.int64).reshape(-1)
    return (int(unit[0]), int(unit[-1]))


def _grids(env):
    view = [int(v) for v in env._view]
    item_rows = -(-len(ITEMS) // view[0])
    return view, item_rows


class LocalView(_Fixed):
    """crafter.engine.LocalView of the env (env._local_view): called with
    the player and a unit (pixels a cell), the world around the player as
    crafter's render draws it: an array (width, height, 3), x first, of
    the uint8 values render puts in its picture (crafter's own LocalView
    gives them as floats before that cast).  Drawn by crafter-step's
    render, so at night its noise comes from the world's generator, as
    crafter's LocalView draws it: the game goes on as crafter's would."""

    _what = "Env._local_view"

    def __init__(self, insides):
        object.__setattr__(self, "_insides", insides)

    def __call__(self, player, unit):
        env = self._insides.env
        if not isinstance(player, objects.Player):
            raise ValueError("Env._local_view draws around the env's player (env._player)")
        (view, item_rows), (ux, uy) = _grids(env), _unit(unit)
        picture = env.render((view[0] * ux, view[1] * uy)).transpose((1, 0, 2))
        return picture[:, : (view[1] - item_rows) * uy]


class ItemView(_Fixed):
    """crafter.engine.ItemView of the env (env._item_view): called with the
    player's inventory and a unit, the inventory as crafter draws it below
    the local view, an array (width, height, 3), x first, uint8, crafter's
    bytes.  It draws the player's inventory as it is now (another
    inventory raises ValueError), and changes nothing, at night either."""

    _what = "Env._item_view"

    def __init__(self, insides):
        object.__setattr__(self, "_insides", insides)

    def __call__(self, inventory, unit):
        env = self._insides.env
        player = self._insides.snapshot().player
        if player is None or dict(inventory) != dict(player.inventory):
            raise ValueError("Env._item_view draws the player's inventory as it is now "
                             "(env._player.inventory)")
        (view, item_rows), (ux, uy) = _grids(env), _unit(unit)
        env._stream.check_open()
        picture = env._stream.render_unchanged(0, [0], view[0] * ux, view[1] * uy)[0]
        return picture.transpose((1, 0, 2))[:, (view[1] - item_rows) * uy:]


class Insides:
    """The env's insides: the four views, and the snapshot of the current
    frame, made from save_state() when first read and kept until the next
    frame."""

    def __init__(self, env):
        self.env = env
        self.world = World(self)
        self.sem_view = SemanticView(self)
        self.local_view = LocalView(self)
        self.item_view = ItemView(self)
        self._key = self._snapshot = None

    def snapshot(self):
        env = self.env
        stream = env._stream
        key = (id(stream), stream._sequence, env._started)
        if self._snapshot is None or key != self._key:
            if not env._started:
                self._snapshot = Snapshot(self.world, env._area)
            else:
                stream.check_open()
                self._snapshot = Snapshot(self.world, env._area, stream.save_state(0))
            self._key = key
        return self._snapshot

    def __getstate__(self):
        # A copy's stream counts its frames afresh: it reads its own state.
        return {"env": self.env}

    def __setstate__(self, state):
        self.__init__(state["env"])
