"""Plays BALROG's Crafter environment (balrog-ai/BALROG,
balrog/environments/crafter/, its files unchanged) as BALROG's evaluator
plays an episode, with a scripted chooser of actions in place of a
language model, and writes what BALROG shows and reports, a line a step:

    balrog_run.py SIDE BALROG_FOLDER OUT [SETTINGS_JSON]

SIDE is `crafter` (the installed crafter 1.8.3, in creation order and
with the recorded daylight: tests/reference/recorder.py), `alias`
(python/README.md's sys.modules alias) or `shim` (python/README.md's shim
package named crafter, first on the path).  BALROG_FOLDER holds
BALROG's files (the folder with balrog/ in it).  test_balrog.py runs it
for each side and compares the lines."""

import hashlib
import json
import os
import random
import sys
import tempfile
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
README = os.path.join(TOP, "python", "README.md")


def readme_block(after):
    """The code of the first ```python block of python/README.md after the
    text `after`, dedented."""
    import textwrap
    with open(README, encoding="utf-8") as stream:
        text = stream.read()
    start = text.index("```python\n", text.index(after)) + len("```python\n")
    return textwrap.dedent(text[start:text.index("```", start)])


ALIAS = "a `sys.modules` alias, before"
SHIM = "whose whole `__init__.py` is"


def crafter_side(side):
    """Makes `crafter` the reference or this package, as python/README.md
    shows (its alias imports BALROG's environments too)."""
    if side == "crafter":
        sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
        import recorder  # noqa: F401  (creation order, the recorded daylight)
        return
    sys.path.insert(0, os.path.join(TOP, "python"))
    if side == "alias":
        exec(compile(readme_block(ALIAS), README, "exec"), {})
    else:
        folder = tempfile.mkdtemp()
        os.mkdir(os.path.join(folder, "crafter"))
        with open(os.path.join(folder, "crafter", "__init__.py"), "w") as stream:
            stream.write(readme_block(SHIM))
        sys.path.insert(0, folder)
    import crafter
    assert crafter.Env.__module__ == "crafter_toolkit.env", crafter.Env.__module__


def stand_in_for_nle():
    """BALROG's wrappers package imports its NetHack wrapper, which imports
    nle (NetHack, not needed for Crafter): an empty stand-in."""
    base = types.ModuleType("nle.env.base")
    base.NLE = type("NLE", (), {"StepStatus": type("StepStatus", (), {"ABORTED": -1})})
    for name, module in (("nle", types.ModuleType("nle")), ("nle.env", types.ModuleType("nle.env")),
                         ("nle.env.base", base)):
        sys.modules[name] = module


def digest(value):
    return hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()[:24]


def plain(value):
    """A JSON-able picture of a value, its type included."""
    if isinstance(value, np.ndarray):
        return ["ndarray", str(value.dtype), list(value.shape), digest(value)]
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return [type(value).__name__, value.item()]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return ["set", sorted(plain(v) for v in value)]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [plain(v) for v in value]]
    if isinstance(value, float):
        return ["float", value]
    return value


class Chooser:
    """A scripted player in words: it reads what BALROG tells it and
    answers with one of BALROG's actions (now and then with text that is
    no action, which BALROG turns into Noop)."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.steps = 0

    def __call__(self, obs):
        text = obs["text"]["long_term_context"] + obs["text"]["short_term_context"]
        draw = self.random.random()
        self.steps += 1
        if draw < 0.03:
            return "Dance"
        if "You are sleeping" in text:
            return "Sleep" if draw < 0.8 else "Noop"
        if self.steps > 60 and draw < 0.06:
            return "Sleep"
        facing = text.split("You face ")[-1].split(" at your front")[0]
        if facing in ("tree", "stone", "water", "cow", "zombie", "skeleton", "coal", "plant") \
                and draw < 0.7:
            return "Do"
        if "- energy: 2/9" in text or "- energy: 1/9" in text:
            return "Sleep"
        if "- wood:" in text and draw < 0.15:
            return self.random.choice(["Place Table", "Make Wood Pickaxe", "Make Wood Sword",
                                       "Place Plant"])
        return self.random.choice(["Move West", "Move East", "Move North", "Move South",
                                   "Do", "Noop"])


def main():
    side, folder, out = sys.argv[1:4]
    settings = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    stand_in_for_nle()
    sys.path.insert(0, folder)
    crafter_side(side)
    from balrog.environments import make_env
    kwargs = dict(area=[64, 64], view=[9, 9], size=[256, 256], reward=True, seed=None,
                  max_episode_steps=400, unique_items=True, precise_location=False,
                  skip_items=[], edge_only_items=[])
    kwargs.update(settings.get("crafter_kwargs", {}))
    config = types.SimpleNamespace(envs=types.SimpleNamespace(crafter_kwargs=kwargs))
    with open(out, "w") as stream:
        for episode, seed in enumerate(settings.get("seeds", [3, 8])):
            # As BALROG's evaluator: the env made, then the seeds set, then
            # reset(seed=seed).  crafter.Env(seed=None) draws its seed from
            # numpy's generator when made: here the one np.random.seed gave.
            np.random.seed(1000 + episode)
            env = make_env("crafter", "default", config)
            random.seed(seed)
            np.random.seed(seed)
            obs, info = env.reset(seed=seed)
            choose = Chooser(seed)
            stream.write(json.dumps({"episode": episode, "prompt": env.get_instruction_prompt(),
                                     "text": obs["text"], "image": digest(obs["image"]),
                                     "size": obs["image"].size, "obs": plain(obs["obs"]),
                                     "info": plain(info)}) + "\n")
            for step in range(env.max_steps):
                response = choose(obs)
                action = env.check_action_validity(response)
                obs, reward, terminated, truncated, info = env.step(action)
                stream.write(json.dumps({
                    "step": step, "action": action, "text": obs["text"],
                    "image": digest(np.asarray(obs["image"])), "mode": obs["image"].mode,
                    "obs": plain(obs["obs"]), "reward": plain(reward),
                    "terminated": plain(terminated), "truncated": plain(truncated),
                    "info": plain(info), "stats": plain(env.get_stats())}) + "\n")
                if terminated or truncated:
                    break
            stream.write(json.dumps({"end": episode, "steps": step + 1,
                                     "stats": plain(env.get_stats()),
                                     "failed": env.failed_candidates}) + "\n")
            env.close()


if __name__ == "__main__":
    main()
