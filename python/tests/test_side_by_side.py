"""crafter_toolkit.Env against crafter.Env of crafter 1.8.3, side by side."""

import os
import sys

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP, crafter_assets

crafter = pytest.importorskip("crafter", reason="the reference (make reference-env) is not installed")
# The reference despawns one of several creatures picked from a Python set,
# in memory-address order; the recorder of the reference episodes makes it
# creation order, the engine's (tests/reference/recorder.py).
sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
import recorder  # noqa: E402,F401


def same_info(theirs, ours):
    assert set(ours) == set(theirs)
    for key in ("inventory", "achievements"):
        assert list(ours[key].items()) == list(theirs[key].items()), key
        assert all(type(v) is type(theirs[key][k]) for k, v in ours[key].items()), key
    assert ours["discount"] == theirs["discount"] and type(ours["discount"]) is float
    assert ours["reward"] == theirs["reward"] and type(ours["reward"]) is type(theirs["reward"])
    for key in ("semantic", "player_pos"):
        assert ours[key].dtype == theirs[key].dtype, key
        assert np.array_equal(ours[key], theirs[key]), key


@pytest.mark.parametrize("options", [
    dict(seed=3),
    dict(seed=11, area=(32, 24), view=(7, 9), size=(70, 90), length=300),
    dict(seed=5, reward=False, length=120),
])
def test_side_by_side(options):
    """Same seed and actions: the same observations (Crafter's textures) and
    info, over several episodes of one Env, episodes ended by death or the
    time limit, and one given up by reset() midway."""
    assets = crafter_assets()
    theirs = crafter.Env(**options)
    ours = crafter_toolkit.Env(textures=assets, **options)
    rng = np.random.RandomState(options["seed"])
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space.n == theirs.action_space.n
    assert ours.action_names == theirs.action_names
    for episode in range(3):
        a, b = theirs.reset(), ours.reset()
        assert a.dtype == b.dtype and np.array_equal(a, b), f"reset of episode {episode + 1}"
        limit = 150 if episode == 1 else 2000  # episode 2 is given up
        for t in range(limit):
            action = rng.randint(17)
            a, ra, da, ia = theirs.step(action)
            b, rb, db, ib = ours.step(action)
            assert np.array_equal(a, b), f"episode {episode + 1}, step {t + 1}: observation"
            assert (ra, da) == (rb, db) and type(ra) is type(rb) and type(da) is type(db)
            same_info(ia, ib)
            if da:
                break
        # At night crafter.Env.render() draws new noise (from the world's
        # generator): only a day's picture is the last observation.
        if theirs._world.daylight >= 0.5:
            assert np.array_equal(theirs.render(), ours.render())
    ours.close()
