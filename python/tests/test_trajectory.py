"""crafter_toolkit.trajectory against files crafter-dataset records and
against files crafted here, whose checksums are all right but whose sizes
lie: a chunk that inflates far past what it announces, a chunk that claims
more bytes than the file holds, a header of an impossible area.  Each is
refused with a TrajectoryError naming the file (and the episode), as
crafter-dataset verify refuses it, and with little memory: the reader
allocates from what the file holds, never from what it claims."""

import glob
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from conftest import TOP
from crafter_toolkit.names import ACHIEVEMENTS, ITEMS
from crafter_toolkit.trajectory import (CHUNK_HEADER_BYTES, HEADER_BYTES, Trajectory,
                                        TrajectoryError)

DATASET = os.path.join(TOP, "bin", "crafter-dataset")
INFLATED = 256 << 20  # bytes the crafted chunk inflates to
MEMORY_MAX = 128 << 20  # bytes a reader of it may take, Python and numpy included


def record(path, *options):
    subprocess.run([DATASET, "record", "-q", *options, "-o", str(path)], check=True)
    return path


def crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def header_and_chunk(path):
    """The header and the first chunk (its header, its compressed steps) of
    a file recorded without goals or rules."""
    data = open(path, "rb").read()
    header = bytearray(data[:HEADER_BYTES])
    chunk = bytearray(data[HEADER_BYTES:HEADER_BYTES + CHUNK_HEADER_BYTES])
    compressed, = struct.unpack_from("<Q", chunk, 8)
    payload = data[HEADER_BYTES + CHUNK_HEADER_BYTES:][:compressed]
    return header, chunk, payload


def write(path, header, chunk, payload):
    """A file of the header and one chunk, every checksum made right."""
    struct.pack_into("<I", header, 124, crc(bytes(header[:124])))
    struct.pack_into("<I", chunk, 248, crc(payload))
    struct.pack_into("<I", chunk, 252, crc(bytes(chunk[:252])))
    with open(path, "wb") as stream:
        stream.write(bytes(header) + bytes(chunk) + payload)
    return str(path)


def verify(path):
    return subprocess.run([DATASET, "verify", str(path)], capture_output=True, text=True)


def read_in_a_child(path):
    """(the TrajectoryError's message or "read", peak memory in bytes) of a
    Python that reads every episode of path."""
    # The high-water mark of this program's own memory (VmHWM): ru_maxrss
    # would count the pages of the process forked before the exec.
    script = ("import resource, sys\n"
              "from crafter_toolkit.trajectory import Trajectory, TrajectoryError\n"
              "try:\n"
              "    for episode in Trajectory(sys.argv[1]).episodes():\n"
              "        pass\n"
              "    said = 'read'\n"
              "except TrajectoryError as error:\n"
              "    said = str(error)\n"
              "try:\n"
              "    peak = [line.split()[1] for line in open('/proc/self/status')\n"
              "            if line.startswith('VmHWM:')][0]\n"
              "except OSError:\n"
              "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              "print(peak)\n"
              "print(said)\n")
    run = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(TOP, "python")})
    assert run.returncode == 0, run.stderr
    peak, said = run.stdout.split("\n", 1)
    return said.strip(), int(peak) * 1024  # in kilobytes


def test_recorded_files_read_as_exported(tmp_path):
    """The reader's actions, rewards and pixels are crafter-dataset
    export's (Crafter's npz files)."""
    path = record(tmp_path / "run.traj", "-n", "2", "--steps", "30", "--obs", "pixels",
                  "--size", "32,32")
    subprocess.run([DATASET, "export", "--format", "npz", "-o", str(tmp_path / "npz"),
                    str(path)], check=True, stdout=subprocess.DEVNULL)
    episodes = list(Trajectory(path).episodes())
    assert len(episodes) == 2
    for episode in episodes:
        name, = glob.glob(str(tmp_path / "npz" / f"s{episode.seed}-e{episode.episode}-*"))
        arrays = np.load(name)
        np.testing.assert_array_equal(episode.actions, arrays["action"][1:])
        np.testing.assert_array_equal(episode.rewards, arrays["reward"][1:])
        np.testing.assert_array_equal(episode.observations, arrays["image"])


def test_a_chunk_that_inflates_past_its_size(tmp_path):
    """Every checksum right, the chunk announcing 20 steps, its stream
    inflating to 256 MiB: refused within the size it announces."""
    header, chunk, _ = header_and_chunk(record(tmp_path / "run.traj", "-n", "1", "--steps", "20"))
    deflater = zlib.compressobj(9)
    block = bytes(1 << 20)
    payload = b"".join(deflater.compress(block) for _ in range(INFLATED >> 20))
    payload += deflater.flush()
    struct.pack_into("<Q", chunk, 8, len(payload))
    path = write(tmp_path / "bomb.traj", header, chunk, payload)
    assert verify(path).returncode != 0
    said, peak = read_in_a_child(path)
    assert said.startswith(f"{path}: the episode at byte {HEADER_BYTES} (seed "), said
    assert "do not inflate to the 320 bytes its header announces" in said, said
    assert peak < MEMORY_MAX, f"{peak >> 20} MiB"


def test_a_chunk_larger_than_the_file(tmp_path):
    """A chunk claiming 2**62 bytes of steps: refused as cut short, with or
    without its steps, before anything is read or allocated."""
    header, chunk, payload = header_and_chunk(
        record(tmp_path / "run.traj", "-n", "1", "--steps", "20"))
    path = write(tmp_path / "huge.traj", header, chunk, payload)
    struct.pack_into("<Q", chunk, 8, 1 << 62)
    struct.pack_into("<I", chunk, 252, crc(bytes(chunk[:252])))
    with open(path, "r+b") as stream:
        stream.seek(HEADER_BYTES)
        stream.write(bytes(chunk))
    assert verify(path).returncode != 0
    for load in (True, False):
        with pytest.raises(TrajectoryError) as raised:
            list(Trajectory(path).episodes(load=load))
        said = str(raised.value)
        assert said.startswith(f"{path}: the episode at byte {HEADER_BYTES} (seed ")
        assert f"cut short: {len(payload)} of {1 << 62} bytes" in said, said
    said, peak = read_in_a_child(path)
    assert "cut short" in said and peak < MEMORY_MAX


def test_a_chunk_whose_steps_cannot_fit_its_bytes(tmp_path):
    """A chunk announcing 2**32 - 1 steps of pixels in a few hundred bytes
    (no stream inflates 1040 times): refused before inflating."""
    header, chunk, payload = header_and_chunk(
        record(tmp_path / "run.traj", "-n", "1", "--steps", "20", "--obs", "pixels"))
    obs, = struct.unpack_from("<I", header, 20)
    steps = (1 << 32) - 1
    struct.pack_into("<QI", chunk, 16, obs + steps * (16 + obs), 0)
    struct.pack_into("<I", chunk, 48, steps)
    path = write(tmp_path / "claims.traj", header, chunk, payload)
    assert verify(path).returncode != 0
    with pytest.raises(TrajectoryError, match="cannot compress into"):
        list(Trajectory(path).episodes(load=False))


@pytest.mark.parametrize("field, value, words", [
    (24, (1 << 20, 1 << 20), "area 1048576x1048576 is impossible"),
    (40, (5000, 64), "size 5000x64 is impossible"),
    (32, (9, 2), "view 9x2 is impossible"),
    (20, 64 * 64 * 3 + 1, "observations of 12289 bytes"),
    (56, -1, "length -1 is out of range"),
])
def test_a_header_of_impossible_parameters(tmp_path, field, value, words):
    """A header an env could not have written (an area of 2**20 cells a
    side, a size or view out of bounds, observations of the wrong size):
    refused on opening, naming the file."""
    header, chunk, payload = header_and_chunk(
        record(tmp_path / "run.traj", "-n", "1", "--steps", "20", "--obs", "pixels"))
    if isinstance(value, tuple):
        struct.pack_into("<2i", header, field, *value)
    elif field == 56:
        struct.pack_into("<q", header, field, value)
    else:
        struct.pack_into("<I", header, field, value)
    path = write(tmp_path / "impossible.traj", header, chunk, payload)
    assert verify(path).returncode != 0
    with pytest.raises(TrajectoryError) as raised:
        Trajectory(path)
    assert str(raised.value).startswith(f"{path}: ") and words in str(raised.value)


# Steps damaged with their checksums made right: each refusal names the
# file, the episode and what is wrong with it.

STEP = os.environ.get("CRAFTER_STEP", os.path.join(TOP, "bin", "crafter-step"))
CHUNK = 128  # the first episode chunk: no task table, no rules


@pytest.fixture
def recording(tmp_path):
    """A file of one episode of 6 steps (actions 0..5), without observations."""
    path = tmp_path / "run.traj"
    subprocess.run([STEP, "--seed", "3", "--length", "6", "--episodes", "1", "--record", str(path)],
                   input="0\n1\n2\n3\n4\n5\n", capture_output=True, text=True, check=True)
    return path


def _rewrite(path, steps=None, raw=None, change=None):
    """The first chunk rewritten, its checksums made right: its step count
    and raw size fields set, its inflated steps changed by change."""
    data = bytearray(path.read_bytes())
    assert data[CHUNK:CHUNK + 4] == b"EPSD"
    packed, = struct.unpack_from("<Q", data, CHUNK + 8)
    stored = bytearray(zlib.decompress(bytes(data[CHUNK + 256:CHUNK + 256 + packed])))
    if change:
        change(stored)
    head = data[CHUNK:CHUNK + 256]
    payload = zlib.compress(bytes(stored))
    struct.pack_into("<Q", head, 8, len(payload))
    if raw is not None:
        struct.pack_into("<Q", head, 16, raw)
    if steps is not None:
        struct.pack_into("<I", head, 48, steps)
    struct.pack_into("<I", head, 248, crc(payload))
    struct.pack_into("<I", head, 252, crc(bytes(head[:252])))
    path.write_bytes(bytes(data[:CHUNK]) + bytes(head) + payload
                     + bytes(data[CHUNK + 256 + packed:]))


def _read(path):
    return [episode for episode in Trajectory(str(path)).episodes()]


def test_whole_file_reads(recording):
    episode, = _read(recording)
    assert episode.actions.tolist() == [0, 1, 2, 3, 4, 5]


def test_action_out_of_range_names_file_episode_and_step(recording):
    def bad_action(stored):
        stored[2 * 16] = 17  # step 3's action (no observations: 16 bytes a step)

    _rewrite(recording, change=bad_action)
    with pytest.raises(TrajectoryError) as caught:
        _read(recording)
    assert str(caught.value) == (f"{recording}: the episode at byte {CHUNK} (seed 3, episode 1): "
                                 "step 3's action 17 is out of range (0..16)")


def test_step_count_that_disagrees_says_both_sizes(recording):
    """5 steps in the header, the 96 bytes of 6 in the chunk: the sizes
    said are 80 and 96, never one size twice."""
    _rewrite(recording, steps=5)
    with pytest.raises(TrajectoryError) as caught:
        _read(recording)
    assert str(caught.value).startswith(f"{recording}: the episode at byte {CHUNK} (seed 3, "
                                        "episode 1): 5 steps take 80 bytes, but the chunk says 96")


def test_raw_size_that_disagrees_says_both_sizes(recording):
    _rewrite(recording, raw=100)
    with pytest.raises(TrajectoryError) as caught:
        _read(recording)
    assert str(caught.value).startswith(f"{recording}: the episode at byte {CHUNK} (seed 3, "
                                        "episode 1): 6 steps take 96 bytes, but the chunk says 100")


# Files of Craftax-Classic (format version 5): read as the programs that
# wrote them played them, and as crafter-dataset reads them.

CRAFTAX = "craftax-classic"


def craftax_record(path, *options):
    return record(path, "--game", CRAFTAX, *options)


def listed(path):
    """crafter-dataset list's rows of a file, as dicts of its columns."""
    lines = subprocess.run([DATASET, "list", str(path)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    names = lines[0].split("\t")
    return [dict(zip(names, line.split("\t"))) for line in lines[1:]]


def key_words(column):
    """A key of crafter-dataset list (word0:word1, in hexadecimal)."""
    return tuple(int(word, 16) for word in column.split(":"))


def test_craftax_classic_reads_as_crafter_step_played_it(tmp_path):
    """crafter-step --game craftax-classic -O symbolic --record: the file's
    episodes are the JSON lines' steps, the actions given, the float32
    rewards, dones, achievements unlocked and symbolic observations (the
    reset record's first, then each step's; the record of the step that
    ended an episode shows the next one's first, Craftax's auto-reset, where
    the file keeps the state the episode ended in: test_craftax_classic_
    reads_as_exported holds that one to the replay's); its keys are
    crafter-dataset list's."""
    path = tmp_path / "played.traj"
    actions = np.random.default_rng(4).integers(0, 17, 4000)
    run = subprocess.run([STEP, "--game", CRAFTAX, "--seed", "5", "-O", "symbolic",
                          "--episodes", "2", "--record", str(path)],
                         input="".join(f"{a}\n" for a in actions), capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    played, episode = [], None
    for item in records:
        if "reset" in item:
            episode = {"obs": [item["obs"]], "reward": [], "done": [], "unlocked": []}
            played.append(episode)
        else:
            for key in ("reward", "done", "unlocked"):
                episode[key].append(item[key])
            episode["obs"].append(item["obs"])
    trajectory = Trajectory(str(path))
    assert (trajectory.game, trajectory.header.version, trajectory.header.obs) == (
        CRAFTAX, 5, "symbolic")
    assert (trajectory.header.area, trajectory.header.view, trajectory.header.length) == (
        (64, 64), (9, 9), 10000)
    episodes = list(trajectory.episodes())
    rows = listed(path)
    assert len(episodes) == len(rows) == 2 and len(played) == 3  # and the next one's start
    start = 0
    for episode, expected, row in zip(episodes, played, rows):
        steps = len(expected["reward"])
        assert episode.game == CRAFTAX and episode.steps == steps == int(row["length"])
        assert (episode.seed, episode.episode) == (5, int(row["episode"]))
        assert episode.world_key == key_words(row["world_key"])
        assert episode.schedule_key == key_words(row["schedule_key"])
        np.testing.assert_array_equal(episode.actions, actions[start:start + steps])
        start += steps
        assert episode.rewards.dtype == np.float32
        np.testing.assert_array_equal(episode.rewards, np.float32(expected["reward"]))
        assert episode.dones.tolist() == expected["done"]
        assert episode.died[-1] and episode.end == row["end"] == "died"
        for t, names in enumerate(expected["unlocked"]):
            assert [ACHIEVEMENTS[i] for i in np.flatnonzero(episode.unlocks[t])] == sorted(names)
        assert episode.observations.dtype == np.float32
        np.testing.assert_array_equal(episode.observations[:-1],
                                      np.float32(expected["obs"][:-1]))
        np.testing.assert_array_equal(np.float32(expected["obs"][-1]),
                                      np.float32(played[played.index(expected) + 1]["obs"][0]))
        assert episode.achievements == {name: int(episode.unlocks[:, i].any())
                                        for i, name in enumerate(ACHIEVEMENTS)}


def test_craftax_classic_reads_as_exported(tmp_path):
    """crafter-dataset record --game craftax-classic on 2 envs, with and
    without observations: the reader's steps are those of crafter-dataset
    export's npz files of the file without observations, which replay
    every episode from its keys (the observations, the last that of the
    state the episode ended in, the achievements after every step, the
    inventory at the end, discount 0 where the player died); both files
    hold the same episodes."""
    options = ["-n", "4", "-N", "2", "--seed", "12"]
    stored = craftax_record(tmp_path / "symbolic.traj", *options, "--obs", "symbolic")
    bare = craftax_record(tmp_path / "none.traj", *options)
    subprocess.run([DATASET, "export", "--format", "npz", "-o", str(tmp_path / "npz"),
                    str(bare)], check=True, stdout=subprocess.DEVNULL)
    episodes = list(Trajectory(str(stored), game=CRAFTAX).episodes())
    without = list(Trajectory(str(bare)).episodes())
    assert len(episodes) == len(without) == 4
    assert [(e.seed, e.episode) for e in episodes] == [(12, 1), (12, 2), (13, 1), (13, 2)]
    for episode, other in zip(episodes, without):
        name, = glob.glob(str(tmp_path / "npz" / f"s{episode.seed}-e{episode.episode}-*"))
        arrays = np.load(name)
        np.testing.assert_array_equal(episode.observations, arrays["symbolic"])
        np.testing.assert_array_equal(episode.actions, arrays["action"][1:])
        np.testing.assert_array_equal(episode.rewards, arrays["reward"][1:])
        np.testing.assert_array_equal(episode.dones, arrays["done"][1:])
        np.testing.assert_array_equal(episode.died, arrays["discount"][1:] == 0)
        reached = np.stack([arrays[f"achievement_{name}"] for name in ACHIEVEMENTS], 1)[1:]
        np.testing.assert_array_equal(np.logical_or.accumulate(episode.unlocks), reached > 0)
        assert episode.inventory == {name: int(arrays[f"ainventory_{name}"][-1])
                                     for name in ITEMS}
        assert other.observations is None
        summary = ("seed", "episode", "world_key", "schedule_key", "steps", "total", "end",
                   "achievements", "inventory")
        assert [getattr(other, key) for key in summary] == [
            getattr(episode, key) for key in summary]
        np.testing.assert_array_equal(other.actions, episode.actions)
        np.testing.assert_array_equal(other.rewards, episode.rewards)


def test_each_game_says_what_it_has_not(tmp_path):
    """A Craftax-Classic episode has no world seed, a Crafter one no keys:
    AttributeError saying so.  Trajectory(path, game=...) refuses a file of
    the other game with crafter-dataset --game's words."""
    crafter = record(tmp_path / "crafter.traj", "-n", "1", "--steps", "10")
    craftax = craftax_record(tmp_path / "craftax.traj", "-n", "1")
    crafter_episode, = Trajectory(str(crafter)).episodes(load=False)
    craftax_episode, = Trajectory(str(craftax)).episodes(load=False)
    assert Trajectory(str(crafter)).game == crafter_episode.game == "crafter"
    assert isinstance(crafter_episode.world_seed, int)
    with pytest.raises(AttributeError, match="craftax-classic has no world seed"):
        craftax_episode.world_seed
    for name in ("world_key", "schedule_key"):
        with pytest.raises(AttributeError, match=f"crafter has no {name}"):
            getattr(crafter_episode, name)
    for path, game in ((crafter, CRAFTAX), (craftax, "crafter")):
        with pytest.raises(TrajectoryError) as raised:
            Trajectory(str(path), game=game)
        refused = subprocess.run([DATASET, "info", "--game", game, str(path)],
                                 capture_output=True, text=True)
        assert refused.returncode == 1
        assert refused.stderr.strip() == f"crafter-dataset: {raised.value}"
    with pytest.raises(ValueError, match="game must be one of crafter, craftax-classic"):
        Trajectory(str(crafter), game="craftax")


@pytest.mark.parametrize("field, value, words", [
    (18, 2, "format version 5 of game number 2"),
    (24, (48, 48), "not craftax-classic's own"),
    (56, 500, "not craftax-classic's own"),
    (16, 2, "semantic observations, which craftax-classic does not have"),
    (96, 0x1234, "goals, rules, levels or textures"),
])
def test_a_craftax_classic_header_of_impossible_parameters(tmp_path, field, value, words):
    """A version 5 header of a game the package does not know, of other
    parameters than Craftax-Classic's own, or with Crafter's extras: refused
    on opening, as crafter-dataset verify refuses it."""
    header, chunk, payload = header_and_chunk(craftax_record(tmp_path / "run.traj", "-n", "1"))
    if isinstance(value, tuple):
        struct.pack_into("<2i", header, field, *value)
    elif field == 56:
        struct.pack_into("<q", header, field, value)
    elif field in (16, 18):
        struct.pack_into("<H", header, field, value)
    else:
        struct.pack_into("<I", header, field, value)
    if field == 16:
        struct.pack_into("<I", header, 20, 64 * 64)  # a semantic observation's bytes
    path = write(tmp_path / "impossible.traj", header, chunk, payload)
    assert verify(path).returncode != 0
    with pytest.raises(TrajectoryError) as raised:
        Trajectory(path)
    assert str(raised.value).startswith(f"{path}: ") and words in str(raised.value)


def test_a_craftax_classic_reward_that_is_no_float32(tmp_path):
    """Craftax's rewards are float32, stored exactly as float64: a step's
    reward of float64's 0.1 (its return mended too) is refused, naming the
    step."""
    path = craftax_record(tmp_path / "run.traj", "-n", "1")
    data = bytearray(path.read_bytes())
    packed, = struct.unpack_from("<Q", data, CHUNK + 8)
    stored = bytearray(zlib.decompress(bytes(data[CHUNK + 256:CHUNK + 256 + packed])))
    old, = struct.unpack_from("<d", stored, 8)
    struct.pack_into("<d", stored, 8, 0.1)
    head = data[CHUNK:CHUNK + 256]
    total, = struct.unpack_from("<d", head, 56)
    struct.pack_into("<d", head, 56, total - old + 0.1)
    payload = zlib.compress(bytes(stored))
    struct.pack_into("<Q", head, 8, len(payload))
    struct.pack_into("<I", head, 248, crc(payload))
    struct.pack_into("<I", head, 252, crc(bytes(head[:252])))
    path.write_bytes(bytes(data[:CHUNK]) + bytes(head) + payload)
    with pytest.raises(TrajectoryError) as raised:
        _read(path)
    assert str(raised.value) == (f"{path}: the episode at byte {CHUNK} (seed 0, episode 1): "
                                 "step 1's reward 0.1 is not a float32 reward of "
                                 "craftax-classic")
