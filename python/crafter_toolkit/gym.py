"""crafter_toolkit/Crafter-v1: one Crafter environment as a gymnasium.Env;
crafter_toolkit/Craftax-Classic-Symbolic-v1 and
crafter_toolkit/Craftax-Classic-Pixels-v1: one Craftax-Classic environment
(crafter-games(7))."""

import gymnasium
import numpy as np

from . import _stream
from .vector import craftax_spaces, spaces_for


def _episode_option(options, levels):
    """reset's options: E of {"episode": E}, else None (other keys are
    left to whoever gave them)."""
    episode = options.get("episode") if options else None
    if episode is None:
        return None
    if isinstance(episode, (bool, np.bool_)) or not isinstance(episode, (int, np.integer)) \
            or not 1 <= episode <= 2 ** 31 - 1:
        raise ValueError(f"options['episode'] is an episode counter from 1 to 2**31 - 1, "
                         f"not {episode!r}")
    if levels is not None:
        raise ValueError("with levels the level set chooses each episode's world: "
                         "no options['episode']")
    return int(episode)


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
    is its number.

    Seeds: reset(seed=S) starts over as crafter.Env(seed=S) (its episode 1,
    or S's levels); reset() starts the next episode of the same Env, as
    crafter.Env.reset() does.  reset(seed=S, options={"episode": E}) starts
    at the Env's episode counter E (from 1; without S, of the seed played),
    the episode of a trajectory file or a Minari dataset's episode metadata.  The first reset without a seed uses the
    constructor's seed, and without one fresh entropy (or a level file's
    seed), so copies made without seeds play different worlds.

    info holds inventory (16 counts), achievements (22 counts), discount,
    player_pos and crafter_episode (the Env's episode counter; with levels,
    info["level"]): no key that wrappers such as RecordEpisodeStatistics
    or Stable-Baselines3's Monitor write themselves.

    render_mode "rgb_array" makes render() return the player's view as
    an array (height, width, 3) of the env's size: with obs="pixels" the
    last observation, with other kinds the view drawn as a pixel
    observation would be.  Rendering never changes the game (Stable-
    Baselines3's make_vec_env asks for "rgb_array" whatever the kind)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

    def __init__(self, obs="pixels", area=(64, 64), view=(9, 9), size=(64, 64), length=10000,
                 seed=None, textures=None, reward=True, render_mode=None, transport="auto",
                 tasks=None, split=None, task=None, levels=None, start_level=None,
                 level_order=None):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
        self._render_size = _stream.render_size(obs, render_mode, size, view)
        self.render_mode = render_mode
        self._options = dict(envs=1, obs=obs, area=area, view=view, size=size, length=length,
                             textures=textures, manual_reset=True, transport=transport,
                             buffers=1, tasks=tasks, split=split, task=task, levels=levels,
                             start_level=start_level, level_order=level_order)
        _stream.level_options(levels, start_level, level_order)  # refused now, not at reset()
        self._reward = reward
        self._obs_kind = obs
        self._seed = None if seed is None else _stream.seed_value(seed)
        self.observation_space, self.action_space = spaces_for(
            obs, _stream.pair("size", size), _stream.pair("area", area))
        self._stream = None
        self._pending_start = True
        self._closed = False

    def _info(self, frame):
        info = {"inventory": frame["inventory"][0].copy(),
                "achievements": frame["achievements"][0].copy(),
                "discount": float(frame["discount"][0]),
                "crafter_episode": int(frame["episode"][0]),
                "player_pos": frame["position"][0, :2].copy()}
        info.update(self._stream.goal_info(frame, 0))
        info.update(self._stream.level_info(frame, 0))
        return info

    def _obs(self, frame):
        return frame["obs"][0].copy()

    def reset(self, *, seed=None, options=None):
        if self._closed:
            raise _stream.ClosedEnvError()
        episode = _episode_option(options, self._options["levels"])
        super().reset(seed=seed)
        if seed is not None or self._stream is None or episode is not None:
            old, self._stream = self._stream, None
            settings = self._options
            if episode is not None:
                settings = dict(settings, first_episode=episode)
                seed = self._seed if seed is None else seed
            self._stream, self._seed = _stream.reopen(
                old, self._seed, seed, settings,
                lambda: int(self.np_random.integers(0, 2 ** 31 - 1)))
            frame = self._stream.frame
        else:
            frame = self._stream.step([_stream.RESET])
        return self._obs(frame), self._info(frame)

    def step(self, action):
        if self._closed:
            raise _stream.ClosedEnvError()
        if self._stream is None:
            raise RuntimeError("call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"an action is an integer 0..16, not {action!r}")
        frame = self._stream.step(bytes((int(action),)))
        done = bool(frame["done"][0])
        dead = frame["discount"][0] == 0
        reward = float(frame["reward"][0]) if self._reward else 0.0
        return self._obs(frame), reward, done and dead, done and not dead, self._info(frame)

    def render(self):
        if self._closed:
            raise _stream.ClosedEnvError()
        if self.render_mode != "rgb_array" or self._stream is None:
            return None
        if self._obs_kind == "pixels":
            return self._stream.frame["obs"][0].copy()
        return self._stream.render_unchanged(0, [0], *self._render_size)[0]

    def save_state(self):
        """The game's whole state as bytes (crafter-state(5)), for
        load_state of this env or another made with the same arguments;
        copy.deepcopy and pickle use it (a copy plays on its own
        crafter-step).  After reset()."""
        if self._stream is None:
            raise RuntimeError("call reset() before save_state()")
        return self._stream.save_state(0)

    def load_state(self, state):
        """Goes back (or over) to a state from save_state; the env then goes
        on from there exactly.  A state of other parameters or bytes that
        are not one raise ValueError and change nothing."""
        if self._stream is None:
            self._stream, self._seed = _stream.reopen(
                None, self._seed, None, self._options,
                lambda: int(self.np_random.integers(0, 2 ** 31 - 1)))
        self._stream.load_state(0, state)

    def close(self):
        self._closed = True
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class KindsEnv(gymnasium.Env):
    """Crafter with several kinds of observation at once, as a Dict space
    keyed by kind (obs, a list of "pixels", "semantic", "symbolic"): one
    CrafterEnv per kind, all playing the same game in step (the same seed,
    episode and actions).  Other keyword arguments are CrafterEnv's; info
    is the first kind's env's.  A Minari dataset of several kinds recovers
    this env."""

    metadata = {"render_modes": [], "render_fps": 10}

    def __init__(self, obs=("pixels", "semantic"), seed=None, render_mode=None, **kwargs):
        kinds = [obs] if isinstance(obs, str) else list(obs)
        if not kinds or len(set(kinds)) != len(kinds):
            raise ValueError(f"obs is a list of distinct kinds, not {obs!r}")
        if render_mode is not None:
            raise ValueError("KindsEnv renders nothing: its observations hold the pixels")
        self._envs = {kind: CrafterEnv(obs=kind, seed=seed, **kwargs) for kind in kinds}
        self._seed = seed
        self._started = False
        first = self._envs[kinds[0]]
        self.observation_space = gymnasium.spaces.Dict(
            {kind: env.observation_space for kind, env in self._envs.items()})
        self.action_space = first.action_space

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None and not self._started and self._seed is None:
            # One seed for every kind's env, or each would draw its own world.
            seed = int(self.np_random.integers(0, 2 ** 31 - 1))
        self._started = True
        results = {kind: env.reset(seed=seed, options=options)
                   for kind, env in self._envs.items()}
        first = next(iter(results.values()))
        return {kind: result[0] for kind, result in results.items()}, first[1]

    def step(self, action):
        results = {kind: env.step(action) for kind, env in self._envs.items()}
        first = next(iter(results.values()))
        return ({kind: result[0] for kind, result in results.items()},) + tuple(first[1:])

    def close(self):
        for env in self._envs.values():
            env.close()


CRAFTAX_CLASSIC = "craftax-classic"


def craftax_info(frame=None, i=0):
    """A Craftax-Classic env's info: its episode so far, after a step
    (frame: the step's, env i's) or at its start (no frame).  achievements
    (22 of 0 or 1, in crafter_toolkit.ACHIEVEMENTS' order), timestep
    (Craftax's: the steps the episode has played), discount (0.0 at the step
    that ended it, else 1.0) and reward (Craftax's float32 reward, exactly,
    as a float)."""
    if frame is None:
        return {"achievements": np.zeros(22, np.int32), "timestep": 0, "discount": 1.0,
                "reward": 0.0}
    return {"achievements": frame["achievements"][i].astype(np.int32),
            "timestep": int(frame["step"][i]), "discount": float(frame["discount"][i]),
            "reward": float(frame["reward"][i])}


class CraftaxClassicEnv(gymnasium.Env):
    """Craftax-Classic through crafter-step --game craftax-classic: the game
    of craftax 1.6.1's Craftax-Classic-Symbolic-v1 and
    Craftax-Classic-Pixels-v1 with their default parameters, exact
    (crafter-games(7)), one env.  The observation is Craftax's symbolic one
    (obs="symbolic", crafter_toolkit/Craftax-Classic-Symbolic-v1: 1345
    float32 in [0, 1], as craftax's observation_space), its pixel one
    (obs="pixels", crafter_toolkit/Craftax-Classic-Pixels-v1: 63 x 63 x 3
    float32 in [0, 1], rows, columns, RGB, as craftax's observation_space)
    or none (obs="none": an empty array, the fastest); the 17 actions are
    Craftax's, in its order (crafter_toolkit.ACTIONS names them).

    Pixels are drawn with Craftax's own textures where a craftax package
    is installed (its craftax_classic/assets folder, found without
    importing craftax or jax: `pip install --no-deps craftax==1.6.1` is
    enough), and are then Craftax's observations bit for bit; textures= a
    folder names that folder, textures="builtin" takes the toolkit's own
    textures, which draw the same picture in the toolkit's colours (not
    Craftax's observations; without craftax they are the default, and a
    TexturesWarning says so once).

    Seeds follow Craftax's key schedule (crafter-games(7)): seed S is
    jax.random.PRNGKey(S), its first split resets, every step splits the
    next key.  reset(seed=S) starts over from seed S's schedule (a new
    crafter-step); the first reset without a seed takes the constructor's
    seed, else one drawn from the env's np_random (fresh entropy unless
    Gymnasium seeded it), so copies made without seeds play different
    worlds.

    Episodes end as Craftax's do, at death, in lava, or at 10000 steps, and
    every end is terminated (truncated is always False): Craftax's done,
    whose discount is 0 at the time limit too, which is what code written
    for craftax's gymnax env expects (its done stops bootstrapping, time
    limit or not).  info["timestep"] == 10000 at the end tells the time
    limit apart, for those who want to.

    Craftax resets itself (its auto-reset): the step that ends an episode
    returns, with terminated, the first observation of the next episode,
    which Craftax made from that step's key; the episode's last observation
    is not kept, by Craftax or by this env.  reset() after an episode ended
    returns that same observation and steps nothing, so the env plays the
    schedule's episodes one after the other exactly as JAX does.  reset()
    before an episode ended (right after another reset, or mid-episode)
    starts a new episode from the next key of the schedule (key, k =
    split(key); env.reset(k)): Craftax's reset with a fresh key.

    info: achievements, timestep, discount and reward of the episode
    stepped (see craftax_info): at the step that ended one, the ended
    episode's; after reset(), the new episode's start (no achievements,
    timestep 0).  No key that RecordEpisodeStatistics or Stable-Baselines3's
    Monitor writes.

    Nothing is rendered (with obs="pixels" the observation is the
    picture): metadata's render_modes is empty and the env takes no
    render_mode.

    save_state() and load_state() go back (or over) to a state, as
    CrafterEnv's do: Craftax's EnvState with the seed, episode counter and
    the schedule's key (crafter-state(5), format version 2;
    crafter_toolkit.craftax turns it into a JAX state and back).  Copies
    (copy.deepcopy, pickle) and a child of os.fork() play on a crafter-step
    of their own from this env's state."""

    metadata = {"render_modes": [], "render_fps": 10}

    def __init__(self, obs="symbolic", seed=None, timeout=None, textures=None):
        if obs not in _stream.GAMES[CRAFTAX_CLASSIC]:
            raise ValueError(f"obs must be 'symbolic', 'pixels' or 'none' for Craftax-Classic, "
                             f"not {obs!r}")
        if textures is not None and obs != "pixels":
            raise ValueError("textures are for obs='pixels': the textures pixels are drawn with")
        self._options = dict(game=CRAFTAX_CLASSIC, envs=1, obs=obs, buffers=1,
                             timeout=timeout)
        if textures is not None:
            self._options["textures"] = textures
        self._seed = None if seed is None else _stream.seed_value(seed)
        self.observation_space, self.action_space = craftax_spaces(obs)
        self._stream = None
        self._ended = False  # the last step ended an episode: the next one is there
        self._closed = False

    def _obs(self, frame):
        return frame["obs"][0].copy()

    def reset(self, *, seed=None, options=None):
        if self._closed:
            raise _stream.ClosedEnvError()
        if options and options.get("episode") is not None:
            raise ValueError("Craftax-Classic's episodes follow one key schedule a seed: "
                             "no options['episode'] (crafter-games(7))")
        super().reset(seed=seed)
        if seed is not None or self._stream is None:
            self._stream, self._seed = _stream.reopen(
                self._stream, self._seed, seed, self._options,
                lambda: int(self.np_random.integers(0, 2 ** 31 - 1)))
            frame = self._stream.frame
        elif self._ended:  # Craftax's auto-reset made it at the step that ended the last one
            frame = self._stream.frame
        else:
            frame = self._stream.step([_stream.RESET])
        self._ended = False
        return self._obs(frame), craftax_info()

    def step(self, action):
        if self._closed:
            raise _stream.ClosedEnvError()
        if self._stream is None:
            raise RuntimeError("call reset() before step()")
        if not self.action_space.contains(action):
            raise ValueError(f"an action is an integer 0..16, not {action!r}")
        frame = self._stream.step(bytes((int(action),)))
        info = craftax_info(frame)
        self._ended = bool(frame["done"][0])
        return self._obs(frame), info["reward"], self._ended, False, info

    def render(self):
        """None: the env renders nothing (with obs="pixels" the
        observation is the picture)."""
        if self._closed:
            raise _stream.ClosedEnvError()
        return None

    def save_state(self):
        """The game's whole state as bytes (crafter-state(5), format
        version 2): Craftax's EnvState word for word, with the seed, the
        episode counter and the key the schedule carries to the next step.
        load_state of this env or of another Craftax-Classic env goes on
        from it exactly, as this one would under the same actions;
        copy.deepcopy and pickle use it.  After reset()."""
        if self._closed:
            raise _stream.ClosedEnvError()
        if self._stream is None:
            raise RuntimeError("call reset() before save_state()")
        return self._stream.save_state(0)

    def load_state(self, state):
        """Goes back (or over) to a state from save_state (or
        crafter_toolkit.craftax.from_jax): the env then plays on from it
        exactly, its schedule's key included.  It is a state to play on
        from, not an ended episode: reset() right after starts the next
        key's episode.  A state crafter-step refuses (Crafter's, damaged
        bytes, values out of range) raises ValueError with its reason and
        changes nothing: the env plays on."""
        if self._closed:
            raise _stream.ClosedEnvError()
        if self._stream is None:
            self._stream, self._seed = _stream.reopen(
                None, self._seed, None, self._options,
                lambda: int(self.np_random.integers(0, 2 ** 31 - 1)))
        self._stream.load_state(0, state)
        self._ended = False

    def close(self):
        self._closed = True
        if self._stream is not None:
            self._stream.close()
            self._stream = None
