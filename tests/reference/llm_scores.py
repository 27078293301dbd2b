"""crafter-score --llm against BALROG's and SmartPlay's own computations.

Plays episodes of crafter 1.8.3 (tests/reference/requirements.txt) with
a random agent whose every episode starts with a noop, the step both
suites take in their reset(), and records the same actions with
crafter-step --record and, through crafter's Recorder, as stats.jsonl
logs.  Then:

BALROG's wrapper module imports gym and scipy.ndimage, which the
progression does not use: where they are not installed (the reference
venv; the venv of `make balrog-env` has both) stubs stand in for them.

- BALROG's progression: every episode's get_stats() of BALROG's Crafter
  wrapper (balrog/environments/crafter/env.py: update_progress at every
  step, progression = achievements unlocked / 22), written as BALROG's
  episode logs, summarised by BALROG's own collect_and_summarize_results
  (balrog/utils.py), both BALROG's files unchanged at a pinned commit
  (balrog_files.py; skipped, exit status 3, when they can be neither
  found in the cache nor downloaded).  Its directory listing is sorted,
  so that it adds the episodes in the order crafter-score reads them.
  crafter-score's "progression" and "standard_error" from the trajectory
  files and from the stats.jsonl logs must be BALROG's "progression_percentage"
  and "standard_error", to the bit.
- SmartPlay's score, transcribed from microsoft/SmartPlay at 9dec5f2
  (src/smartplay/crafter/crafter_env.py: reset() sets score_tracker to
  the achievements unlocked after its noop step, step() adds those
  unlocked after each step, counting info['achievements'] above 0;
  src/smartplay/eval.py normalize_score: (score - min score) / (human
  score - min score) with crafter/evaluation.yml's 0 and 2680;
  examples/experiment.py: np.average over the episodes): crafter-score's
  "score" and "normalized" must be those numbers, to the bit; from
  stats.jsonl logs, which hold no steps, null.

    llm_scores.py [--quick] [--crafter-step PATH] [--crafter-score PATH]

Exit status 0 when everything matched, 1 on the first difference (it is
described), 2 when the programs could not run, 3 when BALROG's files
could not be had.
"""

import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)

import balrog_files  # noqa: E402

# (seed, episodes) of the runs of one method, read in this order.
RUNS = [(21, 9), (22, 8)]
QUICK = [(21, 3), (22, 2)]
WEIGHTS = [1, 5, 5, 5, 5, 8, 1, 2, 2, 1, 2, 2, 1, 1, 2, 1, 1]
SMARTPLAY_MIN, SMARTPLAY_HUMAN = 0, 2680  # crafter/evaluation.yml, recorded settings


def load(path, name, stubs):
  import importlib.util
  for module_name, module in stubs.items():
    sys.modules[module_name] = module
  spec = importlib.util.spec_from_file_location(name, path)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def balrog_modules(env_path, utils_path):
  scipy = types.ModuleType('scipy')
  ndimage = types.ModuleType('scipy.ndimage')
  scipy.ndimage = ndimage
  balrog = types.ModuleType('balrog')
  environments = types.ModuleType('balrog.environments')

  class Strings:
    def __init__(self, values):
      self._values = values

  environments.Strings = Strings
  balrog.environments = environments
  import importlib.util
  stubs = {'balrog': balrog, 'balrog.environments': environments}
  if not importlib.util.find_spec('gym'):
    stubs['gym'] = balrog_files.gym_stub()
  if not importlib.util.find_spec('scipy'):
    stubs.update({'scipy': scipy, 'scipy.ndimage': ndimage})
  env = load(env_path, 'balrog_crafter_env', stubs)
  utils = load(utils_path, 'balrog_utils', {'openai': types.ModuleType('openai')})

  def sorted_walk(top):
    for root, dirs, files in os.walk(top):
      dirs.sort()
      yield root, dirs, sorted(files)

  utils.os = types.SimpleNamespace(listdir=lambda path: sorted(os.listdir(path)),
                                   walk=sorted_walk, path=os.path)
  return env, utils


def unlocked(info):
  return sum([1. for k, v in info['achievements'].items() if v > 0])


def play(balrog_env, crafter, seed, episodes, logdir, balrog_dir, stats):
  """Plays a run; returns its actions, and the episodes' SmartPlay scores."""
  chooser = random.Random(seed)
  plain = crafter.Env(seed=seed)
  env = crafter.Recorder(plain, logdir, save_stats=True, save_video=False, save_episode=False)

  # The wrapper reads crafter's insides from the env itself (the
  # Recorder's own _unlocked would hide the env's) and steps it through
  # the Recorder.
  class Stepped:
    def __getattr__(self, name):
      return getattr(plain, name)

    def step(self, action):
      return env.step(action)

  wrapper = balrog_env.CrafterLanguageWrapper(Stepped())
  actions, smartplay = [], []
  for episode in range(episodes):
    env.reset()
    # SmartPlay's and BALROG's reset(): a noop step.
    _, _, done, info = wrapper._step_impl(0)
    actions.append(0)
    wrapper.score_tracker = 0
    wrapper.achievements = None
    score_tracker = 0 + unlocked(info)
    steps = 1
    while not done:
      action = chooser.choices(range(17), WEIGHTS)[0]
      _, _, done, info = wrapper._step_impl(action)
      wrapper.update_progress(info)
      actions.append(action)
      steps += 1
      score_tracker = score_tracker + unlocked(info)
    log = dict(wrapper.get_stats(), task='default', num_steps=steps)
    path = os.path.join(balrog_dir, 'crafter', 'default', 'seed%d_run_%02d.json' % (seed, episode))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
      json.dump(log, f)
    smartplay.append(score_tracker)
    stats['unlocked'].add(int(wrapper.get_stats()['score']))
  return actions, smartplay


def run(command, **kwargs):
  result = subprocess.run(command, capture_output=True, text=True, **kwargs)
  if result.returncode != 0:
    print('%s failed (%d): %s' % (command[0], result.returncode, result.stderr.strip()))
    sys.exit(2)
  return result.stdout


def compare(what, ours, theirs):
  if ours != theirs or type(ours) is not type(theirs):
    print('DIFFERENCE: %s: crafter-score %r, the suite %r' % (what, ours, theirs))
    return False
  return True


def many_episodes(args, np):
  chooser = random.Random(5)
  actions = ''.join('%d\n' % chooser.choices(range(17), WEIGHTS)[0] for _ in range(80000))
  with tempfile.TemporaryDirectory() as scratch:
    path = os.path.join(scratch, 'many.traj')
    records = run([args.crafter_step, '--seed', '9', '-n', '300', '--record', path],
                  input=actions)
    ours = json.loads(run([args.crafter_score, '--llm', '-f', 'json', path]))['methods'][0]
  scores, unlocked, score = [], set(), 0
  for line in records.splitlines():
    record = json.loads(line)
    unlocked.update(record['unlocked'])
    score += len(unlocked)
    if record['done']:
      scores.append(float(score))
      unlocked, score = set(), 0
  normalized = [(s - SMARTPLAY_MIN) / (SMARTPLAY_HUMAN - SMARTPLAY_MIN) for s in scores]
  checks = [('episodes of the long run', ours['episodes'], len(scores)),
            ('SmartPlay score of %d episodes' % len(scores), ours['smartplay']['score'],
             float(np.average(scores))),
            ('SmartPlay normalized score of %d episodes' % len(scores),
             ours['smartplay']['normalized'], float(np.average(normalized)))]
  return any(not compare(what, mine, theirs) for what, mine, theirs in checks)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  parser.add_argument('--crafter-step', default=os.path.join(TOP, 'bin', 'crafter-step'))
  parser.add_argument('--crafter-score', default=os.path.join(TOP, 'bin', 'crafter-score'))
  parser.add_argument('--quick', action='store_true', help='fewer episodes')
  args = parser.parse_args()
  runs = QUICK if args.quick else RUNS
  env_path, problem = balrog_files.fetch('env.py')
  utils_path, problem_utils = (None, None) if problem else balrog_files.fetch('utils.py')
  if problem or problem_utils:
    print('BALROG unavailable: %s' % (problem or problem_utils))
    return 3
  import recorder  # noqa: F401  (the deterministic reference, as balrog_text.py)
  import crafter
  import numpy as np
  balrog_env, balrog_utils = balrog_modules(env_path, utils_path)
  stats = {'steps': 0, 'unlocked': set()}
  with tempfile.TemporaryDirectory() as scratch:
    balrog_dir = os.path.join(scratch, 'balrog')
    trajectories, logs, smartplay = [], [], []
    for seed, episodes in runs:
      logdir = os.path.join(scratch, 'seed%d' % seed, 'random')
      actions, scores = play(balrog_env, crafter, seed, episodes, logdir, balrog_dir, stats)
      smartplay += scores
      stats['steps'] += len(actions)
      path = os.path.join(scratch, 'seed%d.traj' % seed)
      run([args.crafter_step, '--seed', str(seed), '-n', str(episodes), '--record', path],
          input=''.join('%d\n' % a for a in actions))
      trajectories.append(path)
      logs.append(os.path.join(logdir, 'stats.jsonl'))
    summary = balrog_utils.collect_and_summarize_results(balrog_dir)['environments']['crafter']
    normalized = [(score - SMARTPLAY_MIN) / (SMARTPLAY_HUMAN - SMARTPLAY_MIN)
                  for score in smartplay]
    expected_score = float(np.average(smartplay))
    expected_normalized = float(np.average(normalized))
    ours = json.loads(run([args.crafter_score, '--llm', '-f', 'json', '-m', 'random'] +
                          trajectories))['methods']
    logs_scored = json.loads(run([args.crafter_score, '--llm', '-f', 'json'] + logs))['methods']
  episodes = sum(count for _, count in runs)
  checks = [
      ('methods from trajectories', len(ours), 1),
      ('episodes from trajectories', ours[0]['episodes'], episodes),
      ('BALROG episodes', summary['episodes_played'], episodes),
      ('progression from trajectories', ours[0]['balrog']['progression'],
       summary['progression_percentage']),
      ('standard error from trajectories', ours[0]['balrog']['standard_error'],
       summary['standard_error']),
      ('SmartPlay score', ours[0]['smartplay']['score'], expected_score),
      ('SmartPlay normalized score', ours[0]['smartplay']['normalized'], expected_normalized),
      ('methods from stats.jsonl', [m['name'] for m in logs_scored], ['random']),
      ('progression from stats.jsonl', logs_scored[0]['balrog']['progression'],
       summary['progression_percentage']),
      ('standard error from stats.jsonl', logs_scored[0]['balrog']['standard_error'],
       summary['standard_error']),
      ('SmartPlay score from stats.jsonl (no steps)', logs_scored[0]['smartplay']['score'], None),
  ]
  for what, mine, theirs in checks:
    if not compare(what, mine, theirs):
      return 1
  # Many episodes, for numpy's pairwise sums of more than 128 values:
  # SmartPlay's numbers from crafter-step's own records of a random run.
  many = many_episodes(args, np)
  if many:
    return 1
  print('llm: %d episodes of %d steps: BALROG progression %.6f%% +- %.6f%% (its own '
        'summary, %d distinct counts of achievements) and SmartPlay score %.3f, normalized '
        '%.6f, identical to the suites\' computations; SmartPlay\'s means of 300 episodes '
        'too' % (
            episodes, stats['steps'], summary['progression_percentage'],
            summary['standard_error'], len(stats['unlocked']), expected_score,
            expected_normalized))
  return 0


if __name__ == '__main__':
  sys.exit(main())
