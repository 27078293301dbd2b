"""Differential fuzzing of the engine against the reference Crafter.

Draws episodes (seeds, episode counters, areas including small and
non-square ones, views, observation sizes, time limits, policies and
configurations), plays each in the reference (crafter 1.8.3, with the
deterministic despawn order of recorder.py) and replays its actions with
the engine (tests/golden-compare), comparing every field of every step,
the observation's pixels included, drawn with the reference's own
textures.  Policies: `random` (uniform), `lazy` (mostly noop and sleep:
long lives, nights, hunger and thirst) and `scripted` (the engine's
scripted agent, which climbs the technology tree; its actions are played
in the reference too).

On the first difference it stops, shrinks the case (fewer steps, noop for
actions that do not matter, configuration keys that do not matter) and
writes to the output folder:

  reproducer.actions   the actions with the parameters in '#' comments:
                       `crafter-step $(sed -n 's/^# crafter-step //p'
                       reproducer.actions) < reproducer.actions` replays it
  reproducer.yaml      the configuration, when there is one
  reproducer.sh        runs that crafter-step command and shows the step
                       that differs next to the reference's record
  reference.jsonl.gz   the reference's trace of the shrunk case

    fuzz.py --budget 200         200 episodes
    fuzz.py --budget 180s        as many as fit in 180 seconds
    fuzz.py --seed 12 ...        the draws of a given run again

Run it through `make check-reference REFERENCE_BUDGET=...`, which builds
the programs and the reference's virtual environment first.
"""

import argparse
import gzip
import json
import multiprocessing
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)

import names  # noqa: E402
import patches  # noqa: E402

MATERIALS = names.MATERIALS[1:]
ITEMS = names.INVENTORY
# What `collect` may give: each counts collect_<item>, which must exist.
COLLECTABLE = ['coal', 'diamond', 'drink', 'iron', 'sapling', 'stone', 'wood']
RESOURCES = ['sapling', 'wood', 'stone', 'coal', 'iron', 'diamond',
             'wood_pickaxe', 'stone_pickaxe']


def parse_budget(text):
  try:
    if text.endswith('s'):
      return 'seconds', float(text[:-1])
    if text.endswith('m'):
      return 'seconds', 60 * float(text[:-1])
    return 'episodes', int(text)
  except ValueError:
    raise argparse.ArgumentTypeError(
        f'a budget is a number of episodes (200) or seconds (180s): {text!r}')


# ---- configurations ----

def number(rng, low, high, digits=2):
  return round(rng.uniform(low, high), digits)


def probability(rng):
  return rng.choice([0, 1, number(rng, 0, 1), number(rng, 0, 0.3, 3)])


def amounts(rng, items, most):
  chosen = rng.sample(items, rng.randint(0, most))
  return {item: rng.randint(1, 3) for item in chosen}


def materials(rng, pool, least=1):
  return rng.sample(pool, rng.randint(least, len(pool)))


def mutations():
  """key -> function(rng) giving a config fragment."""
  table = {}

  def worldgen(feature, key, draw):
    table[f'worldgen.{feature}.{key}'] = lambda rng: {
        'worldgen': {feature: {key: draw(rng)}}}

  worldgen('start', 'radius', lambda r: number(r, 0, 10))
  worldgen('start', 'threshold', lambda r: number(r, 0.1, 0.9))
  worldgen('mountain', 'threshold', lambda r: number(r, -0.3, 0.5))
  for feature in ('cave', 'lava'):
    worldgen(feature, 'mountain', lambda r: number(r, 0, 0.6))
  for feature in ('cave', 'coal', 'iron', 'lava', 'sand', 'tree'):
    worldgen(feature, 'noise', lambda r: number(r, -0.5, 0.7))
    worldgen(feature, 'size', lambda r: r.choice([number(r, 1, 20, 1), r.randint(1, 25)]))
  worldgen('tunnels', 'noise', lambda r: number(r, -0.2, 0.8))
  for feature in ('coal', 'iron', 'diamond', 'tree', 'cow', 'zombie', 'skeleton'):
    worldgen(feature, 'probability', probability)
  worldgen('diamond', 'mountain', lambda r: number(r, 0, 0.5))
  worldgen('sand', 'water_min', lambda r: number(r, -0.2, 0.4))
  worldgen('sand', 'water_max', lambda r: number(r, 0.2, 0.8))
  worldgen('water', 'threshold', lambda r: number(r, -0.2, 0.8))
  for feature in ('cow', 'zombie'):
    worldgen(feature, 'distance', lambda r: number(r, 0, 15, 1))

  table['daylight.length'] = lambda r: {'daylight': {'length': r.randint(1, 700)}}
  table['balance.interval'] = lambda r: {'balance': {'interval': r.randint(1, 40)}}
  table['balance.chunk'] = lambda r: {
      'balance': {'chunk': [r.randint(3, 24), r.randint(3, 24)]}}
  def target(r):
    base = number(r, 0, 6)
    return {'base': base, 'daylight': number(r, -base, 4)}

  fields = {
      'material': lambda r: r.choice(['grass', 'sand', 'path', 'water', 'tree']),
      'spawn_distance': lambda r: r.randint(0, 12),
      'despawn_distance': lambda r: r.randint(0, 12),
      'spawn_probability': probability,
      'despawn_probability': probability,
      # With no cell of its material a chunk cannot spawn: the reference
      # fails (randint(0, 0)) when it is asked to.
      'min_space': lambda r: r.randint(1, 80),
      # Targets stay at 0 or more: below, a chunk with none of the
      # creature is asked to despawn one, and the reference fails.
      'min': target,
      'max': target,
  }
  for creature in patches.CREATURES:
    for field, draw in fields.items():
      table[f'balance.{creature}.{field}'] = (
          lambda r, c=creature, f=field, d=draw: {'balance': {c: {f: d(r)}}})

  table['walkable'] = lambda r: {'walkable': materials(
      r, ['grass', 'path', 'sand', 'water', 'lava', 'tree'])}

  def item(r):
    # crafter-config(5): an initial count is at most the max (the
    # defaults: 9 of each vital, 0 of the rest, at most 9 of anything).
    name = r.choice(ITEMS)
    vital = ITEMS.index(name) < 4
    least = 1 if name == 'health' else 0
    most = r.randint(9 if vital else 1, 12)
    rule = r.choice([{'max': most}, {'initial': r.randint(least, 9)},
                     {'max': most, 'initial': r.randint(least, most)}])
    return {'items': {name: rule}}
  table['items'] = item

  def collect(r):
    rule = {'require': amounts(r, RESOURCES, 2),
            'receive': {r.choice(COLLECTABLE): r.randint(1, 3)},
            'leaves': r.choice(MATERIALS),
            'probability': r.choice([1, number(r, 0, 1)])}
    return {'collect': {r.choice(MATERIALS): rule}}
  table['collect'] = collect

  def place(r):
    name = r.choice(['stone', 'table', 'furnace', 'plant'])
    where = ['grass'] if name == 'plant' else materials(r, MATERIALS)
    rule = {'uses': amounts(r, RESOURCES, 2) or {'wood': 1}, 'where': where}
    return {'place': {name: rule}}
  table['place'] = place

  def make(r):
    name = r.choice(['wood_pickaxe', 'stone_pickaxe', 'iron_pickaxe',
                     'wood_sword', 'stone_sword', 'iron_sword'])
    rule = {'uses': amounts(r, RESOURCES, 3),
            'nearby': r.sample(['table', 'furnace', 'water', 'stone', 'tree'],
                               r.randint(0, 2)),
            'gives': r.randint(1, 3)}
    return {'make': {name: rule}}
  table['make'] = make
  table['reward.health'] = lambda r: {'reward': {'health': number(r, 0.01, 2)}}

  # objects.py: ranges that keep episodes playable.
  def nested(path, draw):
    def fragment(r):
      value = draw(r)
      for part in reversed(path.split('.')):
        value = {part: value}
      return value
    table[path] = fragment

  rate = lambda r: number(r, 0, 3)
  for counter, limit in (('hunger', 40), ('thirst', 40)):
    nested(f'player.{counter}.rate', rate)
    nested(f'player.{counter}.sleeping', rate)
    nested(f'player.{counter}.limit', lambda r, l=limit: number(r, 0, l))
    nested(f'player.{counter}.amount', lambda r: r.randint(0, 3))
  nested('player.fatigue.rate', rate)
  nested('player.fatigue.sleeping', rate)
  nested('player.fatigue.tired', lambda r: number(r, 0, 50))
  nested('player.fatigue.rested', lambda r: number(r, -20, 0))
  nested('player.fatigue.amount', lambda r: r.randint(0, 3))
  for key in ('rate', 'sleeping', 'decay', 'decay_sleeping'):
    nested(f'player.recover.{key}', rate)
  nested('player.recover.heal', lambda r: number(r, 0, 40))
  nested('player.recover.hurt', lambda r: number(r, -30, 0))
  nested('player.recover.amount', lambda r: r.randint(0, 3))
  for key in ('none', 'wood_sword', 'stone_sword', 'iron_sword'):
    nested(f'player.damage.{key}', lambda r: r.randint(0, 8))
  nested('cow.health', lambda r: r.randint(1, 8))
  nested('cow.move', probability)
  nested('cow.food', lambda r: r.randint(0, 9))
  nested('zombie.health', lambda r: r.randint(1, 10))
  nested('zombie.chase.distance', lambda r: r.randint(0, 12))
  nested('zombie.chase.probability', probability)
  nested('zombie.chase.long_axis', probability)
  nested('zombie.attack.distance', lambda r: r.randint(0, 3))
  nested('zombie.attack.damage', lambda r: r.randint(0, 9))
  nested('zombie.attack.sleeping', lambda r: r.randint(0, 9))
  nested('zombie.attack.cooldown', lambda r: r.randint(0, 10))
  nested('skeleton.health', lambda r: r.randint(1, 8))
  nested('skeleton.flee.distance', lambda r: r.randint(0, 6))
  nested('skeleton.flee.long_axis', probability)
  nested('skeleton.shoot.distance', lambda r: r.randint(0, 9))
  nested('skeleton.shoot.probability', probability)
  nested('skeleton.shoot.reload', lambda r: r.randint(0, 10))
  nested('skeleton.chase.distance', lambda r: r.randint(0, 12))
  nested('skeleton.chase.probability', probability)
  nested('skeleton.chase.long_axis', probability)
  nested('skeleton.wander', probability)
  nested('arrow.damage', lambda r: r.randint(0, 5))
  nested('plant.health', lambda r: r.randint(1, 5))
  nested('plant.ripe', lambda r: r.randint(0, 400))
  nested('plant.food', lambda r: r.randint(0, 9))
  nested('plant.damage', lambda r: r.randint(0, 3))
  return table


MUTATIONS = mutations()


def merge(into, fragment):
  for key, value in fragment.items():
    if isinstance(value, dict) and isinstance(into.get(key), dict):
      merge(into[key], value)
    else:
      into[key] = value


def draw_config(rng, only=None):
  """Up to four keys changed; `only`, a regular expression, limits the
  keys drawn to those it matches."""
  pool = sorted(k for k in MUTATIONS if only is None or re.search(only, k))
  config, keys = {}, rng.sample(pool, rng.randint(1, min(4, len(pool))))
  for key in keys:
    merge(config, MUTATIONS[key](rng))
  return config, keys


def write_config(path, config):
  # JSON is YAML's flow style: both readers take it.
  with open(path, 'w') as out:
    out.write('# crafter-config(5), drawn by tests/reference/fuzz.py\n')
    out.write(json.dumps({'version': 1, **config}, indent=1) + '\n')


# ---- cases ----

def view_for(rng):
  width = rng.randint(3, 13)
  rows = -(-16 // width)
  return [width, rows + rng.randint(1, 9)]


def draw_case(rng, index, with_configs, only=None):
  kind = rng.random()
  if kind < 0.15:
    area, view, size = [64, 64], [9, 9], [64, 64]
  else:
    if kind < 0.35:
      area = [rng.randint(1, 12), rng.randint(1, 12)]
    elif kind < 0.8:
      area = [rng.randint(8, 40), rng.randint(8, 40)]
    else:
      area = [rng.randint(30, 72), rng.randint(30, 72)]
    view = view_for(rng) if rng.random() < 0.6 else [9, 9]
    # At least 2 pixels a cell: the reference cannot draw the inventory's
    # items at 0.8 of a 1-pixel cell.
    if rng.random() < 0.6 or 64 < 2 * max(view):
      size = [rng.randint(2 * view[0], max(2 * view[0], 100)),
              rng.randint(2 * view[1], max(2 * view[1], 100))]
    else:
      size = [64, 64]
  policy = rng.choice(['random', 'random', 'lazy', 'scripted'])
  if policy == 'random':
    length = rng.choice([10000, 0, rng.randint(1, 400)])
  elif policy == 'lazy':
    length = rng.choice([rng.randint(100, 1500), 2000])
  else:
    length = rng.choice([rng.randint(50, 1500), 3000])
  configured = with_configs and (only is not None or rng.random() < 0.5)
  config, keys = draw_config(rng, only) if configured else (None, [])
  return {
      'index': index, 'seed': rng.randint(-2 ** 31, 2 ** 40),
      'episode': rng.choice([1, 1, 2, rng.randint(1, 1000)]),
      'area': area, 'view': view, 'size': size, 'length': length,
      'policy': policy, 'policy_seed': rng.randint(0, 2 ** 31 - 1),
      'config': config, 'keys': keys}


def policy_actions(case, config_path):
  """The actions of a case's policy, at most as many as its time limit."""
  import numpy as np
  limit = case['length'] or 10000
  rng = np.random.RandomState(case['policy_seed'])
  if case['policy'] == 'random':
    return rng.randint(0, 17, limit).tolist()
  if case['policy'] == 'lazy':
    choice = rng.random_sample(limit)
    other = rng.randint(0, 17, limit)
    return [0 if c < 0.75 else 6 if c < 0.9 else int(o) for c, o in zip(choice, other)]
  command = [os.path.join(TOP, 'tests', 'agent-actions'), 'scripted',
             str(case['seed']), str(case['episode']), ','.join(map(str, case['area'])),
             ','.join(map(str, case['view'])), ','.join(map(str, case['size'])),
             str(case['length'] or 3000), config_path or '-']
  output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
  return [int(a) for a in output.split()][:limit]


# ---- the reference, in worker processes ----

def play_reference(case, actions, path):
  """Records the case in the reference to path; returns its steps."""
  import recorder
  undo = patches.apply(case['config']) if case['config'] else None
  try:
    env = recorder.make_env(case['seed'], case['area'], case['view'], case['size'],
                            case['length'])
    if case['config']:
      patches.apply_to_env(env, case['config'])
    with gzip.open(path, 'wt', compresslevel=1) as out:
      return recorder.record(out, env, case['episode'], actions, case['policy'])
  finally:
    if undo:
      undo()


def worker(job):
  case, actions, path = job
  started = time.time()
  try:
    steps = play_reference(case, actions, path)
    return case['index'], steps, None, time.time() - started
  except Exception as error:  # the reference itself failed
    return case['index'], 0, f'{type(error).__name__}: {error}', time.time() - started


# ---- the engine ----

class Refused(Exception):
  """The engine refused a configuration: all values drawn are valid ones."""


def compare(trace, assets, config_path):
  """None when the engine replays the trace exactly, else (step or 0 for
  the reset, the messages of golden-compare)."""
  command = [os.path.join(TOP, 'tests', 'golden-compare'), '--textures', assets]
  if config_path:
    command += ['--config', config_path]
  result = subprocess.run(command + [trace], capture_output=True, text=True)
  if result.returncode == 0:
    return None
  if result.returncode == 2:
    raise Refused(result.stderr.strip())
  lines = [line for line in result.stdout.splitlines() if line.startswith('#')]
  lines += result.stderr.splitlines()
  step = 0
  for line in lines:
    if ': step ' in line:
      step = int(line.split(': step ')[1].split(':')[0])
      break
  return step, lines


def crafter_step_args(case, config_path):
  args = ['--seed', str(case['seed']), '--first-episode', str(case['episode']),
          '--area', '%d,%d' % tuple(case['area']), '--view', '%d,%d' % tuple(case['view']),
          '--size', '%d,%d' % tuple(case['size']), '--length', str(case['length'])]
  if config_path:
    args += ['--config', config_path]
  return args + ['--info', 'full', '--episodes', '1']


# ---- shrinking and the reproducer ----

def pruned(tree):
  """tree without the mappings that a deletion left empty (an empty
  mapping that was drawn, such as `require: {}`, has a meaning: kept)."""
  out = {}
  for key, value in tree.items():
    if isinstance(value, dict) and value:
      value = pruned(value)
      if not value:
        continue
    out[key] = value
  return out


def shrink(case, actions, assets, workdir, seconds):
  """A smaller case that still differs: (case, actions, difference)."""
  deadline = time.time() + seconds
  trace = os.path.join(workdir, 'shrink.jsonl.gz')
  config_path = os.path.join(workdir, 'shrink.yaml')

  def differs(candidate, moves):
    path = None
    if candidate['config']:
      write_config(config_path, candidate['config'])
      path = config_path
    try:
      play_reference(candidate, moves, trace)
      return compare(trace, assets, path)
    except Exception:
      return None

  difference = differs(case, actions)
  if difference is None:
    return case, actions, None
  actions = actions[:max(difference[0], 1)]
  size = len(actions) // 2
  while size >= 1 and time.time() < deadline:
    for start in range(0, len(actions), size):
      if time.time() >= deadline:
        break
      candidate = actions[:start] + [0] * len(actions[start:start + size]) + \
          actions[start + size:]
      if candidate == actions:
        continue
      found = differs(case, candidate)
      if found:
        actions, difference = candidate[:max(found[0], 1)], found
    size //= 2
  if case['config']:
    for key in list(patches.leaves(case['config'])):
      if time.time() >= deadline:
        break
      smaller = json.loads(json.dumps(case['config']))
      parts, node = key[0].split('.'), smaller
      for part in parts[:-1]:
        node = node[part]
      del node[parts[-1]]
      smaller = pruned(smaller)
      candidate = dict(case, config=smaller or None)
      found = differs(candidate, actions)
      if found:
        case, difference = candidate, found
        actions = actions[:max(found[0], 1)]
  differs(case, actions)  # leaves the trace of the final case
  return case, actions, difference


def write_reproducer(out, case, actions, difference, workdir):
  config_path = None
  if case['config']:
    config_path = os.path.join(out, 'reproducer.yaml')
    write_config(config_path, case['config'])
  trace = os.path.join(out, 'reference.jsonl.gz')
  os.replace(os.path.join(workdir, 'shrink.jsonl.gz'), trace)
  step, messages = difference
  expected = None
  with gzip.open(trace, 'rt') as stream:
    for line in stream:
      record = json.loads(line)
      if record.get('t', 0) == step:
        record.pop('obs', None)
        expected = record
  args = crafter_step_args(case, 'reproducer.yaml' if config_path else None)
  header = [
      f'the engine differs from the reference at '
      f'{"step %d" % step if step else "the reset"}',
      *[m.lstrip('# ') for m in messages[:6]],
      f'policy {case["policy"]}, fuzz case {case["index"]}',
      'crafter-step ' + ' '.join(shlex.quote(a) for a in args)]
  with open(os.path.join(out, 'reproducer.actions'), 'w') as stream:
    stream.writelines(f'# {line}\n' for line in header)
    stream.writelines(f'{a}\n' for a in actions)
  script = os.path.join(out, 'reproducer.sh')
  with open(script, 'w') as stream:
    stream.write(
        '#!/bin/sh\n'
        '# Replays the difference found by tests/reference/fuzz.py with\n'
        '# crafter-step (CRAFTER_STEP, or the one of the source tree) and\n'
        '# prints its record of the step that differs, then the reference\'s.\n'
        'cd "$(dirname "$0")" || exit 1\n'
        f'step=${{CRAFTER_STEP:-{shlex.quote(os.path.join(TOP, "bin", "crafter-step"))}}}\n'
        f'"$step" {" ".join(shlex.quote(a) for a in args)} <reproducer.actions | '
        f'sed -n {1 + max(step, 0)}p\n'
        f'echo "reference:"\n'
        f'cat <<\'EOF\'\n{json.dumps(expected) if expected else "(see reference.jsonl.gz)"}\nEOF\n')
  os.chmod(script, 0o755)
  return header


# ---- the run ----

def summary_line(stats):
  return (f"{stats['episodes']} episodes, {stats['steps']} steps, "
          f"{len(stats['parameter_sets'])} distinct parameter sets "
          f"({stats['with_config']} episodes with configurations, "
          f"{len(stats['keys'])} configuration keys varied)")


def run_cases(context, args, pending, more, submit, assets, stats, started):
  """Plays cases until the budget is spent or one differs: returns None or
  (case, actions, difference)."""
  with context.Pool(args.jobs) as pool:
    while pending or more():
      while more() and len(pending) < 2 * args.jobs:
        submit(pool)
      done = [i for i, p in pending.items() if p[4].ready()]
      if not done:
        time.sleep(0.02)
        continue
      for i in sorted(done):
        case, actions, path, config_path, result = pending.pop(i)
        _, steps, error, _ = result.get()
        if error:
          # Parameters the reference cannot play are not a difference.
          stats['reference_errors'] += 1
          print(f'case {i}: the reference failed ({error}); not compared', file=sys.stderr)
        else:
          try:
            difference = compare(path, assets, config_path)
          except Refused as refusal:
            stats['engine_refused'] += 1
            print(f'case {i}: the engine refused its configuration: {refusal}', file=sys.stderr)
            continue
          if difference:
            pool.terminate()
            return case, actions, difference
          count(stats, case, steps, started)
        for name in (path, config_path):
          if name and os.path.exists(name):
            os.remove(name)
  return None


def count(stats, case, steps, started):
  stats['episodes'] += 1
  stats['steps'] += steps
  stats['with_config'] += bool(case['config'])
  stats['keys'].update(case['keys'])
  stats['policies'][case['policy']] = stats['policies'].get(case['policy'], 0) + 1
  stats['parameter_sets'].add(json.dumps(
      [case['area'], case['view'], case['size'], case['length'], case['config']],
      sort_keys=True))
  if stats['episodes'] % 25 == 0:
    print(f'  {summary_line(stats)}, {time.time() - started:.0f} s', flush=True)


def remove_tree(folder):
  if os.path.isdir(folder):
    for name in os.listdir(folder):
      os.remove(os.path.join(folder, name))
    os.rmdir(folder)


def main(argv=None):
  parser = argparse.ArgumentParser(
      description='Differential fuzzing of the engine against the reference Crafter.')
  parser.add_argument('--budget', type=parse_budget, default=('episodes', 200),
                      help='episodes (200) or seconds (180s)')
  parser.add_argument('--seed', type=int, help='the seed of the draws (default: new)')
  parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
  parser.add_argument('--out', default=os.path.join(TOP, 'build-reference'))
  parser.add_argument('--no-configs', action='store_true',
                      help='only Crafter\'s own rules')
  parser.add_argument('--keys', metavar='REGEX',
                      help='give every episode a configuration, changing only '
                      'keys that match (e.g. ^zombie)')
  parser.add_argument('--shrink-seconds', type=float, default=120)
  parser.add_argument('--assets', help='textures to compare pixels with '
                      '(default: the reference\'s own)')
  args = parser.parse_args(argv)
  if args.keys is not None:
    try:
      if not any(re.search(args.keys, k) for k in MUTATIONS):
        parser.error(f'--keys {args.keys!r} matches no key; the keys: {", ".join(sorted(MUTATIONS))}')
    except re.error as error:
      parser.error(f'--keys {args.keys!r}: {error}')
    if args.no_configs:
      parser.error('--keys and --no-configs contradict each other')
  import crafter
  assets = args.assets or str(crafter.constants.root / 'assets')
  seed = args.seed if args.seed is not None else int(time.time() * 1000) % 2 ** 31
  rng = random.Random(seed)
  kind, amount = args.budget
  os.makedirs(args.out, exist_ok=True)
  for name in ('reproducer.actions', 'reproducer.yaml', 'reproducer.sh', 'reference.jsonl.gz'):
    if os.path.exists(os.path.join(args.out, name)):
      os.remove(os.path.join(args.out, name))
  workdir = tempfile.mkdtemp(prefix='fuzz-', dir=args.out)
  print(f'check-reference: fuzz seed {seed} (--seed {seed} repeats this run), '
        f'budget {amount:g} {kind}, {args.jobs} jobs', flush=True)
  import npcos
  npcos.install()
  print(f'check-reference: {npcos.describe()}', flush=True)
  stats = {'episodes': 0, 'steps': 0, 'parameter_sets': set(), 'with_config': 0,
           'keys': set(), 'reference_errors': 0, 'engine_refused': 0, 'policies': {}}
  started = time.time()
  pending, index, failure = {}, 0, None

  def more():
    if kind == 'episodes':
      return index < amount
    return time.time() - started < amount

  def submit(pool):
    nonlocal index
    case = draw_case(rng, index, not args.no_configs, args.keys)
    index += 1
    config_path = None
    if case['config']:
      config_path = os.path.join(workdir, f'case-{case["index"]}.yaml')
      write_config(config_path, case['config'])
    try:
      actions = policy_actions(case, config_path)
    except subprocess.CalledProcessError as error:
      stats['engine_refused'] += 1
      print(f'case {case["index"]}: the engine refused it: {error.stderr.strip()}',
            file=sys.stderr)
      return
    path = os.path.join(workdir, f'case-{case["index"]}.jsonl.gz')
    pending[case['index']] = (case, actions, path, config_path,
                              pool.apply_async(worker, ((case, actions, path),)))

  context = multiprocessing.get_context('fork')
  try:
    failure = run_cases(context, args, pending, more, submit, assets, stats, started)
  except KeyboardInterrupt:
    remove_tree(workdir)
    print(f'check-reference: interrupted; no difference in {summary_line(stats)}',
          file=sys.stderr)
    return 130
  elapsed = time.time() - started
  if failure:
    case, actions, difference = failure
    print(f'check-reference: case {case["index"]} differs:', *difference[1][:6], sep='\n  ')
    print(f'shrinking it (at most {args.shrink_seconds:g} s)...', flush=True)
    case, actions, shrunk = shrink(case, actions, assets, workdir, args.shrink_seconds)
    if shrunk is None:
      print('check-reference: the difference did not come back when played again',
            file=sys.stderr)
      return 1
    header = write_reproducer(args.out, case, actions, shrunk, workdir)
    print('check-reference: DIFFERENCE after ' + summary_line(stats))
    print('\n'.join('  ' + line for line in header))
    print(f'reproducer: {os.path.join(args.out, "reproducer.actions")} '
          f'({len(actions)} actions); run {os.path.join(args.out, "reproducer.sh")}')
    return 1
  remove_tree(workdir)
  report = {key: (sorted(value) if isinstance(value, set) else value)
            for key, value in stats.items() if key != 'parameter_sets'}
  report.update(seed=seed, seconds=round(elapsed, 1),
                parameter_sets=len(stats['parameter_sets']))
  with open(os.path.join(args.out, 'summary.json'), 'w') as stream:
    json.dump(report, stream, indent=1)
  if stats['engine_refused']:
    print(f'check-reference: the engine refused {stats["engine_refused"]} valid '
          'configurations (see above)')
    return 1
  print(f'check-reference: no difference in {summary_line(stats)}, '
        f'{elapsed:.0f} s; policies {stats["policies"]}'
        + (f'; {stats["reference_errors"]} cases the reference could not play'
           if stats['reference_errors'] else '')
)
  return 0


if __name__ == '__main__':
  sys.exit(main())
