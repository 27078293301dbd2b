"""Level sets (levels=, start_level=, level_order=): info["level"] from the
frame's episode section, levels in order, and an episode on level k played
exactly as the k-th episode of the seed."""

import os
import subprocess
import sys

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from conftest import TOP, crafter_assets

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")


def play_episode(env, rng, limit=100000):
    """Random actions until the episode ends; the last info."""
    for _ in range(limit):
        _, _, done, info = env.step(rng.randint(17))
        if done:
            return info
    raise AssertionError(f"the episode did not end in {limit} steps")


def test_sequential_levels_cycle():
    env = crafter_toolkit.Env(seed=7, obs="none", length=30, levels=3, level_order="sequential")
    rng = np.random.RandomState(0)
    seen = []
    for _ in range(4):
        env.reset()
        first = env.level
        _, _, _, info = env.step(0)
        assert info["level"] == first
        last = play_episode(env, rng)
        assert last["level"] == first  # the step that ends it still reports its level
        seen.append(first)
    env.close()
    assert seen == [1, 2, 3, 1]


def test_start_level_and_vector_envs_share_the_set():
    """Env i plays levels of seed (not seed + i): with sequential order, env
    i of 3 starts on level start_level + i, then moves 3 on, cycling."""
    vector = crafter_toolkit.VectorEnv(3, obs="none", seed=5, length=10, levels=4,
                                       start_level=6, level_order="sequential")
    _, infos = vector.reset()
    assert infos["level"].tolist() == [6, 7, 8]
    assert np.array_equal(infos["level"], infos["crafter_episode"])
    seen = [infos["level"].tolist()]
    zeros = np.zeros(3, dtype=np.int64)
    for _ in range(2):
        for _ in range(10):
            _, _, terminated, truncated, infos = vector.step(zeros)
        assert (terminated | truncated).all()
        _, _, _, _, infos = vector.step(zeros)  # the autoreset step
        seen.append(infos["level"].tolist())
    vector.close()
    assert seen == [[6, 7, 8], [9, 6, 7], [8, 9, 6]]


def frames(stream, actions):
    """(obs, reward, done, discount) of the reset and of every step, until
    the episode ends."""
    frame = stream.frame
    out = [(frame["obs"][0].copy(), 0.0, False, 1.0)]
    for action in actions:
        frame = stream.step([action])
        out.append((frame["obs"][0].copy(), float(frame["reward"][0]),
                    bool(frame["done"][0]), float(frame["discount"][0])))
        if frame["done"][0]:
            break
    return out


def same_frames(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for t, (a, b) in enumerate(zip(ours, theirs)):
        assert np.array_equal(a[0], b[0]), f"{what}, step {t}: observation"
        assert a[1:] == b[1:], f"{what}, step {t}: reward, done, discount"


@pytest.mark.parametrize("obs", ["pixels", "semantic"])
def test_level_plays_as_that_episode_of_the_seed(obs):
    """Each episode on level k, replayed after other levels, equals episode
    k of a plain crafter-step of that seed with the same actions."""
    seed, length = 11, 150
    actions = np.random.RandomState(3).randint(0, 17, length)
    options = dict(obs=obs, area=(40, 32), length=length, manual_reset=True)
    played = _stream.Stream(seed=seed, levels=3, start_level=2, level_order="sequential",
                            **options)
    assert played.levels and played.flags & _stream.FLAG_LEVELS
    episodes = []
    for episode in range(4):
        if episode:
            played.step([_stream.RESET])
        level = played.level(played.frame, 0)
        episodes.append((level, frames(played, actions)))
    played.close()
    assert [level for level, _ in episodes] == [2, 3, 4, 2]
    assert len(episodes[0][1]) > 1
    for level, ours in episodes:
        plain = _stream.Stream(seed=seed, first_episode=level, **options)
        assert not plain.levels and not plain.flags & _stream.FLAG_LEVELS
        same_frames(ours, frames(plain, actions), f"level {level}")
        plain.close()


def test_random_levels_are_worlds_of_the_seed():
    """Random order: every episode's level is in the set, and its first
    observation is that episode's world of the seed, in every env."""
    seed = 4
    vector = crafter_toolkit.VectorEnv(2, obs="pixels", seed=seed, length=5, area=(32, 32),
                                       levels=6, level_order="random")
    starts = {}
    obs, infos = vector.reset()
    zeros = np.zeros(2, dtype=np.int64)
    for _ in range(6):
        for i in range(2):
            starts.setdefault(int(infos["level"][i]), obs[i].copy())
        for _ in range(5):
            vector.step(zeros)
        obs, _, _, _, infos = vector.step(zeros)
        assert (infos["step"] == 0).all()
    vector.close()
    assert set(starts) <= set(range(1, 7)) and len(starts) >= 2
    for level, first in starts.items():
        plain = _stream.Stream(seed=seed, first_episode=level, obs="pixels", area=(32, 32))
        assert np.array_equal(plain.frame["obs"][0], first), f"level {level}"
        plain.close()


def test_level_equals_crafter_env_episode():
    """Against crafter.Env itself: level 2 of seed 6 is its second episode."""
    crafter = pytest.importorskip("crafter", reason="the reference is not installed")
    # Despawns in creation order, as the engine does (see test_side_by_side).
    sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
    import recorder  # noqa: F401
    options = dict(seed=6, area=(32, 32), length=60)
    theirs = crafter.Env(**options)
    theirs.reset()
    a = theirs.reset()
    ours = crafter_toolkit.Env(textures=crafter_assets(), levels=1, start_level=2, **options)
    b = ours.reset()
    assert ours.level == 2
    same = crafter_assets() is not None  # pixels agree with Crafter's own textures
    assert not same or np.array_equal(a, b)
    rng = np.random.RandomState(2)
    for t in range(60):
        action = rng.randint(17)
        a, ra, da, ia = theirs.step(action)
        b, rb, db, ib = ours.step(action)
        assert not same or np.array_equal(a, b), f"step {t + 1}: observation"
        assert (ra, da) == (rb, db), f"step {t + 1}"
        assert np.array_equal(ia["semantic"], ib["semantic"]), f"step {t + 1}: semantic"
        assert ib["level"] == 2 and "level" not in ia
        if da:
            break
    ours.close()


def test_level_file(tmp_path):
    gen = os.path.join(TOP, "bin", "crafter-gen")
    helped = subprocess.run([gen, "--help"], capture_output=True, text=True).stdout
    if "--save-levels" not in helped:
        pytest.skip("this crafter-gen cannot save level files (no --save-levels)")
    path = tmp_path / "levels.lvl"
    subprocess.run([gen, "--levels", "5", "--seed", "2", "--save-levels", str(path)],
                   check=True, capture_output=True)
    actions = np.random.RandomState(8).randint(0, 17, 80)
    options = dict(obs="pixels", length=80, manual_reset=True, level_order="sequential")
    from_file = _stream.Stream(seed=None, levels=path, **options)
    from_count = _stream.Stream(seed=2, levels=5, **options)
    for episode in range(6):
        if episode:
            from_file.step([_stream.RESET])
            from_count.step([_stream.RESET])
        assert from_file.level(from_file.frame, 0) == episode % 5 + 1
        same_frames(frames(from_file, actions), frames(from_count, actions),
                    f"episode {episode + 1}")
    from_file.close()
    from_count.close()
    env = crafter_toolkit.Env(levels=str(path), obs="none", level_order="sequential")
    env.reset()
    assert env.level == 1 and env.step(0)[3]["level"] == 1
    env.close()
    with pytest.raises(crafter_toolkit.CrafterStepError, match="seed"):
        crafter_toolkit.Env(levels=path, seed=3)


def test_bad_level_file_is_said(tmp_path):
    path = tmp_path / "junk.lvl"
    path.write_bytes(b"not levels at all")
    with pytest.raises(crafter_toolkit.CrafterStepError, match="junk.lvl"):
        crafter_toolkit.Env(levels=path, obs="none")
    with pytest.raises(crafter_toolkit.CrafterStepError, match="missing.lvl"):
        crafter_toolkit.VectorEnv(2, obs="none", levels=str(tmp_path / "missing.lvl"))


def test_level_options():
    assert _stream.level_options(None) == []
    assert _stream.level_options(3) == ["--levels", "3"]
    assert _stream.level_options(np.int64(2), 5, "sequential") == [
        "--levels", "2", "--start-level", "5", "--level-order", "sequential"]
    assert _stream.level_options("levels.lvl", level_order="random") == [
        "--levels", "levels.lvl", "--level-order", "random"]
    # a file named by digits is a file, not a count
    assert _stream.level_options("7") == ["--levels", os.path.join(".", "7")]


MAKERS = {
    "env": lambda **kw: crafter_toolkit.Env(obs="none", **kw),
    "vector": lambda **kw: crafter_toolkit.VectorEnv(2, obs="none", **kw),
    "stream": lambda **kw: _stream.Stream(obs="none", **kw),
}
if gymnasium is not None:
    MAKERS["gym"] = lambda **kw: gymnasium.make("crafter_toolkit/Crafter-v1", obs="none", **kw)


@pytest.mark.parametrize("make", list(MAKERS.values()), ids=list(MAKERS))
@pytest.mark.parametrize("options", [
    dict(levels=3, level_order="shuffled"),
    dict(levels=3, level_order="Sequential"),
    dict(start_level=2),
    dict(level_order="sequential"),
    dict(levels=0),
    dict(levels=-2),
    dict(levels=True),
    dict(levels=2.5),
    dict(levels=""),
    dict(levels=3, start_level=0),
    dict(levels=3, start_level="2"),
])
def test_bad_arguments(make, options):
    with pytest.raises(ValueError):
        make(**options)


def test_levels_with_first_episode():
    with pytest.raises(ValueError, match="first_episode"):
        _stream.Stream(obs="none", levels=3, first_episode=2)
    stream = _stream.Stream(obs="none", levels=3, first_episode=1)  # the default is fine
    assert stream.levels
    stream.close()


@needs_gymnasium
def test_gym_env_level_in_reset_and_step_info():
    env = gymnasium.make("crafter_toolkit/Crafter-v1", obs="semantic", seed=3, length=5,
                         levels=2, start_level=4, level_order="sequential")
    seen = []
    for _ in range(3):
        _, info = env.reset()
        seen.append(info["level"])
        for _ in range(5):
            _, _, terminated, truncated, info = env.step(0)
            assert info["level"] == seen[-1] == info["crafter_episode"]
        assert terminated or truncated
    assert seen == [4, 5, 4]
    _, info = env.reset(seed=9)  # a new seed: its levels, from the first again
    assert info["level"] == 4
    env.close()


def test_no_level_without_levels():
    env = crafter_toolkit.Env(seed=1, obs="none")
    env.reset()
    assert env.level is None and "level" not in env.step(0)[3]
    env.close()
    vector = crafter_toolkit.VectorEnv(2, obs="none")
    _, infos = vector.reset()
    assert "level" not in infos
    assert "level" not in vector.step(np.zeros(2, dtype=np.int64))[4]
    vector.close()
    if gymnasium is not None:
        single = gymnasium.make("crafter_toolkit/Crafter-v1", obs="none")
        assert "level" not in single.reset()[1]
        single.close()
