"""The Crafter toolkit from Python: a thin client of crafter-step.

    import crafter_toolkit as crafter
    env = crafter.Env(seed=1)          # a drop-in for crafter.Env (1.8.3)
    obs = env.reset()
    obs, reward, done, info = env.step(env.action_space.sample()
                                       if hasattr(env.action_space, "sample") else 5)

    envs = crafter.VectorEnv(64, obs="pixels", threads=2, transport="shm")

With gymnasium installed, importing the package registers
"crafter_toolkit/Crafter-v1" (gymnasium.make("crafter_toolkit/Crafter-v1",
obs="pixels", seed=1, ...)).  crafter-step is found through CRAFTER_STEP,
in the source tree, or on PATH.
"""

from ._stream import CrafterStepError, find_crafter_step
from .env import Env
from .names import ACHIEVEMENTS, ACTIONS, ITEMS
from .stats import StatsWriter
from .vector import VectorEnv

__all__ = ["Env", "VectorEnv", "CrafterStepError", "StatsWriter", "find_crafter_step",
           "ACTIONS", "ITEMS", "ACHIEVEMENTS"]
__version__ = "0.1.0"

try:
    import gymnasium as _gymnasium
except ImportError:
    _gymnasium = None
if _gymnasium is not None and "crafter_toolkit/Crafter-v1" not in _gymnasium.registry:
    _gymnasium.register(id="crafter_toolkit/Crafter-v1",
                        entry_point="crafter_toolkit.gym:CrafterEnv")
