"""A Gymnasium-style client for crafter-step's binary protocol.

Needs only the Python standard library; observations come as numpy arrays
when numpy is installed, else as bytes (pixels, semantic) or tuples of
floats (symbolic).

    from crafter_client import CrafterEnv
    env = CrafterEnv(envs=8, obs="pixels", seed=1)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step([0] * 8)
    env.close()

Environments reset themselves when an episode ends: the observation
returned with terminated or truncated set is already the first of the next
episode, as in Gymnasium's vector environments with same-step autoreset.
The protocol is described in crafter-protocol(5).
"""

import os
import shutil
import struct
import subprocess

try:
    import numpy
except ImportError:  # the client works without numpy
    numpy = None

MAGIC = b"CRAFTSTP"
HEADER = struct.Struct("<8sIIIIIIIIIIII8x")
FRAME = struct.Struct("<fBBxxfIII")
ACHIEVEMENTS = (
    "collect_coal", "collect_diamond", "collect_drink", "collect_iron",
    "collect_sapling", "collect_stone", "collect_wood", "defeat_skeleton",
    "defeat_zombie", "eat_cow", "eat_plant", "make_iron_pickaxe",
    "make_iron_sword", "make_stone_pickaxe", "make_stone_sword",
    "make_wood_pickaxe", "make_wood_sword", "place_furnace", "place_plant",
    "place_stone", "place_table", "wake_up")


class ProtocolError(RuntimeError):
    """crafter-step sent something this client does not understand."""


def _find_program():
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, os.pardir, "bin", "crafter-step")
    if os.access(built, os.X_OK):
        return built
    return shutil.which("crafter-step") or "crafter-step"


class CrafterEnv:
    """`envs` Crafter environments stepped together by one crafter-step."""

    def __init__(self, envs=1, obs="pixels", seed=0, first_episode=1,
                 area=None, view=None, size=None, length=None, reward=True,
                 textures=None, threads=1, program=None):
        self.num_envs = envs
        self.obs_kind = obs
        self.args = [program or _find_program(), "--binary",
                     "--envs", str(envs), "--obs", obs, "--seed", str(seed),
                     "--first-episode", str(first_episode)]
        for name, value in (("area", area), ("view", view), ("size", size)):
            if value is not None:
                self.args += ["--" + name, "%d,%d" % tuple(value)]
        if length is not None:
            self.args += ["--length", str(length)]
        if not reward:
            self.args.append("--no-reward")
        if textures is not None:
            self.args += ["--textures", textures]
        if threads != 1:
            self.args += ["--threads", str(threads)]
        self.process = None

    # -- the protocol ---------------------------------------------------

    def _read(self, count):
        data = self.process.stdout.read(count)
        if data is None or len(data) != count:
            got = 0 if data is None else len(data)
            message = self.process.stderr.read().decode(errors="replace").strip()
            raise ProtocolError(
                "crafter-step ended in the middle of a frame (%d of %d bytes)%s"
                % (got, count, ": " + message if message else ""))
        return data

    def _start(self):
        self.close()
        self.process = subprocess.Popen(
            self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        fields = HEADER.unpack(self._read(HEADER.size))
        (magic, version, header_bytes, envs, kind, dtype, s0, s1, s2,
         obs_bytes, frame_bytes, actions, achievements) = fields
        if magic != MAGIC or version != 1 or header_bytes != HEADER.size:
            raise ProtocolError("not a crafter-step binary stream (version %d)" % version)
        if envs != self.num_envs or achievements != len(ACHIEVEMENTS):
            raise ProtocolError("unexpected header: %r" % (fields,))
        self.shape = {1: (s0, s1, 3), 2: (s0, s1), 3: (s0,)}.get(kind, ())
        self.dtype = {1: "uint8", 2: "float32"}.get(dtype)
        self.obs_bytes = obs_bytes
        self.frame_bytes = frame_bytes
        self.action_count = actions
        return self._frames()

    def _frames(self):
        data = self._read(self.frame_bytes * self.num_envs)
        rewards, terminated, truncated, infos, observations = [], [], [], [], []
        for i in range(self.num_envs):
            start = i * self.frame_bytes
            reward, done, reset, discount, unlocked, episode, step = \
                FRAME.unpack_from(data, start)
            obs = data[start + FRAME.size: start + FRAME.size + self.obs_bytes]
            observations.append(obs)
            rewards.append(reward)
            terminated.append(bool(done) and discount == 0.0)
            truncated.append(bool(done) and discount != 0.0)
            infos.append({
                "discount": discount, "episode": episode, "step": step,
                "reset": bool(reset),
                "unlocked": [name for bit, name in enumerate(ACHIEVEMENTS)
                             if unlocked >> bit & 1]})
        return self._observations(observations), rewards, terminated, truncated, infos

    def _observations(self, chunks):
        if not self.obs_bytes:
            return [None] * self.num_envs
        if numpy is not None:
            array = numpy.frombuffer(b"".join(chunks), dtype=self.dtype)
            if self.obs_kind == "semantic":
                return array.reshape((self.num_envs,) + self.shape)
            return array.reshape((self.num_envs,) + self.shape)
        if self.dtype == "float32":
            count = self.obs_bytes // 4
            return [struct.unpack("<%df" % count, chunk) for chunk in chunks]
        return chunks

    # -- the Gymnasium-style interface ------------------------------------

    def reset(self):
        """Starts (or restarts) the environments; returns (obs, infos)."""
        obs, _, _, _, infos = self._start()
        return obs, infos

    def step(self, actions):
        """One action per env; returns (obs, rewards, terminated, truncated, infos)."""
        if self.process is None:
            raise ProtocolError("call reset() first")
        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError("expected %d actions, got %d" % (self.num_envs, len(actions)))
        for action in actions:
            if not 0 <= int(action) < self.action_count:
                raise ValueError("action %r out of range 0..%d" % (action, self.action_count - 1))
        self.process.stdin.write(bytes(int(a) for a in actions))
        self.process.stdin.flush()
        return self._frames()

    def close(self):
        if self.process is not None:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
            self.process.stdout.close()
            self.process.stderr.close()
            self.process.wait()
            self.process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":
    import random
    import sys
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    with CrafterEnv(envs=count, obs="symbolic", seed=1) as env:
        env.reset()
        returns = [0.0] * count
        episodes = 0
        for _ in range(2000):
            _, rewards, terminated, truncated, infos = env.step(
                [random.randrange(17) for _ in range(count)])
            for i in range(count):
                returns[i] += rewards[i]
                for name in infos[i]["unlocked"]:
                    print("env %d unlocked %s" % (i, name))
                if terminated[i] or truncated[i]:
                    episodes += 1
                    print("env %d: episode over, return %.1f" % (i, returns[i]))
                    returns[i] = 0.0
        print("%d episodes ended" % episodes)
