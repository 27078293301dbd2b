"""crafter_toolkit/Crafter-v1: one Crafter environment as a gymnasium.Env."""

import gymnasium
import numpy as np

from . import _stream
from .vector import spaces_for


class CrafterEnv(gymnasium.Env):
    """Crafter through crafter-step.  terminated when the player died,
    truncated at the time limit (Crafter's discount tells them apart).
    With tasks (a task file, crafter-task(5)) every episode has a goal:
    info["instruction"] is its wording, info["task"] its id, info["goal"]
    whether the step met it (terminated, with the task's reward).
    With levels (a count N: level k is the world of the seed's k-th
    episode, for k from start_level, default 1, to start_level+N-1; or a
    level file) every episode plays a level of that set, chosen by
    level_order ("random", the default, or "sequential"), and info["level"]
    is its number.  seed None is seed 0, or a level file's seed.
    reset(seed=S) starts over with Env seed S (episode 1, or S's levels);
    reset() starts the next episode of the same Env, as crafter.Env.reset()
    does."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, obs="pixels", area=(64, 64), view=(9, 9), size=(64, 64), length=10000,
                 seed=None, textures=None, reward=True, render_mode=None, transport="auto",
                 tasks=None, split=None, task=None, levels=None, start_level=None,
                 level_order=None):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        if render_mode == "rgb_array" and obs != "pixels":
            raise ValueError("render_mode='rgb_array' needs obs='pixels'")
        self.render_mode = render_mode
        self._options = dict(envs=1, obs=obs, area=area, view=view, size=size, length=length,
                             textures=textures, manual_reset=True, transport=transport,
                             buffers=1, tasks=tasks, split=split, task=task, levels=levels,
                             start_level=start_level, level_order=level_order)
        _stream.level_options(levels, start_level, level_order)  # refused now, not at reset()
        self._reward = reward
        self._obs_kind = obs
        self._seed = None if seed is None else int(seed)
        self.observation_space, self.action_space = spaces_for(
            obs, _stream.pair("size", size), _stream.pair("area", area))
        self._stream = None
        self._pending_start = True

    def _info(self, frame):
        info = {"inventory": frame["inventory"][0].copy(),
                "achievements": frame["achievements"][0].copy(),
                "discount": float(frame["discount"][0]), "episode": int(frame["episode"][0]),
                "player_pos": frame["position"][0, :2].copy()}
        info.update(self._stream.goal_info(frame, 0))
        info.update(self._stream.level_info(frame, 0))
        return info

    def _obs(self, frame):
        return frame["obs"][0].copy()

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or self._stream is None:
            if self._stream is not None:
                self._stream.close()
            if seed is not None:
                self._seed = int(seed)
            self._stream = _stream.Stream(seed=self._seed, **self._options)
            frame = self._stream.frame
        else:
            frame = self._stream.step([_stream.RESET])
        return self._obs(frame), self._info(frame)

    def step(self, action):
        if self._stream is None:
            raise RuntimeError("call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"an action is an integer 0..16, not {action!r}")
        frame = self._stream.step([int(action)])
        done = bool(frame["done"][0])
        dead = frame["discount"][0] == 0
        reward = float(frame["reward"][0]) if self._reward else 0.0
        return self._obs(frame), reward, done and dead, done and not dead, self._info(frame)

    def render(self):
        if self.render_mode != "rgb_array" or self._stream is None:
            return None
        return self._stream.frame["obs"][0].copy()

    def close(self):
        if self._stream is not None:
            self._stream.close()
            self._stream = None
