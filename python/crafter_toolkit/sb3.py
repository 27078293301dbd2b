"""Crafter for Stable-Baselines3: many environments in one crafter-step as
an SB3 VecEnv, so SB3 trains on the fast path rather than through
DummyVecEnv's Python loop over single envs.

    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor
    from crafter_toolkit.sb3 import VecEnv

    env = VecMonitor(VecEnv(64, obs="pixels", stats="logdir"))
    PPO("CnnPolicy", env).learn(1_000_000)

Craftax-Classic (crafter-games(7)) the same way: CraftaxVecEnv(64).

Needs stable-baselines3 (pip install 'crafter-toolkit[sb3]').
"""

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from . import _stream
from .names import ACHIEVEMENTS, ACTIONS
from .stats import StatsWriter
from .vector import (CraftaxVectorEnv, default_threads, spaces_for, start_episodes,
                     vector_seeds)


class _Envs(_SB3VecEnv):
    """What SB3's VecEnv asks of the envs one by one, which crafter-step's
    envs, stepped together, do not have."""

    def get_attr(self, attr_name, indices=None):
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(f"{self._name}'s envs have no attribute {attr_name!r}")

    def set_attr(self, attr_name, value, indices=None):
        raise AttributeError(f"{self._name}'s envs have no attribute {attr_name!r} to set")

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        raise AttributeError(f"{self._name}'s envs have no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [indices]
        return indices

    @property
    def _name(self):
        return f"crafter_toolkit.sb3.{type(self).__name__}"


def _actions(actions, num_envs):
    """SB3's actions as one uint8 a env, or ValueError."""
    actions = np.asarray(actions).reshape(-1)
    if actions.shape != (num_envs,) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"one integer action 0..16 per env: shape ({num_envs},), "
                         f"not {actions.shape} of {actions.dtype}")
    if actions.size and (actions.min() < 0 or actions.max() >= len(ACTIONS)):
        raise ValueError(f"actions are integers 0..16, got {actions.min()}..{actions.max()}")
    return actions.astype(np.uint8)


class VecEnv(_Envs):
    """num_envs Crafter environments, env i playing crafter.Env(seed=S + i)
    for the seed S given here or by seed(S) before reset() (none: fresh
    entropy).  SB3's conventions: an episode that ends starts the next one
    in the same step; the step's observation is the new episode's first,
    infos[i]["terminal_observation"] the one that ended it, and
    infos[i]["TimeLimit.truncated"] says the time limit ended it (Crafter's
    discount 1) rather than death; infos[i]["achievements"] holds the ended
    episode's achievement counts by name.  Other steps have empty infos.

    obs, area, view, size, length, textures, reward, threads (None: as many
    as this process may use cores), transport, tasks, split, task, levels,
    start_level, level_order and record are VectorEnv's; stats writes
    Crafter's stats.jsonl (as Env's stats: a .jsonl file, or a folder
    made if missing that gets one), which
    crafter-score reads.  Observations are copied out of crafter-step's
    frames (SB3 keeps them in its rollout buffer).
    """

    def __init__(self, num_envs=1, obs="pixels", threads=None, transport="auto", seed=None,
                 area=(64, 64), view=(9, 9), size=(64, 64), length=10000, textures=None,
                 reward=True, record=None, stats=None, tasks=None, split=None, task=None,
                 levels=None, start_level=None, level_order=None):
        num_envs = int(num_envs)
        if threads is None:
            threads = default_threads(num_envs)
        self._stream_options = dict(envs=num_envs, obs=obs, area=area, view=view, size=size,
                             length=length, textures=textures, threads=threads,
                             transport=transport, final_obs=True, record=record, tasks=tasks,
                             split=split, task=task, levels=levels, start_level=start_level,
                             level_order=level_order)
        observation_space, action_space = spaces_for(
            obs, _stream.pair("size", size), _stream.pair("area", area))
        if seed is not None:
            self._seed = vector_seeds(seed, num_envs)
        elif _stream.level_file(levels):
            self._seed = None
        else:
            self._seed = _stream.fresh_seed()
        self._reward = reward
        self._stats = StatsWriter(stats, num_envs) if stats is not None else None
        self._stream = None
        self._actions = None
        super().__init__(num_envs, observation_space, action_space)
        self._stream = _stream.Stream(seed=self._seed, **self._stream_options)
        self._fresh = True

    # -- SB3's VecEnv --------------------------------------------------

    def reset(self):
        self._stream.check_open()
        seeded = self._seeds[0] is not None
        if seeded:
            self._seed = vector_seeds(self._seeds, self.num_envs)
        self._stream, frame = start_episodes(self._stream, self._seed if seeded else None,
                                             self._stream_options, self._fresh)
        self._fresh = False
        self._reset_seeds()
        self._reset_options()
        if self._stats:
            for i in range(self.num_envs):
                self._stats.start(i)
        return frame["obs"].copy()

    def step_async(self, actions):
        self._stream.check_open()
        self._actions = _actions(actions, self.num_envs)

    def step_wait(self):
        self._stream.check_open()
        if self._fresh:
            raise RuntimeError("call reset() before step()")
        if self._actions is None:
            raise RuntimeError("step_async() comes before step_wait()")
        frame = self._stream.step(self._actions)
        self._actions = None
        obs = frame["obs"].copy()
        rewards = frame["reward"].astype(np.float32)
        dones = frame["done"].astype(bool)
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            achievements = frame["achievements"][i]
            infos[i] = {"terminal_observation": frame["final"][i].copy(),
                        "TimeLimit.truncated": bool(frame["discount"][i] != 0),
                        "achievements": dict(zip(ACHIEVEMENTS, achievements.tolist()))}
            infos[i].update(self._stream.goal_info(frame, i))
        if self._stats:
            for i in range(self.num_envs):
                self._stats.step(i, frame["reward"][i])
                if dones[i]:
                    self._stats.episode_ended(i, frame["achievements"][i])
        if not self._reward:
            rewards[:] = 0
        return obs, rewards, dones, infos

    def close(self):
        if self._stream is not None:
            self._stream.close()
        if self._stats:
            self._stats.close()


class CraftaxVecEnv(_Envs):
    """num_envs Craftax-Classic environments (crafter-games(7)) as an SB3
    VecEnv: crafter_toolkit.vector.CraftaxVectorEnv, one crafter-step
    stepping them all, env i playing seed S + i by Craftax's key schedule
    for the seed S given here or by seed(S) before reset() (none: fresh
    entropy).  Craftax's auto-reset is SB3's convention already: the step
    that ends an episode returns done and the next episode's first
    observation.  infos[i] at an end holds "TimeLimit.truncated" (always
    False: Craftax's done is terminal, its 10000-step limit included, so
    nothing bootstraps from an ended episode) and "achievements" (the ended
    episode's, by name); there is no "terminal_observation", which Craftax
    does not keep (SB3 needs it only for truncated episodes).  Other steps
    have empty infos.  obs is "symbolic" (default), "pixels" (63 x 63 x 3
    float32, drawn with textures as CraftaxVectorEnv says) or "none";
    threads None uses as many threads as this process may use cores."""

    def __init__(self, num_envs=1, obs="symbolic", threads=None, seed=None, textures=None):
        self._envs = None
        self._actions = None
        self._envs = CraftaxVectorEnv(int(num_envs), obs=obs, threads=threads, seed=seed,
                                      textures=textures)
        super().__init__(int(num_envs), self._envs.single_observation_space,
                         self._envs.single_action_space)

    def reset(self):
        seeded = self._seeds[0] is not None
        obs, _ = self._envs.reset(seed=list(self._seeds) if seeded else None)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions):
        self._envs._stream.check_open()
        self._actions = _actions(actions, self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_async() comes before step_wait()")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, infos = self._envs.step(actions)
        dones = terminated | truncated
        listed = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            achievements = infos["final_info"]["achievements"][i]
            listed[i] = {"TimeLimit.truncated": bool(truncated[i]),
                         "achievements": dict(zip(ACHIEVEMENTS, achievements.tolist()))}
        return obs, rewards, dones, listed

    def close(self):
        if self._envs is not None:
            self._envs.close()
