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

PROGRAM prints 'pixels S N v0 v1 ...' a line, each value a float32's bits
as an unsigned integer.
"""

import os
import random
import subprocess
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


def main(argv):
  if argv == ['--assets']:
    print(assets())
    return 0
  if len(argv) == 3 and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]))
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
