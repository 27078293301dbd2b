"""Records episodes of the reference Crafter as reference traces.

Runs crafter 1.8.3 (tests/reference/requirements.txt, `make reference-env`)
and writes one episode per file in the layout of the reference traces (a
reset line, then one line per step: see FORMAT.md of the reference
episodes, or tests/data/reference/README).  The one change to the
reference is the deterministic one the traces are recorded with: when a
chunk despawns one of several creatures of a kind, the candidates are
ordered by object index (creation order) instead of by the memory
addresses of a Python set; its random draws are unchanged.

    recorder.py --seed 3 --episode 2 --actions FILE -o out.jsonl.gz
    recorder.py --seed 3 --area 32,20 --random 500 --action-seed 7 -o out.jsonl.gz
    recorder.py --config FILE ...    the game changed as in crafter-config(5)

An actions file holds one action (0..16) per line; blank lines and lines
starting with '#' are ignored (the reproducers of fuzz.py are such files).
"""

import argparse
import base64
import gzip
import json
import os
import sys
import zlib

import numpy as np

import crafter
from crafter import objects

import npcos
import patches
from names import ACHIEVEMENTS, INVENTORY

KINDS = [
    (objects.Player, 0), (objects.Cow, 1), (objects.Zombie, 2),
    (objects.Skeleton, 3), (objects.Arrow, 4), (objects.Plant, 5)]
FACING = {(-1, 0): 0, (1, 0): 1, (0, -1): 2, (0, 1): 3}


# The creation-order patch is the Python package's documented helper.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'python'))
from crafter_toolkit.reference import creation_order  # noqa: E402

creation_order(crafter)
npcos.install()


def object_row(obj):
  kind = next(k for cls, k in KINDS if type(obj) is cls)
  if kind in (0, 4):
    extra = FACING[(int(obj.facing[0]), int(obj.facing[1]))]
  elif kind == 2:
    extra = obj.cooldown
  elif kind == 3:
    extra = obj.reload
  elif kind == 5:
    extra = obj.grown
  else:
    extra = 0
  return [kind, int(obj.pos[0]), int(obj.pos[1]), int(obj.health), int(extra)]


def image(obs):
  data = np.ascontiguousarray(obs, dtype=np.uint8).tobytes()
  return zlib.crc32(data), base64.b64encode(data).decode('ascii')


def make_env(seed, area=(64, 64), view=(9, 9), size=(64, 64), length=10000):
  return crafter.Env(
      area=tuple(area), view=tuple(view), size=tuple(size), length=length,
      seed=seed)


def record(out, env, episode, actions, policy='actions', obs_every=100):
  """Plays `actions` from the start of episode `episode` of env and writes
  the trace to the text stream out.  Stops when the episode ends.  Returns
  the number of steps."""
  env._episode = episode - 1
  obs = env.reset()
  world = env._world
  player = env._player
  crc, data = image(obs)
  reset = {
      'kind': 'reset', 'seed': env._seed, 'episode': env._episode,
      'area': [int(a) for a in env._area], 'view': [int(v) for v in env._view],
      'size': [int(s) for s in env._size], 'length': env._length,
      'policy': policy,
      'world_seed': hash((env._seed, env._episode)) % (2 ** 31 - 1),
      'materials': ''.join(
          chr(ord('a') + int(m)) for m in world._mat_map.flatten()),
      'objects': [object_row(obj) for obj in world.objects],
      'obs': data, 'obs_crc': crc}
  out.write(json.dumps(reset) + '\n')
  materials = world._mat_map.copy()
  steps = 0
  for t, action in enumerate(actions, 1):
    obs, reward, done, info = env.step(int(action))
    steps = t
    now = world._mat_map
    changes = [
        [int(x), int(y), int(now[x, y])]
        for x, y in np.argwhere(now != materials)]
    materials = now.copy()
    crc, data = image(obs)
    line = {
        'kind': 'step', 't': t, 'action': int(action),
        'reward': float(reward), 'done': bool(done),
        'discount': float(info['discount']),
        'pos': [int(p) for p in player.pos],
        'facing': [int(f) for f in player.facing],
        'sleeping': bool(player.sleeping),
        'daylight': float(world.daylight),
        'inventory': [int(player.inventory[k]) for k in INVENTORY],
        'achievements': [int(player.achievements[k]) for k in ACHIEVEMENTS],
        'hunger': float(player._hunger), 'thirst': float(player._thirst),
        'fatigue': float(player._fatigue), 'recover': float(player._recover),
        'changes': changes,
        'objects': [object_row(obj) for obj in world.objects],
        'semantic_crc': zlib.crc32(
            np.ascontiguousarray(info['semantic'], dtype=np.uint8).tobytes()),
        'obs_crc': crc}
    if t <= 3 or done or (obs_every and t % obs_every == 0):
      line['obs'] = data
    out.write(json.dumps(line) + '\n')
    if done:
      break
  return steps


def read_actions(path):
  stream = sys.stdin if path == '-' else open(path)
  actions = []
  for number, text in enumerate(stream, 1):
    text = text.strip()
    if not text or text.startswith('#'):
      continue
    try:
      action = int(text)
    except ValueError:
      action = -1
    if not 0 <= action < 17:
      raise SystemExit(f'{path}:{number}: not an action 0..16: {text!r}')
    actions.append(action)
  return actions


def pair(text):
  parts = text.split(',')
  if len(parts) == 1:
    parts = parts * 2
  try:
    values = [int(p) for p in parts]
  except ValueError:
    values = []
  if len(values) != 2 or min(values) < 1:
    raise argparse.ArgumentTypeError(f'expected W,H: {text!r}')
  return values


def main(argv=None):
  parser = argparse.ArgumentParser(
      description='Record an episode of the reference Crafter as a trace.')
  parser.add_argument('--seed', type=int, default=0)
  parser.add_argument('--episode', type=int, default=1)
  parser.add_argument('--area', type=pair, default=[64, 64])
  parser.add_argument('--view', type=pair, default=[9, 9])
  parser.add_argument('--size', type=pair, default=[64, 64])
  parser.add_argument('--length', type=int, default=10000)
  parser.add_argument('--config', help='a crafter-config(5) file')
  source = parser.add_mutually_exclusive_group(required=True)
  source.add_argument('--actions', help='actions, one per line (- for stdin)')
  source.add_argument('--random', type=int, metavar='N',
                      help='N uniform random actions')
  parser.add_argument('--action-seed', type=int, default=0,
                      help='seed of the random actions')
  parser.add_argument('--policy', help='the policy name to store')
  parser.add_argument('--obs-every', type=int, default=100,
                      help='store the observation every N steps')
  parser.add_argument('-o', '--output', required=True)
  args = parser.parse_args(argv)
  if args.actions:
    actions = read_actions(args.actions)
    policy = args.policy or 'actions'
  else:
    actions = np.random.RandomState(args.action_seed).randint(0, 17, args.random)
    policy = args.policy or 'random'
  undo = patches.apply(patches.load(args.config)) if args.config else None
  try:
    env = make_env(args.seed, args.area, args.view, args.size, args.length)
    if args.config:
      patches.apply_to_env(env, patches.load(args.config))
    # Complete or absent: written aside, then renamed into place.
    partial = args.output + '.partial'
    opener = gzip.open if args.output.endswith('.gz') else open
    try:
      with opener(partial, 'wt') as out:
        steps = record(out, env, args.episode, actions, policy, args.obs_every)
      os.replace(partial, args.output)
    finally:
      if os.path.exists(partial):
        os.remove(partial)
  finally:
    if undo:
      undo()
  print(f'{args.output}: {steps} steps', file=sys.stderr)


if __name__ == '__main__':
  main()
