"""Trajectory files as a Minari dataset, written by the minari package.

    python -m crafter_toolkit.minari random.traj --dataset-id crafter/random-v0

Every ended episode of the files becomes an episode of the dataset:
observations as recorded (pixels, semantic or symbolic; a file recorded
without them gets pixels, drawn again; --obs semantic,pixels gives several
kinds as a Dict space, those not stored drawn again), actions, rewards, terminations
(the player died) and truncations (the time limit), and infos as
crafter_toolkit's Gymnasium env gives them after the reset and each step
(inventory, achievements, discount, crafter_episode, player_pos).  Each
episode is replayed through that env, which checks it, and keeps its seed
and {"episode": E} as Minari's seed and options, so that

    env = dataset.recover_environment()   # crafter_toolkit/Crafter-v1
                                          # (several kinds: gym.KindsEnv)
    env.reset(seed=seed, options=options)

plays the same game.

Files of Craftax-Classic (crafter-games(7)) become datasets of
crafter_toolkit/Craftax-Classic-Symbolic-v1: Craftax's symbolic
observations (the file's, or for a file recorded without them the replay
crafter-dataset export makes from each episode's keys; a file that stores
them is checked by crafter-dataset verify --resimulate), the float32
rewards, every end a termination (Craftax's done), and the env's infos
(achievements, timestep, discount, reward).  Each episode keeps its seed,
and its episode counter and keys as options; the recovered env plays a
seed's episodes one after the other from reset(seed=S), as Craftax's key
schedule does (it cannot start one in the middle of the schedule).

Then minari.load_dataset(ID) reads it.  Needs minari
with h5py (hdf5, the default format) or pyarrow (arrow, parquet), and
gymnasium: pip install 'crafter-toolkit[minari]'.  Datasets go where
Minari keeps them (MINARI_DATASETS_PATH, else ~/.minari/datasets), each
written in a hidden folder there and given its id only when whole.
"""

import argparse
import contextlib
import os
import shutil
import sys
import tempfile

import numpy as np

from ._locate import find_program
from .trajectory import CRAFTAX_CLASSIC, CRAFTER, Trajectory, TrajectoryError

PROG = "python -m crafter_toolkit.minari"
ENV_ID = "crafter_toolkit/Crafter-v1"
KINDS_ENV_ID = "crafter_toolkit/CrafterKinds-v1"  # several kinds: gym.KindsEnv
CRAFTAX_ENV_ID = "crafter_toolkit/Craftax-Classic-Symbolic-v1"
FORMATS = ("hdf5", "arrow", "parquet")


class ConversionError(ValueError):
    """A file this conversion cannot take, or an episode that does not
    replay as recorded; the message says which."""


def _settings(header, path):
    """The env's keyword arguments that play the games of a file."""
    why = None
    if header.players > 1:
        why = f"{header.players} players a world (Minari datasets have one agent)"
    elif header.rules_bytes:
        why = "a configuration or world file"
    elif header.task_bytes:
        why = "goals of a task file"
    elif header.levels:
        why = "a level set"
    if why:
        raise ConversionError(f"{path}: recorded with {why}, which the dataset's environment "
                              f"({ENV_ID}) cannot play again; only Crafter's own game converts")
    return {"area": tuple(header.area), "view": tuple(header.view), "size": tuple(header.size),
            "length": int(header.length), "reward": bool(header.reward)}


def _space(kinds, settings):
    """(observation space, action space) of one kind, or a Dict of several."""
    from gymnasium import spaces

    from .vector import spaces_for
    boxes = {kind: spaces_for(kind, settings["size"], settings["area"]) for kind in kinds}
    actions = boxes[kinds[0]][1]
    if len(kinds) == 1:
        return boxes[kinds[0]][0], actions
    return spaces.Dict({kind: boxes[kind][0] for kind in kinds}), actions


def _kinds(obs, stored):
    """The observation kinds of a dataset from --obs (a kind, a list of them
    or a comma-separated string; None: the file's, or pixels)."""
    if obs is None:
        kinds = [stored if stored != "none" else "pixels"]
    elif isinstance(obs, str):
        kinds = obs.split(",")
    else:
        kinds = list(obs)
    for kind in kinds:
        if kind not in ("pixels", "semantic", "symbolic"):
            raise ConversionError(f"obs kinds are pixels, semantic or symbolic, not {kind!r}")
    if len(set(kinds)) != len(kinds):
        raise ConversionError(f"obs names a kind twice: {','.join(kinds)}")
    if "symbolic" in kinds and stored != "symbolic":
        raise ConversionError(f"the files store {stored} observations, not symbolic ones: "
                              "record with --obs symbolic")
    return kinds


def _make_env(kinds, textures, settings):
    """The env that plays the files' games with these observations, made
    through Gymnasium so that it has the spec the dataset keeps."""
    import gymnasium
    from gymnasium.envs.registration import EnvSpec

    import crafter_toolkit  # noqa: F401  (registers the Gymnasium ids)
    if len(kinds) == 1:
        return gymnasium.make(ENV_ID, obs=kinds[0], textures=textures, **settings)
    spec = EnvSpec(id=KINDS_ENV_ID, entry_point="crafter_toolkit.gym:KindsEnv",
                   kwargs=dict(obs=list(kinds), textures=textures, **settings))
    return gymnasium.make(spec)


def _stack_infos(infos):
    """The infos of an episode's steps as arrays over them; one number a
    step as a list, which Minari's arrow storage reads back (it loses the
    shape of a 1-D array)."""
    stacked = {key: np.stack([np.asarray(info[key]) for info in infos]) for key in infos[0]}
    return {key: value.tolist() if value.ndim == 1 else value for key, value in stacked.items()}


def _replay(env, episode, stored, path):
    """(observations, rewards, terminations, truncations, infos) of an
    episode replayed through env; observations of the kind the file stores
    (stored, or None) are the file's."""
    obs, info = env.reset(seed=int(episode.seed), options={"episode": int(episode.episode)})
    observations, infos = [obs], [info]
    rewards = np.zeros(episode.steps, np.float64)
    terminations = np.zeros(episode.steps, bool)
    truncations = np.zeros(episode.steps, bool)
    for t, action in enumerate(episode.actions):
        obs, rewards[t], terminations[t], truncations[t], info = env.step(int(action))
        observations.append(obs)
        infos.append(info)
    died = (episode.flags & 2) != 0
    done = (episode.flags & 1) != 0
    reward = env.spec.kwargs.get("reward", True)
    expected = episode.rewards if reward else np.zeros_like(episode.rewards)
    if (not np.array_equal(terminations, done & died)
            or not np.array_equal(truncations, done & ~died)
            or not np.array_equal(rewards, expected)):
        raise ConversionError(
            f"{path}: the episode of seed {episode.seed}, episode {episode.episode} does not "
            f"replay as recorded (crafter-dataset verify --resimulate {path} says where)")
    if isinstance(observations[0], dict):
        observations = {kind: episode.observations if kind == stored
                        else np.stack([o[kind] for o in observations])
                        for kind in observations[0]}
    elif stored is not None:
        observations = episode.observations
    else:
        observations = np.stack(observations)
    return observations, rewards, terminations, truncations, _stack_infos(infos)


def _cut_short(trajectory, episode, on_skip):
    """Whether the episode was cut short, and so is left out of a dataset;
    on_skip, where given, is told."""
    if episode.end != "cut":
        return False
    if on_skip:
        on_skip(f"{trajectory.path}: the episode of seed {episode.seed}, "
                f"episode {episode.episode} was cut short: left out")
    return True


def episodes(paths, obs=None, textures=None, on_skip=None):
    """(env, obs kinds, generator of minari EpisodeBuffers) for the ended
    episodes of the trajectory files paths (all recorded alike, of one
    game)."""
    from minari.data_collector import EpisodeBuffer

    files = [Trajectory(path) for path in paths]
    first = files[0].header
    for trajectory in files[1:]:
        if trajectory.game != first.game:
            raise ConversionError(f"{trajectory.path} holds episodes of {trajectory.game}, "
                                  f"{paths[0]} of {first.game}: a dataset is of one game")
    if first.game != CRAFTER:
        return _craftax_episodes(files, obs, textures, on_skip)
    settings = _settings(first, paths[0])
    for trajectory in files[1:]:
        other = _settings(trajectory.header, trajectory.path)
        if other != settings or trajectory.header.obs != first.obs:
            raise ConversionError(f"{trajectory.path} was recorded with other settings than "
                                  f"{paths[0]}: {other}, obs {trajectory.header.obs} against "
                                  f"{settings}, obs {first.obs}")
    kinds = _kinds(obs, first.obs)
    stored = first.obs if first.obs in kinds else None
    env = _make_env(kinds, textures, settings)

    def generate():
        number = 0
        try:
            for trajectory in files:
                for episode in trajectory.episodes():
                    if _cut_short(trajectory, episode, on_skip):
                        continue
                    observations, rewards, terminations, truncations, infos = _replay(
                        env, episode, stored, trajectory.path)
                    yield EpisodeBuffer(
                        id=number, seed=int(episode.seed),
                        options={"episode": int(episode.episode)},
                        observations=observations, actions=episode.actions, rewards=rewards,
                        terminations=terminations, truncations=truncations, infos=infos)
                    number += 1
        finally:
            env.close()

    return env, kinds, generate()


# ------------------------------------------------------------ Craftax-Classic

def _craftax_kinds(obs, textures):
    """Craftax-Classic's datasets hold its symbolic observations only."""
    kinds = [obs] if isinstance(obs, str) else list(obs) if obs is not None else ["symbolic"]
    if len(kinds) == 1 and "," in kinds[0]:
        kinds = kinds[0].split(",")
    if kinds != ["symbolic"]:
        raise ConversionError(f"Craftax-Classic's observations are symbolic (crafter-games(7)): "
                              f"--obs {','.join(kinds)} is Crafter's")
    if textures is not None:
        raise ConversionError("Craftax-Classic's datasets hold its symbolic observations only: "
                              "--textures, which draws pixels, is Crafter's here")
    return kinds


def _run_dataset(args, what):
    """crafter-dataset with args, for Craftax-Classic's files; its standard
    output, or ConversionError with what it said (verify says what is
    wrong on standard output, its notes aside)."""
    import subprocess
    program = find_program("crafter-dataset")
    run = subprocess.run([program, *args], stdin=subprocess.DEVNULL, capture_output=True,
                         text=True)
    if run.returncode != 0:
        said = run.stderr.strip() or "; ".join(
            line for line in run.stdout.splitlines() if ": note: " not in line)
        raise ConversionError(f"{what}: {said or f'exit status {run.returncode}'}")
    return run.stdout


def _craftax_observations(trajectory, folder):
    """The symbolic observations of the ended episodes of a file, in its
    order: a function of the episode.  Stored ones are the file's, held to
    a replay of every episode from its keys (crafter-dataset verify
    --resimulate); for a file without them, those of crafter-dataset
    export's replay (its npz files, which it writes checking every step's
    reward, done and achievements against the file's)."""
    path = os.fspath(trajectory.path)
    if trajectory.header.obs == "symbolic":
        _run_dataset(["verify", "--resimulate", "--game", CRAFTAX_CLASSIC, path],
                     f"{path} does not replay as recorded")
        return lambda episode, number: episode.observations
    out = os.path.join(folder, str(len(os.listdir(folder))))
    names = _run_dataset(["export", "--format", "npz", "--game", CRAFTAX_CLASSIC, "-o", out,
                          path], f"{path}: its episodes do not replay").splitlines()

    def replayed(episode, number):
        with np.load(names[number]) as arrays:
            observations = arrays["symbolic"]
        os.unlink(names[number])  # the disk holds the episodes not converted yet
        return observations
    return replayed


def _craftax_infos(episode):
    """The infos crafter_toolkit/Craftax-Classic-Symbolic-v1 gives after the
    reset and each step of the episode (gym.craftax_info), as arrays over
    them (one number a step as a list, as _stack_infos gives them): the
    achievements so far (0 or 1, in Crafter's order), the timestep, the
    discount (0 at the end, Craftax's done) and the float32 reward."""
    achievements = np.zeros((episode.steps + 1, episode.unlocks.shape[1]), np.int32)
    achievements[1:] = np.logical_or.accumulate(episode.unlocks, axis=0)
    discount = np.ones(episode.steps + 1)
    discount[1:][episode.dones] = 0.0
    rewards = np.concatenate([[0.0], episode.rewards.astype(np.float64)])
    return {"achievements": achievements, "timestep": list(range(episode.steps + 1)),
            "discount": discount.tolist(), "reward": rewards.tolist()}


def _craftax_episodes(files, obs, textures, on_skip):
    """episodes() of Craftax-Classic's files."""
    import gymnasium
    from minari.data_collector import EpisodeBuffer

    import crafter_toolkit  # noqa: F401  (registers the Gymnasium ids)
    kinds = _craftax_kinds(obs, textures)
    env = gymnasium.make(CRAFTAX_ENV_ID)

    def generate():
        number = 0
        folder = tempfile.mkdtemp(prefix="crafter-toolkit-minari-")
        try:
            for trajectory in files:
                observations = _craftax_observations(trajectory, folder)
                ended = 0
                for episode in trajectory.episodes():
                    if _cut_short(trajectory, episode, on_skip):
                        continue
                    yield EpisodeBuffer(
                        id=number, seed=int(episode.seed),
                        options={"episode": int(episode.episode),
                                 "world_key": list(episode.world_key),
                                 "schedule_key": list(episode.schedule_key)},
                        observations=observations(episode, ended), actions=episode.actions,
                        rewards=episode.rewards, terminations=episode.dones,
                        truncations=np.zeros(episode.steps, bool),
                        infos=_craftax_infos(episode))
                    number += 1
                    ended += 1
        finally:
            env.close()
            shutil.rmtree(folder, ignore_errors=True)

    return env, kinds, generate()


def convert(paths, dataset_id, data_format="hdf5", obs=None, textures=None, author=None,
            description=None, on_skip=None):
    """Writes the Minari dataset dataset_id from the trajectory files paths;
    returns the MinariDataset.  The dataset is written in a hidden folder
    beside Minari's datasets and takes its id only when whole: a
    conversion refused midway (an episode that does not replay, a damaged
    file) leaves no dataset behind."""
    import minari
    from minari.dataset.minari_dataset import parse_dataset_id
    from minari.namespace import create_namespace, list_local_namespaces
    from minari.storage.datasets_root_dir import get_dataset_path
    if data_format not in FORMATS:
        raise ConversionError(f"data_format is one of {', '.join(FORMATS)}, not {data_format!r}")
    target = get_dataset_path(dataset_id)
    if os.path.exists(target):
        raise ConversionError(f"a Minari dataset with id {dataset_id} exists already ({target})")
    env, kinds, buffers = episodes(paths, obs=obs, textures=textures, on_skip=on_skip)
    header = Trajectory(paths[0]).header
    if header.game == CRAFTER:
        space, actions = _space(kinds, _settings(header, paths[0]))
        game = "Crafter"
    else:
        space, actions = env.observation_space, env.action_space
        game = "Craftax-Classic"
    # Minari lists no hidden folder, and a rename within its folder is whole.
    scratch = tempfile.mkdtemp(prefix=".crafter-toolkit-", dir=get_dataset_path())
    try:
        with _datasets_in(scratch):
            minari.create_dataset_from_buffers(
                dataset_id, buffers, env=env, eval_env=env.spec, algorithm_name=header.agent,
                author=author, action_space=actions, observation_space=space,
                description=description or (
                    f"{game} episodes of crafter-dataset's {header.agent} agent, converted "
                    f"from {len(paths)} trajectory file{'' if len(paths) == 1 else 's'} of the "
                    f"Crafter toolkit; observations: {', '.join(kinds)}"),
                data_format=data_format, requirements=["crafter-toolkit"], jpeg_encoding=False)
        namespace = parse_dataset_id(dataset_id)[0]
        if namespace is not None and namespace not in list_local_namespaces():
            create_namespace(namespace)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.rename(os.path.join(scratch, dataset_id), target)
    finally:
        env.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return minari.load_dataset(dataset_id)


@contextlib.contextmanager
def _datasets_in(folder):
    """Minari's datasets in folder (MINARI_DATASETS_PATH) for a while."""
    saved = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = folder
    try:
        yield
    finally:
        if saved is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = saved


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write a Minari dataset (Farama's format for offline RL) from trajectory "
                    "files (crafter-trajectory(5)) with the minari package: every ended "
                    "episode, its observations as recorded, actions, rewards, terminations "
                    "(death), truncations (the time limit), infos (inventory, achievements, "
                    "discount, player_pos), its seed and episode, and the environment's spec "
                    "(crafter_toolkit/Crafter-v1 with the file's parameters), so that "
                    "dataset.recover_environment() plays the same game.  Files of "
                    "Craftax-Classic give datasets of "
                    "crafter_toolkit/Craftax-Classic-Symbolic-v1: its symbolic observations "
                    "(stored, or replayed from the episodes' keys), float32 rewards, every end "
                    "a termination, its infos (achievements, timestep, discount, reward), each "
                    "episode's seed and, as options, its episode counter and keys.",
        epilog="Datasets go to MINARI_DATASETS_PATH, else ~/.minari/datasets; "
               "minari.load_dataset(ID) reads one.  Back to crafter-score: "
               "python -m crafter_toolkit.minari --stats ID > stats.jsonl writes Crafter's "
               "stats.jsonl of a dataset.")
    parser.add_argument("files", nargs="*", metavar="FILE.traj", help="trajectory files")
    parser.add_argument("--dataset-id", metavar="NAMESPACE/NAME-vN",
                        help="the dataset's id (required to write one)")
    parser.add_argument("--data-format", choices=FORMATS, default="hdf5",
                        help="Minari's storage (default hdf5)")
    parser.add_argument("--obs", metavar="KIND[,KIND...]",
                        help="observations: pixels, semantic or symbolic, several as a Dict "
                             "space keyed by kind (default: the file's kind, pixels for a file "
                             "without; kinds the file does not store are drawn again, symbolic "
                             "only from a file that stores it; Craftax-Classic: symbolic "
                             "only, replayed for a file without)")
    parser.add_argument("-t", "--textures", metavar="DIR",
                        help="textures to draw the pixels the files do not store with, kept "
                             "in the env's spec: a folder, or 'builtin' (default: the "
                             "package's choice, Crafter's own where crafter is installed); "
                             "Crafter's only")
    parser.add_argument("--author", help="the dataset's author")
    parser.add_argument("--description", help="the dataset's description")
    parser.add_argument("--stats", metavar="ID",
                        help="instead: print Crafter's stats.jsonl of the dataset ID (for "
                             "crafter-score)")
    options = parser.parse_args(argv)
    try:
        if options.stats:
            if options.files or options.dataset_id:
                parser.error("--stats ID takes no files and no --dataset-id")
            sys.stdout.write(stats_lines(options.stats))
            return 0
        if not options.files or not options.dataset_id:
            parser.error("FILE.traj... and --dataset-id are required")
        dataset = convert(options.files, options.dataset_id, options.data_format, options.obs,
                          options.textures, options.author, options.description,
                          on_skip=lambda note: print(f"{PROG}: {note}", file=sys.stderr))
    except (ConversionError, TrajectoryError, OSError, ValueError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    print(f"{PROG}: {dataset.total_episodes} episodes, {dataset.total_steps} steps: "
          f"{options.dataset_id}", file=sys.stderr)
    return 0


def stats_lines(dataset_id):
    """Crafter's stats.jsonl lines of a Minari dataset written here: one per
    episode, its length, return (rounded to one decimal) and achievement
    counts at its end, which crafter-score reads."""
    import json

    import minari

    from .names import ACHIEVEMENTS
    dataset = minari.load_dataset(dataset_id)
    lines = []
    for episode in dataset.iterate_episodes():
        counts = episode.infos["achievements"][-1]
        total = 0.0
        for reward in episode.rewards:  # in order, as the file's return adds them
            total += float(reward)
        line = {"length": int(len(episode.rewards)), "reward": round(total, 1)}
        line.update({f"achievement_{name}": int(count)
                     for name, count in zip(ACHIEVEMENTS, counts)})
        lines.append(json.dumps(line) + "\n")
    return "".join(lines)


if __name__ == "__main__":
    sys.exit(main())
