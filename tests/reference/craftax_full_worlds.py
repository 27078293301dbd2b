"""Craftax's (the full game's, nine floors) first states, as JAX makes
them, for the C world generator (lib/game/cx_worldgen.c) to be compared
with.

For a seed S the key schedule is Craftax's: key = PRNGKey(S);
key, k = split(key); state = jax.jit(env.reset)(k)[1], env being
make_craftax_env_from_name("Craftax-Symbolic-v1", auto_reset=True) with
its default parameters, one env per call of the jitted reset (not
vmapped).  The reset splits k once more and hands generate_world the
second key (crafter_cx_reset_key in C gives that key).

The state is read as JAX flattens it (jax.tree_util.tree_leaves:
EnvState's fields in their declared order, nested Inventory and Mobs
fields as inventory.wood, melee_mobs.position, ...; fractal_noise_angles,
left at None, is no leaf), each array flattened in row-major order and
every element made one 32-bit word: integers and booleans as their
value, float32 numbers as their bits, the uint32 key as is.  The hash of
a state is the CRC-32 (zlib's) of all those words, little-endian, in that
order.  The hash of floor F (0 the overworld .. 8 the boss floor) is the
CRC-32 of the words of map[F], item_map[F], light_map[F], down_ladders[F]
and up_ladders[F], in that order.

    craftax_full_worlds.py --hashes FIRST COUNT  'S STATE F0 .. F8' for S in
                                                 FIRST..FIRST+COUNT-1
    craftax_full_worlds.py --dump S [S ...]      every field of each state:
                                                 'seed S', then one line a
                                                 field: 'NAME n v0 v1 ...'
    craftax_full_worlds.py --fields              'NAME DTYPE SHAPE' for each
                                                 leaf, in JAX's order
    craftax_full_worlds.py --compare PROGRAM N   N fresh random seeds (or
                                                 the seeds in CRAFTAX_SEED_LIST,
                                                 comma separated), JAX's
                                                 states against PROGRAM's
                                                 '--dump' output: for every
                                                 field the seeds that differ
                                                 and the first difference;
                                                 exit 1 on one
    craftax_full_worlds.py --speed N             N resets timed, one jitted
                                                 call each, once compiled
    craftax_full_worlds.py --hlo                 the reset's optimised HLO,
                                                 as XLA's CPU compiler
                                                 fuses it

Craftax imports flax (for flax.struct.dataclass) and its noise module
imports matplotlib, neither of which world generation uses; when they are
missing, as in the pinned environment, craftax_worlds.py's stand-ins for
those two names are put in their place first.
"""

import dataclasses
import os
import random
import sys
import time
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_worlds  # noqa: E402,F401  (its stand-ins for flax and matplotlib)
import craftax_dumps  # noqa: E402
from craftax_dumps import program_dump, reset_key, reset_seconds, words_of  # noqa: E402
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

ENV = make_craftax_env_from_name('Craftax-Symbolic-v1', auto_reset=True)
RESET = jax.jit(ENV.reset)
LEVELS = 9
SIDE = 48
FLOOR_FIELDS = ('map', 'item_map', 'light_map', 'down_ladders', 'up_ladders')


def first_state(seed):
  return RESET(reset_key(seed))[1]


def leaves(state):
  """(name, array) for every leaf, in JAX's flattening order: EnvState's
  fields as declared, a nested Inventory or Mobs in place (its fields
  named inventory.wood, melee_mobs.position, ...), a tuple of None no
  leaf.  Checked against jax.tree_util.tree_leaves, leaf for leaf."""
  out = []

  def walk(value, prefix):
    for field in dataclasses.fields(value):
      item = getattr(value, field.name)
      if dataclasses.is_dataclass(item):
        walk(item, prefix + field.name + '.')
      elif isinstance(item, tuple) and all(part is None for part in item):
        continue
      else:
        out.append((prefix + field.name, item))

  walk(state, '')
  flat = jax.tree_util.tree_leaves(state)
  if len(flat) != len(out) or any(a is not b for a, (_, b) in zip(flat, out)):
    raise SystemExit('the state\'s fields are not in JAX\'s flattening order')
  return [(name, np.asarray(value)) for name, value in out]


def fields(state):
  return [(name, words_of(name, array)) for name, array in leaves(state)]


def crc(words):
  return zlib.crc32(np.asarray(words, dtype='<u4').tobytes()) & 0xffffffff


def hashes(state):
  named = dict(fields(state))
  whole = crc(np.concatenate([words for _, words in fields(state)]))
  floors = []
  for floor in range(LEVELS):
    parts = []
    for name in FLOOR_FIELDS:
      per_floor = len(named[name]) // LEVELS
      parts.append(named[name][floor * per_floor:(floor + 1) * per_floor])
    floors.append(crc(np.concatenate(parts)))
  return whole, floors


def dump(seed, state, out):
  craftax_dumps.dump(seed, fields(state), out)


def describe(name, index, jax_value, c_value):
  if name in ('map', 'item_map', 'mob_map', 'light_map'):
    floor, cell = divmod(index, SIDE * SIDE)
    row, column = divmod(cell, SIDE)
    where = f'{name}[{floor}][{row}][{column}]'
  else:
    where = f'{name}[{index}]'
  return f'{where}: JAX {jax_value}, C {c_value}'


def compare(program, count):
  listed = os.environ.get('CRAFTAX_SEED_LIST')
  if listed:
    seeds = [int(s) for s in listed.split(',') if s]
  else:
    seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  started = time.perf_counter()
  jax_worlds = {seed: fields(first_state(seed)) for seed in seeds}
  jax_seconds = time.perf_counter() - started
  c_worlds = program_dump(program, seeds)
  if c_worlds is None:
    return 2
  differing = {}  # field: [seeds]
  first = {}      # field: its first difference, said
  values = 0
  for seed in seeds:
    mine = c_worlds.get(seed)
    if mine is None:
      print(f'seed {seed}: no state from {program}')
      return 1
    names = [name for name, _ in jax_worlds[seed]]
    if list(mine) != names:
      print(f'seed {seed}: fields differ: JAX {names}, C {list(mine)}')
      return 1
    for name, words in jax_worlds[seed]:
      theirs = np.asarray(mine[name], dtype=np.int64)
      if len(theirs) != len(words):
        print(f'seed {seed}: {name} has {len(words)} values in JAX, {len(theirs)} in C')
        return 1
      values += len(words)
      wrong = np.nonzero(words.astype(np.int64) != theirs)[0]
      if len(wrong):
        differing.setdefault(name, []).append(seed)
        if name not in first:
          k = int(wrong[0])
          first[name] = (f'seed {seed}: ' + describe(name, k, int(words[k]), int(theirs[k]))
                         + f' ({len(wrong)} values)')
  for name, listed_seeds in differing.items():
    shown = ' '.join(str(s) for s in listed_seeds[:8])
    print(f'{name}: {len(listed_seeds)} of {len(seeds)} seeds differ ({shown}'
          f'{" ..." if len(listed_seeds) > 8 else ""}); first difference at {first[name]}')
  if differing:
    print(f'{len(seeds) - len(set(s for l in differing.values() for s in l))} of '
          f'{len(seeds)} states equal')
    return 1
  print(f'{len(seeds)} states equal, {values} values, JAX {jax_seconds:.1f} s '
        f'(jax {jax.__version__})')
  return 0


def main(argv):
  if len(argv) == 3 and argv[0] == '--hashes':
    first, count = int(argv[1]), int(argv[2])
    for seed in range(first, first + count):
      whole, floors = hashes(first_state(seed))
      print(f'{seed} {whole:08x} ' + ' '.join(f'{h:08x}' for h in floors),
            flush=seed % 500 == 0)
    return 0
  if len(argv) >= 2 and argv[0] == '--dump':
    for seed in argv[1:]:
      dump(int(seed), first_state(int(seed)), sys.stdout)
    return 0
  if argv == ['--fields']:
    for name, array in leaves(first_state(0)):
      print(name, array.dtype, 'x'.join(str(n) for n in array.shape) or '()')
    return 0
  if len(argv) == 3 and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]))
  if argv == ['--hlo']:
    print(RESET.lower(reset_key(0)).compile().as_text())
    return 0
  if len(argv) == 2 and argv[0] == '--speed':
    count = int(argv[1])
    keys = [reset_key(seed) for seed in range(count)]
    seconds = reset_seconds(RESET, keys)
    print(f'JAX {jax.__version__}: {count} resets in {seconds:.3f} s, '
          f'{1000 * seconds / count:.2f} ms a reset (one jitted reset call per env, '
          'compiled before)')
    return 0
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
