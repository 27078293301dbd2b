"""The project's own reference episodes (tests/data/reference).

Each episode of MANIFEST is played in the reference Crafter by
recorder.py and kept as a trace in the format of the reference traces;
tests/reference-episodes.t replays them with the engine on every `make
check`.  The set is chosen to reach what a random episode rarely does:
every achievement, nights, sleep, death by each cause, the time limit,
areas, views and sizes other than Crafter's defaults, iron tools and
diamonds.  `--check` reads the traces and says whether they do (it needs
only Python's standard library).

    episodes.py --record        record MANIFEST into tests/data/reference
                                (needs the reference: make reference-env)
    episodes.py --list          the names in MANIFEST and why each is kept
    episodes.py --check [DIR]   what the traces cover; exit 1 if short
    episodes.py --survey ...    play policies in the engine and print what
                                each episode reaches, to choose new ones

Actions come from the policies of fuzz.py: `random`, `lazy` (mostly noop
and sleep) and `scripted` (the engine's scripted agent, tests/agent-actions;
its actions are stored in the trace, so the trace does not depend on it
once recorded).
"""

import argparse
import gzip
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
OUT = os.path.join(TOP, 'tests', 'data', 'reference')
sys.path.insert(0, HERE)

from names import ACHIEVEMENTS, ARROW, INVENTORY, MATERIALS, ZOMBIE  # noqa: E402

LAVA = MATERIALS.index('lava')

DEATHS = ['zombie', 'arrow', 'lava', 'hunger, thirst or fatigue']

# The episodes, chosen with --survey; each named as the reference traces
# are (POLICY-sSEED-eEPISODE-aAREA-vVIEW-oSIZE), the policy's own seed
# being the Env seed.
MANIFEST = []


def keep(why, policy, seed, episode=1, area=(64, 64), view=(9, 9), size=(64, 64),
         length=10000):
  name = '%s-s%d-e%d-a%dx%d-v%dx%d-o%dx%d' % (policy, seed, episode, *area, *view, *size)
  if length != 10000:
    name += '-l%d' % length
  MANIFEST.append({'name': name, 'why': why, 'policy': policy, 'seed': seed,
                   'episode': episode, 'area': list(area), 'view': list(view),
                   'size': list(size), 'length': length, 'policy_seed': seed})


keep('eat_plant, iron pickaxe and sword; 21 achievements', 'scripted', 74)
keep('diamonds (collect_diamond)', 'scripted', 75)
keep('death by an arrow', 'scripted', 38)
keep('death by hunger, thirst or fatigue', 'scripted', 95)
keep('death by lava, in a 20x20 world', 'random', 249, area=(20, 20))
keep('the time limit (400 steps), a tall view, a 90x70 picture', 'scripted', 3,
     view=(7, 11), size=(90, 70), length=400)
keep('a 9x7 world, mostly outside it: a 5x5 view in 30x30 pixels', 'random', 4,
     area=(9, 7), view=(5, 5), size=(30, 30))
keep('a wide world and view, 88x56 pixels', 'random', 11, area=(40, 24), view=(11, 7),
     size=(88, 56))
keep('a long climb in a 48x30 world, a 13x9 view in 96x72 pixels', 'scripted', 12,
     area=(48, 30), view=(13, 9), size=(96, 72))
keep('the third episode of an Env: mostly noop and sleep, death by a zombie',
     'lazy', 6, episode=3)
keep('the second episode, a tall world, 81x63 pixels (not a multiple of the view)',
     'scripted', 5, episode=2, area=(24, 40), view=(9, 7), size=(81, 63))
keep('a long climb to diamonds: 21 achievements in 2983 steps', 'scripted', 8)
keep('a 7x13 world in a 3x7 view of 12x28 pixels, second episode', 'random', 20,
     episode=2, area=(7, 13), view=(3, 7), size=(12, 28))
keep('Crafter\'s defaults, random actions', 'random', 21)
keep('Crafter\'s defaults, random actions, a later episode', 'random', 22, episode=17)


# ---- what a trace shows ----

def death_cause(previous, last, ground):
  """Why the player died in the step `last` (a trace record) standing on
  the material `ground`, from Crafter's rules: lava kills whoever stands
  in it; a zombie that attacks starts its cooldown of 5; an arrow that
  hits is removed; else the vitals took the last health point."""
  if ground == LAVA:
    return 'lava'
  player = last['objects'][0]
  x, y = player[1], player[2]

  def adjacent(obj):
    return abs(obj[1] - x) + abs(obj[2] - y) == 1

  if any(obj[0] == ZOMBIE and adjacent(obj) and obj[4] == 5 for obj in last['objects']):
    return 'zombie'
  before = {tuple(obj[:3]) for obj in previous['objects'] if obj[0] == ARROW}
  after = {tuple(obj[:3]) for obj in last['objects'] if obj[0] == ARROW}
  # An arrow that hits stays where it was and disappears.
  if any(abs(a[1] - x) + abs(a[2] - y) == 1 for a in before - after):
    return 'arrow'
  return 'hunger, thirst or fatigue'


def survey(path_or_lines):
  """What one trace reaches."""
  stream = gzip.open(path_or_lines, 'rt') if isinstance(path_or_lines, str) else path_or_lines
  facts = {'achievements': set(), 'steps': 0, 'night': False, 'sleep': False,
           'death': None, 'time_limit': False, 'inventory_max': [0] * 16}
  previous = materials = area = None
  for line in stream:
    record = json.loads(line)
    if record['kind'] == 'reset':
      area = record['area']
      materials = [ord(c) - ord('a') for c in record['materials']]
      facts.update(area=area, view=record['view'], size=record['size'],
                   length=record['length'])
      previous = {'objects': record['objects']}
      continue
    for x, y, material in record['changes']:
      materials[x * area[1] + y] = material
    facts['steps'] = record['t']
    facts['achievements'] |= {a for a, n in zip(ACHIEVEMENTS, record['achievements']) if n}
    facts['night'] |= record['daylight'] < 0.3
    facts['sleep'] |= record['sleeping']
    facts['inventory_max'] = [max(a, b) for a, b in
                              zip(facts['inventory_max'], record['inventory'])]
    player = record['objects'][0]
    if record['done']:
      if record['discount'] == 0.0:
        facts['death'] = death_cause(previous, record,
                                     materials[player[1] * area[1] + player[2]])
      else:
        facts['time_limit'] = True
    previous = record
  return facts


def describe(facts):
  parts = [f"{facts['steps']} steps", f"{len(facts['achievements'])} achievements"]
  if facts['night']:
    parts.append('night')
  if facts['sleep']:
    parts.append('sleep')
  if facts['death']:
    parts.append(f"death by {facts['death']}")
  if facts['time_limit']:
    parts.append('time limit')
  for item in ('iron_pickaxe', 'iron_sword', 'diamond'):
    if facts['inventory_max'][INVENTORY.index(item)]:
      parts.append(item)
  return ', '.join(parts)


def check(folder):
  """What the traces of folder cover, against what the set promises."""
  traces = sorted(f for f in os.listdir(folder) if f.endswith('.jsonl.gz'))
  covered = {'achievements': set(), 'deaths': set(), 'night': 0, 'sleep': 0,
             'time_limit': 0, 'areas': set(), 'views': set(), 'sizes': set(),
             'iron_pickaxe': 0, 'iron_sword': 0, 'diamond': 0, 'steps': 0}
  for name in traces:
    facts = survey(os.path.join(folder, name))
    covered['achievements'] |= facts['achievements']
    if facts['death']:
      covered['deaths'].add(facts['death'])
    for key in ('night', 'sleep', 'time_limit'):
      covered[key] += bool(facts[key])
    for item in ('iron_pickaxe', 'iron_sword', 'diamond'):
      covered[item] += bool(facts['inventory_max'][INVENTORY.index(item)])
    covered['areas'].add(tuple(facts['area']))
    covered['views'].add(tuple(facts['view']))
    covered['sizes'].add(tuple(facts['size']))
    covered['steps'] += facts['steps']
  missing = [a for a in ACHIEVEMENTS if a not in covered['achievements']]
  missing += [f'death by {d}' for d in DEATHS if d not in covered['deaths']]
  missing += [key.replace('_', ' ') for key in
              ('night', 'sleep', 'time_limit', 'iron_pickaxe', 'iron_sword', 'diamond')
              if not covered[key]]
  for key, default in (('areas', (64, 64)), ('views', (9, 9)), ('sizes', (64, 64))):
    if not covered[key] - {default}:
      missing.append(f'{key} other than {default[0]}x{default[1]}')
  return len(traces), covered, missing


# ---- playing ----

def actions_of(entry, config_path=None):
  import fuzz
  case = dict(entry, config=None)
  return fuzz.policy_actions(case, config_path)


def engine_trace(entry, actions):
  """The engine's trace of an entry (crafter-step --info full)."""
  command = [os.path.join(TOP, 'bin', 'crafter-step'), '--seed', str(entry['seed']),
             '--first-episode', str(entry['episode']),
             '--area', '%d,%d' % tuple(entry['area']), '--view', '%d,%d' % tuple(entry['view']),
             '--size', '%d,%d' % tuple(entry['size']), '--length', str(entry['length']),
             '--info', 'full', '--episodes', '1']
  result = subprocess.run(command, input=''.join(f'{a}\n' for a in actions),
                          capture_output=True, text=True, check=True)
  return result.stdout.splitlines()


def record(entry, folder):
  import recorder
  actions = actions_of(entry)
  env = recorder.make_env(entry['seed'], entry['area'], entry['view'], entry['size'],
                          entry['length'])
  path = os.path.join(folder, entry['name'] + '.jsonl.gz')
  partial = path + '.partial'
  try:
    # No time stamp in the gzip header: recorded again, a file is the same.
    with open(partial, 'wb') as raw, \
        gzip.GzipFile(filename='', fileobj=raw, mode='wb', compresslevel=9, mtime=0) as packed, \
        io.TextIOWrapper(packed, encoding='utf-8') as out:
      recorder.record(out, env, entry['episode'], actions, entry['policy'])
    os.replace(partial, path)
  finally:
    if os.path.exists(partial):
      os.remove(partial)
  return path


def main(argv=None):
  parser = argparse.ArgumentParser(description='The project\'s own reference episodes.')
  mode = parser.add_mutually_exclusive_group(required=True)
  mode.add_argument('--record', action='store_true', help='record MANIFEST')
  mode.add_argument('--list', action='store_true',
                    help='the file names of MANIFEST, with what each is kept for')
  mode.add_argument('--check', nargs='?', const=OUT, metavar='DIR',
                    help='what the traces of DIR cover')
  mode.add_argument('--survey', nargs='+', metavar='POLICY:SEED[:AREA:VIEW:SIZE:LENGTH]',
                    help='what episodes of the engine reach')
  parser.add_argument('--out', default=OUT)
  args = parser.parse_args(argv)
  if args.check:
    count, covered, missing = check(args.check)
    print(f'{count} episodes, {covered["steps"]} steps: '
          f'{len(covered["achievements"])} of 22 achievements; deaths by '
          f'{", ".join(sorted(covered["deaths"])) or "nothing"}; '
          f'{covered["night"]} with nights, {covered["sleep"]} with sleep, '
          f'{covered["time_limit"]} at the time limit; {covered["iron_pickaxe"]} with an '
          f'iron pickaxe, {covered["iron_sword"]} an iron sword, {covered["diamond"]} '
          f'diamonds; {len(covered["areas"])} areas, {len(covered["views"])} views, '
          f'{len(covered["sizes"])} sizes')
    if missing:
      print('missing: ' + '; '.join(missing))
      return 1
    return 0
  if args.list:
    for entry in MANIFEST:
      print(f"{entry['name']}.jsonl.gz\t{entry['why']}")
    return 0
  if args.survey:
    for spec in args.survey:
      parts = spec.split(':')
      entry = {'name': spec, 'policy': parts[0], 'seed': int(parts[1]), 'episode': 1,
               'area': [64, 64], 'view': [9, 9], 'size': [64, 64], 'length': 10000,
               'policy_seed': int(parts[1])}
      for key, text in zip(('area', 'view', 'size'), parts[2:5]):
        entry[key] = [int(v) for v in text.split(',')]
      if len(parts) > 5:
        entry['length'] = int(parts[5])
      lines = engine_trace(entry, actions_of(entry))
      print(f'{spec}: {describe(survey(iter(lines)))}', flush=True)
    return 0
  os.makedirs(args.out, exist_ok=True)
  for entry in MANIFEST:
    path = record(entry, args.out)
    print(f'{os.path.relpath(path, TOP)}: {describe(survey(path))}', flush=True)
  return 0


if __name__ == '__main__':
  sys.exit(main())
