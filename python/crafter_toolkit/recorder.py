"""crafter.Recorder for any env with crafter.Env's interface (reset() ->
obs, step() -> obs, reward, done, info, render(size)), writing crafter's
files: stats.jsonl, one .npz per episode, one video per episode."""

import datetime
import itertools
import json
import os
import pathlib
import shutil
import subprocess
import warnings

import numpy as np

from .names import ACHIEVEMENTS

FRAMES_PER_SECOND = 10  # what crafter's videos play at (imageio's default)


class Recorder:
    """Recorder(env, directory, save_stats=True, save_video=True,
    save_episode=True, video_size=(512, 512)): crafter.Recorder's
    arguments and files, in `directory` (made if missing):

    stats.jsonl    a line per finished episode: {"length", "reward" (the
                   sum of info["reward"], rounded to 0.1), "achievement_NAME":
                   count, ...}, appended; crafter-score reads it
    NAME.npz       the episode: image (the observations, the reset's first),
                   action, reward (info["reward"]), done, discount, semantic,
                   player_pos, achievement_NAME and ainventory_NAME per step
                   (the first row zeros), as crafter writes it
    NAME.mp4       the episode drawn with env.render(video_size), 10 frames a
                   second, encoded by ffmpeg (H.264): the ffmpeg on PATH,
                   else imageio-ffmpeg's (the package crafter's Recorder
                   encodes through).  Without either the frames go to
                   NAME-frames.npz (an array "frames" of shape (steps + 1,
                   height, width, 3)) and a warning says so once.

    NAME is crafter's: the time the episode ended, the number of
    achievements unlocked and its length ("20261125T120000-ach3-len150"),
    followed by -2, -3, ... when files of that name are there already
    (episodes that end in the same second alike): no file is ever
    overwritten.
    A video is made as crafter makes it, by rendering: at night Crafter's
    render draws its noise from the world's generator, so an episode
    recorded with video goes on differently from the same one without,
    in crafter and here alike.  An episode given up by reset() before it
    ended writes nothing.  Every other attribute is the env's."""

    def __init__(self, env, directory, save_stats=True, save_video=True, save_episode=True,
                 video_size=(512, 512)):
        self._env = env
        self._directory = pathlib.Path(os.fspath(directory)).expanduser() if directory else None
        self._stats = bool(directory and save_stats)
        self._video = bool(directory and save_video)
        self._episode = bool(directory and save_episode)
        self._video_size = tuple(int(v) for v in video_size)
        self._stats_file = None
        if self._directory is not None and (self._stats or self._video or self._episode):
            self._directory.mkdir(parents=True, exist_ok=True)
        if self._stats:
            self._stats_file = (self._directory / "stats.jsonl").open("a")
        self._ffmpeg = find_ffmpeg() if self._video else None
        if self._video and not self._ffmpeg:
            warnings.warn("ffmpeg is not on PATH and imageio-ffmpeg is not installed "
                          "(pip install imageio-ffmpeg): crafter_toolkit.Recorder saves each "
                          "episode's video frames as NAME-frames.npz instead of NAME.mp4",
                          RuntimeWarning, stacklevel=2)
        self._encoder = None
        self._steps = []
        self._frames = []
        self._length = 0
        self._reward = 0.0

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._env, name)

    # -- the episode ---------------------------------------------------

    def reset(self):
        self._abandon_video()
        obs = self._env.reset()
        self._length = 0
        self._reward = 0.0
        self._steps = [{"image": obs}] if self._episode else []
        if self._video:
            self._start_video(self._env.render(self._video_size))
        return obs

    def step(self, action):
        obs, reward, done, info = self._env.step(action)
        self._length += 1
        self._reward += info["reward"]
        if self._episode:
            self._steps.append(self._transition(action, obs, reward, done, info))
        if self._video:
            self._add_frame(self._env.render(self._video_size))
        if done:
            parts = {}  # the episode's files, written whole under names of their own
            if self._stats:
                self._write_stats(info)
            if self._video:
                parts.update(self._finish_video())
            if self._episode:
                parts[".npz"] = self._write_episode()
            _publish(self._directory, self._episode_name(info), parts)
        return obs, reward, done, info

    def close(self):
        self._abandon_video()
        if self._stats_file is not None:
            self._stats_file.close()
            self._stats_file = None
        close = getattr(self._env, "close", None)
        if close is not None:
            close()

    def _episode_name(self, info):
        stamp = datetime.datetime.now().strftime("%Y%m%dT%H%M%S")
        unlocked = sum(int(count >= 1) for count in info["achievements"].values())
        return f"{stamp}-ach{unlocked}-len{self._length}"

    # -- stats.jsonl and the episode file ------------------------------

    def _write_stats(self, info):
        line = {"length": self._length, "reward": round(self._reward, 1)}
        for name, count in info["achievements"].items():
            line[f"achievement_{name}"] = count
        self._stats_file.write(json.dumps(line) + "\n")
        self._stats_file.flush()

    @staticmethod
    def _transition(action, obs, reward, done, info):
        # As crafter's: the info's keys overwrite the step's own (its
        # "reward" is info["reward"], the reward with or without reward=).
        row = {"action": action, "image": obs, "reward": reward, "done": done}
        for key, value in info.items():
            if key not in ("inventory", "achievements"):
                row[key] = value
        for name, count in info["achievements"].items():
            row[f"achievement_{name}"] = count
        for name, count in info["inventory"].items():
            row[f"ainventory_{name}"] = count
        return row

    def _write_episode(self):
        """The episode file, written whole under a name of its own."""
        first, later = self._steps[0], self._steps[1:]
        for key, value in later[0].items():
            if key not in first:
                first[key] = np.zeros_like(value)
        arrays = {key: np.array([row[key] for row in self._steps]) for key in first}
        self._steps = []
        return self._save_part("episode", arrays)

    def _save_part(self, kind, arrays):
        part = self._directory / f".{kind}-{os.getpid()}-{id(self)}.part.npz"
        with open(part, "wb") as stream:
            np.savez_compressed(stream, **arrays)
        return part

    # -- the video -----------------------------------------------------

    def _start_video(self, frame):
        self._frames = []
        if self._ffmpeg:
            height, width = frame.shape[:2]
            self._video_part = self._directory / f".video-{os.getpid()}-{id(self)}.part.mp4"
            # H.264 in yuv420p needs even sides: pad the last row or column.
            command = [self._ffmpeg, "-loglevel", "error", "-y", "-f", "rawvideo",
                       "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
                       "-r", str(FRAMES_PER_SECOND), "-i", "-",
                       "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264",
                       "-pix_fmt", "yuv420p", "-f", "mp4", str(self._video_part)]
            self._encoder = subprocess.Popen(command, stdin=subprocess.PIPE,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._add_frame(frame)

    def _add_frame(self, frame):
        if self._encoder is not None:
            try:
                self._encoder.stdin.write(np.ascontiguousarray(frame, np.uint8).tobytes())
            except (BrokenPipeError, OSError):
                raise RuntimeError(f"ffmpeg stopped: {self._encoder_error()}") from None
        else:
            self._frames.append(np.array(frame, np.uint8))

    def _encoder_error(self):
        self._encoder.stdin.close()
        self._encoder.wait()
        message = self._encoder.stderr.read().decode(errors="replace").strip()
        self._encoder = None
        return message or "no message"

    def _finish_video(self):
        """{suffix: the video, written whole under a name of its own}."""
        if self._encoder is not None:
            encoder, self._encoder = self._encoder, None
            encoder.stdin.close()
            message = encoder.stderr.read().decode(errors="replace").strip()
            if encoder.wait() != 0:
                self._video_part.unlink(missing_ok=True)
                raise RuntimeError(f"ffmpeg could not write the episode's video: {message}")
            return {".mp4": self._video_part}
        frames, self._frames = np.stack(self._frames), []
        return {"-frames.npz": self._save_part("frames", {"frames": frames})}

    def _abandon_video(self):
        if self._encoder is not None:
            encoder, self._encoder = self._encoder, None
            try:
                encoder.stdin.close()
            except OSError:
                pass
            encoder.kill()
            encoder.wait()
            encoder.stderr.close()
            self._video_part.unlink(missing_ok=True)
        self._frames = []


def find_ffmpeg():
    """The ffmpeg the videos are encoded with: the one on PATH, else the
    binary of imageio-ffmpeg (what crafter's Recorder encodes with, through
    imageio); None without either."""
    found = shutil.which("ffmpeg")
    if found:
        return found
    try:
        import imageio_ffmpeg
        return imageio_ffmpeg.get_ffmpeg_exe()
    except Exception:  # not installed, or its binary missing
        return None


def _place(part, target):
    """part linked to the name target, or FileExistsError when a file has
    that name; where the file system has no hard links, renamed to it
    unless a file has that name."""
    try:
        os.link(part, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.replace(part, target)


def _publish(directory, name, parts):
    """Gives the written files parts ({suffix: path}) the names
    name + suffix, or, when a file of one of those names exists, those of
    name-2, name-3, ...: each file is linked to its name, which fails rather
    than replace a file (two Recorders at work on one folder included), so
    nothing is overwritten and a file of such a name is always whole."""
    try:
        for count in itertools.count(1):
            stem = name if count == 1 else f"{name}-{count}"
            placed = []
            try:
                for suffix, part in parts.items():
                    target = directory / f"{stem}{suffix}"
                    _place(part, target)
                    placed.append((target, part))
                return stem
            except FileExistsError:
                for target, part in placed:  # back to its own name (a link, or renamed)
                    os.replace(target, part)
    finally:
        for part in parts.values():
            part.unlink(missing_ok=True)


# crafter's achievement names, for readers of these files.
__all__ = ["Recorder", "ACHIEVEMENTS"]
