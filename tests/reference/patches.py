"""The reference Crafter with a crafter-config(5) file laid over it.

A key of crafter-config(5) is verified against the reference when this
module can make the reference play by the same value.  Four kinds:

- data.yaml's values (walkable, items, collect, place, make): the
  reference reads them from its `crafter.constants` module while it
  plays, so they are replaced there;
- numbers written in the reference's code (the day's length, the terrain,
  the balancing interval, the reward per health point, the numbers of
  objects.py): the function is compiled again from its own source with
  that one literal changed (a literal is named by its value and its
  occurrence in the function);
- the healths creatures start with: their constructors are wrapped;
- the balancing of creatures: the arguments the reference passes to
  `Env._balance_object` are replaced, and with `min`, `max` or
  `min_space` the target range is the one crafter-config(5) documents.

Keys outside VERIFIED (the env section, reward.combine and the rewards of
achievements) have no counterpart in the reference.  `python3 patches.py
--list` prints VERIFIED (it needs no reference installed).
"""

import copy
import decimal
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULTS = os.path.join(HERE, '..', '..', 'data', 'crafter.yaml')


def same(value):
  return value


def negated(value):
  return -value


def inverse(value):
  return 1 / value


def complement(value):
  """A probability p as the threshold 1 - p, written out exactly as the
  decimal the file gives (0.15 gives the literal 0.85)."""
  return float(decimal.Decimal(1) - decimal.Decimal(repr(float(value))))


ENV, WORLDGEN, OBJECTS = 'crafter.env', 'crafter.worldgen', 'crafter.objects'
LIFE = (OBJECTS, 'Player._update_life_stats')
HEALTH = (OBJECTS, 'Player._degen_or_regen_health')
DO = (OBJECTS, 'Player._do_object')
ZOMBIE = (OBJECTS, 'Zombie.update')
SKELETON = (OBJECTS, 'Skeleton.update')
SET_MATERIAL = (WORLDGEN, '_set_material')
SET_OBJECT = (WORLDGEN, '_set_object')

# key: [(module, function, literal, occurrence from 1, value -> literal)].
LITERALS = {
    'daylight.length': [(ENV, 'Env._update_time', 300, 1, same)],
    'balance.interval': [(ENV, 'Env.step', 10, 1, same)],
    'reward.health': [(ENV, 'Env.step', 10, 2, inverse)],
    'worldgen.start.radius': [(*SET_MATERIAL, 4, 1, same)],
    'worldgen.start.threshold': [(*SET_MATERIAL, 0.5, 1, same)],
    'worldgen.mountain.threshold': [(*SET_MATERIAL, 0.15, 2, same)],
    'worldgen.cave.mountain': [(*SET_MATERIAL, 0.3, 3, same)],
    'worldgen.cave.noise': [(*SET_MATERIAL, 0.15, 3, same)],
    'worldgen.cave.size': [(*SET_MATERIAL, 7, 1, same)],
    'worldgen.tunnels.noise': [
        (*SET_MATERIAL, 0.4, 1, same), (*SET_MATERIAL, 0.4, 2, same)],
    'worldgen.coal.noise': [(*SET_MATERIAL, 0, 3, same)],
    'worldgen.coal.size': [(*SET_MATERIAL, 8, 2, same)],
    'worldgen.coal.probability': [(*SET_MATERIAL, 0.85, 1, complement)],
    'worldgen.iron.noise': [(*SET_MATERIAL, 0.4, 3, same)],
    'worldgen.iron.size': [(*SET_MATERIAL, 6, 2, same)],
    'worldgen.iron.probability': [(*SET_MATERIAL, 0.75, 1, complement)],
    'worldgen.diamond.mountain': [(*SET_MATERIAL, 0.18, 1, same)],
    'worldgen.diamond.probability': [(*SET_MATERIAL, 0.994, 1, complement)],
    'worldgen.lava.mountain': [(*SET_MATERIAL, 0.3, 4, same)],
    'worldgen.lava.noise': [(*SET_MATERIAL, 0.35, 1, same)],
    'worldgen.lava.size': [(*SET_MATERIAL, 5, 5, same)],
    'worldgen.sand.water_min': [(*SET_MATERIAL, 0.25, 1, same)],
    'worldgen.sand.water_max': [(*SET_MATERIAL, 0.35, 2, same)],
    # Written -0.2: a minus sign before the literal 0.2.
    'worldgen.sand.noise': [(*SET_MATERIAL, 0.2, 1, negated)],
    'worldgen.sand.size': [(*SET_MATERIAL, 9, 1, same)],
    'worldgen.water.threshold': [(*SET_MATERIAL, 0.3, 5, same)],
    'worldgen.tree.noise': [(*SET_MATERIAL, 0, 4, same)],
    'worldgen.tree.size': [(*SET_MATERIAL, 7, 4, same)],
    'worldgen.tree.probability': [(*SET_MATERIAL, 0.8, 1, complement)],
    'worldgen.cow.distance': [(*SET_OBJECT, 3, 1, same)],
    'worldgen.cow.probability': [(*SET_OBJECT, 0.985, 1, complement)],
    'worldgen.zombie.distance': [(*SET_OBJECT, 10, 1, same)],
    'worldgen.zombie.probability': [(*SET_OBJECT, 0.993, 1, complement)],
    'worldgen.skeleton.probability': [(*SET_OBJECT, 0.95, 1, complement)],
    # objects.py
    'player.hunger.rate': [(*LIFE, 1, 1, same)],
    'player.hunger.sleeping': [(*LIFE, 0.5, 1, same)],
    'player.hunger.limit': [(*LIFE, 25, 1, same)],
    'player.hunger.amount': [(*LIFE, 1, 2, same)],
    'player.thirst.rate': [(*LIFE, 1, 3, same)],
    'player.thirst.sleeping': [(*LIFE, 0.5, 2, same)],
    'player.thirst.limit': [(*LIFE, 20, 1, same)],
    'player.thirst.amount': [(*LIFE, 1, 4, same)],
    'player.fatigue.sleeping': [(*LIFE, 1, 5, same)],
    'player.fatigue.rate': [(*LIFE, 1, 6, same)],
    # Written -10: a minus sign before the literal 10.
    'player.fatigue.rested': [(*LIFE, 10, 1, negated)],
    'player.fatigue.tired': [(*LIFE, 30, 1, same)],
    'player.fatigue.amount': [(*LIFE, 1, 7, same), (*LIFE, 1, 8, same)],
    'player.recover.sleeping': [(*HEALTH, 2, 1, same)],
    'player.recover.rate': [(*HEALTH, 1, 1, same)],
    'player.recover.decay_sleeping': [(*HEALTH, 0.5, 1, same)],
    'player.recover.decay': [(*HEALTH, 1, 2, same)],
    'player.recover.heal': [(*HEALTH, 25, 1, same)],
    'player.recover.hurt': [(*HEALTH, 15, 1, negated)],
    'player.recover.amount': [(*HEALTH, 1, 3, same), (*HEALTH, 1, 4, same)],
    'player.damage.none': [(*DO, 1, 1, same)],
    'player.damage.wood_sword': [(*DO, 2, 1, same)],
    'player.damage.stone_sword': [(*DO, 3, 1, same)],
    'player.damage.iron_sword': [(*DO, 5, 1, same)],
    'plant.food': [(*DO, 4, 1, same)],
    'cow.food': [(*DO, 6, 1, same)],
    'cow.move': [(OBJECTS, 'Cow.update', 0.5, 1, same)],
    'zombie.chase.distance': [(*ZOMBIE, 8, 1, same)],
    'zombie.chase.probability': [(*ZOMBIE, 0.9, 1, same)],
    'zombie.chase.long_axis': [(*ZOMBIE, 0.8, 1, same)],
    'zombie.attack.distance': [(*ZOMBIE, 1, 1, same)],
    'zombie.attack.sleeping': [(*ZOMBIE, 7, 1, same)],
    'zombie.attack.damage': [(*ZOMBIE, 2, 1, same)],
    'zombie.attack.cooldown': [(*ZOMBIE, 5, 1, same)],
    'skeleton.flee.distance': [(*SKELETON, 3, 1, same)],
    'skeleton.flee.long_axis': [(*SKELETON, 0.6, 1, same)],
    'skeleton.shoot.distance': [(*SKELETON, 5, 1, same)],
    'skeleton.shoot.probability': [(*SKELETON, 0.5, 1, same)],
    'skeleton.shoot.reload': [(OBJECTS, 'Skeleton._shoot', 4, 1, same)],
    'skeleton.chase.distance': [(*SKELETON, 8, 1, same)],
    'skeleton.chase.probability': [(*SKELETON, 0.3, 1, same)],
    'skeleton.chase.long_axis': [(*SKELETON, 0.6, 2, same)],
    'skeleton.wander': [(*SKELETON, 0.2, 1, same)],
    'arrow.damage': [(OBJECTS, 'Arrow.update', 2, 1, same)],
    # The third 1 of Plant.update: the first two are `grown += 1` and an
    # index ([1], the object of a cell).
    'plant.damage': [(OBJECTS, 'Plant.update', 1, 3, same)],
    'plant.ripe': [(OBJECTS, 'Plant.ripe', 300, 1, same)],
}

# key: the class whose constructor sets that health (its __init__ calls
# super(), so it is wrapped rather than compiled again).
HEALTHS = {'cow.health': 'Cow', 'zombie.health': 'Zombie',
           'skeleton.health': 'Skeleton', 'plant.health': 'Plant'}

CREATURES = ('zombie', 'skeleton', 'cow')
BALANCE_FIELDS = (
    'material', 'spawn_distance', 'despawn_distance', 'spawn_probability',
    'despawn_probability', 'min_space', 'min', 'max')
DATA_SECTIONS = ('walkable', 'items', 'collect', 'place', 'make')

VERIFIED = sorted(
    list(LITERALS) + list(HEALTHS) + ['balance.chunk'] +
    [f'balance.{c}.{f}' for c in CREATURES for f in BALANCE_FIELDS] +
    ['walkable', 'items.ITEM.max', 'items.ITEM.initial',
     'collect.MATERIAL.require', 'collect.MATERIAL.receive',
     'collect.MATERIAL.leaves', 'collect.MATERIAL.probability',
     'place.NAME.uses', 'place.NAME.where', 'make.NAME.uses',
     'make.NAME.nearby', 'make.NAME.gives'])


class Unverifiable(Exception):
  pass


def load(path):
  from ruamel.yaml import YAML
  with open(path) as stream:
    data = YAML(typ='safe', pure=True).load(stream)
  return data or {}


def defaults():
  return load(DEFAULTS)


def leaves(tree, prefix=''):
  for key, value in tree.items():
    path = f'{prefix}{key}'
    if isinstance(value, dict):
      yield from leaves(value, path + '.')
    else:
      yield path, value


def check(config):
  """Raises Unverifiable for a key the reference cannot play by."""
  for section, value in config.items():
    if section in DATA_SECTIONS or section == 'version':
      continue
    if section == 'balance':
      for key, rule in value.items():
        if key in ('interval', 'chunk'):
          continue
        if key not in CREATURES or any(f not in BALANCE_FIELDS for f in rule):
          raise Unverifiable(f'balance.{key}')
      continue
    if not isinstance(value, dict):
      raise Unverifiable(section)
    for path, _ in leaves(value, section + '.'):
      if path not in LITERALS and path not in HEALTHS:
        raise Unverifiable(path)


def _resolve(module_name, qualname):
  module = sys.modules[module_name]
  owner, name = module, qualname
  if '.' in qualname:
    owner_name, name = qualname.split('.')
    owner = getattr(module, owner_name)
  return owner, name


def _recompiled(owner, name, replacements):
  """The function owner.name compiled again from its source with literals
  replaced: [(literal, occurrence, new value)]."""
  import ast
  import inspect
  import textwrap
  function = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
  if isinstance(function, property):
    # Its source carries the decorator: compiled again, it is a property.
    function = function.fget
  tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
  constants = sorted(
      (node for node in ast.walk(tree)
       if isinstance(node, ast.Constant) and type(node.value) in (int, float)),
      key=lambda node: (node.lineno, node.col_offset))
  # Every literal is found before any is changed: a changed one must not
  # shift the occurrences of the others.
  targets = []
  for literal, occurrence, value in replacements:
    found = [n for n in constants
             if type(n.value) is type(literal) and n.value == literal]
    if len(found) < occurrence:
      raise RuntimeError(f'{name}: no literal {literal!r} #{occurrence}')
    targets.append((found[occurrence - 1], value))
  for node, value in targets:
    node.value = value
  namespace = {}
  exec(compile(tree, inspect.getsourcefile(function), 'exec'),
       function.__globals__, namespace)
  return namespace[name]


def _target(rule, world):
  low, high, space_needed = rule['min'], rule['max'], rule['min_space']

  def target(count, space):
    light = world.daylight
    return (0 if space < space_needed else low['base'] + low['daylight'] * light,
            high['base'] + high['daylight'] * light)
  return target


def apply(config):
  """Lays config over the reference in this process; returns a function
  that undoes it."""
  import crafter
  from crafter import constants, objects
  check(config)
  undo = []

  # data.yaml's values.
  for section in DATA_SECTIONS:
    if section not in config:
      continue
    old = copy.deepcopy(getattr(constants, section))
    undo.append(lambda s=section, o=old: setattr(constants, s, o))
    if section == 'walkable':
      setattr(constants, section, list(config[section]))
      continue
    merged = copy.deepcopy(old)
    for name, rule in config[section].items():
      merged[name] = {**merged.get(name, {}), **rule}
    setattr(constants, section, merged)

  # Literals in the code.
  grouped = {}
  for key, value in leaves({k: v for k, v in config.items()
                            if k not in DATA_SECTIONS and k != 'version'}):
    for module, function, literal, occurrence, transform in LITERALS.get(key, ()):
      grouped.setdefault((module, function), []).append(
          (literal, occurrence, transform(value)))
  for (module, function), replacements in grouped.items():
    owner, name = _resolve(module, function)
    old = owner.__dict__[name]
    setattr(owner, name, _recompiled(owner, name, replacements))
    undo.append(lambda o=owner, n=name, f=old: setattr(o, n, f))

  # Healths, set by constructors.
  for key, value in leaves({k: v for k, v in config.items()
                            if k not in DATA_SECTIONS and k != 'version'}):
    if key not in HEALTHS:
      continue
    cls = getattr(objects, HEALTHS[key])
    old_init = cls.__dict__['__init__']

    def init(self, *args, _init=old_init, _health=value, **kwargs):
      _init(self, *args, **kwargs)
      self.health = _health
    cls.__init__ = init
    undo.append(lambda c=cls, f=old_init: setattr(c, '__init__', f))

  # Balancing.
  rules = {c: r for c, r in config.get('balance', {}).items() if c in CREATURES}
  if rules:
    base = defaults()['balance']
    for creature, rule in rules.items():
      merged = copy.deepcopy(base[creature])
      for field, value in rule.items():
        if isinstance(value, dict):
          merged[field].update(value)
        else:
          merged[field] = value
      rules[creature] = (merged, any(f in rule for f in ('min', 'max', 'min_space')))
    classes = {objects.Zombie: 'zombie', objects.Skeleton: 'skeleton',
               objects.Cow: 'cow'}
    original = crafter.Env._balance_object

    def balance_object(self, chunk, objs, cls, material, span_dist,
                       despan_dist, spawn_prob, despawn_prob, ctor, target_fn):
      rule, own_target = rules.get(classes.get(cls), (None, False))
      if rule:
        material = rule['material']
        span_dist, despan_dist = rule['spawn_distance'], rule['despawn_distance']
        spawn_prob = rule['spawn_probability']
        despawn_prob = rule['despawn_probability']
        if own_target:
          target_fn = _target(rule, self._world)
      return original(self, chunk, objs, cls, material, span_dist, despan_dist,
                      spawn_prob, despawn_prob, ctor, target_fn)

    crafter.Env._balance_object = balance_object
    undo.append(lambda: setattr(crafter.Env, '_balance_object', original))

  def undo_all():
    for step in reversed(undo):
      step()
  return undo_all


def apply_to_env(env, config):
  """What a config changes in one env: the chunks of the balancing."""
  chunk = config.get('balance', {}).get('chunk')
  if chunk:
    env._world._chunk_size = tuple(int(c) for c in chunk)


if __name__ == '__main__':
  if sys.argv[1:] == ['--list']:
    print('\n'.join(VERIFIED))
  else:
    sys.exit('usage: patches.py --list')
