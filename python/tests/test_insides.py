"""crafter's insides on crafter_toolkit.Env (env._world, env._player,
env._sem_view, ...): read-only, and equal to crafter 1.8.3's own at every
step of whole episodes, attribute by attribute, object by object in
creation order."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import objects
from conftest import TOP, crafter_assets

# Instance attributes of crafter's objects not compared: the world (its
# own comparison) and the world's random generator, which the view does
# not give (a draw would change the game).
SKIPPED = {"world", "random"}
PROPERTIES = {"Object": ("health", "texture", "walkable", "all_dirs"),
              "Plant": ("ripe",)}


def same(a, b, where):
    """Values equal, of the same kind (ints stay ints, tuples tuples,
    arrays arrays of the same dtype)."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype, where
        assert a.shape == b.shape and np.array_equal(a, b), where
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a.items()) == list(b.items()), where
    elif isinstance(a, (set, frozenset)):
        assert isinstance(b, (set, frozenset)) and set(a) == set(b), where
    else:
        assert a == b, (where, a, b)
        assert isinstance(b, type(a)) or isinstance(a, type(b)) or (
            isinstance(a, (int, float, np.integer, np.floating))
            and isinstance(b, (int, float, np.integer, np.floating))), (where, type(a), type(b))


def same_object(theirs, ours, where):
    """Every attribute crafter's object has (its instance attributes and
    the properties of its class), on ours, equal."""
    assert type(ours).__name__ == type(theirs).__name__, where
    assert isinstance(ours, getattr(objects, type(theirs).__name__))
    names = [n for n in vars(theirs) if n not in SKIPPED]
    names += [n for cls in type(theirs).__mro__ for n in PROPERTIES.get(cls.__name__, ())]
    for name in names:
        a, b = getattr(theirs, name), getattr(ours, name)
        if name == "player":  # a zombie's or skeleton's: the env's player
            assert type(b) is objects.Player and np.array_equal(a.pos, b.pos), where
            continue
        same(a, b, f"{where}.{name}")
    return names


def compare(theirs, ours, t, seen):
    """The whole of env's insides at step t."""
    for name in ("_step", "_episode", "_seed", "_area", "_length", "_reward", "_last_health",
                 "_unlocked"):
        same(getattr(theirs, name), getattr(ours, name), f"step {t}: env.{name}")
    for name in ("_view", "_size"):
        same(getattr(theirs, name), getattr(ours, name), f"step {t}: env.{name}")
    world, mine = theirs._world, ours._world
    same(world.area, mine.area, f"step {t}: area")
    same(world.daylight, mine.daylight, f"step {t}: daylight")
    same(world._mat_map, mine._mat_map, f"step {t}: _mat_map")
    same(world._mat_ids, mine._mat_ids, f"step {t}: _mat_ids")
    same(theirs._sem_view(), ours._sem_view(), f"step {t}: _sem_view()")
    a, b = world.objects, mine.objects
    assert [type(o).__name__ for o in a] == [type(o).__name__ for o in b], f"step {t}: objects"
    for k, (x, y) in enumerate(zip(a, b)):
        names = same_object(x, y, f"step {t}: object {k} ({type(x).__name__})")
        seen.setdefault(type(x).__name__, set()).update(names)
    same_object(theirs._player, ours._player, f"step {t}: _player")
    assert ours._player is b[0], "the player is the world's first object, one object"
    # Cells: the player's and its neighbours', a few others, outside.
    player = theirs._player
    cells = [player.pos + d for d in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))]
    cells += [(0, 0), (-1, 5), (world.area[0], 3), (t % world.area[0], (7 * t) % world.area[1])]
    cells += [obj.pos for obj in a[1:4]]
    for pos in cells:
        (ma, oa), (mb, ob) = world[pos], mine[pos]
        assert ma == mb and type(oa).__name__ == type(ob).__name__, (t, pos)
        if oa is not None:
            assert np.array_equal(oa.pos, ob.pos) and oa.health == ob.health
        assert player.is_free(pos) == ours._player.is_free(pos), (t, pos)
    for distance in (1, 3):
        (ma, oa), (mb, ob) = world.nearby(player.pos, distance), mine.nearby(player.pos, distance)
        assert ma == mb, (t, distance)
        assert sorted((type(o).__name__, tuple(o.pos)) for o in oa) == \
            sorted((type(o).__name__, tuple(o.pos)) for o in ob), (t, distance)
    for material in ("grass", "water", "tree", "table"):
        same(world.count(material), mine.count(material), f"step {t}: count {material}")
        same(world.mask(8, 30, 20, 41, material), mine.mask(8, 30, 20, 41, material),
             f"step {t}: mask {material}")
    ca, cb = world.chunks, mine.chunks
    assert list(ca) == list(cb), f"step {t}: chunks in the order first touched"
    for key in ca:
        assert sorted((type(o).__name__, tuple(o.pos)) for o in ca[key]) == \
            sorted((type(o).__name__, tuple(o.pos)) for o in cb[key]), (t, key)
    for obj_a, obj_b in zip(a[1:6], b[1:6]):
        same(player.distance(obj_a), ours._player.distance(obj_b), f"step {t}: distance")
        for axis in (True, False):
            same(obj_a.toward(player, axis), obj_b.toward(ours._player, axis), f"step {t}: toward")


AGENT = os.path.join(TOP, "tests", "agent-actions")


def actions(kind, seed):
    """An episode's actions, chosen as it goes: random ones; a sleeper,
    which stays about and sleeps at night or when tired (zombies find it);
    or the engine's scripted agent (tests/agent-actions), which collects,
    crafts, fights zombies and skeletons, sleeps and wakes, to its death."""
    rng = np.random.RandomState(seed)
    if kind == "scripted":
        if not os.access(AGENT, os.X_OK):
            pytest.skip("tests/agent-actions is not built (make tests/agent-actions)")
        played = subprocess.run([AGENT, "scripted", str(seed), "1", "64,64", "9,9", "64,64",
                                 "10000"], capture_output=True, text=True, check=True)
        return lambda env, t: int(played.stdout.split()[t - 1])
    if kind == "random":
        return lambda env, t: rng.randint(17)

    def sleeper(env, t):
        if env._world.daylight < 0.35 or env._player.inventory["energy"] < 5:
            return 6
        return rng.choice([0, 0, 1, 2, 3, 4, 5, 5])
    return sleeper


@pytest.fixture(scope="module")
def reference():
    crafter = pytest.importorskip("crafter", reason="the reference (make reference-env) is "
                                                    "not installed")
    sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
    import recorder  # noqa: F401  (creation order, the recorded daylight)
    return crafter


@pytest.mark.parametrize("seed, kind, episodes", [(1, "random", 3), (3, "sleeper", 1),
                                                  (1, "scripted", 1)])
def test_insides_equal_crafter(reference, seed, kind, episodes):
    """Every attribute of the view equals crafter 1.8.3's at every step of
    whole episodes (to death or the time limit), before the first reset
    too, through nights, fights, sleep and death; and _local_view and
    _item_view draw crafter's pictures."""
    crafter = reference
    options = dict(seed=seed, length=3000)
    theirs = crafter.Env(**options)
    ours = crafter_toolkit.Env(textures=crafter_assets(), obs="none", **options)
    # Before the first reset, as BALROG reads them.
    for name in ("_step", "_episode", "_player", "_unlocked", "_last_health", "_seed"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours._world.objects == theirs._world.objects == []
    same(theirs._world._mat_map, ours._world._mat_map, "before reset")
    same(theirs._sem_view(), ours._sem_view(), "before reset")
    assert {str(c): v for c, v in ours._sem_view._obj_ids.items()} == {
        str(c).replace("crafter.", "crafter_toolkit."): v
        for c, v in theirs._sem_view._obj_ids.items()}
    choose = actions(kind, seed)
    seen, events = {}, set()
    for episode in range(episodes):
        theirs.reset(), ours.reset()
        compare(theirs, ours, 0, seen)
        for t in range(1, options["length"] + 1):
            action = choose(theirs, t)
            health = theirs._player.health
            _, _, done, _ = theirs.step(action)
            _, _, done_ours, _ = ours.step(action)
            assert done == done_ours
            compare(theirs, ours, t, seen)
            world = theirs._world
            events |= {name for name, happened in (
                ("night", world.daylight < 0.3),
                ("sleeping", theirs._player.sleeping),
                ("woke", theirs._player.achievements["wake_up"] > 0),
                ("fought", theirs._player.achievements["defeat_zombie"] > 0),
                ("hurt", theirs._player.health < health),
                ("zombie", any(type(o).__name__ == "Zombie" for o in world.objects)),
                ("arrow", any(type(o).__name__ == "Arrow" for o in world.objects)),
                ("plant", any(type(o).__name__ == "Plant" for o in world.objects)),
                ("death", theirs._player.health <= 0)) if happened}
            # Pictures, at night too (both draw their noise from the world's
            # generator, so the game goes on alike, though no longer as the
            # scripted agent planned it: not in its episode).
            if t % 97 == 0 and kind != "scripted":
                for unit in (7, (5, 6)):
                    units = np.array(unit) * np.ones(2, int)  # crafter's: an array
                    a = theirs._local_view(theirs._player, units)
                    b = ours._local_view(ours._player, unit)
                    assert np.array_equal(a.astype(np.uint8), b), (t, unit)
                    a = theirs._item_view(theirs._player.inventory, units)
                    b = ours._item_view(ours._player.inventory, unit)
                    assert a.dtype == b.dtype and np.array_equal(a, b), (t, unit)
            if done:
                break
    ours.close()
    assert set(seen) >= {"Player", "Cow", "Zombie", "Skeleton"}
    if kind == "scripted":
        assert set(seen) == {"Player", "Cow", "Zombie", "Skeleton", "Arrow", "Plant"}
    expected = {"random": {"night", "hurt", "zombie", "death"},
                "sleeper": {"night", "sleeping", "hurt", "zombie", "death"},
                "scripted": {"night", "sleeping", "woke", "fought", "hurt", "arrow", "plant",
                             "death"}}[kind]
    assert events >= expected, f"the episodes never saw {expected - events}"


def test_read_only():
    """Every attribute of the view refuses to be written, with a clear
    ReadOnlyError (an AttributeError and a TypeError)."""
    env = crafter_toolkit.Env(seed=2, obs="none")
    env.reset()
    for _ in range(30):
        env.step(5)
    player = env._player
    writes = [
        lambda: setattr(env, "_world", None), lambda: setattr(env, "_player", None),
        lambda: setattr(env, "_step", 3), lambda: setattr(env, "_seed", 3),
        lambda: setattr(env, "_area", (9, 9)), lambda: setattr(env, "_unlocked", set()),
        lambda: setattr(env, "_sem_view", None), lambda: delattr(env, "_episode"),
        lambda: setattr(env._world, "daylight", 1.0),
        lambda: env._world.__setitem__(player.pos, "stone"),
        lambda: env._world.add(player), lambda: env._world.remove(player),
        lambda: setattr(env._sem_view, "_obj_ids", {}),
        lambda: env._sem_view._obj_ids.__setitem__(objects.Cow, 3),
        lambda: setattr(player, "health", 9), lambda: setattr(player, "sleeping", True),
        lambda: setattr(player, "pos", (1, 1)), lambda: setattr(player, "_hunger", 0),
        lambda: player.inventory.__setitem__("diamond", 9),
        lambda: player.inventory.update(wood=9), lambda: player.achievements.clear(),
        lambda: player.move((1, 0)), lambda: player.update(),
        lambda: env._world._mat_ids.pop("water"),
        lambda: env._unlocked.add("collect_diamond"), lambda: env._unlocked.clear(),
    ]
    for k, write in enumerate(writes):
        with pytest.raises(crafter_toolkit.ReadOnlyError, match="read-only"):
            write()
    with pytest.raises(AttributeError):
        env._world.random
    for array in (player.pos, env._world._mat_map, env._view, env._size):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    # Copies are ordinary dicts; the game went on untouched.
    inventory = player.inventory.copy()
    inventory["diamond"] = 9
    assert env._player.inventory["diamond"] == 0
    assert isinstance(player.inventory, dict)
    import copy
    import json
    import pickle
    assert json.loads(json.dumps(player.inventory)) == player.inventory
    assert pickle.loads(pickle.dumps(player.inventory)) == dict(player.inventory)
    assert copy.deepcopy(player.inventory) == dict(player.inventory)
    env.close()


def test_class_names_parse_as_crafter():
    """BALROG and SmartPlay name the semantic ids from str(cls), taking what
    follows "objects." up to the quote."""
    env = crafter_toolkit.Env(seed=0, obs="none")
    names = [0] * 19
    for name, index in list(env._world._mat_ids.items()) + list(env._sem_view._obj_ids.items()):
        name = (str(name)[str(name).find("objects.") + len("objects."):-2].lower()
                if "objects." in str(name) else str(name))
        names[index] = name
    assert names == ["None", "water", "grass", "stone", "path", "sand", "tree", "lava", "coal",
                     "iron", "diamond", "table", "furnace", "player", "cow", "zombie",
                     "skeleton", "arrow", "plant"]
    env.close()


def test_reading_nothing_asks_nothing(monkeypatch):
    """An env whose insides are never read never asks crafter-step for its
    state; one read a step asks once, however many attributes are read."""
    env = crafter_toolkit.Env(seed=0, obs="none")
    calls = []
    original = env._stream.save_state
    monkeypatch.setattr(env._stream, "save_state", lambda i: calls.append(i) or original(i))
    env._world._mat_ids, env._sem_view._obj_ids, env._step  # before reset: no state
    env.reset()
    for _ in range(20):
        env.step(1)
    assert calls == []
    for _ in range(5):
        env.step(2)
        env._player.health, env._player.facing, env._unlocked, env._world.objects
        env._sem_view(), env._step, env._player.sleeping
    assert len(calls) == 5
    env.close()


SEED_SCRIPT = textwrap.dedent("""
    import importlib, sys, warnings
    warnings.simplefilter("ignore")
    for name in sys.argv[1:]:
        importlib.import_module(name)
    import crafter_toolkit
    env = crafter_toolkit.Env(seed=3, obs="none")
    first = env.reset() is None and env._player.pos.tolist()
    assert env.seed(11) == [11], env.seed(11)
    assert env.seed() and len(env.seed()) == 1
    env.reset()
    print(env._player.pos.tolist(), env._seed, env._episode)
""")


@pytest.mark.parametrize("order", [
    (), ("gym",), ("gymnasium",), ("gym", "gymnasium"), ("gymnasium", "gym"),
    ("crafter_toolkit", "gym"), ("crafter_toolkit", "gymnasium", "gym"),
    ("crafter_toolkit", "gym", "gymnasium"), ("gym", "crafter_toolkit", "gymnasium")])
def test_seed_in_every_import_order(order):
    """env.seed(s) exists (gym's Env.seed: returns [s]) whatever was imported
    before or after the package, and does not change the game, as in
    crafter: the next reset plays the constructor's seed's next episode."""
    for name in order:
        if name != "crafter_toolkit":
            pytest.importorskip(name)
    environment = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    done = subprocess.run([sys.executable, "-c", SEED_SCRIPT, *order], env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["3", "2"], done.stdout
