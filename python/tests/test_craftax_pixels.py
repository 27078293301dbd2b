"""Craftax-Classic's pixel observations from Python (crafter-games(7)):
crafter_toolkit/Craftax-Classic-Pixels-v1, CraftaxVectorEnv(obs="pixels")
and the Stream under them give, byte for byte, what the C renderer draws
of the same states (tests/unit/test-cc-render, with the toolkit's own
textures); with Craftax's textures (an installed craftax package's assets
folder) the observations have the CRC-32s of JAX's
(tests/data/craftax/pixel-episodes.txt.gz).  Craftax's assets are found
without importing craftax; without them the built-in textures are taken,
saying so once."""

import glob
import gzip
import os
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream, _textures
from conftest import TOP

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

GAME = "craftax-classic"
PIXELS_ID = "crafter_toolkit/Craftax-Classic-Pixels-v1"
SHAPE = (63, 63, 3)
RENDER = os.path.join(TOP, "tests", "unit", "test-cc-render")
GOLDEN = os.path.join(TOP, "tests", "data", "craftax", "pixel-episodes.txt.gz")
# Every file the renderer reads from Craftax's assets folder.
ASSET_FILES = ("debug_tile", "grass", "water", "stone", "tree", "wood", "path", "coal", "iron",
               "diamond", "table", "furnace", "sand", "lava", "plant_on_grass",
               "ripe_plant_on_grass", "player-left", "player-right", "player-up", "player-down",
               "player-sleep", "zombie", "cow", "skeleton", "arrow-up", "health", "food", "drink",
               "energy", "sapling", "wood_pickaxe", "stone_pickaxe", "iron_pickaxe",
               "wood_sword", "stone_sword", "iron_sword", "1", "2", "3", "4", "5", "6", "7", "8",
               "9")


def renderer(*arguments):
    """What tests/unit/test-cc-render writes (made by make check)."""
    if not os.access(RENDER, os.X_OK):
        pytest.skip(f"{RENDER} is not built (make tests/unit/test-cc-render)")
    return subprocess.run([RENDER, *arguments], capture_output=True, check=True).stdout


def episode(seed, steps):
    """Seed's random episode: its actions and the renderer's observations
    of its states with the built-in textures, (steps + 1, 63, 63, 3)."""
    actions = renderer("--actions", str(steps), str(seed))
    drawn = renderer("--pixel-steps", "builtin", str(steps), str(seed))
    return actions, np.frombuffer(drawn, "<f4").reshape((steps + 1,) + SHAPE)


def craftax_assets():
    """Craftax's textures: CRAFTAX_ASSETS, an installed craftax's, or the
    pinned reference's beside the project (build-reference); None."""
    named = os.environ.get("CRAFTAX_ASSETS")
    candidates = ([named] if named else []) + [_textures.craftax_assets()] + sorted(glob.glob(
        os.path.join(TOP, "build-reference", "craftax-venv", "lib", "python3*", "site-packages",
                     "craftax", "craftax_classic", "assets")))
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "plant_on_grass.png")):
            return folder
    return None


def golden_crcs(seed):
    """The CRC-32s of JAX's observations along seed's episode."""
    with gzip.open(GOLDEN, "rt") as lines:
        crcs, on = [], False
        for line in lines:
            words = line.split()
            if line.startswith("#") or not words:
                continue
            if len(words) == 2 and len(words[0]) < 8 and words[1] == "500":
                on = int(words[0]) == seed
            elif on:
                crcs += [int(word, 16) for word in words]
    return crcs


def test_stream_draws_the_renderers_pixels():
    """A Stream of 2 envs (seeds 11 and 12) with the built-in textures:
    the header's float32 63x63x3, and every frame's observations are the
    renderer's of the same states, byte for byte, across episode ends."""
    steps = 200
    played = [episode(seed, steps) for seed in (11, 12)]
    stream = _stream.Stream(game=GAME, envs=2, obs="pixels", seed=11, textures="builtin",
                            threads=2)
    assert stream.obs_shape == SHAPE and stream.obs_dtype == np.dtype("<f4")
    frames = [stream.frame["obs"].copy()]
    for n in range(steps):
        frames.append(stream.step(bytes(played[env][0][n] for env in range(2)))["obs"].copy())
    stream.close()
    frames = np.stack(frames)
    for env in range(2):
        assert frames[:, env].tobytes() == played[env][1].tobytes(), f"env {env}"
    assert frames[:, 0].tobytes() != frames[:, 1].tobytes()


@needs_gymnasium
def test_pixels_id():
    """crafter_toolkit/Craftax-Classic-Pixels-v1: craftax's observation
    space (Box(0, 1, (63, 63, 3), float32)), observations in it, the
    renderer's pictures step for step; make_vec's env 0 the same."""
    steps = 120
    actions, drawn = episode(5, steps)
    env = gymnasium.make(PIXELS_ID, textures="builtin")
    assert env.observation_space == gymnasium.spaces.Box(0.0, 1.0, SHAPE, np.float32)
    assert env.action_space == gymnasium.spaces.Discrete(17)
    obs, info = env.reset(seed=5)
    seen = [obs]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(int(action))
        assert env.observation_space.contains(obs)
        seen.append(obs)
    env.close()
    assert np.stack(seen).tobytes() == drawn.tobytes()
    vector = gymnasium.make_vec(PIXELS_ID, 3, textures="builtin")
    assert vector.single_observation_space == env.observation_space
    obs, _ = vector.reset(seed=5)
    assert obs.shape == (3,) + SHAPE and obs.dtype == np.float32
    assert obs[0].tobytes() == drawn[0].tobytes()
    vector.close()


@needs_gymnasium
def test_check_env():
    """gymnasium's check_env on the pixels env, every warning an error."""
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make(PIXELS_ID, textures="builtin")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_craftax_textures_give_jaxs_pixels():
    """With Craftax's assets folder, seeds 0 and 1's observations along
    their episodes (200 steps) have the CRC-32s JAX's had."""
    folder = craftax_assets()
    if folder is None:
        pytest.skip("no craftax package installed (pip install --no-deps craftax==1.6.1, or "
                    "CRAFTAX_ASSETS): Craftax's pixels were NOT held to JAX's")
    steps = 200
    actions = renderer("--actions", str(steps), "0", "1")
    stream = _stream.Stream(game=GAME, envs=2, obs="pixels", seed=0, textures=folder)
    crcs = [[zlib.crc32(o.tobytes()) for o in stream.frame["obs"]]]
    for n in range(steps):
        crcs.append([zlib.crc32(o.tobytes()) for o in stream.step(actions[2 * n:2 * n + 2])["obs"]])
    stream.close()
    for env in range(2):
        assert [row[env] for row in crcs] == golden_crcs(env)[:steps + 1], f"seed {env}"


@pytest.fixture
def fake_craftax(tmp_path, monkeypatch):
    """A craftax package on sys.path whose __init__ fails when run, with
    an assets folder of the toolkit's own PNGs under Craftax's names."""
    package = tmp_path / "site" / "craftax"
    assets = package / "craftax_classic" / "assets"
    assets.mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('craftax was imported')\n")
    ours = os.path.join(TOP, "data", "textures")
    for name in ASSET_FILES:
        source = {"debug_tile": "unknown", "plant_on_grass": "plant",
                  "ripe_plant_on_grass": "plant-ripe"}.get(name, name)
        with open(os.path.join(ours, source + ".png"), "rb") as png:
            (assets / (name + ".png")).write_bytes(png.read())
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    _textures.craftax_assets.cache_clear()
    yield str(assets)
    _textures.craftax_assets.cache_clear()


def test_assets_found_without_importing(fake_craftax):
    """The first craftax on sys.path gives the folder; nothing of it runs;
    a Stream without textures= draws with it (a folder of other pictures
    than the built-in ones: here plants without grass)."""
    assert _textures.craftax_assets() == fake_craftax
    assert "craftax" not in sys.modules
    assert _textures.choose_craftax(None) == (["--textures", fake_craftax], False)
    assert _textures.choose_craftax("builtin") == ([], False)
    assert _textures.choose_craftax("/x") == (["--textures", "/x"], False)
    stream = _stream.Stream(game=GAME, obs="pixels", seed=3)
    assert stream.args[stream.args.index("--textures") + 1] == fake_craftax
    stream.close()
    assert "craftax" not in sys.modules


def test_builtin_textures_say_so_once(monkeypatch):
    """Without craftax the built-in textures, and a TexturesWarning the
    first time; textures="builtin" chooses them without it."""
    monkeypatch.setattr(_textures, "craftax_assets", lambda: None)
    monkeypatch.setattr(_textures, "_noticed_craftax", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        quiet = _stream.Stream(game=GAME, obs="pixels", textures="builtin")
        quiet.close()
    assert not caught
    with pytest.warns(crafter_toolkit.TexturesWarning, match="Craftax-Classic's pixels.*"
                      "pip install --no-deps craftax"):
        stream = _stream.Stream(game=GAME, obs="pixels")
    assert "--textures" not in stream.args
    stream.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _stream.Stream(game=GAME, obs="pixels").close()
    assert not caught


def test_bad_textures_are_refused(tmp_path):
    """textures= without pixels; a folder crafter-step refuses (its
    message names the file)."""
    with pytest.raises(ValueError, match="textures is Crafter's"):
        _stream.Stream(game=GAME, obs="symbolic", textures="builtin")
    with pytest.raises(crafter_toolkit.CrafterStepError, match="debug_tile.png"):
        _stream.Stream(game=GAME, obs="pixels", textures=str(tmp_path))
    if gymnasium is not None:
        from crafter_toolkit.gym import CraftaxClassicEnv
        with pytest.raises(ValueError, match="textures are for obs='pixels'"):
            CraftaxClassicEnv(obs="symbolic", textures="builtin")


@needs_gymnasium
def test_states_with_pixels():
    """A state saved and loaded, and a copy, play on with the same
    pictures as the env they came from."""
    import copy
    env = gymnasium.make(PIXELS_ID, textures="builtin").unwrapped
    env.reset(seed=4)
    for action in (1, 2, 3, 5, 5):
        env.step(action)
    saved = env.save_state()
    twin = copy.deepcopy(env)
    first = [env.step(a)[0] for a in (4, 4, 0)]
    assert all(np.array_equal(a, twin.step(b)[0]) for a, b in zip(first, (4, 4, 0)))
    env.load_state(saved)
    assert all(np.array_equal(a, env.step(b)[0]) for a, b in zip(first, (4, 4, 0)))
    env.close()
    twin.close()
