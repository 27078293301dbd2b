"""Several players in one Crafter world, as a PettingZoo ParallelEnv."""

import numpy as np

from . import _stream
from .env import action_index
from .vector import spaces_for

try:  # pettingzoo is optional: without it, the same class on object
    import pettingzoo
    _Base = pettingzoo.ParallelEnv
except ImportError:
    _Base = object


class ParallelEnv(_Base):
    """players (1 to 16) players sharing one Crafter world, served by one
    crafter-step: PettingZoo's ParallelEnv API.  The agents are "player_0",
    "player_1", ...; each observes its own view (pixels: its local view and
    inventory, the others drawn with a texture of their own; semantic: the
    world map, the other players marked 19; symbolic: its own window), and
    gets its own reward.

    A player's episode ends at its death (terminated, discount 0), at the
    time limit (truncated) or when it meets its goal (with tasks:
    terminated; a goal's own step limit: truncated); it then leaves
    `agents` while the others play on.  A dead player's body leaves the
    world; one that met its goal or ran out of its goal's steps stays in
    the world, idle (its actions play noop).  When every player is done,
    `agents` is empty and reset() starts the next episode.  step() takes a dict of
    actions (0..16) of the agents in `agents` (a missing one plays noop)
    and returns dicts keyed by them.  infos: inventory (16 counts),
    achievements (22 counts), discount, player_pos and crafter_episode.

    Seeds: reset(seed=S) starts over from seed S (the world of
    crafter.Env(seed=S)'s first episode, the players spread around
    player 0); reset() goes on with the next episode.  The first reset
    without a seed takes the constructor's, and without one fresh entropy.

    render_mode "rgb_array" makes render() return the players' views side
    by side, player 0 leftmost, each of the env's size: with obs="pixels"
    their last observations, with other kinds their views drawn as pixel
    observations would be.  Rendering never changes the game.  Options as crafter_toolkit/Crafter-v1's
    (obs, area, view, size, length, seed, textures, reward, transport,
    tasks, split, task, levels, start_level, level_order)."""

    metadata = {"name": "crafter_toolkit_v1", "is_parallelizable": True,
                "render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, players=2, obs="pixels", area=(64, 64), view=(9, 9), size=(64, 64),
                 length=10000, seed=None, textures=None, reward=True, render_mode=None,
                 transport="auto", tasks=None, split=None, task=None, levels=None,
                 start_level=None, level_order=None):
        if not 1 <= int(players) <= _stream.PLAYERS_MAX:
            raise ValueError(f"players must be 1 to {_stream.PLAYERS_MAX}, not {players!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self._render_size = _stream.render_size(obs, render_mode, size, view)
        self._obs_kind = obs
        self.render_mode = render_mode
        self._options = dict(envs=1, players=int(players), obs=obs, area=area, view=view,
                             size=size, length=length, textures=textures, manual_reset=True,
                             transport=transport, buffers=1, tasks=tasks, split=split,
                             task=task, levels=levels, start_level=start_level,
                             level_order=level_order)
        _stream.level_options(levels, start_level, level_order)  # refused now, not at reset()
        self._reward = reward
        self._seed = None if seed is None else _stream.seed_value(seed)
        self.possible_agents = [f"player_{p}" for p in range(int(players))]
        self.agents = []
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces, self.action_spaces = {}, {}
        for agent in self.possible_agents:
            self.observation_spaces[agent], self.action_spaces[agent] = spaces_for(
                obs, _stream.pair("size", size), _stream.pair("area", area), int(players))
        self._stream = None
        self._closed = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _info(self, frame, p):
        info = {"inventory": frame["inventory"][p].copy(),
                "achievements": frame["achievements"][p].copy(),
                "discount": float(frame["discount"][p]),
                "crafter_episode": int(frame["episode"][p]),
                "player_pos": frame["position"][p, :2].copy()}
        info.update(self._stream.goal_info(frame, p))
        info.update(self._stream.level_info(frame, p))
        return info

    def reset(self, seed=None, options=None):
        if self._closed:
            raise _stream.ClosedEnvError()
        if seed is not None or self._stream is None:
            old, self._stream = self._stream, None
            self._stream, self._seed = _stream.reopen(old, self._seed, seed, self._options,
                                                      _stream.fresh_seed)
            frame = self._stream.frame
        else:  # 255 in player 0's slot starts the env's next episode
            frame = self._stream.step(bytes([_stream.RESET] * len(self.possible_agents)))
        self.agents = list(self.possible_agents)
        return ({agent: frame["obs"][p].copy() for p, agent in enumerate(self.agents)},
                {agent: self._info(frame, p) for p, agent in enumerate(self.agents)})

    def step(self, actions):
        if self._closed:
            raise _stream.ClosedEnvError()
        if self._stream is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("every player's episode has ended: call reset()")
        sent = bytearray(len(self.possible_agents))  # noop for the missing and the done
        for agent, action in actions.items():
            if agent not in self._index:
                raise ValueError(f"no agent {agent!r}: the agents are {self.possible_agents}")
            if agent in self.agents:
                sent[self._index[agent]] = action_index(action)
        frame = self._stream.step(bytes(sent))
        players = [(agent, self._index[agent]) for agent in self.agents]
        done, discount = frame["done"], frame["discount"]
        obs = {agent: frame["obs"][p].copy() for agent, p in players}
        rewards = {agent: float(frame["reward"][p]) if self._reward else 0.0
                   for agent, p in players}
        terminations = {agent: bool(done[p] and discount[p] == 0) for agent, p in players}
        truncations = {agent: bool(done[p] and discount[p] != 0) for agent, p in players}
        infos = {agent: self._info(frame, p) for agent, p in players}
        self.agents = [agent for agent, p in players if not done[p]]
        return obs, rewards, terminations, truncations, infos

    def render(self):
        if self._closed:
            raise _stream.ClosedEnvError()
        if self.render_mode != "rgb_array" or self._stream is None:
            return None
        if self._obs_kind == "pixels":
            return np.concatenate(list(self._stream.frame["obs"]), axis=1)
        players = range(len(self.possible_agents))
        return np.concatenate(self._stream.render_unchanged(0, players, *self._render_size),
                              axis=1)

    def save_state(self):
        """The world's whole state, every player's, as bytes
        (crafter-state(5)), for load_state of this env or another made with
        the same arguments; copy.deepcopy and pickle use it.  After reset()."""
        if self._stream is None:
            raise RuntimeError("call reset() before save_state()")
        return self._stream.save_state(0)

    def load_state(self, state):
        """Goes back (or over) to a state from save_state: `agents` are then
        the players whose episodes had not ended.  A state of other
        parameters, or bytes that are not a state, raise ValueError and
        change nothing."""
        if self._stream is None:
            self._stream, self._seed = _stream.reopen(None, self._seed, None, self._options,
                                                      _stream.fresh_seed)
        frame = self._stream.load_state(0, state)
        self.agents = [agent for p, agent in enumerate(self.possible_agents)
                       if not frame["done"][p]]

    def close(self):
        self._closed = True
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
