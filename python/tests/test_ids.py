"""The Gymnasium ids resolve in any fresh interpreter of an environment where
the package is installed: its .pth file (crafter_toolkit.pth, as the wheel
installs it) registers them once gymnasium is imported, so the workers of
SB3's SubprocVecEnv (fork server, spawn) and of Gymnasium's AsyncVectorEnv
(spawn) make "crafter_toolkit/Crafter-v1" with no `import crafter_toolkit`
anywhere.  The installed package is a virtual environment whose .pth files
name this Python's packages and the package's folder, plus the package's
own .pth."""

import os
import site
import subprocess
import sys
import sysconfig
import textwrap

import pytest

from conftest import TOP

sys.path.insert(0, os.path.join(TOP, "python", "build_backend"))
import crafter_build  # noqa: E402

pytest.importorskip("gymnasium", reason="gymnasium is not installed")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A Python whose site-packages has the package installed (by path) and
    sees this Python's packages."""
    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = os.path.join(root, "bin", "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                              "['purelib'])"], capture_output=True, text=True, check=True)
    packages = purelib.stdout.strip()
    here = site.getsitepackages() + [sysconfig.get_paths()["purelib"]]
    with open(os.path.join(packages, "clients.pth"), "w") as stream:
        stream.write("\n".join(dict.fromkeys(here)) + "\n" + os.path.join(TOP, "python") + "\n")
    name, text = crafter_build.PTH_FILE
    with open(os.path.join(packages, name), "w") as stream:
        stream.write(text)
    return python


def run(python, code):
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([python, "-c", textwrap.dedent(code)], env=environment,
                          capture_output=True, text=True, timeout=300)


def test_fresh_interpreter(installed):
    run_ = run(installed, """
        import sys, gymnasium
        assert "crafter_toolkit" not in sys.modules
        env = gymnasium.make("crafter_toolkit/CrafterNoReward-v1", obs="semantic")
        obs, info = env.reset(seed=1)
        print(obs.shape, env.step(0)[1])
    """)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout == "(64, 64) 0.0\n"


def test_crafters_own_ids(installed):
    """crafter's ids, CrafterReward-v1 and CrafterNoReward-v1, in Gymnasium
    too, with their rewards."""
    run_ = run(installed, """
        import sys, gymnasium
        for name in ("CrafterReward-v1", "CrafterNoReward-v1"):
            env = gymnasium.make(name, obs="none")
            env.reset(seed=0)
            print(name, env.unwrapped.spec.kwargs["reward"], type(env.unwrapped).__name__)
            env.close()
    """)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout.split("\n") == ["CrafterReward-v1 True CrafterEnv",
                                       "CrafterNoReward-v1 False CrafterEnv", ""]


def test_an_id_another_package_registered_is_left_alone():
    """Where another package registered CrafterReward-v1 first, importing
    crafter_toolkit keeps that registration."""
    run_ = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import gymnasium
        gymnasium.register("CrafterReward-v1", entry_point="elsewhere:Env")
        import crafter_toolkit
        print(gymnasium.spec("CrafterReward-v1").entry_point,
              gymnasium.spec("CrafterNoReward-v1").entry_point)
    """)], env={**os.environ, "PYTHONPATH": os.path.join(TOP, "python")},
        capture_output=True, text=True, timeout=300)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout == "elsewhere:Env crafter_toolkit.gym:CrafterEnv\n"


@pytest.mark.parametrize("start_method, name", [("forkserver", "crafter_toolkit/Crafter-v1"),
                                                ("spawn", "CrafterReward-v1")])
def test_sb3_subprocess_workers(installed, start_method, name):
    pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is not installed")
    run_ = run(installed, f"""
        import sys, numpy as np
        from stable_baselines3.common.env_util import make_vec_env
        from stable_baselines3.common.vec_env import SubprocVecEnv
        if __name__ == "__main__":
            envs = make_vec_env("{name}", n_envs=2, vec_env_cls=SubprocVecEnv,
                                vec_env_kwargs=dict(start_method="{start_method}"),
                                env_kwargs=dict(textures="builtin"))
            obs = envs.reset()
            for _ in range(3):
                obs, rewards, dones, infos = envs.step(np.zeros(2, int))
            envs.close()
            print(obs.shape, "crafter_toolkit" in sys.modules)
    """)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout.split() == ["(2,", "64,", "64,", "3)", "False"]


def test_gymnasium_async_spawn(installed):
    run_ = run(installed, """
        import gymnasium, numpy as np
        if __name__ == "__main__":
            envs = gymnasium.vector.AsyncVectorEnv(
                [lambda: gymnasium.make("crafter_toolkit/Crafter-v1", obs="semantic")] * 2,
                context="spawn")
            obs, infos = envs.reset(seed=0)
            obs, rewards, terminated, truncated, infos = envs.step(np.zeros(2, int))
            envs.close()
            print(obs.shape)
    """)
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout == "(2, 64, 64)\n"
