"""The binary protocol of crafter-step (crafter-protocol(5)): version 2
for Crafter, version 3 for the other games (crafter-games(7)).

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

A stream of another game (game="craftax-classic") is of version 3: the
header of version 2, flag 128, then 32 bytes naming the game; its frames
have Crafter's sections.  crafter-step plays such a game with the options
that game has (crafter-games(7)): on the pipe only, every episode followed
at once by the next (Craftax's auto-reset), and no render requests yet;
Craftax-Classic's pixels are its own, float32 63x63x3 (CRAFTAX_PIXELS);
save and load requests carry that game's states (format version 2 of
crafter-state(5)), so its streams are copied and survive fork() as
Crafter's do.
"""

import fcntl
import math
import mmap
import operator
import os
import selectors
import signal
import struct
import subprocess
import time
import weakref

import numpy as np

from . import _kinds, _textures
from ._errors import ClosedEnvError, CrafterStepError
from ._locate import find_crafter_step

MAGIC = b"CRAFTSTP"
VERSION = 2  # Crafter's streams
GAME_VERSION = 3  # the streams of the other games, with the game extension
GAME = struct.Struct("<32s")  # after the header with FLAG_GAME: the game's name, NUL-padded
HEADER = struct.Struct("<8s" + "I" * 30)
RESET = 255
RENDER = 253  # then uint32 env, width, height: a view at any size, nothing stepped
RENDER_MAX = 4096  # pixels on each axis
SAVE = 252  # then uint32 env: answered with uint32 L and the state's L bytes
LOAD = 251  # then uint32 env, uint32 L, the state: status, reason and a frame
STATE_MAX = 1 << 31  # bytes of a state this client takes (crafter-state(5))
ACTIONS = 17
FLAG_AUTORESET, FLAG_SEMANTIC, FLAG_SHM, FLAG_TASKS, FLAG_LEVELS, FLAG_FINAL = 1, 2, 4, 8, 16, 32
FLAG_PLAYERS = 64  # several players a world: the header's N counts agents (envs * players)
FLAG_GAME = 128  # the game extension follows the header: a game other than Crafter
KNOWN_FLAGS = 127  # of a Crafter stream (version 2)
GAME_FLAGS = FLAG_AUTORESET | FLAG_GAME  # of a stream of another game (version 3)
# The games this client plays (crafter-games(7)): their observation kinds.
# Crafter's streams are of version 2, the others' of version 3.
GAMES = {"crafter": _kinds.NAMES, "craftax-classic": ("symbolic", "none", "pixels")}
# Craftax-Classic's pixel observation (Craftax-Classic-Pixels-v1's): the
# header's dimensions and type, float32 in [0, 1].
CRAFTAX_PIXELS = (63, 63, 3)
CRAFTAX_PIXELS_DTYPE = 2
# Options of Stream that are Crafter's, with the value that leaves them
# out: another game refuses any other value (textures: but with pixels).
CRAFTER_ONLY = (("area", None), ("view", None), ("size", None), ("length", 10000),
                ("textures", None), ("manual_reset", False), ("semantic", False),
                ("record", None), ("tasks", None), ("split", None), ("task", None),
                ("levels", None), ("start_level", None), ("level_order", None),
                ("final_obs", False), ("players", 1))
# After the header with FLAG_PLAYERS: players, envs, alive's offset, 0.
PLAYERS = struct.Struct("<4I")
PLAYERS_MAX = 16
# Sections of a frame, in their order in the frame: (name, dtype, values an
# agent: an env, or with several players agent env * players + player).  The
# header gives the offsets of those up to obs (12) and of task; final, when
# there, starts where obs ends; alive's offset follows the header.
SECTIONS = (("reward", "<f8", 1), ("discount", "<f4", 1), ("done", "u1", 1),
            ("reset", "u1", 1), ("unlocked", "<u4", 1), ("episode", "<u4", 1),
            ("step", "<u4", 1), ("inventory", "<i4", 16), ("achievements", "<i4", 22),
            ("position", "<i4", 4), ("semantic", "u1", None), ("obs", None, None),
            ("final", None, None), ("task", "<u4", 2), ("alive", "u1", 1))
# What a header may say before anything is allocated from it.
AREA_MAX = 4096
TABLE_MAX = 64 << 20  # bytes of a task table
SLOTS_MAX = 64
FAMILIES = ("achievements", "localization", "conditional", "line", "square", "cross", "timed",
            "explore")
DIFFICULTIES = ("easy", "medium", "hard")
SPLITS = ("train", "test-paraphrase", "test-new-objects")
OBS_KINDS = _kinds.NAMES
LEVEL_ORDERS = ("random", "sequential")
LEVELS_MAX = 1000000  # the most levels a set holds
TIMEOUT = 60.0  # seconds crafter-step may go without progress (CRAFTER_STEP_TIMEOUT)
# Without a pidfd (Linux before 5.3, Python before 3.9), how often a wait
# looks whether crafter-step is still there.
DEATH_POLL = 0.1


def timeout_seconds(value=None):
    """How long a Stream waits for crafter-step to make any progress
    (send a byte, or take one) before it gives up: value (seconds), else
    the environment variable CRAFTER_STEP_TIMEOUT, else TIMEOUT; 0 waits
    for ever."""
    name = "timeout"
    if value is None:
        value = os.environ.get("CRAFTER_STEP_TIMEOUT", "")
        if value == "":
            return TIMEOUT
        name = "CRAFTER_STEP_TIMEOUT"
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"{name} is a number of seconds (0: no limit), not {value!r}")
    return seconds


def counted(count, noun):
    """'1 byte', '2 bytes': a count and its noun, in the right number."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def exit_text(status):
    """A child's end as words: its exit status, or the signal that killed it."""
    if status is not None and status < 0:
        try:
            return f"killed by signal {-status} ({signal.Signals(-status).name})"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


SEED_LIMIT = 2 ** 62  # crafter-step takes seeds in [-2**62, 2**62)


def seed_value(seed):
    """A seed as crafter-step takes it (an integer), or ValueError."""
    try:
        value = operator.index(seed)
    except TypeError:
        raise ValueError(f"a seed is an integer, not {seed!r}") from None
    if not -SEED_LIMIT <= value < SEED_LIMIT:
        raise ValueError(f"a seed is an integer from -2**62 to 2**62 - 1, not {value}")
    return value


def fresh_seed():
    """A seed from fresh entropy, in crafter.Env's range [0, 2**31 - 1)."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] % (2 ** 31 - 1))


def reopen(stream, current_seed, seed, options, draw):
    """The stream a reset plays on: the running one when no seed is given,
    else a new one (the old one closed) of the given seed, or of a seed from
    draw() when there is none yet and no level file gives it.  Returns
    (stream, seed)."""
    if seed is None and stream is not None:
        return stream, current_seed
    if stream is not None:
        stream.close()
    if seed is not None:
        current_seed = seed_value(seed)
    elif current_seed is None and not level_file(options.get("levels")):
        current_seed = draw()
    return Stream(seed=current_seed, **options), current_seed


def render_size(obs, render_mode, size, view):
    """(width, height) at which an env of these arguments renders the
    views of its players for render_mode "rgb_array" (None without it);
    ValueError for another mode, or a size under 2 pixels a cell of the
    view with observations that are not pixels (Crafter cannot draw it)."""
    if render_mode not in (None, "rgb_array"):
        raise ValueError(f"render_mode must be None or 'rgb_array', not {render_mode!r}")
    if render_mode is None:
        return None
    size, view = pair("size", size), pair("view", view)
    if obs != "pixels" and not (2 * view[0] <= size[0] <= RENDER_MAX
                                and 2 * view[1] <= size[1] <= RENDER_MAX):
        raise ValueError(f"render_mode='rgb_array' with obs={obs!r} draws the view at size "
                         f"{size[0]}x{size[1]}, which must be from {2 * view[0]}x{2 * view[1]} "
                         f"(2 pixels a cell of the view) to {RENDER_MAX}x{RENDER_MAX}")
    return size


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


def _pidfd(pid):
    """A descriptor that becomes readable when process pid ends (Linux's
    pidfd_open), or None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


# Streams alive in this process, for fork(): before it, each saves its
# envs' states; in the child, each lets the parent's crafter-step go and
# starts its own from them when it is next used.
_LIVE = weakref.WeakSet()


def _each_live(method):
    def run():
        for stream in list(_LIVE):
            getattr(stream, method)()
    return run


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_each_live("_before_fork"),
                        after_in_parent=_each_live("_after_fork_in_parent"),
                        after_in_child=_each_live("_after_fork_in_child"))


class Stream:
    """One crafter-step speaking the binary protocol.  seed None is
    crafter-step's default (0, or a level file's seed).  With levels (see
    level_options) every env shares the level set and a frame's episode
    section holds each env's level; first_episode must then be 1.  With
    players P > 1, P players share each env's world: every section of a
    frame is an array over the num_agents = envs * P agents, agent
    env * P + p being player p of env, and a step takes num_agents bytes.

    timeout: the seconds crafter-step may go without any progress (a byte
    sent or taken) before the stream gives up on it, stops it and raises
    CrafterStepError; None takes CRAFTER_STEP_TIMEOUT from the environment,
    else 60; 0 waits for ever.

    obs None is "pixels" for Crafter, "symbolic" for the other games.

    game: "crafter" (the default: a stream of version 2) or another game of
    GAMES, "craftax-classic" (crafter-games(7): a stream of version 3, whose
    name the stream checks).  Another game takes envs, obs (its kinds:
    "symbolic", "none" or "pixels"), seed (env i plays seed + i by the
    game's own schedule), first_episode (the episode counter only),
    threads, program, buffers and timeout, and with pixels textures
    (Craftax's assets folder, "builtin", or None: the installed craftax's,
    else the built-in ones; see _textures.choose_craftax); transport
    "auto" is the pipe there, and the options that are Crafter's
    (CRAFTER_ONLY) must keep their defaults.
    Every episode is then followed at once by the next (flag 1): the frame
    of the step that ended one holds its reward, done, step and
    achievements with the next one's first observation (reset 1)."""

    def __init__(self, envs=1, obs=None, seed=0, first_episode=1, area=None, view=None,
                 size=None, length=10000, textures=None, threads=1, transport="auto",
                 manual_reset=False, semantic=False, record=None, shm_slots=2,
                 program=None, buffers=2, tasks=None, split=None, task=None, levels=None,
                 start_level=None, level_order=None, final_obs=False, players=1,
                 timeout=None, game="crafter"):
        # What a copy starts its own crafter-step with (see __getstate__).
        self._arguments = {name: value for name, value in locals().items()
                           if name not in ("self", "__class__")}
        self._inherited = None  # after fork(): the states to start again from
        self.timeout = timeout_seconds(timeout)
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        self.game = game  # the stream's header says it again, and is checked
        if obs is None:
            obs = "pixels" if game == "crafter" else "symbolic"
        if obs not in GAMES[game]:
            raise ValueError(f"obs must be one of {', '.join(GAMES[game])}"
                             f"{'' if game == 'crafter' else ' for ' + game}, not {obs!r}")
        if game != "crafter":
            given = [name for name, default in CRAFTER_ONLY
                     if self._arguments[name] != default
                     and not (name == "length" and self._arguments[name] is None)
                     and not (name == "textures" and obs == "pixels")]
            if transport == "shm":
                given.append("transport='shm'")
            if given:
                named = ", ".join(given[:-1]) + " and " + given[-1] if len(given) > 1 else given[0]
                raise ValueError(f"{named} {'is' if len(given) == 1 else 'are'} "
                                 f"Crafter's, not for {game} (crafter-games(7) says what "
                                 f"each game takes)")
            transport = "pipe"  # crafter-step shares no memory for this game yet
        if transport == "auto":
            transport = "shm" if hasattr(os, "memfd_create") else "pipe"
        if transport not in ("pipe", "shm"):
            raise ValueError(f"transport must be 'auto', 'pipe' or 'shm', not {transport!r}")
        self.transport = transport
        if int(envs) < 1:
            raise ValueError(f"envs must be at least 1, not {envs!r}")
        self.num_envs = int(envs)
        if not 1 <= int(players) <= PLAYERS_MAX:
            raise ValueError(f"players must be 1 to {PLAYERS_MAX}, not {players!r}")
        self.players = int(players)
        self.num_agents = self.num_envs * self.players
        level_args = level_options(levels, start_level, level_order)
        if level_args and int(first_episode) != 1:
            raise ValueError("levels choose each episode's world: first_episode must be 1")
        args = [program or find_crafter_step()]
        if game != "crafter":
            args += ["--game", game]
        args += ["--binary", "--envs", str(self.num_envs), "--obs", obs]
        if seed is not None:
            args += ["--seed", str(seed_value(seed))]
        if not level_args:
            args += ["--first-episode", str(int(first_episode))]
        if game == "crafter":
            args += ["--length", str(int(length or 0))]
        args += level_args
        if self.players > 1:
            args += ["--players", str(self.players)]
        for name, value in (("area", area), ("view", view), ("size", size)):
            value = pair(name, value)
            if value is not None:
                args += ["--" + name, "%d,%d" % value]
        self._notice = _textures.notice
        if game == "crafter":
            texture_args, environment, self._builtin_default = _textures.choose(textures)
            args += texture_args
        elif obs == "pixels":  # Craftax's textures: CRAFTER_TEXTURES names Crafter's
            texture_args, self._builtin_default = _textures.choose_craftax(textures)
            args += texture_args
            environment, self._notice = None, _textures.notice_craftax
        else:  # no pictures: no textures
            environment, self._builtin_default = None, False
        if threads != 1:
            args += ["--threads", str(int(threads))]
        if manual_reset:
            args.append("--manual-reset")
        if semantic:
            args.append("--semantic")
        if final_obs:
            if manual_reset:
                raise ValueError("final_obs is for auto-reset, not with manual_reset")
            args.append("--final-obs")
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
            if memory_fd <= 2:
                # A standard stream of this process was closed: in the
                # child that number is one of crafter-step's pipes.
                low, memory_fd = memory_fd, fcntl.fcntl(memory_fd, fcntl.F_DUPFD_CLOEXEC, 3)
                os.close(low)
            args += ["--shm-fd", str(memory_fd), "--shm-slots", str(int(shm_slots))]
            pass_fds = (memory_fd,)
        self.args = args
        try:
            try:
                self.process = subprocess.Popen(
                    args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    bufsize=0, pass_fds=pass_fds, env=environment)
            except OSError as error:
                raise CrafterStepError(f"cannot run {args[0]}: {error.strerror or error}"
                                       + (" (set by CRAFTER_STEP)"
                                          if os.environ.get("CRAFTER_STEP") == args[0] else "")
                                       ) from None
            self._out = self.process.stdout
            self._in = self.process.stdin.fileno()
            # Actions go out without blocking, so that a child that stops
            # reading is found out (see _send).
            os.set_blocking(self._in, False)
            self._readable = selectors.DefaultSelector()
            self._readable.register(self._out, selectors.EVENT_READ)
            self._writable = selectors.DefaultSelector()
            self._writable.register(self._in, selectors.EVENT_WRITE)
            # crafter-step's end wakes every wait: a process it leaves behind
            # may hold its pipes open, which then never say it ended.
            self._death = _pidfd(self.process.pid)
            if self._death is not None:
                for selector in (self._readable, self._writable):
                    selector.register(self._death, selectors.EVENT_READ)
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
        if self.obs_kind == "pixels" and self._builtin_default:
            self._notice()
        _LIVE.add(self)

    # -- reading -------------------------------------------------------

    def _failure(self, what, stop=False):
        """A CrafterStepError for crafter-step's end: with its status and
        what it said on its standard error.  The child is given 5 seconds
        to end once its input is closed, or with stop, stopped at once."""
        try:
            if self.process.stdin:
                self.process.stdin.close()
        except OSError:
            pass
        if stop:
            self.process.kill()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        message = self._said()
        said = f": {message}" if message else ""
        ended = "stopped by this client" if stop else exit_text(self.process.returncode)
        return CrafterStepError(f"crafter-step {what} ({ended}){said}")

    def _said(self, seconds=5):
        """What the ended child wrote on its standard error (waiting at
        most `seconds` for it: a descendant may hold the pipe open)."""
        stream = self.process.stderr
        if stream is None:
            return ""
        chunks, deadline = [], time.monotonic() + seconds
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while sum(map(len, chunks)) < 1 << 16:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    break
                chunk = os.read(stream.fileno(), 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace").strip()

    def _stalled(self, what, progress):
        return self._failure(f"{what} for {self.timeout:g} s, {progress} (the seconds it may "
                             f"go without progress: CRAFTER_STEP_TIMEOUT)", stop=True)

    def _ready(self, selector):
        """Waits for the pipe the selector watches: True once it is ready,
        False when crafter-step made no progress for the timeout, None
        when crafter-step ended first (its pipe not ready: something it
        left behind holds it open)."""
        deadline = time.monotonic() + self.timeout if self.timeout else None
        death = getattr(self, "_death", None)
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if death is None:
                wait = DEATH_POLL if wait is None else min(wait, DEATH_POLL)
            if any(key.fileobj is not death for key, _ in selector.select(wait)):
                return True
            if self.process.poll() is not None:
                # What it sent before it ended is there to be read.
                return any(key.fileobj is not death for key, _ in selector.select(0)) or None
            if deadline is not None and time.monotonic() >= deadline:
                return False

    def _read_into(self, view):
        got, total = 0, len(view)
        while got < total:
            ready = self._ready(self._readable)
            if ready is False:
                raise self._stalled("sent nothing", f"after {got} of {counted(total, 'byte')}")
            if ready is None:
                raise self._failure(f"stopped after {got} of {counted(total, 'byte')}")
            count = self._out.readinto(view[got:])
            if not count:
                raise self._failure(f"stopped after {got} of {counted(total, 'byte')}")
            got += count

    def _send(self, data, what):
        """Writes data to crafter-step's input; `what` it is (for errors)."""
        if self._inherited is not None:
            self._start_again()
        self.check_open()
        if self.process.stdin.closed:  # it ended before: say so again
            raise self._failure(f"stopped reading {what}")
        view, sent = memoryview(data).cast("B"), 0
        while sent < len(view):
            try:
                sent += os.write(self._in, view[sent:])
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ValueError, OSError):
                raise self._failure(f"stopped reading {what}") from None
            ready = self._ready(self._writable)
            if ready is False:
                raise self._stalled(f"read none of the {what}",
                                    f"after {sent} of {counted(len(view), 'byte')}")
            if ready is None:
                raise self._failure(f"stopped reading {what}")

    def _read_header(self, memory_fd, buffers):
        raw = bytearray(HEADER.size)
        self._read_into(memoryview(raw))
        fields = HEADER.unpack(raw)
        (magic, version, header_bytes, envs, kind, dtype, s0, s1, s2, obs_bytes, frame_bytes,
         actions, achievements, items, area_w, area_h, flags, slots) = fields[:18]
        offsets = fields[18:31]
        if magic != MAGIC:
            raise self._bad_stream(f"not a crafter-step binary stream (magic {magic!r}, not "
                                   f"{MAGIC!r})")
        if version not in (VERSION, GAME_VERSION):
            raise self._bad_stream(f"a stream of protocol version {version}; this client "
                                   f"reads versions {VERSION} (Crafter) and {GAME_VERSION} "
                                   f"(the other games) of crafter-protocol(5): a "
                                   f"crafter-step of another release")
        if (version == GAME_VERSION) != bool(flags & FLAG_GAME):
            raise self._bad_stream(f"a stream of protocol version {version} "
                                   f"{'without' if version == GAME_VERSION else 'with'} the "
                                   f"game extension (flag {FLAG_GAME}): version {GAME_VERSION} "
                                   f"and that flag come together")
        game_bytes = GAME.size if flags & FLAG_GAME else 0
        if game_bytes:
            if header_bytes != HEADER.size + game_bytes or flags & ~GAME_FLAGS \
                    or not flags & FLAG_AUTORESET:
                raise self._bad_stream(f"a header of another game that does not add up "
                                       f"(header of {counted(header_bytes, 'byte')}, flags "
                                       f"{flags})")
            raw = bytearray(GAME.size)
            self._read_into(memoryview(raw))
            self._read_game(bytes(raw))
        elif self.game != "crafter":
            raise self._bad_stream(f"a stream of Crafter (protocol version {version}), not of "
                                   f"{self.game}")
        tasks = flags & FLAG_TASKS
        extension = PLAYERS.size if flags & FLAG_PLAYERS else 0
        if (envs != self.num_agents or bool(extension) != (self.players > 1)
                or actions != ACTIONS or achievements != 22 or items != 16
                or (not game_bytes and flags & ~KNOWN_FLAGS) or not 1 <= area_w <= AREA_MAX
                or not 1 <= area_h <= AREA_MAX or kind not in _kinds.BY_ID
                or (header_bytes != HEADER.size + game_bytes + extension and not tasks)
                or (tasks and not HEADER.size + extension < header_bytes
                    <= HEADER.size + extension + TABLE_MAX)
                or (flags & FLAG_SHM and not 1 <= slots <= SLOTS_MAX)):
            raise self._bad_stream(f"a header that does not add up {fields[1:18]!r}")
        if tasks and (header_bytes - HEADER.size - extension) % 8:
            raise self._bad_stream(f"a task table of {header_bytes - HEADER.size - extension} "
                                   f"bytes, not a multiple of 8")
        row = _kinds.BY_ID[kind]
        if row.name not in GAMES[self.game]:
            raise self._bad_stream(f"{row.name} observations, which {self.game} does not have")
        self.obs_kind = row.name
        self.obs_shape = row.shape((s0, s1, s2))
        self.obs_dtype = np.dtype("<f4") if dtype == 2 else np.dtype("u1")
        # A picture of the size the header gives (the client asked for it);
        # Craftax-Classic's of its own size and type.
        expected_dims = row.dims((s1, s0), (area_w, area_h), self.players)
        expected_dtype = row.dtype
        if game_bytes and row.name == "pixels":
            expected_dims, expected_dtype = CRAFTAX_PIXELS, CRAFTAX_PIXELS_DTYPE
        if (s0, s1, s2) != expected_dims or dtype != expected_dtype or \
                (row.name == "pixels" and not 1 <= min(s0, s1) <= max(s0, s1) <= RENDER_MAX) or \
                obs_bytes != int(np.prod(self.obs_shape)) * self.obs_dtype.itemsize:
            raise self._bad_stream(f"an observation that does not add up {fields[4:10]!r}")
        self.area = (area_w, area_h)
        self.flags = flags
        self.levels = bool(flags & FLAG_LEVELS)
        alive = None
        if extension:
            raw = bytearray(extension)
            self._read_into(memoryview(raw))
            players, worlds, alive, _ = PLAYERS.unpack(raw)
            if (players, worlds) != (self.players, self.num_envs):
                raise self._bad_stream(f"{counted(players, 'player')} in "
                                       f"{counted(worlds, 'env')}, not {self.players} in "
                                       f"{self.num_envs}")
        # The frame as crafter-step lays it out: every section on a multiple
        # of 64; what the header says must be exactly that.
        n, at, layout = self.num_agents, 0, {}
        for name, section_dtype, width in SECTIONS:
            if name == "semantic":
                size = area_w * area_h if flags & FLAG_SEMANTIC else 0
            elif name == "obs":
                size = obs_bytes
            elif name == "final":
                size = obs_bytes if flags & FLAG_FINAL else 0
            elif name == "task":
                size = 8 if tasks else 0
            elif name == "alive":
                size = 1 if extension else 0
            else:
                size = np.dtype(section_dtype).itemsize * width
            layout[name] = at
            at = (at + size * n + 63) // 64 * 64
        said = list(offsets[:12]) + [layout["final"], offsets[12] if tasks else layout["task"],
                                     layout["alive"] if alive is None else alive]
        if said != [layout[name] for name, _, _ in SECTIONS] or frame_bytes != at:
            raise self._bad_stream(f"a frame layout that does not add up (frame of {frame_bytes} "
                                   f"bytes, sections at {offsets!r})")
        self.frame_bytes = frame_bytes
        self.offsets = [layout[name] for name, _, _ in SECTIONS]
        if tasks:
            table = bytearray(header_bytes - HEADER.size - extension)
            self._read_into(memoryview(table))
            self._read_task_table(bytes(table))
        if flags & FLAG_SHM:
            if memory_fd is None:
                raise self._bad_stream("crafter-step wrote to shared memory it was not given")
            size = os.fstat(memory_fd).st_size
            if size != frame_bytes * slots:
                raise self._bad_stream(f"a ring of {counted(slots, 'frame')} of {frame_bytes} "
                                       f"bytes in shared memory of {counted(size, 'byte')}")
            self.memory = mmap.mmap(memory_fd, frame_bytes * slots, mmap.MAP_SHARED,
                                    mmap.PROT_READ)
            self._frames = [self._views(memoryview(self.memory)[k * frame_bytes:
                                                              (k + 1) * frame_bytes])
                            for k in range(slots)]
            self._message = bytearray(8)
        else:
            if memory_fd is not None:
                raise self._bad_stream("crafter-step did not use the shared memory it was given")
            self._buffers = [bytearray(frame_bytes) for _ in range(max(1, buffers))]
            self._frames = [self._views(memoryview(b)) for b in self._buffers]

    def _read_game(self, raw):
        """The game extension: the game's name, NUL-padded, which must be
        a game this client plays and the one it asked for."""
        name, _, padding = raw.partition(b"\0")
        try:
            game = name.decode("ascii")
        except UnicodeDecodeError:
            game = None
        if game is None or not game or any(padding):
            raise self._bad_stream(f"a game extension that is not a name padded with NUL "
                                   f"bytes ({raw!r})")
        if game not in GAMES:
            raise self._bad_stream(f"a stream of the game {game!r}, which this client does not "
                                   f"play (it plays {', '.join(GAMES)}): a crafter-step of "
                                   f"another release")
        if game != self.game:
            raise self._bad_stream(f"a stream of {game}, not of the {self.game} asked for")

    def _bad_stream(self, what):
        """A CrafterStepError for what crafter-step sent, with what it
        said on its standard error; a child that sends what no
        crafter-step of this protocol does is stopped."""
        if self.process is None:
            return CrafterStepError(f"crafter-step sent {what}")
        return self._failure(f"sent {what}", stop=self.process.poll() is None)

    def _read_task_table(self, table):
        def text(at, length):
            if at + length > len(table):
                raise IndexError(f"{counted(length, 'byte')} at {at} of a table of {len(table)}")
            return table[at:at + length].decode()

        try:
            count, texts = struct.unpack_from("<II", table, 0)
            at = 8
            for _ in range(count):
                family, difficulty, split, length = struct.unpack_from("<IIII", table, at)
                name = text(at + 16, length)
                at += 16 + length
                self.tasks.append({"id": name, "family": FAMILIES[family],
                                   "difficulty": DIFFICULTIES[difficulty],
                                   "split": SPLITS[split]})
            for _ in range(texts):
                index, length = struct.unpack_from("<II", table, at)
                wording = text(at + 8, length)
                at += 8 + length
                if index >= count:
                    raise IndexError(f"a wording of goal {index} of {count}")
                self.instructions.append((index, wording))
        except (struct.error, IndexError, UnicodeDecodeError) as error:
            raise self._bad_stream(f"a task table that cannot be read: {error}") from None
        # Its goals and wordings, then zeros up to a multiple of 8: the
        # header's size must count exactly that.
        if (at + 7) // 8 * 8 != len(table) or any(table[at:]):
            raise self._bad_stream(f"a task table of {len(table)} bytes whose goals and "
                                   f"wordings end at byte {at}")

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
        n, views = self.num_agents, {"buffer": buffer}
        for (name, dtype, width), offset in zip(SECTIONS, self.offsets):
            if name == "semantic":
                if not self.flags & FLAG_SEMANTIC:
                    continue
                width, shape = self.area[0] * self.area[1], (n,) + self.area
            elif name == "task" and not self.flags & FLAG_TASKS:
                continue
            elif name == "final" and not self.flags & FLAG_FINAL:
                continue
            elif name == "alive" and not self.flags & FLAG_PLAYERS:
                continue
            elif name in ("obs", "final"):
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
                raise self._bad_stream(
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
        """Sends one action byte per agent (0..16, or RESET; an array or
        bytes) and returns the
        next frame: a dict of numpy arrays that view the frame's buffer,
        valid until the buffer comes round again."""
        if not isinstance(actions, bytes):
            actions = np.ascontiguousarray(actions, dtype=np.uint8).tobytes()
        self._send(actions, "actions")
        return self._read_frame()

    def render(self, i, width, height):
        """Env i's view (with several players: agent i's) drawn at width x
        height pixels, as crafter.Env's render(size) draws it (at night
        with noise from the world's generator, so the game goes on
        differently, as Crafter's does); nothing is stepped.  An array
        (height, width, 3) of its own."""
        self._crafter_only("render")
        if self._builtin_default:
            _textures.notice()
        self._send(struct.pack("<BIII", RENDER, i, width, height), "requests")
        pixels = np.empty((height, width, 3), np.uint8)
        self._read_into(memoryview(pixels).cast("B"))
        return pixels

    def render_unchanged(self, i, agents, width, height):
        """The views of env i's agents (indices of render) drawn at width x
        height as render draws them, the game left exactly as it was:
        env i's state is saved before and loaded after, so night noise
        drawn for these pictures changes nothing, and the last frame keeps
        its contents.  A list of arrays (height, width, 3)."""
        kept = {name: np.array(value) for name, value in self.frame.items()}
        state = self.save_state(i)
        pictures = [self.render(agent, width, height) for agent in agents]
        self.load_state(i, state)
        self.frame = kept
        return pictures

    def _crafter_only(self, what):
        """NotImplementedError for a request crafter-step answers only for
        Crafter so far (render): asked of another game's stream it would
        end the stream."""
        if self.game != "crafter":
            raise NotImplementedError(f"crafter-step does not answer {what} requests for "
                                      f"{self.game} yet (crafter-protocol(5))")

    def check_open(self):
        """Raises ClosedEnvError once close() was called.  (In a child of
        fork() the process is let go but the env is open: the next request
        starts a crafter-step of the child's own.)"""
        if self.process is None and getattr(self, "_inherited", None) is None:
            raise ClosedEnvError()

    # -- saved states (crafter-state(5)) --------------------------------

    def save_state(self, i):
        """Env i's whole state as bytes: what load_state takes, in this
        stream or another of the same parameters, to go on exactly from
        here.  Nothing is stepped.  A stream of another game saves that
        game's states (crafter-state(5), format version 2: for
        craftax-classic, Craftax's EnvState with the seed, episode counter
        and the schedule's key)."""
        self._send(struct.pack("<BI", SAVE, i), "requests")
        head = bytearray(4)
        self._read_into(memoryview(head))
        size = struct.unpack("<I", head)[0]
        if size > STATE_MAX:
            raise self._bad_stream(f"a state of {counted(size, 'byte')}")
        state = bytearray(size)
        self._read_into(memoryview(state))
        return bytes(state)

    def load_state(self, i, state):
        """Loads a state (from save_state) into env i and returns the frame
        that answers it: env i's entries hold the loaded state (reward 0,
        done for the players whose episodes had ended), the others those of
        the last frame.  A state crafter-step refuses (other parameters,
        another game's, damaged bytes, bytes longer than any state of these
        parameters, a recording stream) raises ValueError with its reason,
        and changes nothing: the stream goes on.  A game that resets itself
        (craftax-classic) loads a state as one to play on: not done, reward
        0, its timestep in the step section."""
        state = memoryview(state).cast("B")
        self._send(struct.pack("<BII", LOAD, i, len(state)) + bytes(state), "requests")
        head = bytearray(8)
        self._read_into(memoryview(head))
        status, length = struct.unpack("<II", head)
        if status > 1 or length > 1 << 16:
            raise self._bad_stream(f"a load answered with status {status} and a reason of "
                                   f"{counted(length, 'byte')}")
        reason = bytearray(length)
        self._read_into(memoryview(reason))
        if status:
            raise ValueError(f"crafter-step refused the state: {reason.decode(errors='replace')}")
        return self._read_frame()

    def __getstate__(self):
        """A copy (copy.deepcopy, pickle) is a stream of its own: a new
        crafter-step started with the same arguments, every env loaded with
        this one's state."""
        if self._arguments.get("record") is not None:
            raise TypeError("a stream that records (record=) cannot be copied: the copy would "
                            "write the same file")
        states = self._inherited
        if states is None:
            states = [self.save_state(i) for i in range(self.num_envs)]
        elif isinstance(states, str):
            raise CrafterStepError(states)
        return {"arguments": self._arguments, "states": states}

    def __setstate__(self, state):
        self.__init__(**state["arguments"])
        for i, saved in enumerate(state["states"]):
            self.load_state(i, saved)

    def _start_again(self):
        """After fork(), in the child: a crafter-step of its own, every env
        loaded with the state the parent's had at the fork."""
        states, self._inherited = self._inherited, None
        if isinstance(states, str):
            self._inherited = states
            raise CrafterStepError(states)
        self.__setstate__({"arguments": self._arguments, "states": states})

    def _before_fork(self):
        """In the parent, before fork(): the states the child starts from."""
        self._fork_states = None
        if self.process is None or self._inherited is not None:
            self._fork_states = self._inherited
        elif self._arguments.get("record") is not None:
            self._fork_states = ("this environment records (record=): a copy in a process "
                                 "forked from its own would write the same file; make a new "
                                 "environment in the child")
        else:
            try:
                self._fork_states = [self.save_state(i) for i in range(self.num_envs)]
            except Exception as error:  # the child says why when it is used
                self._fork_states = f"its state could not be saved before fork(): {error}"

    def _after_fork_in_child(self):
        """In the child: the parent's crafter-step is the parent's.  Its
        pipes and shared memory are let go here (closing copies, never
        signalling, waiting for or writing to the parent's child), and the
        child starts its own from the saved states on first use."""
        states = getattr(self, "_fork_states", None)
        self._fork_states = None
        process, self.process = self.process, None
        if process is None and self._inherited is None:
            return  # closed before the fork: stays closed
        if process is not None:
            process.returncode = 0  # the child never waits for the parent's child
            for pipe in (process.stdin, process.stdout, process.stderr):
                try:
                    if pipe:
                        pipe.close()
                except OSError:
                    pass
            for selector in (self._readable, self._writable):
                selector.close()
            self._close_death()
            self._inherited = states if states is not None else (
                "this environment's crafter-step belongs to the process this one was forked "
                "from, and its state was not saved at the fork")
        if self.frame is not None:  # the last frame, kept apart from the parent's buffers
            self.frame = {name: np.array(value) for name, value in self.frame.items()}
        self._frames = []
        if self.memory is not None:
            try:
                self.memory.close()
            except BufferError:
                pass
            self.memory = None

    def _after_fork_in_parent(self):
        self._fork_states = None

    def _close_death(self):
        death, self._death = getattr(self, "_death", None), None
        if death is not None:
            os.close(death)

    def close(self):
        for selector in (getattr(self, "_readable", None), getattr(self, "_writable", None)):
            if selector is not None:
                selector.close()
        self._close_death()
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
