"""Trajectory files (crafter-trajectory(5)) read from Python: the header's
settings and each episode's chunk, with its actions, rewards, flags and
stored observations.  A file that is not whole (damage, a repeated
chunk) is refused: crafter-dataset verify says what is wrong and
crafter-dataset merge -o FIXED FILE keeps every intact episode."""

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


class TrajectoryError(ValueError):
    """The file is not a whole trajectory file; the message says where."""


def _crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


class Header:
    """The settings of a file: its path, version, obs (a kind of OBS_KINDS), players,
    area, view, size, reward, length, seed, agent, textures_crc, levels
    (0 for fresh worlds), level_first, level_order, and the bytes of its
    task table and rules (0 without)."""

    def __init__(self, data, path):
        self.path = path
        if len(data) < HEADER_BYTES or data[:8] != b"CRAFTTRJ":
            raise TrajectoryError(f"{path}: not a trajectory file")
        if struct.unpack_from("<I", data, 124)[0] != _crc(data[:124]):
            raise TrajectoryError(f"{path}: the header's checksum does not match")
        self.version, = struct.unpack_from("<I", data, 8)
        if not 1 <= self.version <= 4:
            raise TrajectoryError(f"{path}: format version {self.version}, not 1 to 4")
        kind, players, self.obs_bytes = struct.unpack_from("<HHI", data, 16)
        if kind >= len(OBS_KINDS):
            raise TrajectoryError(f"{path}: observation kind {kind}")
        self.obs = OBS_KINDS[kind]
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
    """One chunk: seed, episode (the Env's counter, or the level), world_seed,
    steps, unlocked (bits), total (the return), end (one of ENDS),
    achievements and inventory (counts at the end, by name), goal, wording,
    place, player; with load(), actions, rewards, flags, unlocked_steps and
    observations (steps + 1 of them, the first after the reset; None when
    the file stores none)."""

    def __init__(self, header, offset, data):
        self._data = data
        self.offset = offset
        (self.compressed, self.raw, self.seed, self.episode, self.world_seed, self.steps,
         self.unlocked, self.total, end) = struct.unpack_from("<QQqqqIIdI", data, 8)
        self.end = ENDS[end] if end < len(ENDS) else f"end {end}"
        counts = struct.unpack_from("<22i", data, 72)
        self.achievements = dict(zip(ACHIEVEMENTS, counts))
        self.inventory = dict(zip(ITEMS, struct.unpack_from("<16i", data, 160)))
        self.goal, self.wording, self.place, self.player = struct.unpack_from("<4I", data, 224)
        self._header = header
        self.actions = self.rewards = self.flags = self.unlocked_steps = None
        self.observations = None

    def load(self, payload):
        header = self._header
        raw = zlib.decompress(payload)
        shape, dtype = header.obs_shape()
        obs = header.obs_bytes
        where = f"{header.path}: the episode at byte {self.offset}"
        if len(raw) != self.raw:
            raise TrajectoryError(f"{where}: its steps inflate to {len(raw)} bytes, but the "
                                  f"chunk says {self.raw}")
        if len(raw) != obs + self.steps * (STEP_BYTES + obs):
            raise TrajectoryError(f"{where}: {self.steps} steps take "
                                  f"{obs + self.steps * (STEP_BYTES + obs)} bytes, but they "
                                  f"inflate to {len(raw)}")
        records = np.frombuffer(raw, np.uint8, self.steps * (STEP_BYTES + obs), obs)
        records = records.reshape(self.steps, STEP_BYTES + obs)
        steps = records[:, :STEP_BYTES].copy().view(STEP).reshape(self.steps)
        wrong = np.flatnonzero(steps["action"] >= len(ACTIONS))
        if wrong.size:
            t = int(wrong[0])
            raise TrajectoryError(f"{where}: step {t + 1}'s action {steps['action'][t]} is out "
                                  f"of range (0..{len(ACTIONS) - 1})")
        self.actions = steps["action"].astype(np.int64)
        self.flags = steps["flags"]
        self.unlocked_steps = steps["unlocked"]
        self.rewards = steps["reward"]
        if obs:
            first = np.frombuffer(raw, np.uint8, obs)[None]
            stacked = np.concatenate([first, records[:, STEP_BYTES:]])
            self.observations = stacked.view(dtype).reshape((self.steps + 1,) + shape)
        return self


class Trajectory:
    """A trajectory file, opened: header, then episodes(load=True), each
    chunk's Episode in the order of the file (its steps read when load)."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as stream:
            self.header = Header(stream.read(HEADER_BYTES), path)

    def episodes(self, load=True):
        start = HEADER_BYTES + self.header.task_bytes + self.header.rules_bytes
        seen = set()
        with open(self.path, "rb") as stream:
            stream.seek(start)
            while True:
                offset = stream.tell()
                data = stream.read(CHUNK_HEADER_BYTES)
                if not data or data[:4] == b"INDX":
                    return
                if (len(data) < CHUNK_HEADER_BYTES or data[:4] != b"EPSD"
                        or struct.unpack_from("<I", data, 252)[0] != _crc(data[:252])):
                    raise self._damage(offset, "no whole episode chunk starts there")
                episode = Episode(self.header, offset, data)
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

    def _damage(self, offset, what):
        return TrajectoryError(
            f"{self.path}: damage at byte {offset}: {what} (crafter-dataset verify says more; "
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
