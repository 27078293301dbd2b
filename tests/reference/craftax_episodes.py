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
                                               STEPS steps each; what the
                                               episodes met, on standard
                                               error
    craftax_episodes.py --dump STEPS S [S ...] every step's words, one line
                                               a step: 'step S N COUNT w0
                                               w1 ...' (N = 0 for the
                                               reset), PROGRAM's --dump
                                               format
    craftax_episodes.py --compare PROGRAM N [STEPS]
                                               N fresh random seeds of
                                               STEPS steps (default 200),
                                               JAX's words against
                                               PROGRAM's '--dump STEPS S
                                               ...' output, step by step;
                                               the first difference said
                                               (seed, step, field, index);
                                               exit 1 on one
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

    S STEPS crc N1 HEX1 N2 HEX2 ... done D1 D2 ...

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


def play(seed, steps, per_step):
  """Seed S's episodes: per_step(n, words, layout, state, reward, done,
  key=k, action=a) for n = 0 (the reset) .. steps."""
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = craftax_worlds.RESET(k)
  words, layout = step_words(state, obs)
  per_step(0, words, layout, state, None, None, key=k, action=None)
  for n, action in enumerate(actions(seed, steps), 1):
    key, k = jax.random.split(key)
    obs, state, reward, done, _ = STEP(k, state, action)
    words, layout = step_words(state, obs, reward, done)
    per_step(n, words, layout, state, reward, done, key=k, action=action)


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


def record(seeds, steps, out, log):
  coverage = Coverage()
  out.write(f'# Craftax-Classic episodes, craftax 1.6.1 on jax {jax.__version__}: '
            f'seeds 0..{seeds - 1}, {steps} steps each '
            '(tests/reference/craftax_episodes.py --record)\n')
  started = time.perf_counter()
  for seed in range(seeds):
    state = {'crc': 0, 'checkpoints': [], 'done': []}

    def per_step(n, words, layout, jax_state, reward, done, key, action, state=state):
      state['crc'] = zlib.crc32(words.astype('<u4').tobytes(), state['crc'])
      if n % CHECKPOINT == 0 and n > 0 or n == steps:
        state['checkpoints'].append((n, state['crc']))
      if done is not None and bool(done):
        state['done'].append(n)
      coverage.step(n, jax_state, reward, done, key, action)

    play(seed, steps, per_step)
    line = f'{seed} {steps} crc ' + ' '.join(f'{n} {crc:08x}' for n, crc in state['checkpoints'])
    line += ' done' + ''.join(f' {n}' for n in state['done'])
    out.write(line + '\n')
    out.flush()
    log.write(f'seed {seed}: {len(state["done"])} resets, '
              f'{time.perf_counter() - started:.0f} s\n')
    log.flush()
  coverage.report(log)
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
      return (f'seed {seed} step {n}: first difference at {where(layouts[n > 0], index)}: '
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
    return record(int(argv[1]), int(argv[2]), sys.stdout, sys.stderr)
  if len(argv) >= 3 and argv[0] == '--dump':
    return dump(int(argv[1]), [int(s) for s in argv[2:]], sys.stdout)
  if len(argv) in (3, 4) and argv[0] == '--compare':
    return compare(argv[1], int(argv[2]), int(argv[3]) if len(argv) == 4 else 200,
                   os.environ.get('CRAFTAX_EPISODES_KEEP'))
  if len(argv) == 3 and argv[0] == '--compare-kept':
    return compare_kept(argv[1], argv[2])
  if len(argv) == 2 and argv[0] == '--speed':
    return speed(int(argv[1]))
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
