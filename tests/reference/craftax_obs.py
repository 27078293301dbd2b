"""Craftax-Classic's symbolic observations, as JAX makes them, for the C
renderer (lib/view/cc_render.c) to be compared with.

For a seed S the observation is that of the first state, in Craftax's key
schedule (tests/reference/craftax_worlds.py says it): key = PRNGKey(S);
key, k = split(key); obs = jax.jit(env.reset)(k)[0], env being
Craftax-Classic-Symbolic-v1 with its default parameters.  Its CRC is
zlib's CRC-32 of the observation's float32 values, little-endian.

    craftax_obs.py --crcs FIRST COUNT     'S CRC' for S in FIRST..
    craftax_obs.py --compare PROGRAM N    N fresh random seeds: the reset's
                                          observation against PROGRAM's
                                          '--obs S...' output, and for each
                                          seed a state changed at random
                                          (player's place, inventory,
                                          vitals, direction, creatures,
                                          light, sleep) rendered by JAX's
                                          render_craftax_symbolic against
                                          PROGRAM's '--render' of its dump
                                          (craftax_worlds.py's format, on
                                          standard input); value for value,
                                          the first difference said; exit 1
                                          on one

PROGRAM prints 'obs S N v0 v1 ...' a line, each value a float32's bits as
an unsigned integer.
"""

import os
import random
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import craftax_worlds  # noqa: E402  (puts in the stand-ins before craftax)
from craftax.craftax_classic.renderer import render_craftax_symbolic  # noqa: E402

RENDER = jax.jit(render_craftax_symbolic)
ROWS, COLUMNS, CHANNELS = 7, 9, 21
TAIL = (['inventory.' + name for name in (
    'wood', 'stone', 'coal', 'iron', 'diamond', 'sapling', 'wood_pickaxe', 'stone_pickaxe',
    'iron_pickaxe', 'wood_sword', 'stone_sword', 'iron_sword')]
        + ['health', 'food', 'drink', 'energy', 'direction[LEFT]', 'direction[RIGHT]',
           'direction[UP]', 'direction[DOWN]', 'light_level', 'is_sleeping'])


def reset(seed):
  obs, state = craftax_worlds.RESET(craftax_worlds.reset_key(seed))
  return np.asarray(obs), state


def words(obs):
  if obs.dtype != np.float32 or obs.shape != (ROWS * COLUMNS * CHANNELS + len(TAIL),):
    raise SystemExit(f'unexpected observation: {obs.dtype} {obs.shape}')
  return obs.view(np.uint32)


def crc(obs):
  return zlib.crc32(words(obs).astype('<u4').tobytes()) & 0xffffffff


def changed(state, rng):
  """The state with everything the renderer reads but the map drawn at random."""
  # Each kind's slots take their places from four: a cell of the window,
  # the same less a window's height or width (numpy's indexing counts a
  # negative index from the end, onto the same cell), and a cell near the
  # window, so that slots meet often and some lie outside.
  player = rng.choice(np.r_[0:6, 58:64, rng.integers(0, 64, size=12)], size=2)
  corner = player - np.array([ROWS // 2, COLUMNS // 2])

  def mobs(value, slots):
    inside = rng.integers(0, [ROWS, COLUMNS])
    places = [inside, inside - [ROWS, 0], inside - [0, COLUMNS],
              rng.integers([-3, -3], [ROWS + 3, COLUMNS + 3])]
    local = np.array([places[rng.integers(0, 4)] for _ in range(slots)])
    return value.replace(position=jnp.asarray(corner + local, dtype=jnp.int32),
                         mask=jnp.asarray(rng.integers(0, 2, size=slots).astype(bool)))
  inventory = state.inventory
  inventory = inventory.replace(**{
      name: jnp.asarray(rng.integers(0, 10), dtype=jnp.int32)
      for name in (f.split('.')[1] for f in TAIL[:12])})
  state = state.replace(
      player_position=jnp.asarray(player, dtype=jnp.int32),
      player_direction=jnp.asarray(rng.integers(0, 6), dtype=jnp.int32),
      player_health=jnp.asarray(rng.integers(0, 10), dtype=jnp.int32),
      player_food=jnp.asarray(rng.integers(0, 10), dtype=jnp.int32),
      player_drink=jnp.asarray(rng.integers(0, 10), dtype=jnp.int32),
      player_energy=jnp.asarray(rng.integers(0, 10), dtype=jnp.int32),
      is_sleeping=jnp.asarray(bool(rng.integers(0, 2))),
      light_level=jnp.asarray(rng.random(dtype=np.float32), dtype=jnp.float32),
      inventory=inventory)
  return state.replace(zombies=mobs(state.zombies, 3), cows=mobs(state.cows, 3),
                       skeletons=mobs(state.skeletons, 2), arrows=mobs(state.arrows, 3))


def where(index):
  cells = ROWS * COLUMNS * CHANNELS
  if index < cells:
    cell, channel = divmod(index, CHANNELS)
    row, column = divmod(cell, COLUMNS)
    return f'[{index}] (row {row}, column {column}, channel {channel})'
  return f'[{index}] ({TAIL[index - cells]})'


def parse(text):
  out = {}
  for line in text.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[0] == 'obs':
      out[int(parts[1])] = [int(v) for v in parts[3:]]
  return out


def differ(what, theirs, mine):
  if mine is None:
    return f'{what}: no observation from the program'
  if len(mine) != len(theirs):
    return f'{what}: {len(theirs)} values in JAX, {len(mine)} in C'
  for index, (a, b) in enumerate(zip(theirs, mine)):
    if int(a) != b:
      fa, fb = (np.array([v], dtype=np.uint32).view(np.float32)[0] for v in (a, b))
      return f'{what}: first difference at {where(index)}: JAX {float(fa)!r}, C {float(fb)!r}'
  return None


def run(argv, stdin=''):
  done = subprocess.run(argv, input=stdin, capture_output=True, text=True)
  if done.returncode != 0:
    print(f'{" ".join(argv[:2])} failed: {done.stderr.strip()}')
    return None
  return parse(done.stdout)


def compare(program, count):
  rng = np.random.default_rng()
  seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  started = time.perf_counter()
  resets, changes, dumps = {}, {}, []
  for n, seed in enumerate(seeds):
    obs, state = reset(seed)
    resets[seed] = words(obs)
    state = changed(state, rng)
    changes[n] = words(np.asarray(RENDER(state)))
    lines = []
    craftax_worlds.dump(n, state, _Lines(lines))
    dumps.append(''.join(lines))
  jax_seconds = time.perf_counter() - started
  mine = run([program, '--obs'] + [str(s) for s in seeds])
  if mine is None:
    return 2
  for seed in seeds:
    problem = differ(f'seed {seed}, reset', resets[seed], mine.get(seed))
    if problem:
      print(problem)
      return 1
  mine = run([program, '--render'], ''.join(dumps))
  if mine is None:
    return 2
  for n, seed in enumerate(seeds):
    problem = differ(f'seed {seed}, changed state', changes[n], mine.get(n))
    if problem:
      print(problem)
      return 1
  values = sum(len(v) for v in resets.values()) + sum(len(v) for v in changes.values())
  print(f'{2 * len(seeds)} observations equal ({len(seeds)} resets, {len(seeds)} changed '
        f'states), {values} values, JAX {jax_seconds:.1f} s (jax {jax.__version__})')
  return 0


class _Lines:
  def __init__(self, lines):
    self.lines = lines

  def write(self, text):
    self.lines.append(text)


def main(argv):
  if len(argv) == 3 and argv[0] == '--crcs':
    first, count = int(argv[1]), int(argv[2])
    for seed in range(first, first + count):
      print(f'{seed} {crc(reset(seed)[0]):08x}', flush=seed % 500 == 0)
    return 0
  if len(argv) == 3 and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]))
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
