"""BALROG's Crafter environment (balrog-ai/BALROG, its files unchanged,
fetched at a pinned commit) over this package, with `import crafter`
resolving to it by a sys.modules alias or by a shim package: the long and
short text, the images, the observations, the rewards, the infos and
get_stats() of every step equal the same run over crafter 1.8.3.

BALROG's files come from BALROG_SOURCE (a folder holding BALROG's
balrog/, a checkout at COMMIT), else from the cache folder (BALROG_CACHE,
else build-reference/balrog-COMMIT), else are downloaded there from
GitHub; each is checked against its git blob id.  Both runs play in the
Python of `make balrog-env` (BALROG_ENV names another): crafter 1.8.3
with numpy 1.24 as the reference was recorded, gym 0.23 and SciPy, which
BALROG imports.  Without the files (no network) or that Python, the test
skips and says why."""

import functools
import os
import subprocess
import sys

import pytest

from conftest import TOP, crafter_assets
from pinned import pinned_files, played

COMMIT = "af7d1f17e0deec3a7a0e334beae5f11b7a21371b"
URL = "https://raw.githubusercontent.com/balrog-ai/BALROG/{commit}/{path}"
# What BALROG's Crafter environment imports, with the git blob ids at COMMIT.
FILES = {
    "balrog/__init__.py": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
    "balrog/environments/__init__.py": "e943030ed9d17c3607ca14a4fa36c52e8b719a9a",
    "balrog/environments/env_wrapper.py": "161f3a93b7a08905100ab3ffc276899c85c04892",
    "balrog/environments/wrappers/__init__.py": "6582b73cbeac6c6dfad90e26b9ae817a9ddfa01d",
    "balrog/environments/wrappers/gym_compatibility.py":
        "8a863976cc7d44413cd55283a1398ebba172c9be",
    "balrog/environments/wrappers/nle_timelimit.py": "bb58b093b8ed0da741b2a6ecac5e0b070d39acd1",
    "balrog/environments/crafter/__init__.py": "e0cbcd53bd863d1ec559d722a7082693396b8ef5",
    "balrog/environments/crafter/crafter_env.py": "765b07ca1b0adb64dcd03d22aead6ffd2ed4305a",
    "balrog/environments/crafter/env.py": "f783dfc557877aef245d550e892e0b0adecafa4e",
}
RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "balrog_run.py")
# BALROG's default settings (balrog/config/config.yaml, fewer steps), and
# its other ways of describing: precise locations, items skipped, edges.
SETTINGS = {
    "default": {"seeds": [3, 8, 21]},
    "precise": {"seeds": [5, 13], "crafter_kwargs": {
        "precise_location": True, "unique_items": False, "skip_items": ["grass", "sand", "path"],
        "edge_only_items": ["water", "lava"], "size": [192, 160], "max_episode_steps": 300}},
}


@functools.lru_cache(maxsize=None)
def balrog_folder():
    """The folder holding BALROG's files at COMMIT, or a reason to skip."""
    return pinned_files("BALROG", FILES, URL, COMMIT, "BALROG_SOURCE",
                        os.environ.get("BALROG_CACHE")
                        or os.path.join(TOP, "build-reference", f"balrog-{COMMIT[:12]}"))


@functools.lru_cache(maxsize=None)
def balrog_python():
    python = os.path.join(os.environ.get("BALROG_ENV") or os.path.join(
        TOP, "build-reference", "balrog-venv"), "bin", "python")
    if not os.access(python, os.X_OK):
        pytest.skip("BALROG's Python (make balrog-env: crafter 1.8.3, gym 0.23, SciPy) is not "
                    "there: BALROG's Crafter environment was NOT run")
    return python


def play(python, side, settings, out, environment=None):
    folder, reason = balrog_folder()
    if folder is None:
        pytest.skip(reason)
    return played(python, RUN, side, folder, out, SETTINGS[settings],
                  os.path.join(TOP, "bin", "crafter-step"), environment)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    runs = {}

    def run(settings):
        if settings not in runs:
            out = tmp_path_factory.mktemp("balrog") / f"crafter-{settings}.jsonl"
            runs[settings] = play(balrog_python(), "crafter", settings, out)
        return runs[settings]
    return run


def same_run(theirs, ours):
    """Line by line; the first difference named by episode, step and key."""
    episode = 0
    for a, b in zip(theirs, ours):
        episode = a.get("episode", episode)
        where = f"episode {episode}, step {a.get('step', 'reset' if 'episode' in a else 'end')}"
        assert a.keys() == b.keys(), where
        for key in a:
            assert a[key] == b[key], f"{where}: {key} differs:\n{a[key]}\n{b[key]}"
    assert len(theirs) == len(ours), "the runs have different lengths"


def check_coverage(lines):
    steps = [line for line in lines if "step" in line]
    texts = [line["text"]["long_term_context"] for line in steps]
    assert sum(line["reward"][1] != 0 for line in steps) >= 10
    assert any(text.startswith("You died.") for text in texts)
    assert sum(text.startswith("You are sleeping") for text in texts) >= 20
    scores = [line["stats"]["score"] for line in steps]  # 0 (an int) until the first step
    assert max(score if isinstance(score, int) else score[1] for score in scores) >= 3
    assert any(line["action"] == "Noop" for line in steps)


@pytest.mark.parametrize("settings", sorted(SETTINGS))
@pytest.mark.parametrize("way", ["alias", "shim"])
def test_balrog_unchanged(reference, tmp_path, way, settings):
    """BALROG's env, made by its make_env and played as its evaluator plays
    (reset(seed=...), check_action_validity, step, get_stats), gives over
    this package, made `crafter` by `way`, what it gives over crafter
    1.8.3: every line equal."""
    theirs = reference(settings)
    check_coverage(theirs)
    ours = play(balrog_python(), way, settings, tmp_path / "ours.jsonl")
    same_run(theirs, ours)


def test_balrog_in_this_python(reference, tmp_path):
    """The same in the Python running the tests (the clients' numpy 2, gym
    0.23, Gymnasium, SciPy), with Crafter's textures named by
    CRAFTER_TEXTURES where crafter is not installed."""
    for name in ("gym", "gymnasium", "scipy", "PIL"):
        pytest.importorskip(name, reason=f"BALROG's Crafter environment imports {name}")
    theirs = reference("default")
    environment = dict(os.environ)
    assets = crafter_assets()
    if assets is None:
        found = subprocess.run([balrog_python(), "-c", "import crafter; "
                                "print(crafter.constants.root / 'assets')"],
                               capture_output=True, text=True)
        assets = found.stdout.strip()
    environment["CRAFTER_TEXTURES"] = assets
    ours = play(sys.executable, "alias", "default", tmp_path / "ours.jsonl", environment)
    same_run(theirs, ours)
