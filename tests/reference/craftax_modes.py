"""crafter-step's modes for Craftax-Classic played by JAX itself, as
crafter-games(7) says they are reproduced: one line per frame, for the C
frames of the same actions to be compared with.

    craftax_modes.py manual SEED ACTIONS   --manual-reset
    craftax_modes.py levels SEED N ACTIONS --levels N --level-order sequential

ACTIONS is a file of action bytes, one a step (255: the reset action).
A line is 'FRAME CRC DONE REWARD T': the CRC-32 of the observation's
float32 bytes, done 0 or 1, the reward's float32 bits in hex and the
timestep (-1 at a step that ended an episode and auto-reset it, whose
frame gives the ended episode's).  Frame 0 is the first observation (done 0, reward 0).

--manual-reset: key = PRNGKey(S); key, k = split(key); reset(k); a step is
key, k = split(key); key_step, _ = split(k); the env without auto-reset
stepped with key_step (the state an episode ends in stays and plays on);
the reset action is key, k = split(key); reset(k).

--levels N (one env, levels in order 1, 2, ..., N, 1, ...): level j is
reset(k_j) with _, k_j = split(PRNGKey(S + j - 1)); the first episode
plays level 1; a step is the auto-reset env's step with the schedule's
key, and a step that ends an episode gives the next level's state in
place of the auto-reset's world.
"""

import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_worlds  # noqa: E402  (puts in the stand-ins before craftax)
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

NAME = 'Craftax-Classic-Symbolic-v1'


def line(frame, obs, done, reward, state, timestep=True):
  obs = np.asarray(obs, dtype=np.float32)
  bits = np.asarray(reward, dtype=np.float32).reshape(1).view(np.uint32)[0]
  return '%d %08x %d %08x %d' % (frame, zlib.crc32(obs.tobytes()), int(done), int(bits),
                                 int(state.timestep) if timestep else -1)


def manual(seed, actions):
  env = make_craftax_env_from_name(NAME, auto_reset=False)
  step, reset = jax.jit(env.step), jax.jit(env.reset)
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = reset(k)
  print(line(0, obs, 0, 0.0, state))
  for n, action in enumerate(actions, 1):
    key, k = jax.random.split(key)
    if action == 255:
      obs, state = reset(k)
      print(line(n, obs, 0, 0.0, state))
      continue
    key_step, _ = jax.random.split(k)
    obs, state, reward, done, _ = step(key_step, state, int(action))
    print(line(n, obs, done, reward, state))


def levels(seed, count, actions):
  env = craftax_worlds.ENV
  step, reset = jax.jit(env.step), craftax_worlds.RESET
  sets = [reset(jax.random.split(jax.random.PRNGKey(seed + j))[1]) for j in range(count)]
  key = jax.random.PRNGKey(seed)
  key, _ = jax.random.split(key)
  obs, state = sets[0]
  level = 0
  print(line(0, obs, 0, 0.0, state))
  for n, action in enumerate(actions, 1):
    key, k = jax.random.split(key)
    obs, state, reward, done, _ = step(k, state, int(action))
    if done:
      level = (level + 1) % count
      obs, state = sets[level]
    print(line(n, obs, done, reward, state, timestep=not done))


def main(argv):
  if len(argv) == 3 and argv[0] == 'manual':
    manual(int(argv[1]), open(argv[2], 'rb').read())
  elif len(argv) == 4 and argv[0] == 'levels':
    levels(int(argv[1]), int(argv[2]), open(argv[3], 'rb').read())
  else:
    sys.exit(__doc__)


if __name__ == '__main__':
  main(sys.argv[1:])
