"""Craftax-Classic's states between JAX and the toolkit.

crafter-step saves a Craftax-Classic env's state as format version 2 of
crafter-state(5): a 56-byte header (the seed, the episode counter, the key
the seed schedule carries to the next step), then every field of craftax
1.6.1's EnvState in its order as 8343 32-bit words, then a CRC-32.  This
module reads and writes those bytes:

    to_arrays(state)          the fields as numpy arrays, JAX's shapes and
                              dtypes, named as below
    from_arrays(arrays, key=None, seed=0, episode=1)
                              the bytes of such arrays
    header(state)             {"seed", "episode", "key"} of the bytes
    schedule_key(state)       the key the schedule carries, uint32 (2,)
    from_jax(state, key=None, seed=0, episode=1)
                              the bytes of a JAX EnvState
    to_jax(state)             a JAX EnvState of the bytes

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
inventory.wood, zombies.position, ...): FIELDS, (name, shape, dtype)
each.  Each array is flattened in row-major order, one word a value:
integers and booleans as their values, float32 numbers as their bits.
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


def _check_values(arrays, whose="a state"):
    """ValueError naming the first value crafter-step's loader would
    refuse (field and flat index), as it names it."""
    for name, _, dtype in FIELDS:
        values = arrays[name].reshape(-1)
        if dtype == np.float32:
            bad = ~(np.isfinite(values) & (np.abs(values) <= LARGEST))
            what = "not a finite number within 2**30"
        elif dtype == np.int32:
            low, high, what = _limits(name)
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


# -- bytes <-> numpy ---------------------------------------------------------


def _as_bytes(state):
    try:
        return memoryview(state).cast("B").tobytes()
    except TypeError:
        raise TypeError(f"a saved state is bytes (save_state(), from_jax()), "
                        f"not {type(state).__name__}") from None


def _read(state):
    """(header fields, words) of a Craftax-Classic state, or ValueError
    saying what it is instead, as crafter-step's loader says it."""
    data = _as_bytes(state)
    if data[:8] != MAGIC:
        raise ValueError(f"not a saved state (it does not begin with {MAGIC.decode()})")
    if len(data) < 16:
        raise ValueError(f"a saved state cut short: {len(data)} bytes")
    version, game = struct.unpack_from("<II", data, 8)
    if version == CRAFTER_VERSION:
        raise ValueError(f"a state of crafter (format version 1), not of {GAME_NAME}")
    if version != VERSION:
        raise ValueError(f"a state of format version {version}; {GAME_NAME}'s are of version "
                         f"{VERSION} (crafter-state(5))")
    if game != GAME:
        raise ValueError(f"a state of game number {game}, not of {GAME_NAME} ({GAME})")
    if len(data) < HEADER.size + 4:
        raise ValueError(f"a saved state cut short: {len(data)} bytes")
    _, _, _, size, seed, episode, key0, key1, words, reserved = HEADER.unpack_from(data)
    if size != len(data):
        raise ValueError(f"a saved state of {len(data)} bytes that says it has {size}")
    if size != SIZE:
        raise ValueError(f"a {GAME_NAME} state of {size} bytes; one has {SIZE}")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, SIZE - 4)[0]:
        raise ValueError("the saved state is damaged: its checksum does not match")
    if not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise ValueError(f"a saved state whose seed {seed} is out of range")
    if not 1 <= episode <= EPISODE_MAX:
        raise ValueError(f"a saved state whose episode counter {episode} is not 1 to 2**31-1")
    if words != WORDS or reserved != 0:
        raise ValueError(f"a saved state that says it has {words} words ({GAME_NAME}'s have "
                         f"{WORDS}) or whose reserved bytes 52 to 55 are not zero")
    header = {"seed": seed, "episode": episode, "key": np.array([key0, key1], np.uint32)}
    return header, np.frombuffer(data, "<u4", WORDS, HEADER.size)


def header(state):
    """{"seed": int, "episode": int, "key": uint32 array (2,)} of a saved
    Craftax-Classic state: the seed and episode counter it says it is of,
    and the key the seed schedule carries to the next step (crafter-games(7):
    the next step does key, k = split(key) and steps with k).  ValueError
    for bytes that are not such a state (Crafter's, damaged, cut short)."""
    return _read(state)[0]


def schedule_key(state):
    """The key a saved Craftax-Classic state carries to its next step, as
    a uint32 array (2,): a raw JAX key (jax.random.split takes it as is;
    jax.random.wrap_key_data(key) makes a typed one).  Go on in JAX with
    `key, k = jax.random.split(key)` and `env.step(k, to_jax(state),
    action)`, as crafter-step's next step does."""
    return _read(state)[0]["key"]


def to_arrays(state):
    """The fields of a saved Craftax-Classic state (bytes of save_state or
    from_jax) as a dict of numpy arrays of their own, keyed by NAMES in
    EnvState's order, each of JAX's shape and dtype.  ValueError for bytes
    that are not such a state or hold a value crafter-step refuses."""
    _, words = _read(state)
    arrays, at = {}, 0
    for name, shape, dtype in FIELDS:
        count = int(np.prod(shape))
        chunk = words[at:at + count]
        at += count
        if dtype == np.bool_:
            values = chunk.astype(np.uint32)  # checked, then made booleans
        else:
            values = chunk.view(dtype.newbyteorder("<")).astype(dtype)
        arrays[name] = values.reshape(shape)
    _check_values(arrays, "a saved state")
    for name, _, dtype in FIELDS:
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


def _array(name, value, shape, dtype):
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
        raise ValueError(f"{name} has shape {array.shape}, Craftax-Classic's has {shape}")
    if array.dtype != dtype:
        raise ValueError(f"{name} has dtype {array.dtype}, Craftax-Classic's is {dtype}")
    return array


def from_arrays(arrays, key=None, seed=0, episode=1):
    """The bytes of a saved Craftax-Classic state (crafter-state(5),
    format version 2) holding arrays: a mapping with every name of NAMES
    (no other) to an array of the field's shape and dtype (to_arrays'
    form).  key, seed and episode as from_jax's.  ValueError for a name
    missing or unknown, a wrong shape or dtype, or a value crafter-step's
    loader refuses (a block type outside 0 to 16, the player off the map,
    ...), naming the field."""
    try:
        given = set(arrays)
    except TypeError:
        raise TypeError(f"arrays is a mapping of field names to arrays (to_arrays' form), "
                        f"not {type(arrays).__name__}") from None
    missing = [name for name in NAMES if name not in given]
    unknown = sorted(str(name) for name in given - set(NAMES))
    if missing or unknown:
        said = []
        if missing:
            said.append("missing " + ", ".join(missing))
        if unknown:
            said.append("unknown " + ", ".join(unknown))
        raise ValueError(f"not the fields of Craftax-Classic's EnvState: {'; '.join(said)}")
    return _write({name: _array(name, arrays[name], shape, dtype)
                   for name, shape, dtype in FIELDS}, key, seed, episode)


def _write(arrays, key, seed, episode):
    seed = _integer(seed, "seed", -SEED_LIMIT, SEED_LIMIT - 1)
    episode = _integer(episode, "episode", 1, EPISODE_MAX)
    words = _key_words(key, seed)
    _check_values(arrays)
    parts = []
    for name, _, dtype in FIELDS:
        values = np.ascontiguousarray(arrays[name]).reshape(-1)
        if dtype == np.bool_:
            parts.append(values.astype("<u4"))
        else:
            parts.append(values.astype(dtype.newbyteorder("<")).view("<u4"))
    body = HEADER.pack(MAGIC, VERSION, GAME, SIZE, seed, episode, words[0], words[1], WORDS, 0)
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
    """The bytes of a saved Craftax-Classic state (format version 2 of
    crafter-state(5)) from a JAX EnvState of craftax 1.6.1's
    Craftax-Classic (what env.reset and env.step return, one env's, not a
    vmapped batch): every field in EnvState's order, as 32-bit words.
    CraftaxClassicEnv.load_state takes it and plays on exactly as JAX does.

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

    ValueError, naming the field, for a state that is not Craftax-Classic's
    (another game's EnvState, other fields), of the wrong shapes or dtypes
    (a batch, 64-bit values), or with values crafter-step refuses."""
    if not dataclasses.is_dataclass(state) or isinstance(state, type):
        raise TypeError(f"from_jax takes a JAX EnvState of Craftax-Classic (env.reset's or "
                        f"env.step's), not {type(state).__name__}; from_arrays takes a dict")
    fields = _flatten(state)
    missing = [name for name in NAMES if name not in fields]
    unknown = [name for name in fields if name not in NAMES]
    if missing or unknown:
        said = []
        if unknown:
            said.append("it has " + ", ".join(unknown[:8]) + (", ..." if len(unknown) > 8
                                                              else ""))
        if missing:
            said.append("it lacks " + ", ".join(missing[:8]) + (", ..." if len(missing) > 8
                                                                else ""))
        raise ValueError(f"not a Craftax-Classic EnvState of craftax 1.6.1 "
                         f"({type(state).__module__}.{type(state).__name__}): "
                         f"{'; '.join(said)}")
    arrays = {name: _array(name, fields[name], shape, dtype) for name, shape, dtype in FIELDS}
    return _write(arrays, key, seed, episode)


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
    """A JAX EnvState of craftax's Craftax-Classic (craftax.craftax_classic
    .envs.craftax_state.EnvState) holding a saved state's fields as jax
    arrays of their dtypes, weakly typed where JAX's own states are (WEAK):
    what env.step takes, to play on in JAX, with no new compilation of a
    jitted step.  The key to go on with is schedule_key(state).  Needs jax
    and craftax (imported here); ValueError for bytes that are not a
    Craftax-Classic state."""
    arrays = to_arrays(state)
    import jax.numpy as jnp
    from craftax.craftax_classic.envs.craftax_state import EnvState, Inventory, Mobs

    def build(cls, prefix):
        values = {}
        for field in dataclasses.fields(cls):
            name = prefix + field.name
            if name in arrays:
                values[field.name] = (_weak(arrays[name]) if name in WEAK
                                      else jnp.asarray(arrays[name]))
            elif name == UNUSED:
                continue
            elif cls is EnvState and field.name == "inventory":
                values[field.name] = build(Inventory, name + ".")
            elif cls is EnvState and name in dict(MOBS):
                values[field.name] = build(Mobs, name + ".")
            else:
                raise RuntimeError(f"craftax's {cls.__name__} has a field {name} that "
                                   f"craftax 1.6.1's has not")
        return cls(**values)

    built = build(EnvState, "")
    if set(_flatten(built)) != set(NAMES):
        raise RuntimeError("craftax's EnvState lacks fields that craftax 1.6.1's has")
    return built
