"""Crafter's pixels by default: the assets of an installed crafter package
(found without importing it), else CRAFTER_TEXTURES's folder, else the
built-in textures with a notice, once a process."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _textures
from balrog_run import SHIM, readme_block
from conftest import TOP, crafter_assets

NOTICE = "pip install --no-deps crafter"


def play(env, steps=60, seed=0):
    """The observations of a reset and `steps` random actions."""
    rng = np.random.RandomState(seed)
    frames = [env.reset()]
    for _ in range(steps):
        obs, _, done, _ = env.step(rng.randint(17))
        frames.append(obs)
        if done:
            break
    return np.array(frames)


def test_crafter_pixels_by_default():
    """Where crafter is installed, Env() without textures= draws crafter.Env's
    pixels byte for byte (observations and render()), and so do the
    Gymnasium env and VectorEnv; textures="builtin" draws the toolkit's."""
    crafter = pytest.importorskip("crafter", reason="the reference crafter is not installed")
    # The reference as the side-by-side tests play it: creation order, and
    # the machine's daylight as the reference episodes were recorded.
    sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
    import recorder  # noqa: F401
    assert _textures.crafter_assets() == str(crafter.constants.root / "assets")
    theirs, ours = crafter.Env(seed=7), crafter_toolkit.Env(seed=7)
    a, b = play(theirs), play(ours)
    assert a.shape == b.shape and np.array_equal(a, b)
    assert np.array_equal(theirs.render((120, 90)), ours.render((120, 90)))
    builtin = crafter_toolkit.Env(seed=7, textures="builtin")
    c = play(builtin)
    assert (c != a).any(axis=(1, 2, 3)).all(), "every built-in picture differs from crafter's"
    for env in (ours, builtin):
        env.close()
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("crafter_toolkit/Crafter-v1", seed=7)
    assert np.array_equal(env.reset()[0], a[0])
    env.close()
    vector = crafter_toolkit.VectorEnv(1, seed=7)
    assert np.array_equal(vector.reset()[0][0], a[0])
    vector.close()


def test_variable_names_the_folder(monkeypatch):
    """CRAFTER_TEXTURES names the folder when textures= is not given (it
    comes before an installed crafter's); textures="builtin" overrides it."""
    assets = crafter_assets()
    if assets is None:
        pytest.skip("Crafter's textures are not at hand")
    named = play(crafter_toolkit.Env(seed=4, textures=assets), 5)
    builtin = play(crafter_toolkit.Env(seed=4, textures="builtin"), 5)
    assert (named != builtin).any()
    monkeypatch.setenv("CRAFTER_TEXTURES", assets)
    assert np.array_equal(play(crafter_toolkit.Env(seed=4), 5), named)
    assert np.array_equal(play(crafter_toolkit.Env(seed=4, textures="builtin"), 5), builtin)
    monkeypatch.setenv("CRAFTER_TEXTURES", os.path.join(TOP, "data", "textures"))
    assert np.array_equal(play(crafter_toolkit.Env(seed=4), 5), builtin)


SCRIPT = textwrap.dedent("""
    import sys, warnings
    warnings.simplefilter("always")  # the notice is once a process all the same
    import crafter_toolkit
    kind = sys.argv[1]
    if kind == "default":
        for seed in (1, 2):
            env = crafter_toolkit.Env(seed=seed)
            env.reset(); env.step(1); env.render((90, 90)); env.close()
        envs = crafter_toolkit.VectorEnv(2, seed=0); envs.reset(); envs.close()
    elif kind == "builtin":
        env = crafter_toolkit.Env(seed=1, textures="builtin"); env.reset(); env.render(); env.close()
    elif kind == "semantic":
        env = crafter_toolkit.Env(seed=1, obs="semantic"); env.reset(); env.step(0); env.close()
    print("crafter imported" if "crafter" in sys.modules else "crafter not imported")
""")


@pytest.mark.parametrize("kind, notices", [("default", 1), ("builtin", 0), ("semantic", 0)])
def test_notice_without_crafter(tmp_path, kind, notices):
    """Without crafter, pixels come from the built-in textures and the
    first pixel observation says so once, naming the command that gets
    Crafter's; textures="builtin", and observations without pixels, say
    nothing.  crafter is never imported to find it."""
    environment = {k: v for k, v in os.environ.items() if k != "CRAFTER_TEXTURES"}
    path, flags = [os.path.join(TOP, "python")], []
    if _textures.crafter_assets() is not None:
        # A Python without crafter: no site-packages (-S), numpy alone
        # beside the package (a package named crafter in front would not
        # hide it: the installed one behind is found all the same).
        site = os.path.dirname(os.path.dirname(np.__file__))
        for name in os.listdir(site):
            if name == "numpy" or name.startswith("numpy.libs"):
                os.symlink(os.path.join(site, name), tmp_path / name)
        path.insert(0, str(tmp_path))
        flags = ["-S"]
    environment["PYTHONPATH"] = os.pathsep.join(path)
    done = subprocess.run([sys.executable, *flags, "-c", SCRIPT, kind], env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(NOTICE) == notices, done.stderr
    if notices:
        assert "TexturesWarning" in done.stderr and "built-in textures" in done.stderr
    assert done.stdout.strip() == "crafter not imported"


def test_found_without_import():
    """An installed crafter is found on sys.path without importing it (so
    `pip install --no-deps crafter` is enough: its dependencies need not
    be there)."""
    if _textures.crafter_assets() is None:
        pytest.skip("crafter is not installed here")
    script = ("import sys, crafter_toolkit\n"
              "env = crafter_toolkit.Env(seed=1); env.reset(); env.close()\n"
              "from crafter_toolkit import _textures\n"
              "print(_textures.crafter_assets() is not None, 'crafter' in sys.modules)\n")
    environment = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    environment.pop("CRAFTER_TEXTURES", None)
    done = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", script],
                          env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"]


ALIAS_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    if sys.argv[1] == "alias":
        import crafter_toolkit
        from crafter_toolkit import constants, objects, recorder
        sys.modules.update({"crafter": crafter_toolkit, "crafter.constants": constants,
                            "crafter.objects": objects, "crafter.recorder": recorder})
    import crafter
    import crafter.objects
    import crafter_toolkit
    from crafter_toolkit import _textures
    assert crafter.objects.Player is crafter_toolkit.objects.Player
    assert crafter.Env is crafter_toolkit.Env, crafter
    env = crafter.Env(seed=7)
    frames = [env.reset()] + [env.step(a)[0] for a in (1, 5, 3, 3, 5)]
    np.save(sys.argv[2], np.array(frames))
    print(_textures.crafter_assets())
    print(crafter.constants.root)
""")


@pytest.mark.parametrize("way", ["alias", "shim"])
def test_import_crafter_keeps_crafters_pixels(tmp_path, way):
    """`import crafter` made to resolve to this package, by a sys.modules
    alias or by a shim package named crafter first on the path (as
    python/README.md shows), still draws with the installed crafter's
    textures: crafter.Env's pixels byte for byte, and constants.root is
    the real crafter's folder."""
    crafter = pytest.importorskip("crafter", reason="the reference crafter is not installed")
    assets = str(crafter.constants.root / "assets")
    path = [os.path.join(TOP, "python")]
    if way == "shim":
        shim = tmp_path / "shim" / "crafter"
        shim.mkdir(parents=True)
        (shim / "__init__.py").write_text(readme_block(SHIM))
        path.insert(0, str(tmp_path / "shim"))
    environment = {k: v for k, v in os.environ.items() if k != "CRAFTER_TEXTURES"}
    environment["PYTHONPATH"] = os.pathsep.join(path)
    done = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", ALIAS_SCRIPT, way,
                           str(tmp_path / "frames.npy")], env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [assets, os.path.dirname(assets)]
    theirs = crafter.Env(seed=7)
    expected = [theirs.reset()] + [theirs.step(a)[0] for a in (1, 5, 3, 3, 5)]
    assert np.array_equal(np.load(tmp_path / "frames.npy"), np.array(expected))
