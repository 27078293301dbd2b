"""crafter_toolkit.Env: errors, stats, installation."""

import os
import signal
import sys

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP


def test_bad_actions():
    env = crafter_toolkit.Env(seed=1)
    env.reset()
    for action in (17, -1, "jump", None):
        with pytest.raises(ValueError):
            env.step(action)
    env.step(np.int64(5))  # still usable
    env.close()


def test_child_dies_mid_episode():
    env = crafter_toolkit.Env(seed=1)
    env.reset()
    env.step(0)
    os.kill(env._stream.process.pid, signal.SIGKILL)
    with pytest.raises(crafter_toolkit.CrafterStepError, match="crafter-step"):
        for _ in range(3):
            env.step(0)
    env.close()


def test_bad_options_are_said():
    with pytest.raises(crafter_toolkit.CrafterStepError, match="textures"):
        crafter_toolkit.Env(textures="/nonexistent-folder")
    with pytest.raises(ValueError):
        crafter_toolkit.Env(size=(0, 64))


def test_stats_jsonl(tmp_path):
    env = crafter_toolkit.Env(seed=2, length=40, stats=tmp_path)
    for _ in range(2):
        env.reset()
        done = False
        while not done:
            _, _, done, info = env.step(5)
    env.close()
    lines = (tmp_path / "stats.jsonl").read_text().splitlines()
    assert len(lines) == 2
    import json
    first = json.loads(lines[0])
    assert first["length"] == 40 and "achievement_collect_wood" in first
    assert len([k for k in first if k.startswith("achievement_")]) == 22


def test_install_offline(tmp_path):
    """pip install of the folder needs no network (its build backend is in
    it), and the installed package finds this tree's crafter-step."""
    import subprocess
    target = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
         "--disable-pip-version-check", "--target", str(target), os.path.join(TOP, "python")],
        capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    environment = {k: v for k, v in os.environ.items() if k != "CRAFTER_STEP"}
    environment["PYTHONPATH"] = str(target)
    environment["PATH"] = "/usr/bin:/bin"
    run = subprocess.run(
        [sys.executable, "-c", "import crafter_toolkit as c; print(c.__file__);"
         "print(c.find_crafter_step()); print(c.Env(seed=1).reset().shape)"],
        capture_output=True, text=True, cwd=str(tmp_path), env=environment)
    assert run.returncode == 0, run.stderr
    where, program, shape = run.stdout.splitlines()
    assert where.startswith(str(target))
    assert os.path.samefile(program, os.path.join(TOP, "bin", "crafter-step"))
    assert shape == "(64, 64, 3)"
