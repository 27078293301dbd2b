"""Craftax-Classic's episodes, as JAX plays them, for the C step
(lib/game/cc_game.c) to be compared with.

The schedule of a seed S (Craftax's, as craftax_worlds.py says it):
key = PRNGKey(S); key, k = split(key); obs, state = jax.jit(env.reset)(k);
then for every step n = 1, 2, ...: key, k = split(key); obs, state,
reward, done, info = jax.jit(env.step)(k, state, action), env being
make_craftax_env_from_name('Craftax-Classic-Symbolic-v1', auto_reset=True)
with its default parameters, one env per call (not vmapped).  The env
resets itself: the step that ends an episode returns the first state of
the next one.

The actions of seed S are drawn by JAX, so that C draws them without
Python: action n (n = 0, 1, ...; the action of step n + 1) is element n of
randint(split(PRNGKey(S), 3)[2], (STEPS,), 0, 17) (Craftax's Action
numbers, NOOP 0 .. MAKE_IRON_SWORD 16; the key is one the schedule never
takes, and element n of a draw does not depend on its length).

The words of a step: every field of the state (craftax_worlds.fields: in
EnvState's order, each value one 32-bit word), then the symbolic
observation's 1345 float32 values as their bits, then the reward's
float32 bits and done (0 or 1).  Step 0 is the reset: its state and
observation only.

    craftax_episodes.py --record SEEDS STEPS   the golden file, on standard
                                               output: seeds 0..SEEDS-1,
                                               STEPS steps each, and what
                                               the episodes met (actions,
                                               achievements, deaths by
                                               cause, arrows, spawns...)
                                               as '#' lines
    craftax_episodes.py --dump STEPS S [S ...] every step's words, one line
                                               a step: 'step S N COUNT w0
                                               w1 ...' (N = 0 for the
                                               reset), PROGRAM's --dump
                                               format
    craftax_episodes.py --compare PROGRAM N [STEPS [STATES]]
                                               N fresh random seeds of
                                               STEPS steps (default 200),
                                               JAX's words against
                                               PROGRAM's '--dump STEPS S'
                                               output, step by step; then
                                               STATES crafted states (see
                                               --compare-states); the
                                               first difference said
                                               (seed, step, field, index);
                                               exit 1 on one
    craftax_episodes.py --compare-states PROGRAM N
                                               N states drawn at random
                                               from fresh first states
                                               (crafted(): the player at
                                               the edges, blocks, tables
                                               on the edges, creatures,
                                               arrows leaving the map,
                                               ripe plants, vitals and
                                               counters at their limits),
                                               each stepped once with a
                                               random key and action by
                                               JAX and by PROGRAM --step,
                                               word for word (a state that
                                               differs is written, as
                                               --step reads it, where the
                                               environment variable
                                               CRAFTAX_EPISODES_FAILED
                                               says)
    craftax_episodes.py --record-seeds STEPS S [S ...]
                                               as --record, for the seeds
                                               given
    craftax_episodes.py --record-scripted FIRST COUNT STEPS
                                               as --record, seeds FIRST..,
                                               the actions the Scripted
                                               player chooses, written in
                                               the file
    craftax_episodes.py --compare-kept FILE PROGRAM
                                               the same against the seeds
                                               and JAX's words a --compare
                                               kept in FILE (where the
                                               environment variable
                                               CRAFTAX_EPISODES_KEEP named
                                               it), JAX not run
    craftax_episodes.py --speed STEPS          JAX's time a step, jitted
                                               step called one at a time

The golden file (gzip-compressed text), a line a seed:

    S STEPS [actions LETTERS] crc N1 HEX1 N2 HEX2 ... done D1 D2 ...

LETTERS, in a scripted episode's line, are its STEPS actions, 'a' + the
action's number (the seed's random actions otherwise).

HEXk is the CRC-32 (zlib's) of the little-endian bytes of the words of
steps 0 to Nk, run on from step 0 (checkpoints every 100 steps and at the
last); D1, D2, ... are the steps whose done was true, where a new episode
began.  Lines starting with '#' are comments.

JAX compiles the step once a process (10 to 40 s here): --compare-kept
lets a second check reuse a first one's JAX run.
"""

import os
import pickle
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

ENV = craftax_worlds.ENV
STEP = jax.jit(ENV.step)
ACTIONS = 17
CHECKPOINT = 100
OBS_SIZE = 1345
OBS_TAIL = (['inventory.' + name for name in (
    'wood', 'stone', 'coal', 'iron', 'diamond', 'sapling', 'wood_pickaxe', 'stone_pickaxe',
    'iron_pickaxe', 'wood_sword', 'stone_sword', 'iron_sword')]
            + ['health', 'food', 'drink', 'energy', 'direction[LEFT]', 'direction[RIGHT]',
               'direction[UP]', 'direction[DOWN]', 'light_level', 'is_sleeping'])


def actions(seed, steps):
  """Action n of seed S: element n of randint(split(PRNGKey(S), 3)[2],
  (steps,), 0, 17)."""
  key = jax.random.split(jax.random.PRNGKey(seed), 3)[2]
  return [int(a) for a in np.asarray(jax.random.randint(key, (steps,), 0, ACTIONS))]


def step_words(state, obs, reward=None, done=None):
  """The words of a step, and the layout: (name, start, count) a field."""
  parts, layout, start = [], [], 0
  for name, words in craftax_worlds.fields(state):
    parts.append(words.astype(np.uint32))
    layout.append((name, start, len(words)))
    start += len(words)
  obs = np.asarray(obs)
  if obs.dtype != np.float32 or obs.shape != (OBS_SIZE,):
    raise SystemExit(f'unexpected observation: {obs.dtype} {obs.shape}')
  parts.append(obs.view(np.uint32))
  layout.append(('obs', start, OBS_SIZE))
  start += OBS_SIZE
  if reward is not None:
    reward = np.asarray(reward)
    if reward.dtype != np.float32:
      raise SystemExit(f'unexpected reward: {reward.dtype}')
    parts.append(reward.reshape(1).view(np.uint32))
    parts.append(np.asarray(done).reshape(1).astype(np.uint32))
    layout += [('reward', start, 1), ('done', start + 1, 1)]
  return np.concatenate(parts), layout


def play(seed, steps, per_step, agent=None):
  """Seed S's episodes: per_step(n, words, layout, state, reward, done,
  key=k, action=a) for n = 0 (the reset) .. steps.  The actions are the
  seed's random ones, or agent(state)'s."""
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = craftax_worlds.RESET(k)
  words, layout = step_words(state, obs)
  per_step(0, words, layout, state, None, None, key=k, action=None)
  chosen = actions(seed, steps) if agent is None else None
  for n in range(1, steps + 1):
    action = chosen[n - 1] if agent is None else agent(state)
    key, k = jax.random.split(key)
    obs, state, reward, done, _ = STEP(k, state, action)
    words, layout = step_words(state, obs, reward, done)
    per_step(n, words, layout, state, reward, done, key=k, action=action)


class Scripted:
  """A player that goes down Craftax-Classic's technology tree, for
  episodes that reach what random actions rarely do (stone, coal, iron,
  diamonds, the furnace, stone and iron tools, fights won, ripe plants,
  long episodes): it fights a creature next to it, drinks, eats and
  sleeps when low, crafts what it can at a table (and furnace) it stands
  by, places a table, a furnace, plants and stones, and otherwise walks
  (breadth-first, around lava, water and creatures) to the nearest block
  it wants and strikes it; a few of its actions are random (numpy's
  default_rng(seed)).  Its actions are written into the golden file: C
  replays them without it."""

  MOVES = {(0, -1): 1, (0, 1): 2, (-1, 0): 3, (1, 0): 4}
  WALKABLE = (2, 6, 7, 13)  # grass, wood, path, sand
  SOLID = (3, 4, 5, 8, 9, 10, 11, 12, 15, 16)

  def __init__(self, seed):
    self.rng = np.random.default_rng(seed)

  def __call__(self, state):
    s = jax.tree.map(np.asarray, state)
    if s.is_sleeping or self.rng.random() < 0.08:
      return int(self.rng.integers(0, 17))
    inv = s.inventory
    here = tuple(int(v) for v in s.player_position)
    near = lambda block: any(  # noqa: E731  is_near_block
        0 <= here[0] + dr < 64 and 0 <= here[1] + dc < 64 and s.map[here[0] + dr, here[1] + dc] == block
        for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    table, furnace = near(11), near(12)
    facing = (here[0] + DIRS[int(s.player_direction)][0], here[1] + DIRS[int(s.player_direction)][1])
    inside = lambda cell: 0 <= cell[0] < 64 and 0 <= cell[1] < 64  # noqa: E731
    facing_block = int(s.map[facing]) if inside(facing) else -1
    # a creature next to the player: face it and strike
    for kind in (s.zombies, s.skeletons, s.cows):
      for slot in range(len(kind.mask)):
        if kind.mask[slot]:
          step = tuple(int(v) for v in kind.position[slot] - s.player_position)
          if step in self.MOVES and (kind is not s.cows or int(s.player_food) < 7):
            return 5 if step == tuple(facing[i] - here[i] for i in range(2)) else self.MOVES[step]
    # sleep by day, when no zombie is near, or when it must
    zombie_near = any(s.zombies.mask[slot] and np.abs(s.zombies.position[slot] - s.player_position).sum() < 8
                      for slot in range(len(s.zombies.mask)))
    if int(s.player_energy) < 2 or (int(s.player_energy) < 8 and float(s.light_level) > 0.8
                                     and not zombie_near):
      return 6
    if table:
      wants = [(inv.wood_pickaxe == 0 and inv.wood >= 1, 11),
               (inv.wood_sword == 0 and inv.wood >= 1, 14),
               (inv.stone_pickaxe == 0 and inv.wood >= 1 and inv.stone >= 1, 12),
               (inv.stone_sword == 0 and inv.wood >= 1 and inv.stone >= 1, 15),
               (furnace and inv.iron_pickaxe == 0 and min(inv.wood, inv.stone, inv.iron, inv.coal) >= 1, 13),
               (furnace and inv.iron_sword == 0 and min(inv.wood, inv.stone, inv.iron, inv.coal) >= 1, 16)]
      for wanted, action in wants:
        if wanted:
          return action
    placeable = facing_block in (2, 7, 13)
    if placeable and not table and inv.wood >= 3:
      return 8
    if placeable and table and not furnace and inv.stone >= 2 and inv.stone_pickaxe:
      return 9
    if placeable and facing_block == 2 and inv.sapling > 0 and self.rng.random() < 0.5:
      return 10
    if facing_block in (2, 3) and inv.stone >= 4 and self.rng.random() < 0.2:
      return 7
    targets = []
    if int(s.player_drink) < 6:
      targets.append(3)
    if int(s.player_food) < 6 or (int(s.player_food) < 9 and np.any(s.map == 16)):
      targets.append(16)  # ripe plants
    if inv.wood < 4 or (inv.wood_pickaxe and inv.wood < 2):
      targets.append(5)
    if inv.wood_pickaxe:
      targets += [8] + ([4] if inv.stone < 5 else [])
    if inv.stone_pickaxe:
      targets.append(9)
    if inv.iron_pickaxe:
      targets.append(10)
    if not targets:
      targets = [5, 16]
    if inv.sapling == 0 and targets[:1] != [3] and self.rng.random() < 0.15:
      targets = [2]  # grass, struck for saplings
    if facing_block in targets:
      return 5
    cows = [tuple(int(v) for v in s.cows.position[slot]) for slot in range(len(s.cows.mask))
            if s.cows.mask[slot]] if int(s.player_food) < 6 else []
    step = self.towards(s, here, targets, cows)
    if step is None:
      return int(self.rng.integers(1, 5)) if self.rng.random() < 0.7 else 5
    return self.MOVES[step]

  def towards(self, s, here, targets, cells=()):
    """The first move of a shortest walk to a cell next to a wanted block
    or one of the cells."""
    wanted = np.isin(s.map, targets)
    for cell in cells:
      wanted[cell] = True
    if not wanted.any():
      return None
    walkable = np.isin(s.map, self.WALKABLE) & ~s.mob_map.astype(bool)
    first = {here: None}
    frontier = [here]
    while frontier:
      following = []
      for cell in frontier:
        for step in self.MOVES:
          nxt = (cell[0] + step[0], cell[1] + step[1])
          if not (0 <= nxt[0] < 64 and 0 <= nxt[1] < 64) or nxt in first:
            continue
          if wanted[nxt]:
            return first[cell] or step
          if walkable[nxt]:
            first[nxt] = first[cell] or step
            following.append(nxt)
      frontier = following
    return None


DIRS = ((0, 0), (0, -1), (0, 1), (-1, 0), (1, 0))


class Coverage:
  """What the recorded episodes met, counted from JAX's states: the state
  before a step and after it, and for a step that ended an episode (whose
  state is the next episode's first) the last state, made again by
  craftax_step with the step's key."""

  NAMES = ('collect_wood', 'place_table', 'eat_cow', 'collect_sapling', 'collect_drink',
           'make_wood_pickaxe', 'make_wood_sword', 'place_plant', 'defeat_zombie',
           'collect_stone', 'place_stone', 'eat_plant', 'defeat_skeleton',
           'make_stone_pickaxe', 'make_stone_sword', 'wake_up', 'place_furnace',
           'collect_coal', 'collect_iron', 'collect_diamond', 'make_iron_pickaxe',
           'make_iron_sword')

  def __init__(self):
    from craftax.craftax_classic.game_logic import craftax_step
    self.last = jax.jit(lambda key, state, action: craftax_step(
        key, state, action, ENV.default_params, ENV.static_env_params)[0])
    self.counts = {}
    self.before = None
    self.longest = 0

  def add(self, what, n=1):
    if n:
      self.counts[what] = self.counts.get(what, 0) + n

  def step(self, n, state, reward, done, key, action):
    before, self.before = self.before, state
    if n == 0:
      return
    b = jax.tree.map(np.asarray, before)
    if bool(done):
      self.add('episodes ended')
      after = jax.tree.map(np.asarray, self.last(jax.random.split(key)[0], before, action))
    else:
      after = jax.tree.map(np.asarray, state)
    self.count(b, after, bool(done), action)

  def count(self, b, a, done, action):
    self.longest = max(self.longest, int(a.timestep))
    row, column = (int(v) for v in a.player_position)
    if done:
      read = lambda i: min(max(i + 64 if i < 0 else i, 0), 63)  # noqa: E731  JAX's read
      if int(a.timestep) >= 10000:
        self.add('episodes ended: 10000 steps')
      elif a.map[read(row), read(column)] == 14:
        self.add('deaths: lava')
        if not (0 <= row < 64 and 0 <= column < 64):
          self.add('deaths: lava read across the edge, the player off the map')
      elif np.any(b.zombies.mask & (b.zombies.attack_cooldown <= 0)
                  & (a.zombies.attack_cooldown == 5)):
        self.add('deaths: zombie')
      elif np.any(b.arrows.mask & np.all(a.arrows.position == a.player_position, axis=1)):
        self.add('deaths: arrow')
      else:
        self.add('deaths: hunger, thirst or fatigue')
    for index in np.nonzero(a.achievements & ~b.achievements)[0]:
      self.add('achievement ' + self.NAMES[index])
    if a.is_sleeping and not b.is_sleeping:
      self.add('fell asleep')
    if b.is_sleeping and not a.is_sleeping:
      self.add('woke up')
    if float(a.light_level) < 0.5 <= float(b.light_level):
      self.add('nightfalls (light below 0.5)')
    self.add('zombie attacks', int(np.sum(b.zombies.mask & (b.zombies.attack_cooldown <= 0)
                                          & (a.zombies.attack_cooldown == 5))))
    self.add('arrows shot', int(np.sum(b.skeletons.mask & (b.skeletons.attack_cooldown <= 0)
                                       & (a.skeletons.attack_cooldown == 4))))
    self.add('arrow hits', int(np.sum(b.arrows.mask & np.all(
        a.arrows.position == a.player_position, axis=1))))
    inside = np.all((a.arrows.position >= 0) & (a.arrows.position < 64), axis=1)
    self.add('live arrows leaving the map', int(np.sum(b.arrows.mask & ~inside)))
    for kind in ('zombies', 'cows', 'skeletons'):
      old, new = getattr(b, kind), getattr(a, kind)
      self.add(kind + ' spawned', int(np.sum(~old.mask & new.mask & (new.health != old.health))))
      if action == 5 and not b.is_sleeping:
        revived = ~old.mask & new.mask & (new.health == old.health)
        self.add(kind + ' slots made live again by DO (health left, no spawn)',
                 int(np.sum(revived)))
      self.add(kind + ' despawned or killed', int(np.sum(old.mask & ~new.mask)))
    if action == 5 and not b.is_sleeping and (int(row) in (0, 63) or int(column) in (0, 63)):
      self.add('DO at the edge of the map')
    if int(b.player_health) > int(a.player_health):
      self.add('steps the player lost health')
    if np.any(a.growing_plants_age >= 600):
      self.add('steps with a ripe plant')

  def report(self, out):
    for what in sorted(self.counts):
      out.write(f'# {what}: {self.counts[what]}\n')
    out.write(f'# longest timestep reached: {self.longest}\n')


def record(seeds, steps, out, log, scripted=False, mode=''):
  coverage = Coverage()
  consecutive = all(b == a + 1 for a, b in zip(seeds, seeds[1:]))
  named = f'{seeds[0]}..{seeds[-1]}' if consecutive else ', '.join(map(str, seeds))
  mode = mode or ('-scripted' if scripted else '')
  what = 'the scripted player\'s actions' if scripted else 'random actions'
  out.write(f'# Craftax-Classic episodes, craftax 1.6.1 on jax {jax.__version__}: '
            f'seeds {named}, {steps} steps each, {what} '
            f'(tests/reference/craftax_episodes.py --record{mode})\n')
  started = time.perf_counter()
  for seed in seeds:
    state = {'crc': 0, 'checkpoints': [], 'done': [], 'actions': []}

    def per_step(n, words, layout, jax_state, reward, done, key, action, state=state):
      state['crc'] = zlib.crc32(words.astype('<u4').tobytes(), state['crc'])
      if n % CHECKPOINT == 0 and n > 0 or n == steps:
        state['checkpoints'].append((n, state['crc']))
      if done is not None and bool(done):
        state['done'].append(n)
      if action is not None:
        state['actions'].append(action)
      coverage.step(n, jax_state, reward, done, key, action)

    play(seed, steps, per_step, Scripted(seed) if scripted else None)
    line = f'{seed} {steps}'
    if scripted:
      line += ' actions ' + ''.join(chr(ord('a') + a) for a in state['actions'])
    line += ' crc ' + ' '.join(f'{n} {crc:08x}' for n, crc in state['checkpoints'])
    line += ' done' + ''.join(f' {n}' for n in state['done'])
    out.write(line + '\n')
    out.flush()
    log.write(f'seed {seed}: {len(state["done"])} resets, '
              f'{time.perf_counter() - started:.0f} s\n')
    log.flush()
  out.write(f'# What these episodes met (counted from JAX\'s states):\n')
  coverage.report(out)
  return 0


def dump(steps, seeds, out):
  for seed in seeds:
    def per_step(n, words, layout, jax_state, reward, done, **_):
      out.write(f'step {seed} {n} {len(words)} ' + ' '.join(map(str, words.tolist())) + '\n')
    play(seed, steps, per_step)
  return 0


def where(layout, index):
  for name, start, count in layout:
    if start <= index < start + count:
      offset = index - start
      if name in ('map', 'mob_map'):
        return f'{name}[{offset // 64}][{offset % 64}]'
      if name == 'obs':
        cells = 7 * 9 * 21
        if offset < cells:
          cell, channel = divmod(offset, 21)
          return f'obs[{offset}] (row {cell // 9}, column {cell % 9}, channel {channel})'
        return f'obs[{offset}] ({OBS_TAIL[offset - cells]})'
      return f'{name}[{offset}]'
  return f'word {index}'


def parse_dump(text):
  out = {}
  for line in text.splitlines():
    parts = line.split(' ', 4)
    if len(parts) >= 4 and parts[0] == 'step':
      words = np.array(parts[4].split() if len(parts) > 4 else [], dtype=np.int64)
      if len(words) != int(parts[3]):
        raise SystemExit(f'a dump line of {len(words)} words says {parts[3]}')
      out[(int(parts[1]), int(parts[2]))] = words
  return out


def jax_words(seed, steps):
  """JAX's words of every step of a seed (a list, step 0 first), the
  layout of a step's words (reset, step) and the number of resets."""
  words, layouts, resets = [], {}, [0]

  def per_step(n, step, layout, jax_state, reward, done, **_):
    words.append(step.astype(np.uint32))
    layouts[n > 0] = layout
    resets[0] += done is not None and bool(done)
  play(seed, steps, per_step)
  return words, layouts, resets[0]


def compare_seed(program, seed, steps, words, layouts):
  """None when PROGRAM's dump of the seed is JAX's words, else what
  differs first."""
  run = subprocess.run([program, '--dump', str(steps), str(seed)], capture_output=True, text=True)
  if run.returncode != 0:
    return f'{program} --dump failed: {run.stderr.strip()}'
  mine = parse_dump(run.stdout)
  for n in range(steps + 1):
    theirs, ours = words[n], mine.get((seed, n))
    if ours is None:
      return f'seed {seed} step {n}: no words from {program}'
    if len(ours) != len(theirs):
      return f'seed {seed} step {n}: {len(theirs)} words in JAX, {len(ours)} in C'
    differ = np.nonzero(ours != theirs.astype(np.int64))[0]
    if len(differ):
      index = int(differ[0])
      reset = ', after a reset' if n > 0 and int(theirs[-1]) == 1 else ''
      return (f'seed {seed} step {n}{reset}: first difference at {where(layouts[n > 0], index)}: '
              f'JAX {int(theirs[index])}, C {int(ours[index])} ({len(differ)} words differ)')
  return None


def compare_runs(program, runs, steps):
  """runs: (seed, words, layouts, resets) a seed; the first difference
  said, or the tally."""
  values = resets = seeds = 0
  for seed, words, layouts, seed_resets in runs:
    difference = compare_seed(program, seed, steps, words, layouts)
    if difference:
      print(difference)
      return 1
    values += sum(len(w) for w in words)
    resets += seed_resets
    seeds += 1
  print(f'{seeds} seeds x {steps} steps equal, {values} values, {resets} resets '
        f'(jax {jax.__version__})')
  return 0


def compare(program, count, steps, keep=None):
  seeds = [random.randrange(-2 ** 31, 2 ** 31) for _ in range(count)]
  kept = []

  def runs():
    for seed in seeds:
      run = (seed,) + jax_words(seed, steps)
      if keep:
        kept.append(run)
      yield run
  status = compare_runs(program, runs(), steps)
  if keep:
    for seed in seeds[len(kept):]:  # the seeds after a difference, for the next check
      kept.append((seed,) + jax_words(seed, steps))
    with open(keep, 'wb') as out:
      pickle.dump((steps, kept), out)
  return status


def compare_kept(kept, program):
  with open(kept, 'rb') as file:
    steps, runs = pickle.load(file)
  return compare_runs(program, runs, steps)


# ---- crafted states: what random play seldom meets ----

GROUND = (2, 7, 13)  # grass, path, sand: where the player may stand
BLOCKS = (2, 2, 2, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
HALVES = (0.0, 0.5, 9.5, 10.0, 14.5, 15.0, 19.5, 20.0, 24.5, 25.0, 25.5, 29.5, 30.0, -9.5,
          -10.0, -10.5, -14.5, -15.0, -15.5)


def crafted(state, rng):
  """The state with the player, the blocks around it and at the map's
  edges, the inventory, vitals, creatures, arrows, plants, light and time
  drawn at random, leaning to the edges of the map and to the thresholds
  of the rules: a table or furnace on an edge that an arrow leaving the
  map by the opposite edge reads, DO and placing towards the edge, mobs
  next to the player, ripe plants, counters at their limits."""
  s = jax.tree.map(lambda v: np.array(v, copy=True), state)
  near = lambda size: int(rng.choice([0, 1, size - 2, size - 1]))  # noqa: E731
  place = lambda: np.array([near(64) if rng.random() < 0.5 else int(rng.integers(0, 64))  # noqa: E731
                            for _ in range(2)], dtype=np.int32)
  player = place()
  world = s.map
  for dr in range(-2, 3):
    for dc in range(-2, 3):
      r, c = player[0] + dr, player[1] + dc
      if 0 <= r < 64 and 0 <= c < 64 and rng.random() < 0.5:
        world[r, c] = rng.choice(BLOCKS)
  for _ in range(int(rng.integers(0, 12))):
    edge = [near(64), int(rng.integers(0, 64))]
    if rng.random() < 0.5:
      edge.reverse()
    world[edge[0], edge[1]] = rng.choice([11, 12, 11, 12, 2, 14])
  world[player[0], player[1]] = rng.choice(GROUND)
  around = lambda spread: np.clip(player + rng.integers(-spread, spread + 1, size=2), 0, 63)  # noqa: E731

  def mobs(value, top):
    slots = len(value.mask)
    return value.replace(
        position=np.array([around(3) if rng.random() < 0.7 else rng.integers(0, 64, size=2)
                           for _ in range(slots)], dtype=value.position.dtype),
        health=rng.integers(0, top + 1, size=slots).astype(value.health.dtype),
        mask=rng.random(slots) < 0.5,
        attack_cooldown=rng.integers(-2, 6, size=slots).astype(value.attack_cooldown.dtype))
  zombies, cows, skeletons = mobs(s.zombies, 5), mobs(s.cows, 3), mobs(s.skeletons, 3)
  mob_map = np.zeros_like(s.mob_map)
  for kind in (zombies, cows, skeletons):
    for slot in range(len(kind.mask)):
      if kind.mask[slot]:
        mob_map[kind.position[slot][0], kind.position[slot][1]] = True
  arrow_places = np.array([[int(rng.integers(-2, 66)) if rng.random() < 0.3 else
                            (int(rng.choice([-1, 0, 1, 62, 63, 64])) if rng.random() < 0.5
                             else int(around(3)[k])) for k in range(2)] for _ in range(3)],
                          dtype=np.int32)
  directions = np.array([[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (0, 0)][int(rng.integers(0, 6))]
                         for _ in range(3)], dtype=np.int32)
  arrows = s.arrows.replace(position=arrow_places, mask=rng.random(3) < 0.6)
  plants = np.array([around(2) for _ in range(10)], dtype=np.int32)
  plant_mask = rng.random(10) < 0.4
  for slot in range(10):
    if plant_mask[slot] and not np.array_equal(plants[slot], player):
      world[plants[slot][0], plants[slot][1]] = rng.choice([15, 16])
  inventory = s.inventory.replace(**{
      name: np.int32(0 if rng.random() < 0.3 else rng.integers(0, 10))
      for name in ('wood', 'stone', 'coal', 'iron', 'diamond', 'sapling', 'wood_pickaxe',
                   'stone_pickaxe', 'iron_pickaxe', 'wood_sword', 'stone_sword', 'iron_sword')})
  as_float = lambda v: np.float32(v)  # noqa: E731
  state = s.replace(
      map=world, mob_map=mob_map, player_position=player,
      player_direction=np.int32(rng.integers(1, 5)),
      player_health=np.int32(rng.integers(1, 10)), player_food=np.int32(rng.integers(0, 10)),
      player_drink=np.int32(rng.integers(0, 10)), player_energy=np.int32(rng.integers(0, 10)),
      is_sleeping=np.bool_(rng.random() < 0.2),
      player_recover=as_float(rng.choice(HALVES)), player_hunger=as_float(rng.choice(HALVES)),
      player_thirst=as_float(rng.choice(HALVES)), player_fatigue=as_float(rng.choice(HALVES)),
      inventory=inventory, zombies=zombies, cows=cows, skeletons=skeletons, arrows=arrows,
      arrow_directions=directions, growing_plants_positions=plants,
      growing_plants_age=rng.choice([0, 5, 598, 599, 600, 601, 900], size=10).astype(np.int32),
      growing_plants_mask=plant_mask,
      light_level=as_float(rng.choice([rng.random(), 0.0, 1.0])),
      achievements=rng.random(22) < 0.3,
      timestep=np.int32(rng.choice([int(rng.integers(0, 10000)), 9998, 9999, 299, 599])))
  return jax.tree.map(jnp.asarray, state)


def crafted_cases(count, rng):
  """count crafted states with their key and action: (state, key, action)."""
  cases = []
  while len(cases) < count:
    seed = int(rng.integers(-2 ** 31, 2 ** 31))
    _, state = craftax_worlds.RESET(craftax_worlds.reset_key(seed))
    cases.append((crafted(state, rng),
                  jax.random.PRNGKey(int(rng.integers(0, 2 ** 31))),
                  int(rng.choice([5, 5, 5, 7, 8, 9, 10, int(rng.integers(0, 17))]))))
  return cases


def case_text(label, state, key, action):
  lines = [f'case {label}']
  for name, words in craftax_worlds.fields(state):
    lines.append(f'{name} {len(words)} ' + ' '.join(str(int(w)) for w in words))
  k = np.asarray(key).astype(np.uint32)
  lines += [f'key {int(k[0])} {int(k[1])}', f'action {action}']
  return '\n'.join(lines) + '\n'


def compare_states(program, count, rng=None, chunk=500):
  """count crafted states stepped once by JAX and by PROGRAM --step, word
  for word, chunk states at a time; the first difference said."""
  rng = rng or np.random.default_rng()
  resets = 0
  for first in range(0, count, chunk):
    cases = crafted_cases(min(chunk, count - first), rng)
    theirs, layout = [], None
    for state, key, action in cases:
      obs, after, reward, done, _ = STEP(key, state, action)
      words, layout = step_words(after, obs, reward, done)
      theirs.append(words)
      resets += bool(done)
    text = ''.join(case_text(first + n, *case) for n, case in enumerate(cases))
    run = subprocess.run([program, '--step'], input=text, capture_output=True, text=True)
    if run.returncode != 0:
      print(f'{program} --step failed: {run.stderr.strip()}')
      return 2
    mine = parse_dump(run.stdout)
    for n, words in enumerate(theirs):
      ours = mine.get((first + n, 1))
      if ours is None or len(ours) != len(words):
        print(f'crafted state {first + n}: no step or not {len(words)} words from {program}')
        return 1
      differ = np.nonzero(ours != words.astype(np.int64))[0]
      if len(differ):
        index = int(differ[0])
        reset = ', after a reset' if int(words[-1]) == 1 else ''
        if os.environ.get('CRAFTAX_EPISODES_FAILED'):
          with open(os.environ['CRAFTAX_EPISODES_FAILED'], 'w') as out:
            out.write(case_text(first + n, *cases[n]))
        print(f'crafted state {first + n} (action {cases[n][2]}{reset}): first difference at '
              f'{where(layout, index)}: JAX {int(words[index])}, C {int(ours[index])} '
              f'({len(differ)} words differ)')
        return 1
  print(f'{count} crafted states equal after a step, {resets} of them ended an episode '
        f'(jax {jax.__version__})')
  return 0


def speed(steps):
  key = jax.random.PRNGKey(0)
  key, k = jax.random.split(key)
  _, state = craftax_worlds.RESET(k)
  chosen = actions(0, steps)
  jax.block_until_ready(STEP(k, state, 0))
  keys = []
  for _ in range(steps):
    key, k = jax.random.split(key)
    keys.append(k)
  started = time.perf_counter()
  for k, action in zip(keys, chosen):
    _, state, _, _, _ = STEP(k, state, action)
  jax.block_until_ready(state)
  seconds = time.perf_counter() - started
  print(f'JAX {jax.__version__}: {steps} steps in {seconds:.3f} s, {steps / seconds:.0f} steps/s '
        '(one jitted env.step call a step, symbolic observation, compiled before)')
  return 0


def main(argv):
  if len(argv) == 3 and argv[0] == '--record':
    return record(list(range(int(argv[1]))), int(argv[2]), sys.stdout, sys.stderr)
  if len(argv) >= 3 and argv[0] == '--record-seeds':
    return record([int(seed) for seed in argv[2:]], int(argv[1]), sys.stdout, sys.stderr,
                  mode='-seeds')
  if len(argv) == 4 and argv[0] == '--record-scripted':
    first, count = int(argv[1]), int(argv[2])
    return record(list(range(first, first + count)), int(argv[3]), sys.stdout, sys.stderr,
                  scripted=True)
  if len(argv) >= 3 and argv[0] == '--dump':
    return dump(int(argv[1]), [int(s) for s in argv[2:]], sys.stdout)
  if len(argv) in (3, 4, 5) and argv[0] == '--compare':
    status = compare(argv[1], int(argv[2]), int(argv[3]) if len(argv) >= 4 else 200,
                     os.environ.get('CRAFTAX_EPISODES_KEEP'))
    if status == 0 and len(argv) == 5:
      status = compare_states(argv[1], int(argv[4]))
    return status
  if len(argv) == 3 and argv[0] == '--compare-kept':
    return compare_kept(argv[1], argv[2])
  if len(argv) == 3 and argv[0] == '--compare-states':
    return compare_states(argv[1], int(argv[2]))
  if len(argv) == 2 and argv[0] == '--speed':
    return speed(int(argv[1]))
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
