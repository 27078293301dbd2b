"""Craftax's (the full game's) pixel observations, as JAX makes them, for
the C renderer (crafter_cx_render_pixels, lib/view/cx_pixels.c) to be
compared with.

The env is make_craftax_env_from_name('Craftax-Pixels-v1',
auto_reset=True) with its default parameters, one env per jitted call; an
observation is float32[130, 110, 3].  An episode follows the schedule of
tests/reference/craftax_full_steps.py for a seed S: key = PRNGKey(S);
key, k = split(key); the first state is reset(k)'s; then for every step
key, k = split(key); step(k, state, action).  (This env's reset_env hands
generate_world its key itself where Craftax-Symbolic-v1's splits it
first, so its worlds are not the symbolic env's of the same seed.)  Its
KIND is one of

    random   the first state as reset makes it; random actions (element
             n of randint(split(PRNGKey(S), 3)[2], (STEPS,), 0, 43) is the
             action of step n + 1)
    crafted  craftax_full_steps.crafted(): the first state moved to floor
             S mod 9 with every item, potion and book, attributes drawn
             and the tables around the player; random actions
    boss     craftax_full_steps.boss(): beside the necromancer on the boss
             floor; DO seven steps in ten, the rest random
    lit      the boss's first state with its floor lit (light_map 1
             everywhere: the floor is dark around the necromancer) and
             food, drink and energy full, so that the necromancer, its
             waves and their projectiles are seen; the boss's actions

(the crafted and boss first states are made from this env's first state,
and drawn by jit(env.get_obs)).

    craftax_full_pixels.py --assets
        the installed craftax's assets folder (the textures' PNGs)
    craftax_full_pixels.py --record CRCS.gz STARTS.gz SPEC...
        SPEC is KIND:STEPS:S1,S2,...: every observation of those
        episodes, a line 'S N ACTION CRC' a state (N = 0 the first
        state, ACTION -1 there, -2 for a crafted or boss first state;
        CRC zlib's CRC-32 of the observation's float32 bytes, in hex),
        gzip-compressed, into CRCS.gz; the crafted and boss first states
        into STARTS.gz as craftax_full_steps.py --record writes its step
        0 (7 head words, then the state's words), for C to start from;
        what the episodes met is said on standard error
    craftax_full_pixels.py --textures PROGRAM
        PROGRAM's '--textures ASSETS' output, the C loader's scaled
        textures (crafter_cx_textures' float32 values in the order of its
        fields), against Craftax's own (load_all_textures, made and
        cached at its first use), texture by texture; exit 1 on a
        difference
    craftax_full_pixels.py --compare PROGRAM SPEC...
        SPEC is KIND:STEPS:COUNT: COUNT fresh random seeds' episodes of
        that kind, every observation JAX returns against PROGRAM's
        '--episodes ASSETS FILE' output (FILE: for each episode the
        record of its first state, head words S, STEPS, -1 or -2 (a
        crafted state, C starts from its words), then STEPS action
        words; the output every observation's float32 bytes,
        little-endian), value for value: the count of values that
        differ, the most units in the last place, the first place;
        what the episodes met; exit 1 on a difference.  Then one unit in
        the last place planted in the program's last night observation
        (or its last) must be found, and every observation PROGRAM draws
        with the toolkit's own textures ('--episodes builtin FILE') must
        differ from JAX's.
"""

import gzip
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import craftax_full_steps as steps_ref  # noqa: E402  (with craftax_worlds' stand-ins)
import craftax.craftax.constants as constants  # noqa: E402
from craftax.craftax_env import make_craftax_env_from_name  # noqa: E402

ENV = make_craftax_env_from_name('Craftax-Pixels-v1', auto_reset=True)
RESET = jax.jit(ENV.reset)
STEP = jax.jit(ENV.step)
OBS = jax.jit(ENV.get_obs)
SHAPE = (130, 110, 3)
KINDS = {'random': 0xffffffff, 'crafted': 0xfffffffe, 'boss': 0xfffffffe, 'lit': 0xfffffffe}


def assets():
  return os.path.join(os.path.dirname(os.path.abspath(constants.__file__)), 'assets')


def observation(obs):
  obs = np.asarray(obs)
  if obs.dtype != np.float32 or obs.shape != SHAPE:
    raise SystemExit(f'unexpected observation: {obs.dtype} {obs.shape}')
  return obs


def met_in(state, done):
  """What a state shows: its floor, night, sleep, darkness, creatures and
  projectiles in view, an episode's end."""
  level = int(state.player_level)
  found = {f'floor {level}'}
  if level == 0 and float(state.light_level) < 0.5:
    found.add('night')
  if bool(state.is_sleeping):
    found.add('asleep')
  r, c = (int(v) for v in np.asarray(state.player_position))
  light = np.asarray(state.light_map[level])
  view = light[max(r - 4, 0):r + 5, max(c - 5, 0):c + 6]
  if (view < 1).any():
    found.add('dark')

  def visible(mobs):
    pos = np.asarray(mobs.position[level])
    mask = np.asarray(mobs.mask[level])
    return any(m and abs(p[0] - r) <= 4 and abs(p[1] - c) <= 5 for p, m in zip(pos, mask))

  if visible(state.melee_mobs) or visible(state.ranged_mobs) or visible(state.passive_mobs):
    found.add('creatures')
  if visible(state.mob_projectiles) or visible(state.player_projectiles):
    found.add('projectiles')
  near = np.asarray(state.map[level])[max(r - 4, 0):r + 5, max(c - 5, 0):c + 6]
  if (near == 32).any():
    found.add('necromancer')
  if done:
    found.add('ended')
  return found


def play(kind, seed, steps):
  """The episode's (first state, actions, observations, what each state
  met)."""
  key = jax.random.PRNGKey(seed)
  key, k = jax.random.split(key)
  obs, state = RESET(k)
  chosen = steps_ref.actions(seed, steps, 'random')
  if kind == 'crafted':
    state = steps_ref.crafted(state, seed)
  elif kind in ('boss', 'lit'):
    state = steps_ref.boss(state, seed)
    if kind == 'lit':
      state = state.replace(light_map=state.light_map.at[8].set(1.0), player_food=jnp.int32(9),
                            player_drink=jnp.int32(9), player_energy=jnp.int32(9))
    strike = np.random.default_rng(seed).random(steps) < 0.7
    chosen = [5 if hit else a for hit, a in zip(strike, chosen)]
  if kind != 'random':
    obs = OBS(state)
  first = state
  observations, met = [observation(obs)], [met_in(state, False)]
  for n in range(steps):
    key, k = jax.random.split(key)
    obs, state, _, done, _ = STEP(k, state, chosen[n])
    observations.append(observation(obs))
    met.append(met_in(state, bool(done)))
  return first, chosen, np.stack(observations), met


def record_of(kind, seed, n, state):
  """The 7 head words (seed, n, the kind's word, the reset's key, 0, 0)
  and the state's words of an episode's first state."""
  k = np.asarray(jax.random.split(jax.random.PRNGKey(seed))[1], dtype=np.uint32)
  head = np.array([seed & 0xffffffff, n, KINDS[kind], k[0], k[1], 0, 0], dtype=np.uint32)
  return head.astype('<u4').tobytes() + steps_ref.words(state).astype('<u4').tobytes()


def specs(argv):
  out = []
  for spec in argv:
    kind, steps, rest = spec.split(':')
    if kind not in KINDS:
      raise SystemExit(f'unknown kind {kind}')
    out.append((kind, int(steps), rest))
  return out


def said(counts):
  order = sorted(counts, key=lambda k: (not k.startswith('floor'), k))
  return ', '.join(f'{counts[k]} {k}' for k in order)


def record(crcs_path, starts_path, argv):
  counts = {}
  with gzip.open(crcs_path, 'wt', compresslevel=9) as crcs, \
      gzip.open(starts_path, 'wb', compresslevel=9) as starts:
    for kind, steps, seeds in specs(argv):
      for seed in (int(s) for s in seeds.split(',')):
        first, chosen, observations, met = play(kind, seed, steps)
        if kind != 'random':
          starts.write(record_of(kind, seed, 0, first))
        crcs.write(f'# {kind} {seed} {steps}\n')
        for n, obs in enumerate(observations):
          action = (-1 if kind == 'random' else -2) if n == 0 else chosen[n - 1]
          crcs.write(f'{seed} {n} {action} {zlib.crc32(obs.astype("<f4").tobytes()):08x}\n')
        for found in met:
          for k in found:
            counts[k] = counts.get(k, 0) + 1
        sys.stderr.write(f'{kind} seed {seed}: {steps} steps\n')
  sys.stderr.write(f'states met: {said(counts)}\n')
  return 0


def ordered(bits):
  """float32 bits as integers in the floats' order, for counting ulps."""
  bits = bits.astype(np.int64)
  return np.where(bits & 0x80000000, 0x80000000 - bits, bits)


def differences(theirs, mine):
  """(count, most ulps, the first place or None) of two arrays of
  observations."""
  ulps = np.abs(ordered(theirs.view(np.uint32)) - ordered(mine.view(np.uint32)))
  where = np.argwhere(ulps)
  if not len(where):
    return 0, 0, None
  return len(where), int(ulps.max()), tuple(int(v) for v in where[0])


def compare(program, argv):
  episodes, counts, jax_seconds = [], {}, 0.0
  for kind, steps, count in specs(argv):
    for _ in range(int(count)):
      seed = random.randrange(0, 2 ** 31)
      started = time.perf_counter()
      first, chosen, observations, met = play(kind, seed, steps)
      jax_seconds += time.perf_counter() - started
      episodes.append((kind, seed, steps, first, chosen, observations, met))
  theirs = np.concatenate([e[5] for e in episodes])
  with tempfile.NamedTemporaryFile(suffix='.episodes') as f:
    for kind, seed, steps, first, chosen, _, _ in episodes:
      f.write(record_of(kind, seed, steps, first))
      f.write(np.asarray(chosen, dtype='<u4').tobytes())
    f.flush()
    drawn = {}
    for textures in (assets(), 'builtin'):
      done = subprocess.run([program, '--episodes', textures, f.name], capture_output=True)
      if done.returncode != 0:
        print(f'{program} failed: {done.stderr.decode().strip()}')
        return 2
      drawn[textures] = np.frombuffer(done.stdout, dtype='<f4').copy()
      if drawn[textures].size != theirs.size:
        print(f'{drawn[textures].size} values from the program, not {theirs.size}')
        return 1
  mine = drawn[assets()].reshape(theirs.shape)
  own = drawn['builtin'].reshape(theirs.shape)
  met = [m for e in episodes for m in e[6]]
  for found in met:
    for k in found:
      counts[k] = counts.get(k, 0) + 1
  n, most, where = differences(theirs, mine)
  if n:
    at, row, column, channel = where
    offset = 0
    for kind, seed, steps, *_ in episodes:
      if at <= offset + steps:
        break
      offset += steps + 1
    print(f'{kind} seed {seed} step {at - offset} ({", ".join(sorted(met[at]))}): first '
          f'difference at row {row}, column {column}, channel {channel}: JAX '
          f'{float(theirs[where])!r}, C {float(mine[where])!r}')
    print(f'{n} of {theirs.size} values differ, by at most {most} ulp ({len(met)} states: '
          f'{said(counts)})')
    return 1
  print(f'{len(met)} observations of {len(episodes)} episodes equal ({said(counts)}), 0 ulp, '
        f'JAX {jax_seconds:.1f} s (jax {jax.__version__})')
  nights = [k for k, found in enumerate(met) if 'night' in found]
  at = nights[-1] if nights else len(met) - 1
  mine.view(np.uint32)[at, 20, 30, 2] += 1
  n, most, where = differences(theirs, mine)
  if (n, most, where) != (1, 1, (at, 20, 30, 2)):
    print(f'planted: one unit in the last place at state {at} row 20 column 30 channel 2 '
          f'not found so: {n} values differ by at most {most} ulp, first at {where}')
    return 1
  print(f'planted: 1 value differs by 1 ulp at state {at} row 20 column 30 channel 2, found')
  told = sum(bool((a != b).any()) for a, b in zip(theirs.view(np.uint32), own.view(np.uint32)))
  print(f'own textures: {told} of {len(met)} observations drawn with the toolkit\'s textures '
        f'differ from JAX\'s')
  return 0 if told == len(met) else 1


def texture_cache():
  """Craftax's own scaled textures at the agent's block size, as its
  renderer uses them (made and cached by load_all_textures)."""
  return constants.load_all_textures()[constants.BLOCK_PIXEL_SIZE_AGENT]


def compare_textures(program):
  """PROGRAM's '--textures ASSETS' output (the C loader's scaled
  textures, crafter_cx_textures as float32 values in its fields' order)
  against Craftax's, texture by texture."""
  done = subprocess.run([program, '--textures', assets()], capture_output=True)
  if done.returncode != 0:
    print(f'{program} failed: {done.stderr.decode().strip()}')
    return 2
  mine = np.frombuffer(done.stdout, dtype='<f4')
  t = {k: np.asarray(v).astype(np.float32) for k, v in texture_cache().items()
       if hasattr(v, 'dtype')}
  at = [0]

  def take(shape):
    n = int(np.prod(shape))
    out = mine[at[0]:at[0] + n].reshape(shape)
    at[0] += n
    return out

  def sprites(n):
    pairs = [(take((10, 10, 3)), take((10, 10))) for _ in range(n)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])

  pairs = []
  pairs.append(('blocks', take((37, 10, 10, 3)), t['full_map_block_textures'][:, :10, :10]))
  pairs.append(('blocks in the inventory', take((37, 8, 8, 3)), t['smaller_block_textures']))
  rgb, alpha = sprites(5)
  items = t['full_map_item_textures'][:, :10, :10]
  pairs += [('items', rgb[1:], items[1:, :, :, :3]), ('items\' alpha', alpha[1:], items[1:, :, :, 3])]
  rgb, alpha = sprites(5)
  pairs += [('the player', rgb, t['full_map_player_textures'][:, 40:50, 50:60]),
            ('the player\'s alpha', alpha, t['full_map_player_textures_alpha'][:, 40:50, 50:60, 0])]
  for name, n in (('melee_mob', 8), ('passive_mob', 3), ('ranged_mob', 8), ('projectile', 8)):
    rgb, alpha = sprites(n)
    pairs += [(name, rgb, t[name + '_textures']),
              (name + ' alpha', alpha, t[name + '_texture_alphas'][..., 0])]
  icons = take((38, 8, 8, 3))
  for i, name in enumerate(['health', 'hunger', 'thirst', 'energy', 'mana', 'sapling', 'torch_inv',
                            None, 'book', 'fireball_inv', 'iceball_inv', 'xp', 'dex', 'str',
                            'int']):
    if name:
      pairs.append((name, icons[i], t[name + '_texture']))
  pairs += [('bow', icons[7], t['bow_textures'][1]),
            ('arrow', icons[15], t['player_projectile_textures'][0]),
            ('pickaxes', icons[16:20], t['pickaxe_textures'][1:]),
            ('swords', icons[20:24], t['sword_textures'][1:]),
            ('armour', icons[24:32].reshape(2, 4, 8, 8, 3), t['armour_textures'][1:]),
            ('potions', icons[32:38], t['potion_textures'])]
  overlays = take((12, 8, 8, 4))
  pairs += [('sword enchantments', overlays[0:2], t['sword_enchantment_textures'][1:]),
            ('arrow enchantments', overlays[2:4], t['arrow_enchantment_textures'][1:]),
            ('armour enchantments', overlays[4:].reshape(2, 4, 8, 8, 4),
             t['armour_enchantment_textures'][1:])]
  digits, digit_alpha, zero, zero_alpha = take((10, 4, 4, 3)), take((10, 4, 4)), take((4, 4, 3)), \
      take((4, 4))
  pairs += [('digits', digits, t['number_textures']),
            ('digits\' alpha', digit_alpha, t['number_textures_alpha'][..., 0]),
            ('0', zero, t['number_textures_with_zero'][0]),
            ('0\'s alpha', zero_alpha, t['number_textures_alpha_with_zero'][0, ..., 0]),
            ('night noise', take((90, 110)), t['night_noise_intensity_texture'][..., 0])]
  if at[0] != mine.size:
    print(f'{mine.size} values from the program, {at[0]} expected')
    return 1
  wrong = [name for name, a, b in pairs if a.shape != b.shape or (a != b).any()]
  if wrong:
    print(f'{len(wrong)} of {len(pairs)} kinds of texture differ from Craftax\'s: {", ".join(wrong)}')
    return 1
  print(f'{len(pairs)} kinds of texture, {at[0]} values, equal to Craftax\'s')
  return 0


def main(argv):
  if argv == ['--assets']:
    print(assets())
    return 0
  if len(argv) >= 4 and argv[0] == '--record':
    return record(argv[1], argv[2], argv[3:])
  if len(argv) == 2 and argv[0] == '--textures':
    return compare_textures(argv[1])
  if len(argv) >= 3 and argv[0] == '--compare':
    return compare(argv[1], argv[2:])
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
