"""Goals (crafter-task(5)) through the binary protocol: the task table,
info["instruction"], and the same goals, rewards and ends as crafter-step's
JSON lines for the same seed and actions."""

import json
import os
import subprocess

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from crafter_toolkit.vector import VectorEnv

TASKS = """\
version: 1
tasks:
  - id: wood
    family: achievements
    check: {unlock: [collect_wood]}
    instruction: Collect some wood.
    paraphrases: [Get wood., Chop a tree., Gather wood., Take wood from a tree., Cut wood.]
    difficulty: easy
    split: train
  - id: sapling
    family: achievements
    check: {unlock: [collect_sapling]}
    instruction: Pick up a sapling.
    paraphrases: [Get a sapling., Collect a sapling., Find a sapling., Take a sapling.,
                  Gather a sapling from the grass.]
    difficulty: medium
    split: test-new-objects
    reward: 3
"""


@pytest.fixture
def tasks(tmp_path):
    path = tmp_path / "tasks.yaml"
    path.write_text(TASKS)
    return path


def json_lines(tasks, seed, actions, episodes):
    step = _stream.find_crafter_step()
    text = "".join(f"{a}\n" for a in actions)
    out = subprocess.run([step, "--tasks", str(tasks), "--seed", str(seed), "-n", str(episodes),
                          "--info", "short"],
                         input=text.encode(), stdout=subprocess.PIPE, check=True).stdout
    records = [json.loads(line) for line in out.decode().splitlines()]
    assert records[0]["reset"] == 1 and "instruction" in records[0]
    return [record for record in records if "t" in record]


def test_binary_goals_equal_json_lines(tasks):
    rng = np.random.RandomState(5)
    actions = rng.randint(0, 17, 3000)
    records = json_lines(tasks, 2, actions, 4)
    env = crafter_toolkit.Env(seed=2, obs="none", tasks=tasks)
    env.reset()
    assert env.instruction in TASKS
    seen, ends, goals = 0, 0, 0
    for action, record in zip(actions, records):
        _, reward, done, info = env.step(action)
        assert info["instruction"] == record["instruction"]
        assert info["task"] == record["task"]
        assert info["goal"] == record["goal"]
        assert reward == record["reward"]
        assert done == record["done"]
        assert info["discount"] == record["discount"]
        seen += 1
        goals += info["goal"]
        if done:
            ends += 1
            if ends == 4:
                break
            env.reset()
    env.close()
    assert ends == 4 and seen == len(records)
    assert goals >= 1  # a random agent picks up saplings and wood


def test_task_table_and_vector_infos(tasks):
    stream = _stream.Stream(envs=3, obs="none", tasks=tasks)
    assert [t["id"] for t in stream.tasks] == ["wood", "sapling"]
    assert stream.tasks[1] == {"id": "sapling", "family": "achievements",
                               "difficulty": "medium", "split": "test-new-objects"}
    assert len(stream.instructions) == 12
    assert stream.instructions[6] == (1, "Pick up a sapling.")
    stream.close()
    only = _stream.Stream(envs=2, obs="none", tasks=tasks, split="train")
    assert [t["id"] for t in only.tasks] == ["wood"]
    only.close()
    env = VectorEnv(4, obs="none", tasks=tasks, task="sapling")
    _, infos = env.reset()
    assert infos["task"].tolist() == ["sapling"] * 4
    assert all(text in TASKS for text in infos["instruction"])
    _, rewards, terminated, truncated, infos = env.step(np.zeros(4, dtype=np.int64))
    assert not infos["goal"].any()
    env.close()


def test_task_options_are_checked(tasks):
    with pytest.raises(crafter_toolkit.CrafterStepError, match="no task has the id"):
        crafter_toolkit.Env(tasks=tasks, task="nope")
    with pytest.raises(ValueError):
        _stream.Stream(split="train")
    without = crafter_toolkit.Env(obs="none", seed=1)
    without.reset()
    _, _, _, info = without.step(0)
    assert "instruction" not in info and without.instruction is None
    without.close()
