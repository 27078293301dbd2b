"""What SmartPlay's copy of crafter gives (microsoft/SmartPlay,
smartplay/crafter/crafter/: crafter 1.8.3 with more info keys), over this
package: `Env`, `EnvSample` and `Recorder`.

SmartPlay's crafter_env.py (its language-model wrapper: text
observations, history, score) imports `Env` from its own copy of crafter,
subclasses it and reads its insides when imported (`_world._mat_ids`,
`_sem_view._obj_ids`) and the info of every step.  Replacing that copy's
folder by a package whose whole __init__.py is

    from crafter_toolkit.smartplay import *

runs crafter_env.py unchanged, with the same text, history, score,
rewards and pixels (python/README.md, SmartPlay).

`Env` is crafter_toolkit.Env (crafter 1.8.3's game, the same arguments)
whose step() info has the keys of SmartPlay's copy, in its order:
inventory, achievements, sleeping, discount, semantic, player_pos,
player_facing, reward, dead, unlocked, action, view.  `EnvSample` is its
EnvSample: each step() plays a random number of random actions (numpy's
global generator, as the copy draws them), starting a new episode
where one ends.  `Recorder` is crafter's Recorder, which SmartPlay's copy
keeps unchanged (crafter_toolkit.Recorder): its episode files hold the
extra keys too."""

import os
import sys

import numpy as np

from . import _textures, constants, objects
from .env import Env as _CrafterEnv
from .env import imported_gym
from .names import ACHIEVEMENTS, ACTIONS
from .recorder import Recorder

__all__ = ["Env", "EnvSample", "Recorder", "constants", "objects"]

# SmartPlay's copy takes gym.Env as its base when gym is there (SmartPlay
# needs gym: crafter_env.py imports it before the copy).
_BASES = (_CrafterEnv,)
_gym = imported_gym()
if _gym is not None and not issubclass(_CrafterEnv, _gym.Env):
    _BASES = (_CrafterEnv, _gym.Env)


def _own_assets():
    """The assets folder of the package that made this module's Env its
    own (a shim in place of SmartPlay's copy, which kept the copy's
    assets/ beside its __init__.py), or None."""
    for name, module in list(sys.modules.items()):
        # The modules' own attributes only: a module's __getattr__ is not asked.
        names = getattr(module, "__dict__", {})
        file = names.get("__file__")
        if file and names.get("Env") is Env and name != __name__:
            folder = _textures._assets_in(os.path.dirname(file))
            if folder:
                return folder
    return None


class Env(*_BASES):
    """crafter.Env of SmartPlay's copy: crafter_toolkit.Env (the same
    arguments and game), and step()'s info with the copy's keys:

    sleeping       the player sleeps (bool)
    player_facing  the way it faces, a tuple (x, y)
    dead           it died this step (bool)
    unlocked       the achievements unlocked for the first time by this
                   step, a set of their names
    action         the name of the action played (crafter.constants.actions)
    view           the view's size, an array (width, height)

    textures=None takes, after CRAFTER_TEXTURES, the assets/ folder kept
    beside the package that gives this Env in place of SmartPlay's copy
    (the copy's own textures, Crafter's), then crafter_toolkit.Env's
    default.  Reading `sleeping` asks crafter-step for the game's state
    (about 0.1 ms a step, crafter_toolkit's insides)."""

    _tells_sleeping = True  # EnvSample's info has no sleeping

    def __init__(self, area=(64, 64), view=(9, 9), size=(64, 64), reward=True, length=10000,
                 seed=None, textures=None, **kwargs):
        if textures is None and not os.environ.get(_textures.VARIABLE):
            textures = _own_assets()
        super().__init__(area, view, size, reward, length, seed, textures=textures, **kwargs)

    def step(self, action):
        obs, reward, done, info = super().step(action)
        frame = self._stream.frame
        facing = frame["position"][0, 2:]
        bits = int(frame["unlocked"][0])
        extra = {
            "sleeping": self._player.sleeping if self._tells_sleeping else None,
            "player_facing": (int(facing[0]), int(facing[1])),
            "dead": info["discount"] == 0.0,
            "unlocked": {name for i, name in enumerate(ACHIEVEMENTS) if bits >> i & 1},
            "action": ACTIONS[int(action)],
            "view": self._view,
        }
        ordered = {key: info[key] for key in ("inventory", "achievements")}
        if self._tells_sleeping:
            ordered["sleeping"] = extra["sleeping"]
        ordered.update((key, info[key]) for key in ("discount", "semantic", "player_pos"))
        ordered["player_facing"] = extra["player_facing"]
        ordered["reward"] = info["reward"]
        ordered.update((key, extra[key]) for key in ("dead", "unlocked", "action", "view"))
        ordered.update((key, value) for key, value in info.items() if key not in ordered)
        return obs, reward, done, ordered


class EnvSample(Env):
    """SmartPlay's EnvSample: an Env whose step(action) ignores the action
    and plays max(int(normal(steps, steps / 2)), 1) random actions
    (numpy's global generator draws the count and each action, as the
    copy's does), resetting where an episode ends and playing one more
    random action there; it returns the last step's.  Its info lacks
    `sleeping`, as the copy's does."""

    def __init__(self, area=(64, 64), view=(9, 9), size=(64, 64), reward=True, length=10000,
                 seed=None, steps=20, **kwargs):
        super().__init__(area, view, size, reward, length, seed, **kwargs)
        self._nsteps = steps

    _tells_sleeping = False

    def _sample_step(self, action):
        return Env.step(self, action)

    def step(self, action):
        frames = max(int(np.random.normal(loc=self._nsteps, scale=self._nsteps / 2)), 1)
        for _ in range(frames):
            obs, reward, done, info = self._sample_step(np.random.randint(len(ACTIONS)))
            if done:
                self.reset()
                obs, reward, done, info = self._sample_step(np.random.randint(len(ACTIONS)))
        return obs, reward, done, info
