"""Craftax-Classic's saved states from Python (crafter-state(5), format
version 2): save_state and load_state of the Gymnasium env, copies
(copy.deepcopy, pickle) and fork() of it and of CraftaxVectorEnv, each
going on exactly as the env that was not saved, across episode ends;
refused loads say crafter-step's reason and leave the env playing."""

import copy
import os
import pickle

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from test_state import forked

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

GAME = "craftax-classic"


def moves(seed, count):
    return [int(a) for a in np.random.RandomState(seed % 2 ** 32).randint(17, size=count)]


def run(env, actions):
    """What each step of a Gymnasium env gave, comparable; after an end,
    what reset() returns too (the next episode's start, not stepped)."""
    seen = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        seen.append((obs.tobytes(), reward, terminated, truncated,
                     {key: np.asarray(value).tolist() for key, value in info.items()}))
        if terminated or truncated:
            again, start = env.reset()
            seen.append(("reset", again.tobytes(), sorted(start)))
    return seen


def ends(seen):
    return sum(1 for row in seen if row[0] == "reset")


def classic(seed, steps=0):
    from crafter_toolkit.gym import CraftaxClassicEnv
    env = CraftaxClassicEnv(seed=seed)
    env.reset()
    run(env, moves(seed, steps))
    return env


@needs_gymnasium
def test_a_state_saved_at_step_50_goes_on_as_the_env_did():
    """Saved after 50 steps and loaded, in the same env and in another of
    another seed: the next 100 steps give the same observations, rewards,
    ends and infos as the env that went on; over 300 steps of four seeds,
    across episode ends too."""
    crossed = 0
    for seed in (1, 3, 4, 12):
        env = classic(seed, 50)
        state = env.save_state()
        assert state[:8] == b"CRAFTSTA" and len(state) == 33432
        later = moves(100 + seed, 300)
        went_on = run(env, later)
        env.load_state(state)
        assert run(env, later[:100]) == run_prefix(went_on, 100)
        other = classic(seed + 1000, 7)
        other.load_state(state)
        assert run(other, later) == went_on
        crossed += ends(went_on)
        env.close()
        other.close()
    assert crossed >= 3, crossed


def run_prefix(seen, steps):
    """The rows of seen that the first `steps` steps gave (resets included)."""
    rows, count = [], 0
    for row in seen:
        if row[0] != "reset":
            if count == steps:
                break
            count += 1
        rows.append(row)
    return rows


@needs_gymnasium
def test_load_before_reset_and_the_loaded_start():
    """A fresh env loads a state before any reset (its crafter-step starts
    for it) and plays on as the saver; a state is one to play on from, so
    reset() right after a load starts the next key's episode, as a reset
    mid-episode does."""
    from crafter_toolkit.gym import CraftaxClassicEnv
    env = classic(9, 60)
    state = env.save_state()
    later = moves(5, 150)
    want = run(env, later)
    fresh = CraftaxClassicEnv()
    with pytest.raises(RuntimeError, match="reset"):
        fresh.save_state()
    fresh.load_state(state)
    assert fresh.save_state() == state
    assert run(fresh, later) == want
    fresh.load_state(state)
    first, info = fresh.reset()
    env.load_state(state)
    stream = env._stream
    assert np.array_equal(first, stream.step([_stream.RESET])["obs"][0])
    assert info["timestep"] == 0
    for target in (env, fresh):
        target.close()
    with pytest.raises(crafter_toolkit.ClosedEnvError):
        env.save_state()
    with pytest.raises(crafter_toolkit.ClosedEnvError):
        env.load_state(state)


@needs_gymnasium
def test_refused_loads_say_why_and_the_env_plays_on():
    """A Crafter state, bytes that are no state, a state cut short or
    damaged: ValueError with crafter-step's reason, nothing changed, the
    same crafter-step playing on; and Crafter refuses Craftax's."""
    env = classic(2, 30)
    state = env.save_state()
    process = env._stream.process
    crafter = crafter_toolkit.Env(seed=1, obs="none")
    crafter.reset()
    crafter_state = crafter.save_state()
    damaged = bytearray(state)
    damaged[1000] ^= 1
    for wrong, reason in ((crafter_state, "a state of crafter \\(format version 1\\), not of "
                                          "craftax-classic"),
                          (b"", "not a saved state"),
                          (b"not a state at all", "not a saved state"),
                          (state[:-1], "says it has 33432"),
                          (bytes(damaged), "damaged"),
                          (state + bytes(8), "longer than one of craftax-classic")):
        with pytest.raises(ValueError, match="crafter-step refused the state: .*" + reason):
            env.load_state(wrong)
        assert env.save_state() == state
    assert env._stream.process is process and process.poll() is None
    want = run(classic(2, 30), moves(8, 40))
    assert run(env, moves(8, 40)) == want
    with pytest.raises(ValueError, match="a state of craftax-classic \\(format version 2\\), "
                                         "not of crafter"):
        crafter.load_state(state)
    env.close()
    crafter.close()


@needs_gymnasium
def test_copies_go_on_as_the_original():
    """copy.deepcopy and pickle of the env mid-episode, and right after a
    step that ended an episode (whose reset() then returns the next
    episode's start without stepping, in the copy too): each plays on as
    the original, which is left as it was."""
    env, reference = classic(4, 40), classic(4, 40)
    copied, pickled = copy.deepcopy(env), pickle.loads(pickle.dumps(env))
    assert copied._stream.process.pid != env._stream.process.pid
    later = moves(6, 300)
    want = run(reference, later)
    assert ends(want) >= 1
    for target in (copied, pickled, env):
        assert run(target, later) == want
    # Right after an end (seed 4's first episode ends within 100 steps).
    ending = classic(4)
    for step, action in enumerate(moves(4, 100), 1):
        if ending.step(action)[2]:
            break
    assert step < 100
    twin = copy.deepcopy(ending)
    first, _ = ending.reset()
    again, _ = twin.reset()
    assert np.array_equal(first, again)
    assert run(twin, later[:80]) == run(ending, later[:80])
    for target in (env, reference, copied, pickled, ending, twin):
        target.close()


def test_vector_copies_go_on_as_the_original():
    """CraftaxVectorEnv: a deepcopy and a pickle play on as the original,
    episode ends (same-step autoreset) included."""
    envs = crafter_toolkit.CraftaxVectorEnv(3, seed=50, threads=2)
    envs.reset()
    rows = np.random.RandomState(2).randint(17, size=(300, 3))
    for row in rows[:60]:
        envs.step(row)
    copied, pickled = copy.deepcopy(envs), pickle.loads(pickle.dumps(envs))

    def play(target):
        seen = []
        for row in rows[60:]:
            obs, rewards, terminated, truncated, infos = target.step(row)
            seen.append((obs.tobytes(), rewards.tobytes(), terminated.tobytes(),
                         infos["timestep"].tolist()))
        return seen

    want = play(envs)
    assert sum(np.frombuffer(row[2], bool).sum() for row in want) >= 1
    assert play(copied) == want and play(pickled) == want
    for target in (envs, copied, pickled):
        target.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
def test_fork_gives_the_child_its_own_copy():
    """After os.fork() the child plays on from the states saved at the fork,
    on a crafter-step of its own; the parent's goes on untouched."""
    vector = crafter_toolkit.CraftaxVectorEnv(2, seed=70, threads=1)
    reference = crafter_toolkit.CraftaxVectorEnv(2, seed=70, threads=1)
    rows = np.random.RandomState(3).randint(17, size=(250, 2))
    for target in (vector, reference):
        target.reset()
        for row in rows[:50]:
            target.step(row)

    def play(target):
        return [tuple(np.asarray(part).tobytes() for part in target.step(row)[:3])
                for row in rows[50:]]

    parent_pid = vector._stream.process.pid
    in_child = forked(lambda: (play(vector), vector._stream.process.pid))
    want = play(reference)
    assert in_child[0] == want and in_child[1] != parent_pid
    assert play(vector) == want
    vector.close()
    reference.close()


# -- crafter_toolkit.craftax without JAX ----------------------------------

def saved(seed, steps):
    """A Craftax-Classic state after steps random actions of seed."""
    stream = _stream.Stream(game=GAME, seed=seed)
    for action in moves(seed, steps):
        stream.step(bytes((action,)))
    state = stream.save_state(0)
    stream.close()
    return state


def with_words(state, changes):
    """state with some words of its EnvState changed ({word index: value}),
    the checksum made right again."""
    import struct
    import zlib
    data = bytearray(state)
    for index, value in changes.items():
        struct.pack_into("<I", data, 56 + 4 * index, value & 0xFFFFFFFF)
    struct.pack_into("<I", data, len(data) - 4, zlib.crc32(bytes(data[:-4])))
    return bytes(data)


def word_index(name, index=0):
    from crafter_toolkit.craftax import FIELDS
    at = 0
    for field, shape, _ in FIELDS:
        if field == name:
            return at + index
        at += int(np.prod(shape))
    raise KeyError(name)


def test_bytes_to_arrays_and_back():
    """to_arrays gives every field in EnvState's order with JAX's shapes and
    dtypes; from_arrays with the header's key, seed and episode gives the
    same bytes back, for first states and states after hundreds of steps
    (episode ends included); the words are the fields in order."""
    from crafter_toolkit import craftax
    assert len(craftax.FIELDS) == 49 and craftax.NAMES[:3] == ("map", "mob_map",
                                                              "player_position")
    assert sum(int(np.prod(shape)) for _, shape, _ in craftax.FIELDS) == 8343
    for seed, steps in ((0, 0), (4, 130), (-7, 400), (2 ** 40 + 3, 60)):
        state = saved(seed, steps)
        arrays = craftax.to_arrays(state)
        assert list(arrays) == list(craftax.NAMES)
        for name, shape, dtype in craftax.FIELDS:
            assert arrays[name].shape == shape and arrays[name].dtype == dtype, name
        head = craftax.header(state)
        assert head["seed"] == seed and head["episode"] >= 1
        assert np.array_equal(craftax.schedule_key(state), head["key"])
        assert head["key"].dtype == np.uint32 and head["key"].shape == (2,)
        assert craftax.from_arrays(arrays, head["key"], seed, head["episode"]) == state
        assert craftax.from_arrays(arrays, [int(w) for w in head["key"]], seed,
                                   head["episode"]) == state
        assert arrays["timestep"] <= steps and 0 <= arrays["player_direction"] <= 4
        words = np.frombuffer(state, "<u4", 8343, 56)
        assert words[word_index("timestep")] == arrays["timestep"]
        assert words[word_index("light_level")] == arrays["light_level"].view(np.uint32)
    assert craftax.header(saved(3, 400))["episode"] == 3  # two ends on the way


def test_no_key_is_the_seeds_key_after_its_reset():
    """key=None: the key seed's schedule carries after its reset, so a
    seed's first state written with key None is the state crafter-step
    saves for that seed, bytes for bytes (seed 5's key is JAX's
    split(PRNGKey(5))[0])."""
    from crafter_toolkit import craftax
    for seed in (0, 1, 5, 99, -1, -2 ** 31, 2 ** 33 + 5):
        state = saved(seed, 0)
        assert craftax.from_arrays(craftax.to_arrays(state), seed=seed) == state, seed
    assert craftax.schedule_key(saved(5, 0)).tolist() == [2724472204, 3573582090]


@needs_gymnasium
def test_changed_arrays_play_in_the_env():
    """A state changed as arrays (wood, a stone pickaxe, health, the light)
    loads into the Gymnasium env, which shows and saves exactly that, and
    plays on as a second env loaded with it."""
    from crafter_toolkit import craftax
    env = classic(6, 40)
    arrays = craftax.to_arrays(env.save_state())
    arrays["inventory.wood"] = np.array(5, np.int32)
    arrays["inventory.stone_pickaxe"] = np.array(1, np.int32)
    arrays["player_health"] = np.array(3, np.int32)
    arrays["light_level"] = np.array(0.25, np.float32)
    state = craftax.from_arrays(arrays, key=[1, 2], seed=77, episode=9)
    env.load_state(state)
    assert env.save_state() == state
    head = craftax.header(state)
    assert (head["seed"], head["episode"], head["key"].tolist()) == (77, 9, [1, 2])
    obs = env._stream.frame["obs"][0]
    # Counts / 10 in float16, as Craftax computes them: near, not equal.
    assert np.allclose(obs[[1323, 1330, 1335]], [0.5, 0.1, 0.3], atol=1e-3)  # wood, pickaxe, health
    assert obs[1343] == np.float32(0.25)  # the light, as it is
    other = classic(1)
    other.load_state(state)
    later = moves(12, 200)
    assert run(env, later) == run(other, later)
    env.close()
    other.close()


def test_refusals_name_what_is_wrong():
    """Bytes that are not a Craftax-Classic state are refused by to_arrays
    as crafter-step refuses them, in the same words; arrays of a wrong
    name, shape, dtype or value, and wrong keys, seeds and episodes by
    from_arrays, naming the field."""
    from crafter_toolkit import craftax
    state = saved(2, 20)
    crafter = crafter_toolkit.Env(seed=1, obs="none")
    crafter.reset()
    crafter_state = crafter.save_state()
    crafter.close()
    damaged = bytearray(state)
    damaged[500] ^= 4
    env = _stream.Stream(game=GAME, seed=2)
    for wrong, reason in ((crafter_state, "a state of crafter (format version 1), not of "
                                          "craftax-classic"),
                          (b"", "not a saved state (it does not begin with CRAFTSTA)"),
                          (state[:-2], "a saved state of 33430 bytes that says it has 33432"),
                          (bytes(damaged), "the saved state is damaged: its checksum does not "
                                           "match"),
                          (with_words(state, {word_index("map", 70): 17}),
                           "a saved state whose map[70] holds 17, no block type (0 to 16)"),
                          (with_words(state, {word_index("player_position", 1): 64}),
                           "player_position[1] holds 64, off the map (0 to 63)"),
                          (with_words(state, {word_index("cows.mask", 2): 2}),
                           "cows.mask[2] holds 2, neither 0 nor 1"),
                          (with_words(state, {word_index("arrow_directions", 3): -2}),
                           "arrow_directions[3] holds -2, not -1, 0 or 1"),
                          (with_words(state, {word_index("player_hunger"): 0x7FC00000}),
                           "player_hunger[0] holds nan, not a finite number")):
        with pytest.raises(ValueError) as refused:
            craftax.to_arrays(wrong)
        assert reason in str(refused.value)
        with pytest.raises(ValueError, match="refused the state") as theirs:
            env.load_state(0, wrong)
        assert reason in str(theirs.value), (reason, str(theirs.value))
    env.close()
    with pytest.raises(TypeError, match="a saved state is bytes"):
        craftax.to_arrays("CRAFTSTA")
    arrays = craftax.to_arrays(state)

    def refused(message, key=None, seed=0, episode=1, **changes):
        changed = dict(arrays)
        for name, value in changes.items():
            name = name.replace("__", ".")
            if value is None:
                del changed[name]
            else:
                changed[name] = value
        with pytest.raises(ValueError) as error:
            craftax.from_arrays(changed, key=key, seed=seed, episode=episode)
        assert message in str(error.value), str(error.value)

    refused("missing timestep", timestep=None)
    refused("unknown inventory.gold", inventory__gold=np.array(1, np.int32))
    refused("map has shape (32, 32), Craftax-Classic's has (64, 64)",
            map=np.zeros((32, 32), np.int32))
    refused("a batch of 4 states (vmapped)", map=np.zeros((4, 64, 64), np.int32))
    refused("map has dtype int64, Craftax-Classic's is int32", map=arrays["map"].astype(np.int64))
    refused("light_level has dtype float64", light_level=np.array(0.5))
    refused("is_sleeping is a bool, not 1", is_sleeping=1)
    corner = arrays["map"].copy()
    corner[63, 63] = 17
    refused("a state whose map[4095] holds 17, no block type (0 to 16)", map=corner)
    refused("player_direction[0] holds 5", player_direction=np.array(5, np.int32))
    refused("player_recover[0] holds inf", player_recover=np.array(np.inf, np.float32))
    refused("a key's two words are 0 to 2**32-1", key=[-1, 0])
    refused("one key, shape (2,), not a batch of keys (3, 2)", key=np.zeros((3, 2), np.uint32))
    refused("a key is a JAX PRNG key", key=[1.5, 2.5])
    refused("a key is a JAX PRNG key", key=[1, 2, 3])
    refused("seed is an integer from", seed=2 ** 62)
    refused("episode is an integer from 1 to 2147483647, not 0", episode=0)
    refused("episode is an integer, not True", episode=True)
    # Python's scalars are taken as JAX takes them.
    scalars = dict(arrays, timestep=int(arrays["timestep"]), is_sleeping=False,
                   light_level=float(arrays["light_level"]))
    head = craftax.header(state)
    assert craftax.from_arrays(scalars, head["key"], 2, head["episode"]) == state


def test_from_jax_flattens_any_envstate_alike():
    """from_jax reads EnvState's fields by name, nested dataclasses
    included: a dataclass laid out as craftax's EnvState, holding numpy
    arrays, gives the bytes its fields do; another game's state (other
    fields) and things that are no dataclass are refused; none of it
    imports jax."""
    import dataclasses
    import subprocess
    import sys
    from crafter_toolkit import craftax
    state = saved(8, 90)
    arrays = craftax.to_arrays(state)
    head = craftax.header(state)

    def layout(name, names):
        return dataclasses.make_dataclass(name, [(n, object) for n in names])

    Inventory = layout("Inventory", craftax.INVENTORY)
    Mobs = layout("Mobs", ["position", "health", "mask", "attack_cooldown"])
    top = []
    for name in craftax.NAMES:
        first = name.split(".")[0]
        if first not in top:
            top.append(first)
    EnvState = layout("EnvState", top + ["fractal_noise_angles"])

    def build(values, extra=None):
        parts = {}
        for name in top:
            if name == "inventory":
                parts[name] = Inventory(*[values["inventory." + n] for n in craftax.INVENTORY])
            elif name in dict(craftax.MOBS):
                parts[name] = Mobs(*[values[name + "." + n] for n in
                                     ("position", "health", "mask", "attack_cooldown")])
            else:
                parts[name] = values[name]
        return EnvState(**parts, fractal_noise_angles=(None,) * 4)

    fake = build(arrays)
    assert craftax.from_jax(fake, head["key"], 8, head["episode"]) == state
    assert craftax.from_jax(fake, seed=8) != state  # another key
    Bigger = dataclasses.make_dataclass("EnvState", [("player_level", object)], bases=(EnvState,))
    with pytest.raises(ValueError, match="not a Craftax-Classic EnvState.*it has player_level"):
        craftax.from_jax(Bigger(**vars(fake), player_level=np.array(0, np.int32)))
    with pytest.raises(TypeError, match="takes a JAX EnvState"):
        craftax.from_jax(arrays)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import crafter_toolkit, "
            "crafter_toolkit.craftax; assert 'jax' not in sys.modules and "
            "'craftax' not in sys.modules; print('ok')")
    run_ = subprocess.run([sys.executable, "-c", code, os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))], capture_output=True,
        text=True)
    assert run_.stdout.strip() == "ok", run_.stderr
