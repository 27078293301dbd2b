"""Use after close(): every environment class raises ClosedEnvError, with the
same message, from reset(), step() and render(); closing twice is fine (as
Gymnasium asks).  And no other package's notice on import: the package
never imports gym (whose import prints a notice about NumPy 2), yet
gym.make('CrafterReward-v1') works with gym imported before or after it."""

import os
import subprocess
import sys

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import ClosedEnvError
from conftest import TOP


def single(env):
    env.reset()
    env.step(0)
    return {"reset": env.reset, "step": lambda: env.step(0), "render": env.render}


def gymnasium_env(direct):
    gymnasium = pytest.importorskip("gymnasium")
    if direct:
        from crafter_toolkit.gym import CrafterEnv
        return CrafterEnv(render_mode="rgb_array", seed=1)
    return gymnasium.make("crafter_toolkit/Crafter-v1", render_mode="rgb_array", seed=1)


def uses(kind):
    """(env, {name: a call that uses it}) for each class, used once."""
    if kind == "Env":
        env = crafter_toolkit.Env(seed=1, textures="builtin")
        return env, dict(single(env), render_size=lambda: env.render((90, 90)))
    if kind in ("CrafterEnv", "gymnasium.make"):
        env = gymnasium_env(kind == "CrafterEnv")
        env.reset(seed=2)
        env.step(0)
        return env, {"reset": env.reset, "reset_seed": lambda: env.reset(seed=3),
                     "step": lambda: env.step(0), "render": env.render}
    if kind == "VectorEnv":
        env = crafter_toolkit.VectorEnv(2, seed=1, textures="builtin")
        env.reset()
        env.step(np.zeros(2, int))
        return env, {"reset": env.reset, "reset_seed": lambda: env.reset(seed=5),
                     "step": lambda: env.step(np.zeros(2, int))}
    if kind == "ParallelEnv":
        env = crafter_toolkit.ParallelEnv(players=2, seed=1, render_mode="rgb_array",
                                          textures="builtin")
        env.reset()
        env.step({})
        return env, {"reset": env.reset, "reset_seed": lambda: env.reset(seed=4),
                     "step": lambda: env.step({}), "render": env.render}
    if kind == "sb3.VecEnv":
        pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is not installed")
        from crafter_toolkit.sb3 import VecEnv
        env = VecEnv(2, seed=1, textures="builtin")
        env.reset()
        env.step(np.zeros(2, int))
        return env, {"reset": env.reset, "step": lambda: env.step(np.zeros(2, int)),
                     "step_async": lambda: env.step_async(np.zeros(2, int))}
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["Env", "CrafterEnv", "gymnasium.make", "VectorEnv",
                                  "ParallelEnv", "sb3.VecEnv"])
def test_use_after_close(kind):
    env, calls = uses(kind)
    env.close()
    env.close()  # twice: nothing more
    messages = set()
    for name, call in calls.items():
        with pytest.raises(ClosedEnvError) as raised:
            call()
        messages.add(str(raised.value))
    assert messages == {str(ClosedEnvError())}, kind
    assert "closed" in str(ClosedEnvError())
    assert issubclass(ClosedEnvError, crafter_toolkit.CrafterStepError)


def python(code):
    environment = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True,
                          text=True, timeout=120)


def test_import_prints_nothing_and_leaves_gym_alone():
    """`import crafter_toolkit` writes nothing and does not import gym."""
    run = python("import sys, crafter_toolkit\n"
                 "print('gym' in sys.modules)")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "False\n" and run.stderr == ""


@pytest.mark.parametrize("order", ["gym first", "crafter_toolkit first"])
def test_gym_make_either_order(order):
    """crafter's README ids with gym imported before or after the package:
    gym.make plays, with gym's spaces."""
    pytest.importorskip("gym", reason="gym (the OpenAI package) is not installed")
    imports = ["import gym", "import crafter_toolkit as crafter"]
    if order != "gym first":
        imports.reverse()
    run = python("\n".join(imports) + "\n"
                 "env = gym.make('CrafterReward-v1', textures='builtin')\n"
                 "assert isinstance(env.action_space, gym.spaces.Discrete)\n"
                 "assert isinstance(env.observation_space, gym.spaces.Box)\n"
                 "obs = env.reset(); obs, reward, done, info = env.step(env.action_space.sample())\n"
                 "print(obs.shape, env.spec.id, env.spec.max_episode_steps)\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[0] == "(64, 64, 3) CrafterReward-v1 10000"
