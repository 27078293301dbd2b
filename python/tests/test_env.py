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
    for action in (17, -1, "jump", None, 3.7, "5", np.float64(2.0), [1]):
        with pytest.raises(ValueError, match="an action is an integer 0..16"):
            env.step(action)
    env.step(np.int64(5))  # still usable
    env.step(np.array(5))
    env.step(True)  # crafter.Env plays it as 1, and so does this
    for size in (64, (8, 64), (64, 17), (1.5, 64), (64, 64, 3), "big", (5000, 64)):
        with pytest.raises(ValueError):
            env.render(size)
    assert env.render((18, 18)).shape == (18, 18, 3)
    assert env.render((300, 200)).shape == (200, 300, 3)
    env.close()


def test_action_space_samples():
    """crafter's README draws actions with env.action_space.sample()."""
    env = crafter_toolkit.Env(seed=1, obs="none")
    space = env.action_space
    actions = {space.sample() for _ in range(300)}
    assert actions == set(range(17)) and space.n == 17
    assert space.contains(16) and not space.contains(17)
    env.close()


def test_seed_none_draws_fresh_worlds():
    worlds = {crafter_toolkit.Env(obs="semantic").reset().tobytes() for _ in range(3)}
    assert len(worlds) == 3


def fake_crafter_step(tmp_path, data, message="", status=0):
    """A program in crafter-step's place that writes data, says message on
    its standard error and exits with status."""
    (tmp_path / "sent").write_bytes(data)
    script = tmp_path / "fake-crafter-step"
    script.write_text(f"#!/bin/sh\ncat '{tmp_path / 'sent'}'\n"
                      f"[ -n '{message}' ] && echo '{message}' >&2\nexit {status}\n")
    script.chmod(0o755)
    return str(script)


def real_start(**options):
    """The header and first frame a real crafter-step writes."""
    import subprocess
    run = subprocess.run([crafter_toolkit.find_crafter_step(), "--binary", "--manual-reset",
                          "--semantic", "--obs", "pixels"], input=b"", capture_output=True)
    return bytearray(run.stdout)


@pytest.mark.parametrize("damage", ["garbage", "cut header", "huge frame", "huge table",
                                    "wrong offset", "cut frame", "unknown flag"])
def test_malformed_streams_are_crafter_step_errors(tmp_path, monkeypatch, damage):
    """Whatever the child sends, a CrafterStepError with what it said on its
    standard error; nothing is allocated from a header before it adds up."""
    import struct
    good = real_start()
    data = bytearray(good)
    if damage == "garbage":
        data = bytearray(np.random.RandomState(0).bytes(500))
    elif damage == "cut header":
        data = data[:50]
    elif damage == "huge frame":
        struct.pack_into("<I", data, 44, 2 ** 32 - 1)
    elif damage == "huge table":
        struct.pack_into("<I", data, 68, struct.unpack_from("<I", data, 68)[0] | 8)
        struct.pack_into("<I", data, 12, 2 ** 32 - 1)
    elif damage == "wrong offset":
        struct.pack_into("<I", data, 76 + 4 * 11, 64)
    elif damage == "cut frame":
        data = data[:len(data) - 100]
    elif damage == "unknown flag":
        struct.pack_into("<I", data, 68, struct.unpack_from("<I", data, 68)[0] | 1024)
    monkeypatch.setenv("CRAFTER_STEP", fake_crafter_step(tmp_path, bytes(data),
                                                         "something went wrong", 3))
    with pytest.raises(crafter_toolkit.CrafterStepError) as raised:
        crafter_toolkit.Env(seed=1, transport="pipe")
    if damage in ("cut header", "cut frame"):
        assert "something went wrong" in str(raised.value)
        assert "exit status 3" in str(raised.value)


def test_crafter_step_that_is_not_there(tmp_path, monkeypatch):
    monkeypatch.setenv("CRAFTER_STEP", str(tmp_path / "nowhere"))
    with pytest.raises(crafter_toolkit.CrafterStepError, match="CRAFTER_STEP"):
        crafter_toolkit.Env(seed=1)
    (tmp_path / "not-a-program").write_text("plain text")
    monkeypatch.setenv("CRAFTER_STEP", str(tmp_path / "not-a-program"))
    with pytest.raises(crafter_toolkit.CrafterStepError, match="not-a-program"):
        crafter_toolkit.VectorEnv(2)


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


def test_stats_path_is_a_file_or_a_folder(tmp_path):
    """stats= takes a .jsonl path (its folder made) or a folder (made
    if missing), and appends, as crafter's Recorder does."""
    for stats, written in ((tmp_path / "new" / "run.jsonl", tmp_path / "new" / "run.jsonl"),
                           (tmp_path / "logs" / "deep", tmp_path / "logs" / "deep" / "stats.jsonl")):
        for _ in range(2):
            env = crafter_toolkit.Env(seed=1, length=5, obs="none", stats=stats)
            env.reset()
            for _ in range(5):
                env.step(0)
            env.close()
        assert len(written.read_text().splitlines()) == 2
