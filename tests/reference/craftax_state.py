"""JAX's Craftax-Classic states moved to the toolkit and back with the
Python client's crafter_toolkit.craftax (from_jax, to_jax,
schedule_key), for crafter-step to play on from them.

For each seed S, JAX plays the seed schedule of crafter-games(7) (key =
PRNGKey(S); key, k = split(key); env.reset(k); then key, k = split(key);
jax.jit(env.step)(k, state, action) a step, the env resetting itself) a
number of random steps drawn from the seed (1 to BEFORE), so the states
met are mid-episode, at night, after episode ends.  That state goes to
the toolkit as from_jax(state, key, seed=S, episode=E), key the one the
loop carries and E one more than the episodes ended, and is checked:

- to_jax(from_jax(state)) equals state field by field (names, shapes,
  dtypes, weak types, values bit for bit), and schedule_key gives the key
  back;
- loaded into crafter-step (the client's stream of --game craftax-classic,
  env i the i-th seed), its first frame holds JAX's observation of the
  state, then both play STEPS more steps under the same random actions:
  every step's observation (float32 bits), reward (float32) and done
  equal, the episode counter as JAX's ends count it; every 50 steps and
  at the end crafter-step's saved state equals from_jax of JAX's state,
  word for word (the first different field said);
- JAX plays on from to_jax of crafter-step's last saved state, with
  schedule_key's key, as it does from its own state (50 steps, every
  observation, reward and done), with the step it compiled for its own
  states (no new compilation);
- key None: from_jax of seed S's first state with seed=S is the state
  crafter-step saves for seed S; a typed key (jax.random.key) is taken as
  its raw words; a vmapped batch of states is refused.

    craftax_state.py --check N [STEPS [BEFORE]]   N fresh random seeds
                                                  (default STEPS 300,
                                                  BEFORE 400); exit 1 on a
                                                  difference, said first
    craftax_state.py --check N STEPS BEFORE --plant wood|key
                                                  the same with a difference
                                                  planted, which must be
                                                  found: one more wood in
                                                  the state crafter-step
                                                  loads, or the key JAX's
                                                  next step splits off
                                                  given as the key
    craftax_state.py --seeds S... --steps STEPS --before BEFORE
                                                  given seeds

crafter-step is the one CRAFTER_STEP names, else the tree's bin/.
"""

import dataclasses
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, 'python'))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_worlds  # noqa: E402  (puts in the stand-ins before craftax)
from crafter_toolkit import _stream, craftax  # noqa: E402

ENV = craftax_worlds.ENV
STEP = jax.jit(ENV.step)
GAME = 'craftax-classic'
CHECKPOINT = 50


class Different(Exception):
  """A difference, said."""


def flat(state):
  """{name: value} of an EnvState, nested fields as prefix.name."""
  out = {}
  for field in dataclasses.fields(state):
    value = getattr(state, field.name)
    if dataclasses.is_dataclass(value):
      out.update({field.name + '.' + k: v for k, v in flat(value).items()})
    else:
      out[field.name] = value
  return out


def first_index(x, y):
  """The first flat index where two arrays of one shape and dtype differ
  in their bits."""
  x, y = x.reshape(-1), y.reshape(-1)
  return next(k for k in range(x.size) if x[k:k + 1].tobytes() != y[k:k + 1].tobytes())


def same_state(ours, theirs, what):
  """Raises Different unless the two EnvStates hold the same fields, of
  the same types (jax arrays, weakly typed or not), shapes and dtypes,
  bit for bit."""
  a, b = flat(ours), flat(theirs)
  if list(a) != list(b):
    raise Different(f'{what}: fields {list(a)} and {list(b)}')
  for name in a:
    x, y = a[name], b[name]
    if isinstance(x, tuple) or isinstance(y, tuple):
      if x != y:
        raise Different(f'{what}: {name} {x!r} and {y!r}')
      continue
    if type(x) is not type(y) or getattr(x, 'weak_type', None) != getattr(y, 'weak_type', None):
      raise Different(f'{what}: {name} is a {type(x).__name__} (weak type '
                      f'{getattr(x, "weak_type", None)}) and a {type(y).__name__} (weak type '
                      f'{getattr(y, "weak_type", None)})')
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
      raise Different(f'{what}: {name} {x.dtype}{x.shape} and {y.dtype}{y.shape}')
    if x.tobytes() != y.tobytes():
      index = first_index(x, y)
      raise Different(f'{what}: {name}[{index}] {x.reshape(-1)[index]} and '
                      f'{y.reshape(-1)[index]}')


def same_words(saved, expected, what):
  """Raises Different unless two saved states are the same bytes; names
  the first field that differs."""
  if saved == expected:
    return
  head_a, head_b = craftax.header(saved), craftax.header(expected)
  for part in ('seed', 'episode'):
    if head_a[part] != head_b[part]:
      raise Different(f'{what}: {part} {head_a[part]} in crafter-step, {head_b[part]} in JAX')
  if head_a['key'].tolist() != head_b['key'].tolist():
    raise Different(f'{what}: the key {head_a["key"].tolist()} in crafter-step, '
                    f'{head_b["key"].tolist()} in JAX')
  a, b = craftax.to_arrays(saved), craftax.to_arrays(expected)
  for name in craftax.NAMES:
    x, y = a[name].reshape(-1), b[name].reshape(-1)
    if x.tobytes() != y.tobytes():
      index = first_index(x, y)
      raise Different(f'{what}: {name}[{index}] {x[index]} in crafter-step, {y[index]} in JAX')
  raise Different(f'{what}: the states differ outside the fields')


def bits(value):
  return np.asarray(value, np.float32).reshape(-1).view(np.uint32)


class Seed:
  """One seed's JAX game: the schedule's key, the state, the episodes."""

  def __init__(self, seed):
    self.seed = seed
    self.key = jax.random.PRNGKey(seed)
    self.key, k = jax.random.split(self.key)
    self.obs, self.state = craftax_worlds.RESET(k)
    self.first = self.state
    self.episode = 1
    self.rng = np.random.RandomState(seed % 2 ** 32)

  def step(self, action):
    self.key, k = jax.random.split(self.key)
    self.obs, self.state, reward, done, _ = STEP(k, self.state, action)
    if bool(done):
      self.episode += 1
    return np.asarray(self.obs), np.asarray(reward), bool(done)

  def saved(self):
    return craftax.from_jax(self.state, self.key, seed=self.seed, episode=self.episode)


def check_keys(seeds, stream):
  """key None is seed S's key after its reset; a typed key is its words;
  a batch is refused."""
  for seed in seeds[:2]:
    first = Seed(seed)
    fresh = _stream.Stream(game=GAME, seed=seed)
    same_words(fresh.save_state(0), craftax.from_jax(first.first, seed=seed),
               f'seed {seed}: the first state with key None')
    fresh.close()
    typed = craftax.from_jax(first.first, jax.random.key(seed), seed=seed)
    raw = craftax.from_jax(first.first, jax.random.PRNGKey(seed), seed=seed)
    if typed != raw:
      raise Different(f'seed {seed}: a typed key is not taken as its words')
    if craftax.schedule_key(raw).tolist() != np.asarray(jax.random.PRNGKey(seed)).tolist():
      raise Different(f'seed {seed}: schedule_key is not the key given')
  batch = jax.tree.map(lambda *x: np.stack(x), first.first, first.first)
  try:
    craftax.from_jax(batch)
  except ValueError as error:
    if 'a batch of 2 states (vmapped)' not in str(error):
      raise Different(f'a batch refused with: {error}')
  else:
    raise Different('a batch of two states was taken for one')


def check(seeds, steps, before, plant=False):
  started = time.perf_counter()
  games = [Seed(seed) for seed in seeds]
  stream = _stream.Stream(game=GAME, envs=len(seeds), seed=0)
  ends, counted = 0, 0
  frame = None
  for i, game in enumerate(games):
    count = game.rng.randint(1, before + 1)
    for _ in range(count):
      game.step(int(game.rng.randint(17)))
    counted += count
    saved = game.saved()
    same_state(craftax.to_jax(saved), game.state, f'seed {game.seed}: to_jax(from_jax(state))')
    if craftax.schedule_key(saved).tolist() != np.asarray(game.key).tolist():
      raise Different(f'seed {game.seed}: schedule_key is not the key given')
    if plant == 'wood':  # one more wood in crafter-step's state
      arrays = craftax.to_arrays(saved)
      arrays['inventory.wood'] = arrays['inventory.wood'] + 1
      saved = craftax.from_arrays(arrays, game.key, game.seed, game.episode)
    elif plant == 'key':  # crafter-step given the key JAX's next step splits off
      saved = craftax.from_jax(game.state, jax.random.split(game.key)[1], game.seed,
                               game.episode)
    frame = stream.load_state(i, saved)
    if bits(frame['obs'][i]).tolist() != bits(game.obs).tolist():
      index = int(np.flatnonzero(bits(frame['obs'][i]) != bits(game.obs))[0])
      raise Different(f'seed {game.seed}: the loaded state\'s observation: obs[{index}] '
                      f'{frame["obs"][i][index]} in crafter-step, '
                      f'{np.asarray(game.obs)[index]} in JAX')
  for n in range(1, steps + 1):
    actions = [int(game.rng.randint(17)) for game in games]
    frame = stream.step(np.array(actions, np.uint8))
    for i, game in enumerate(games):
      obs, reward, done = game.step(actions[i])
      where = f'seed {game.seed}, step {n} after the load'
      if bits(frame['obs'][i]).tolist() != bits(obs).tolist():
        index = int(np.flatnonzero(bits(frame['obs'][i]) != bits(obs))[0])
        raise Different(f'{where}: obs[{index}] {frame["obs"][i][index]} in crafter-step, '
                        f'{obs[index]} in JAX')
      if bits(np.float32(frame['reward'][i])) != bits(reward):
        raise Different(f'{where}: reward {frame["reward"][i]} in crafter-step, '
                        f'{reward} in JAX')
      if bool(frame['done'][i]) != done:
        raise Different(f'{where}: done {bool(frame["done"][i])} in crafter-step, {done} in JAX')
      if int(frame['episode'][i]) != game.episode:
        raise Different(f'{where}: episode {int(frame["episode"][i])} in crafter-step, '
                        f'{game.episode} in JAX')
      ends += done
    if n % CHECKPOINT == 0 or n == steps:
      for i, game in enumerate(games):
        same_words(stream.save_state(i), game.saved(),
                   f'seed {game.seed}, step {n} after the load: the saved state')
  # Back to JAX: to_jax of crafter-step's states plays on as JAX's own,
  # through the same compiled step.
  compiled = STEP._cache_size()
  for i, game in enumerate(games):
    saved = stream.save_state(i)
    back, key = craftax.to_jax(saved), jax.numpy.asarray(craftax.schedule_key(saved))
    same_state(back, game.state, f'seed {game.seed}: to_jax of crafter-step\'s state')
    for n in range(1, CHECKPOINT + 1):
      action = int(game.rng.randint(17))
      key, k = jax.random.split(key)
      obs, back, reward, done, _ = STEP(k, back, action)
      want = game.step(action)
      if (bits(obs).tolist() != bits(want[0]).tolist() or bits(reward) != bits(want[1])
              or bool(done) != want[2]):
        raise Different(f'seed {game.seed}: JAX from to_jax, step {n}: another observation, '
                        f'reward or done than from its own state')
  if STEP._cache_size() != compiled:
    raise Different('jit(env.step) compiled again for the states of to_jax')
  check_keys(seeds, stream)
  stream.close()
  print(f'{len(seeds)} seeds: JAX states after {counted} random steps in all moved to '
        f'crafter-step, {steps} steps each equal, {ends} episode ends, the saved states word for word, '
        f'and back to JAX; {time.perf_counter() - started:.0f} s (jax {jax.__version__})')
  return 0


def main(argv):
  plant = None
  if '--plant' in argv and argv.index('--plant') + 1 < len(argv):
    at = argv.index('--plant')
    plant = argv[at + 1]
    if plant not in ('wood', 'key'):
      print(f'--plant wood or --plant key, not {plant}', file=sys.stderr)
      return 2
    argv = argv[:at] + argv[at + 2:]
  try:
    if len(argv) in (2, 3, 4) and argv[0] == '--check':
      count = int(argv[1])
      steps = int(argv[2]) if len(argv) > 2 else 300
      before = int(argv[3]) if len(argv) > 3 else 400
      seeds = [random.randrange(0, 2 ** 31) for _ in range(count)]
      print('seeds ' + ' '.join(str(s) for s in seeds), flush=True)
      return check(seeds, steps, before, plant)
    if len(argv) >= 6 and argv[0] == '--seeds' and '--steps' in argv and '--before' in argv:
      at = argv.index('--steps')
      seeds = [int(s) for s in argv[1:at]]
      steps = int(argv[at + 1])
      before = int(argv[argv.index('--before') + 1])
      return check(seeds, steps, before, plant)
  except Different as difference:
    print(f'first difference: {difference}')
    return 1
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
