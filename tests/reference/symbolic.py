"""The symbolic observation against Craftax-Classic's own renderer.

Plays episodes with crafter-step (--obs symbolic --info full), builds
from every state it prints a state of Craftax-Classic (craftax 1.6.1,
tests/reference/requirements-craftax.txt, `make craftax-env`) and renders
it with `render_craftax_symbolic` from craftax/craftax_classic/renderer.py
on JAX's CPU backend.  The two vectors of 1345 float32 must be equal bit
for bit: the layout, the one-hot blocks and creatures, inventory and
vitals divided by 10 in float16, the facing, daylight and sleep.

How a Crafter state becomes a Craftax one (Craftax indexes [row, column],
that is [y, x]): materials become the block types of the same name
(`table` is CRAFTING_TABLE); a plant, an object in Crafter, becomes the
block PLANT, or RIPE_PLANT once Crafter calls it ripe (grown > 300);
zombies, cows, skeletons and arrows become Craftax's mobs of those kinds;
the facing becomes Craftax's direction (the actions LEFT, RIGHT, UP, DOWN).

    symbolic.py                    the default episodes
    symbolic.py --episodes 3 --steps 300

Exit status 0 when every observation matched, 1 on the first difference
(it is described), 2 when the programs could not run.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault('JAX_PLATFORMS', 'cpu')

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))

import numpy as np  # noqa: E402
sys.path.insert(0, HERE)
from names import ARROW, COW, INVENTORY, MATERIALS, PLANT, SKELETON, ZOMBIE  # noqa: E402
import jax  # noqa: E402
from craftax.craftax_classic import constants, renderer  # noqa: E402

MOBS = {'zombies': ZOMBIE, 'cows': COW, 'skeletons': SKELETON, 'arrows': ARROW}
# Room for every creature of a kind; the unused slots are masked and far
# outside any window, as a dead mob of Craftax never is in view.
MOB_SLOTS = 256
FAR = -10 ** 6

Block = constants.BlockType
BLOCK_OF_MATERIAL = np.array(
    [Block.INVALID.value if name == 'none' else
     Block.CRAFTING_TABLE.value if name == 'table' else Block[name.upper()].value
     for name in MATERIALS], dtype=np.int32)
DIRECTION = {(-1, 0): constants.Action.LEFT.value, (1, 0): constants.Action.RIGHT.value,
             (0, -1): constants.Action.UP.value, (0, 1): constants.Action.DOWN.value}

# Exactly the fields render_craftax_symbolic reads: one it needed and
# did not get would fail with an AttributeError.
State = collections.namedtuple('State', [
    'map', 'player_position', 'player_direction', 'player_health', 'player_food',
    'player_drink', 'player_energy', 'inventory', 'zombies', 'cows', 'skeletons',
    'arrows', 'light_level', 'is_sleeping'])
Mobs = collections.namedtuple('Mobs', ['position', 'mask'])
Inventory = collections.namedtuple('Inventory', [
    'wood', 'stone', 'coal', 'iron', 'diamond', 'sapling', 'wood_pickaxe',
    'stone_pickaxe', 'iron_pickaxe', 'wood_sword', 'stone_sword', 'iron_sword'])

render = jax.jit(renderer.render_craftax_symbolic)

# The toolkit's layout (crafter-step(1)): what index i of the vector is.
CHANNELS = len(Block) + 4


def describe(index):
  window = 7 * 9 * CHANNELS
  if index < window:
    cell, channel = divmod(index, CHANNELS)
    row, column = divmod(cell, 9)
    what = (Block(channel).name if channel < len(Block)
            else ['zombie', 'cow', 'skeleton', 'arrow'][channel - len(Block)])
    return f'row {row}, column {column}, {what}'
  names = (list(Inventory._fields) + ['health', 'food', 'drink', 'energy'] +
           ['facing left', 'facing right', 'facing up', 'facing down',
            'daylight', 'sleeping'])
  return names[index - window]


def craftax_state(materials, record, only_in_view):
  """Craftax's state of a step.  only_in_view: give the renderer only the
  creatures inside its 7x9 window.  With the others too, Craftax's
  renderer may drop a creature in view: it writes 0 at the window
  position of every creature out of view, and JAX's scatter wraps a
  negative index (a cow 5 rows above the window's top edge clears the
  cell 2 rows below it, where another cow may stand)."""
  objects = record['objects']
  player = objects[0]
  grid = BLOCK_OF_MATERIAL[materials]  # [x, y]
  mobs = {name: [] for name in MOBS}
  for kind, x, y, _, extra in objects[1:]:
    if kind == PLANT:
      grid[x, y] = (Block.RIPE_PLANT if extra > 300 else Block.PLANT).value
    if only_in_view and (abs(y - player[2]) > 3 or abs(x - player[1]) > 4):
      continue
    for name, mob in MOBS.items():
      if kind == mob:
        mobs[name].append((y, x))
  if any(len(found) > MOB_SLOTS for found in mobs.values()):
    raise SystemExit(f'symbolic.py: more than {MOB_SLOTS} creatures of a kind')

  def mob_arrays(found):
    position = np.full((MOB_SLOTS, 2), FAR, dtype=np.int32)
    mask = np.zeros(MOB_SLOTS, dtype=bool)
    if found:
      position[:len(found)] = found
      mask[:len(found)] = True
    return Mobs(position, mask)

  inventory = dict(zip(INVENTORY, record['inventory']))
  facing = tuple(record['facing'])
  return State(
      map=grid.T.copy(), player_position=np.array([player[2], player[1]], dtype=np.int32),
      player_direction=np.int32(DIRECTION[facing]),
      player_health=np.int32(inventory['health']), player_food=np.int32(inventory['food']),
      player_drink=np.int32(inventory['drink']), player_energy=np.int32(inventory['energy']),
      inventory=Inventory(**{name: np.int32(inventory[name]) for name in Inventory._fields}),
      light_level=np.float32(record['daylight']),
      is_sleeping=np.bool_(record['sleeping']),
      **{name: mob_arrays(found) for name, found in mobs.items()})


def policy(name, seed, count, args):
  rng = np.random.RandomState(seed)
  if name == 'noop':
    return [0] * count
  if name == 'farm':  # a sapling planted, then left to ripen
    return ([10] + [0] * count)[:count]
  if name == 'random':
    return rng.randint(0, 17, count).tolist()
  if name == 'lazy':  # mostly noop and sleep: nights, sleep, hunger
    choice, other = rng.random_sample(count), rng.randint(0, 17, count)
    return [0 if c < 0.7 else 6 if c < 0.9 else int(o) for c, o in zip(choice, other)]
  command = [os.path.join(TOP, 'tests', 'agent-actions'), 'scripted', str(seed), '1',
             ','.join(map(str, args['area'])), '9,9', '64,64', str(count), '-']
  output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
  return [int(a) for a in output.split()][:count]


def play(step, case, count, workdir):
  actions = policy(case['policy'], case['seed'], count, case)
  command = [step, '--seed', str(case['seed']), '--area', '%d,%d' % tuple(case['area']),
             '--obs', 'symbolic', '--info', 'full', '--episodes', '1']
  if case.get('config'):
    config = os.path.join(workdir, 'config.yaml')
    with open(config, 'w') as stream:  # JSON is YAML's flow style
      stream.write(json.dumps({'version': 1, **case['config']}) + '\n')
    command += ['--config', config]
  result = subprocess.run(command, input=''.join(f'{a}\n' for a in actions),
                          capture_output=True, text=True)
  if result.returncode != 0:
    raise SystemExit(f'symbolic.py: {" ".join(command)}: {result.stderr.strip()}')
  return [json.loads(line) for line in result.stdout.splitlines()]


def compare_episode(records, case, totals):
  area = case['area']
  materials = None
  for record in records:
    if record['kind'] == 'reset':
      codes = np.frombuffer(record['materials'].encode('ascii'), dtype=np.uint8)
      materials = (codes - ord('a')).astype(np.int64).reshape(area[0], area[1])
      continue  # a reset record has no inventory: the steps are compared
    for x, y, material in record['changes']:
      materials[x, y] = material
    ours = np.array(record['obs'], dtype=np.float32)
    theirs = np.asarray(render(craftax_state(materials, record, True)), dtype=np.float32)
    if ours.shape != theirs.shape:
      print(f'DIFFERENCE: {len(ours)} values, Craftax-Classic gives {len(theirs)}')
      return False
    differ = np.flatnonzero(ours.view(np.uint32) != theirs.view(np.uint32))
    if differ.size:
      print(f'DIFFERENCE: seed {case["seed"]}, area {area[0]}x{area[1]}, '
            f'{case["policy"]} actions, at step {record["t"]}'
            + (f', inventory counts {case["counts"]}:' if 'counts' in case else ':'))
      for index in differ[:8]:
        print(f'  [{index}] {describe(index)}: ours {ours[index]!r}, '
              f'Craftax-Classic {theirs[index]!r}')
      return False
    every_creature = np.asarray(render(craftax_state(materials, record, False)))
    totals['wrapped'] += not np.array_equal(every_creature, theirs)
    totals['observations'] += 1
    totals['in_view'] += ours[:7 * 9 * CHANNELS].reshape(63, CHANNELS)[:, len(Block):].sum(
        axis=0).astype(int)
    totals['values'].update(float(v) for v in ours[7 * 9 * CHANNELS:7 * 9 * CHANNELS + 16])
    totals['blocks'].update(int(b) for b in np.flatnonzero(
        ours[:7 * 9 * CHANNELS].reshape(63, CHANNELS)[:, :len(Block)].sum(axis=0)))
    totals['sleeping'] += bool(ours[-1])
    totals['night'] += bool(ours[-2] < 0.5)
  return True


CASES = [
    {'seed': 2, 'area': [64, 64], 'policy': 'scripted'},
    {'seed': 1, 'area': [64, 64], 'policy': 'random'},
    {'seed': 3, 'area': [64, 64], 'policy': 'lazy'},
    {'seed': 4, 'area': [9, 7], 'policy': 'random'},
    {'seed': 5, 'area': [20, 12], 'policy': 'scripted'},
    {'seed': 6, 'area': [48, 30], 'policy': 'lazy'},
    {'seed': 3, 'area': [64, 64], 'policy': 'scripted'},
    # Without zombies and cows the sapling ripens (grown > 300) before
    # the player starves, at step 338.
    {'seed': 7, 'area': [64, 64], 'policy': 'farm',
     'config': {'items': {'sapling': {'initial': 1}},
                'worldgen': {'zombie': {'probability': 0}, 'cow': {'probability': 0}},
                'balance': {'zombie': {'spawn_probability': 0},
                            'cow': {'spawn_probability': 0}}}},
]


def counts_to_try():
  """Inventory counts for the float16 arithmetic: every count up to 99,
  the edges of float16's precision and range, and a spread up to the
  config's limit of 1000000."""
  rng = np.random.RandomState(16)
  edges = [2 ** k + d for k in range(7, 20) for d in (-1, 0, 1)]
  edges += [65504, 65505, 65519, 65520, 65521, 1000000]
  spread = np.unique(np.exp(rng.uniform(np.log(100), np.log(1000000), 300)).astype(int))
  return list(range(100)) + edges + spread.tolist()


def compare_counts(step, workdir, totals):
  """One step from the start with inventories set by configurations."""
  counts = counts_to_try()
  for first in range(0, len(counts), len(INVENTORY)):
    chosen = counts[first:first + len(INVENTORY)]
    items = {name: {'max': 1000000, 'initial': count}
             for name, count in zip(INVENTORY, chosen)}
    case = {'seed': first, 'area': [64, 64], 'policy': 'noop', 'config': {'items': items},
            'counts': chosen}
    if not compare_episode(play(step, case, 1, workdir), case, totals):
      return False
  return True


def main(argv=None):
  parser = argparse.ArgumentParser(
      description='The symbolic observation against Craftax-Classic\'s renderer.')
  parser.add_argument('--steps', type=int, default=1500,
                      help='actions per episode at most (default 1500)')
  parser.add_argument('--episodes', type=int, default=len(CASES),
                      help=f'how many of the {len(CASES)} episodes to play')
  parser.add_argument('--crafter-step', default=os.environ.get(
      'CRAFTER_STEP', os.path.join(TOP, 'bin', 'crafter-step')))
  args = parser.parse_args(argv)
  totals = {'observations': 0, 'in_view': np.zeros(4, dtype=int), 'values': set(), 'blocks': set(),
            'sleeping': 0, 'night': 0, 'wrapped': 0}
  with tempfile.TemporaryDirectory() as workdir:
    for case in CASES[:args.episodes]:
      records = play(args.crafter_step, case, args.steps, workdir)
      if not compare_episode(records, case, totals):
        return 1
    if not compare_counts(args.crafter_step, workdir, totals):
      return 1
  print(f'craftax: {totals["observations"]} symbolic observations identical to '
        f'Craftax-Classic\'s renderer (craftax {version()}): '
        f'block types {sorted(totals["blocks"])}; in view '
        + '%d zombies, %d cows, %d skeletons, %d arrows; ' % tuple(totals['in_view']) +
        f'{len(totals["values"])} distinct inventory and vital values, '
        f'{totals["night"]} at night, {totals["sleeping"]} asleep; given every creature '
        f'of the world, its renderer dropped one in view in {totals["wrapped"]}')
  return 0


def version():
  from importlib import metadata
  return metadata.version('craftax')


if __name__ == '__main__':
  sys.exit(main())
