"""crafter_toolkit.trajectory against files crafter-dataset records and
against files crafted here, whose checksums are all right but whose sizes
lie: a chunk that inflates far past what it announces, a chunk that claims
more bytes than the file holds, a header of an impossible area.  Each is
refused with a TrajectoryError naming the file (and the episode), as
crafter-dataset verify refuses it, and with little memory: the reader
allocates from what the file holds, never from what it claims."""

import glob
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from conftest import TOP
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
