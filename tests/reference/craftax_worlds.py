"""Craftax-Classic's first states, as JAX makes them, for the C world
generator (lib/game/cc_worldgen.c) to be compared with.

For a seed S the key schedule is Craftax's: key = PRNGKey(S);
key, k = split(key); state = jax.jit(env.reset)(k)[1], env being
make_craftax_env_from_name("Craftax-Classic-Symbolic-v1", auto_reset=True)
with its default parameters, one env per call of the jitted reset (not
vmapped).

The state is read as a list of named fields in EnvState's order (nested
Inventory and Mobs fields as inventory.wood, zombies.position, ...), each
flattened in row-major order and every element made one 32-bit word:
integers and booleans as their value, float32 numbers as their bits, the
uint32 key as is.  The hash of a state is the CRC-32 (zlib's) of all those
words, little-endian, in that order.

    craftax_worlds.py --hashes FIRST COUNT    'S HASH' for S in FIRST..
    craftax_worlds.py --dump S [S ...]         every field of each state:
                                               'seed S', then one line per
                                               field: 'NAME n v0 v1 ...'
    craftax_worlds.py --compare PROGRAM N      N fresh random seeds, JAX's
                                               dump against PROGRAM's
                                               '--dump' output, field by
                                               field; the first difference
                                               said; exit 1 on one
    craftax_worlds.py --speed N                N resets timed, one jitted
                                               call each, once compiled
    craftax_worlds.py --angles                 'cos HASH' and 'sin HASH':
                                               the CRC-32 of jnp.cos and
                                               jnp.sin (jitted, float32)
                                               of every angle the noise's
                                               2 * jnp.pi * uniform can
                                               give, u = m * 2**-23 for m
                                               in 0..2**23-1 in order

Craftax imports flax (for flax.struct.dataclass, a frozen dataclass that
is a pytree) and its noise module imports matplotlib, neither of which
world generation uses; when they are missing, as in the pinned
environment (tests/reference/requirements-craftax.txt), small stand-ins
for those two names are put in their place first.
"""

import dataclasses
import os
import random
import sys
import time
import types
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')

import numpy as np  # noqa: E402
import jax  # noqa: E402


def _stand_ins():
  try:
    import flax.struct  # noqa: F401
  except ImportError:
    def dataclass(cls=None, **_):
      def wrap(klass):
        klass = dataclasses.dataclass(frozen=True)(klass)
        names = [field.name for field in dataclasses.fields(klass)]
        jax.tree_util.register_pytree_node(
            klass, lambda value: ([getattr(value, name) for name in names], None),
            lambda _, children: klass(*children))
        klass.replace = lambda self, **changes: dataclasses.replace(self, **changes)
        return klass
      return wrap if cls is None else wrap(cls)
    flax = types.ModuleType('flax')
    flax.struct = types.ModuleType('flax.struct')
    flax.struct.dataclass = dataclass
    sys.modules['flax'] = flax
    sys.modules['flax.struct'] = flax.struct
  try:
    import matplotlib.pyplot  # noqa: F401
  except ImportError:
    matplotlib = types.ModuleType('matplotlib')
    matplotlib.pyplot = types.ModuleType('matplotlib.pyplot')
    sys.modules['matplotlib'] = matplotlib
    sys.modules['matplotlib.pyplot'] = matplotlib.pyplot


_stand_ins()
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import craftax_dumps  # noqa: E402
from craftax_dumps import program_dump, reset_key, reset_seconds, words_of  # noqa: E402,F401

ENV = make_craftax_env_from_name('Craftax-Classic-Symbolic-v1', auto_reset=True)
RESET = jax.jit(ENV.reset)


def first_state(seed):
  return RESET(reset_key(seed))[1]


def fields(value, prefix=''):
  """(name, words) for every field with values, in declaration order."""
  out = []
  for field in dataclasses.fields(value):
    item = getattr(value, field.name)
    name = prefix + field.name
    if dataclasses.is_dataclass(item):
      out.extend(fields(item, name + '.'))
      continue
    if isinstance(item, tuple) and all(part is None for part in item):
      continue  # fractal_noise_angles left at None: not part of the state
    out.append((name, words_of(name, np.asarray(item))))
  return out


def state_hash(state):
  words = np.concatenate([words for _, words in fields(state)]).astype('<u4')
  return zlib.crc32(words.tobytes()) & 0xffffffff


def dump(seed, state, out):
  craftax_dumps.dump(seed, fields(state), out)


def describe(name, index, jax_value, c_value):
  if name in ('map', 'mob_map'):
    row, column = divmod(index, 64)
    where = f'{name}[{row}][{column}]'
  else:
    where = f'{name}[{index}]'
  return f'{where}: JAX {jax_value}, C {c_value}'


def compare(program, count):
  seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  started = time.perf_counter()
  jax_worlds = {}
  for seed in seeds:
    jax_worlds[seed] = dict(fields(first_state(seed)))
  jax_seconds = time.perf_counter() - started
  c_worlds = program_dump(program, seeds)
  if c_worlds is None:
    return 2
  cells = 0
  for seed in seeds:
    mine = c_worlds.get(seed)
    if mine is None:
      print(f'seed {seed}: no world from {program}')
      return 1
    if set(mine) != set(jax_worlds[seed]):
      print(f'seed {seed}: fields differ: JAX {sorted(jax_worlds[seed])}, C {sorted(mine)}')
      return 1
    for name, words in jax_worlds[seed].items():
      theirs = mine[name]
      if len(theirs) != len(words):
        print(f'seed {seed}: {name} has {len(words)} values in JAX, {len(theirs)} in C')
        return 1
      for index, (a, b) in enumerate(zip(words, theirs)):
        if int(a) != b:
          print(f'seed {seed}: first difference at ' + describe(name, index, int(a), b))
          return 1
      cells += len(words)
  print(f'{len(seeds)} worlds equal, {cells} values, JAX {jax_seconds:.1f} s '
        f'(jax {jax.__version__})')
  return 0


def main(argv):
  if len(argv) == 3 and argv[0] == '--hashes':
    first, count = int(argv[1]), int(argv[2])
    for seed in range(first, first + count):
      print(f'{seed} {state_hash(first_state(seed)):08x}', flush=seed % 500 == 0)
    return 0
  if len(argv) >= 2 and argv[0] == '--dump':
    for seed in argv[1:]:
      dump(int(seed), first_state(int(seed)), sys.stdout)
    return 0
  if len(argv) == 3 and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]))
  if argv == ['--angles']:
    import jax.numpy as jnp
    units = np.arange(1 << 23, dtype=np.float32) * np.float32(2.0 ** -23)
    angles = jax.jit(lambda u: 2 * jnp.pi * u)(units)
    for name, function in (('cos', jnp.cos), ('sin', jnp.sin)):
      words = np.asarray(jax.jit(function)(angles)).view('<u4')
      print(f'{name} {zlib.crc32(words.tobytes()) & 0xffffffff:08x}')
    return 0
  if len(argv) == 2 and argv[0] == '--speed':
    count = int(argv[1])
    keys = [jax.random.split(jax.random.PRNGKey(seed))[1] for seed in range(count)]
    seconds = reset_seconds(RESET, keys)
    print(f'JAX {jax.__version__}: {count} resets in {seconds:.3f} s, '
          f'{count / seconds:.0f} worlds/s (one jitted reset call per env, compiled before)')
    return 0
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
