"""crafter-step --obs balrog against BALROG's own text function.

BALROG (balrog-ai/BALROG) describes a step of crafter.Env to a language
model with describe_frame() of balrog/environments/crafter/env.py, from
the info its CrafterLanguageWrapper._step_impl builds.  This script plays
episodes of crafter 1.8.3 (tests/reference/requirements.txt) with that
wrapper's _step_impl and describe_frame, BALROG's file unchanged, and the
same actions with crafter-step --obs balrog, and compares the long-term
and short-term contexts of every reset and step byte for byte.

BALROG's file is not part of the toolkit: it is read from --balrog-file,
else from the cache, else downloaded there at the pinned commit
(balrog_files.py); its SHA-256 must be the pinned one.  The wrapper's
module imports gym and balrog.environments, which the text does not use:
BALROG's Strings stands in for the latter, and where gym is not installed
(the reference venv; the venv of `make balrog-env` has gym 0.23 and
SciPy) a stub for the former (gym.Wrapper keeps the env and passes step
on).  It imports scipy.ndimage too, whose binary_dilation the
setting edge_only_items uses: the reference venv's scipy if it has one,
else scipy run by another Python (SCIPY_PYTHON, else the project's
craftax-venv or clients-venv), answering each mask from a process of its
own; without any scipy, edge_only_items is not compared (said so).

Besides BALROG's default settings, its others (config.yaml's
crafter_kwargs: unique_items false, precise_location true, skip_items,
edge_only_items) are compared over some of the episodes, given to
crafter-step as --balrog.

The reference is made deterministic as the reference traces are
(recorder.py): creatures a chunk despawns are picked in creation order,
not in a Python set's memory order, and numpy's cos is the one the
engine follows (npcos.py).

The reset's text: BALROG's reset() plays a noop and describes the state
after it; here the state right after crafter's reset() is described by
the same describe_frame, from an info made as _step_impl makes it, and
the noop BALROG plays is an ordinary step of the episodes below.

    balrog_text.py                   the default episodes
    balrog_text.py --quick           a few short ones

Exit status 0 when every text matched, 1 on the first difference (it is
described), 2 when the programs could not run, 3 when BALROG's file
could not be had (no cache and no network).
"""

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))

# (seed, area, view, length, episodes, weights): small areas take the
# player to the edges, where BALROG's window is cut or empty.
CONFIGS = [
    (1, (64, 64), (9, 9), 10000, 3, 'explore'),
    (7, (64, 64), (9, 9), 400, 3, 'sleepy'),
    (11, (16, 16), (9, 9), 600, 3, 'explore'),
    (12, (12, 20), (9, 9), 600, 2, 'explore'),
    (13, (64, 64), (7, 9), 500, 2, 'explore'),
    (14, (24, 24), (11, 7), 500, 2, 'explore'),
    (15, (64, 64), (8, 10), 500, 2, 'explore'),
    (16, (20, 20), (5, 5), 500, 2, 'explore'),
    # Maps smaller than the view: a negative start counted from the far
    # end leaves part of the map in the window, off its centre.
    (17, (8, 8), (9, 9), 300, 2, 'explore'),
    (18, (10, 7), (11, 9), 300, 2, 'explore'),
]
QUICK = [(1, (64, 64), (9, 9), 150, 1, 'explore'), (11, (16, 16), (9, 9), 150, 1, 'explore')]

# BALROG's other settings (config.yaml's crafter_kwargs), each over a few
# of the episodes above: (settings, crafter-step --balrog, configs).
SETTINGS = [
    ({'unique_items': False}, 'unique_items=false', [CONFIGS[2], CONFIGS[8]]),
    ({'precise_location': True}, 'precise_location=true', [CONFIGS[3], CONFIGS[9]]),
    ({'skip_items': ['grass', 'sand', 'path']}, 'skip_items=grass+sand+path', [CONFIGS[4]]),
    ({'unique_items': False, 'precise_location': True, 'skip_items': ['grass', 'sand', 'path']},
     'unique_items=false,precise_location=true,skip_items=grass+sand+path', [CONFIGS[2]]),
]
# edge_only_items needs scipy.ndimage (BALROG's binary_dilation).
EDGE_SETTINGS = [
    ({'edge_only_items': ['water', 'lava']}, 'edge_only_items=water+lava',
     [CONFIGS[2], CONFIGS[8]]),
    ({'unique_items': False, 'precise_location': True, 'skip_items': ['grass', 'sand', 'path'],
      'edge_only_items': ['water', 'lava', 'stone']},
     'unique_items=false,precise_location=true,skip_items=grass+sand+path,'
     'edge_only_items=water+lava+stone', [CONFIGS[4]]),
]

# Weights of the 17 actions: moves and do most, some sleep and crafting.
WEIGHTS = {
    'explore': [1, 5, 5, 5, 5, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    'sleepy': [1, 3, 3, 3, 3, 4, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
}


# scipy.ndimage.binary_dilation computed by scipy in another Python (a
# venv with scipy, whose numpy need not be the reference's): one process
# answering a mask per line.
SCIPY_SERVER = '''
import json, sys
import numpy as np
from scipy import ndimage
for line in sys.stdin:
  shape, bits = json.loads(line)
  mask = np.array(bits, dtype=bool).reshape(shape)
  out = ndimage.binary_dilation(mask)
  print(json.dumps([list(out.shape), out.astype(int).ravel().tolist()]), flush=True)
'''
_scipy_process = None


def scipy_dilation(python, mask):
  global _scipy_process
  import numpy as np
  if _scipy_process is None:
    _scipy_process = subprocess.Popen([python, '-c', SCIPY_SERVER], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
  mask = np.asarray(mask, dtype=bool)
  _scipy_process.stdin.write(json.dumps([list(mask.shape), mask.astype(int).ravel().tolist()]) +
                             '\n')
  _scipy_process.stdin.flush()
  answer = _scipy_process.stdout.readline()
  if not answer:
    raise RuntimeError('the scipy process (%s) stopped' % python)
  shape, bits = json.loads(answer)
  return np.array(bits, dtype=bool).reshape(shape)


def scipy_elsewhere():
  """A Python with scipy beside the reference's (SCIPY_PYTHON, else the
  project's other venvs), or None."""
  candidates = [os.environ.get('SCIPY_PYTHON')] + [
      os.path.join(TOP, 'build-reference', venv, 'bin', 'python')
      for venv in ('craftax-venv', 'clients-venv')]
  for python in candidates:
    if python and os.access(python, os.X_OK) and subprocess.run(
        [python, '-c', 'import scipy.ndimage'], capture_output=True).returncode == 0:
      return python
  return None


def load_balrog(path, scipy_python=None):
  """BALROG's module, its imports that the text does not use stood in
  for; scipy's dilation, which edge_only_items uses, from scipy itself:
  the reference's, or that of `scipy_python`."""
  import balrog_files
  stubs = [] if importlib.util.find_spec('gym') else [('gym', balrog_files.gym_stub())]
  if importlib.util.find_spec('scipy') is None:
    scipy = types.ModuleType('scipy')
    ndimage = types.ModuleType('scipy.ndimage')

    def binary_dilation(mask):
      if not scipy_python:
        raise NotImplementedError('scipy stub: edge_only_items is not compared')
      return scipy_dilation(scipy_python, mask)

    ndimage.binary_dilation = binary_dilation
    scipy.ndimage = ndimage
    stubs += [('scipy', scipy), ('scipy.ndimage', ndimage)]
  balrog = types.ModuleType('balrog')
  environments = types.ModuleType('balrog.environments')

  class Strings:
    def __init__(self, values):
      self._values = values
      self._dict = {value: i for i, value in enumerate(values)}

    def map(self, action):
      return self._dict[action]

  environments.Strings = Strings
  balrog.environments = environments
  for name, module in stubs + [('balrog', balrog), ('balrog.environments', environments)]:
    sys.modules[name] = module
  spec = importlib.util.spec_from_file_location('balrog_crafter_env', path)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def reset_info(env):
  """The info _step_impl builds, of the state crafter's reset() left."""
  player = env._player
  return {
      'inventory': player.inventory.copy(),
      'achievements': player.achievements.copy(),
      'semantic': env._sem_view(),
      'player_pos': player.pos,
      'sleeping': player.sleeping,
      'player_facing': player.facing,
      'dead': player.health <= 0,
      'view': env._view,
  }


def texts(balrog, wrapper, info):
  return balrog.describe_frame(info, unique_items=wrapper.unique_items,
                               precise_location=wrapper.precise_location,
                               skip_items=wrapper.skip_items,
                               edge_only_items=wrapper.edge_only_items)


def play_reference(balrog, crafter, config, stats, settings=None):
  """Actions and BALROG's texts of every episode of a configuration."""
  seed, area, view, length, episodes, weights = config
  chooser = random.Random(seed * 7919 + area[0])
  env = crafter.Env(area=area, view=view, length=length, seed=seed)
  wrapper = balrog.CrafterLanguageWrapper(env, **(settings or {}))
  actions, expected = [], []
  for _ in range(episodes):
    env.reset()
    expected.append(('reset', texts(balrog, wrapper, reset_info(env)), False))
    done = False
    while not done:
      action = chooser.choices(range(17), WEIGHTS[weights])[0]
      _, _, done, info = wrapper._step_impl(action)
      actions.append(action)
      described = texts(balrog, wrapper, info)
      expected.append(('step', described, done))
      stats['steps'] += 1
      stats['sleeping'] += info['sleeping']
      stats['dead'] += info['dead']
      stats['empty'] += 'You see nothing' in described[0]
      stats['edge'] += not (view[0] // 2 <= info['player_pos'][0] < area[0] - view[0] // 2 and
                            view[1] // 2 <= info['player_pos'][1] < area[1] - view[1] // 2)
      for word in ('zombie', 'skeleton', 'cow', 'arrow', 'plant', 'table'):
        stats[word] += ('- %s ' % word) in described[0]
      stats['inventory'] += 'Your inventory:' in described[1]
  return actions, expected


def run_ours(program, config, actions, option=None):
  seed, area, view, length, episodes, _ = config
  command = [program, '--seed', str(seed), '--area', '%d,%d' % area, '--view', '%d,%d' % view,
             '--length', str(length), '-n', str(episodes), '--obs', 'balrog']
  if option:
    command += ['--balrog', option]
  result = subprocess.run(command, input=''.join('%d\n' % a for a in actions),
                          capture_output=True, text=True)
  if result.returncode != 0:
    print('crafter-step failed (%d): %s' % (result.returncode, result.stderr.strip()))
    sys.exit(2)
  return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def compare(config, expected, records, option=None):
  if len(records) != len(expected):
    print('DIFFERENCE: %s: %d records from crafter-step, %d reference states' % (
        config, len(records), len(expected)))
    return False
  episode, t = 0, 0
  for (kind, (long_text, short_text), done), record in zip(expected, records):
    if kind == 'reset':
      episode, t = episode + 1, 0
    else:
      t += 1
    where = 'seed %d area %s view %s%s, episode %d, %s' % (
        config[0], config[1], config[2], ' --balrog ' + option if option else '', episode,
        'reset' if kind == 'reset' else 'step %d' % t)
    ours_kind = 'reset' if 'reset' in record else 'step'
    if ours_kind != kind or (kind == 'step' and record.get('done') != done):
      print('DIFFERENCE: %s: crafter-step wrote a %s record (done %s), the reference a %s '
            '(done %s)' % (where, ours_kind, record.get('done'), kind, done))
      return False
    obs = record.get('obs', {})
    for name, theirs in (('long_term_context', long_text), ('short_term_context', short_text)):
      ours = obs.get(name)
      if ours != theirs:
        print('DIFFERENCE: %s: %s\n--- BALROG:\n%s\n--- crafter-step:\n%s' % (
            where, name, theirs, ours))
        return False
  return True


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  parser.add_argument('--crafter-step', default=os.path.join(TOP, 'bin', 'crafter-step'))
  parser.add_argument('--balrog-file', help="BALROG's env.py (else the cache)")
  parser.add_argument('--quick', action='store_true', help='a few short episodes')
  args = parser.parse_args()
  sys.path.insert(0, HERE)
  import balrog_files
  path, problem = balrog_files.fetch('env.py', args.balrog_file)
  if problem:
    print('BALROG unavailable: %s' % problem)
    return 3
  import recorder  # noqa: F401  (the deterministic reference)
  import crafter
  if not os.path.exists(os.path.join(os.path.dirname(crafter.__file__), 'engine.py')):
    print('crafter here is not the reference: %s' % crafter.__file__)
    return 2
  has_scipy = importlib.util.find_spec('scipy') is not None
  scipy_python = None if has_scipy or args.quick else scipy_elsewhere()
  balrog = load_balrog(path, scipy_python)
  has_scipy = has_scipy or scipy_python is not None
  stats = {key: 0 for key in ('steps', 'sleeping', 'dead', 'empty', 'edge', 'zombie',
                              'skeleton', 'cow', 'arrow', 'plant', 'table', 'inventory')}
  resets = 0
  for config in (QUICK if args.quick else CONFIGS):
    actions, expected = play_reference(balrog, crafter, config, stats)
    records = run_ours(args.crafter_step, config, actions)
    if not compare(config, expected, records):
      return 1
    resets += config[4]
  # BALROG's other settings.
  settings_list = ([] if args.quick else SETTINGS) + \
      (EDGE_SETTINGS if has_scipy and not args.quick else [])
  settings_steps = 0
  for settings, option, configs in settings_list:
    for config in configs:
      counted = dict(stats)
      actions, expected = play_reference(balrog, crafter, config, counted, settings)
      settings_steps += counted['steps'] - stats['steps']
      records = run_ours(args.crafter_step, config, actions, option)
      if not compare(config, expected, records, option):
        return 1
  if not args.quick and not has_scipy:
    print('edge_only_items NOT compared: scipy is neither installed beside the reference nor '
          'found elsewhere (SCIPY_PYTHON)')
  print('balrog: other settings (%s): %d steps identical too' % (
      '; '.join(option for _, option, _ in settings_list) or 'none', settings_steps))
  print('balrog: %d steps and %d resets, long and short contexts identical to BALROG %s '
        '(sleeping %d, dead %d, window empty %d, near an edge %d; seen: zombie %d, skeleton %d, '
        'cow %d, arrow %d, plant %d, table %d; inventory %d)' % (
            stats['steps'], resets, balrog_files.COMMIT[:12], stats['sleeping'], stats['dead'],
            stats['empty'], stats['edge'], stats['zombie'], stats['skeleton'], stats['cow'],
            stats['arrow'], stats['plant'], stats['table'], stats['inventory']))
  return 0


if __name__ == '__main__':
  sys.exit(main())
