"""Craftax-Classic from Python (crafter-games(7)): the client reads
crafter-step's streams of protocol version 3 (the game extension) and
refuses what does not add up; the Gymnasium ids under Craftax's names,
CraftaxVectorEnv and SB3's CraftaxVecEnv play JAX's worlds (the first
observations of seeds against the CRCs JAX recorded in
tests/data/craftax) and the C engine's game (binary frames against
crafter-step's JSON lines, step for step across episode ends)."""

import gzip
import json
import os
import struct
import subprocess
import warnings
import zlib

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from conftest import TOP
from test_stream import fake_child, quick, real_stream, start  # noqa: F401 (quick: a fixture)

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

GAME = "craftax-classic"
ID = "crafter_toolkit/Craftax-Classic-Symbolic-v1"
PIXELS_ID = "crafter_toolkit/Craftax-Classic-Pixels-v1"
CRCS = os.path.join(TOP, "tests", "data", "craftax", "symbolic-obs.txt.gz")
# Seeds whose first observation is held to JAX's: scattered over 0..9999.
SEEDS = (0, 1, 2, 7, 42, 123, 999, 1000, 4096, 5555, 8191, 9999)


def jax_crcs():
    """{seed: zlib CRC-32 of the float32 bytes of JAX's first observation}
    for seeds 0..9999, as tests/data/craftax records them."""
    with gzip.open(CRCS, "rt") as lines:
        return {int(seed): int(crc, 16) for seed, crc in (line.split() for line in lines)}


def crc(obs):
    return zlib.crc32(np.ascontiguousarray(obs, dtype="<f4").tobytes())


def json_lines(seed, actions=(), envs=1, info="short"):
    """crafter-step's JSON lines for Craftax-Classic: seed, a row of actions
    a step (one per env), every episode; the records as dicts."""
    text = "".join(" ".join(str(a) for a in row) + "\n" for row in actions)
    run = subprocess.run([crafter_toolkit.find_crafter_step(), "--game", GAME, "--obs",
                          "symbolic", "--seed", str(seed), "--envs", str(envs), "--episodes",
                          "0", "--info", info], input=text, capture_output=True, text=True,
                         check=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


# -- the stream: protocol version 3 ----------------------------------------

def test_a_stream_of_version_3():
    """crafter-step --game craftax-classic --binary: version 3, flag 128,
    the game's name after the header, Crafter's sections; the game is
    there to read, and a Crafter stream says "crafter"."""
    data = real_stream("--game", GAME, "--obs", "symbolic")
    version, header_bytes = struct.unpack_from("<II", data, 8)
    flags = struct.unpack_from("<I", data, 68)[0]
    assert (version, header_bytes, flags) == (3, 160, _stream.FLAG_AUTORESET | _stream.FLAG_GAME)
    assert data[128:160] == GAME.encode().ljust(32, b"\0")
    stream = _stream.Stream(game=GAME, envs=3, seed=5, threads=2)
    assert stream.game == GAME and stream.obs_kind == "symbolic" and stream.transport == "pipe"
    assert stream.frame["obs"].shape == (3, 1345) and stream.frame["obs"].dtype == np.float32
    assert stream.frame["reset"].tolist() == [1, 1, 1]
    frame = stream.step(np.array([0, _stream.RESET, 5], np.uint8))
    assert frame["reset"].tolist() == [0, 1, 0] and frame["step"].tolist() == [1, 0, 1]
    stream.close()
    crafter = _stream.Stream(obs="none")
    assert crafter.game == "crafter"
    crafter.close()


def craftax_data(**changes):
    """A real Craftax-Classic stream's header and first frame, with the
    version or the game's name changed."""
    data = real_stream("--game", GAME, "--obs", "symbolic")
    if "version" in changes:
        struct.pack_into("<I", data, 8, changes["version"])
    if "name" in changes:
        data[128:160] = changes["name"].ljust(32, b"\0")
    return data


@pytest.mark.parametrize("case", ["version 2 with the flag", "version 3 without the flag",
                                  "an unknown game", "no game named", "bytes after the name",
                                  "crafter for craftax", "craftax for crafter"])
def test_version_3_streams_that_do_not_add_up(tmp_path, quick, case):  # noqa: F811
    """Each refused with CrafterStepError saying what is wrong, never read
    as something else."""
    game, expected = GAME, None
    if case == "version 2 with the flag":
        data, expected = craftax_data(version=2), "version 2 with the game extension (flag 128)"
    elif case == "version 3 without the flag":
        data, game = real_stream("--obs", "none"), "crafter"
        struct.pack_into("<I", data, 8, 3)
        expected = "version 3 without the game extension (flag 128)"
    elif case == "an unknown game":
        data = craftax_data(name=b"craftax-full")
        expected = ("a stream of the game 'craftax-full', which this client does not play "
                    "(it plays crafter, craftax-classic)")
    elif case == "no game named":
        data, expected = craftax_data(name=b""), "a game extension that is not a name"
    elif case == "bytes after the name":
        data = craftax_data(name=GAME.encode() + b"\0x")
        expected = "a game extension that is not a name padded with NUL bytes"
    elif case == "crafter for craftax":
        data = real_stream("--obs", "symbolic")
        expected = "a stream of Crafter (protocol version 2), not of craftax-classic"
    else:
        data, game = craftax_data(), "crafter"
        expected = "a stream of craftax-classic, not of the crafter asked for"
    message, seconds = start(fake_child(tmp_path, data), game=game, obs="symbolic"
                             if game == GAME or case == "craftax for crafter" else "none")
    assert expected in message, message
    assert seconds < 30


def test_crafters_options_are_refused():
    """Options of Crafter's world, rules and requests: refused by name
    before anything starts, or (render) before a request would end the
    stream."""
    for options, named in ((dict(length=500), "length is Crafter's"),
                           (dict(area=(32, 32), textures="builtin"), "area and textures are"),
                           (dict(obs="pixels", size=(32, 32), textures="builtin"), "size is"),
                           (dict(transport="shm"), "transport='shm' is"),
                           (dict(players=2), "players is"),
                           (dict(obs="semantic"), "obs must be one of symbolic, none, pixels")):
        with pytest.raises(ValueError, match=named):
            _stream.Stream(game=GAME, **options)
    with pytest.raises(ValueError, match="game must be one of crafter, craftax-classic"):
        _stream.Stream(game="craftax")
    stream = _stream.Stream(game=GAME, obs="none")
    with pytest.raises(NotImplementedError,
                       match="does not answer render requests for craftax-classic"):
        stream.render(0, 64, 64)
    assert stream.step(b"\0")["step"][0] == 1  # the stream goes on
    stream.close()


# -- JAX's worlds and the C engine's -------------------------------------

@needs_gymnasium
def test_first_observations_are_jaxs():
    """reset(seed=S): the first observation of seed S's schedule, bit for
    bit JAX's (its CRC as recorded) and crafter-step's JSON lines'."""
    crcs = jax_crcs()
    assert len(crcs) == 10000
    env = gymnasium.make(ID)
    for seed in SEEDS:
        obs, info = env.reset(seed=seed)
        assert obs.shape == (1345,) and obs.dtype == np.float32 and obs in env.observation_space
        assert crc(obs) == crcs[seed], seed
        record = json_lines(seed)[0]
        assert record["reset"] == 1
        assert np.array_equal(np.array(record["obs"], np.float32), obs), seed
        assert info["timestep"] == 0 and not info["achievements"].any()
    env.close()


def test_vector_first_observations_are_jaxs():
    """CraftaxVectorEnv's env i plays seed S + i: the last 16 seeds JAX
    recorded, in one crafter-step of two threads."""
    crcs = jax_crcs()
    envs = crafter_toolkit.CraftaxVectorEnv(16, seed=9984, threads=2)
    obs, infos = envs.reset()
    assert [crc(row) for row in obs] == [crcs[seed] for seed in range(9984, 10000)]
    obs, _ = envs.reset(seed=list(range(4, 20)))
    assert [crc(row) for row in obs] == [crcs[seed] for seed in range(4, 20)]
    envs.close()


def test_binary_frames_equal_json_lines():
    """300 random steps of 4 envs through CraftaxVectorEnv (the binary
    protocol) and through crafter-step's JSON lines: the same observations,
    rewards (Craftax's float32), dones, discounts, timesteps and
    achievements, across the episodes' ends and Craftax's auto-reset."""
    seed, steps, n = 11, 300, 4
    actions = np.random.RandomState(5).randint(17, size=(steps, n))
    records = json_lines(seed, actions, envs=n, info="state")
    resets = [records.pop(0) for _ in range(n)]
    envs = crafter_toolkit.CraftaxVectorEnv(n, seed=seed)
    obs, _ = envs.reset()
    for i in range(n):
        assert np.array_equal(np.array(resets[i]["obs"], np.float32), obs[i])
    ends = 0
    for t in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(actions[t])
        assert not truncated.any()
        for i in range(n):
            record = records.pop(0)
            assert record["env"] == i and "t" in record, (t, record.keys())
            assert np.float32(record["reward"]) == rewards[i], (t, i)
            assert record["done"] == bool(terminated[i])
            ended = infos["final_info"] if terminated[i] else infos
            assert ended["reward"][i] == rewards[i]
            assert record["discount"] == ended["discount"][i] == (0.0 if terminated[i] else 1.0)
            assert record["t"] == ended["timestep"][i]
            assert [record["achievements"][name] for name in crafter_toolkit.ACHIEVEMENTS] == \
                ended["achievements"][i].tolist()
            assert np.array_equal(np.array(record["obs"], np.float32), obs[i]), (t, i)
            if terminated[i]:
                ends += 1
                reset = records.pop(0)  # the next episode's first observation, again
                assert reset["env"] == i and "reset" in reset
                assert np.array_equal(np.array(reset["obs"], np.float32), obs[i])
                assert infos["timestep"][i] == 0 and not infos["achievements"][i].any()
    assert records == [] and ends >= 3, ends
    envs.close()


# -- the Gymnasium env -------------------------------------------------------

@needs_gymnasium
def test_ids_are_registered():
    """Craftax's names beside Crafter's, each with its vector entry point;
    the pixels id is the same env with obs "pixels" (its observations:
    test_craftax_pixels.py)."""
    spec = gymnasium.spec(ID)
    assert spec.entry_point == "crafter_toolkit.gym:CraftaxClassicEnv"
    assert spec.vector_entry_point == "crafter_toolkit.vector:CraftaxVectorEnv"
    env = gymnasium.make(ID)
    assert env.observation_space == gymnasium.spaces.Box(0.0, 1.0, (1345,), np.float32)
    assert env.action_space == gymnasium.spaces.Discrete(17)
    env.close()
    spec = gymnasium.spec(PIXELS_ID)
    assert spec.entry_point == "crafter_toolkit.gym:CraftaxClassicEnv"
    assert spec.vector_entry_point == "crafter_toolkit.vector:CraftaxVectorEnv"
    assert spec.kwargs == {"obs": "pixels"}
    assert "crafter_toolkit/Crafter-v1" in gymnasium.registry


@needs_gymnasium
def test_check_env():
    """gymnasium's check_env, every check and warning an error."""
    from gymnasium.utils.env_checker import check_env
    for obs in ("symbolic", "none"):
        env = gymnasium.make(ID, obs=obs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env.unwrapped)
        env.close()


@needs_gymnasium
def test_sb3_checks_the_env():
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed")
    from stable_baselines3.common.env_checker import check_env
    env = gymnasium.make(ID)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


@needs_gymnasium
def test_episodes_end_and_reset_as_craftaxs():
    """terminated at Craftax's done (truncated never); the ending step's
    observation is the next episode's first, which reset() then returns
    (a copy) without stepping; reset() mid-episode starts the next key's
    episode, as action 255 does; seeded resets repeat."""
    from crafter_toolkit.gym import CraftaxClassicEnv
    env = CraftaxClassicEnv(seed=3)
    first, info = env.reset()
    assert crc(first) == jax_crcs()[3]
    rng = np.random.RandomState(0)
    ends, steps = 0, 0
    while ends < 2:
        obs, reward, terminated, truncated, info = env.step(int(rng.randint(17)))
        steps += 1
        assert not truncated and type(reward) is float and reward == info["reward"]
        assert info["timestep"] == steps and info["discount"] == (0.0 if terminated else 1.0)
        if terminated:
            ends += 1
            again, start_info = env.reset()
            assert np.array_equal(again, obs) and again is not obs
            assert start_info["timestep"] == 0 and not start_info["achievements"].any()
            steps = 0
    # Mid-episode: the next key of the schedule, as the stream's reset byte.
    env.reset(seed=8)
    env.step(3)
    mid, _ = env.reset()
    stream = _stream.Stream(game=GAME, seed=8)
    stream.step(b"\3")
    assert np.array_equal(mid, stream.step([_stream.RESET])["obs"][0])
    stream.close()
    # A reset right after a reset starts another world too.
    assert not np.array_equal(env.reset()[0], mid)
    assert np.array_equal(env.reset(seed=3)[0], first)
    with pytest.raises(ValueError, match="options\\['episode'\\]"):
        env.reset(options={"episode": 2})
    with pytest.raises(ValueError, match="integer 0..16"):
        env.step(17)
    with pytest.raises(ValueError, match="'symbolic', 'pixels' or 'none'"):
        CraftaxClassicEnv(obs="semantic")
    env.close()


@needs_gymnasium
def test_unseeded_envs_differ():
    from crafter_toolkit.gym import CraftaxClassicEnv
    worlds = set()
    for _ in range(3):
        env = CraftaxClassicEnv()
        worlds.add(env.reset()[0].tobytes())
        env.close()
    assert len(worlds) == 3


# -- the VectorEnv -------------------------------------------------------

@needs_gymnasium
def test_vector_env_is_a_same_step_vector_of_the_env():
    """make_vec's vector entry point, CraftaxVectorEnv, plays what
    Gymnasium's SyncVectorEnv of CraftaxClassicEnv in same-step autoreset
    plays, seeded alike: observations, rewards, terminations and infos,
    final_info included (no final_obs: Craftax keeps none); Gymnasium's
    RecordEpisodeStatistics counts its episodes right."""
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics
    from crafter_toolkit.gym import CraftaxClassicEnv
    fast = RecordEpisodeStatistics(gymnasium.make_vec(ID, num_envs=4))
    assert isinstance(fast.unwrapped, crafter_toolkit.CraftaxVectorEnv)
    assert fast.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert fast.observation_space.shape == (4, 1345) and fast.action_space.shape == (4,)
    sync = gymnasium.vector.SyncVectorEnv([CraftaxClassicEnv] * 4,
                                          autoreset_mode=AutoresetMode.SAME_STEP)
    got, want = fast.reset(seed=21), sync.reset(seed=21)
    assert np.array_equal(got[0], want[0])
    rng = np.random.RandomState(4)
    ends = 0
    for t in range(300):
        actions = rng.randint(17, size=4)
        got, want = fast.step(actions), sync.step(actions)
        for a, b in zip(got[:4], want[:4]):
            assert np.array_equal(a, b), t
        assert got[0] in fast.observation_space
        for key in ("achievements", "timestep", "discount", "reward"):
            assert np.array_equal(got[4][key], want[4][key]), (t, key)
        if got[2].any():
            ends += got[2].sum()
            done = got[4]["_final_info"]
            assert np.array_equal(done, got[2]) and "final_obs" not in got[4]
            for key in ("achievements", "timestep", "discount", "reward"):
                assert np.array_equal(got[4]["final_info"][key][done],
                                      want[4]["final_info"][key][done]), (t, key)
            assert np.array_equal(got[4]["episode"]["l"][done],
                                  got[4]["final_info"]["timestep"][done])
    assert ends >= 3, ends
    fast.close()
    fast.close()
    sync.close()
    listed = DictInfoToList(crafter_toolkit.CraftaxVectorEnv(2, seed=1))
    _, infos = listed.reset()
    assert isinstance(infos, list) and len(infos) == 2 and "achievements" in infos[0]
    listed.close()


def test_vector_resets():
    """Seeded resets repeat, unseeded ones start the next keys' episodes;
    wrong actions are refused."""
    envs = crafter_toolkit.CraftaxVectorEnv(3, seed=30, obs="none")
    assert envs.reset()[0].shape == (3, 0)
    envs.close()
    envs = crafter_toolkit.CraftaxVectorEnv(3, seed=30)
    first, _ = envs.reset()
    envs.step(np.array([1, 2, 3]))
    following, infos = envs.reset()
    assert not any(np.array_equal(a, b) for a, b in zip(first, following))
    assert infos["timestep"].tolist() == [0, 0, 0]
    assert np.array_equal(envs.reset(seed=30)[0], first)
    for actions in (np.zeros(2, int), np.full(3, 17), np.zeros(3, float)):
        with pytest.raises(ValueError):
            envs.step(actions)
    envs.close()


# -- Stable-Baselines3 ---------------------------------------------------

def sb3():
    return pytest.importorskip("stable_baselines3",
                               reason="stable-baselines3 is not installed (make clients-env)")


def test_sb3_adapter_equals_vector_env():
    """CraftaxVecEnv is the VectorEnv in SB3's words: the same observations,
    rewards and dones; at an end TimeLimit.truncated False and the ended
    episode's achievements by name; seed(S) then reset() is seed S's."""
    sb3()
    from crafter_toolkit.sb3 import CraftaxVecEnv
    adapter = CraftaxVecEnv(3, seed=40)
    vector = crafter_toolkit.CraftaxVectorEnv(3, seed=40)
    assert np.array_equal(adapter.reset(), vector.reset()[0])
    rng = np.random.RandomState(6)
    ends = 0
    for t in range(250):
        actions = rng.randint(17, size=3)
        adapter.step_async(actions)
        obs, rewards, dones, infos = adapter.step_wait()
        want = vector.step(actions)
        assert np.array_equal(obs, want[0]) and np.array_equal(rewards, want[1])
        assert np.array_equal(dones, want[2])
        for i in range(3):
            if dones[i]:
                ends += 1
                assert infos[i]["TimeLimit.truncated"] is False
                assert list(infos[i]["achievements"].values()) == \
                    want[4]["final_info"]["achievements"][i].tolist()
            else:
                assert infos[i] == {}
    assert ends >= 2, ends
    adapter.seed(7)
    assert [crc(row) for row in adapter.reset()] == [jax_crcs()[s] for s in (7, 8, 9)]
    adapter.close()
    vector.close()


def test_sb3_ppo_trains_on_the_vector_env():
    """PPO("MlpPolicy") a few thousand steps on CraftaxVecEnv under
    VecMonitor: it learns without error and logs the episodes."""
    sb3()
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor
    from crafter_toolkit.sb3 import CraftaxVecEnv
    env = VecMonitor(CraftaxVecEnv(8, seed=0))
    model = PPO("MlpPolicy", env, n_steps=256, batch_size=256, n_epochs=1, verbose=0, seed=0,
                device="cpu")
    model.learn(total_timesteps=4096)
    assert len(model.ep_info_buffer) >= 8
    assert all(info["l"] > 0 for info in model.ep_info_buffer)
    env.close()


# -- closed environments -------------------------------------------------

@needs_gymnasium
@pytest.mark.parametrize("kind", ["CraftaxClassicEnv", "CraftaxVectorEnv", "CraftaxVecEnv"])
def test_use_after_close(kind):
    if kind == "CraftaxClassicEnv":
        env = gymnasium.make(ID, seed=1).unwrapped
        env.reset()
        calls = [env.reset, lambda: env.reset(seed=2), lambda: env.step(0), env.render]
    elif kind == "CraftaxVectorEnv":
        env = crafter_toolkit.CraftaxVectorEnv(2, seed=1)
        env.reset()
        calls = [env.reset, lambda: env.reset(seed=2), lambda: env.step(np.zeros(2, int))]
    else:
        sb3()
        from crafter_toolkit.sb3 import CraftaxVecEnv
        env = CraftaxVecEnv(2, seed=1)
        env.reset()
        calls = [env.reset, lambda: env.step(np.zeros(2, int))]
    env.close()
    env.close()
    for call in calls:
        with pytest.raises(crafter_toolkit.ClosedEnvError):
            call()
