"""crafter_toolkit.minari: trajectory files as Minari datasets, read back
with minari.load_dataset and held against crafter-dataset's npz export (the
arrays of Crafter's own EpisodeRecorder) and against the recovered
environment replaying the actions; and back to crafter-score.  Skipped,
saying so, where minari is not installed (make clients-env installs it)."""

import glob
import json
import os
import struct
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest

from conftest import TOP

minari = pytest.importorskip("minari", reason="minari is not installed (make clients-env)")
pytest.importorskip("h5py", reason="h5py is not installed (make clients-env)")
pytest.importorskip("pyarrow", reason="pyarrow is not installed (make clients-env)")

from crafter_toolkit.names import ACHIEVEMENTS, ITEMS  # noqa: E402
from crafter_toolkit.trajectory import Trajectory  # noqa: E402

DATASET = os.path.join(TOP, "bin", "crafter-dataset")
SCORE = os.path.join(TOP, "bin", "crafter-score")
STEP = os.environ.get("CRAFTER_STEP", os.path.join(TOP, "bin", "crafter-step"))


@pytest.fixture(autouse=True)
def datasets(tmp_path, monkeypatch):
    """Minari's datasets in the test's folder; the built-in textures."""
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "datasets"))
    monkeypatch.delenv("CRAFTER_TEXTURES", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.path.join(TOP, "python"))


def record(path, *options):
    subprocess.run([DATASET, "record", "-q", *options, "-o", str(path)], check=True)
    return path


def convert(*args):
    return subprocess.run([sys.executable, "-m", "crafter_toolkit.minari", *map(str, args)],
                          capture_output=True, text=True)


def npz_export(path, folder):
    subprocess.run([DATASET, "export", "--format", "npz", "-o", str(folder), str(path)],
                   check=True, stdout=subprocess.DEVNULL)
    return folder


def metadata(dataset):
    return list(dataset.storage.get_episode_metadata(dataset.episode_indices))


def load(dataset_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # crafter-toolkit is on PYTHONPATH, not installed
        return minari.load_dataset(dataset_id)


def check_against_npz(dataset, folder, obs):
    """Every episode of the dataset equals the recorder's arrays of the
    same seed and episode: observations (semantic from the first step: the
    recorder's first row is zeros), actions, rewards, terminations (death),
    truncations (the time limit), achievements, inventory, position."""
    episodes = list(dataset.iterate_episodes())
    assert len(episodes) == len(os.listdir(folder)) > 0
    for episode, meta in zip(episodes, metadata(dataset)):
        name, = glob.glob(os.path.join(folder, f"s{meta['seed']}-e{meta['options']['episode']}-*"))
        arrays = np.load(name)
        if obs == "pixels":
            np.testing.assert_array_equal(episode.observations, arrays["image"])
        else:
            np.testing.assert_array_equal(episode.observations[1:], arrays["semantic"][1:])
        np.testing.assert_array_equal(episode.actions, arrays["action"][1:])
        np.testing.assert_array_equal(episode.rewards, arrays["reward"][1:])
        done, died = arrays["done"][1:], arrays["discount"][1:] == 0
        np.testing.assert_array_equal(episode.terminations, done & died)
        np.testing.assert_array_equal(episode.truncations, done & ~died)
        achievements = np.stack([arrays[f"achievement_{a}"] for a in ACHIEVEMENTS], 1)
        inventory = np.stack([arrays[f"ainventory_{i}"] for i in ITEMS], 1)
        np.testing.assert_array_equal(episode.infos["achievements"][1:], achievements[1:])
        np.testing.assert_array_equal(episode.infos["inventory"][1:], inventory[1:])
        np.testing.assert_array_equal(episode.infos["player_pos"][1:], arrays["player_pos"][1:])
    return episodes


def test_pixels_hdf5(tmp_path):
    """Pixel episodes, dead and cut by the time limit, in hdf5: the npz
    export's arrays; seeds and episodes as recorded."""
    path = record(tmp_path / "pixels.traj", "-n", "5", "--obs", "pixels", "--steps", "150",
                  "--seed", "7", "-e", "3")
    run = convert(path, "--dataset-id", "crafter/pixels-v0")
    assert run.returncode == 0, run.stderr
    dataset = load("crafter/pixels-v0")
    assert dataset.storage.FORMAT == "hdf5"
    episodes = check_against_npz(dataset, npz_export(path, tmp_path / "npz"), "pixels")
    assert {(m["seed"], m["options"]["episode"]) for m in metadata(dataset)} == {
        (7, e) for e in range(3, 8)}
    assert any(e.terminations[-1] for e in episodes) and any(e.truncations[-1] for e in episodes)
    for episode, meta in zip(episodes, metadata(dataset)):
        assert set(episode.infos["crafter_episode"]) == {meta["options"]["episode"]}


def test_semantic_arrow_recovers_the_game(tmp_path):
    """Semantic episodes in arrow; dataset.recover_environment() reset with
    an episode's seed and options and driven by its actions gives its
    observations, rewards and infos."""
    path = record(tmp_path / "semantic.traj", "-n", "3", "--obs", "semantic", "-a", "scripted",
                  "--steps", "120", "--area", "48,40")
    run = convert(path, "--dataset-id", "crafter/semantic-v1", "--data-format", "arrow")
    assert run.returncode == 0, run.stderr
    dataset = load("crafter/semantic-v1")
    assert dataset.storage.FORMAT == "arrow"
    check_against_npz(dataset, npz_export(path, tmp_path / "npz"), "semantic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = dataset.recover_environment()
    for episode, meta in zip(dataset.iterate_episodes(), metadata(dataset)):
        obs, info = env.reset(seed=meta["seed"], options=meta["options"])
        assert obs.shape == (48, 40)
        np.testing.assert_array_equal(obs, episode.observations[0])
        np.testing.assert_array_equal(info["inventory"], episode.infos["inventory"][0])
        for t, action in enumerate(episode.actions):
            obs, reward, terminated, truncated, info = env.step(action)
            np.testing.assert_array_equal(obs, episode.observations[t + 1])
            assert reward == episode.rewards[t]
            assert (terminated, truncated) == (episode.terminations[t], episode.truncations[t])
    env.close()


def test_symbolic_and_drawn_pixels(tmp_path):
    """Symbolic observations (no npz holds them) equal the recovered env's;
    a file without observations gets pixels drawn as the npz export draws
    them; two files convert into one dataset."""
    path = record(tmp_path / "symbolic.traj", "-n", "2", "--obs", "symbolic", "--seed", "4")
    run = convert(path, "--dataset-id", "crafter/symbolic-v0")
    assert run.returncode == 0, run.stderr
    dataset = load("crafter/symbolic-v0")
    assert dataset.observation_space.shape == (1345,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = dataset.recover_environment()
    for episode, meta in zip(dataset.iterate_episodes(), metadata(dataset)):
        obs, _ = env.reset(seed=meta["seed"], options=meta["options"])
        replayed = [obs] + [env.step(a)[0] for a in episode.actions]
        np.testing.assert_array_equal(np.stack(replayed), episode.observations)
    env.close()
    first = record(tmp_path / "a.traj", "-n", "2", "--seed", "9")
    second = record(tmp_path / "b.traj", "-n", "2", "--seed", "9", "-e", "3")
    run = convert(first, second, "--dataset-id", "crafter/drawn-v0", "-t", "builtin")
    assert run.returncode == 0, run.stderr
    merged = record(tmp_path / "ab.traj", "-n", "4", "--seed", "9")
    check_against_npz(load("crafter/drawn-v0"), npz_export(merged, tmp_path / "npz"), "pixels")


@pytest.mark.parametrize("data_format", ["hdf5", "arrow"])
def test_several_kinds_as_a_dict(tmp_path, data_format):
    """--obs semantic,pixels of a semantic recording: a Dict space, semantic
    as stored and pixels drawn, each the npz export's; the recovered env
    (gym.KindsEnv) plays the episodes again with both."""
    path = record(tmp_path / "semantic.traj", "-n", "2", "--obs", "semantic", "--steps", "80")
    dataset_id = f"crafter/kinds-{data_format}-v0"
    run = convert(path, "--dataset-id", dataset_id, "--obs", "semantic,pixels",
                  "--data-format", data_format, "-t", "builtin")
    assert run.returncode == 0, run.stderr
    dataset = load(dataset_id)
    assert sorted(dataset.observation_space.spaces) == ["pixels", "semantic"]
    folder = npz_export(path, tmp_path / "npz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = dataset.recover_environment()
    for episode, meta in zip(dataset.iterate_episodes(), metadata(dataset)):
        name, = glob.glob(os.path.join(folder, f"s{meta['seed']}-e{meta['options']['episode']}-*"))
        arrays = np.load(name)
        np.testing.assert_array_equal(episode.observations["pixels"], arrays["image"])
        np.testing.assert_array_equal(episode.observations["semantic"][1:],
                                      arrays["semantic"][1:])
        np.testing.assert_array_equal(episode.actions, arrays["action"][1:])
        obs, _ = env.reset(seed=meta["seed"], options=meta["options"])
        replayed = [obs] + [env.step(a)[0] for a in episode.actions]
        for kind in ("pixels", "semantic"):
            np.testing.assert_array_equal(np.stack([o[kind] for o in replayed]),
                                          episode.observations[kind])
    env.close()


def test_back_to_crafter_score(tmp_path):
    """--stats ID: Crafter's stats.jsonl of the dataset, the lines
    crafter-dataset export --format stats writes of the file, which
    crafter-score reads."""
    path = record(tmp_path / "run.traj", "-n", "6", "-a", "scripted", "--steps", "300")
    assert convert(path, "--dataset-id", "crafter/score-v0").returncode == 0
    run = convert("--stats", "crafter/score-v0")
    assert run.returncode == 0, run.stderr
    exported = subprocess.run([DATASET, "export", "--format", "stats", str(path)],
                              capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in run.stdout.splitlines()] == [
        json.loads(line) for line in exported.splitlines()]
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "stats.jsonl").write_text(run.stdout)
    score = subprocess.run([SCORE, "--format", "json", str(tmp_path / "logs" / "stats.jsonl")],
                           capture_output=True, text=True)
    assert score.returncode == 0 and json.loads(score.stdout)["methods"][0]["episodes"] == 6


def test_refusals(tmp_path):
    """Games the recovered environment cannot play, and no dataset id."""
    players = record(tmp_path / "players.traj", "-n", "1", "--players", "2", "--steps", "20")
    run = convert(players, "--dataset-id", "crafter/players-v0")
    assert run.returncode == 1 and "2 players a world" in run.stderr
    assert not os.path.exists(tmp_path / "datasets" / "crafter" / "players-v0")
    run = convert(players)
    assert run.returncode == 2 and "--dataset-id" in run.stderr
    run = convert(tmp_path / "missing.traj", "--dataset-id", "crafter/missing-v0")
    assert run.returncode == 1 and "missing.traj" in run.stderr
    semantic = record(tmp_path / "semantic.traj", "-n", "1", "--obs", "semantic", "--steps", "20")
    run = convert(semantic, "--dataset-id", "crafter/symbolic-v0", "--obs", "pixels,symbolic")
    assert run.returncode == 1 and "not symbolic ones" in run.stderr


def test_a_refused_conversion_leaves_no_dataset(tmp_path):
    """A file whose second episode is damaged: the conversion is refused
    after the first episode was written, and the id is left free (no
    dataset minari.load_dataset would read with fewer episodes, no
    leftovers), so that the same id then takes the mended file."""
    path = record(tmp_path / "run.traj", "-n", "2", "--steps", "30")
    data = bytearray(path.read_bytes())
    second = 128 + 256 + struct.unpack_from("<Q", data, 128 + 8)[0]
    data[second + 256 + 2] ^= 0xFF
    damaged = tmp_path / "damaged.traj"
    damaged.write_bytes(bytes(data))
    run = convert(damaged, "--dataset-id", "crafter/run-v0")
    assert run.returncode == 1 and f"damage at byte {second}" in run.stderr, run.stderr
    datasets = tmp_path / "datasets"
    assert not os.path.exists(datasets / "crafter" / "run-v0")
    assert [name for name in os.listdir(datasets) if name.startswith(".")] == []
    with pytest.raises(FileNotFoundError):
        load("crafter/run-v0")
    run = convert(path, "--dataset-id", "crafter/run-v0")
    assert run.returncode == 0, run.stderr
    assert load("crafter/run-v0").total_episodes == 2
    run = convert(path, "--dataset-id", "crafter/run-v0")
    assert run.returncode == 1 and "exists already" in run.stderr
    assert load("crafter/run-v0").total_episodes == 2


def test_help():
    run = convert("--help")
    assert run.returncode == 0 and "--dataset-id" in run.stdout and "--data-format" in run.stdout


# Craftax-Classic's files (crafter-games(7)): datasets of
# crafter_toolkit/Craftax-Classic-Symbolic-v1.

CRAFTAX = "craftax-classic"
CRAFTAX_ID = "crafter_toolkit/Craftax-Classic-Symbolic-v1"


def craftax_record(path, *options):
    return record(path, "--game", CRAFTAX, *options)


def listed(path):
    """crafter-dataset list's rows of the ended episodes: (seed, episode) ->
    (world key, schedule key), each a list of its two words."""
    lines = subprocess.run([DATASET, "list", str(path)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    names = lines[0].split("\t")
    rows = [dict(zip(names, line.split("\t"))) for line in lines[1:]]
    rows = [row for row in rows if row["end"] != "cut"]
    return {(int(row["seed"]), int(row["episode"])): tuple(
        [int(word, 16) for word in row[key].split(":")] for key in ("world_key", "schedule_key"))
        for row in rows}


def check_craftax_against_npz(dataset, folder, path):
    """Every episode of a Craftax-Classic dataset equals the npz export's
    replay of the same seed and episode: symbolic observations (the last
    the state the episode ended in), actions, float32 rewards, every end
    a termination, no truncation, the env's infos (achievements so far,
    timestep, discount 0 at the end, reward); its options hold its keys
    as crafter-dataset list shows them."""
    episodes = list(dataset.iterate_episodes())
    keys = listed(path)
    assert len(episodes) == len(os.listdir(folder)) == len(keys) > 0
    for episode, meta in zip(episodes, metadata(dataset)):
        options = meta["options"]
        name, = glob.glob(os.path.join(folder, f"s{meta['seed']}-e{options['episode']}-*"))
        arrays = np.load(name)
        assert episode.observations.dtype == np.float32
        np.testing.assert_array_equal(episode.observations, arrays["symbolic"])
        np.testing.assert_array_equal(episode.actions, arrays["action"][1:])
        assert episode.rewards.dtype == np.float32
        np.testing.assert_array_equal(episode.rewards, arrays["reward"][1:])
        np.testing.assert_array_equal(episode.terminations, arrays["done"][1:])
        assert not episode.truncations.any()
        achievements = np.stack([arrays[f"achievement_{a}"] for a in ACHIEVEMENTS], 1)
        np.testing.assert_array_equal(episode.infos["achievements"][1:], achievements[1:])
        assert not np.any(episode.infos["achievements"][0])
        steps = len(episode.actions)
        np.testing.assert_array_equal(episode.infos["timestep"], np.arange(steps + 1))
        np.testing.assert_array_equal(episode.infos["discount"][1:], 1.0 - arrays["done"][1:])
        np.testing.assert_array_equal(episode.infos["reward"][1:], arrays["reward"][1:])
        world_key, schedule_key = keys[meta["seed"], options["episode"]]
        assert list(options["world_key"]) == world_key
        assert list(options["schedule_key"]) == schedule_key
    return episodes


def test_craftax_classic_symbolic_hdf5(tmp_path):
    """A Craftax-Classic file with symbolic observations, on 2 envs, in
    hdf5: the spaces of crafter_toolkit/Craftax-Classic-Symbolic-v1 and the
    episodes of the npz export's replay of the same recording without
    observations; --stats gives the export's stats.jsonl lines."""
    import gymnasium
    options = ["-n", "4", "-N", "2", "--seed", "21"]
    path = craftax_record(tmp_path / "symbolic.traj", *options, "--obs", "symbolic")
    bare = craftax_record(tmp_path / "none.traj", *options)
    run = convert(path, "--dataset-id", "craftax/symbolic-v0")
    assert run.returncode == 0, run.stderr
    dataset = load("craftax/symbolic-v0")
    assert dataset.storage.FORMAT == "hdf5"
    env = gymnasium.make(CRAFTAX_ID)
    assert dataset.observation_space == env.observation_space
    assert dataset.observation_space.shape == (1345,)
    assert dataset.observation_space.dtype == np.float32
    assert dataset.action_space == env.action_space == gymnasium.spaces.Discrete(17)
    env.close()
    assert dataset.spec.env_spec.id == CRAFTAX_ID
    check_craftax_against_npz(dataset, npz_export(bare, tmp_path / "npz"), path)
    assert [(m["seed"], m["options"]["episode"]) for m in metadata(dataset)] == [
        (21, 1), (21, 2), (22, 1), (22, 2)]
    run = convert("--stats", "craftax/symbolic-v0")
    assert run.returncode == 0, run.stderr
    exported = subprocess.run([DATASET, "export", "--format", "stats", str(path)],
                              capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in run.stdout.splitlines()] == [
        json.loads(line) for line in exported.splitlines()]


def test_craftax_classic_without_observations_recovers_the_game(tmp_path):
    """A Craftax-Classic file without observations, in arrow: the
    observations are the replay's, equal to those a recording with them
    stored; dataset.recover_environment() reset with a seed and driven by
    the actions of its episodes in order gives their observations
    (Craftax's auto-reset: the step that ends one shows the next one's
    first), rewards, terminations and infos.  It cannot start an episode
    in the middle of a schedule: reset with the episode's options is
    refused."""
    options = ["-n", "6", "-N", "2", "--seed", "8"]
    path = craftax_record(tmp_path / "none.traj", *options)
    stored = craftax_record(tmp_path / "symbolic.traj", *options, "--obs", "symbolic")
    run = convert(path, "--dataset-id", "craftax/none-v0", "--data-format", "arrow")
    assert run.returncode == 0, run.stderr
    dataset = load("craftax/none-v0")
    assert dataset.storage.FORMAT == "arrow"
    episodes = check_craftax_against_npz(dataset, npz_export(path, tmp_path / "npz"), path)
    for episode, recorded in zip(episodes, Trajectory(str(stored)).episodes()):
        np.testing.assert_array_equal(episode.observations, recorded.observations)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = dataset.recover_environment()
    by_seed = {}
    for episode, meta in zip(episodes, metadata(dataset)):
        by_seed.setdefault(meta["seed"], []).append((meta["options"]["episode"], episode))
    assert sorted(by_seed) == [8, 9]
    for seed, played in by_seed.items():
        assert [number for number, _ in played] == [1, 2, 3]
        obs, info = env.reset(seed=seed)
        for (_, episode), following in zip(played, played[1:] + [(None, None)]):
            np.testing.assert_array_equal(obs, episode.observations[0])
            for t, action in enumerate(episode.actions):
                obs, reward, terminated, truncated, info = env.step(action)
                if t + 1 < len(episode.actions):
                    np.testing.assert_array_equal(obs, episode.observations[t + 1])
                elif following[1] is not None:  # the next episode's first
                    np.testing.assert_array_equal(obs, following[1].observations[0])
                assert reward == episode.rewards[t]
                assert (terminated, truncated) == (episode.terminations[t], False)
                for key in ("timestep", "discount", "reward"):
                    assert info[key] == episode.infos[key][t + 1], key
                np.testing.assert_array_equal(info["achievements"],
                                              episode.infos["achievements"][t + 1])
    meta = metadata(dataset)[1]
    with pytest.raises(ValueError, match="no options\\['episode'\\]"):
        env.reset(seed=meta["seed"], options=meta["options"])
    env.close()


def test_craftax_classic_cut_episodes_are_left_out(tmp_path):
    """crafter-step --game craftax-classic --envs 2 --record, its input
    ending mid-episode, merged (seed 3's cut episode then comes before seed
    4's ended ones): the ended episodes only, each with its own replayed
    observations, those the same play recorded with -O symbolic stores."""
    rng = np.random.default_rng(2)
    actions = "".join(f"{a} {b}\n" for a, b in rng.integers(0, 17, (250, 2)))
    files = {}
    for obs in ("none", "symbolic"):
        played = tmp_path / f"played-{obs}.traj"
        subprocess.run([STEP, "--game", CRAFTAX, "--seed", "3", "--envs", "2", "--episodes", "0",
                        "-O", obs, "--record", str(played)], input=actions, text=True,
                       check=True, stdout=subprocess.DEVNULL)
        files[obs] = tmp_path / f"merged-{obs}.traj"
        subprocess.run([DATASET, "merge", "-o", str(files[obs]), str(played)], check=True)
    ends = [(e.seed, e.end) for e in Trajectory(str(files["none"])).episodes(load=False)]
    assert ("cut" in {end for seed, end in ends if seed == 3}
            and ends.index((3, "cut")) < max(i for i, (seed, end) in enumerate(ends)
                                             if seed == 4 and end != "cut")), ends
    run = convert(files["none"], "--dataset-id", "craftax/cut-v0")
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("was cut short: left out") == [end for _, end in ends].count("cut")
    dataset = load("craftax/cut-v0")
    episodes = check_craftax_against_npz(dataset, npz_export(files["none"], tmp_path / "npz"),
                                         files["none"])
    recorded = [e for e in Trajectory(str(files["symbolic"])).episodes() if e.end != "cut"]
    assert len(episodes) == len(recorded) == len(ends) - [e for _, e in ends].count("cut")
    for episode, stored in zip(episodes, recorded):
        np.testing.assert_array_equal(episode.observations, stored.observations)


def test_craftax_classic_refusals(tmp_path):
    """Kinds and textures Craftax-Classic has not, files of two games, and
    a stored observation that is not the replay's (its checksums made
    right): refused, leaving no dataset."""
    path = craftax_record(tmp_path / "run.traj", "-n", "2", "--obs", "symbolic")
    run = convert(path, "--dataset-id", "craftax/pixels-v0", "--obs", "pixels")
    assert run.returncode == 1 and "Craftax-Classic's observations are symbolic" in run.stderr
    run = convert(path, "--dataset-id", "craftax/textures-v0", "-t", "builtin")
    assert run.returncode == 1 and "--textures, which draws pixels, is Crafter's here" in run.stderr
    crafter = record(tmp_path / "crafter.traj", "-n", "1", "--steps", "20")
    run = convert(crafter, path, "--dataset-id", "craftax/mixed-v0")
    assert run.returncode == 1 and "a dataset is of one game" in run.stderr, run.stderr
    data = bytearray(path.read_bytes())
    packed, = struct.unpack_from("<Q", data, 128 + 8)
    steps = bytearray(zlib.decompress(bytes(data[128 + 256:128 + 256 + packed])))
    steps[4 * 600:4 * 601] = struct.pack("<f", 0.5)  # a cell of the first observation
    payload = zlib.compress(bytes(steps))
    head = data[128:128 + 256]
    struct.pack_into("<Q", head, 8, len(payload))
    struct.pack_into("<I", head, 248, zlib.crc32(payload))
    struct.pack_into("<I", head, 252, zlib.crc32(bytes(head[:252])))
    changed = tmp_path / "changed.traj"
    changed.write_bytes(bytes(data[:128]) + bytes(head) + payload
                        + bytes(data[128 + 256 + packed:]))
    assert len(list(Trajectory(str(changed)).episodes())) == 2  # whole, as a file
    run = convert(changed, "--dataset-id", "craftax/changed-v0")
    assert run.returncode == 1 and "does not replay as recorded" in run.stderr, run.stderr
    assert "step 0: the observation differs (first at value 600" in run.stderr, run.stderr
    assert not os.path.exists(tmp_path / "datasets" / "craftax")
