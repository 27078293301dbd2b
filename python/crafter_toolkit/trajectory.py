"""Trajectory files (crafter-trajectory(5)) read from Python: the header's
settings and each episode's chunk, with its actions, rewards, flags and
stored observations.  A file that is not whole (damage, a repeated
chunk) is refused: crafter-dataset verify says what is wrong and
crafter-dataset merge -o FIXED FILE keeps every intact episode.

Files of every version are read: 1 to 4 hold Crafter's episodes, 5 those
of another game (Craftax-Classic, crafter-games(7)), whose header names
the game and whose chunks hold the keys each episode started with (the
world key and the schedule's key, JAX's uint32[2] keys) where Crafter's
hold the world seed.  Header.game and Episode.game say which game;
what one game's files have and the other's do not (a Craftax-Classic
episode's world seed, a Crafter episode's keys) raises AttributeError
saying so.

Memory follows what a file really holds, never what it claims: the
header's parameters and every chunk header's sizes are checked against
the toolkit's bounds (those of crafter-dataset's reader) before anything
is read or allocated from them, and an episode's steps are inflated
within the size its header announces, so a crafted file is refused, with
a message naming the file and the episode, at the cost of its
compressed bytes."""

import os
import struct
import zlib

import numpy as np

from .names import ACHIEVEMENTS, ACTIONS, ITEMS

HEADER_BYTES = 128
CHUNK_HEADER_BYTES = 256
STEP_BYTES = 16
OBS_KINDS = ("none", "pixels", "semantic", "symbolic")
ENDS = ("cut", "time_limit", "died", "goal")
# One step record: action, flags (bit 0 done, 1 died, 2 goal met), two
# reserved bytes, the achievements the step unlocked, the reward.
STEP = np.dtype([("action", "u1"), ("flags", "u1"), ("reserved", "<u2"), ("unlocked", "<u4"),
                 ("reward", "<f8")])
# The bounds of the toolkit's readers (crafter-trajectory(5)): the
# parameters an env takes, the players of a world, the levels of a set.
SIDE_MAX = 4096  # cells of the area and view, pixels of the size, on each axis
LENGTH_MAX = 1000000000
PLAYERS_MAX = 16
LEVELS_MAX = 1000000
EPISODE_MAX = 2 ** 31 - 1
SYMBOLIC_VALUES = 1345  # one player's; a world of several has 7 x 9 more
GAME_VERSION = 5  # the files of a game other than Crafter
# The games by number (crafter-games(7)); a file of versions 1 to 4 is
# Crafter's, one of version 5 names its game at byte 18 of the header.
GAMES = ("crafter", "craftax-classic")
CRAFTER, CRAFTAX_CLASSIC = GAMES
# The parameters a game other than Crafter plays by, which its files hold
# and which no option changes: area, view, size, length, reward.
GAME_PARAMETERS = {CRAFTAX_CLASSIC: ((64, 64), (9, 9), (63, 63), 10000, True)}
GAME_OBS = {CRAFTAX_CLASSIC: ("none", "symbolic")}
TABLE_HEADER_BYTES = 32  # of the task table and the rules
MAX_RATIO = 1040  # zlib inflates no stream more than this


class TrajectoryError(ValueError):
    """The file is not a whole trajectory file; the message says where."""


def _crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


class Header:
    """The settings of a file: version, game (a name of GAMES: "crafter"
    for versions 1 to 4, the game its header names in version 5),
    obs (a kind of OBS_KINDS), players, area, view, size, reward, length,
    seed, agent, textures_crc, levels (0 for fresh worlds), level_first,
    level_order, and the bytes of its task table and rules (0 without).
    A file of another game than Crafter has that game's own parameters
    (area, view, size, length, reward), one player and no task table,
    rules, levels or textures."""

    def __init__(self, data, path):
        if len(data) < 8 or data[:8] != b"CRAFTTRJ":
            raise TrajectoryError(f"{path}: not a trajectory file")
        if len(data) < HEADER_BYTES:
            raise TrajectoryError(f"{path}: the header is cut short: {len(data)} of "
                                  f"{HEADER_BYTES} bytes")
        if struct.unpack_from("<I", data, 124)[0] != _crc(data[:124]):
            raise TrajectoryError(f"{path}: the header's checksum does not match")
        self.version, = struct.unpack_from("<I", data, 8)
        if not 1 <= self.version <= GAME_VERSION:
            raise TrajectoryError(f"{path}: format version {self.version}, not 1 to "
                                  f"{GAME_VERSION} (a newer toolkit may read it)")
        kind, at18, self.obs_bytes = struct.unpack_from("<HHI", data, 16)
        if kind >= len(OBS_KINDS):
            raise TrajectoryError(f"{path}: observation kind {kind}")
        self.obs = OBS_KINDS[kind]
        # Version 4 counts its players at byte 18, version 5 names its game
        # there; before, those bytes are zero.
        players = at18
        self.game_number = 0
        if self.version == GAME_VERSION:
            if not 0 < at18 < len(GAMES):
                raise TrajectoryError(
                    f"{path}: format version {self.version} of game number {at18}, which this "
                    f"package does not read (its games are {', '.join(GAMES)}; a newer toolkit "
                    f"may)")
            self.game_number, players = at18, 0
        self.game = GAMES[self.game_number]
        self.players = max(1, players)
        self.area = struct.unpack_from("<2i", data, 24)
        self.view = struct.unpack_from("<2i", data, 32)
        self.size = struct.unpack_from("<2i", data, 40)
        self.reward = bool(struct.unpack_from("<I", data, 48)[0])
        self.length, self.seed = struct.unpack_from("<qq", data, 56)
        self.agent = data[80:96].rstrip(b"\0").decode("ascii", "replace")
        self.textures_crc, = struct.unpack_from("<I", data, 96)
        self.task_bytes, = struct.unpack_from("<I", data, 104)
        self.levels, self.level_first, self.level_order = struct.unpack_from("<3I", data, 108)
        self.rules_bytes, = struct.unpack_from("<I", data, 120)
        problem = self._problem(data, players)
        if problem:
            raise TrajectoryError(f"{path}: {problem}")

    def _problem(self, data, players):
        """What makes the header impossible (crafter-dataset's reader
        refuses the same), or None."""
        version = self.version
        header_bytes, = struct.unpack_from("<I", data, 12)
        reward, = struct.unpack_from("<I", data, 48)
        if header_bytes != HEADER_BYTES:
            return f"the header size is {header_bytes}, not {HEADER_BYTES}"
        if (not 2 <= players <= PLAYERS_MAX) if version == 4 else players != 0:
            return f"version {version} with {players} players"
        if version == GAME_VERSION and (self.task_bytes or self.rules_bytes or self.levels
                                        or self.textures_crc):
            return (f"version {version} with goals, rules, levels or textures, which only "
                    f"Crafter's files have")
        counts = tuple(struct.unpack_from("<I", data, at)[0] for at in (52, 72, 100))
        if counts != (17, len(ACHIEVEMENTS), len(ITEMS)):
            return (f"the header counts {counts[0]} actions, {counts[1]} achievements and "
                    f"{counts[2]} items, not 17, {len(ACHIEVEMENTS)} and {len(ITEMS)}")
        step_bytes, = struct.unpack_from("<I", data, 76)
        if step_bytes != STEP_BYTES:
            return f"steps of {step_bytes} bytes, not {STEP_BYTES}"
        if reward not in (0, 1):
            return f"the header's reward flag is {reward}, not 0 or 1"
        if not 0 <= self.length <= LENGTH_MAX:
            return f"the header's length {self.length} is out of range"
        for name, (width, height) in (("area", self.area), ("view", self.view)):
            if not (1 <= width <= SIDE_MAX and 1 <= height <= SIDE_MAX):
                return (f"the header's {name} {width}x{height} is impossible: it must be "
                        f"between 1x1 and {SIDE_MAX}x{SIDE_MAX}")
        rows = (len(ITEMS) + self.view[0] - 1) // self.view[0]
        if self.view[1] <= rows:
            return (f"the header's view {self.view[0]}x{self.view[1]} is impossible: it gives "
                    f"{rows} rows to the inventory")
        if not (self.view[0] <= self.size[0] <= SIDE_MAX
                and self.view[1] <= self.size[1] <= SIDE_MAX):
            return (f"the header's size {self.size[0]}x{self.size[1]} is impossible: it must be "
                    f"at least the view and at most {SIDE_MAX}x{SIDE_MAX}")
        if self.game != CRAFTER:
            area, view, size, length, reward = GAME_PARAMETERS[self.game]
            if (tuple(self.area), tuple(self.view), tuple(self.size), self.length,
                    self.reward) != (area, view, size, length, reward):
                return (f"the header's parameters are not {self.game}'s own (area "
                        f"{area[0]}x{area[1]}, view {view[0]}x{view[1]}, size "
                        f"{size[0]}x{size[1]}, length {length}, reward on)")
            if self.obs not in GAME_OBS[self.game]:
                return f"{self.obs} observations, which {self.game} does not have"
        expected = self._obs_bytes()
        if self.obs_bytes != expected:
            return (f"observations of {self.obs_bytes} bytes, but {self.obs} ones are "
                    f"{expected} bytes")
        if (self.levels == 0 and (self.level_first or self.level_order)) or (
                self.levels and (self.levels > LEVELS_MAX or self.level_first < 1
                                 or self.level_first > EPISODE_MAX - (self.levels - 1)
                                 or self.level_order > 1)):
            return (f"the header's level set ({self.levels} levels from {self.level_first}, "
                    f"order {self.level_order}) is impossible")
        if ((version <= 2 and (version == 1) != (self.task_bytes == 0))
                or 0 < self.task_bytes <= TABLE_HEADER_BYTES):
            return f"version {version} with a task table of {self.task_bytes} bytes"
        if ((version == 3 and self.rules_bytes <= TABLE_HEADER_BYTES)
                or (version == 4 and 0 < self.rules_bytes <= TABLE_HEADER_BYTES)
                or (version <= 2 and self.rules_bytes)):
            return f"version {version} with rules of {self.rules_bytes} bytes"
        return None

    def _obs_bytes(self):
        if self.obs == "pixels":
            return self.size[0] * self.size[1] * 3
        if self.obs == "semantic":
            return self.area[0] * self.area[1]
        if self.obs == "symbolic":
            return 4 * (SYMBOLIC_VALUES + (63 if self.players > 1 else 0))
        return 0

    def obs_shape(self):
        """The shape and dtype of one stored observation."""
        if self.obs == "pixels":
            return (self.size[1], self.size[0], 3), np.uint8
        if self.obs == "semantic":
            return tuple(self.area), np.uint8
        if self.obs == "symbolic":
            return (self.obs_bytes // 4,), np.float32
        return (0,), np.uint8


class Episode:
    """One chunk: game (its file's), seed, episode (the Env's counter, or
    the level), steps, unlocked (bits), total (the return), end (one of
    ENDS), achievements and inventory (counts at the end, by name), goal,
    wording, place, player; world_seed for Crafter's episodes, world_key and
    schedule_key (tuples of two uint32 words, word 0 first) for
    Craftax-Classic's.  With load(): actions (int64), rewards (float64;
    float32 for Craftax-Classic, whose rewards are Craftax's float32 ones),
    flags, dones and died (bool, from the flags), unlocked_steps (bits)
    and unlocks (bool, a column an achievement) of every step, and
    observations (steps + 1 of them, the first after the reset; None when
    the file stores none)."""

    def __init__(self, header, offset, data, path=None):
        self._data = data
        self.offset = offset
        self.path = path
        self.game = header.game
        (self.compressed, self.raw, self.seed, self.episode, world_seed, self.steps,
         self.unlocked, self.total, end) = struct.unpack_from("<QQqqqIIdI", data, 8)
        if self.game == CRAFTER:
            self._world_seed, self._keys = world_seed, None
        else:
            self._world_seed = None
            self._keys = (struct.unpack_from("<2I", data, 40), struct.unpack_from("<2I", data, 240))
        self._end = end
        self.end = ENDS[end] if end < len(ENDS) else f"end {end}"
        counts = struct.unpack_from("<22i", data, 72)
        self.achievements = dict(zip(ACHIEVEMENTS, counts))
        self.inventory = dict(zip(ITEMS, struct.unpack_from("<16i", data, 160)))
        self.goal, self.wording, self.place, self.player = struct.unpack_from("<4I", data, 224)
        self._header = header
        self.actions = self.rewards = self.flags = self.unlocked_steps = None
        self.dones = self.died = self.unlocks = None
        self.observations = None

    @property
    def world_seed(self):
        """Crafter's world seed, hash((seed, episode)) % (2**31 - 1)."""
        if self._world_seed is None:
            raise AttributeError(f"an episode of {self.game} has no world seed: its world "
                                 f"comes from its world_key (crafter-trajectory(5))")
        return self._world_seed

    @property
    def world_key(self):
        """The JAX key the episode's world was generated from: (word 0,
        word 1)."""
        if self._keys is None:
            raise AttributeError(f"an episode of {self.game} has no world_key: its world "
                                 f"comes from its world_seed (crafter-trajectory(5))")
        return self._keys[0]

    @property
    def schedule_key(self):
        """The schedule's JAX key at the episode's start, the key the steps
        split (crafter-games(7)): (word 0, word 1)."""
        if self._keys is None:
            raise AttributeError(f"an episode of {self.game} has no schedule_key: it is "
                                 f"played again from its seed and episode counter "
                                 f"(crafter-trajectory(5))")
        return self._keys[1]

    def name(self):
        """The episode in words, for messages: the file, the chunk's offset,
        its seed and episode."""
        where = f"{self.path}: " if self.path is not None else ""
        return (f"{where}the episode at byte {self.offset} (seed {self.seed}, "
                f"episode {self.episode})")

    def problem(self, room):
        """What makes the chunk's sizes impossible (crafter-dataset's reader
        refuses the same), room being the bytes of the file after the chunk
        header; None when they add up."""
        header = self._header
        size, = struct.unpack_from("<I", self._data, 4)
        if size != CHUNK_HEADER_BYTES:
            return f"an episode chunk header of {size} bytes, not {CHUNK_HEADER_BYTES}"
        if self.compressed == 0:
            return "the episode chunk has no compressed steps"
        if self.compressed > room:
            return (f"the episode chunk is cut short: {room} of {self.compressed} bytes of "
                    f"steps are in the file")
        expected = header.obs_bytes + self.steps * (STEP_BYTES + header.obs_bytes)
        if expected != self.raw:
            return f"{self.steps} steps take {expected} bytes, but the chunk says {self.raw}"
        if self.raw // MAX_RATIO > self.compressed:
            return f"{self.raw} bytes cannot compress into {self.compressed}"
        if self._end > (3 if header.task_bytes else 2):
            return f"unknown episode end {self._end}"
        if (not 1 <= self.player <= header.players) if header.players > 1 else self.player:
            return (f"the episode is player {self.player}'s in a file of "
                    f"{header.players} player{'' if header.players == 1 else 's'}")
        return None

    def load(self, payload):
        """Reads the steps from payload, the chunk's compressed bytes:
        inflated within the size the chunk header announces."""
        header = self._header
        shape, dtype = header.obs_shape()
        obs = header.obs_bytes
        expected = obs + self.steps * (STEP_BYTES + obs)
        if self.raw != expected:
            raise TrajectoryError(f"{self.name()}: {self.steps} steps take {expected} bytes, "
                                  f"but the chunk says {self.raw}")
        inflater = zlib.decompressobj()
        try:
            raw = inflater.decompress(payload, self.raw)
            # The stream's end may lie past the last byte it announces.
            beyond = b"" if inflater.eof else inflater.decompress(inflater.unconsumed_tail, 1)
        except zlib.error as error:
            raise TrajectoryError(f"{self.name()}: its steps do not inflate: {error}") from None
        if len(raw) != self.raw or beyond or not inflater.eof or inflater.unused_data:
            raise TrajectoryError(f"{self.name()}: its steps do not inflate to the {self.raw} "
                                  f"bytes its header announces")
        records = np.frombuffer(raw, np.uint8, self.steps * (STEP_BYTES + obs), obs)
        records = records.reshape(self.steps, STEP_BYTES + obs)
        steps = records[:, :STEP_BYTES].copy().view(STEP).reshape(self.steps)
        wrong = np.flatnonzero(steps["action"] >= len(ACTIONS))
        if wrong.size:
            t = int(wrong[0])
            raise TrajectoryError(f"{self.name()}: step {t + 1}'s action {steps['action'][t]} is "
                                  f"out of range (0..{len(ACTIONS) - 1})")
        rewards = steps["reward"]
        if self.game != CRAFTER:
            # Craftax's rewards are float32, stored exactly as float64.
            narrowed = rewards.astype(np.float32)
            wrong = np.flatnonzero(narrowed.astype(np.float64) != rewards)
            if wrong.size:
                t = int(wrong[0])
                raise TrajectoryError(f"{self.name()}: step {t + 1}'s reward "
                                      f"{float(rewards[t])!r} is not a float32 reward of "
                                      f"{self.game}")
            rewards = narrowed
        self.actions = steps["action"].astype(np.int64)
        self.flags = steps["flags"]
        self.dones = (self.flags & 1) != 0
        self.died = (self.flags & 2) != 0
        self.unlocked_steps = steps["unlocked"]
        self.unlocks = ((self.unlocked_steps[:, None] >> np.arange(len(ACHIEVEMENTS),
                                                                  dtype=np.uint32)) & 1) != 0
        self.rewards = rewards
        if obs:
            first = np.frombuffer(raw, np.uint8, obs)[None]
            stacked = np.concatenate([first, records[:, STEP_BYTES:]])
            self.observations = stacked.view(dtype).reshape((self.steps + 1,) + shape)
        return self


class Trajectory:
    """A trajectory file, opened: header (its game in header.game), then
    episodes(load=True), each chunk's Episode in the order of the file (its
    steps read when load).  game, a name of GAMES, is the game the file
    must hold: a file of another is refused, naming both, as
    crafter-dataset --game refuses it; None reads either."""

    def __init__(self, path, game=None):
        if game is not None and game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        self.path = path
        with open(path, "rb") as stream:
            self.header = Header(stream.read(HEADER_BYTES), path)
        if game is not None and self.header.game != game:
            raise TrajectoryError(f"{path}: a trajectory of {self.header.game} (format version "
                                  f"{self.header.version}), not of {game}")

    @property
    def game(self):
        """The game the file holds, a name of GAMES."""
        return self.header.game

    def episodes(self, load=True):
        start = HEADER_BYTES + self.header.task_bytes + self.header.rules_bytes
        seen = set()
        with open(self.path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            stream.seek(start)
            while True:
                offset = stream.tell()
                data = stream.read(CHUNK_HEADER_BYTES)
                if not data or data[:4] == b"INDX":
                    return
                if (len(data) < CHUNK_HEADER_BYTES or data[:4] != b"EPSD"
                        or struct.unpack_from("<I", data, 252)[0] != _crc(data[:252])):
                    raise self._damage(offset, "no whole episode chunk starts there")
                episode = Episode(self.header, offset, data, self.path)
                problem = episode.problem(size - offset - CHUNK_HEADER_BYTES)
                if problem:
                    raise self._damage(offset, problem, episode)
                payload = stream.read(episode.compressed) if load else None
                if load:
                    if (len(payload) != episode.compressed
                            or struct.unpack_from("<I", data, 248)[0] != _crc(payload)):
                        raise self._damage(offset, "its steps are cut short or damaged")
                    episode.load(payload)
                else:
                    stream.seek(episode.compressed, 1)
                if data in seen:
                    raise self._damage(offset, "it repeats an earlier chunk")
                seen.add(data)
                yield episode

    def _damage(self, offset, what, episode=None):
        where = episode.name() if episode else f"{self.path}: damage at byte {offset}"
        return TrajectoryError(
            f"{where}: {what} (crafter-dataset verify says more; "
            f"crafter-dataset merge -o FIXED {self.path} keeps every intact episode)")


def count_chunks(path):
    """The whole episode chunks a file (perhaps still being written) holds
    now, counted from their headers: 0 for a file not there yet."""
    try:
        stream = open(path, "rb")
    except OSError:
        return 0
    with stream:
        data = stream.read(HEADER_BYTES)
        if len(data) < HEADER_BYTES:
            return 0
        task_bytes, = struct.unpack_from("<I", data, 104)
        rules_bytes, = struct.unpack_from("<I", data, 120)
        stream.seek(HEADER_BYTES + task_bytes + rules_bytes)
        size = stream.seek(0, 2)
        offset, count = HEADER_BYTES + task_bytes + rules_bytes, 0
        while offset + CHUNK_HEADER_BYTES <= size:
            stream.seek(offset)
            chunk = stream.read(CHUNK_HEADER_BYTES)
            if chunk[:4] != b"EPSD":
                break
            offset += CHUNK_HEADER_BYTES + struct.unpack_from("<Q", chunk, 8)[0]
            if offset > size:
                break
            count += 1
        return count
