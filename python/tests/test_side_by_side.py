"""crafter_toolkit.Env against crafter.Env of crafter 1.8.3, side by side."""

import json
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
        # render() draws anew, at night with noise from the world's
        # generator: the same picture, and the next episodes play alike.
        assert np.array_equal(theirs.render(), ours.render())
        assert np.array_equal(theirs.render((200, 150)), ours.render((200, 150)))
    ours.close()


def test_recorder_side_by_side(tmp_path, monkeypatch):
    """crafter_toolkit.Recorder around the drop-in Env writes what
    crafter.Recorder writes around crafter.Env: the same stats.jsonl lines,
    episode files and video frames, through nights, where both renders
    draw their noise from the world's generator (so the episodes go on
    alike only if the draws are the same)."""
    from crafter import recorder as their_recorder
    from crafter_toolkit import recorder as our_recorder
    assets = crafter_assets()
    videos = {}
    monkeypatch.setattr(their_recorder.imageio, "mimsave",
                        lambda filename, frames: videos.__setitem__(
                            os.path.basename(filename)[:-len(".mp4")], np.array(frames)))
    monkeypatch.setattr(our_recorder, "find_ffmpeg", lambda: None)  # frames, not mp4
    options = dict(seed=12, length=320)
    theirs = crafter.Recorder(crafter.Env(**options), tmp_path / "theirs", video_size=(128, 96))
    with pytest.warns(RuntimeWarning, match="ffmpeg"):
        ours = crafter_toolkit.Recorder(crafter_toolkit.Env(textures=assets, **options),
                                        tmp_path / "ours", video_size=(128, 96))
    rng = np.random.RandomState(5)
    lengths, nights = [], 0
    for episode in range(2):
        a, b = theirs.reset(), ours.reset()
        assert np.array_equal(a, b)
        for t in range(options["length"]):
            action = rng.randint(17) if rng.rand() < 0.3 else 0
            a, ra, da, _ = theirs.step(action)
            b, rb, db, _ = ours.step(action)
            nights += theirs._world.daylight < 0.5
            assert np.array_equal(a, b) and (ra, da) == (rb, db), (episode, t)
            if da:
                lengths.append(t + 1)
                break
    ours.close()
    assert nights > 20, "the episodes never reached the night"
    read = [(tmp_path / side / "stats.jsonl").read_text() for side in ("theirs", "ours")]
    assert read[0] == read[1] and len(read[0].splitlines()) == 2

    def episodes(side):
        files = sorted((tmp_path / side).glob("*-len*.npz"))
        return {p.name.split("-", 1)[1]: p for p in files}  # without the time stamp

    mine = {name[:-len("-frames.npz")]: np.load(path)["frames"]
            for name, path in episodes("ours").items() if name.endswith("-frames.npz")}
    their_files = episodes("theirs")
    our_files = {name: path for name, path in episodes("ours").items()
                 if not name.endswith("-frames.npz")}
    assert sorted(their_files) == sorted(our_files) and len(our_files) == 2
    for name in their_files:
        a, b = np.load(their_files[name]), np.load(our_files[name])
        assert sorted(a.files) == sorted(b.files)
        for key in a.files:
            assert a[key].dtype == b[key].dtype and np.array_equal(a[key], b[key]), (name, key)
    assert sorted(k.split("-", 1)[1] for k in videos) == sorted(mine)
    for name, frames in videos.items():
        ours_frames = mine[name.split("-", 1)[1]]
        assert frames.shape == ours_frames.shape == (len(frames), 96, 128, 3)
        assert np.array_equal(frames, ours_frames), name


def test_recorder_with_reward_off(tmp_path):
    """Recorder(Env(reward=False)), where step() returns 0: stats.jsonl
    sums info["reward"], the game's reward, as crafter.Recorder does, and
    the episode files keep it; Env(stats=) with reward=False writes the
    same lines."""
    assets = crafter_assets()
    options = dict(seed=5, reward=False, length=200)
    theirs = crafter.Recorder(crafter.Env(**options), tmp_path / "theirs", save_video=False)
    ours = crafter_toolkit.Recorder(crafter_toolkit.Env(textures=assets, **options),
                                    tmp_path / "ours", save_video=False)
    plain = crafter_toolkit.Env(textures=assets, stats=tmp_path / "plain", **options)
    rng = np.random.RandomState(2)
    for episode in range(2):
        theirs.reset(), ours.reset(), plain.reset()
        done = False
        while not done:
            action = rng.randint(17)
            _, ra, done, ia = theirs.step(action)
            _, rb, db, ib = ours.step(action)
            _, rc, dc, _ = plain.step(action)
            assert ra == rb == rc == 0 and done == db == dc and ia["reward"] == ib["reward"]
    ours.close()
    plain.close()
    read = [(tmp_path / side / "stats.jsonl").read_text() for side in ("theirs", "ours", "plain")]
    assert read[0] == read[1] == read[2]
    rewards = [json.loads(line)["reward"] for line in read[0].splitlines()]
    assert len(rewards) == 2 and all(rewards), rewards  # the game's reward, not 0
    their_files, our_files = ({path.name.split("-", 1)[1]: path  # without the time stamp
                               for path in (tmp_path / side).glob("*.npz")}
                              for side in ("theirs", "ours"))
    assert sorted(their_files) == sorted(our_files) and len(our_files) == 2
    for name in their_files:
        a, b = np.load(their_files[name]), np.load(our_files[name])
        assert np.array_equal(a["reward"], b["reward"]) and a["reward"].any()
