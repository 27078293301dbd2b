"""Plays SmartPlay's Crafter environment (microsoft/SmartPlay,
src/smartplay/crafter/crafter_env.py, unchanged) as SmartPlay's
evaluation plays it (gym.make of its Crafter-v0, reset() giving the
info, step() the text, history and score), with a scripted chooser of
actions reading its text in place of a language model, and writes what
it shows and reports, a line a step:

    smartplay_run.py SIDE SMARTPLAY_CHECKOUT OUT [SETTINGS_JSON]

SIDE is `smartplay` (SmartPlay's own copy of crafter, in creation order,
tests/reference/recorder.py's patch, and with the reference's daylight,
tests/reference/npcos.py) or `shim` (a copy of SmartPlay's folder whose
crafter/crafter package is python/README.md's shim: the one __init__.py,
its assets/ kept).  SMARTPLAY_CHECKOUT holds src/smartplay.  After the
episodes, SmartPlay's Recorder (stats and episode files) and EnvSample
play too.  test_smartplay.py runs it for each side and compares the
lines.

SmartPlay's package __init__.py imports every game of the suite (MineDojo,
Messenger, pandas...): the runner makes `smartplay` a package of that
folder without running it, as Crafter needs none of them.  SmartPlay pins
ruamel.yaml below 0.18, whose safe_load its copy's constants.py calls;
under a newer ruamel.yaml the runner gives it back as 0.17 had it
(YAML(typ='safe', pure=True).load)."""

import glob
import json
import os
import random
import shutil
import sys
import tempfile
import types

import numpy as np

from pinned import digest, plain  # beside this script

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
README = os.path.join(TOP, "python", "README.md")
SHIM = "from crafter_toolkit.smartplay import *"


def readme_shim():
    """The whole __init__.py python/README.md's SmartPlay section shows."""
    with open(README, encoding="utf-8") as stream:
        text = stream.read()
    section = text[text.index("**SmartPlay.**"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    assert code.strip() == SHIM, code
    return code


def smartplay_package(checkout, side):
    """The folder to make the package `smartplay` of: the checkout's, or a
    copy with the shim in place of its crafter copy."""
    package = os.path.join(checkout, "src", "smartplay")
    if side == "smartplay":
        return package
    folder = os.path.join(tempfile.mkdtemp(), "smartplay")
    os.mkdir(folder)
    shutil.copy(os.path.join(package, "utils.py"), folder)
    shutil.copytree(os.path.join(package, "crafter"), os.path.join(folder, "crafter"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    copy = os.path.join(folder, "crafter", "crafter")
    for entry in os.listdir(copy):
        if entry != "assets":
            path = os.path.join(copy, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    with open(os.path.join(copy, "__init__.py"), "w") as stream:
        stream.write(readme_shim())
    return folder


def import_smartplay(side, checkout):
    """Imports SmartPlay's smartplay.crafter (its __init__.py registers
    Crafter-v0 with gym) over the side's crafter; returns its crafter
    package (SmartPlay's copy, or the shim)."""
    import gym  # noqa: F401  (as SmartPlay: crafter_env.py imports it first)
    if side == "smartplay":
        import ruamel.yaml
        try:
            ruamel.yaml.safe_load("a: 1")
        except AttributeError:  # ruamel.yaml 0.18 and later
            ruamel.yaml.safe_load = lambda text: ruamel.yaml.YAML(typ="safe", pure=True).load(text)
        sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
        sys.path.insert(0, os.path.join(TOP, "python"))
    else:
        sys.path.insert(0, os.path.join(TOP, "python"))
    package = types.ModuleType("smartplay")
    package.__path__ = [smartplay_package(checkout, side)]
    sys.modules["smartplay"] = package
    import smartplay.crafter  # noqa: F401
    from smartplay.crafter import crafter
    if side == "smartplay":
        import npcos
        from crafter_toolkit.reference import creation_order
        creation_order(crafter)
        creation_order(types.SimpleNamespace(Env=crafter.EnvSample))
        npcos.install(crafter.env)
        assert crafter.Env.__module__ == "smartplay.crafter.crafter.env", crafter.Env.__module__
    else:
        assert crafter.Env.__module__ == "crafter_toolkit.smartplay", crafter.Env.__module__
    return crafter


ACTIONS = ["Noop", "Move West", "Move East", "Move North", "Move South", "Do", "Sleep",
           "Place Stone", "Place Table", "Place Furnace", "Place Plant", "Make Wood Pickaxe",
           "Make Stone Pickaxe", "Make Iron Pickaxe", "Make Wood Sword", "Make Stone Sword",
           "Make Iron Sword"]


class Chooser:
    """A scripted player in words: it reads SmartPlay's observation text
    and answers with an action's index (sleeping in the open at night, so
    that zombies come)."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.steps = 0

    def __call__(self, text):
        draw = self.random.random()
        self.steps += 1
        if "You are sleeping" in text:
            return 6 if draw < 0.95 else 0
        if self.steps > 150 and draw < 0.02:
            return 6
        facing = text.split("You face ")[-1].split(" at your front")[0]
        if facing in ("tree", "stone", "water", "cow", "zombie", "skeleton", "coal", "plant",
                      "iron") and draw < 0.7:
            return 5
        if "- energy: 2/9" in text or "- energy: 1/9" in text or "- energy: 0/9" in text:
            return 6
        if "- wood:" in text and draw < 0.15:
            return self.random.choice([7, 8, 9, 10, 11, 12, 14, 15])
        return self.random.choice([1, 2, 3, 4, 5, 0])


def recorded_scores():
    """Crafter's human and min score in SmartPlay's evaluation.yml (what
    its normalize_score divides by), read without a YAML library."""
    evaluation = os.path.join(os.path.dirname(sys.modules["smartplay.crafter"].__file__),
                              "evaluation.yml")
    with open(evaluation) as yml:
        lines = yml.read().split("recorded settings:")[1].split("Crafter:")[1].splitlines()
    scores = dict(line.strip().split(": ") for line in lines if line.strip().endswith(
        tuple("0123456789")) and line.strip().split(":")[0] in ("human score", "min score"))
    return float(scores["human score"]), float(scores["min score"])


def play_episodes(gym, stream, settings):
    human, low = recorded_scores()
    for episode, seed in enumerate(settings.get("seeds", [3])):
        np.random.seed(1000 + seed)  # Crafter(seed=None) draws its seed from it
        env = gym.make("Crafter-v0", **settings.get("kwargs", {}))
        obs, info = env.reset()
        stream.write(json.dumps({"episode": episode, "image": digest(obs), "info": plain(info),
                                 "default": [env.default_iter, env.default_steps],
                                 "actions": env.action_list}) + "\n")
        choose = Chooser(seed)
        for step in range(settings.get("steps", 1000)):
            action = choose(info["obs"])
            obs, reward, done, info = env.step(action)
            stream.write(json.dumps({
                "step": step, "action": action, "image": digest(obs), "reward": plain(reward),
                "done": plain(done), "info": plain(info),
                "daylight": float(env.unwrapped._world.daylight),
                "history_score": plain(env.unwrapped.history.score())}) + "\n")
            if done:
                break
        stream.write(json.dumps({"end": episode, "score": plain(info["score"]),
                                 "normalized": (info["score"] - low) / (human - low)}) + "\n")
        env.close()


def record_episode(crafter, stream, folder):
    """SmartPlay's Recorder over its Env: stats.jsonl and the episode file."""
    env = crafter.Recorder(crafter.Env(seed=7, length=150), folder, save_stats=True,
                           save_video=False, save_episode=True)
    env.reset()
    moves = np.random.RandomState(7)
    done = False
    while not done:
        _, _, done, _ = env.step(int(moves.randint(17)))
    with open(os.path.join(folder, "stats.jsonl")) as stats:
        stream.write(json.dumps({"stats": stats.read()}) + "\n")
    (name,) = glob.glob(os.path.join(folder, "*.npz"))
    with np.load(name, allow_pickle=True) as episode:
        stream.write(json.dumps({"npz": {key: plain(episode[key]) for key in sorted(episode)},
                                 "name": os.path.basename(name).split("-", 1)[1]}) + "\n")
    env.close()


def sample_steps(crafter, stream):
    """SmartPlay's EnvSample: random actions of numpy's global generator."""
    np.random.seed(11)
    env = crafter.EnvSample(seed=5, length=60, steps=20)
    stream.write(json.dumps({"sample": 0, "image": digest(env.reset())}) + "\n")
    for step in range(8):
        obs, reward, done, info = env.step(0)
        stream.write(json.dumps({"sample": step + 1, "image": digest(obs), "reward": plain(reward),
                                 "done": done, "info": plain(info)}) + "\n")


def plant(spot):
    """A planted difference on this package's side, to show the comparison
    sees it: at the step `spot` names, one info key changed as a bug
    would change it."""
    from crafter_toolkit import smartplay
    step = smartplay.Env.step

    def planted(self, action):
        obs, reward, done, info = step(self, action)
        if int(self._stream.frame["step"][0]) == spot["step"]:
            if spot["key"] == "image":
                obs = obs.copy()
                obs[0, 0, 0] ^= 1
            elif spot["key"] == "player_facing":
                info["player_facing"] = (-info["player_facing"][0], -info["player_facing"][1])
            else:
                info[spot["key"]] = not info[spot["key"]]
        return obs, reward, done, info
    smartplay.Env.step = planted


def main():
    side, checkout, out = sys.argv[1:4]
    settings = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    crafter = import_smartplay(side, checkout)
    if side == "shim" and settings.get("plant"):
        plant(settings["plant"])
    import gym
    with open(out, "w") as stream:
        play_episodes(gym, stream, settings)
        if settings.get("recorder", True):
            record_episode(crafter, stream, tempfile.mkdtemp())
            sample_steps(crafter, stream)


if __name__ == "__main__":
    main()
