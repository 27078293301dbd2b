"""Many environments in one crafter-step, as a Gymnasium vector env."""

import os

import numpy as np

from . import _kinds, _stream
from .names import ACTIONS
from .stats import StatsWriter

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode
    _Base = gymnasium.vector.VectorEnv
except ImportError:  # gymnasium is optional
    gymnasium = AutoresetMode = None
    _Base = object


def spaces_for(obs, size, area, players=1):
    """(single observation space, single action space), or Nones without
    gymnasium.  With several players, semantic maps mark the others 19."""
    if gymnasium is None:
        return None, None
    from gymnasium import spaces
    kind = _kinds.BY_NAME.get(obs, _kinds.BY_NAME["none"])
    low, high, shape, dtype = kind.space(size, area, players)
    return spaces.Box(low, high, shape, dtype), spaces.Discrete(len(ACTIONS))


def craftax_spaces(obs):
    """(single observation space, single action space) of a Craftax-Classic
    env (Nones without gymnasium): craftax's own, the symbolic observation
    1345 float32 in [0, 1], the pixel one (Craftax-Classic-Pixels-v1's) 63 x
    63 x 3 float32 in [0, 1]."""
    if obs != "pixels":
        return spaces_for(obs, None, (64, 64))
    if gymnasium is None:
        return None, None
    from gymnasium import spaces
    return (spaces.Box(0.0, 1.0, _stream.CRAFTAX_PIXELS, np.float32),
            spaces.Discrete(len(ACTIONS)))


def default_threads(num_envs):
    """As many threads as this process may use cores, at most one a env."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, int(num_envs)))


def start_episodes(stream, seed, options, fresh):
    """(stream, frame) for a reset of every env: with seed, a new
    crafter-step from that seed; else the first frame of a fresh one, or
    every env sent to its next episode."""
    if seed is not None:
        stream.close()
        stream = _stream.Stream(seed=seed, **options)
        return stream, stream.frame
    if fresh:
        return stream, stream.frame
    return stream, stream.step(np.full(stream.num_agents, _stream.RESET, np.uint8))


def vector_seeds(seed, num_envs):
    """The base seed S of a vector's envs (env i plays seed S + i) from
    reset's seed: an int, or a list of num_envs consecutive ints."""
    if isinstance(seed, (list, tuple, np.ndarray)):
        seeds = [_stream.seed_value(s) for s in seed]
        if len(seeds) != num_envs or seeds != list(range(seeds[0], seeds[0] + num_envs)):
            raise ValueError(f"env i plays seed S + i: give one seed S, or {num_envs} "
                             f"consecutive seeds, not {list(seed)!r}")
        return seeds[0]
    return _stream.seed_value(seed)


def _checked_actions(actions, count, per):
    """The actions of a step() as an array, one per `per` (count in all),
    each 0..16; ValueError otherwise."""
    actions = np.asarray(actions)
    if actions.shape != (count,):
        raise ValueError(f"step() takes one action per {per}: shape ({count},), "
                         f"not {actions.shape}")
    if not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"actions are integers 0..16, not {actions.dtype}")
    if actions.size and (actions.min() < 0 or actions.max() >= len(ACTIONS)):
        raise ValueError(f"actions are integers 0..16, got {actions.min()}..{actions.max()}")
    return actions

class VectorEnv(_Base):
    """num_envs Crafter environments; env i plays crafter.Env(seed=S + i)
    for the seed S given to the constructor or to reset(seed=S) (or a list
    of num_envs consecutive seeds S, S + 1, ...); without one, S comes from
    fresh entropy (with a level file: the file's seed), so two VectorEnvs
    made without seeds play different worlds.

    An episode that ends is reset on the next step (Gymnasium's next-step
    autoreset): the step that ends it returns its final observation and
    info; the next returns the first observation of the next episode,
    reward 0, whatever action was given.  infos holds arrays over the envs:
    inventory (N, 16), achievements (N, 22), crafter_episode (each env's
    episode counter), step, discount, player_pos (N, 2), unlocked (bits of
    the achievements unlocked by the step); no key that Gymnasium's
    RecordEpisodeStatistics writes itself.

    transport  "shm" for frames in shared memory, "pipe" for frames on the
               pipe, "auto" (default) for shm where the system has it
    copy       True (default): observations and infos are arrays of their
               own.  False returns arrays that view crafter-step's frame
               buffers: no copy (faster: at 64 pixel envs about a third
               more steps a second), but valid only until the buffer comes
               round again (after shm_slots steps with shm, two steps with
               the pipe), so keep a copy of what you store
    threads    crafter-step's threads; None (default): as many as this
               process may use cores; results do not depend on it
    record     a trajectory file keeping every episode; stats Crafter's
               stats.jsonl (as Env's stats: a .jsonl file or a folder)
    tasks      a task file (crafter-task(5)): every episode has a goal;
               infos["instruction"] (an array of N strings), infos["task"]
               (their ids) and infos["goal"] (met at this step, terminated)
    split, task  only goals of that split, or the task of that id
    levels     a level set shared by every env, Procgen-style: a count (level
               k is the world of episode k of seed, for every env) or a
               level file; infos["level"] holds each env's level
    start_level  with a count: the first level (default 1)
    level_order  "random" (default: each env draws its episodes' levels
               from its own generator) or "sequential" (env i plays the
               set's levels i+1, i+1+num_envs, ... in turn, cycling)
    players    P players share each env's world (1 to 16; default 1, Crafter):
               every array then has a row per agent, num_envs * P rows,
               agent env * P + p being player p of env (the attribute
               num_envs is then that number of rows, as Gymnasium's wrappers
               expect; num_worlds the envs); step() takes one action per
               agent.  infos["alive"] (bool) is the mask of the players
               still playing, whose next action counts; infos["player"]
               each row's player p.  An agent's episode ends at its death
               (terminated), the time limit (truncated) or its goal
               (terminated; its goal's own step limit: truncated); its
               row then says terminated or truncated on that step only, and
               from then on alive False, reward 0, its action ignored,
               until every player of its env is done: the next step starts
               the env's next episode for all its players (next-step
               autoreset, as with one player), alive True again.
               Rewards are each player's own.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP if AutoresetMode else "next_step",
                "render_modes": []}

    def __init__(self, num_envs=1, obs="pixels", threads=None, transport="auto", seed=None,
                 area=(64, 64), view=(9, 9), size=(64, 64), length=10000, textures=None,
                 reward=True, copy=True, record=None, stats=None, shm_slots=2, tasks=None,
                 split=None, task=None, levels=None, start_level=None, level_order=None,
                 render_mode=None, max_episode_steps=None, players=1):
        if render_mode is not None:
            raise ValueError("VectorEnv renders nothing: render_mode must be None "
                             "(the observations are the pictures with obs='pixels')")
        if max_episode_steps is not None:  # what gymnasium.make_vec passes on
            length = max_episode_steps
        self.num_worlds = int(num_envs)
        self.players = int(players)
        self.num_envs = self.num_worlds * self.players  # rows: agents
        if threads is None:
            threads = default_threads(self.num_worlds)
        self._options = dict(envs=num_envs, obs=obs, area=area, view=view, size=size,
                             length=length, textures=textures, threads=threads,
                             transport=transport, manual_reset=True, record=record,
                             shm_slots=shm_slots, tasks=tasks, split=split, task=task,
                             levels=levels, start_level=start_level, level_order=level_order,
                             players=players)
        self.threads = threads
        if seed is not None:
            self._seed = vector_seeds(seed, self.num_worlds)
        elif _stream.level_file(levels):
            self._seed = None
        else:
            self._seed = _stream.fresh_seed()
        self._copy = copy
        self._reward = reward
        self._obs_kind = obs
        self.metadata = dict(self.metadata)
        size, area = _stream.pair("size", size), _stream.pair("area", area)
        self.single_observation_space, self.single_action_space = spaces_for(
            obs, size, area, self.players)
        if gymnasium is not None:
            from gymnasium.vector.utils import batch_space
            self.observation_space = batch_space(self.single_observation_space, self.num_envs)
            self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._stats = StatsWriter(stats, self.num_envs) if stats is not None else None
        self._stream = _stream.Stream(seed=self._seed, **self._options)
        self._fresh = True
        self._ended = np.zeros(self.num_envs, dtype=bool)  # the agent's env is over
        self._done = np.zeros(self.num_envs, dtype=bool)  # the agent's episode ended

    def _result(self, frame):
        obs = frame["obs"]
        infos = {
            "inventory": frame["inventory"], "achievements": frame["achievements"],
            "crafter_episode": frame["episode"], "step": frame["step"],
            "discount": frame["discount"],
            "player_pos": frame["position"][:, :2], "unlocked": frame["unlocked"],
        }
        if self._stream.levels:
            infos["level"] = frame["episode"]
        if self.players > 1:
            infos["alive"] = frame["alive"].view(bool)
        if self._copy:
            obs = obs.copy()
            infos = {key: value.copy() for key, value in infos.items()}
        if self._stream.tasks:
            goals = [self._stream.goal(frame, i) for i in range(self.num_envs)]
            infos["task"] = np.array([goal[0]["id"] for goal in goals], dtype=object)
            infos["instruction"] = np.array([goal[1] for goal in goals], dtype=object)
            infos["goal"] = np.array([goal[2] for goal in goals], dtype=bool)
        if self.players > 1:
            infos["player"] = np.tile(np.arange(self.players), self.num_worlds)
        return obs, infos

    def reset(self, *, seed=None, options=None):
        """New episodes in every env; with seed, the envs start over from
        that seed (env i: seed + i, episode 1)."""
        self._stream.check_open()
        if seed is not None:
            self._seed = vector_seeds(seed, self.num_worlds)
        self._stream, frame = start_episodes(self._stream, None if seed is None else self._seed,
                                             self._options, self._fresh)
        self._fresh = False
        self._ended[:] = False
        self._done[:] = False
        if self._stats:
            for i in range(self.num_envs):
                self._stats.start(i)
        return self._result(frame)

    def step(self, actions):
        self._stream.check_open()
        actions = _checked_actions(
            actions, self.num_envs,
            "env" if self.players == 1 else "agent (env * players + player)")
        if self._fresh:
            raise RuntimeError("call reset() before step()")
        sent = actions.astype(np.uint8)
        sent[self._done] = 0  # the actions of players out of the game count for nothing
        sent[self._ended] = _stream.RESET
        frame = self._stream.step(sent)
        done = frame["done"].astype(bool)
        ended = done & ~self._done  # a player out of the game stays out until its env is over
        done |= self._done & ~frame["reset"].astype(bool)
        dead = frame["discount"] == 0
        terminated, truncated = ended & dead, ended & ~dead
        rewards = frame["reward"].astype(np.float32)
        rewards[self._done] = 0
        if self._stats:
            for i in np.flatnonzero(~self._ended & ~self._done):
                self._stats.step(i, frame["reward"][i])
                if ended[i]:
                    self._stats.episode_ended(i, frame["achievements"][i])
            for i in np.flatnonzero(self._ended):
                self._stats.start(i)
        self._done = done
        self._ended = done.reshape(self.num_worlds, self.players).all(1).repeat(self.players)
        if not self._reward:
            rewards[:] = 0
        obs, infos = self._result(frame)
        return obs, rewards, terminated, truncated, infos

    def close(self, **kwargs):
        self._stream.close()
        if self._stats:
            self._stats.close()

    def __del__(self):
        try:
            self._stream.close()
        except Exception:
            pass


CRAFTAX_CLASSIC = "craftax-classic"
# What a Craftax-Classic env's info holds at the start of an episode (see
# CraftaxVectorEnv): no achievements, timestep 0, discount 1, reward 0.
_CRAFTAX_START = {"achievements": 0, "timestep": 0, "discount": 1.0, "reward": 0.0}


class CraftaxVectorEnv(_Base):
    """num_envs Craftax-Classic environments in one crafter-step --game
    craftax-classic (crafter-games(7)): the game of craftax 1.6.1's
    Craftax-Classic-Symbolic-v1 and Craftax-Classic-Pixels-v1, exact.  Env i plays seed S + i by Craftax's
    key schedule, for the seed S given to the constructor or to
    reset(seed=S) (or a list of num_envs consecutive seeds S, S + 1, ...);
    without one, S comes from fresh entropy.  Env i of a VectorEnv seeded S
    plays what crafter_toolkit.gym.CraftaxClassicEnv plays after
    reset(seed=S + i) (so also what a SyncVectorEnv of those envs seeded S
    plays).

    Autoreset is Craftax's own, Gymnasium's same-step mode
    (metadata["autoreset_mode"] is AutoresetMode.SAME_STEP): the step that
    ends an env's episode returns terminated for it and the first
    observation of its next episode, which Craftax made from that step's
    key; the next step plays that episode.  No step is spent on resets, so
    env i plays the episodes of its schedule exactly as JAX does.  Every end
    (death, lava, the 10000-step limit) is terminated, truncated is always
    False: Craftax's done, as CraftaxClassicEnv says.

    infos holds arrays over the envs, each env's episode as its
    observation shows it: achievements (N, 22), timestep, discount, reward
    (Craftax's float32 rewards as float64); an env whose episode just
    ended shows its next episode's start (no achievements, timestep 0,
    discount 1, reward 0).  At a step where some episode ended,
    infos["final_info"] holds the same keys for the ended episodes (their
    achievements, length, discount 0, last reward) and
    infos["_final_info"] marks the envs that ended, as Gymnasium's
    same-step vectors give them.  There is no infos["final_obs"]: Craftax's
    auto-reset keeps no last observation, and crafter-step has none to
    send (Gymnasium's wrappers take infos without it).  No key that
    RecordEpisodeStatistics writes.

    obs        "symbolic" (1345 float32 in [0, 1]), "pixels" (63 x 63 x 3
               float32 in [0, 1], Craftax-Classic-Pixels-v1's picture) or
               "none"
    textures   with pixels: Craftax's assets folder (craftax_classic/assets
               of a craftax package, which gives Craftax's pixels exactly),
               "builtin" (the toolkit's own look), or None (default): the
               installed craftax package's, found without importing it,
               else the built-in ones (a TexturesWarning says so once)
    threads    crafter-step's threads; None (default): as many as this
               process may use cores; results do not depend on it
    Frames come over the pipe (crafter-step shares no memory for this game
    yet); observations and infos are arrays of their own.  Copies
    (copy.deepcopy, pickle) and a child of os.fork() play on from every
    env's state, each on a crafter-step of its own, as VectorEnv's do.
    reset()
    without a seed starts every env's next episode from the next key of
    its schedule (key, k = split(key); env.reset(k)), except the first,
    which returns the episodes the seeds start with.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP if AutoresetMode else "same_step",
                "render_modes": []}

    def __init__(self, num_envs=1, obs="symbolic", threads=None, seed=None, render_mode=None,
                 timeout=None, textures=None):
        if render_mode is not None:
            raise ValueError("CraftaxVectorEnv renders nothing: render_mode must be None "
                             "(with obs='pixels' the observations are the pictures)")
        self.num_envs = int(num_envs)
        if threads is None:
            threads = default_threads(self.num_envs)
        self.threads = threads
        self._options = dict(game=CRAFTAX_CLASSIC, envs=self.num_envs, obs=obs,
                             threads=threads, timeout=timeout)
        if textures is not None:
            self._options["textures"] = textures
        self._seed = (vector_seeds(seed, self.num_envs) if seed is not None
                      else _stream.fresh_seed())
        self.metadata = dict(self.metadata)
        self.single_observation_space, self.single_action_space = craftax_spaces(obs)
        if gymnasium is not None:
            from gymnasium.vector.utils import batch_space
            self.observation_space = batch_space(self.single_observation_space, self.num_envs)
            self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._stream = None
        self._stream = _stream.Stream(seed=self._seed, **self._options)
        self._fresh = True

    def _infos(self, frame):
        return {"achievements": frame["achievements"].astype(np.int32),
                "timestep": frame["step"].astype(np.int64),
                "discount": frame["discount"].astype(np.float32),
                "reward": frame["reward"].astype(np.float64)}

    def reset(self, *, seed=None, options=None):
        """New episodes in every env; with seed, the envs start over from
        that seed (env i: seed + i)."""
        self._stream.check_open()
        if seed is not None:
            self._seed = vector_seeds(seed, self.num_envs)
        self._stream, frame = start_episodes(self._stream, None if seed is None else self._seed,
                                             self._options, self._fresh)
        self._fresh = False
        infos = self._infos(frame)
        for key, value in _CRAFTAX_START.items():  # a reset's frame says so already
            infos[key][:] = value
        return frame["obs"].copy(), infos

    def step(self, actions):
        self._stream.check_open()
        actions = _checked_actions(actions, self.num_envs, "env")
        if self._fresh:
            raise RuntimeError("call reset() before step()")
        frame = self._stream.step(actions.astype(np.uint8))
        done = frame["done"].astype(bool)
        rewards = frame["reward"].astype(np.float32)
        infos = self._infos(frame)
        if done.any():
            final = {key: np.where(done.reshape((-1,) + (1,) * (value.ndim - 1)), value,
                                   np.zeros_like(value))
                     for key, value in infos.items()}
            for key, value in _CRAFTAX_START.items():
                infos[key][done] = value
            infos["final_info"] = final
            infos["_final_info"] = done
        return frame["obs"].copy(), rewards, done, np.zeros(self.num_envs, bool), infos

    def close(self, **kwargs):
        if self._stream is not None:
            self._stream.close()

    def __del__(self):
        try:
            self._stream.close()
        except Exception:
            pass
