"""The Crafter toolkit from Python: a thin client of crafter-step.

crafter's own README, with one line changed:

    import gym
    import crafter_toolkit as crafter

    env = gym.make('CrafterReward-v1')  # Or CrafterNoReward-v1
    env = crafter.Recorder(env, './path/to/logdir', save_stats=True,
                           save_video=False, save_episode=False)
    obs = env.reset()
    done = False
    while not done:
        action = env.action_space.sample()
        obs, reward, done, info = env.step(action)

Gymnasium (the registered ids are crafter_toolkit/Crafter-v1,
crafter_toolkit/CrafterReward-v1 and crafter_toolkit/CrafterNoReward-v1,
and crafter's CrafterReward-v1 and CrafterNoReward-v1 where no other
package registered them):

    env = gymnasium.make("crafter_toolkit/CrafterReward-v1", obs="pixels")
    envs = gymnasium.make_vec("crafter_toolkit/CrafterReward-v1", 64)  # VectorEnv
    envs = crafter_toolkit.VectorEnv(64, obs="pixels")

Craftax-Classic (crafter-games(7): craftax 1.6.1's game, exact) under
Craftax's names: gymnasium.make("crafter_toolkit/Craftax-Classic-Symbolic-v1")
or "crafter_toolkit/Craftax-Classic-Pixels-v1" (its 63x63x3 float32 pixels,
with the installed craftax package's textures),
gymnasium.make_vec(that id, 64) or crafter_toolkit.CraftaxVectorEnv(64)
(Craftax's same-step auto-reset), crafter_toolkit.sb3.CraftaxVecEnv(64);
crafter_toolkit.craftax moves states between JAX's EnvState and the envs'
save_state()/load_state() (from_jax, to_jax, schedule_key).

crafter's insides, read-only, as research code reads them (BALROG,
SmartPlay): env._world, env._sem_view, env._player (crafter_toolkit.objects'
classes), env._unlocked, env._step; writing raises ReadOnlyError.

Several players in one world: crafter_toolkit.ParallelEnv(players=2) (the
PettingZoo ParallelEnv API), crafter_toolkit.VectorEnv(64, players=2).
Stable-Baselines3: crafter_toolkit.sb3.VecEnv(64).  crafter-step is found
through CRAFTER_STEP, in the package (a wheel carries it), in the source
tree, or on PATH.  python/README.md says the rest.
"""

from ._errors import ClosedEnvError, CrafterStepError, ReadOnlyError
from ._locate import find_crafter_step
from ._textures import TexturesWarning
from .env import Env
from .names import ACHIEVEMENTS, ACTIONS, ITEMS
from .recorder import Recorder
from .stats import StatsWriter
from .vector import CraftaxVectorEnv, VectorEnv

__all__ = ["Env", "VectorEnv", "CraftaxVectorEnv", "ParallelEnv", "Recorder", "CrafterStepError", "ClosedEnvError",
           "ReadOnlyError",
           "StatsWriter", "TexturesWarning", "find_crafter_step", "ACTIONS", "ITEMS",
           "ACHIEVEMENTS"]
__version__ = "0.1.0"


def __getattr__(name):
    """ParallelEnv on first use, so that pettingzoo (its base when
    installed) is imported only by those who play several players;
    constants (crafter.constants, read from the engine's data) and objects
    (crafter.objects' classes, as the Env's insides give them) too."""
    if name == "ParallelEnv":
        from .parallel import ParallelEnv
        return ParallelEnv
    if name in ("constants", "objects"):
        import importlib
        return importlib.import_module(".constants", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# Gymnasium's ids, each with the fast VectorEnv as its vector entry point
# (_crafter_toolkit_ids: the same registration runs in every interpreter
# where the package is installed, through its .pth file).
from _crafter_toolkit_ids import GYMNASIUM_IDS, after_import as _after_import  # noqa: E402
from _crafter_toolkit_ids import register_gymnasium as _register_gymnasium  # noqa: E402

try:
    import gymnasium as _gymnasium
except ImportError:
    _gymnasium = None
if _gymnasium is not None:
    _register_gymnasium(_gymnasium)


def _register_with_gym(gym):
    """crafter's ids in gym's registry, as crafter registers them, for the
    Env here: gym.make('CrafterReward-v1') after `import crafter_toolkit
    as crafter`.  An id already there (crafter imported first) is left
    alone.  gym 0.26 and later wrap a registered time limit and their
    checker in wrappers that need the newer step API, which crafter.Env
    does not speak: there the Env's own length ends episodes (at the same
    10000 steps), unchecked."""
    try:
        version = tuple(int(part) for part in gym.__version__.split(".")[:2])
    except (AttributeError, ValueError):
        version = (0, 0)
    for name, reward in (("CrafterReward-v1", True), ("CrafterNoReward-v1", False)):
        try:
            gym.spec(name)
            continue
        except Exception:
            pass
        options = dict(id=name, entry_point="crafter_toolkit:Env", kwargs={"reward": reward})
        if version < (0, 26):
            options["max_episode_steps"] = 10000
        else:  # its checker would check the newer API too
            options["disable_env_checker"] = True
        try:
            gym.register(**options)
        except Exception:
            pass


# With gym (the OpenAI package) now, or once it is imported: this package
# never imports gym itself, whose import prints a notice about NumPy 2 to
# everyone, Gymnasium's users included.
_after_import("gym", _register_with_gym)
