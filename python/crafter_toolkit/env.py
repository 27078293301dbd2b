"""A drop-in for crafter.Env of crafter 1.8.3: `import crafter_toolkit as
crafter` and the same code plays the same game, served by crafter-step."""

import collections

import numpy as np

from . import _stream
from .names import ACHIEVEMENTS, ACTIONS, ITEMS
from .stats import StatsWriter

# What crafter.Env returns for its spaces when gym is not installed.
DiscreteSpace = collections.namedtuple("DiscreteSpace", "n")
BoxSpace = collections.namedtuple("BoxSpace", "low, high, shape, dtype")


class Env:
    """crafter.Env's constructor, plus:

    textures  a folder of Crafter-compatible PNG files (Crafter's own
              assets give the reference's pixels byte for byte); None for
              the toolkit's built-in textures
    obs       what reset() and step() return: "pixels" (Crafter's
              observation), "semantic", "symbolic" or "none"
    record    a trajectory file (crafter-trajectory(5)) keeping every episode
    stats     a stats.jsonl file or folder, as crafter.Recorder writes it
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
    """

    def __init__(self, area=(64, 64), view=(9, 9), size=(64, 64), reward=True, length=10000,
                 seed=None, textures=None, obs="pixels", record=None, stats=None,
                 transport="auto", tasks=None, split=None, task=None, levels=None,
                 start_level=None, level_order=None):
        view = _stream.pair("view", view)
        size = _stream.pair("size", size)
        area = _stream.pair("area", area)
        self._area, self._view, self._size = area, np.array(view), np.array(size)
        self._reward = reward
        self._length = length
        if seed is None and not _stream.level_file(levels):
            seed = np.random.randint(0, 2 ** 31 - 1)
        self._seed = seed
        self._stream = _stream.Stream(
            envs=1, obs=obs, seed=self._seed, area=area, view=view, size=size,
            length=length or 0, textures=textures, manual_reset=True, semantic=True,
            record=record, transport=transport, buffers=1, tasks=tasks, split=split, task=task,
            levels=levels, start_level=start_level, level_order=level_order)
        self.instruction = None
        self.level = None
        self._stats = StatsWriter(stats) if stats is not None else None
        self._started = False
        self._ended = False
        self._obs_kind = obs
        self.reward_range = None
        self.metadata = None

    @property
    def observation_space(self):
        return BoxSpace(0, 255, tuple(self._size) + (3,), np.uint8)

    @property
    def action_space(self):
        return DiscreteSpace(len(ACTIONS))

    @property
    def action_names(self):
        return list(ACTIONS)

    def _observation(self, frame):
        if self._obs_kind == "none":
            return None
        return frame["obs"][0].copy()

    def reset(self):
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
        if not self._started:
            raise RuntimeError("call reset() before step()")
        try:
            action = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"an action is an integer 0..16, not {action!r}") from None
        if not 0 <= action < len(ACTIONS):
            raise ValueError(f"an action is an integer 0..16, not {action}")
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
        if not self._reward:
            reward = 0.0
        return self._observation(frame), reward, done, info

    def render(self, size=None):
        """The last pixel observation (the Env must have obs="pixels");
        only the Env's own size can be drawn."""
        if self._obs_kind != "pixels":
            raise ValueError("render() needs an Env made with obs='pixels'")
        if size is not None and tuple(np.asarray(size)) != tuple(self._size):
            raise ValueError(f"render() draws at the Env's size {tuple(self._size)} only")
        return self._stream.frame["obs"][0].copy()

    def close(self):
        self._stream.close()
        if self._stats:
            self._stats.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
