"""The package inside the tools researchers run: Stable-Baselines3,
Gymnasium's checkers, wrappers and vector API, crafter's README with gym.
Each test is skipped, saying so, where its client is not installed
(make clients-env installs them all)."""

import json
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pytest

import crafter_toolkit
from conftest import TOP

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

IDS = ("crafter_toolkit/Crafter-v1", "crafter_toolkit/CrafterReward-v1",
       "crafter_toolkit/CrafterNoReward-v1")
OBS_KINDS = ("pixels", "semantic", "symbolic", "none")


def sb3():
    return pytest.importorskip("stable_baselines3",
                               reason="stable-baselines3 is not installed (make clients-env)")


# -- Gymnasium ---------------------------------------------------------

@pytest.mark.parametrize("obs", OBS_KINDS)
def test_check_env_every_observation(obs):
    """gymnasium's check_env, every check and warning, for each kind."""
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make("crafter_toolkit/Crafter-v1", obs=obs, length=50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Not the checker's: the notice that these are the built-in textures.
        warnings.simplefilter("ignore", crafter_toolkit.TexturesWarning)
        check_env(env.unwrapped)
    assert env.unwrapped.metadata["render_modes"] == ["rgb_array"]
    env.close()
    # And with the render mode that SB3's make_vec_env asks for.
    env = gymnasium.make("crafter_toolkit/Crafter-v1", obs=obs, length=50,
                         render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", crafter_toolkit.TexturesWarning)
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("obs", ("semantic", "none"))
def test_render_of_other_kinds(obs):
    """render_mode="rgb_array" without pixel observations draws the view
    a pixel observation shows, and never changes the game: an env that
    renders after every step across a night plays what one that never
    renders plays, by day its pictures are the pixel env's observations,
    and at night they differ (noise: the night was crossed)."""
    from crafter_toolkit.gym import CrafterEnv
    rendering = CrafterEnv(obs=obs, seed=5, render_mode="rgb_array")
    plain = CrafterEnv(obs=obs, seed=5)
    pixels = CrafterEnv(obs="pixels", seed=5)
    assert rendering.render() is None  # before reset
    rendering.reset()
    plain.reset()
    assert np.array_equal(rendering.render(), pixels.reset()[0])
    same, night = 0, 0
    for action in np.random.RandomState(3).randint(17, size=420):
        got = rendering.step(action)
        picture = rendering.render()
        want = plain.step(action)
        seen = pixels.step(action)
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
        assert {k: np.asarray(v).tolist() for k, v in got[4].items()} == \
            {k: np.asarray(v).tolist() for k, v in want[4].items()}
        assert picture.shape == (64, 64, 3) and picture.dtype == np.uint8
        if np.array_equal(picture, seen[0]):
            same += 1
        else:
            night += 1
        if got[2] or got[3]:
            break
    assert same > 100 and night > 10, (same, night)
    for env in (rendering, plain, pixels):
        env.close()


def test_ids_and_rewards():
    """The three ids; CrafterNoReward-v1 rewards nothing, as crafter's."""
    for name in IDS:
        assert name in gymnasium.registry
        assert gymnasium.registry[name].vector_entry_point == "crafter_toolkit.vector:VectorEnv"
    rewards = {}
    for name in IDS[1:]:
        env = gymnasium.make(name, obs="none", length=300)
        env.reset(seed=4)
        rewards[name] = sum(env.step(a)[1] for a in np.random.RandomState(0).randint(17, size=300))
        env.close()
    assert rewards[IDS[1]] != 0 and rewards[IDS[2]] == 0


def test_record_episode_statistics_single():
    """gymnasium's RecordEpisodeStatistics writes info["episode"] itself."""
    env = gymnasium.wrappers.RecordEpisodeStatistics(
        gymnasium.make("crafter_toolkit/Crafter-v1", obs="none", length=30))
    env.reset(seed=1)
    for t in range(30):
        _, _, terminated, truncated, info = env.step(0)
        if terminated or truncated:
            break
    assert truncated and info["episode"]["l"] == 30
    assert "crafter_episode" in info and info["crafter_episode"] == 1
    env.close()


def test_record_episode_statistics_vector():
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        crafter_toolkit.VectorEnv(3, obs="none", length=20, seed=2))
    env.reset()
    for t in range(20):
        _, _, terminated, truncated, infos = env.step(np.zeros(3, np.int64))
    assert truncated.all() and infos["_episode"].all()
    assert infos["episode"]["l"].tolist() == [20, 20, 20]
    env.close()


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point", None])
def test_make_vec_every_mode(mode):
    """make_vec in each mode plays the same worlds from the same seed; the
    vector entry point (the default) is the fast VectorEnv."""
    envs = gymnasium.make_vec("crafter_toolkit/CrafterReward-v1", num_envs=3,
                              vectorization_mode=mode, obs="semantic", length=40)
    if mode in ("vector_entry_point", None):
        assert isinstance(envs.unwrapped, crafter_toolkit.VectorEnv)
    obs, infos = envs.reset(seed=10)
    assert obs.shape == (3, 64, 64) and envs.observation_space.contains(obs)
    reference = crafter_toolkit.VectorEnv(3, obs="semantic", length=40, seed=10)
    expected, _ = reference.reset()
    assert np.array_equal(obs, expected)
    rng = np.random.RandomState(1)
    for t in range(45):
        actions = rng.randint(17, size=3)
        got = envs.step(actions)
        want = reference.step(actions)
        assert np.array_equal(got[0], want[0]), (mode, t)
        for a, b in zip(got[1:4], want[1:4]):
            assert np.array_equal(a, b), (mode, t)
    envs.close()
    reference.close()


def test_vector_env_follows_gymnasium():
    """What Gymnasium's vector API documents, checked on VectorEnv: batched
    spaces, observations inside them, seeded resets and steps that repeat,
    next-step autoreset, arrays in infos (DictInfoToList reads them),
    close twice."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import DictInfoToList

    def run(seed):
        envs = crafter_toolkit.VectorEnv(4, obs="symbolic", length=25, seed=seed, threads=2)
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        assert envs.single_observation_space.shape == (1345,)
        assert envs.observation_space.shape == (4, 1345)
        assert envs.action_space.shape == (4,)
        steps = [envs.reset()]
        actions = np.random.RandomState(3).randint(17, size=(30, 4))
        for t in range(30):
            steps.append(envs.step(actions[t]))
            obs = steps[-1][0]
            assert obs.dtype == np.float32 and envs.observation_space.contains(obs)
        envs.close()
        envs.close()
        return steps

    first, again = run(7), run(7)
    assert data_equivalence(first, again)
    other = run(8)
    assert not np.array_equal(first[0][0], other[0][0])
    # The step after an ending restarts whatever the action, reward 0.
    truncated = [k for k, step in enumerate(first[1:], 1) if step[3].any()]
    assert truncated == [25]
    assert (first[26][1] == 0).all() and (first[26][4]["step"] == 0).all()
    listed = DictInfoToList(crafter_toolkit.VectorEnv(2, obs="none", seed=1))
    _, infos = listed.reset()
    assert isinstance(infos, list) and len(infos) == 2 and "crafter_episode" in infos[0]
    listed.close()


def test_sync_vector_worlds_differ_without_seed_and_repeat_with_one():
    """SyncVectorEnv of 4 envs reset without a seed: 4 different worlds;
    twice with the same seed: the same 4."""
    def worlds(seed):
        envs = gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make("crafter_toolkit/Crafter-v1", obs="semantic")] * 4)
        obs, _ = envs.reset(seed=seed)
        envs.close()
        return obs

    unseeded = worlds(None)
    assert len({world.tobytes() for world in unseeded}) == 4
    assert not np.array_equal(worlds(None), unseeded)
    first, second = worlds(5), worlds(5)
    assert np.array_equal(first, second) and len({world.tobytes() for world in first}) == 4
    # Env i of the sync vector seeded S plays seed S + i, as VectorEnv's env i.
    fast = crafter_toolkit.VectorEnv(4, obs="semantic", seed=5)
    assert np.array_equal(fast.reset()[0], first)
    fast.close()
    a, b = (crafter_toolkit.VectorEnv(2, obs="semantic") for _ in range(2))
    assert not np.array_equal(a.reset()[0], b.reset()[0])
    a.close()
    b.close()


# -- Stable-Baselines3 ---------------------------------------------------

def test_sb3_ppo_on_make_vec_env(tmp_path):
    """PPO("CnnPolicy") through SB3's make_vec_env and Monitor, logging
    episodes (the first log crashed while info["episode"] was an int)."""
    sb3()
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    env = make_vec_env("crafter_toolkit/Crafter-v1", n_envs=2, seed=3,
                       env_kwargs={"length": 40})
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=64, n_epochs=1, verbose=0,
                seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert len(model.ep_info_buffer) >= 4
    assert all(info["l"] == 40 for info in model.ep_info_buffer)
    env.close()


def test_sb3_make_vec_env_every_kind():
    """make_vec_env asks gym.make for render_mode="rgb_array": every
    observation kind takes it, and the vector's get_images() draws each
    env's view."""
    sb3()
    from stable_baselines3.common.env_util import make_vec_env
    for obs in ("semantic", "symbolic"):
        env = make_vec_env("crafter_toolkit/Crafter-v1", n_envs=2, seed=3,
                           env_kwargs={"obs": obs, "length": 40})
        assert env.reset().shape == (2,) + env.observation_space.shape
        env.step(np.zeros(2, np.int64))
        images = env.get_images()
        assert len(images) == 2 and all(image.shape == (64, 64, 3) for image in images)
        assert not np.array_equal(images[0], images[1])
        env.close()


def test_sb3_adapter_trains_and_logs(tmp_path):
    """PPO straight on crafter_toolkit.sb3.VecEnv under VecMonitor; its
    stats.jsonl is Crafter's, which crafter-score reads."""
    sb3()
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_checker import check_env  # noqa: F401
    from stable_baselines3.common.vec_env import VecMonitor
    from crafter_toolkit.sb3 import VecEnv
    env = VecMonitor(VecEnv(4, obs="pixels", length=50, seed=1, stats=tmp_path))
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=128, n_epochs=1, verbose=0, seed=0,
                device="cpu")
    model.learn(total_timesteps=512)
    env.close()
    assert len(model.ep_info_buffer) >= 8
    lines = (tmp_path / "stats.jsonl").read_text().splitlines()
    assert len(lines) >= 8 and json.loads(lines[0])["length"] == 50
    score = subprocess.run([os.path.join(TOP, "bin", "crafter-score"), "--format", "json",
                            str(tmp_path / "stats.jsonl")], capture_output=True, text=True)
    assert score.returncode == 0, score.stderr
    assert "score" in score.stdout


def test_sb3_adapter_autoreset_equals_vector_env():
    """The adapter's same-step autoreset, against VectorEnv's next-step one
    on the same seeds and actions: the terminal observation is the final
    one, the step's observation the next episode's first; rewards and
    dones agree; truncation is told from death."""
    sb3()
    from crafter_toolkit.sb3 import VecEnv
    fast = VecEnv(3, obs="pixels", length=30, seed=4)
    slow = crafter_toolkit.VectorEnv(3, obs="pixels", length=30, seed=4)
    got, (want, _) = fast.reset(), slow.reset()
    assert np.array_equal(got, want)
    rng = np.random.RandomState(2)
    ended = unlocked = 0
    for t in range(70):
        actions = rng.randint(17, size=3)
        fast.step_async(actions)
        obs, rewards, dones, infos = fast.step_wait()
        want, want_rewards, terminated, truncated, want_infos = slow.step(actions)
        assert np.array_equal(rewards, want_rewards) and np.array_equal(dones,
                                                                          terminated | truncated)
        if dones.any():
            restart = slow.step(actions)[0]  # VectorEnv's next-step reset
            for i in np.flatnonzero(dones):
                ended += 1
                assert np.array_equal(infos[i]["terminal_observation"], want[i])
                assert infos[i]["TimeLimit.truncated"] == bool(truncated[i])
                assert infos[i]["achievements"] == dict(
                    zip(crafter_toolkit.ACHIEVEMENTS, want_infos["achievements"][i].tolist()))
                unlocked += sum(infos[i]["achievements"].values())
            # Envs that did not end were stepped once more by VectorEnv:
            # compare only the restarted ones, then start both afresh.
            assert np.array_equal(obs[dones], restart[dones])
            fast.seed(100 + t)
            got = fast.reset()
            want, _ = slow.reset(seed=100 + t)
            assert np.array_equal(got, want)
        else:
            assert np.array_equal(obs, want)
            assert all(info == {} for info in infos)
    assert ended >= 3 and unlocked > 0
    fast.close()
    slow.close()


def test_sb3_checks_the_gymnasium_env():
    sb3()
    from stable_baselines3.common.env_checker import check_env
    env = gymnasium.make("crafter_toolkit/Crafter-v1", length=20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Not the checker's: the notice that these are the built-in textures.
        warnings.simplefilter("ignore", crafter_toolkit.TexturesWarning)
        check_env(env.unwrapped)
    env.close()


# -- crafter's README, with gym ------------------------------------------

README = """
import gym
import crafter_toolkit as crafter

env = gym.make('CrafterReward-v1')  # Or CrafterNoReward-v1
env = crafter.Recorder(
  env, './path/to/logdir',
  save_stats=True,
  save_video=SAVE_VIDEO,
  save_episode=SAVE_EPISODE,
)

obs = env.reset()
done = False
while not done:
  action = env.action_space.sample()
  obs, reward, done, info = env.step(action)
"""


@pytest.mark.parametrize("save", [False, True])
def test_crafter_readme_with_one_import_changed(tmp_path, save):
    """crafter's README snippet with `import crafter` replaced, under gym:
    the episode plays to its end and the Recorder writes crafter's files."""
    pytest.importorskip("gym", reason="gym (the OpenAI package) is not installed")
    code = README.replace("SAVE_VIDEO", str(save)).replace("SAVE_EPISODE", str(save))
    environment = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=environment,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    logdir = tmp_path / "path" / "to" / "logdir"
    line = json.loads((logdir / "stats.jsonl").read_text())
    assert line["length"] > 0 and len([k for k in line if k.startswith("achievement_")]) == 22
    files = sorted(p.name for p in logdir.iterdir())
    if not save:
        assert files == ["stats.jsonl"]
        return
    episode = [name for name in files if name.endswith(f"-len{line['length']}.npz")]
    assert len(episode) == 1, files
    data = np.load(logdir / episode[0])
    assert data["image"].shape == (line["length"] + 1, 64, 64, 3)
    assert data["action"].shape == data["reward"].shape == (line["length"] + 1,)
    stem = episode[0][:-len(".npz")]
    if any(name.endswith(".mp4") for name in files):
        assert f"{stem}.mp4" in files
        if shutil.which("ffprobe"):
            probe = subprocess.run(
                ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                 "-show_entries", "stream=nb_read_frames,width,height,codec_name",
                 "-of", "csv=p=0", str(logdir / f"{stem}.mp4")],
                capture_output=True, text=True)
            assert probe.stdout.strip() == f"h264,512,512,{line['length'] + 1}", probe
    else:
        assert f"{stem}-frames.npz" in files and "ffmpeg is not on PATH" in run.stderr


@pytest.mark.parametrize("example", [["sb3_ppo.py"], ["sb3_ppo.py", "--dummy"],
                                     ["ppo_torch.py", "--rollout", "32"]])
def test_examples_train_and_log(tmp_path, example):
    """The training examples run (briefly) and leave logs crafter-score reads,
    a line per episode with all 22 achievements."""
    pytest.importorskip("torch", reason="torch is not installed (make clients-env)")
    if example[0] == "sb3_ppo.py":
        sb3()
    environment = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    run = subprocess.run([sys.executable, os.path.join(TOP, "examples", example[0]),
                          *example[1:], "--envs", "4", "--steps", "256", "--length", "30",
                          "--logdir", str(tmp_path / "logs"), "--torch-threads", "1"],
                         env=environment, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "steps/s" in run.stdout or "steps/s" in run.stderr
    lines = [json.loads(line) for line in (tmp_path / "logs" / "stats.jsonl").open()]
    assert len(lines) >= 4 and all(line["length"] == 30 for line in lines)
    assert all(sorted(k[len("achievement_"):] for k in line if k.startswith("achievement_"))
               == sorted(crafter_toolkit.ACHIEVEMENTS) for line in lines)
    score = subprocess.run([os.path.join(TOP, "bin", "crafter-score"),
                            str(tmp_path / "logs" / "stats.jsonl")], capture_output=True, text=True)
    assert score.returncode == 0, score.stderr
