"""SmartPlay's Crafter environment (microsoft/SmartPlay,
src/smartplay/crafter/crafter_env.py, its files unchanged, fetched at a
pinned commit) over its own copy of crafter and over
crafter_toolkit.smartplay, put in the copy's place by python/README.md's
one-line package: the text observations, history, score, rewards, info
and pixels of every step are equal, and so are its Recorder's files and
EnvSample's steps.

SmartPlay's files come from SMARTPLAY_SOURCE (a checkout of
microsoft/SmartPlay at COMMIT, the folder holding src/smartplay), else
from the cache folder (SMARTPLAY_CACHE, else
build-reference/smartplay-COMMIT), else are downloaded there from GitHub;
each is checked against its git blob id.  Both runs play in the Python of
`make balrog-env` (SMARTPLAY_ENV names another): crafter 1.8.3's pins and
gym, which SmartPlay imports.  Without the files (no network) or that
Python, the test skips and says why."""

import functools
import os
import sys

import pytest

from conftest import TOP
from pinned import pinned_files, played

COMMIT = "9dec5f2247da0dc88a47fe3daf3fb4fa02629b89"
URL = "https://raw.githubusercontent.com/microsoft/SmartPlay/{commit}/src/smartplay/{path}"
# What SmartPlay's Crafter environment reads (under src/smartplay/), with
# the git blob ids at COMMIT.
FILES = {
    "crafter/__init__.py": "40840b84979220a74fbb805783c60a9bd5543548",
    "crafter/assets/crafter_ctxt.pkl": "c948738cea59cd50e2f8e2f0a3ccb175fe7cdb52",
    "crafter/crafter/__init__.py": "165c3b98d9406a141e4be9f1f9a84aa4b37a92d3",
    "crafter/crafter/assets/1.png": "a659963dff1bae56d5b71b77cd495bc5c15ff257",
    "crafter/crafter/assets/2.png": "9b1d210add1f868b2daa9bdf80996ef5750e1c64",
    "crafter/crafter/assets/3.png": "5519f1c65c68d60aca3d783c31c66a67f5bdf364",
    "crafter/crafter/assets/4.png": "0604e1cac7d1d947aa6331f2fb8a2d7e13ccccf5",
    "crafter/crafter/assets/5.png": "355950bc2c8198b26e61a7a7310f7976105ad69f",
    "crafter/crafter/assets/6.png": "466735a841634ab7621a5aac0064f0c6bb2c1be7",
    "crafter/crafter/assets/7.png": "32c67f0ecf225873546a686411b251b0fc60e2ba",
    "crafter/crafter/assets/8.png": "2f4c4cce0159c63be5bb7bdcfc03e34bacd75b20",
    "crafter/crafter/assets/9.png": "bda0269564159fcc628e7180d2328ebd68bfb4df",
    "crafter/crafter/assets/arrow-down.png": "426ebf6987d025c1815ff714483280425af3bf9c",
    "crafter/crafter/assets/arrow-left.png": "66b18ef5888c7852dfae3d2735d36f1b39f9b124",
    "crafter/crafter/assets/arrow-right.png": "2c7e8dd7f5e45fde2a7c7a3482c1bf86470093ef",
    "crafter/crafter/assets/arrow-up.png": "73992e2e3c38baefcd9af5ba4ef449c00103e559",
    "crafter/crafter/assets/coal.png": "467a44d4c10dcefaa3644740ff73089a7643f549",
    "crafter/crafter/assets/cow.png": "5c346ac784f46a3b99be00f20ea09efe3104bef0",
    "crafter/crafter/assets/diamond.png": "fe74e39f4c6c999100280a88c41152512023fe19",
    "crafter/crafter/assets/drink.png": "b875879a39b4d4205ad5282faa9aaa9ac471fc46",
    "crafter/crafter/assets/energy.png": "a77aaf5b71ef472ea77a2a3fb2cec80a3c564246",
    "crafter/crafter/assets/fence.png": "4814616da1ede03186af884e69311b925a66d8fc",
    "crafter/crafter/assets/food.png": "a408a5273dc2b99865d337658b8d19f133c13122",
    "crafter/crafter/assets/furnace.png": "fafc893a3ccee4871d46731801c921c86b5ef439",
    "crafter/crafter/assets/grass.png": "08360bb865f22706d95f94c1913606c9668b8c9f",
    "crafter/crafter/assets/health.png": "88a8597daad67b6c412b04a28f3ce2ce6ed1303f",
    "crafter/crafter/assets/iron.png": "eafc7fef8b3137364c6d97475982307a34276837",
    "crafter/crafter/assets/iron_pickaxe.png": "52c45c20745a629d4667202bc3e6752efadd47b4",
    "crafter/crafter/assets/iron_sword.png": "080b82155fefb3128e4df6000d23eda3d475d37c",
    "crafter/crafter/assets/lava.png": "13c45f9c0b4581d7f6d6ee95f72f91b624198695",
    "crafter/crafter/assets/leaves.png": "97a8cef5c767be849bf3e3f8a72209986cae5a57",
    "crafter/crafter/assets/log.png": "6ce29850fef297ec9b4167cf33629eaf04505f2e",
    "crafter/crafter/assets/path.png": "9b6ffe22aac865ca78180f3b3519de5aeef9e5ba",
    "crafter/crafter/assets/plant-ripe.png": "ed7394ef64ac9d80a00a20b69a4535689f77ec30",
    "crafter/crafter/assets/plant-young.png": "4e7fda20e9219cb2cd9c26de51fceb4333d2be05",
    "crafter/crafter/assets/plant.png": "4c793c818c9714d0282bd959adf7cf9f8697916e",
    "crafter/crafter/assets/player-down.png": "d499ce7c2fb40a02a8e18f2b5a57c311db9128c1",
    "crafter/crafter/assets/player-left.png": "0b8b3b1892b6508d73aa27e9802dae85dafdcd36",
    "crafter/crafter/assets/player-right.png": "6c3efdcd912681ae5dc8d5b6131ea4957d825caa",
    "crafter/crafter/assets/player-sleep.png": "592435d09fc2ac4a0eaa27363db1492164665f88",
    "crafter/crafter/assets/player-up.png": "b4c971bc6b0f69b922c509069462991590fd2288",
    "crafter/crafter/assets/player.png": "82eaa0e89b5936f5858afc7aa2e3c692337f0a09",
    "crafter/crafter/assets/sand.png": "8948044eac0be2d088de4527ba2e46a5a236cce5",
    "crafter/crafter/assets/sapling.png": "f7122163dedeacfb70c19f495d23fde8411dc9b9",
    "crafter/crafter/assets/skeleton.png": "f4dc90ba4c7795f42b7f5c8657b0f4ecc1d9ffb2",
    "crafter/crafter/assets/stone.png": "d5d37d4b8b1c173f714c170f98e17a257e7bd30c",
    "crafter/crafter/assets/stone_pickaxe.png": "fb813f80e828448e89548da16eee34236b4cf35b",
    "crafter/crafter/assets/stone_sword.png": "89bb46bae04f69950691525a2a05b717bb5add31",
    "crafter/crafter/assets/table.png": "7b41597721b51c913fb28d6ecc780485d145084c",
    "crafter/crafter/assets/tree.png": "68e06c4cda992a7d57e07c1f1572f143b55c9451",
    "crafter/crafter/assets/unknown.png": "6df29cd2bc66a71063642f201ce256d9934df322",
    "crafter/crafter/assets/water.png": "2dffcedd7f830045468d936d48d6a0bf332d70ab",
    "crafter/crafter/assets/wood.png": "edaf0ffa144a61242c4ef447b6484134c12888d6",
    "crafter/crafter/assets/wood_pickaxe.png": "69e936295651b5a46a063ea663fe0676341f4cff",
    "crafter/crafter/assets/wood_sword.png": "09819ae4a401e41b5978dc75873f586821a37bb5",
    "crafter/crafter/assets/zombie.png": "f154bed4253233587b674828a20e9b5581a4953a",
    "crafter/crafter/constants.py": "868446b2251f8ffb1e3d7bd469b25aa982f046b7",
    "crafter/crafter/data.yaml": "4bcd3659abfefa64e01a8e9447ae3bc6d4e3ce85",
    "crafter/crafter/engine.py": "2ba960a4dbdc3e4f4a776432464f25efe221440a",
    "crafter/crafter/env.py": "75b91bda7087288c9b11b0d72659a8589a0c39b5",
    "crafter/crafter/objects.py": "fe0699ef1073efa737daa467ce16ef940994ad9e",
    "crafter/crafter/recorder.py": "76dc6b01482dbfef5510bebfa95513824960882b",
    "crafter/crafter/worldgen.py": "257d5e7a81571e4c48692e8c7d897bae385efbf9",
    "crafter/crafter_env.py": "b852111fa5507b286d3ea21af04d5af6aa7fdf0b",
    "crafter/evaluation.yml": "95b0a44a3ad64745fa3a18e7eb4c000f185d3cf0",
    "utils.py": "0f87ad426e91f8c46013f0723e708ae006e760b5",
}
RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "smartplay_run.py")
# SmartPlay's settings (its Crafter-v0: history of 2 steps, 64x64 pixels),
# and a longer history at another size and a shorter episode length.
SETTINGS = {
    "default": {"seeds": [21, 6, 8], "steps": 1200},
    "history": {"seeds": [4, 12], "steps": 400, "recorder": False,
                "kwargs": {"max_steps": 6, "size": [96, 80], "length": 150}},
}


@functools.lru_cache(maxsize=None)
def smartplay_checkout():
    """The folder holding SmartPlay's src/smartplay at COMMIT, or a reason
    to skip."""
    return pinned_files("SmartPlay", FILES, URL, COMMIT, "SMARTPLAY_SOURCE",
                        os.environ.get("SMARTPLAY_CACHE")
                        or os.path.join(TOP, "build-reference", f"smartplay-{COMMIT[:12]}"),
                        inside="src/smartplay")


@functools.lru_cache(maxsize=None)
def smartplay_python():
    python = os.path.join(os.environ.get("SMARTPLAY_ENV") or os.environ.get("BALROG_ENV") or
                          os.path.join(TOP, "build-reference", "balrog-venv"), "bin", "python")
    if not os.access(python, os.X_OK):
        pytest.skip("SmartPlay's Python (make balrog-env: crafter 1.8.3's pins and gym) is not "
                    "there: SmartPlay's Crafter environment was NOT run")
    return python


def play(side, settings, out, python=None):
    folder, reason = smartplay_checkout()
    if folder is None:
        pytest.skip(reason)
    python = python or smartplay_python()
    return played(python, RUN, side, folder, out, settings,
                  os.path.join(TOP, "bin", "crafter-step"), unset=("CRAFTER_TEXTURES",),
                  timeout=1200)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    runs = {}

    def run(settings):
        if settings not in runs:
            out = tmp_path_factory.mktemp("smartplay") / f"smartplay-{settings}.jsonl"
            runs[settings] = play("smartplay", SETTINGS[settings], out)
        return runs[settings]
    return run


def where(line, episode):
    for key in ("step", "sample"):
        if key in line:
            return f"episode {episode}, {key} {line[key]}"
    return f"episode {episode}, " + ", ".join(sorted(line))


def same_run(theirs, ours):
    """Line by line; the first difference named by episode, step and key."""
    episode = 0
    for a, b in zip(theirs, ours):
        episode = a.get("episode", episode)
        place = where(a, episode)
        assert a.keys() == b.keys(), place
        for key in a:
            assert a[key] == b[key], f"{place}: {key} differs:\n{a[key]}\n{b[key]}"
    assert len(theirs) == len(ours), "the runs have different lengths"


def score(value):
    """A score as plain() wrote it: 0 (an int) until an achievement counts."""
    return value if isinstance(value, int) else value[1]


def check_coverage(lines):
    """Whole episodes with nights, sleep, fights, rewards and deaths."""
    steps = [line for line in lines if "step" in line]
    texts = [line["info"]["obs"] for line in steps]
    assert sum(line["reward"][1] != 0 for line in steps) >= 10
    assert sum(line["reward"][1] < 0 for line in steps) >= 5  # damage taken
    assert sum("You died." in text for text in texts) >= 2
    assert sum("You are sleeping" in text for text in texts) >= 20
    assert sum(line["daylight"] < 0.3 for line in steps) >= 50
    hits = [line for before, line in zip(texts, steps[1:])
            if "You face zombie at your front" in before and line["action"] == 5]
    assert len(hits) >= 3  # the player strikes zombies
    assert max(score(line["info"]["score"]) for line in steps) >= 3
    assert any(line["info"]["unlocked"][1] for line in steps)


@pytest.mark.parametrize("settings", sorted(SETTINGS))
def test_smartplay_unchanged(reference, tmp_path, settings):
    """SmartPlay's env, made by gym.make and played as its evaluation
    plays, gives over crafter_toolkit.smartplay in its copy's place what it
    gives over its own copy: every line equal."""
    theirs = reference(settings)
    if settings == "default":
        check_coverage(theirs)
    ours = play("shim", SETTINGS[settings], tmp_path / "ours.jsonl")
    same_run(theirs, ours)


def test_smartplay_in_this_python(reference, tmp_path):
    """The same in the Python running the tests (the clients' numpy 2 and
    gym 0.23, without crafter: the pixels come from the assets/ kept
    beside the package in the copy's place)."""
    pytest.importorskip("gym", reason="SmartPlay's crafter_env.py imports gym")
    theirs = reference("default")
    ours = play("shim", SETTINGS["default"], tmp_path / "ours.jsonl", sys.executable)
    same_run(theirs, ours)


@pytest.mark.parametrize("key", ["image", "player_facing", "sleeping"])
def test_a_planted_difference_is_caught(reference, tmp_path, key):
    """The comparison can fail: one value changed at one step of the
    package's side (a pixel, the facing, sleeping) is found there."""
    theirs = reference("history")
    settings = dict(SETTINGS["history"], plant={"step": 120, "key": key})
    ours = play("shim", settings, tmp_path / "planted.jsonl")
    with pytest.raises(AssertionError, match="episode 0, step 118:") as caught:
        same_run(theirs, ours)
    assert ("image" if key == "image" else "info") + " differs" in str(caught.value)


def test_textures_beside_the_package(tmp_path, monkeypatch):
    """The package put in the copy's place draws with the assets/ kept
    beside its __init__.py (the copy's textures), before an installed
    crafter's; CRAFTER_TEXTURES still comes first."""
    import shutil
    import sys

    from conftest import crafter_assets

    import crafter_toolkit.smartplay as smartplay
    assets = crafter_assets()
    if assets is None:
        pytest.skip("Crafter's textures are not here (crafter is not installed)")
    package = tmp_path / "copy_in_place"
    shutil.copytree(assets, package / "assets")
    (package / "__init__.py").write_text("from crafter_toolkit.smartplay import *\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("CRAFTER_TEXTURES", raising=False)
    assert smartplay._own_assets() != str(package / "assets")
    try:
        import copy_in_place
        assert copy_in_place.Env is smartplay.Env
        assert smartplay._own_assets() == str(package / "assets")
        env = copy_in_place.Env(seed=1)
        assert env._stream._arguments["textures"] == str(package / "assets")
        monkeypatch.setenv("CRAFTER_TEXTURES", assets)
        named = copy_in_place.Env(seed=1)
        assert named._stream._arguments["textures"] is None  # crafter-step reads the variable
        named.close()
        env.close()
    finally:
        sys.modules.pop("copy_in_place", None)


def test_info_keys():
    """The copy's info keys in its order, with crafter's types; EnvSample's
    without sleeping (its copy's own)."""
    import numpy as np

    import crafter_toolkit.smartplay as smartplay
    env = smartplay.Env(seed=3, obs="none")
    env.reset()
    keys = ["inventory", "achievements", "sleeping", "discount", "semantic", "player_pos",
            "player_facing", "reward", "dead", "unlocked", "action", "view"]
    for action in [0, 6, 1, 5, 5]:
        _, _, _, info = env.step(action)
        assert list(info) == keys
        assert type(info["sleeping"]) is bool and type(info["dead"]) is bool
        assert type(info["unlocked"]) is set and type(info["player_facing"]) is tuple
        assert info["action"] == smartplay.constants.actions[action]
        assert info["player_facing"] == env._player.facing
        assert info["sleeping"] == env._player.sleeping
        assert np.array_equal(info["view"], [9, 9])
    env.close()
    np.random.seed(2)
    sample = smartplay.EnvSample(seed=3, obs="none", steps=5)
    sample.reset()
    _, _, _, info = sample.step(0)
    assert list(info) == [key for key in keys if key != "sleeping"]
    assert sample._step > 1
    sample.close()
