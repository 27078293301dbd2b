"""Craftax's (the full game's) episodes, as JAX plays them, for the C step
(lib/game/cx_game.c) to be compared with.

The schedule of a seed S: key = PRNGKey(S); key, k = split(key); state =
jax.jit(env.reset)(k)[1]; then for every step n = 1, 2, ...: key, k =
split(key); state, reward, done = jax.jit(env.step)(k, state, action),
env being make_craftax_env_from_name('Craftax-Symbolic-v1',
auto_reset=True) with its default parameters, one env per call.  The
step that ends an episode returns the first state of the next one.

Actions of seed S: 'random' takes element n of randint(split(PRNGKey(S),
3)[2], (STEPS,), 0, 43) as the action of step n + 1; 'moves' the same
draw over 0..5 (NOOP, the four moves, DO), episodes that stay with the
simplest actions.

The state's words are craftax_full_worlds.fields' (every leaf of
EnvState in JAX's order, each value one 32-bit word).

    craftax_full_steps.py --record KIND STEPS OUT.gz S [S ...]
        writes every step of the seeds, gzip-compressed, little-endian
        uint32 words: for each step n = 0 (the reset) .. STEPS the seed,
        n, the action (0xffffffff at the reset), the step's key k (two
        words), the reward's float32 bits, done, then the state's words
    craftax_full_steps.py --record-crafted STEPS OUT.gz S [S ...]
        the same from a crafted first state of each seed (crafted(): the
        world of seed S with the player on floor S mod 9, on the
        overworld's ladder down or another floor's ladder up, the floor
        cleared, a crafting table, a furnace and both enchantment tables
        around it, every item, potion and book, experience, attributes,
        mana, and vitals low), random actions; its step 0
        has the action word 0xfffffffe, and C starts from its words
    craftax_full_steps.py --record-boss STEPS OUT.gz S [S ...]
        the same from crafted first states on the boss floor, beside the
        necromancer and facing it, the floor's creatures gone, no wave
        to come, its progress drawn from 0..7; the actions DO (seven in
        ten, drawn by numpy's default_rng(S)) or the random ones
    craftax_full_steps.py --episode-lines FILE.gz
        a line a step: 'S N ACTION REWARD DONE CRC', REWARD the float32
        bits in hex, CRC the CRC-32 of all the state's words in hex (what
        a saved state of crafter-state(5) holds after its header)
    craftax_full_steps.py --record-cases STEPS OUT.gz S [S ...]
        the same from first states made for the rarer parts of the step,
        case S mod 5 on floor (S div 5) mod 9 (arena(): the player in a
        cleared square, the tables on its corners, the floor's creatures
        replaced by new ones around the player, their health drawn):
        0 'fight', a diamond sword, enchantments and attributes drawn
        (on the fire and ice floors diamond armour enchanted against
        the floor's element too), DO 55 steps in a hundred, moves 20,
        the rest random; 1 'shoot',
        a bow, arrows, mana and both spells, the bow's enchantment
        drawn, creatures in the line the player faces, arrows, fireballs,
        iceballs and enchanting the bow most of the time; 2 'boss end',
        the boss state of --record-boss one or two hits from beaten,
        every step the game's step alone (craftax_step as
        jax.jit(env.step_env) computes it with the step's key k split
        once, split(k)[0], and no reset: the action word has 0x100
        added), so the states after the boss is beaten are seen; 3
        'plants', on the overworld, ten growing plants around the player
        their ages drawn from 0..599, saplings, NOOP, DO and PLACE_PLANT
        most of the time; 4 'time limit', the timestep drawn from
        99,990..99,999, random actions, through the reset at 100,000
    craftax_full_steps.py --hashes FILE.gz
        the golden lines of such a file, one a step: 'S N ACTION REWARD
        DONE H1 .. H85', REWARD the float32 bits in hex, Hk the CRC-32
        (zlib's) of field k's words, in hex
"""

import gzip
import os
import sys
import zlib

os.environ.setdefault('JAX_PLATFORMS', 'cpu')
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import craftax_full_worlds as worlds  # noqa: E402

ACTIONS = {'random': 43, 'moves': 6}


def actions(seed, steps, kind):
  key = jax.random.split(jax.random.PRNGKey(seed), 3)[2]
  return [int(a) for a in np.asarray(jax.random.randint(key, (steps,), 0, ACTIONS[kind]))]


def words(state):
  return np.concatenate([w.astype(np.uint32) for _, w in worlds.fields(state)])


def crafted(state, seed, floor=None):
  """A first state changed so that random actions reach crafting, placing,
  potions, books, spells, enchanting, levelling and the ladders (on floor
  S mod 9 unless one is named)."""
  import jax.numpy as jnp
  rng = np.random.default_rng(seed)
  floor = seed % 9 if floor is None else floor
  ladders = state.down_ladders if floor == 0 else state.up_ladders
  r, c = (int(v) for v in np.asarray(ladders[floor]))
  level_map = state.map[floor]
  for (dr, dc), block in (((0, 1), 11), ((1, 0), 12), ((-1, 0), 30), ((0, -1), 31)):
    if 0 <= r + dr < 48 and 0 <= c + dc < 48:
      level_map = level_map.at[r + dr, c + dc].set(block)
  inv = state.inventory.replace(
      wood=jnp.int32(rng.integers(0, 30)), stone=jnp.int32(rng.integers(0, 30)),
      coal=jnp.int32(rng.integers(0, 10)), iron=jnp.int32(rng.integers(0, 10)),
      diamond=jnp.int32(rng.integers(0, 10)), sapling=jnp.int32(rng.integers(0, 5)),
      pickaxe=jnp.int32(rng.integers(0, 5)), sword=jnp.int32(rng.integers(0, 5)),
      bow=jnp.int32(rng.integers(0, 2)), arrows=jnp.int32(rng.integers(0, 20)),
      armour=jnp.asarray(rng.integers(0, 3, 4), dtype=jnp.int32),
      torches=jnp.int32(rng.integers(0, 20)), ruby=jnp.int32(rng.integers(0, 6)),
      sapphire=jnp.int32(rng.integers(0, 6)),
      potions=jnp.asarray(rng.integers(0, 4, 6), dtype=jnp.int32),
      books=jnp.int32(rng.integers(0, 3)))
  return state.replace(
      map=state.map.at[floor].set(level_map),
      player_position=jnp.asarray([r, c], dtype=jnp.int32),
      player_level=jnp.int32(floor),
      player_dexterity=jnp.int32(rng.integers(1, 6)),
      player_strength=jnp.int32(rng.integers(1, 6)),
      player_intelligence=jnp.int32(rng.integers(1, 6)),
      monsters_killed=state.monsters_killed.at[floor].set(8).at[min(floor + 1, 8)].set(
          int(rng.integers(0, 10))),
      inventory=inv,
      player_xp=jnp.int32(rng.integers(0, 6)),
      player_mana=jnp.int32(rng.integers(0, 20)),
      player_health=jnp.float32(rng.integers(3, 9)),
      player_food=jnp.int32(rng.integers(0, 9)),
      player_drink=jnp.int32(rng.integers(0, 9)),
      player_energy=jnp.int32(rng.integers(0, 9)),
      learned_spells=jnp.asarray(rng.integers(0, 2, 2), dtype=bool),
      sword_enchantment=jnp.int32(rng.integers(0, 3)),
      bow_enchantment=jnp.int32(rng.integers(0, 3)),
      armour_enchantments=jnp.asarray(rng.integers(0, 3, 4), dtype=jnp.int32))


def boss(state, seed):
  """A first state on the boss floor beside the necromancer, facing it,
  the floor's creatures gone and no wave to come: DO damages it."""
  import jax.numpy as jnp
  rng = np.random.default_rng(seed)
  state = crafted(state, seed)
  floor_map = np.asarray(state.map[8])
  moves = {1: (0, -1), 2: (0, 1), 3: (-1, 0), 4: (1, 0)}
  for r, c in zip(*np.nonzero(floor_map == 32)):
    for direction, (dr, dc) in moves.items():
      pr, pc = r - dr, c - dc
      if 0 <= pr < 48 and 0 <= pc < 48 and floor_map[pr, pc] in (2, 7, 27):
        melee = state.melee_mobs.replace(mask=state.melee_mobs.mask.at[8].set(False))
        ranged = state.ranged_mobs.replace(mask=state.ranged_mobs.mask.at[8].set(False))
        return state.replace(
            player_level=jnp.int32(8),
            player_position=jnp.asarray([pr, pc], dtype=jnp.int32),
            player_direction=jnp.int32(direction),
            player_health=jnp.float32(9.0),
            melee_mobs=melee, ranged_mobs=ranged,
            mob_map=state.mob_map.at[8].set(False),
            boss_progress=jnp.int32(rng.integers(0, 8)),
            boss_timesteps_to_spawn_this_round=jnp.int32(0))
  raise SystemExit(f'seed {seed}: no necromancer with room beside it')


CASES = ('fight', 'shoot', 'boss end', 'plants', 'time limit')
GAME_STEP = 0x100  # the action word's mark of the game's step alone


def mobs_set(mobs, floor, slot, position, health, type_id):
  """mobs with slot `slot` of floor `floor` alive at position."""
  import jax.numpy as jnp
  return mobs.replace(
      position=mobs.position.at[floor, slot].set(jnp.asarray(position, dtype=jnp.int32)),
      health=mobs.health.at[floor, slot].set(jnp.float32(health)),
      mask=mobs.mask.at[floor, slot].set(True),
      attack_cooldown=mobs.attack_cooldown.at[floor, slot].set(0),
      type_id=mobs.type_id.at[floor, slot].set(type_id))


def arena(state, seed, floor, block=7):
  """crafted() on `floor`, the player in the middle of a square of `block`
  (path) of side 9 facing right, the crafting table, the furnace and both
  enchantment tables on the square's inner corners, the floor's creatures
  and projectiles gone."""
  import jax.numpy as jnp
  state = crafted(state, seed, floor)
  r, c = (int(v) for v in np.asarray(state.player_position))
  r, c = min(max(r, 5), 42), min(max(c, 5), 38)
  level_map = np.asarray(state.map[floor]).copy()
  level_map[r - 4:r + 5, c - 4:c + 5] = block
  for (dr, dc), table in (((-1, -1), 11), ((-1, 1), 12), ((1, -1), 30), ((1, 1), 31)):
    level_map[r + dr, c + dc] = table
  def cleared(mobs):
    return mobs.replace(mask=mobs.mask.at[floor].set(False))
  return state.replace(
      map=state.map.at[floor].set(jnp.asarray(level_map)),
      player_position=jnp.asarray([r, c], dtype=jnp.int32),
      player_direction=jnp.int32(2),
      mob_map=state.mob_map.at[floor].set(False),
      melee_mobs=cleared(state.melee_mobs), passive_mobs=cleared(state.passive_mobs),
      ranged_mobs=cleared(state.ranged_mobs), mob_projectiles=cleared(state.mob_projectiles),
      player_projectiles=cleared(state.player_projectiles))


# FLOOR_MOB_MAPPING and MOB_TYPE_HEALTH_MAPPING's full health
FLOOR_MOBS = ((0, 0, 0), (2, 2, 2), (1, 1, 1), (2, 3, 3), (2, 4, 4), (1, 5, 5), (1, 6, 6),
              (1, 7, 7), (0, 0, 0))
FULL_HEALTH = ((3, 5, 3), (4, 7, 5), (6, 9, 6), (8, 11, 8), (0, 12, 12), (0, 20, 4),
               (0, 20, 14), (0, 24, 16))


def with_creatures(state, seed, floor, places):
  """state with creatures of the floor's types at places: (class, slot,
  (row, column) from the player), their health drawn up to full."""
  import jax.numpy as jnp
  rng = np.random.default_rng(seed + 1000)
  r, c = (int(v) for v in np.asarray(state.player_position))
  mob_map = np.asarray(state.mob_map[floor]).copy()
  names = ('passive_mobs', 'melee_mobs', 'ranged_mobs')
  changed = {}
  for kind, slot, (dr, dc) in places:
    type_id = FLOOR_MOBS[floor][kind]
    full = max(FULL_HEALTH[type_id][kind], 1)
    health = np.float32(rng.uniform(0.5, 1.0) * full)
    mobs = changed.get(names[kind], getattr(state, names[kind]))
    changed[names[kind]] = mobs_set(mobs, floor, slot, (r + dr, c + dc), health, type_id)
    mob_map[r + dr, c + dc] = True
  return state.replace(mob_map=state.mob_map.at[floor].set(jnp.asarray(mob_map)), **changed)


def case_state(state, seed):
  """The first state of case S mod 5 (CASES) on floor (S div 5) mod 9."""
  import jax.numpy as jnp
  rng = np.random.default_rng(seed + 2000)
  case, floor = CASES[seed % 5], (seed // 5) % 9
  if case in ('fight', 'shoot'):
    state = arena(state, seed, floor)
    if case == 'fight':
      places = ((1, 0, (0, 1)), (1, 1, (1, 0)), (1, 2, (0, 3)), (0, 0, (-1, 0)),
                (2, 0, (0, 4)), (2, 1, (-3, 2)))
    else:
      places = ((1, 0, (0, 2)), (1, 1, (0, 3)), (1, 2, (1, 0)), (0, 0, (-1, 0)),
                (2, 0, (0, 4)), (2, 1, (-3, 2)))
    state = with_creatures(state, seed, floor, places)
    inv = state.inventory.replace(sword=jnp.int32(4), bow=jnp.int32(1), arrows=jnp.int32(40),
                                  ruby=jnp.int32(5), sapphire=jnp.int32(5))
    if case == 'fight' and floor in (6, 7):  # lives long enough to strike their creatures
      inv = inv.replace(armour=jnp.asarray([2, 2, 2, 2], dtype=jnp.int32))
      state = state.replace(armour_enchantments=jnp.asarray([floor - 5] * 4, dtype=jnp.int32))
    intelligence = int(rng.integers(1, 6))
    return state.replace(
        inventory=inv, player_health=jnp.float32(9.0),
        player_strength=jnp.int32(rng.integers(1, 6)),
        player_dexterity=jnp.int32(rng.integers(1, 6)),
        player_intelligence=jnp.int32(intelligence),
        player_mana=jnp.int32(6 + 3 * intelligence),
        learned_spells=jnp.asarray([True, True]),
        sword_enchantment=jnp.int32(rng.integers(0, 3)),
        bow_enchantment=jnp.int32(rng.integers(0, 3)))
  if case == 'boss end':
    state = boss(state, seed)
    return state.replace(boss_progress=jnp.int32(7 - seed // 5 % 2))
  if case == 'plants':
    state = arena(state, seed, 0, block=2)
    r, c = (int(v) for v in np.asarray(state.player_position))
    cells = [(0, 1), (0, -1), (-1, 0), (-2, -2), (-2, 2), (2, -2), (2, 2), (-3, 0), (3, 0),
             (0, 3)]
    ages = rng.integers(0, 600, len(cells))
    ages[0] = rng.integers(570, 600)
    level_map = state.map[0]
    for dr, dc in cells:
      level_map = level_map.at[r + dr, c + dc].set(15)
    return state.replace(
        map=state.map.at[0].set(level_map),
        growing_plants_positions=jnp.asarray([(r + dr, c + dc) for dr, dc in cells],
                                             dtype=jnp.int32),
        growing_plants_age=jnp.asarray(ages, dtype=jnp.int32),
        growing_plants_mask=jnp.ones(len(cells), dtype=bool),
        inventory=state.inventory.replace(sapling=jnp.int32(9)),
        player_health=jnp.float32(9.0), player_food=jnp.int32(3))
  state = crafted(state, seed, floor)
  return state.replace(timestep=jnp.int32(99990 + rng.integers(0, 10)))


def case_actions(seed, steps):
  """The actions of case S mod 5: random ones mixed with the case's own."""
  rng = np.random.default_rng(seed + 3000)
  chosen = actions(seed, steps, 'random')
  case = CASES[seed % 5]
  mix = {'fight': ((5, 55), (1, 5), (2, 5), (3, 5), (4, 5)),
         'shoot': ((24, 30), (26, 15), (27, 15), (42, 5), (5, 5), (2, 5)),
         'boss end': ((5, 70),),
         'plants': ((0, 40), (5, 20), (10, 10), (1, 3), (2, 3), (3, 2), (4, 2)),
         'time limit': ()}[case]
  out = []
  for a in chosen:
    u, at = rng.integers(0, 100), 0
    for action, share in mix:
      if at <= u < at + share:
        a = action
      at += share
    out.append(a)
  return out


def record(kind, steps, out, seeds, craft=False):
  step = jax.jit(worlds.ENV.step)
  # the parameters are the step's constants, as in env.step
  game_step = jax.jit(lambda k, s, a: worlds.ENV.step_env(k, s, a, worlds.ENV.default_params))
  with gzip.open(out, 'wb', compresslevel=6) as f:
    for seed in seeds:
      key = jax.random.PRNGKey(seed)
      key, k = jax.random.split(key)
      state = worlds.RESET(k)[1]
      if craft == 'boss':
        state = boss(state, seed)
      elif craft == 'cases':
        state = case_state(state, seed)
      elif craft:
        state = crafted(state, seed)
      kw = np.asarray(k, dtype=np.uint32)
      head = np.array([seed, 0, 0xfffffffe if craft else 0xffffffff, kw[0], kw[1], 0, 0],
                      dtype=np.uint32)
      f.write(head.astype('<u4').tobytes() + words(state).astype('<u4').tobytes())
      chosen = actions(seed, steps, kind)
      if craft == 'boss':  # mostly DO, the rest random
        strike = np.random.default_rng(seed).random(steps) < 0.7
        chosen = [5 if hit else a for hit, a in zip(strike, chosen)]
      alone = craft == 'cases' and CASES[seed % 5] == 'boss end'
      if craft == 'cases':
        chosen = case_actions(seed, steps)
      for n in range(1, steps + 1):
        key, k = jax.random.split(key)
        if alone:
          _, state, reward, done, _ = game_step(jax.random.split(k)[0], state, chosen[n - 1])
        else:
          _, state, reward, done, _ = step(k, state, chosen[n - 1])
        kw = np.asarray(k, dtype=np.uint32)
        rbits = int(np.asarray(reward, dtype=np.float32).reshape(1).view(np.uint32)[0])
        head = np.array([seed, n, chosen[n - 1] + (GAME_STEP if alone else 0), kw[0], kw[1],
                         rbits, int(done)],
                        dtype=np.uint32)
        f.write(head.astype('<u4').tobytes() + words(state).astype('<u4').tobytes())
      sys.stderr.write(f'seed {seed}: {steps} steps\n')


def layout():
  state = worlds.first_state(0)
  return [(name, len(w)) for name, w in worlds.fields(state)]


def hashes(path):
  fields = layout()
  total = sum(n for _, n in fields)
  with gzip.open(path, 'rb') as f:
    data = np.frombuffer(f.read(), dtype='<u4')
  per = 7 + total
  for at in range(0, len(data), per):
    head, body = data[at:at + 7], data[at + 7:at + per]
    out, start = [], 0
    for _, n in fields:
      out.append('%08x' % (zlib.crc32(body[start:start + n].tobytes()) & 0xffffffff))
      start += n
    action = {0xffffffff: -1, 0xfffffffe: -2}.get(int(head[2]), int(head[2]))
    print(head[0], head[1], action, '%08x' % head[5], head[6], ' '.join(out))


def episode_lines(path):
  """One line a step of a recording: 'S N ACTION REWARD DONE CRC', CRC the
  CRC-32 of all the state's words (little-endian), as a saved state of
  crafter-state(5) holds them."""
  fields = layout()
  total = sum(n for _, n in fields)
  with gzip.open(path, 'rb') as f:
    data = np.frombuffer(f.read(), dtype='<u4')
  per = 7 + total
  for at in range(0, len(data), per):
    head, body = data[at:at + 7], data[at + 7:at + per]
    action = {0xffffffff: -1, 0xfffffffe: -2}.get(int(head[2]), int(head[2]))
    print(head[0], head[1], action, '%08x' % head[5], head[6],
          '%08x' % (zlib.crc32(body.tobytes()) & 0xffffffff))


def main(argv):
  if len(argv) >= 5 and argv[0] == '--record' and argv[1] in ACTIONS:
    record(argv[1], int(argv[2]), argv[3], [int(s) for s in argv[4:]])
    return 0
  if len(argv) >= 4 and argv[0] == '--record-crafted':
    record('random', int(argv[1]), argv[2], [int(s) for s in argv[3:]], craft=True)
    return 0
  if len(argv) >= 4 and argv[0] == '--record-boss':
    record('random', int(argv[1]), argv[2], [int(s) for s in argv[3:]], craft='boss')
    return 0
  if len(argv) == 2 and argv[0] == '--episode-lines':
    episode_lines(argv[1])
    return 0
  if len(argv) >= 4 and argv[0] == '--record-cases':
    record('random', int(argv[1]), argv[2], [int(s) for s in argv[3:]], craft='cases')
    return 0
  if len(argv) == 2 and argv[0] == '--hashes':
    hashes(argv[1])
    return 0
  sys.stderr.write(__doc__)
  return 2


if __name__ == '__main__':
  sys.exit(main(sys.argv[1:]))
