"""DreamerV3's Crafter wrapper, unchanged, on this package: dreamerv3 1.5.0's
dreamerv3/embodied/envs/crafter.py (from the installed dreamerv3 package,
tests/reference/requirements-nodeps.txt) with `import crafter` resolving to
crafter_toolkit; beside the reference, the same wrapper on crafter (in
creation order) gives the same observations, rewards and achievement logs
step for step."""

import importlib.machinery
import importlib.util
import json
import os
import sys

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP

STEPS = 400


def wrapper_module():
    """The wrapper's module, loaded from the installed dreamerv3 without
    importing dreamerv3 itself (its __init__ needs JAX); its `embodied`
    imported as dreamerv3's __init__ makes it importable."""
    spec = importlib.machinery.PathFinder.find_spec("dreamerv3")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("dreamerv3 1.5.0 is not installed (tests/reference/requirements-nodeps.txt)")
    folder = spec.submodule_search_locations[0]
    path = os.path.join(folder, "embodied", "envs", "crafter.py")
    if not os.path.isfile(path):
        pytest.skip(f"dreamerv3 has no {path}")
    if folder not in sys.path:
        sys.path.append(folder)  # what dreamerv3/__init__.py does
    module_spec = importlib.util.spec_from_file_location("dreamerv3_crafter_wrapper", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def make(module, crafter, monkeypatch, *args, **kwargs):
    """module.Crafter(*args, **kwargs) with `import crafter` giving crafter."""
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "crafter", crafter)
        return module.Crafter(*args, **kwargs)


def actions(steps, seed=0):
    rng = np.random.RandomState(seed)
    for t in range(steps):
        yield {"action": np.int32(rng.randint(17)), "reset": t == 0}


def test_wrapper_runs_on_the_package(tmp_path, monkeypatch):
    """The wrapper made and stepped with `import crafter` giving
    crafter_toolkit: its spaces, and observations that fit them."""
    module = wrapper_module()
    env = make(module, crafter_toolkit, monkeypatch, "reward", outdir=str(tmp_path), seed=3)
    obs_space, act_space = env.obs_space, env.act_space
    assert obs_space["image"].shape == (64, 64, 3) and act_space["action"].high == 17
    assert len([key for key in obs_space if key.startswith("log_achievement_")]) == 22
    last, ends = True, 0
    for t, action in enumerate(actions(300)):
        obs = env.step(action)
        assert set(obs) == set(obs_space), t
        assert obs["image"].shape == (64, 64, 3) and obs["image"].dtype == np.uint8
        assert obs["is_first"] == last, t  # a step after an episode's end starts the next
        assert type(obs["log_reward"]) is np.float32
        last = obs["is_last"]
        ends += bool(last)
    assert env.render().shape == (64, 64, 3)
    assert ends >= 1, "no episode ended"
    assert len((tmp_path / "stats.jsonl").read_text().splitlines()) == ends


def test_wrapper_beside_crafter(tmp_path, monkeypatch):
    """The same wrapper on crafter 1.8.3 (creation order) and on
    crafter_toolkit, same seed and actions, through episode ends: the same
    observation dicts step for step (values and types), and the same
    achievement logs in the recorders' stats.jsonl."""
    crafter = pytest.importorskip("crafter", reason="the reference crafter is not installed")
    from crafter_toolkit.reference import creation_order
    creation_order(crafter)
    sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
    import npcos  # the reference's daylight as its episodes were recorded
    npcos.install()
    module = wrapper_module()
    theirs = make(module, crafter, monkeypatch, "reward", outdir=str(tmp_path / "theirs"), seed=9)
    ours = make(module, crafter_toolkit, monkeypatch, "reward", outdir=str(tmp_path / "ours"),
                seed=9)
    assert isinstance(theirs._env, crafter.Recorder) and isinstance(ours._env, crafter_toolkit.Recorder)
    assert list(theirs.obs_space) == list(ours.obs_space)
    ends = 0
    for t, action in enumerate(actions(STEPS, seed=4)):
        if theirs._done:  # the episode ended: both start the next
            action = dict(action, reset=True)
        a, b = theirs.step(action), ours.step(action)
        assert list(a) == list(b), t
        for key in a:
            assert type(a[key]) is type(b[key]), (t, key)
            assert np.array_equal(a[key], b[key]), (t, key)
        ends += bool(a["is_last"])
    assert ends >= 1, "no episode ended"
    # Their Recorder writes stats.jsonl when an episode ends; both alike.
    read = [(tmp_path / side / "stats.jsonl") for side in ("theirs", "ours")]
    lines = [[json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
             for path in read]
    assert lines[0] == lines[1] and len(lines[0]) == ends
