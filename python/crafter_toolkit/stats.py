"""Crafter's stats.jsonl: one line per ended episode, as crafter.Recorder
writes it ({"length", "reward", "achievement_NAME": count, ...}), so that
crafter-score reads runs made from Python."""

import json
import os

from .names import ACHIEVEMENTS


class StatsWriter:
    """Appends episode lines to PATH, as crafter.Recorder does: a file (an
    existing one, or a new path ending in .jsonl), else a folder, made if
    missing, that gets stats.jsonl; each line is flushed as its episode
    ends.  PATH may also be an open text stream (anything with write and
    flush), which close() leaves open."""

    def __init__(self, path, envs=1):
        self.length = [0] * envs
        self.reward = [0.0] * envs
        if hasattr(path, "write"):
            self.path, self._file, self._owned = None, path, False
            return
        path = os.fspath(path)
        if os.path.isdir(path) or (not os.path.exists(path) and not path.endswith(".jsonl")):
            os.makedirs(path, exist_ok=True)
            path = os.path.join(path, "stats.jsonl")
        elif os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        self.path = path
        self._file = open(path, "a")
        self._owned = True

    def step(self, env, reward):
        self.length[env] += 1
        self.reward[env] += float(reward)

    def episode_ended(self, env, achievements):
        stats = {"length": self.length[env], "reward": round(self.reward[env], 1)}
        for name, count in zip(ACHIEVEMENTS, achievements):
            stats[f"achievement_{name}"] = int(count)
        self._file.write(json.dumps(stats) + "\n")
        self._file.flush()
        self.start(env)

    def start(self, env):
        self.length[env] = 0
        self.reward[env] = 0.0

    def __reduce__(self):
        raise TypeError("an environment that writes stats (stats=) cannot be copied: the copy "
                        "would append to the same log")

    def close(self):
        if self._file:
            if self._owned:
                self._file.close()
            self._file = None
