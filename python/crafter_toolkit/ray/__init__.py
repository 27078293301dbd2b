"""Crafter on a Ray cluster: datasets recorded across its nodes, and the env
registered for RLlib.

    python -m crafter_toolkit.ray record --address ADDRESS -n 10000 \\
        --obs pixels -o random.traj

spreads the episodes of `crafter-dataset record` over the cluster as Ray
tasks, each recording one shard (--shard K/N) on the node it runs on; the
shards come back through Ray's object store (no shared filesystem) and are
merged into the file one `crafter-dataset record` with the same options
writes on one machine, byte for byte, whatever the number of nodes and
tasks.  A task lost with its node is run again elsewhere; each shard is
taken once.

    from crafter_toolkit.ray import register_rllib_env
    register_rllib_env("crafter", obs="pixels")
    config = PPOConfig().environment("crafter").env_runners(
        num_envs_per_env_runner=16, gym_env_vectorize_mode="vector_entry_point")

gives every RLlib EnvRunner one VectorEnv (one crafter-step stepping all
its envs).  Needs ray (pip install 'ray[rllib]'); every node needs the
toolkit, the package and its six programs: the wheel built once
(python3 -m pip wheel --no-deps -w dist ./python; no package index has
it) and pip-installed on each node, or Ray's runtime environment
(py_modules: crafter_toolkit and _crafter_toolkit_ids) bringing the
package's Python files, crafter-dataset then named by --program or
CRAFTER_DATASET on the nodes.
"""

import argparse
import io
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from .. import _stream
from .._locate import find_program
from ..trajectory import count_chunks
from ..vector import VectorEnv

PROG = "python -m crafter_toolkit.ray"

# crafter-dataset record's options: (long name, short, takes a value, file),
# file being "file" or "dir" for a value that names one on the driver,
# shipped to the node that records (no shared filesystem), or "levels" for
# --levels, a count or a file.
RECORD_OPTIONS = (
    ("agent", "a", True, None), ("episodes", "n", True, None), ("steps", None, True, None),
    ("seed", "s", True, None), ("first-episode", "e", True, None),
    ("players", None, True, None), ("obs", None, True, None), ("textures", "t", True, "dir"),
    ("area", None, True, None), ("view", None, True, None), ("size", None, True, None),
    ("no-reward", None, False, None), ("tasks", None, True, "file"),
    ("split", None, True, None), ("task", None, True, None), ("levels", None, True, "levels"),
    ("start-level", None, True, None), ("level-order", None, True, None),
    ("config", "c", True, "file"), ("world", "w", True, "file"), ("threads", "T", True, None),
    ("game", None, True, None), ("envs", "N", True, None),
)

HOW_TO_START = """\
A cluster: on the first machine
    ray start --head --port=6379
prints the ADDRESS (HOST:6379) the others join with
    ray start --address=HOST:6379
each giving the cluster its cores (--num-cpus=N to give fewer).  Every
node needs this package and its programs: its wheel (python3 -m pip
wheel --no-deps -w dist ./python in the project's tree; no package index
has it) installed on each with pip, or CRAFTER_DATASET naming
crafter-dataset in the environment ray start runs in, or --program.  --address auto joins the cluster started on this machine,
--address local starts one for this run alone.  ray stop ends a node."""


class ShardFailed(RuntimeError):
    """crafter-dataset record failed on a node: status and its message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _die_with_parent():
    """In the child: end with the Ray worker that started it, so that no
    recording goes on alone on a node whose worker was killed."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


@ray.remote(num_cpus=0)
class _Progress:
    """Where the tasks say what they are doing: (what, shard, node, count)."""

    def __init__(self):
        self.events = []

    def report(self, event):
        self.events.append(event)

    def take(self):
        events, self.events = self.events, []
        return events


def _write_files(files, folder):
    """The options naming files shipped from the driver, as arguments
    naming copies of them in folder."""
    args = []
    for number, (name, kind, content) in enumerate(files):
        path = os.path.join(folder, f"{number}-{name}")
        if kind == "dir":
            os.mkdir(path)
            for entry, data in content.items():
                with open(os.path.join(path, entry), "wb") as stream:
                    stream.write(data)
        else:
            with open(path, "wb") as stream:
                stream.write(content)
        args.append(f"--{name}={path}")
    return args


def _node_folder():
    try:
        folder = ray.get_runtime_context().get_temp_dir()
    except Exception:
        return None
    return folder if folder and os.path.isdir(folder) else None


def record_shard(args, files, shard, shards, players=1, program=None, progress=None):
    """Runs crafter-dataset record for shard `shard` of `shards` on this node
    and returns (node id, the shard's bytes, 0, ""), or (node id, None,
    its exit status, its message) when it fails."""
    node = ray.get_runtime_context().get_node_id()
    if progress is not None:
        progress.report.remote(("start", shard, node, 0))
    program = program or find_program("crafter-dataset")
    environment = dict(os.environ)
    # The textures are the driver's, shipped as --textures, or the built-in.
    environment.pop("CRAFTER_TEXTURES", None)
    # In the node's Ray folder: what a worker killed midway leaves goes with
    # Ray's session files.
    with tempfile.TemporaryDirectory(prefix="crafter-ray-", dir=_node_folder()) as folder:
        output = os.path.join(folder, "shard.traj")
        command = [program, "record", *args, *_write_files(files, folder),
                   f"--shard={shard}/{shards}", "--quiet", f"--output={output}"]
        with open(os.path.join(folder, "stderr"), "w+") as errors:
            child = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=errors,
                                     env=environment, preexec_fn=_die_with_parent)
            episodes = 0
            while True:
                try:
                    status = child.wait(timeout=0.25)
                    break
                except subprocess.TimeoutExpired:
                    pass
                now = count_chunks(output) // players
                if progress is not None and now != episodes:
                    episodes = now
                    progress.report.remote(("episodes", shard, node, episodes))
            if status != 0:
                errors.seek(0)
                message = errors.read().strip() or f"{os.path.basename(program)} exited {status}"
                return node, None, status if status > 0 else 1, message
        with open(output, "rb") as stream:
            return node, stream.read(), 0, ""


_record_shard = ray.remote(record_shard)


# ------------------------------------------------------------------ options

def record_parser(prog=f"{PROG} record"):
    parser = argparse.ArgumentParser(
        prog=prog, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Record a dataset of crafter-dataset record over a Ray cluster: the "
                    "episodes are recorded in shards by Ray tasks spread over its nodes, "
                    "brought back through Ray's object store and merged into FILE, the same "
                    "bytes as crafter-dataset record with the same options on one machine.  "
                    "Any of crafter-dataset record's options (crafter-dataset(1)) but --shard; "
                    "the files and folders they name are read here and sent to the nodes.",
        epilog=HOW_TO_START)
    parser.add_argument("--address", required=True,
                        help="the Ray cluster's address (HOST:PORT, 'auto' or 'local')")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the file to write")
    parser.add_argument("--shards", type=int, metavar="N",
                        help="Ray tasks, a shard each (default: 4 per task the cluster's CPUs "
                             "hold at once, at most one an episode, and for "
                             "craftax-classic one an env: a shard records whole envs)")
    parser.add_argument("--retries", type=int, default=3, metavar="R",
                        help="times a task lost with its node is run again (default 3)")
    parser.add_argument("--program", metavar="PATH",
                        help="crafter-dataset's path on the nodes (default: CRAFTER_DATASET, "
                             "else beside their Python, else on their PATH)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress (drawn on standard error when it is a terminal) "
                             "and no summary line")
    group = parser.add_argument_group("crafter-dataset record's options")
    for name, short, value, _ in RECORD_OPTIONS:
        flags = [f"--{name}"] + ([f"-{short}"] if short else [])
        if value:
            group.add_argument(*flags, dest=name, metavar=name.split("-")[0].upper())
        else:
            group.add_argument(*flags, dest=name, action="store_true")
    return parser


def _read_option_file(name, kind, value):
    if kind == "dir":
        content = {}
        for entry in sorted(os.listdir(value)):
            path = os.path.join(value, entry)
            if os.path.isfile(path):
                with open(path, "rb") as stream:
                    content[entry] = stream.read()
        return content
    with open(value, "rb") as stream:
        return stream.read()


def record_arguments(options):
    """(args, files) for the tasks from parsed options: crafter-dataset
    record's options as --name=value, and the files they name, read."""
    args, files = [], []
    for name, _, value, kind in RECORD_OPTIONS:
        given = getattr(options, name)
        if given is None or given is False:
            continue
        if not value:
            args.append(f"--{name}")
        elif kind == "levels" and given.isdigit() or kind is None:
            args.append(f"--{name}={given}")
        else:
            try:
                files.append((name, "dir" if kind == "dir" else "file",
                              _read_option_file(name, kind, given)))
            except OSError as error:
                raise OSError(f"--{name} {given}: {error.strerror or error}") from None
    textures = os.environ.get("CRAFTER_TEXTURES")
    if textures and options.textures is None:
        try:
            files.append(("textures", "dir", _read_option_file("textures", "dir", textures)))
        except OSError as error:
            raise OSError(f"CRAFTER_TEXTURES {textures}: {error.strerror or error}") from None
    return args, files


def _count(value, default):
    """An option's count, default without it; None for one that is not a
    number (crafter-dataset says what is wrong with it)."""
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        return None


# ---------------------------------------------------------------- recording

class _Bar:
    def __init__(self, episodes, shards, draw):
        self.episodes, self.shards, self.draw = episodes, shards, draw
        self.shown = False

    def show(self, episodes, done, nodes):
        if not self.draw:
            return
        width = 30
        filled = width * episodes // max(1, self.episodes)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {episodes}/{self.episodes} "
                         f"episodes, {done}/{self.shards} shards, {nodes} node"
                         f"{'' if nodes == 1 else 's'} ")
        sys.stderr.flush()
        self.shown = True

    def close(self):
        if self.shown:
            sys.stderr.write("\n")


def record(output, args, address=None, shards=None, retries=3, program=None, quiet=True,
           on_event=None):
    """Records the dataset of crafter-dataset record's options args (a list
    of strings, as on its command line, without -o) into output over the Ray
    cluster (ray.init(address) first unless Ray is initialized), in shards
    tasks (None: 4 per task the cluster's CPUs run at once, at most one an
    episode, and with --game craftax-classic one an env, as each shard
    records whole envs).  on_event(what, shard, node, count) hears of each shard's
    "start", its "episodes" recorded so far and "done".  Returns a dict:
    episodes, shards, nodes (the node ids that recorded shards), seconds.
    Raises ShardFailed when a shard's crafter-dataset record fails."""
    options = record_parser().parse_args(
        ["--address", "-", "--output", os.fspath(output), *args])
    task_args, files = record_arguments(options)
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        return _record(output, options, task_args, files, shards, retries, program, quiet,
                       on_event)
    finally:
        if started:
            ray.shutdown()


def _events(progress):
    """What the tasks said since the last call; nothing once the actor that
    hears them is gone (its node lost): progress is only shown."""
    try:
        return ray.get(progress.take.remote(), timeout=60)
    except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
        return []


def _shard_sizes(episodes, shards, envs):
    """The episodes of each shard, 1 to shards: the episodes whose index
    from 0 is k - 1 modulo shards; with envs (a game other than Crafter,
    whose env's episodes follow one another) whole envs, those whose index
    is k - 1 modulo shards, env e playing the episodes e, e + envs, ...
    (crafter-dataset(1), --shard)."""
    if not episodes or episodes < 0:
        return {k: 0 for k in range(1, shards + 1)}
    if envs is None:
        return {k: len(range(k - 1, episodes, shards)) for k in range(1, shards + 1)}
    return {k: sum(len(range(env, episodes, envs)) for env in range(k - 1, envs, shards))
            for k in range(1, shards + 1)}


def _record(output, options, task_args, files, shards, retries, program, quiet, on_event):
    begin = time.monotonic()
    episodes = _count(options.episodes, 100)
    threads = max(1, _count(options.threads, 1) or 1)
    players = max(1, _count(options.players, 1) or 1)
    # A game other than Crafter records whole envs a shard.
    envs = None if options.game in (None, "crafter") else max(1, _count(options.envs, 1) or 1)
    if shards is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        shards = max(1, 4 * max(1, cpus // threads))
        if episodes and episodes > 0:
            shards = min(shards, episodes, envs or episodes)
    if shards < 1:
        raise ValueError(f"shards must be at least 1, not {shards}")
    merge = find_program("crafter-dataset")
    here = ray.get_runtime_context().get_node_id()
    progress = _Progress.options(
        scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=False)).remote()
    task = _record_shard.options(num_cpus=threads, max_retries=retries, retry_exceptions=False)
    files_ref = ray.put(files)
    pending = {task.remote(task_args, files_ref, k, shards, players, program, progress): k
               for k in range(1, shards + 1)}
    sizes = _shard_sizes(episodes, shards, envs)
    counts = {k: 0 for k in sizes}
    nodes, running = set(), {}
    bar = _Bar(sum(sizes.values()), shards, not quiet and sys.stderr.isatty())
    folder = tempfile.mkdtemp(prefix=".crafter-ray-", dir=os.path.dirname(
        os.path.abspath(output)))
    paths = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.25)
            for what, shard, node, count in _events(progress):
                if shard not in sizes or sizes[shard] < 0:
                    continue
                if what == "start":
                    counts[shard] = 0
                    running[shard] = node
                elif what == "episodes":
                    counts[shard] = count
                if on_event:
                    on_event(what, shard, node, count)
            for ref in ready:
                shard = pending.pop(ref)
                node, data, status, message = ray.get(ref)
                if data is None:
                    raise ShardFailed(status, message)
                path = os.path.join(folder, f"shard-{shard}.traj")
                with open(path, "wb") as stream:
                    stream.write(data)
                del data
                paths.append(path)
                nodes.add(node)
                counts[shard] = sizes[shard]
                sizes[shard] = -1 - sizes[shard]  # taken: later events of it are stale
                running.pop(shard, None)
                if on_event:
                    on_event("done", shard, node, counts[shard])
            done = shards - len(pending)
            bar.show(sum(counts.values()), done, len(nodes | set(running.values())))
        bar.close()
        merged = subprocess.run([merge, "merge", "-o", os.fspath(output), *sorted(paths)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        if merged.returncode != 0:
            raise ShardFailed(1, merged.stderr.strip())
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    finally:
        for path in os.listdir(folder):
            os.unlink(os.path.join(folder, path))
        os.rmdir(folder)
        ray.kill(progress)
    return {"episodes": sum(counts.values()), "shards": shards, "nodes": sorted(nodes),
            "seconds": time.monotonic() - begin}


def record_main(argv):
    options = record_parser().parse_args(argv)
    rest = []
    for name, short, value, _ in RECORD_OPTIONS:
        given = getattr(options, name)
        if given is not None and given is not False:
            rest.append(f"--{name}" if not value else f"--{name}={given}")
    if options.shards is not None and options.shards < 1:
        record_parser().error(f"--shards must be at least 1, not {options.shards}")
    if options.retries < 0:
        record_parser().error(f"--retries must be at least 0, not {options.retries}")
    try:
        summary = record(options.output, rest, address=options.address, shards=options.shards,
                         retries=options.retries, program=options.program,
                         quiet=options.quiet)
    except ShardFailed as failure:
        print(f"{PROG}: {failure}", file=sys.stderr)
        return failure.status
    except (OSError, ConnectionError, ValueError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except ray.exceptions.RayError as error:  # a shard lost more times than --retries
        print(f"{PROG}: {str(error).splitlines()[0]}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted: {options.output} not written", file=sys.stderr)
        return 130
    if not options.quiet:
        nodes = len(summary["nodes"])
        print(f"{PROG}: {summary['episodes']} episodes in {summary['shards']} shards on "
              f"{nodes} node{'' if nodes == 1 else 's'}, {summary['seconds']:.1f} s: "
              f"{options.output}", file=sys.stderr)
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Crafter on a Ray cluster.\n\ncommands:\n  record    record a dataset "
                    "over the cluster's nodes (record --help)",
        epilog=HOW_TO_START)
    parser.add_argument("command", choices=["record"], help="record")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the command's options")
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if argv else 2
    if argv[0] != "record":
        parser.error(f"unknown command {argv[0]!r} (record)")
    return record_main(argv[1:])


# -------------------------------------------------------------------- RLlib

def register_rllib_env(name="crafter", **defaults):
    """Registers Crafter with RLlib as name (ray.tune.registry.register_env).
    With gym_env_vectorize_mode="vector_entry_point" each EnvRunner gets one
    crafter_toolkit VectorEnv of num_envs_per_env_runner envs (one
    crafter-step stepping them all on its threads); otherwise one
    crafter_toolkit.gym.CrafterEnv per env.  defaults and the config's
    env_config are their keyword arguments (obs, length, area, ...; the
    vector's threads default to one).  Without a seed every VectorEnv plays
    worlds of its own from fresh entropy; with RLlib's seed (config.
    debugging(seed=S)) runner k's env i plays seed (S + k) * num_envs + i,
    no world twice.  Each VectorEnv keeps the stats of
    its ended episodes: take_stats() returns their stats.jsonl lines (see
    examples/rllib_ppo.py)."""
    from ray.tune.registry import register_env

    def make(env_config):
        settings = dict(defaults)
        settings.update(env_config or {})
        num_envs = settings.pop("num_envs", None)
        if num_envs is None:
            from ..gym import CrafterEnv
            return CrafterEnv(**settings)
        settings.setdefault("threads", 1)
        return StatsVectorEnv(num_envs, **settings)

    register_env(name, make)
    return make


class StatsVectorEnv(VectorEnv):
    """A VectorEnv that keeps Crafter's stats.jsonl lines in memory, for
    the EnvRunners of RLlib, wherever they run."""

    def __init__(self, num_envs=1, **kwargs):
        self._lines = io.StringIO()
        kwargs.setdefault("stats", self._lines)
        super().__init__(num_envs, **kwargs)

    def reset(self, *, seed=None, options=None):
        """New episodes in every env.  With seed X, env i starts from seed
        X * num_envs + i: RLlib resets EnvRunner k's vector with seed S + k
        (config.debugging(seed=S)), and VectorEnv's own X + i would give
        runner k + 1 the worlds of runner k shifted by one; this way no
        two runners' envs share a world."""
        if seed is not None:
            seed = _stream.seed_value(seed) * self.num_worlds
        return super().reset(seed=seed, options=options)

    def take_stats(self):
        """The stats lines of the episodes ended since the last call."""
        lines = self._lines.getvalue()
        self._lines.seek(0)
        self._lines.truncate()
        return lines
