"""Exact state copies (crafter-state(5)): save_state and load_state,
copy.deepcopy and pickle of the environments, and fork(): a copy goes on
exactly as the original does under the same actions (observations,
rewards, done, info), across nights, deaths and episode ends, with one
player and several; the original is left as it was; a state of other
parameters is refused."""

import copy
import os
import pickle
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP


def actions(seed, count, low_noop=True):
    """Random actions, two in three noops: a player that stays alive long
    enough to see the night."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, 17, count)
    if low_noop:
        drawn[rng.random(count) < 2 / 3] = 0
    return [int(a) for a in drawn]


def play(env, moves):
    """Steps through moves (resetting after each end): what each step gave,
    with every info entry, as comparable values."""
    seen = []
    for action in moves:
        obs, reward, done, info = env.step(action)
        seen.append((None if obs is None else obs.tobytes(), reward, done,
                     {key: np.asarray(value).tolist() for key, value in info.items()}))
        if done:
            env.reset()
            seen.append("reset")
    return seen


def brightness(env):
    """The mean of the view drawn now (darker at night)."""
    return float(env.render().mean())


def test_save_load_goes_back_exactly_across_a_night():
    env = crafter_toolkit.Env(seed=3, length=400)
    env.reset()
    play(env, actions(1, 150))
    state = env.save_state()
    assert state[:8] == b"CRAFTSTA"
    moves = actions(2, 300)
    first = play(env, moves)
    env.load_state(state)
    second = play(env, moves)
    assert first == second
    # Those 300 steps went through the night: frames darker than the day's.
    env.load_state(state)
    day = brightness(env)
    lights = []
    for action in moves[:120]:
        obs = env.step(action)[0]
        lights.append(obs.mean())
    assert min(lights) < 0.8 * day
    env.close()


def test_deepcopy_and_pickle_go_on_as_the_original():
    original = crafter_toolkit.Env(seed=5, length=300)
    reference = crafter_toolkit.Env(seed=5, length=300)
    for env in (original, reference):
        env.reset()
        play(env, actions(3, 180))
    copied = copy.deepcopy(original)
    pickled = pickle.loads(pickle.dumps(original))
    assert copied._stream.process.pid != original._stream.process.pid
    moves = actions(4, 260)
    expected = play(reference, moves)
    for env in (copied, pickled, original):  # the original was left as it was
        assert play(env, moves) == expected
    for env in (original, reference, copied, pickled):
        env.close()


def test_pickle_loads_in_a_fresh_process(tmp_path):
    env = crafter_toolkit.Env(seed=8, obs="semantic")
    env.reset()
    play(env, actions(5, 90))
    (tmp_path / "env.pickle").write_bytes(pickle.dumps(env))
    moves = actions(6, 120)
    expected = play(env, moves)
    script = ("import pickle, sys, numpy as np\n"
              f"sys.path.insert(0, {os.path.join(TOP, 'python')!r})\n"
              f"env = pickle.loads(open({str(tmp_path / 'env.pickle')!r}, 'rb').read())\n"
              f"rows = []\n"
              f"for action in {moves!r}:\n"
              "    obs, reward, done, info = env.step(action)\n"
              "    rows.append((obs.tobytes(), reward, done))\n"
              "    if done: env.reset()\n"
              "sys.stdout.buffer.write(pickle.dumps(rows))\n")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    rows = pickle.loads(child.stdout)
    assert rows == [(obs, reward, done) for obs, reward, done, _ in
                    (row for row in expected if row != "reset")]
    env.close()


def test_several_players():
    env = crafter_toolkit.ParallelEnv(players=3, seed=2, length=300, obs="symbolic")
    env.reset()
    rng = np.random.default_rng(7)

    def run(target, steps):
        seen = []
        for _ in range(steps):
            if not target.agents:
                target.reset()
                seen.append("reset")
                continue
            moves = {agent: int(rng.integers(17)) for agent in target.agents}
            obs, rewards, terminations, truncations, infos = target.step(moves)
            seen.append(({a: o.tobytes() for a, o in obs.items()}, rewards, terminations,
                         truncations, {a: {k: np.asarray(v).tolist() for k, v in i.items()}
                                       for a, i in infos.items()}))
        return seen

    run(env, 200)
    state, agents = env.save_state(), list(env.agents)
    copied = copy.deepcopy(env)
    rng = np.random.default_rng(8)
    first = run(env, 250)
    env.load_state(state)
    assert env.agents == agents
    rng = np.random.default_rng(8)
    assert run(env, 250) == first
    rng = np.random.default_rng(8)
    assert run(copied, 250) == first
    env.close()
    copied.close()


def with_player_one_dead(state, area):
    """A two-player state (crafter-state(5)) made into one where player 1
    has died and player 0 lives: player 1's health 0 and its episode
    ended (bit 1 of the runner's done), the checksum made right again."""
    state = bytearray(state)
    players, width, height = 2, area[0], area[1]
    assert struct.unpack_from("<I", state, 60)[0] == players
    struct.pack_into("<i", state, 2648 + 212 * 1 + 8, 0)  # player 1's inventory: health
    at = 2648 + 212 * players + width * height
    at += 4 + 20 * struct.unpack_from("<I", state, at)[0]  # the objects
    at += 4 + 2 * struct.unpack_from("<I", state, at)[0]  # the chunks touched
    done = struct.unpack_from("<I", state, at + 12)[0]
    assert done == 0
    struct.pack_into("<I", state, at + 12, 2)
    struct.pack_into("<I", state, len(state) - 4, zlib.crc32(bytes(state[:-4])))
    return bytes(state)


def test_loaded_done_flags_are_each_players_own():
    """A state where player 1 has died and player 0 lives loads with done
    [0, 1]: `agents` is player 0 alone, and player 0 plays on."""
    source = crafter_toolkit.ParallelEnv(players=2, seed=5, obs="semantic")
    source.reset()
    state = with_player_one_dead(source.save_state(), (64, 64))
    source.close()
    env = crafter_toolkit.ParallelEnv(players=2, seed=9, obs="semantic")
    env.reset()
    env.load_state(state)
    assert env._stream.frame["done"].tolist() == [0, 1]
    assert env.agents == ["player_0"]
    obs, rewards, terminations, truncations, infos = env.step({"player_0": 0})
    assert list(obs) == ["player_0"] and not terminations["player_0"]
    env.close()


def test_gymnasium_env():
    pytest.importorskip("gymnasium")
    from crafter_toolkit.gym import CrafterEnv
    env = CrafterEnv(seed=4, length=300, render_mode="rgb_array")
    env.reset()
    for action in actions(9, 170):
        if any(env.step(action)[2:4]):
            env.reset()
    copied = copy.deepcopy(env)
    assert np.array_equal(copied.render(), env.render())
    state = env.save_state()
    moves = actions(10, 200)

    def run(target):
        seen = []
        for action in moves:
            obs, reward, terminated, truncated, info = target.step(action)
            seen.append((obs.tobytes(), reward, terminated, truncated,
                         {k: np.asarray(v).tolist() for k, v in info.items()}))
            if terminated or truncated:
                target.reset()
        return seen

    first = run(env)
    assert run(copied) == first
    env.load_state(state)
    assert run(env) == first
    fresh = CrafterEnv(length=300)
    fresh.load_state(state)  # before any reset: starts its crafter-step for the state
    assert run(fresh) == first
    for target in (env, copied, fresh):
        target.close()


def test_refusals():
    env = crafter_toolkit.Env(seed=1)
    env.reset()
    state = env.save_state()
    other = crafter_toolkit.Env(seed=1, area=(48, 48))
    with pytest.raises(ValueError, match="area 64x64; this env's is 48x48"):
        other.load_state(state)
    for damaged in (b"", b"not a state", state[:-1], state[:100] + bytes([state[100] ^ 1])
                    + state[101:]):
        with pytest.raises(ValueError, match="refused the state"):
            env.load_state(damaged)
    assert play(env, [5]) and env.save_state() != state  # still playing
    for env_ in (env, other):
        env_.close()


def test_states_too_long_are_refused_and_the_env_plays_on():
    """A state longer than any of the env's parameters (16 players'
    pictures of 128x128 into an env of 64x64, a megabyte of zeros) is
    refused as any other: ValueError, nothing changed, the same
    crafter-step playing on."""
    big = crafter_toolkit.ParallelEnv(players=16, size=(128, 128), seed=1)
    big.reset()
    state = big.save_state()
    big.close()
    env = crafter_toolkit.ParallelEnv(players=16, seed=1)
    env.reset()
    env.step({agent: 5 for agent in env.agents})
    before, agents, process = env.save_state(), list(env.agents), env._stream.process
    for wrong in (state, bytes(1 << 20)):
        with pytest.raises(ValueError, match="longer than one of these parameters can be"):
            env.load_state(wrong)
        assert env.save_state() == before and env.agents == agents
    assert env._stream.process is process and process.poll() is None
    obs, rewards, terminations, truncations, infos = env.step({agent: 1 for agent in agents})
    assert sorted(obs) == sorted(agents)
    env.close()
    single = crafter_toolkit.Env(seed=2)
    single.reset()
    with pytest.raises(ValueError, match="a state of 1048576 bytes, longer than"):
        single.load_state(bytes(1 << 20))
    assert play(single, [5, 0])
    single.close()


def test_recording_envs_are_not_copied(tmp_path):
    recording = crafter_toolkit.Env(seed=1, record=tmp_path / "run.traj")
    with pytest.raises(TypeError, match="record"):
        copy.deepcopy(recording)
    recording.reset()
    state = recording.save_state()  # saving is fine
    with pytest.raises(ValueError, match="recording cannot hold a jump"):
        recording.load_state(state)
    recording.close()
    logging = crafter_toolkit.Env(seed=1, stats=tmp_path / "stats")
    with pytest.raises(TypeError, match="stats"):
        pickle.dumps(logging)
    with pytest.raises(ValueError, match="stats"):
        logging.load_state(state)
    logging.close()


def forked(run_child):
    """Forks: the child runs run_child() and sends its pickled result
    through a pipe; returns that result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        status = 0
        try:
            data = pickle.dumps(run_child())
        except BaseException as error:  # said to the parent
            data = pickle.dumps(("error", repr(error)))
            status = 1
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
def test_fork_gives_the_child_its_own_copy():
    env = crafter_toolkit.Env(seed=6, length=300)
    reference = crafter_toolkit.Env(seed=6, length=300)
    for target in (env, reference):
        target.reset()
        play(target, actions(11, 160))
    moves = actions(12, 220)
    parent_pid = env._stream.process.pid
    in_child = forked(lambda: (env._stream.process is None and env._stream._inherited is not None,
                               play(env, moves), env._stream.process.pid))
    expected = play(reference, moves)
    assert in_child[0], "the child holds none of the parent's crafter-step"
    assert in_child[1] == expected and in_child[2] != parent_pid
    assert env._stream.process.pid == parent_pid
    assert play(env, moves) == expected  # the parent, untouched
    env.close()
    reference.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
def test_fork_with_a_vector_env():
    vector = crafter_toolkit.VectorEnv(3, obs="semantic", seed=4, length=120, threads=2)
    reference = crafter_toolkit.VectorEnv(3, obs="semantic", seed=4, length=120, threads=2)
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 17, (300, 3))
    for target in (vector, reference):
        target.reset()
        for row in rows[:100]:
            target.step(row)

    def run(target):
        return [tuple(np.asarray(part).tobytes() for part in target.step(row)[:4])
                for row in rows[100:]]

    in_child = forked(lambda: run(vector))
    expected = run(reference)
    assert in_child == expected
    assert run(vector) == expected
    vector.close()
    reference.close()
