"""crafter_toolkit.Recorder never overwrites a file, and encodes its videos
with imageio-ffmpeg's ffmpeg when there is none on PATH."""

import json
import os
import re
import sys

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import recorder

EPISODES, LENGTH = 20, 10
NAME = re.compile(r"^\d{8}T\d{6}-ach\d+-len\d+(-\d+)?$")  # crafter's, with a counter


def record(directory, **options):
    """EPISODES short episodes of noops (all alike, ending within a second or
    two), recorded; the names of the files written."""
    env = recorder.Recorder(crafter_toolkit.Env(seed=1, length=LENGTH, textures="builtin"),
                            directory, video_size=(64, 64), **options)
    for _ in range(EPISODES):
        env.reset()
        done = False
        while not done:
            done = env.step(0)[2]
    env.close()
    return sorted(os.listdir(directory))


def stems(files, suffix):
    found = [name[:-len(suffix)] for name in files if name.endswith(suffix)]
    assert all(NAME.match(stem) for stem in found), found
    return found


def without_system_ffmpeg(monkeypatch, tmp_path):
    """PATH without ffmpeg: a folder with nothing in it."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert recorder.shutil.which("ffmpeg") is None


def test_every_episode_its_files(tmp_path, monkeypatch):
    """20 episodes alike, ending in the same second with the same length and
    achievements: 20 episode files and 20 videos (mp4 through
    imageio-ffmpeg's binary, ffmpeg hidden from PATH), 20 stats lines,
    each episode's files under one name; a decoded video has every frame."""
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg",
                                         reason="imageio-ffmpeg is not installed (make clients-env)")
    without_system_ffmpeg(monkeypatch, tmp_path)
    files = record(tmp_path / "logs")
    episodes, videos = stems(files, ".npz"), stems(files, ".mp4")
    assert len(episodes) == EPISODES and sorted(videos) == sorted(episodes)
    # crafter's names alone repeat: the time stamp, the same achievements and length
    assert {re.sub(r"-\d+$", "", name.split("-", 1)[1]) for name in episodes} == {
        f"ach0-len{LENGTH}"}
    lines = (tmp_path / "logs" / "stats.jsonl").read_text().splitlines()
    assert len(lines) == EPISODES and all(json.loads(line)["length"] == LENGTH for line in lines)
    assert not [name for name in files if name.startswith(".")], files  # no part left over
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "logs" / f"{videos[-1]}.mp4"))
    meta = next(reader)
    assert tuple(meta["size"]) == (64, 64) and len(list(reader)) == LENGTH + 1
    data = np.load(tmp_path / "logs" / f"{episodes[-1]}.npz")
    assert data["image"].shape == (LENGTH + 1, 64, 64, 3)


def test_frames_without_any_ffmpeg(tmp_path, monkeypatch):
    """Neither ffmpeg on PATH nor imageio-ffmpeg: a warning, and every
    episode's frames in NAME-frames.npz, none overwritten."""
    without_system_ffmpeg(monkeypatch, tmp_path)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # import fails
    with pytest.warns(RuntimeWarning, match="imageio-ffmpeg"):
        files = record(tmp_path / "logs", save_episode=False)
    frames = stems(files, "-frames.npz")
    assert len(frames) == EPISODES and not stems(files, ".mp4")
    assert np.load(tmp_path / "logs" / f"{frames[0]}-frames.npz")["frames"].shape == (
        LENGTH + 1, 64, 64, 3)


def test_an_existing_file_stays(tmp_path):
    """A file there before (another Recorder's, say) keeps its bytes; the
    episode takes the next name."""
    (tmp_path / "logs").mkdir()
    stamp = recorder.datetime.datetime.now().strftime("%Y%m%dT%H%M%S")
    taken = [tmp_path / "logs" / f"{stamp}-ach0-len{LENGTH}.npz"]
    taken[0].write_bytes(b"someone else's")
    env = recorder.Recorder(crafter_toolkit.Env(seed=1, length=LENGTH, textures="builtin"),
                            tmp_path / "logs", save_video=False)
    env.reset()
    while not env.step(0)[2]:
        pass
    env.close()
    files = stems(sorted(os.listdir(tmp_path / "logs")), ".npz")
    assert len(files) == 2 and taken[0].read_bytes() == b"someone else's"
