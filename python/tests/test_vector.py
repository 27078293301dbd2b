"""VectorEnv, the Gymnasium env, the transports, recording and bench."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")


def play(vector, actions):
    out = [vector.reset()]
    for row in actions:
        out.append(vector.step(row))
    return out


@pytest.mark.parametrize("obs", ["pixels", "symbolic", "semantic"])
def test_transports_and_threads_agree(obs):
    """pipe and shm, one thread or two, copies or views: the same frames."""
    actions = np.random.RandomState(1).randint(0, 17, (120, 5))
    runs = []
    for transport, threads in (("pipe", 1), ("shm", 1), ("pipe", 2), ("shm", 2)):
        vector = crafter_toolkit.VectorEnv(5, obs=obs, transport=transport, threads=threads,
                                           seed=4, length=50, area=(24, 20))
        runs.append(play(vector, actions))
        vector.close()
    for run in runs[1:]:
        for a, b in zip(runs[0], run):
            assert np.array_equal(a[0], b[0])
            for x, y in zip(a[1:], b[1:]):
                if isinstance(x, dict):
                    assert all(np.array_equal(x[k], y[k]) for k in x)
                else:
                    assert np.array_equal(x, y)


def test_vector_equals_single_envs():
    """Env i of a VectorEnv is the Env of seed seed + i, with next-step
    autoreset: the final observation on the ending step, the next
    episode's first one on the step after."""
    actions = np.random.RandomState(2).randint(0, 17, (200, 3))
    vector = crafter_toolkit.VectorEnv(3, obs="symbolic", seed=10, length=60)
    if gymnasium is not None:
        assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        assert isinstance(vector, gymnasium.vector.VectorEnv)
    obs, infos = vector.reset()
    singles = [crafter_toolkit.Env(seed=10 + i, length=60, obs="symbolic") for i in range(3)]
    expected = [s.reset() for s in singles]
    assert all(np.array_equal(obs[i], expected[i]) for i in range(3))
    ended = [False] * 3
    for row in actions:
        obs, rewards, terminated, truncated, infos = vector.step(row)
        for i, single in enumerate(singles):
            if ended[i]:
                first = single.reset()
                assert np.array_equal(obs[i], first) and rewards[i] == 0
                assert not terminated[i] and not truncated[i] and infos["step"][i] == 0
                ended[i] = False
                continue
            o, r, done, info = single.step(row[i])
            assert np.array_equal(obs[i], o) and rewards[i] == np.float32(r)
            assert bool(terminated[i] or truncated[i]) == done
            assert bool(truncated[i]) == (done and info["discount"] == 1.0)
            assert list(infos["inventory"][i]) == list(info["inventory"].values())
            assert list(infos["achievements"][i]) == list(info["achievements"].values())
            ended[i] = done
    assert infos["crafter_episode"].max() > 1
    vector.close()


def test_views_without_copy_stay_valid_until_the_ring_comes_round():
    vector = crafter_toolkit.VectorEnv(2, obs="symbolic", transport="shm", copy=False,
                                       shm_slots=3, seed=1)
    first, _ = vector.reset()
    kept = first.copy()
    vector.step(np.array([1, 1]))
    vector.step(np.array([2, 2]))
    assert np.array_equal(first, kept)
    vector.close()


def test_wrong_shapes_and_actions():
    vector = crafter_toolkit.VectorEnv(4, obs="none")
    vector.reset()
    with pytest.raises(ValueError, match="one action per env"):
        vector.step(np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match="0..16"):
        vector.step(np.array([0, 1, 2, 17]))
    with pytest.raises(ValueError, match="integers"):
        vector.step(np.zeros(4))
    vector.step(np.zeros(4, dtype=int))
    vector.close()


@pytest.mark.parametrize("transport", ["pipe", "shm"])
def test_child_dies(transport):
    vector = crafter_toolkit.VectorEnv(8, obs="pixels", transport=transport)
    vector.reset()
    vector.step(np.zeros(8, dtype=int))
    os.kill(vector._stream.process.pid, signal.SIGKILL)
    with pytest.raises(crafter_toolkit.CrafterStepError, match=r"killed by signal 9 \(SIGKILL\)"):
        vector.step(np.zeros(8, dtype=int))
    vector.close()


def test_client_dies_crafter_step_ends():
    """A client killed mid-run: crafter-step sees its input end and exits;
    shared memory had no name, so nothing is left behind."""
    before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    script = ("import sys, os; sys.path.insert(0, %r); import crafter_toolkit, numpy;"
              "v = crafter_toolkit.VectorEnv(4, obs='pixels', transport='shm'); v.reset();"
              "v.step(numpy.zeros(4, dtype=int)); print(v._stream.process.pid, flush=True);"
              "os.kill(os.getpid(), 9)") % os.path.join(TOP, "python")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60)
    child = int(result.stdout.split()[0])
    for _ in range(100):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        import time
        time.sleep(0.05)
    else:
        pytest.fail("crafter-step outlived its client")
    after = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    assert after <= before


@needs_gymnasium
def test_gymnasium_env_passes_check_env():
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make("crafter_toolkit/Crafter-v1", obs="pixels", seed=3,
                         render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=7)
    again, _ = env.reset(seed=7)
    assert np.array_equal(obs, again)
    assert env.render().shape == (64, 64, 3)
    env.close()


@needs_gymnasium
def test_terminated_and_truncated():
    env = gymnasium.make("crafter_toolkit/Crafter-v1", obs="symbolic", length=30, seed=1)
    env.reset()
    for t in range(30):
        _, _, terminated, truncated, info = env.step(0)
    assert truncated and not terminated and info["discount"] == 1.0
    env.close()


def test_recording_and_stats_score(tmp_path):
    trajectory, stats = tmp_path / "run.traj", tmp_path / "stats.jsonl"
    vector = crafter_toolkit.VectorEnv(2, obs="none", length=25, record=trajectory, stats=stats)
    vector.reset()
    for t in range(60):
        vector.step(np.random.RandomState(t).randint(0, 17, 2))
    vector.close()
    lines = stats.read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(l)["length"] == 25 for l in lines)
    info = subprocess.run([os.path.join(TOP, "bin", "crafter-dataset"), "info", str(trajectory)],
                          capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    for path in (trajectory, stats):
        score = subprocess.run([os.path.join(TOP, "bin", "crafter-score"), str(path)],
                               capture_output=True, text=True)
        assert score.returncode == 0, score.stderr
        assert "Score" in score.stdout or "score" in score.stdout


def test_bench_prints_json():
    result = subprocess.run(
        [sys.executable, "-m", "crafter_toolkit.bench", "--envs", "2", "--obs", "symbolic",
         "--transport", "shm", "--seconds", "0.3", "--format", "json"],
        capture_output=True, text=True, cwd=os.path.join(TOP, "python"))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["sps"] > 0 and report["envs"] == 2 and report["transport"] == "shm"
