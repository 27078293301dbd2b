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
    return [int(a) for a in np.random.RandomState(seed).randint(17, size=count)]


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
    crafter = crafter_toolkit.Env(seed=1)
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
