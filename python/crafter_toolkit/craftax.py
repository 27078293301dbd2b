"""Craftax-Classic's and Craftax's states between JAX and the toolkit.

crafter-step saves a Craftax-Classic env's state as format version 2 of
crafter-state(5): a 56-byte header (the game's number, the seed, the
episode counter, the key the seed schedule carries to the next step), then
every field of craftax 1.6.1's EnvState in its order as 8343 32-bit words,
then a CRC-32.  Craftax's (the full game's, game number 2) states are the
same format with its EnvState's 84,033 words.  This module reads and
writes those bytes, for either game:

    to_arrays(state)          the fields as numpy arrays, JAX's shapes and
                              dtypes, named as below
    from_arrays(arrays, key=None, seed=0, episode=1)
                              the bytes of such arrays (the game told by
                              the names)
    header(state)             {"seed", "episode", "key", "game"} of the
                              bytes
    schedule_key(state)       the key the schedule carries, uint32 (2,)
    from_jax(state, key=None, seed=0, episode=1)
                              the bytes of a JAX EnvState of either game
    to_jax(state)             a JAX EnvState of the bytes, of their game

A JAX user moves a game to the toolkit and back:

    saved = from_jax(state, key)      # key: the one the loop carries
    env.load_state(saved)             # CraftaxClassicEnv plays on from it
    ...
    saved = env.save_state()
    state, key = to_jax(saved), schedule_key(saved)

to_arrays, from_arrays, header and schedule_key need only numpy, and so
does from_jax (it imports jax only to read a typed key); to_jax imports
jax and craftax when called.  Importing this module imports neither.

The fields, in EnvState's order (Inventory's and Mobs' fields named
inventory.wood, zombies.position, ...): FIELDS for Craftax-Classic,
CRAFTAX_FIELDS for Craftax, (name, shape, dtype) each.  Each array is
flattened in row-major order, one word a value: integers and booleans as
their values, float32 numbers as their bits.  Craftax's ranged creatures
have two slots a floor (ranged_mobs.position (9, 2, 2), ...), the other
kinds three, as in JAX's state.
"""

import dataclasses
import operator
import struct
import zlib

import numpy as np

MAGIC = b"CRAFTSTA"
VERSION = 2  # of crafter-state(5): the states of the games other than Crafter
CRAFTER_VERSION = 1  # Crafter's states
GAME = 1  # craftax-classic's number (crafter-games(7))
GAME_NAME = "craftax-classic"
HEADER = struct.Struct("<8sIIQqqIIII")  # magic, version, game, size, seed, episode, key, words, 0
WORDS = 8343
SIZE = HEADER.size + 4 * WORDS + 4  # 33432
SEED_LIMIT = 2 ** 62  # seeds from -2**62 to 2**62 - 1
EPISODE_MAX = 2 ** 31 - 1
MAP = 64
INVENTORY = ("wood", "stone", "coal", "iron", "diamond", "sapling", "wood_pickaxe",
             "stone_pickaxe", "iron_pickaxe", "wood_sword", "stone_sword", "iron_sword")
MOBS = (("zombies", 3), ("cows", 3), ("skeletons", 2), ("arrows", 3))
PLANTS = 10
ACHIEVEMENTS = 22


def _fields():
    int32, bool_, float32 = np.dtype("int32"), np.dtype("bool"), np.dtype("float32")
    fields = [("map", (MAP, MAP), int32), ("mob_map", (MAP, MAP), bool_),
              ("player_position", (2,), int32), ("player_direction", (), int32)]
    fields += [("player_" + name, (), int32) for name in ("health", "food", "drink", "energy")]
    fields += [("is_sleeping", (), bool_)]
    fields += [("player_" + name, (), float32)
               for name in ("recover", "hunger", "thirst", "fatigue")]
    fields += [("inventory." + name, (), int32) for name in INVENTORY]
    for kind, slots in MOBS:
        fields += [(kind + ".position", (slots, 2), int32), (kind + ".health", (slots,), int32),
                   (kind + ".mask", (slots,), bool_), (kind + ".attack_cooldown", (slots,), int32)]
    fields += [("arrow_directions", (3, 2), int32),
               ("growing_plants_positions", (PLANTS, 2), int32),
               ("growing_plants_age", (PLANTS,), int32),
               ("growing_plants_mask", (PLANTS,), bool_),
               ("light_level", (), float32), ("achievements", (ACHIEVEMENTS,), bool_),
               ("state_rng", (2,), np.dtype("uint32")), ("timestep", (), int32)]
    return tuple(fields)


# Every field of craftax 1.6.1's EnvState of Craftax-Classic, in its order.
FIELDS = _fields()
NAMES = tuple(name for name, _, _ in FIELDS)
assert sum(int(np.prod(shape)) for _, shape, _ in FIELDS) == WORDS
# The fields JAX's own states hold weakly typed (craftax computes them
# from Python numbers): to_jax makes them so too, so that env.step, jitted
# for JAX's states, takes its states as they are, without compiling again.
WEAK = frozenset(["map", "player_direction"]
                 + ["player_" + name for name in ("health", "food", "drink", "energy", "recover",
                                                  "hunger", "thirst", "fatigue")]
                 + ["inventory." + name for name in INVENTORY] + ["light_level", "timestep"])
# EnvState's one field that is not state: the fractal noise's angles,
# left at (None, None, None, None) by Craftax-Classic.
UNUSED = "fractal_noise_angles"
RIPE_PLANT = 16  # the last block type (BlockType: 0 invalid .. 16 ripe plant)
LARGEST = 2 ** 30  # the largest size a count or a hidden counter may have


# Craftax (the full game): its number, size and fields.
CRAFTAX_GAME = 2  # craftax's number (crafter-games(7))
CRAFTAX_GAME_NAME = "craftax"
CRAFTAX_WORDS = 84033
CRAFTAX_SIZE = HEADER.size + 4 * CRAFTAX_WORDS + 4  # 336192
CRAFTAX_MAP = 48
CRAFTAX_LEVELS = 9
CRAFTAX_INVENTORY = (("wood", ()), ("stone", ()), ("coal", ()), ("iron", ()), ("diamond", ()),
                     ("sapling", ()), ("pickaxe", ()), ("sword", ()), ("bow", ()),
                     ("arrows", ()), ("armour", (4,)), ("torches", ()), ("ruby", ()),
                     ("sapphire", ()), ("potions", (6,)), ("books", ()))
# The kinds of creatures and projectiles: slots a floor, and how many
# types (type_id 0 to types - 1).
CRAFTAX_MOBS = (("melee_mobs", 3, 8), ("passive_mobs", 3, 3), ("ranged_mobs", 2, 8),
                ("mob_projectiles", 3, 8), ("player_projectiles", 3, 8))
CRAFTAX_ACHIEVEMENTS = 67


def _craftax_fields():
    int32, bool_, float32 = np.dtype("int32"), np.dtype("bool"), np.dtype("float32")
    levels, side = CRAFTAX_LEVELS, CRAFTAX_MAP
    fields = [("map", (levels, side, side), int32), ("item_map", (levels, side, side), int32),
              ("mob_map", (levels, side, side), bool_),
              ("light_map", (levels, side, side), float32),
              ("down_ladders", (levels, 2), int32), ("up_ladders", (levels, 2), int32),
              ("chests_opened", (levels,), bool_), ("monsters_killed", (levels,), int32),
              ("player_position", (2,), int32), ("player_level", (), int32),
              ("player_direction", (), int32), ("player_health", (), float32)]
    fields += [("player_" + name, (), int32) for name in ("food", "drink", "energy", "mana")]
    fields += [("is_sleeping", (), bool_), ("is_resting", (), bool_)]
    fields += [("player_" + name, (), float32)
               for name in ("recover", "hunger", "thirst", "fatigue", "recover_mana")]
    fields += [("player_" + name, (), int32)
               for name in ("xp", "dexterity", "strength", "intelligence")]
    fields += [("inventory." + name, shape, int32) for name, shape in CRAFTAX_INVENTORY]

    def mobs(kind, slots):
        return [(kind + ".position", (levels, slots, 2), int32),
                (kind + ".health", (levels, slots), float32),
                (kind + ".mask", (levels, slots), bool_),
                (kind + ".attack_cooldown", (levels, slots), int32),
                (kind + ".type_id", (levels, slots), int32)]

    for kind, slots, _ in CRAFTAX_MOBS[:4]:
        fields += mobs(kind, slots)
    fields += [("mob_projectile_directions", (levels, 3, 2), int32)]
    fields += mobs("player_projectiles", 3)
    fields += [("player_projectile_directions", (levels, 3, 2), int32),
               ("growing_plants_positions", (PLANTS, 2), int32),
               ("growing_plants_age", (PLANTS,), int32),
               ("growing_plants_mask", (PLANTS,), bool_),
               ("potion_mapping", (6,), int32), ("learned_spells", (2,), bool_),
               ("sword_enchantment", (), int32), ("bow_enchantment", (), int32),
               ("armour_enchantments", (4,), int32), ("boss_progress", (), int32),
               ("boss_timesteps_to_spawn_this_round", (), int32),
               ("light_level", (), float32), ("achievements", (CRAFTAX_ACHIEVEMENTS,), bool_),
               ("state_rng", (2,), np.dtype("uint32")), ("timestep", (), int32)]
    return tuple(fields)


# Every field of craftax 1.6.1's EnvState of Craftax, in its order.
CRAFTAX_FIELDS = _craftax_fields()
CRAFTAX_NAMES = tuple(name for name, _, _ in CRAFTAX_FIELDS)
assert sum(int(np.prod(shape)) for _, shape, _ in CRAFTAX_FIELDS) == CRAFTAX_WORDS
# JAX's own Craftax states hold no field weakly typed.
CRAFTAX_WEAK = frozenset()
NECROMANCER_VULNERABLE = 36  # Craftax's last block type
LADDER_DOWN_BLOCKED = 4  # Craftax's last item type


class _Game:
    """What differs between the two games' states."""

    def __init__(self, number, name, title, fields, words, weak, limits):
        self.number, self.name, self.title = number, name, title
        self.fields, self.words, self.weak, self.limits = fields, words, weak, limits
        self.names = tuple(field for field, _, _ in fields)
        self.size = HEADER.size + 4 * words + 4


def _craftax_limits(name):
    """(low, high, what) for an integer field of Craftax's state, as
    crafter_cx_state_from_words checks it."""
    plain = {"map": (0, NECROMANCER_VULNERABLE, "no block type (0 to 36)"),
             "item_map": (0, LADDER_DOWN_BLOCKED, "no item type (0 to 4)"),
             "player_level": (0, CRAFTAX_LEVELS - 1, "no floor (0 to 8)"),
             "player_direction": (0, 4, "not one of the directions 0 to 4"),
             "potion_mapping": (0, 5, "no potion (0 to 5)")}
    if name in plain:
        return plain[name]
    if name in ("down_ladders", "up_ladders", "player_position"):
        return 0, CRAFTAX_MAP - 1, f"off the map (0 to {CRAFTAX_MAP - 1})"
    if name.endswith("_directions"):
        return -1, 1, "not -1, 0 or 1"
    if name.endswith("enchantment") or name == "armour_enchantments":
        return 0, 2, "no enchantment (0 to 2)"
    if name.endswith(".type_id"):
        kind = name.split(".")[0]
        types = {k: t for k, _, t in CRAFTAX_MOBS}[kind]
        said = {"melee_mobs": "melee creature", "passive_mobs": "passive creature",
                "ranged_mobs": "ranged creature"}.get(kind, "projectile")
        return 0, types - 1, f"no {said} type (0 to {types - 1})"
    return -LARGEST, LARGEST, "beyond 2**30 in size"


def _limits(name):
    """(low, high, what) for an integer field's values, as crafter-step's
    loader checks them."""
    if name == "map":
        return 0, RIPE_PLANT, f"no block type (0 to {RIPE_PLANT})"
    if name == "player_position":
        return 0, MAP - 1, f"off the map (0 to {MAP - 1})"
    if name == "player_direction":
        return 0, 4, "not one of the directions 0 to 4"
    if name == "arrow_directions":
        return -1, 1, "not -1, 0 or 1"
    return -LARGEST, LARGEST, "beyond 2**30 in size"


CLASSIC = _Game(GAME, GAME_NAME, "Craftax-Classic", FIELDS, WORDS, WEAK, _limits)
CRAFTAX = _Game(CRAFTAX_GAME, CRAFTAX_GAME_NAME, "Craftax", CRAFTAX_FIELDS, CRAFTAX_WORDS,
                CRAFTAX_WEAK, _craftax_limits)
_GAMES = {CLASSIC.number: CLASSIC, CRAFTAX.number: CRAFTAX}


def _game_of_names(names):
    """The game whose EnvState's field names are most like names (all of
    them for a state of that game); Craftax-Classic on a tie."""
    names = set(names)
    return max((CLASSIC, CRAFTAX), key=lambda game: (len(names & set(game.names)),
                                                     game is CLASSIC))


def _check_values(arrays, whose="a state", game=CLASSIC):
    """ValueError naming the first value crafter-step's loader would
    refuse (field and flat index), as it names it."""
    for name, _, dtype in game.fields:
        values = arrays[name].reshape(-1)
        if dtype == np.float32:
            bad = ~(np.isfinite(values) & (np.abs(values) <= LARGEST))
            what = "not a finite number within 2**30"
        elif dtype == np.int32:
            low, high, what = game.limits(name)
            bad = (values < low) | (values > high)
        elif dtype == np.bool_:
            if values.dtype == np.bool_:
                continue
            bad, what = values > 1, "neither 0 nor 1"  # words still to become booleans
        else:
            continue  # the key: any words
        if bad.any():
            index = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{whose} whose {name}[{index}] holds {values[index]}, {what}")
    if game is CRAFTAX and sorted(arrays["potion_mapping"].tolist()) != list(range(6)):
        raise ValueError(f"{whose} whose potion_mapping holds a potion twice: it is no "
                         f"permutation of 0 to 5")


# -- bytes <-> numpy ---------------------------------------------------------


def _as_bytes(state):
    try:
        return memoryview(state).cast("B").tobytes()
    except TypeError:
        raise TypeError(f"a saved state is bytes (save_state(), from_jax()), "
                        f"not {type(state).__name__}") from None


def _read(state):
    """(header fields, words, game) of a Craftax-Classic or Craftax state,
    or ValueError saying what it is instead, as crafter-step's loader says
    it."""
    data = _as_bytes(state)
    if data[:8] != MAGIC:
        raise ValueError(f"not a saved state (it does not begin with {MAGIC.decode()})")
    if len(data) < 16:
        raise ValueError(f"a saved state cut short: {len(data)} bytes")
    version, number = struct.unpack_from("<II", data, 8)
    if version == CRAFTER_VERSION:
        raise ValueError(f"a state of crafter (format version 1), not of {GAME_NAME}")
    if version != VERSION:
        raise ValueError(f"a state of format version {version}; {GAME_NAME}'s are of version "
                         f"{VERSION} (crafter-state(5))")
    game = _GAMES.get(number)
    if game is None:
        raise ValueError(f"a state of game number {number}, not of {GAME_NAME} ({GAME}) or "
                         f"{CRAFTAX_GAME_NAME} ({CRAFTAX_GAME})")
    if len(data) < HEADER.size + 4:
        raise ValueError(f"a saved state cut short: {len(data)} bytes")
    _, _, _, size, seed, episode, key0, key1, words, reserved = HEADER.unpack_from(data)
    if size != len(data):
        raise ValueError(f"a saved state of {len(data)} bytes that says it has {size}")
    if size != game.size:
        raise ValueError(f"a {game.name} state of {size} bytes; one has {game.size}")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, size - 4)[0]:
        raise ValueError("the saved state is damaged: its checksum does not match")
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise ValueError(f"a saved state whose seed {seed} is out of range")
    if not 1 <= episode <= EPISODE_MAX:
        raise ValueError(f"a saved state whose episode counter {episode} is not 1 to 2**31-1")
    if words != game.words or reserved != 0:
        raise ValueError(f"a saved state that says it has {words} words ({game.name}'s have "
                         f"{game.words}) or whose reserved bytes 52 to 55 are not zero")
    header = {"seed": seed, "episode": episode, "key": np.array([key0, key1], np.uint32),
              "game": game.name}
    return header, np.frombuffer(data, "<u4", game.words, HEADER.size), game


def header(state):
    """{"seed": int, "episode": int, "key": uint32 array (2,), "game":
    "craftax-classic" or "craftax"} of a saved Craftax-Classic or Craftax
    state: the seed and episode counter it says it is of, the key the seed
    schedule carries to the next step (crafter-games(7): the next step
    does key, k = split(key) and steps with k), and the game.  ValueError
    for bytes that are not such a state (Crafter's, damaged, cut short)."""
    return _read(state)[0]


def schedule_key(state):
    """The key a saved Craftax-Classic or Craftax state carries to its
    next step, as a uint32 array (2,): a raw JAX key (jax.random.split
    takes it as is; jax.random.wrap_key_data(key) makes a typed one).  Go
    on in JAX with `key, k = jax.random.split(key)` and `env.step(k,
    to_jax(state), action)`, as crafter-step's next step does."""
    return _read(state)[0]["key"]


def to_arrays(state):
    """The fields of a saved Craftax-Classic or Craftax state (bytes of
    save_state or from_jax) as a dict of numpy arrays of their own, keyed
    by the game's names (NAMES, CRAFTAX_NAMES) in EnvState's order, each
    of JAX's shape and dtype.  ValueError for bytes that are not such a
    state or hold a value crafter-step refuses."""
    _, words, game = _read(state)
    arrays, at = {}, 0
    for name, shape, dtype in game.fields:
        count = int(np.prod(shape))
        chunk = words[at:at + count]
        at += count
        if dtype == np.bool_:
            values = chunk.astype(np.uint32)  # checked, then made booleans
        else:
            values = chunk.view(dtype.newbyteorder("<")).astype(dtype)
        arrays[name] = values.reshape(shape)
    _check_values(arrays, "a saved state", game)
    for name, _, dtype in game.fields:
        if dtype == np.bool_:
            arrays[name] = arrays[name].astype(np.bool_)
    return arrays


def _key_words(key, seed):
    """The two words of a schedule key: key given (a JAX key, typed or raw,
    or two integers), or None: seed's after its reset."""
    if key is None:
        return _after_reset(seed)
    dtype = getattr(key, "dtype", None)
    if dtype is not None and str(dtype).startswith("key<"):  # a typed JAX key
        import jax
        if str(dtype) != "key<fry>":
            raise ValueError(f"a key of {dtype}: the schedule's keys are threefry2x32's, "
                             f"JAX's default (key<fry>)")
        key = jax.random.key_data(key)
    try:
        words = np.asarray(key)
    except Exception:
        words = None
    if words is None or words.dtype.kind not in "iu" or words.shape != (2,):
        shape = getattr(words, "shape", None)
        if words is not None and words.dtype.kind in "iu" and shape[-1:] == (2,):
            raise ValueError(f"one key, shape (2,), not a batch of keys {shape}")
        raise ValueError(f"a key is a JAX PRNG key (jax.random.PRNGKey(S) or "
                         f"jax.random.key(S): two uint32 words) or two integers, not {key!r}")
    if (words < 0).any() or (words > 0xFFFFFFFF).any():
        raise ValueError(f"a key's two words are 0 to 2**32-1, not {words.tolist()}")
    return [int(w) for w in words]


def _threefry2x32(key, x0, x1):
    """threefry2x32 of the counter (x0, x1) under key, JAX's hash."""
    mask = 0xFFFFFFFF
    schedule = (key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDA)
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    a, b = (x0 + schedule[0]) & mask, (x1 + schedule[1]) & mask
    for group in range(1, 6):
        for r in rotations[(group - 1) % 2]:
            a = (a + b) & mask
            b = (((b << r) | (b >> (32 - r))) & mask) ^ a
        a = (a + schedule[group % 3]) & mask
        b = (b + schedule[(group + 1) % 3] + group) & mask
    return [a, b]


def _after_reset(seed):
    """The key seed's schedule carries after its reset: split(PRNGKey(S))[0]
    (PRNGKey(S) is (0, S mod 2**32) with JAX's 32-bit defaults; split's
    i-th key the hash of the counter (0, i))."""
    return _threefry2x32([0, seed & 0xFFFFFFFF], 0, 0)


def _integer(value, name, low, high):
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} is an integer, not {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} is an integer, not {value!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} is an integer from {low} to {high}, not {value}")
    return value


def _array(name, value, shape, dtype, title="Craftax-Classic"):
    """A field's value as an array of its dtype, or ValueError: arrays
    must have the field's dtype and shape; Python's scalars (a bool, int or
    float, as JAX takes them) become the dtype."""
    if isinstance(value, (bool, int, float)) and shape == ():
        if dtype == np.bool_ and not isinstance(value, bool):
            raise ValueError(f"{name} is a bool, not {value!r}")
        if dtype != np.float32 and isinstance(value, float):
            raise ValueError(f"{name} is an integer ({dtype}), not {value!r}")
        if dtype == np.int32 and not -2 ** 31 <= value < 2 ** 31:
            raise ValueError(f"{name}: {value} does not fit int32")
        return np.array(value, dtype)
    try:
        array = np.asarray(value)
    except Exception as error:
        raise ValueError(f"{name}: not an array ({type(value).__name__}: {error})") from None
    if array.shape != shape:
        if array.shape[1:] == shape and array.ndim == len(shape) + 1:
            raise ValueError(f"{name} has shape {array.shape}: a batch of {array.shape[0]} "
                             f"states (vmapped); convert one env's state, e.g. "
                             f"jax.tree.map(lambda x: x[i], state), shape {shape}")
        raise ValueError(f"{name} has shape {array.shape}, {title}'s has {shape}")
    if array.dtype != dtype:
        raise ValueError(f"{name} has dtype {array.dtype}, {title}'s is {dtype}")
    return array


def from_arrays(arrays, key=None, seed=0, episode=1):
    """The bytes of a saved Craftax-Classic or Craftax state
    (crafter-state(5), format version 2) holding arrays: a mapping with
    every name of NAMES, or of CRAFTAX_NAMES (no other), to an array of
    the field's shape and dtype (to_arrays' form); the names tell the
    game.  key, seed and episode as from_jax's.  ValueError for a name
    missing or unknown, a wrong shape or dtype, or a value crafter-step's
    loader refuses (a block type outside 0 to 16 in Craftax-Classic, 0 to
    36 in Craftax, the player off the map, ...), naming the field."""
    try:
        given = set(arrays)
    except TypeError:
        raise TypeError(f"arrays is a mapping of field names to arrays (to_arrays' form), "
                        f"not {type(arrays).__name__}") from None
    game = _game_of_names(given)
    missing = [name for name in game.names if name not in given]
    unknown = sorted(str(name) for name in given - set(game.names))
    if missing or unknown:
        said = []
        if missing:
            said.append("missing " + ", ".join(missing))
        if unknown:
            said.append("unknown " + ", ".join(unknown))
        raise ValueError(f"not the fields of {game.title}'s EnvState: {'; '.join(said)}")
    return _write({name: _array(name, arrays[name], shape, dtype, game.title)
                   for name, shape, dtype in game.fields}, key, seed, episode, game)


def _write(arrays, key, seed, episode, game=CLASSIC):
    seed = _integer(seed, "seed", -SEED_LIMIT, SEED_LIMIT - 1)
    episode = _integer(episode, "episode", 1, EPISODE_MAX)
    words = _key_words(key, seed)
    _check_values(arrays, game=game)
    parts = []
    for name, _, dtype in game.fields:
        values = np.ascontiguousarray(arrays[name]).reshape(-1)
        if dtype == np.bool_:
            parts.append(values.astype("<u4"))
        else:
            parts.append(values.astype(dtype.newbyteorder("<")).view("<u4"))
    body = HEADER.pack(MAGIC, VERSION, game.number, game.size, seed, episode, words[0], words[1],
                       game.words, 0)
    body += np.concatenate(parts).astype("<u4").tobytes()
    return body + struct.pack("<I", zlib.crc32(body))


# -- JAX ---------------------------------------------------------------------


def _flatten(state, prefix=""):
    """{name: value} of a JAX EnvState (nested dataclasses as prefix.name);
    the unused fractal angles left out when None."""
    out = {}
    for field in dataclasses.fields(state):
        value = getattr(state, field.name)
        name = prefix + field.name
        if dataclasses.is_dataclass(value):
            out.update(_flatten(value, name + "."))
        elif name == UNUSED and isinstance(value, tuple) and all(v is None for v in value):
            continue
        else:
            out[name] = value
    return out


def from_jax(state, key=None, seed=0, episode=1):
    """The bytes of a saved state (format version 2 of crafter-state(5))
    from a JAX EnvState of craftax 1.6.1's Craftax-Classic
    (craftax.craftax_classic.envs.craftax_state.EnvState) or Craftax
    (craftax.craftax.craftax_state.EnvState), told apart by their fields:
    what env.reset and env.step return, one env's, not a vmapped batch.
    Every field in EnvState's order, as 32-bit words, under the game's
    number (1 Craftax-Classic, 2 Craftax).  CraftaxClassicEnv.load_state
    takes a Craftax-Classic state and plays on exactly as JAX does.

    key: the key your loop carries to the next step, as the seed schedule
    of crafter-games(7) carries it: the `key` of `key, k =
    jax.random.split(key)` after the split that gave the last step's (or
    the reset's) k.  The toolkit's next step does that split again and
    steps with k.  A JAX key (jax.random.PRNGKey(S), or a typed
    jax.random.key(S)) or two integers.  None takes the key that seed's
    schedule carries after its reset, split(PRNGKey(seed))[0]: exact for
    the state env.reset gave with split(PRNGKey(seed))[1], the first state
    of seed's schedule; for any other state the steps that follow are the
    toolkit's own draw, which no JAX loop of yours took, so give the key
    your loop has.

    seed (-2**62 to 2**62-1) and episode (the episode counter, 1 to
    2**31-1) are what the state says it is of: the toolkit reports the
    counter and counts ends on from it; the seed is kept with the state
    (and with key None chooses the key).

    ValueError, naming the field, for a state that is neither game's
    (other fields), of the wrong shapes or dtypes (a batch, 64-bit
    values), or with values crafter-step refuses."""
    if not dataclasses.is_dataclass(state) or isinstance(state, type):
        raise TypeError(f"from_jax takes a JAX EnvState of Craftax-Classic or Craftax "
                        f"(env.reset's or env.step's), not {type(state).__name__}; from_arrays "
                        f"takes a dict")
    fields = _flatten(state)
    game = _game_of_names(fields)
    missing = [name for name in game.names if name not in fields]
    unknown = [name for name in fields if name not in game.names]
    if missing or unknown:
        said = []
        if unknown:
            said.append("it has " + ", ".join(unknown[:8]) + (", ..." if len(unknown) > 8
                                                              else ""))
        if missing:
            said.append("it lacks " + ", ".join(missing[:8]) + (", ..." if len(missing) > 8
                                                                else ""))
        raise ValueError(f"not a {game.title} EnvState of craftax 1.6.1 "
                         f"({type(state).__module__}.{type(state).__name__}): "
                         f"{'; '.join(said)}")
    arrays = {name: _array(name, fields[name], shape, dtype, game.title)
              for name, shape, dtype in game.fields}
    return _write(arrays, key, seed, episode, game)


def _weak(array):
    """A jax array of array's values, weakly typed as JAX's own states hold
    the fields of WEAK: a scalar made from its Python number, an int32
    array as the sum of its bits, each a where() of Python numbers (both
    exact).  Where JAX's numbers are not 32-bit (jax_enable_x64), an array
    of array's dtype, strongly typed."""
    import jax.numpy as jnp
    from jax import lax
    if array.shape == ():
        made = jnp.asarray(array.item())
    else:
        words = array.view(np.uint32)
        made = lax.full(array.shape, 0)
        for bit in range(int(words.max(initial=0)).bit_length()):
            value = 1 << bit if bit < 31 else -(1 << 31)
            made = made + jnp.where(((words >> bit) & 1) == 1, value, 0)
    if made.dtype != array.dtype:
        return jnp.asarray(array)
    return made


def to_jax(state):
    """A JAX EnvState of the saved state's game holding its fields as jax
    arrays of their dtypes: craftax's Craftax-Classic
    (craftax.craftax_classic.envs.craftax_state.EnvState), weakly typed
    where JAX's own states are (WEAK), or Craftax's
    (craftax.craftax.craftax_state.EnvState), none weakly typed as none of
    JAX's is: what env.step takes, to play on in JAX, with no new
    compilation of a jitted step.  The key to go on with is
    schedule_key(state).  Needs jax and craftax (imported here);
    ValueError for bytes that are not a state of either game."""
    arrays = to_arrays(state)
    game = _read(state)[2]
    import jax.numpy as jnp
    if game is CRAFTAX:
        from craftax.craftax.craftax_state import EnvState, Inventory, Mobs
        mob_kinds = {kind for kind, _, _ in CRAFTAX_MOBS}
    else:
        from craftax.craftax_classic.envs.craftax_state import EnvState, Inventory, Mobs
        mob_kinds = set(dict(MOBS))

    def build(cls, prefix):
        values = {}
        for field in dataclasses.fields(cls):
            name = prefix + field.name
            if name in arrays:
                values[field.name] = (_weak(arrays[name]) if name in game.weak
                                      else jnp.asarray(arrays[name]))
            elif name == UNUSED:
                continue
            elif cls is EnvState and field.name == "inventory":
                values[field.name] = build(Inventory, name + ".")
            elif cls is EnvState and name in mob_kinds:
                values[field.name] = build(Mobs, name + ".")
            else:
                raise RuntimeError(f"craftax's {cls.__name__} has a field {name} that "
                                   f"craftax 1.6.1's has not")
        return cls(**values)

    built = build(EnvState, "")
    if set(_flatten(built)) != set(game.names):
        raise RuntimeError("craftax's EnvState lacks fields that craftax 1.6.1's has")
    return built
