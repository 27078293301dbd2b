"""Craftax's (the full game's) symbolic observations, as JAX makes them,
for the C renderer (lib/view/cx_render.c) to be compared with.

The env is make_craftax_env_from_name('Craftax-Symbolic-v1',
auto_reset=True) with its default parameters, one env per jitted call,
in the key schedule of craftax_full_steps.py: key = PRNGKey(S); key, k =
split(key); obs, state = jax.jit(env.reset)(k); then for every step key,
k = split(key); obs, state, ... = jax.jit(env.step)(k, state, action).
The observation of a step is the one env.step returns (after an episode
ends, the first state's of the next).  A crafted first state (one of
craftax_full_steps.py's crafted() or boss(), made from seed S's first
state) is observed by jax.jit(render_craftax_symbolic).  The CRC of an
observation is zlib's CRC-32 of its float32 values, little-endian.

Actions: those of craftax_full_steps.py (element n of randint(split(
PRNGKey(S), 3)[2], (STEPS,), 0, 43) is step n + 1's; beside the boss DO
seven steps in ten, drawn by numpy's default_rng(S)).

    craftax_full_obs.py --record [--starts OUT.gz S,S,...] SPEC...
        golden lines on standard output, one an observation:
        'S N ACTION CRC' (N = 0 the first state, ACTION -1 there, or -2
        for a crafted first state; CRC in hex), for every SPEC in turn:
          resets:FIRST:COUNT    the reset's observation of seeds FIRST..
          random:STEPS:S,S,...  those seeds' episodes of random actions
          crafted:STEPS:S,...   episodes from crafted first states
          boss:STEPS:S,...      episodes from crafted first states
                                beside the boss
        with --starts the crafted first states of the seeds listed are
        written to OUT.gz, as craftax_full_steps.py's records (7 head
        words, action 0xfffffffe, then the state's words); on standard
        error what the observations held (creatures, projectiles, dark
        cells, floors)
    craftax_full_obs.py --compare PROGRAM N [STEPS]
        N fresh random seeds: each one's first state and STEPS (20 unless
        said) random steps, a crafted first state of it on floor S mod 9
        and STEPS random steps from there, and for each of those
        2 (STEPS + 1) states one more changed at random (the player's
        floor, place and everything the renderer reads: the window's
        blocks, items and light, creatures and projectiles in every slot,
        some outside the window or at negative places, inventory, vitals,
        attributes, direction, light level, sleep, spells, kills, the
        boss's wave); the states written as records to a file PROGRAM
        reads with '--render FILE' (head word 5 is 1 where JAX's
        observation is render_craftax_symbolic's jitted alone: the
        crafted and the changed states; 0 where it is the env's), its
        'obs K N v0 ...' lines (K the record's number, each value a
        float32's bits) compared value for value with JAX's
        observations, the first difference said; exit 1 on one
"""

import gzip
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import craftax_full_worlds as worlds  # noqa: E402
import craftax_full_steps as steps_ref  # noqa: E402
from craftax.craftax.renderer import render_craftax_symbolic  # noqa: E402

RENDER = jax.jit(render_craftax_symbolic)
STEP = jax.jit(worlds.ENV.step)
ROWS, COLUMNS = 9, 11
BLOCKS, ITEMS, MOBS = 37, 5, 40
CHANNELS = BLOCKS + ITEMS + MOBS + 1
CELLS = ROWS * COLUMNS * CHANNELS
TAIL = (['inventory.' + n for n in (
    'wood', 'stone', 'coal', 'iron', 'diamond', 'sapphire', 'ruby', 'sapling', 'torches',
    'arrows', 'books', 'pickaxe', 'sword')]
        + ['sword_enchantment', 'bow_enchantment', 'inventory.bow']
        + [f'potions[{k}]' for k in range(6)]
        + ['health', 'food', 'drink', 'energy', 'mana', 'xp', 'dexterity', 'strength',
           'intelligence']
        + [f'direction[{d}]' for d in ('LEFT', 'RIGHT', 'UP', 'DOWN')]
        + [f'armour[{k}]' for k in range(4)]
        + [f'armour_enchantments[{k}]' for k in range(4)]
        + ['light_level', 'is_sleeping', 'is_resting', 'learned_spells[0]',
           'learned_spells[1]', 'player_level', 'level cleared', 'boss vulnerable'])
SIZE = CELLS + len(TAIL)
CLASSES = ('melee', 'passive', 'ranged', 'mob projectile', 'player projectile')


def words(obs):
  obs = np.asarray(obs)
  if obs.dtype != np.float32 or obs.shape != (SIZE,):
    raise SystemExit(f'unexpected observation: {obs.dtype} {obs.shape}')
  return obs.view(np.uint32)


def crc(obs):
  return zlib.crc32(words(obs).astype('<u4').tobytes()) & 0xffffffff


def where(index):
  if index < CELLS:
    cell, channel = divmod(index, CHANNELS)
    row, column = divmod(cell, COLUMNS)
    if channel < BLOCKS:
      what = f'block {channel}'
    elif channel < BLOCKS + ITEMS:
      what = f'item {channel - BLOCKS}'
    elif channel < BLOCKS + ITEMS + MOBS:
      kind, type_id = divmod(channel - BLOCKS - ITEMS, 8)
      what = f'{CLASSES[kind]} type {type_id}'
    else:
      what = 'light'
    return f'[{index}] (row {row}, column {column}, channel {channel}: {what})'
  return f'[{index}] ({TAIL[index - CELLS]})'


class Census:
  """What the observations held, for the record's summary."""

  def __init__(self):
    self.count = 0
    self.kinds = [0] * 5
    self.dark = 0
    self.floors = set()
    self.sleeping = 0

  def add(self, obs):
    obs = np.asarray(obs)
    cells = obs[:CELLS].reshape(ROWS, COLUMNS, CHANNELS)
    mobs = cells[:, :, BLOCKS + ITEMS:BLOCKS + ITEMS + MOBS].reshape(ROWS, COLUMNS, 5, 8)
    self.count += 1
    for k in range(5):
      self.kinds[k] += bool(mobs[:, :, k].any())
    self.dark += bool((cells[:, :, -1] == 0).any())
    self.floors.add(int(round(float(obs[CELLS + TAIL.index('player_level')]) * 10)))
    self.sleeping += bool(obs[CELLS + TAIL.index('is_sleeping')])

  def say(self):
    kinds = ', '.join(f'{CLASSES[k]} {self.kinds[k]}' for k in range(5))
    return (f'{self.count} observations: with creatures or projectiles in view: {kinds}; '
            f'{self.dark} with dark cells, {self.sleeping} asleep; floors {sorted(self.floors)}')


def start(kind, seed):
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = worlds.RESET(k)
  if kind == 'boss':
    state = steps_ref.boss(state, seed)
  elif kind == 'crafted':
    state = steps_ref.crafted(state, seed)
  if kind != 'random':
    obs = RENDER(state)
  return key, k, obs, state


def chosen_actions(kind, seed, count):
  chosen = steps_ref.actions(seed, count, 'random')
  if kind == 'boss':
    strike = np.random.default_rng(seed).random(count) < 0.7
    chosen = [5 if hit else a for hit, a in zip(strike, chosen)]
  return chosen


def record_words(seed, n, action, k, state, alone=0):
  kw = np.asarray(k, dtype=np.uint32)
  head = np.array([seed & 0xffffffff, n, action & 0xffffffff, kw[0], kw[1], alone, 0],
                  dtype=np.uint32)
  return head.astype('<u4').tobytes() + steps_ref.words(state).astype('<u4').tobytes()


def record(starts, new, specs):
  census = Census()
  started = time.perf_counter()
  with (gzip.open(starts, 'wb', compresslevel=9) if starts else open(os.devnull, 'wb')) as out:
    for spec in specs:
      kind, count, listed = (spec.split(':') + [''])[:3]
      if kind == 'resets':
        first = int(count)
        for seed in range(first, first + int(listed)):
          obs = worlds.RESET(worlds.reset_key(seed))[0]
          census.add(obs)
          print(f'{seed} 0 -1 {crc(obs):08x}', flush=seed % 500 == 0)
        continue
      if kind not in ('random', 'crafted', 'boss'):
        raise SystemExit(f'unknown spec {spec}')
      for seed in (int(s) for s in listed.split(',')):
        key, k, obs, state = start(kind, seed)
        census.add(obs)
        print(f'{seed} 0 {-1 if kind == "random" else -2} {crc(obs):08x}')
        if seed in new:
          out.write(record_words(seed, 0, 0xfffffffe, k, state))
        actions = chosen_actions(kind, seed, int(count))
        for n in range(1, int(count) + 1):
          key, k = jax.random.split(key)
          obs, state, _, _, _ = STEP(k, state, actions[n - 1])
          census.add(obs)
          print(f'{seed} {n} {actions[n - 1]} {crc(obs):08x}')
        sys.stdout.flush()
        sys.stderr.write(f'{kind} seed {seed}: {count} steps\n')
  sys.stderr.write(census.say() + f' ({time.perf_counter() - started:.0f} s)\n')
  return 0


def changed(state, rng):
  """The state with its floor, place and everything the renderer reads
  drawn at random."""
  level = int(rng.integers(0, 9))
  player = rng.choice(np.r_[0:5, 43:48, rng.integers(0, 48, size=10)], size=2)
  corner = player - np.array([ROWS // 2, COLUMNS // 2])

  def draw(mobs, slots, types):
    # a cell of the window, the same less a window's height or width
    # (a negative place numpy's indexing counts from the end), or near
    inside = rng.integers(0, [ROWS, COLUMNS], size=(slots, 2))
    places = np.stack([inside, inside - [ROWS, 0], inside - [0, COLUMNS],
                       rng.integers([-12, -12], [ROWS + 3, COLUMNS + 3], size=(slots, 2))])
    local = places[rng.integers(0, 4, size=slots), np.arange(slots)]
    position = np.asarray(mobs.position).copy()
    position[level, :slots] = corner + local
    mask = np.asarray(mobs.mask).copy()
    mask[level, :slots] = rng.integers(0, 2, size=slots).astype(bool)
    type_id = np.asarray(mobs.type_id).copy()
    type_id[level, :slots] = rng.integers(0, types, size=slots)
    return mobs.replace(position=jnp.asarray(position, dtype=jnp.int32),
                        mask=jnp.asarray(mask), type_id=jnp.asarray(type_id, dtype=jnp.int32))

  floor_map = np.asarray(state.map).copy()
  floor_map[level] = rng.integers(0, BLOCKS, size=(48, 48))
  items = np.asarray(state.item_map).copy()
  items[level] = rng.integers(0, ITEMS, size=(48, 48)) * (rng.random((48, 48)) < 0.3)
  light = np.asarray(state.light_map).copy()
  near = np.array([0.05, np.nextafter(np.float32(0.05), np.float32(1)), 0.0, 1.0],
                  dtype=np.float32)
  light[level] = np.where(rng.random((48, 48)) < 0.5, rng.random((48, 48)).astype(np.float32)
                          * np.float32(0.1), near[rng.integers(0, 4, size=(48, 48))])
  killed = np.asarray(state.monsters_killed).copy()
  killed[level] = rng.integers(5, 11)
  counts = lambda n: jnp.asarray(rng.integers(0, 100, size=n), dtype=jnp.int32)  # noqa: E731
  small = lambda n, top: jnp.asarray(rng.integers(0, top, size=n), dtype=jnp.int32)  # noqa: E731
  inv = state.inventory.replace(
      wood=counts(()), stone=counts(()), coal=counts(()), iron=counts(()), diamond=counts(()),
      sapling=counts(()), pickaxe=small((), 5), sword=small((), 5), bow=small((), 2),
      arrows=counts(()), armour=small(4, 3), torches=counts(()), ruby=counts(()),
      sapphire=counts(()), potions=counts(6), books=small((), 3))
  return state.replace(
      map=jnp.asarray(floor_map), item_map=jnp.asarray(items), light_map=jnp.asarray(light),
      monsters_killed=jnp.asarray(killed),
      player_level=jnp.int32(level),
      player_position=jnp.asarray(player, dtype=jnp.int32),
      player_direction=jnp.int32(rng.integers(0, 6)),
      player_health=jnp.float32(rng.integers(0, 100) / 10 + rng.random() / 3),
      player_food=small((), 10), player_drink=small((), 10), player_energy=small((), 10),
      player_mana=small((), 10), player_xp=small((), 30), player_dexterity=small((), 6),
      player_strength=small((), 6), player_intelligence=small((), 6),
      is_sleeping=jnp.asarray(bool(rng.integers(0, 2))),
      is_resting=jnp.asarray(bool(rng.integers(0, 2))),
      learned_spells=jnp.asarray(rng.integers(0, 2, 2).astype(bool)),
      sword_enchantment=small((), 3), bow_enchantment=small((), 3),
      armour_enchantments=small(4, 3),
      boss_timesteps_to_spawn_this_round=jnp.int32(rng.integers(-1, 2)),
      light_level=jnp.float32(rng.random()),
      inventory=inv,
      melee_mobs=draw(state.melee_mobs, 3, 8), passive_mobs=draw(state.passive_mobs, 3, 8),
      ranged_mobs=draw(state.ranged_mobs, 2, 8),
      mob_projectiles=draw(state.mob_projectiles, 3, 8),
      player_projectiles=draw(state.player_projectiles, 3, 8))


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
  wrong = np.nonzero(theirs.astype(np.int64) != np.asarray(mine, dtype=np.int64))[0]
  if len(wrong):
    index = int(wrong[0])
    fa, fb = (np.array([v], dtype=np.uint32).view(np.float32)[0]
              for v in (theirs[index], mine[index]))
    return (f'{what}: first difference at {where(index)}: JAX {float(fa)!r}, '
            f'C {float(fb)!r} ({len(wrong)} values differ)')
  return None


def compare(program, count, steps):
  rng = np.random.default_rng()
  seeds = [random.randrange(0, 2 ** 31) for _ in range(count)]
  started = time.perf_counter()
  expected, labels = [], []
  census = Census()
  with tempfile.TemporaryDirectory() as scratch:
    path = os.path.join(scratch, 'states.gz')
    with gzip.open(path, 'wb', compresslevel=1) as out:
      for seed in seeds:
        for kind in ('random', 'crafted'):
          key, k, obs, state = start(kind, seed)
          actions = rng.integers(0, 43, size=steps)
          for n in range(steps + 1):
            if n > 0:
              key, k = jax.random.split(key)
              obs, state, _, _, _ = STEP(k, state, int(actions[n - 1]))
            for variant in (0, 1):
              s = changed(state, rng) if variant else state
              o = RENDER(s) if variant else obs
              census.add(o)
              labels.append(f'seed {seed}, {kind} episode, step {n}'
                            + (', changed at random' if variant else ''))
              expected.append(words(o).copy())
              alone = int(variant == 1 or (kind == 'crafted' and n == 0))
              out.write(record_words(seed, n, 0, k, s, alone))
    jax_seconds = time.perf_counter() - started
    run = subprocess.run([program, '--render', path], capture_output=True, text=True)
  if run.returncode != 0:
    print(f'{program} --render failed: {run.stderr.strip()}')
    return 2
  mine = parse(run.stdout)
  for number, (label, theirs) in enumerate(zip(labels, expected)):
    problem = differ(label, theirs, mine.get(number))
    if problem:
      print(problem)
      return 1
  print(census.say())
  print(f'{len(expected)} observations equal ({len(seeds)} seeds, {len(expected) // 2} states '
        f'of their episodes and as many changed at random), {len(expected) * SIZE} values, '
        f'JAX {jax_seconds:.1f} s (jax {jax.__version__})')
  return 0


def main(argv):
  if len(argv) >= 4 and argv[:2] == ['--record', '--starts']:
    return record(argv[2], {int(s) for s in argv[3].split(',')}, argv[4:])
  if len(argv) >= 2 and argv[0] == '--record':
    return record(None, set(), argv[1:])
  if len(argv) in (3, 4) and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]), int(argv[3]) if len(argv) == 4 else 20)
  sys.stderr.write(__doc__)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
