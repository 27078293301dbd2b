"""crafter_toolkit.reference.creation_order(): the reference crafter's
despawns made independent of the order Python's sets list objects."""

import copy

import pytest

from crafter_toolkit.reference import creation_order

crafter = pytest.importorskip("crafter", reason="the reference crafter is not installed")


def despawned(env, chunk, order):
    """The position of the cow a forced despawn in chunk removes from a
    copy of env, the chunk's objects handed over in the given order."""
    from crafter import objects
    env = copy.deepcopy(env)
    objs = sorted(env._world.chunks[chunk], key=lambda obj: tuple(obj.pos))
    if order == "reversed":
        objs = objs[::-1]
    before = {tuple(obj.pos) for obj in env._world.objects if isinstance(obj, objects.Cow)}
    env._balance_object(chunk, objs, objects.Cow, "grass", 5, 0, 0.0, 1.0,
                        lambda pos: objects.Cow(env._world, pos), lambda num, space: (0, 0))
    after = {tuple(obj.pos) for obj in env._world.objects if isinstance(obj, objects.Cow)}
    assert len(before - after) == 1
    return (before - after).pop()


def test_despawn_follows_creation_order():
    """With the patch the creature a chunk despawns is the same whatever
    order its objects come in (in crafter they come from a set, in
    memory-address order); without it, it follows that order."""
    from crafter import objects
    assert creation_order() is crafter and creation_order(crafter) is crafter  # twice: no change
    assert crafter.Env._balance_object.creation_order
    env = crafter.Env(seed=2)
    env.reset()
    chunks = [chunk for chunk, objs in env._world.chunks.items()
              if sum(isinstance(obj, objects.Cow) for obj in objs) >= 2]
    assert chunks, "no chunk with two cows in this world"
    for chunk in chunks:
        assert despawned(env, chunk, "sorted") == despawned(env, chunk, "reversed"), chunk


def test_refuses_other_versions(monkeypatch):
    """The patch knows crafter 1.8.3's code only."""
    import importlib.metadata
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "1.7.0")
    with pytest.raises(RuntimeError, match="1.8.3"):
        creation_order()
