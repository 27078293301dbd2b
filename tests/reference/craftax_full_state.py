"""JAX's Craftax (the full game) states moved to the toolkit's words and
back with the Python client's crafter_toolkit.craftax (from_jax, to_jax,
to_arrays, header), and held to the C's words of the same states
(lib/game/cx_words.h, through tests/unit/test-cx-words --crc).

For each seed S JAX plays the seed schedule of crafter-games(7) (key =
PRNGKey(S); key, k = split(key); env.reset(k); then key, k = split(key);
jax.jit(env.step)(k, state, action) a step, the env
make_craftax_env_from_name("Craftax-Symbolic-v1", auto_reset=True)
resetting itself) STEPS random actions of all 43 drawn from the seed.
At the first state, every 25th and the last:

- saved = from_jax(state, key, seed=S, episode=E) is a state of game 2
  (header(saved)["game"] == "craftax"), of CRAFTAX_SIZE bytes, holding
  the seed, the episode counter and the key given;
- to_jax(saved) equals the state leaf for leaf: the same tree, each leaf
  a jax array of JAX's dtype, shape and weak type, bit for bit; and
  to_arrays(saved) given to from_arrays gives the same bytes;
- the CRC-32 of the saved state's words equals the C's for the same seed
  and actions (test-cx-words --crc: the C's generation and steps, its
  crafter_cx_state_to_words);
- the jitted step, given to_jax(saved), computes what it computes from
  JAX's own state, with no new compilation.

Then: key None is split(PRNGKey(S))[0]; a vmapped batch is refused.

    craftax_full_state.py PROGRAM N [STEPS [--plants]]
                                               N fresh random seeds
                                               (STEPS 150); exit 1 on a
                                               difference, said first;
                                               with --plants, then two
                                               differences planted, each
                                               of which must be found: a
                                               word of the saved state
                                               changed before its CRC is
                                               taken, a leaf of to_jax's
                                               state made weakly typed
                                               ('planted PLANT found: ...'
                                               each; exit 3 if one is not)

PROGRAM is tests/unit/test-cx-words.
"""

import dataclasses
import os
import random
import subprocess
import sys
import time
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, 'python'))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_worlds  # noqa: E402,F401  (its stand-ins for flax and matplotlib)
from crafter_toolkit import craftax  # noqa: E402
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

ENV = make_craftax_env_from_name('Craftax-Symbolic-v1', auto_reset=True)
RESET = jax.jit(ENV.reset)
STEP = jax.jit(ENV.step)
EVERY = 25


class Different(Exception):
  """A difference, said."""


def same_state(ours, theirs, what):
  """Raises Different unless two EnvStates are the same tree of jax
  arrays, leaf for leaf: type, weak type, shape, dtype and bits."""
  a, tree_a = jax.tree_util.tree_flatten(ours)
  b, tree_b = jax.tree_util.tree_flatten(theirs)
  if tree_a != tree_b:
    raise Different(f'{what}: the trees differ: {tree_a} and {tree_b}')
  names = craftax.CRAFTAX_NAMES
  if len(a) != len(names):
    raise Different(f'{what}: {len(a)} leaves, craftax.CRAFTAX_NAMES has {len(names)}')
  for name, x, y in zip(names, a, b):
    if type(x) is not type(y) or x.weak_type != y.weak_type:
      raise Different(f'{what}: {name} is a {type(x).__name__} (weak type {x.weak_type}) and '
                      f'a {type(y).__name__} (weak type {y.weak_type})')
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
      raise Different(f'{what}: {name} {x.dtype}{x.shape} and {y.dtype}{y.shape}')
    if x.tobytes() != y.tobytes():
      index = next(k for k in range(x.size)
                   if x.reshape(-1)[k:k + 1].tobytes() != y.reshape(-1)[k:k + 1].tobytes())
      raise Different(f'{what}: {name}[{index}] {x.reshape(-1)[index]} and '
                      f'{y.reshape(-1)[index]}')


def words_crc(saved, plant=None):
  words = bytearray(saved[craftax.HEADER.size:-4])
  if plant == 'word':
    words[4 * 83000] ^= 1  # player_level
  return zlib.crc32(bytes(words))


def c_crcs(program, seed, actions):
  out = subprocess.run([program, '--crc', str(seed)] + [str(a) for a in actions],
                       capture_output=True, text=True, check=True).stdout.split()
  return [int(line, 16) for line in out]


def check_seed(program, seed, steps, plant=None):
  """The checks of one seed; the count of states checked."""
  rng = np.random.RandomState(seed % 2 ** 32)
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  _, state = RESET(k)
  first = state
  episode, actions, checked, crcs = 1, [], 0, {}
  for t in range(steps + 1):
    if t > 0:
      action = int(rng.randint(43))
      actions.append(action)
      key, k = jax.random.split(key)
      _, state, _, done, _ = STEP(k, state, action)
      episode += bool(done)
    if t % EVERY and t != steps:
      continue
    what = f'seed {seed}, step {t}'
    saved = craftax.from_jax(state, key, seed=seed, episode=episode)
    head = craftax.header(saved)
    if (len(saved) != craftax.CRAFTAX_SIZE or head['game'] != 'craftax' or head['seed'] != seed
            or head['episode'] != episode
            or head['key'].tolist() != np.asarray(key).tolist()):
      raise Different(f'{what}: the saved state is {len(saved)} bytes with header {head}')
    back = craftax.to_jax(saved)
    if plant == 'weak':
      back = dataclasses.replace(back, timestep=jax.numpy.asarray(int(back.timestep)))
    same_state(back, state, what + ': to_jax(from_jax(state))')
    again = craftax.from_arrays(craftax.to_arrays(saved), head['key'], seed, episode)
    if again != saved:
      raise Different(f'{what}: from_arrays(to_arrays(saved)) is other bytes')
    crcs[t] = words_crc(saved, plant)
    _, k = jax.random.split(key)
    action = t % 43
    theirs = STEP(k, state, action)[1]
    size = STEP._cache_size()
    ours = STEP(k, back, action)[1]
    if STEP._cache_size() != size:
      raise Different(f'{what}: the jitted step compiled again for to_jax\'s state')
    same_state(ours, theirs, what + ': a step from to_jax\'s state')
    checked += 1
  theirs = c_crcs(program, seed, actions)
  for t, crc in crcs.items():
    if theirs[t] != crc:
      raise Different(f'seed {seed}, step {t}: the words\' CRC-32 is {crc:08x} in Python, '
                      f'{theirs[t]:08x} in C (crafter_cx_state_to_words)')
  # key None: the seed's key after its reset; a batch refused.
  if craftax.schedule_key(craftax.from_jax(first, seed=seed)).tolist() != \
          np.asarray(jax.random.split(jax.random.PRNGKey(seed))[0]).tolist():
    raise Different(f'seed {seed}: key None is not split(PRNGKey(seed))[0]')
  batch = jax.tree.map(lambda *x: np.stack(x), first, first)
  try:
    craftax.from_jax(batch)
  except ValueError as error:
    if 'a batch of 2 states (vmapped)' not in str(error):
      raise Different(f'a batch refused with: {error}')
  else:
    raise Different('a batch of two states was taken for one')
  return checked


def main(argv):
  if len(argv) < 2:
    print(__doc__, file=sys.stderr)
    return 2
  program, count = argv[0], int(argv[1])
  steps = int(argv[2]) if len(argv) > 2 else 150
  seeds = random.SystemRandom().sample(range(2 ** 31), count)
  started = time.perf_counter()
  checked = 0
  for seed in seeds:
    try:
      checked += check_seed(program, seed, steps)
    except Different as difference:
      print(f'first difference: {difference}')
      return 1
  print(f'{count} seeds: {checked} states of {steps} random steps each from JAX to words and '
        f'back, equal leaf for leaf, their words\' CRC-32 equal to the C\'s, stepped alike '
        f'({time.perf_counter() - started:.0f} s)')
  if '--plants' in argv[3:]:
    for plant in ('word', 'weak'):
      try:
        check_seed(program, seeds[0], 0, plant)
      except Different as difference:
        print(f'planted {plant} found: {difference}')
      else:
        print(f'planted {plant} NOT found')
        return 3
  return 0


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
