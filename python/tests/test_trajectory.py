"""crafter_toolkit.trajectory reading damaged steps whose checksums hold:
each refusal names the file, the episode and what is wrong with it."""

import os
import struct
import subprocess
import zlib

import pytest

from conftest import TOP

from crafter_toolkit.trajectory import Trajectory, TrajectoryError

STEP = os.environ.get("CRAFTER_STEP", os.path.join(TOP, "bin", "crafter-step"))
CHUNK = 128  # the first episode chunk: no task table, no rules


def _crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


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
    struct.pack_into("<I", head, 248, _crc(payload))
    struct.pack_into("<I", head, 252, _crc(bytes(head[:252])))
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
    assert str(caught.value) == (f"{recording}: the episode at byte {CHUNK}: step 3's action 17 "
                                 "is out of range (0..16)")


def test_step_count_that_disagrees_says_both_sizes(recording):
    """5 steps in the header, the 96 bytes of 6 inflated: the sizes said
    are 80 and 96, never one size twice."""
    _rewrite(recording, steps=5)
    with pytest.raises(TrajectoryError) as caught:
        _read(recording)
    assert str(caught.value) == (f"{recording}: the episode at byte {CHUNK}: 5 steps take 80 "
                                 "bytes, but they inflate to 96")


def test_raw_size_that_disagrees_says_both_sizes(recording):
    _rewrite(recording, raw=100)
    with pytest.raises(TrajectoryError) as caught:
        _read(recording)
    assert str(caught.value) == (f"{recording}: the episode at byte {CHUNK}: its steps inflate "
                                 "to 96 bytes, but the chunk says 100")
