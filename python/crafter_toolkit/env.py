"""A drop-in for crafter.Env of crafter 1.8.3: `import crafter_toolkit as
crafter` and the same code plays the same game, served by crafter-step."""

import collections
import operator
import sys

import numpy as np

from . import _insides, _stream
from ._errors import ReadOnlyError
from .names import ACHIEVEMENTS, ACTIONS, ITEMS
from .stats import StatsWriter

# As crafter.Env: with gym (the OpenAI package crafter was written for)
# imported, its spaces, and its Env as the base class when gym was imported
# before this package (as crafter's README does); without it, namedtuples
# as crafter's, which also draw samples.  This package never imports gym:
# its import prints a notice about NumPy 2 to everyone.


def imported_gym():
    """gym when it has been imported (and works), else None."""
    gym = sys.modules.get("gym")
    spaces = getattr(gym, "spaces", None)
    return gym if hasattr(spaces, "Discrete") and hasattr(spaces, "Box") else None


class DiscreteSpace(collections.namedtuple("DiscreteSpace", "n")):
    """crafter's DiscreteSpace(n), which can also draw an action."""
    __slots__ = ()

    def sample(self):
        return int(np.random.randint(self.n))

    def contains(self, value):
        try:
            return 0 <= operator.index(value) < self.n
        except TypeError:
            return False


class BoxSpace(collections.namedtuple("BoxSpace", "low, high, shape, dtype")):
    """crafter's BoxSpace(low, high, shape, dtype), which can also draw."""
    __slots__ = ()

    def sample(self):
        return np.random.randint(self.low, int(self.high) + 1, self.shape).astype(self.dtype)


_Base = getattr(imported_gym(), "Env", object)


def action_index(action):
    """The action as an int 0..16, or a ValueError for what crafter.Env
    cannot play (a float, a string, an index outside the 17 actions)."""
    try:
        index = operator.index(action)
    except TypeError:
        raise ValueError(f"an action is an integer 0..16 (crafter_toolkit.ACTIONS), "
                         f"not {action!r}") from None
    if not 0 <= index < len(ACTIONS):
        raise ValueError(f"an action is an integer 0..16 (crafter_toolkit.ACTIONS), not {index}")
    return index


class _Inside:
    """An attribute of crafter.Env's insides on Env: read from the
    engine's state when read (crafter_toolkit._insides), never written."""

    def __init__(self, read):
        self.read = read
        self.__doc__ = read.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, env, owner=None):
        return self if env is None else self.read(env)

    def __set__(self, env, value):
        raise ReadOnlyError(f"Env.{self.name} cannot be written: crafter_toolkit shows crafter's "
                            "insides as a read-only view of the engine's state (play through "
                            "step(), or go back with load_state())")

    def __delete__(self, env):
        self.__set__(env, None)


def _views(env):
    views = env.__dict__.get("_insides_views")
    if views is None:
        views = env.__dict__["_insides_views"] = _insides.Insides(env)
    return views


class Env(_Base):
    """crafter.Env's constructor, plus:

    textures  a folder of Crafter-compatible PNG files, or "builtin" (the
              toolkit's own textures); None (default): the folder
              CRAFTER_TEXTURES names, else Crafter's own assets wherever
              the crafter package is installed (the reference's pixels byte
              for byte), else the built-in ones (the first pixel
              observation then says so once: TexturesWarning)
    obs       what reset() and step() return: "pixels" (Crafter's
              observation), "semantic", "symbolic" or "none"
    record    a trajectory file (crafter-trajectory(5)) keeping every episode
    stats     Crafter's stats.jsonl, a line per episode appended as
              crafter.Recorder writes it: a file (a path ending in .jsonl, or
              an existing file) or a folder (made if missing) that gets one
    tasks     a task file (crafter-task(5)): every episode gets a goal, its
              wording in info["instruction"] (and self.instruction after
              reset()), its id in info["task"]; the step that meets it
              (info["goal"]) adds its reward and ends the episode
    split, task  only goals of that split, or the task of that id
    levels    a level set, Procgen-style: a count N (levels 1..N, level k
              being the world crafter.Env(seed=seed) plays in its k-th
              episode) or a level file (then seed=None means the file's
              seed); every reset() starts a level afresh, its number in
              info["level"] (and self.level after reset())
    start_level  with a count: the levels are start_level..start_level+N-1
    level_order  "random" (default: each episode draws its level from the
              seed) or "sequential" (levels in turn, cycling)

    seed None draws a seed from numpy's global generator, as crafter.Env
    does; seed(s) is gym's Env.seed (the game keeps its seed, as crafter's
    does).  crafter's insides are there to read, not to write: _world,
    _sem_view, _player, _unlocked, _step, _episode, _local_view,
    _item_view... (python/README.md; crafter_toolkit.objects).
    render(size) draws the view at any size as crafter.Env does, night
    noise from the world's generator included: at night a render
    changes how the episode goes on, exactly as it does in Crafter (so a
    Recorder that saves videos plays the same game as crafter's).
    """

    def __init__(self, area=(64, 64), view=(9, 9), size=(64, 64), reward=True, length=10000,
                 seed=None, textures=None, obs="pixels", record=None, stats=None,
                 transport="auto", tasks=None, split=None, task=None, levels=None,
                 start_level=None, level_order=None):
        view = _stream.pair("view", view)
        size = _stream.pair("size", size)
        area = _stream.pair("area", area)
        view_array, size_array = np.array(view), np.array(size)
        view_array.flags.writeable = size_array.flags.writeable = False
        if seed is None and not _stream.level_file(levels):
            seed = np.random.randint(0, 2 ** 31 - 1)
        # crafter's _area, _view, _size, _reward, _length and _seed, read-only.
        self._arguments = dict(area=area, view=view_array, size=size_array, reward=reward,
                               length=length, seed=seed)
        self._reward_on = reward  # what step() reads
        self._stream = _stream.Stream(
            envs=1, obs=obs, seed=seed, area=area, view=view, size=size,
            length=length or 0, textures=textures, manual_reset=True, semantic=True,
            record=record, transport=transport, buffers=1, tasks=tasks, split=split, task=task,
            levels=levels, start_level=start_level, level_order=level_order)
        self.instruction = None
        self.level = None
        self._stats = StatsWriter(stats) if stats is not None else None
        self._started = False
        self._ended = False
        self._obs_kind = obs
        # Some libraries expect these attributes to be set (as crafter says).
        self.reward_range = None
        self.metadata = None

    spec = None  # what gym.make sets, as on a gym.Env

    # -- crafter's insides, read-only (python/README.md: crafter's insides)

    _area = _Inside(lambda env: env._arguments["area"])
    _view = _Inside(lambda env: env._arguments["view"])
    _size = _Inside(lambda env: env._arguments["size"])
    _reward = _Inside(lambda env: env._arguments["reward"])
    _length = _Inside(lambda env: env._arguments["length"])

    @_Inside
    def _seed(env):
        """The seed the game plays: the constructor's (or the loaded
        state's, after load_state())."""
        if not env._started:
            return env._arguments["seed"]
        return _views(env).snapshot().seed

    _world = _Inside(lambda env: _views(env).world)
    _sem_view = _Inside(lambda env: _views(env).sem_view)
    _local_view = _Inside(lambda env: _views(env).local_view)
    _item_view = _Inside(lambda env: _views(env).item_view)
    _player = _Inside(lambda env: _views(env).snapshot().player)
    _unlocked = _Inside(lambda env: _views(env).snapshot().unlocked)
    _step = _Inside(lambda env: _views(env).snapshot().step)
    _episode = _Inside(lambda env: _views(env).snapshot().episode)
    _last_health = _Inside(lambda env: _views(env).snapshot().last_health)

    def seed(self, seed=None):
        """gym's Env.seed, which crafter.Env has when gym is installed:
        seeds the env's np_random (gym's own method when gym is imported)
        and returns [seed].  The game is not changed, as in crafter: it
        plays the constructor's seed."""
        gym_seed = getattr(getattr(imported_gym(), "Env", None), "seed", None)
        if gym_seed is not None:
            return gym_seed(self, seed)
        sequence = np.random.SeedSequence(seed)
        self._np_random = np.random.Generator(np.random.PCG64(sequence))
        return [sequence.entropy]

    @property
    def unwrapped(self):
        """The Env itself, as gym.Env's (gym's wrappers ask for it)."""
        return self

    @property
    def observation_space(self):
        gym = imported_gym()
        return (gym.spaces.Box if gym else BoxSpace)(0, 255, tuple(self._size) + (3,), np.uint8)

    @property
    def action_space(self):
        gym = imported_gym()
        return (gym.spaces.Discrete if gym else DiscreteSpace)(len(ACTIONS))

    @property
    def action_names(self):
        return list(ACTIONS)

    def _observation(self, frame):
        if self._obs_kind == "none":
            return None
        return frame["obs"][0].copy()

    def reset(self):
        self._stream.check_open()
        if self._started:
            frame = self._stream.step([_stream.RESET])
        else:
            frame = self._stream.frame
            self._started = True
        self._ended = False
        goal = self._stream.goal(frame, 0)
        self.instruction = goal[1] if goal else None
        self.level = self._stream.level(frame, 0)
        if self._stats:
            self._stats.start(0)
        return self._observation(frame)

    def step(self, action):
        self._stream.check_open()
        action = action_index(action)
        if not self._started:
            raise RuntimeError("call reset() before step()")
        frame = self._stream.step(bytes((action,)))
        reward = float(frame["reward"][0])
        done = bool(frame["done"][0])
        info = {
            "inventory": dict(zip(ITEMS, frame["inventory"][0].tolist())),
            "achievements": dict(zip(ACHIEVEMENTS, frame["achievements"][0].tolist())),
            "discount": float(frame["discount"][0]),
            "semantic": frame["semantic"][0].copy(),
            "player_pos": frame["position"][0, :2].astype(np.int64),
            "reward": reward,
        }
        info.update(self._stream.goal_info(frame, 0))
        info.update(self._stream.level_info(frame, 0))
        if self._stats and not self._ended:
            self._stats.step(0, reward)
            if done:
                self._stats.episode_ended(0, frame["achievements"][0])
        self._ended |= done
        if not self._reward_on:
            reward = 0.0
        return self._observation(frame), reward, done, info

    def render(self, size=None):
        """The view drawn now at size (width, height), default the Env's
        size, as an array (height, width, 3): Crafter's render(size).  Each
        cell is size // view pixels, Crafter's textures give Crafter's bytes,
        and at night the noise comes from the world's generator, as in
        Crafter: the episode then goes on as Crafter's would after the same
        render.  Sizes under 2 pixels a cell, which Crafter cannot draw,
        raise ValueError."""
        if size is None:
            size = tuple(int(v) for v in self._size)
        else:
            if np.ndim(size) != 1 or len(size) != 2:
                raise ValueError(f"render() takes a size (width, height), not {size!r}")
            try:
                size = tuple(operator.index(v) for v in size)
            except TypeError:
                raise ValueError(f"a size is two integers (width, height), not {size!r}") from None
        low = 2 * self._view
        if not (low[0] <= size[0] <= _stream.RENDER_MAX and low[1] <= size[1] <= _stream.RENDER_MAX):
            raise ValueError(f"render() draws sizes from {low[0]}x{low[1]} (2 pixels a cell of "
                             f"the {self._view[0]}x{self._view[1]} view) to "
                             f"{_stream.RENDER_MAX}x{_stream.RENDER_MAX}, not {size[0]}x{size[1]}")
        self._stream.check_open()
        if not self._started:
            raise RuntimeError("call reset() before render()")
        return self._stream.render(0, size[0], size[1])

    def save_state(self):
        """The game's whole state as bytes (crafter-state(5)): load_state
        of this Env or of another made with the same arguments goes on from
        it exactly, as this one would under the same actions.  copy.deepcopy
        and pickle use it: a copy is an Env of its own crafter-step, its
        state loaded, its Python attributes copied."""
        return self._stream.save_state(0)

    def load_state(self, state):
        """Goes back (or over) to a state from save_state: the game then
        goes on from there exactly.  A state of other parameters, or bytes
        that are not a state, raise ValueError and change nothing; so does
        an Env that records (record=, stats=: a log cannot hold a jump in
        state)."""
        if self._stats:
            raise ValueError("an Env that writes stats (stats=) cannot load a state: its "
                             "episode log cannot hold a jump in state")
        frame = self._stream.load_state(0, state)
        self._started = True
        self._ended = bool(frame["done"][0])
        goal = self._stream.goal(frame, 0)
        self.instruction = goal[1] if goal else None
        self.level = self._stream.level(frame, 0)

    def close(self):
        self._stream.close()
        if self._stats:
            self._stats.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
