"""crafter_toolkit.ray on a local Ray cluster of two nodes (a head and a
second node, one CPU each, ray.cluster_utils.Cluster): a dataset recorded
across both is the file crafter-dataset record writes on one machine,
also when a node dies in the middle; RLlib's PPO trains on the registered
env.  Skipped, saying so, where ray is not installed (make clients-env
installs it)."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import TOP

ray = pytest.importorskip("ray", reason="ray is not installed (make clients-env)")
from ray.cluster_utils import Cluster  # noqa: E402
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: E402

DATASET = os.path.join(TOP, "bin", "crafter-dataset")
SCORE = os.path.join(TOP, "bin", "crafter-score")


@pytest.fixture
def ray_temp(tmp_path_factory, monkeypatch):
    """Ray's session files in a folder of the test's own (RAY_TMPDIR),
    crafter_toolkit importable in its workers, and no Ray process left."""
    folder = tmp_path_factory.mktemp("ray")
    monkeypatch.setenv("RAY_TMPDIR", str(folder))
    paths = [os.path.join(TOP, "python")] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    monkeypatch.delenv("CRAFTER_TEXTURES", raising=False)
    yield folder
    assert not ray.is_initialized()


def start_cluster(second_node_env=None):
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    node = cluster.add_node(num_cpus=1, env_vars=second_node_env)
    cluster.wait_for_nodes()
    return cluster, node


@pytest.fixture
def cluster(ray_temp):
    cluster, node = start_cluster()
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def one_machine(path, options):
    subprocess.run([DATASET, "record", "-q", *options, "-o", str(path)], check=True)
    return path.read_bytes()


def test_record_across_two_nodes(cluster, tmp_path):
    """python -m crafter_toolkit.ray record on both nodes, in 5 shards and
    in 1: the bytes crafter-dataset record writes on one machine, for
    Crafter and for Craftax-Classic; a bad option is crafter-dataset's
    refusal."""
    options = ["-n", "10", "--obs", "semantic", "--seed", "3", "--first-episode", "4"]
    expected = one_machine(tmp_path / "one.traj", options)
    for shards in ("5", "1"):
        output = tmp_path / f"ray-{shards}.traj"
        run = subprocess.run(
            [sys.executable, "-m", "crafter_toolkit.ray", "record", "--address", cluster.address,
             "--shards", shards, *options, "-o", str(output)],
            capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert output.read_bytes() == expected
        nodes = "2 nodes" if shards == "5" else "1 node"
        assert f"10 episodes in {shards} shards on {nodes}" in run.stderr
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".crafter-ray-")]
    # Craftax-Classic (crafter-games(7)) on 3 envs: each shard records
    # whole envs, in 2 shards and, by default, in one an env.
    options = ["--game", "craftax-classic", "-n", "7", "-N", "3", "--obs", "symbolic",
               "--seed", "2"]
    expected = one_machine(tmp_path / "craftax-one.traj", options)
    for shards in (["--shards", "2"], []):
        output = tmp_path / f"craftax-ray-{len(shards)}.traj"
        run = subprocess.run(
            [sys.executable, "-m", "crafter_toolkit.ray", "record", "--address", cluster.address,
             *shards, *options, "-o", str(output)], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert output.read_bytes() == expected
        assert f"7 episodes in {shards[1] if shards else 3} shards on " in run.stderr, run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "crafter_toolkit.ray", "record", "--address", cluster.address,
         "--obs", "colour", "-n", "2", "-o", str(tmp_path / "bad.traj")],
        capture_output=True, text=True)
    assert run.returncode == 2 and "crafter-dataset: invalid observation kind" in run.stderr
    assert not (tmp_path / "bad.traj").exists()


def test_record_ships_the_files_it_names(ray_temp, tmp_path, monkeypatch):
    """A configuration and textures named on the driver reach the nodes as
    their contents: the file still equals one machine's.  The nodes lack
    the package (their Python cannot import it): the driver ships it with
    Ray's runtime environment (py_modules: the package and the module its
    .pth file imports), and --program names crafter-dataset."""
    import _crafter_toolkit_ids
    import crafter_toolkit
    import crafter_toolkit.ray as crafter_ray
    monkeypatch.setenv("PYTHONPATH", os.environ["PYTHONPATH"].replace(
        os.path.join(TOP, "python"), os.path.join(TOP, "python", "nowhere")))
    monkeypatch.chdir(tmp_path)  # Ray puts the driver's folder on the workers' sys.path
    cluster, _ = start_cluster()
    config = tmp_path / "rules.yaml"
    config.write_text("env:\n  length: 60\n")
    options = ["-n", "4", "--obs", "pixels", "-c", str(config), "-a", "scripted"]
    expected = one_machine(tmp_path / "one.traj", options)

    def importable():  # on a worker (a function of the test: sent by value)
        try:
            import crafter_toolkit  # noqa: F401
            return True
        except ImportError:
            return False

    try:
        ray.init(address=cluster.address)
        assert ray.get(ray.remote(importable).remote()) is False
        ray.shutdown()
        ray.init(address=cluster.address,
                 runtime_env={"py_modules": [crafter_toolkit, _crafter_toolkit_ids]})
        # Each node imports the shipped package before the recording, so
        # that neither is still unpacking it while the other takes every
        # shard.
        on_each_node = [ray.remote(importable).options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False)).remote()
            for node in ray.nodes() if node["Alive"]]
        assert ray.get(on_each_node) == [True, True]
        summary = crafter_ray.record(tmp_path / "ray.traj", options, shards=4, program=DATASET)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert (tmp_path / "ray.traj").read_bytes() == expected
    # Both nodes can run the shipped package (on_each_node above); which
    # of them Ray gives the four shards to is its own choice: on a loaded
    # machine one node may take all four.
    assert summary["episodes"] == 4 and 1 <= len(summary["nodes"]) <= 2


def test_record_survives_a_node_lost(ray_temp, tmp_path):
    """The second node dies while recording a shard (its crafter-dataset
    stays on after recording, so the kill finds the task running): the
    task is run again on the head, and the file is one machine's."""
    import crafter_toolkit.ray as crafter_ray
    slow = tmp_path / "slow-crafter-dataset"
    slow.write_text(f'#!/bin/sh\n"{DATASET}" "$@" || exit\nexec sleep 60\n')
    slow.chmod(0o755)
    cluster, second = start_cluster({"CRAFTER_DATASET": str(slow)})
    head = cluster.head_node.node_id
    options = ["-n", "6", "--obs", "symbolic", "--seed", "11"]
    expected = one_machine(tmp_path / "one.traj", options)
    events = []

    def on_event(what, shard, node, count):
        events.append((what, shard, node))
        if what == "start" and node == second.node_id and cluster.worker_nodes:
            cluster.remove_node(second, allow_graceful=False)

    try:
        ray.init(address=cluster.address)
        summary = crafter_ray.record(tmp_path / "ray.traj", options, shards=3, on_event=on_event)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert (tmp_path / "ray.traj").read_bytes() == expected
    lost = [shard for what, shard, node in events if what == "start" and node == second.node_id]
    assert len(lost) == 1, events
    done = [(shard, node) for what, shard, node in events if what == "done"]
    assert sorted(shard for shard, _ in done) == [1, 2, 3]
    assert (lost[0], second.node_id) not in done and summary["nodes"] == [head]


def test_rllib_ppo_trains(cluster, tmp_path):
    """examples/rllib_ppo.py: an iteration of RLlib's PPO with an env runner
    on each node, and a stats.jsonl that crafter-score reads."""
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (make clients-env)")
    logdir = tmp_path / "run"
    # 400 steps over 2 runners of 4 envs: 50 a env, and episodes of 30 end.
    run = subprocess.run(
        [sys.executable, os.path.join(TOP, "examples", "rllib_ppo.py"), "--address",
         cluster.address, "--iterations", "1", "--obs", "symbolic", "--length", "30",
         "--envs-per-runner", "4", "--train-batch", "400", "--logdir", str(logdir)],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["env_runners"] == 2 and report["iterations"] == 1
    assert report["env_steps"] >= 400
    lines = (logdir / "stats.jsonl").read_text().splitlines()
    assert lines and all(json.loads(line)["length"] <= 30 for line in lines)
    score = subprocess.run([SCORE, "--format", "json", str(logdir / "stats.jsonl")],
                           capture_output=True, text=True)
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)["methods"][0]["episodes"] == len(lines)


def test_rllib_runners_play_disjoint_worlds():
    """RLlib resets EnvRunner k with seed S + k (config.debugging(seed=S)):
    the runners' envs start from seeds (S + k) * num_envs + i, each world
    once (VectorEnv's own S + k + i would repeat runner 1's worlds in
    runner 2).  Two real EnvRunners, no cluster."""
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (make clients-env)")
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from crafter_toolkit import VectorEnv
    from crafter_toolkit.ray import register_rllib_env
    register_rllib_env("crafter-seeds", obs="symbolic", length=20)
    config = (PPOConfig().environment("crafter-seeds")
              .env_runners(num_envs_per_env_runner=3,
                           gym_env_vectorize_mode="vector_entry_point")
              .debugging(seed=10))
    seen, expected = [], []
    for k in (1, 2):
        runner = SingleAgentEnvRunner(config=config, worker_index=k)
        try:
            episodes = runner.sample(num_timesteps=3, random_actions=True)
            seen += [np.asarray(episode.get_observations(0)).tobytes() for episode in episodes]
        finally:
            runner.stop()
        reference = VectorEnv(3, obs="symbolic", length=20)
        expected += [obs.tobytes() for obs in reference.reset(seed=(10 + k) * 3)[0]]
        reference.close()
    assert len(seen) == 6 and sorted(seen) == sorted(expected)
    assert len(set(seen)) == 6


def test_rllib_steps_craftax_classic():
    """RLlib's EnvRunner on crafter_toolkit/Craftax-Classic-Symbolic-v1 by
    its id, vectorized as RLlib does by default (Gymnasium's sync vector,
    next-step autoreset): runner k's env i plays seed S + k + i, its
    episodes one after the other as Craftax's key schedule does (each
    starting where the one before ended, Craftax's auto-reset), every step
    the single env's under the same actions.  A real EnvRunner, no
    cluster."""
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (make clients-env)")
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from crafter_toolkit.gym import CraftaxClassicEnv
    config = (PPOConfig().environment("crafter_toolkit/Craftax-Classic-Symbolic-v1")
              .env_runners(num_envs_per_env_runner=2).debugging(seed=10))
    runner = SingleAgentEnvRunner(config=config, worker_index=1)
    try:
        episodes = runner.sample(num_episodes=4, random_actions=True)
    finally:
        runner.stop()
    assert len(episodes) >= 4 and all(episode.is_terminated for episode in episodes)
    left = [(np.asarray(e.get_observations()), np.asarray(e.get_actions()),
             np.asarray(e.get_rewards())) for e in episodes]
    for i in range(2):
        env = CraftaxClassicEnv()
        obs, _ = env.reset(seed=11 + i)
        while True:
            following = [k for k, episode in enumerate(left) if np.array_equal(episode[0][0], obs)]
            if not following:
                break
            observations, actions, rewards = left.pop(following[0])
            for t, action in enumerate(actions):
                obs, reward, terminated, truncated, _ = env.step(int(action))
                np.testing.assert_array_equal(obs, observations[t + 1])
                assert reward == rewards[t] and terminated == (t + 1 == len(actions))
        env.close()
    assert left == []


def test_help():
    run = subprocess.run([sys.executable, "-m", "crafter_toolkit.ray", "record", "--help"],
                         capture_output=True, text=True, env=dict(
                             os.environ, PYTHONPATH=os.path.join(TOP, "python")))
    assert run.returncode == 0 and "ray start --head" in run.stdout
    assert "--address" in run.stdout and "--threads" in run.stdout
