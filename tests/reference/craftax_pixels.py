"""Craftax-Classic's pixel observations, as JAX makes them, for the C
renderer (crafter_cc_render_pixels, lib/view/cc_render.c) to be compared
with.

For a seed S the observation is that of the first state in Craftax's key
schedule (tests/reference/craftax_worlds.py says it): key = PRNGKey(S);
key, k = split(key); obs = jax.jit(env.reset)(k)[0], env being
Craftax-Classic-Pixels-v1 with its default parameters.

    craftax_pixels.py --assets            the installed craftax's assets
                                          folder (the textures' PNGs)
    craftax_pixels.py --compare PROGRAM N N fresh random seeds: JAX's
                                          observation against PROGRAM's
                                          '--pixels ASSETS S...' output,
                                          value for value; the count of
                                          values that differ and the most
                                          units in the last place any
                                          differs by; exit 1 on a
                                          difference

    craftax_pixels.py --steps PROGRAM N STEPS
                                          N fresh random seeds' episodes of
                                          STEPS random steps (the seeds'
                                          actions of craftax_episodes.py:
                                          randint(split(PRNGKey(S), 3)[2],
                                          (STEPS,), 0, 17)), every
                                          observation jit(env.step) returns
                                          against PROGRAM's '--pixel-steps
                                          ASSETS STEPS S' output, value for
                                          value; the states met (day, night,
                                          asleep, episode ends) are counted
    craftax_pixels.py --crafter-step CRAFTER_STEP N STEPS
                                          N consecutive seeds from a fresh
                                          random one, those episodes played
                                          by one crafter-step --game
                                          craftax-classic -O pixels
                                          --textures ASSETS: in the binary
                                          protocol (N envs on 2 threads)
                                          and in JSON lines (the first
                                          seed), every observation against
                                          JAX's, value for value
    craftax_pixels.py --crcs STEPS S...   the golden file of the seeds'
                                          episodes: a line 'S STEPS' and the
                                          CRC-32s of the float32 bytes of
                                          every observation, reset first, in
                                          hexadecimal, 8 a line

With --compare, PROGRAM prints 'pixels S N v0 v1 ...' a line, each value
a float32's bits as an unsigned integer; with --steps it writes every
observation's float32 bytes, little-endian, nothing else.
"""

import os
import random
import subprocess
import zlib
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_worlds  # noqa: E402  (puts in the stand-ins before craftax)
import craftax.craftax_classic.constants as constants  # noqa: E402
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

ENV = make_craftax_env_from_name('Craftax-Classic-Pixels-v1', auto_reset=True)
RESET = jax.jit(ENV.reset)
STEP = jax.jit(ENV.step)
ACTIONS = 17
SHAPE = (63, 63, 3)


def assets():
  return os.path.join(os.path.dirname(os.path.abspath(constants.__file__)), 'assets')


def reset(seed):
  obs = np.asarray(RESET(craftax_worlds.reset_key(seed))[0])
  if obs.dtype != np.float32 or obs.shape != SHAPE:
    raise SystemExit(f'unexpected observation: {obs.dtype} {obs.shape}')
  return obs.reshape(-1)


def ordered(bits):
  """float32 bits as integers in the floats' order, for counting ulps."""
  bits = bits.astype(np.int64)
  return np.where(bits & 0x80000000, 0x80000000 - bits, bits)


def compare(program, count):
  seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  started = time.perf_counter()
  theirs = {seed: reset(seed) for seed in seeds}
  jax_seconds = time.perf_counter() - started
  done = subprocess.run([program, '--pixels', assets()] + [str(s) for s in seeds],
                        capture_output=True, text=True)
  if done.returncode != 0:
    print(f'{program} failed: {done.stderr.strip()}')
    return 2
  mine = {}
  for line in done.stdout.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[0] == 'pixels':
      mine[int(parts[1])] = np.array([int(v) for v in parts[3:]], dtype=np.uint32)
  differing, worst, first = 0, 0, None
  for seed in seeds:
    if seed not in mine or mine[seed].size != theirs[seed].size:
      print(f'seed {seed}: no observation of {theirs[seed].size} values from the program')
      return 1
    a, b = theirs[seed].view(np.uint32), mine[seed]
    ulps = np.abs(ordered(a) - ordered(b))
    where = np.nonzero(ulps)[0]
    differing += where.size
    if where.size:
      worst = max(worst, int(ulps.max()))
      if first is None:
        row, rest = divmod(int(where[0]), 63 * 3)
        column, channel = divmod(rest, 3)
        first = (f'seed {seed}: first difference at row {row}, column {column}, channel '
                 f'{channel}: JAX {float(theirs[seed][where[0]])!r}, '
                 f'C {float(b[where[0]:where[0] + 1].view(np.float32)[0])!r}')
  values = sum(v.size for v in theirs.values())
  if differing:
    print(first)
    print(f'{differing} of {values} values differ, by at most {worst} ulp')
    return 1
  print(f'{len(seeds)} observations equal, {values} values, 0 ulp, '
        f'JAX {jax_seconds:.1f} s (jax {jax.__version__})')
  return 0


def play(seed, steps):
  """episode(), with the kind of each state."""
  actions = np.asarray(jax.random.randint(jax.random.split(jax.random.PRNGKey(seed), 3)[2],
                                          (steps,), 0, ACTIONS))
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = RESET(k)
  observations, kinds = [np.asarray(obs)], []

  def kind(state, done):
    found = {'night' if float(state.light_level) < 0.5 else 'day'}
    if bool(state.is_sleeping):
      found.add('asleep')
    if done:
      found.add('ended')
    return found

  kinds.append(kind(state, False))
  for action in actions:
    key, k = jax.random.split(key)
    obs, state, _, done, _ = STEP(k, state, int(action))
    observations.append(np.asarray(obs))
    kinds.append(kind(state, bool(done)))
  observations = np.stack(observations)
  if observations.dtype != np.float32 or observations.shape[1:] != SHAPE:
    raise SystemExit(f'unexpected observations: {observations.dtype} {observations.shape}')
  return observations, kinds


def differences(theirs, mine):
  """(count, most ulps, the first place as (step, row, column, channel)
  or None) of two runs' observations."""
  ulps = np.abs(ordered(theirs.view(np.uint32)) - ordered(mine.view(np.uint32)))
  where = np.argwhere(ulps)
  if not len(where):
    return 0, 0, None
  return len(where), int(ulps.max()), tuple(int(v) for v in where[0])


def compare_steps(program, count, steps):
  """Every observation of N fresh seeds' episodes; then a difference of
  one unit in the last place planted in the program's observation of the
  last night state met (or the last state) must be found."""
  seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  met = {'day': 0, 'night': 0, 'asleep': 0, 'ended': 0}
  differing, worst, first, values, jax_seconds = 0, 0, None, 0, 0.0
  for seed in seeds:
    started = time.perf_counter()
    theirs, kinds = play(seed, steps)
    jax_seconds += time.perf_counter() - started
    done = subprocess.run([program, '--pixel-steps', assets(), str(steps), str(seed)],
                          capture_output=True)
    if done.returncode != 0:
      print(f'{program} failed: {done.stderr.decode().strip()}')
      return 2
    mine = np.frombuffer(done.stdout, dtype='<f4').copy()
    if mine.size != theirs.size:
      print(f'seed {seed}: {mine.size} values from the program, not {theirs.size}')
      return 1
    mine = mine.reshape(theirs.shape)
    for found in kinds:
      for k in found:
        met[k] += 1
    values += theirs.size
    n, most, where = differences(theirs, mine)
    differing += n
    worst = max(worst, most)
    if where is not None and first is None:
      step, row, column, channel = where
      first = (f'seed {seed} step {step} ({", ".join(sorted(kinds[step]))}): first difference '
               f'at row {row}, column {column}, channel {channel}: JAX '
               f'{float(theirs[where])!r}, C {float(mine[where])!r}')
  states = count * (steps + 1)
  said = ', '.join(f'{v} {k}' for k, v in met.items())
  if differing:
    print(first)
    print(f'{differing} of {values} values differ, by at most {worst} ulp ({states} states: {said})')
    return 1
  print(f'{states} observations of {count} episodes equal ({said}), 0 ulp, '
        f'JAX {jax_seconds:.1f} s (jax {jax.__version__})')
  nights = [n for n, found in enumerate(kinds) if 'night' in found]
  step = nights[-1] if nights else len(kinds) - 1
  mine.view(np.uint32)[step, 20, 30, 2] += 1
  n, most, where = differences(theirs, mine)
  if (n, most, where) != (1, 1, (step, 20, 30, 2)):
    print(f'planted: one unit in the last place at step {step} row 20 column 30 channel 2 '
          f'not found so: {n} values differ by at most {most} ulp, first at {where}')
    return 1
  print(f'planted: 1 value differs by 1 ulp at step {step} row 20 column 30 channel 2, found')
  return 0


def binary_observations(stream, envs):
  """Every frame's observations of a crafter-step binary stream
  (crafter-protocol(5), version 3): an array (frames, envs, 63, 63, 3)."""
  words = np.frombuffer(stream[:160], dtype='<u4')
  if stream[:8] != b'CRAFTSTP' or words[2] != 3 or words[4] != envs or words[5] != 1 \
      or words[6] != 2 or tuple(words[7:10]) != SHAPE or words[10] != 63 * 63 * 3 * 4:
    raise SystemExit(f'not a stream of {envs} envs of float32 pixels 63x63x3: '
                     f'{words[:11].tolist()}')
  header, frame, offset = int(words[3]), int(words[11]), int(words[19 + 11])
  frames = (len(stream) - header) // frame
  out = np.empty((frames, envs) + SHAPE, dtype=np.float32)
  for k in range(frames):
    at = header + k * frame + offset
    out[k] = np.frombuffer(stream, dtype='<f4', count=envs * 63 * 63 * 3,
                           offset=at).reshape((envs,) + SHAPE)
  return out


def json_observations(text):
  """The observations of crafter-step's JSON lines: the first record's
  (the reset) and every step's (a reset record after an episode's end
  repeats its step's)."""
  import base64
  import json
  out = []
  for n, line in enumerate(text.splitlines()):
    record = json.loads(line)
    if n == 0 or 'reset' not in record:
      out.append(np.frombuffer(base64.b64decode(record['obs']), dtype='<f4').reshape(SHAPE))
  return np.stack(out)


def compare_crafter_step(program, count, steps):
  """N consecutive seeds' episodes through crafter-step, both protocols,
  against JAX's observations."""
  first = random.randrange(-2 ** 31, 2 ** 31 - count)
  seeds = list(range(first, first + count))
  theirs, met = [], {'day': 0, 'night': 0, 'asleep': 0, 'ended': 0}
  actions = []
  for seed in seeds:
    observations, kinds = play(seed, steps)
    theirs.append(observations)
    for found in kinds:
      for k in found:
        met[k] += 1
    actions.append(np.asarray(jax.random.randint(
        jax.random.split(jax.random.PRNGKey(seed), 3)[2], (steps,), 0, ACTIONS)))
  theirs = np.stack(theirs, axis=1)  # (steps + 1, envs, 63, 63, 3)
  interleaved = np.stack(actions, axis=1).astype(np.uint8).tobytes()
  base = [program, '--game', 'craftax-classic', '-O', 'pixels', '--textures', assets(),
          '--seed', str(first)]
  done = subprocess.run(base + ['--binary', '--envs', str(count), '--threads', '2'],
                        input=interleaved, capture_output=True)
  if done.returncode != 0:
    print(f'crafter-step failed: {done.stderr.decode().strip()}')
    return 2
  mine = binary_observations(done.stdout, count)
  if mine.shape != theirs.shape:
    print(f'{mine.shape[0]} frames from crafter-step, not {theirs.shape[0]}')
    return 1
  lines = ''.join(f'{int(a)}\n' for a in actions[0])
  done = subprocess.run(base + ['--episodes', '0'], input=lines.encode(), capture_output=True)
  if done.returncode != 0:
    print(f'crafter-step failed: {done.stderr.decode().strip()}')
    return 2
  records = json_observations(done.stdout.decode())
  said = ', '.join(f'{v} {k}' for k, v in met.items())
  for what, a, b in (('frames', theirs, mine), ('JSON lines', theirs[:, 0], records)):
    if a.shape != b.shape:
      print(f'{what}: {b.shape} observations from crafter-step, not {a.shape}')
      return 1
    n, most, where = differences(a, b)
    if n:
      print(f'{what}: first difference at {where} (step, env, row, column, channel)')
      print(f'{what}: {n} of {a.size} values differ, by at most {most} ulp ({said})')
      return 1
  print(f'{theirs.shape[0] * count} observations of seeds {first}..{first + count - 1} in '
        f'frames and {records.shape[0]} in JSON lines equal JAX\'s ({said}), 0 ulp')
  return 0


def crcs(steps, seeds):
  for seed in seeds:
    observations, _ = play(seed, steps)
    print(f'{seed} {steps}')
    words = [f'{zlib.crc32(o.astype("<f4").tobytes()):08x}' for o in observations]
    for at in range(0, len(words), 8):
      print(' '.join(words[at:at + 8]))
  return 0


def main(argv):
  if argv == ['--assets']:
    print(assets())
    return 0
  if len(argv) == 3 and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]))
  if len(argv) == 4 and argv[0] == '--steps':
    return compare_steps(argv[1], int(argv[2]), int(argv[3]))
  if len(argv) == 4 and argv[0] == '--crafter-step':
    return compare_crafter_step(argv[1], int(argv[2]), int(argv[3]))
  if len(argv) >= 3 and argv[0] == '--crcs':
    return crcs(int(argv[1]), [int(s) for s in argv[2:]])
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
