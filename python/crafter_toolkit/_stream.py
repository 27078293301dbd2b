"""The binary protocol of crafter-step (crafter-protocol(5)), version 2.

A `Stream` runs one crafter-step and reads its frames into buffers laid
out once: every field of a frame is a numpy array viewing the buffer, so
reading a frame does no work per environment.  Frames come over the pipe
(`transport="pipe"`) or land in a ring of shared memory that only this
process and crafter-step can reach (`transport="shm"`: an anonymous
memory file handed to crafter-step as a descriptor; it has no name, so a
crash of either side leaves nothing behind).  `transport="auto"` (the
default) is shared memory where the system has memfd_create, else the
pipe: shared memory saves the reader a copy of every frame, which counts
most once a frame outgrows a pipe (1 MiB on Linux without privileges).
"""

import mmap
import os
import shutil
import struct
import subprocess

import numpy as np

MAGIC = b"CRAFTSTP"
VERSION = 2
HEADER = struct.Struct("<8s" + "I" * 30)
RESET = 255
ACTIONS = 17
FLAG_AUTORESET, FLAG_SEMANTIC, FLAG_SHM, FLAG_TASKS, FLAG_LEVELS = 1, 2, 4, 8, 16
# Sections of a frame, in the header's order: (name, dtype, values a env).
SECTIONS = (("reward", "<f8", 1), ("discount", "<f4", 1), ("done", "u1", 1),
            ("reset", "u1", 1), ("unlocked", "<u4", 1), ("episode", "<u4", 1),
            ("step", "<u4", 1), ("inventory", "<i4", 16), ("achievements", "<i4", 22),
            ("position", "<i4", 4), ("semantic", "u1", None), ("obs", None, None),
            ("task", "<u4", 2))
FAMILIES = ("achievements", "localization", "conditional", "line", "square", "cross", "timed",
            "explore")
DIFFICULTIES = ("easy", "medium", "hard")
SPLITS = ("train", "test-paraphrase", "test-new-objects")
OBS_KINDS = ("none", "pixels", "semantic", "symbolic")
LEVEL_ORDERS = ("random", "sequential")
LEVELS_MAX = 1000000  # the most levels a set holds


class CrafterStepError(RuntimeError):
    """crafter-step refused the options, stopped, or sent what this client
    does not understand; the message carries what crafter-step said."""


def find_crafter_step():
    """crafter-step from CRAFTER_STEP, else the source tree this package
    sits in (or, installed, was built from), else PATH."""
    named = os.environ.get("CRAFTER_STEP")
    if named:
        return named
    here = os.path.dirname(os.path.abspath(__file__))
    trees = [os.path.join(here, "..", "..")]
    try:
        from ._source_tree import SOURCE_TREE
        trees.append(SOURCE_TREE)
    except ImportError:
        pass
    for tree in trees:
        built = os.path.normpath(os.path.join(tree, "bin", "crafter-step"))
        if os.access(built, os.X_OK):
            return built
    found = shutil.which("crafter-step")
    if found:
        return found
    raise CrafterStepError(
        "crafter-step not found: set CRAFTER_STEP, put it on PATH, or build the source tree")


def pair(name, value):
    if value is None:
        return None
    if np.ndim(value) == 0:
        value = (value, value)
    values = tuple(int(v) for v in value)
    if len(values) != 2 or min(values) < 1:
        raise ValueError(f"{name} must be two positive integers, not {value!r}")
    return values


def level_file(levels):
    """Whether levels names a level file (rather than a count or None)."""
    return levels is not None and not isinstance(levels, (bool, int, np.bool_, np.integer))


def level_options(levels, start_level=None, level_order=None):
    """crafter-step's options for a level set: levels is a count N (levels
    start_level .. start_level+N-1 of the seed) or the path of a level
    file; start_level and level_order ("random" or "sequential") need it."""
    if levels is None:
        if start_level is not None or level_order is not None:
            raise ValueError("start_level and level_order need levels (a count or a level file)")
        return []
    if isinstance(levels, (bool, np.bool_)):
        raise ValueError(f"levels must be a count or a level file, not {levels!r}")
    if isinstance(levels, (int, np.integer)):
        if not 1 <= levels <= LEVELS_MAX:
            raise ValueError(f"levels must be a count from 1 to {LEVELS_MAX}, not {levels!r}")
        args = ["--levels", str(int(levels))]
    else:
        try:
            path = os.fsdecode(os.fspath(levels))
        except TypeError:
            raise ValueError(f"levels must be a count or a level file, not {levels!r}") from None
        if not path:
            raise ValueError("levels must be a count or a level file, not ''")
        if path.isdigit():  # crafter-step would read it as a count
            path = os.path.join(".", path)
        args = ["--levels", path]
    if start_level is not None:
        if isinstance(start_level, (bool, np.bool_)) or not isinstance(
                start_level, (int, np.integer)) or start_level < 1:
            raise ValueError(f"start_level must be a positive integer, not {start_level!r}")
        args += ["--start-level", str(int(start_level))]
    if level_order is not None:
        if level_order not in LEVEL_ORDERS:
            raise ValueError(f"level_order must be 'random' or 'sequential', not {level_order!r}")
        args += ["--level-order", level_order]
    return args


class Stream:
    """One crafter-step speaking the binary protocol.  seed None is
    crafter-step's default (0, or a level file's seed).  With levels (see
    level_options) every env shares the level set and a frame's episode
    section holds each env's level; first_episode must then be 1."""

    def __init__(self, envs=1, obs="pixels", seed=0, first_episode=1, area=None, view=None,
                 size=None, length=10000, textures=None, threads=1, transport="auto",
                 manual_reset=False, semantic=False, record=None, shm_slots=2,
                 program=None, buffers=2, tasks=None, split=None, task=None, levels=None,
                 start_level=None, level_order=None):
        if obs not in OBS_KINDS:
            raise ValueError(f"obs must be one of {', '.join(OBS_KINDS)}, not {obs!r}")
        if transport == "auto":
            transport = "shm" if hasattr(os, "memfd_create") else "pipe"
        if transport not in ("pipe", "shm"):
            raise ValueError(f"transport must be 'auto', 'pipe' or 'shm', not {transport!r}")
        self.transport = transport
        if int(envs) < 1:
            raise ValueError(f"envs must be at least 1, not {envs!r}")
        self.num_envs = int(envs)
        level_args = level_options(levels, start_level, level_order)
        if level_args and int(first_episode) != 1:
            raise ValueError("levels choose each episode's world: first_episode must be 1")
        args = [program or find_crafter_step(), "--binary", "--envs", str(self.num_envs),
                "--obs", obs]
        if seed is not None:
            args += ["--seed", str(int(seed))]
        if not level_args:
            args += ["--first-episode", str(int(first_episode))]
        args += ["--length", str(int(length or 0))] + level_args
        for name, value in (("area", area), ("view", view), ("size", size)):
            value = pair(name, value)
            if value is not None:
                args += ["--" + name, "%d,%d" % value]
        if textures is not None:
            args += ["--textures", os.fspath(textures)]
        if threads != 1:
            args += ["--threads", str(int(threads))]
        if manual_reset:
            args.append("--manual-reset")
        if semantic:
            args.append("--semantic")
        if record is not None:
            args += ["--record", os.fspath(record)]
        if tasks is not None:
            args += ["--tasks", os.fspath(tasks)]
        elif split is not None or task is not None:
            raise ValueError("split and task need tasks (a task file)")
        if split is not None:
            args += ["--split", str(split)]
        if task is not None:
            args += ["--task", str(task)]
        self.levels = False     # whether episodes are played on a level set
        self.tasks = []         # per goal: {"id", "family", "difficulty", "split"}
        self.instructions = []  # per wording: (index in tasks, text)
        self.process = None
        self.memory = None
        memory_fd = None
        pass_fds = ()
        if transport == "shm":
            memory_fd = os.memfd_create("crafter-step-frames", os.MFD_CLOEXEC)
            args += ["--shm-fd", str(memory_fd), "--shm-slots", str(int(shm_slots))]
            pass_fds = (memory_fd,)
        self.args = args
        try:
            self.process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, pass_fds=pass_fds)
            self._out = self.process.stdout
            self._read_header(memory_fd, buffers)
        except BaseException:
            self.close()
            raise
        finally:
            if memory_fd is not None:
                os.close(memory_fd)
        self._next = 0
        self._sequence = 0
        self._read_frame()

    # -- reading -------------------------------------------------------

    def _failure(self, what):
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        message = self.process.stderr.read().decode(errors="replace").strip()
        status = self.process.returncode
        said = f": {message}" if message else ""
        return CrafterStepError(f"crafter-step {what} (exit status {status}){said}")

    def _read_into(self, view):
        got, total = 0, len(view)
        while got < total:
            count = self._out.readinto(view[got:])
            if not count:
                raise self._failure(f"stopped after {got} of {total} bytes")
            got += count

    def _read_header(self, memory_fd, buffers):
        raw = bytearray(HEADER.size)
        self._read_into(memoryview(raw))
        fields = HEADER.unpack(raw)
        (magic, version, header_bytes, envs, kind, dtype, s0, s1, s2, obs_bytes, frame_bytes,
         actions, achievements, items, area_w, area_h, flags, slots) = fields[:18]
        offsets = fields[18:31]
        tasks = flags & FLAG_TASKS if version == VERSION else 0
        if magic != MAGIC or version != VERSION or (header_bytes != HEADER.size and not tasks):
            raise CrafterStepError(
                f"not a crafter-step binary stream of version {VERSION} "
                f"(magic {magic!r}, version {version})")
        if envs != self.num_envs or actions != ACTIONS or achievements != 22 or items != 16:
            raise CrafterStepError(f"unexpected header {fields!r}")
        self.obs_kind = OBS_KINDS[kind] if kind < len(OBS_KINDS) else None
        self.obs_shape = {1: (s0, s1, 3), 2: (s0, s1), 3: (s0,)}.get(kind, (0,))
        self.obs_dtype = np.dtype("<f4") if dtype == 2 else np.dtype("u1")
        self.area = (area_w, area_h)
        self.flags = flags
        self.levels = bool(flags & FLAG_LEVELS)
        self.frame_bytes = frame_bytes
        self.offsets = offsets
        if tasks:
            if header_bytes <= HEADER.size:
                raise CrafterStepError(f"a task table of {header_bytes - HEADER.size} bytes")
            table = bytearray(header_bytes - HEADER.size)
            self._read_into(memoryview(table))
            self._read_task_table(bytes(table))
        if flags & FLAG_SHM:
            if memory_fd is None or slots < 1:
                raise CrafterStepError("crafter-step wrote to shared memory it was not given")
            self.memory = mmap.mmap(memory_fd, frame_bytes * slots, mmap.MAP_SHARED,
                                    mmap.PROT_READ)
            self._frames = [self._views(memoryview(self.memory)[k * frame_bytes:
                                                              (k + 1) * frame_bytes])
                            for k in range(slots)]
            self._message = bytearray(8)
        else:
            self._buffers = [bytearray(frame_bytes) for _ in range(max(1, buffers))]
            self._frames = [self._views(memoryview(b)) for b in self._buffers]

    def _read_task_table(self, table):
        try:
            count, texts = struct.unpack_from("<II", table, 0)
            at = 8
            for _ in range(count):
                family, difficulty, split, length = struct.unpack_from("<IIII", table, at)
                name = table[at + 16:at + 16 + length].decode()
                at += 16 + length
                self.tasks.append({"id": name, "family": FAMILIES[family],
                                   "difficulty": DIFFICULTIES[difficulty],
                                   "split": SPLITS[split]})
            for _ in range(texts):
                index, length = struct.unpack_from("<II", table, at)
                text = table[at + 8:at + 8 + length].decode()
                at += 8 + length
                if index >= count:
                    raise IndexError(index)
                self.instructions.append((index, text))
        except (struct.error, IndexError, UnicodeDecodeError) as error:
            raise CrafterStepError(f"a task table that cannot be read: {error}") from None

    def goal(self, frame, i):
        """(task, instruction, met) of env i in a frame: the goal's
        {"id", "family", "difficulty", "split"}, the wording given and
        whether this step met it; None without tasks."""
        if not self.tasks:
            return None
        index, met = (int(v) for v in frame["task"][i])
        task, text = self.instructions[index]
        return self.tasks[task], text, bool(met)

    def goal_info(self, frame, i):
        """The info keys of env i's goal: "task" (its id), "instruction"
        and "goal" (met at this step); {} without tasks."""
        goal = self.goal(frame, i)
        if goal is None:
            return {}
        return {"task": goal[0]["id"], "instruction": goal[1], "goal": goal[2]}

    def level(self, frame, i):
        """The level env i plays in a frame (the episode section, which
        with a level set holds the level); None without levels."""
        return int(frame["episode"][i]) if self.levels else None

    def level_info(self, frame, i):
        """{"level": env i's level}, {} without levels."""
        return {"level": int(frame["episode"][i])} if self.levels else {}

    def _views(self, buffer):
        n, views = self.num_envs, {"buffer": buffer}
        for (name, dtype, width), offset in zip(SECTIONS, self.offsets):
            if name == "semantic":
                if not self.flags & FLAG_SEMANTIC:
                    continue
                width, shape = self.area[0] * self.area[1], (n,) + self.area
            elif name == "task" and not self.flags & FLAG_TASKS:
                continue
            elif name == "obs":
                dtype, shape = self.obs_dtype, (n,) + self.obs_shape
                width = int(np.prod(self.obs_shape))
            else:
                shape = (n, width) if width > 1 else (n,)
            array = np.frombuffer(buffer, dtype=dtype, count=n * width, offset=offset)
            views[name] = array.reshape(shape)
        return views

    def _read_frame(self):
        if self.memory is not None:
            self._read_into(memoryview(self._message))
            slot, sequence = struct.unpack("<II", self._message)
            if slot >= len(self._frames) or sequence != self._sequence:
                raise CrafterStepError(
                    f"frame {sequence} in slot {slot}, expected frame {self._sequence}")
            self.frame = self._frames[slot]
        else:
            self.frame = self._frames[self._next]
            self._read_into(self.frame["buffer"])
            self._next = (self._next + 1) % len(self._frames)
        self._sequence += 1
        return self.frame

    # -- stepping ------------------------------------------------------

    def step(self, actions):
        """Sends one action byte per env (0..16, or RESET; an array or
        bytes) and returns the
        next frame: a dict of numpy arrays that view the frame's buffer,
        valid until the buffer comes round again."""
        if not isinstance(actions, bytes):
            actions = np.ascontiguousarray(actions, dtype=np.uint8).tobytes()
        if self.process is None:
            raise CrafterStepError("the crafter-step of this environment was closed")
        try:
            self.process.stdin.write(actions)
        except (BrokenPipeError, ValueError, OSError):
            raise self._failure("stopped reading actions") from None
        return self._read_frame()

    def close(self):
        process, self.process = self.process, None
        if process is not None:
            for stream in (process.stdin, process.stdout):
                try:
                    if stream:
                        stream.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stderr:
                process.stderr.close()
        self._frames = []
        self.frame = None
        if self.memory is not None:
            try:
                self.memory.close()
            except BufferError:  # arrays handed out still view it: the GC frees it
                pass
            self.memory = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
