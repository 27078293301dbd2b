"""Craftax's (the full game's) states in crafter_toolkit.craftax: the
fields as the C lays out their words (lib/game/cx_words.h, through
tests/unit/test-cx-words), bytes to arrays and back, refusals in the C's
words, EnvStates alike told from Craftax-Classic's, and, where this
Python has jax and craftax, JAX's own states to words and back
(tests/reference/craftax_full_state.py; tests/cx-state.t runs it in the
reference's Python)."""

import dataclasses
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
PROGRAM = os.path.join(TOP, "tests", "unit", "test-cx-words")
needs_program = pytest.mark.skipif(not os.access(PROGRAM, os.X_OK),
                                   reason="tests/unit/test-cx-words is not built (make "
                                          "tests/unit/test-cx-words)")


def c_words(seed, actions=()):
    """The C's words of seed's state after the actions (bytes)."""
    return subprocess.run([PROGRAM, "--words", str(seed)] + [str(a) for a in actions],
                          capture_output=True, check=True).stdout


def c_reads(words):
    """What the C's reader says of the words: "taken" or its refusal."""
    return subprocess.run([PROGRAM, "--read"], input=words, capture_output=True,
                          check=True).stdout.decode().strip()


def wrapped(words, seed=0, episode=1, key=(1, 2)):
    """A saved Craftax state (crafter-state(5), version 2, game 2) of the
    words, as the format lays it out."""
    body = struct.pack("<8sIIQqqIIII", b"CRAFTSTA", 2, 2, 56 + len(words) + 4, seed, episode,
                       key[0], key[1], len(words) // 4, 0) + words
    return body + struct.pack("<I", zlib.crc32(body))


def word_index(name, index=0):
    from crafter_toolkit.craftax import CRAFTAX_FIELDS
    at = 0
    for field, shape, _ in CRAFTAX_FIELDS:
        if field == name:
            return at + index
        at += int(np.prod(shape))
    raise KeyError(name)


def changed(words, changes):
    values = np.frombuffer(words, "<u4").copy()
    for at, value in changes.items():
        values[at] = value & 0xFFFFFFFF
    return values.tobytes()


@needs_program
def test_the_fields_are_the_cs():
    """CRAFTAX_FIELDS names the C's fields in the C's order with as many
    words each: 84 leaves, 84,033 words."""
    from crafter_toolkit import craftax
    out = subprocess.run([PROGRAM, "--fields"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    theirs = [(line.split()[0], int(line.split()[1])) for line in out if line]
    ours = [(name, int(np.prod(shape))) for name, shape, _ in craftax.CRAFTAX_FIELDS]
    assert ours == theirs
    assert len(ours) == 84 and craftax.CRAFTAX_WORDS == 84033 == sum(n for _, n in ours)
    assert craftax.CRAFTAX_SIZE == 56 + 4 * 84033 + 4
    assert dict((n, s) for n, s, _ in craftax.CRAFTAX_FIELDS)["ranged_mobs.position"] == (9, 2, 2)


@needs_program
def test_bytes_to_arrays_and_back():
    """The C's words of first and stepped states, as a saved state of game
    2: to_arrays gives JAX's shapes and dtypes holding the words, header
    says the game, from_arrays gives the same bytes back."""
    from crafter_toolkit import craftax
    rng = np.random.RandomState(4)
    for seed, steps in ((0, 0), (7, 120), (-3, 300)):
        actions = [int(a) for a in rng.randint(43, size=steps)]
        words = c_words(seed, actions)
        saved = wrapped(words, seed, 3, (5, 6))
        head = craftax.header(saved)
        assert head["game"] == "craftax" and (head["seed"], head["episode"]) == (seed, 3)
        assert head["key"].tolist() == [5, 6]
        arrays = craftax.to_arrays(saved)
        assert list(arrays) == list(craftax.CRAFTAX_NAMES)
        for name, shape, dtype in craftax.CRAFTAX_FIELDS:
            assert arrays[name].shape == shape and arrays[name].dtype == dtype, name
        values = np.frombuffer(words, "<u4")
        assert values[word_index("timestep")] == arrays["timestep"] <= steps
        assert values[word_index("light_map", 4000)] == arrays["light_map"][1, 37, 16].view(
            np.uint32)
        assert values[word_index("ranged_mobs.type_id", 17)] == arrays["ranged_mobs.type_id"][8, 1]
        assert craftax.from_arrays(arrays, [5, 6], seed, 3) == saved
        assert sorted(arrays["potion_mapping"].tolist()) == list(range(6))


@needs_program
def test_refusals_are_the_cs():
    """Words no state holds are refused by to_arrays as the C's reader
    refuses them, naming the same field, index and value; from_arrays
    refuses the same arrays."""
    from crafter_toolkit import craftax
    words = c_words(2, [5, 5, 1])
    assert c_reads(words) == "taken"
    for changes, said in (({word_index("map", 70): 37}, "map[70] holds 37, no block type (0 "
                                                        "to 36)"),
                          ({word_index("item_map", 9): 5}, "item_map[9] holds 5, no item type"),
                          ({word_index("player_position", 1): 48}, "player_position[1] holds 48, "
                                                                   "off the map (0 to 47)"),
                          ({word_index("up_ladders", 17): -1}, "up_ladders[17] holds -1, off"),
                          ({word_index("player_level"): 9}, "player_level[0] holds 9, no floor"),
                          ({word_index("is_resting"): 2}, "is_resting[0] holds 2, neither 0 nor 1"),
                          ({word_index("passive_mobs.type_id", 4): 3},
                           "passive_mobs.type_id[4] holds 3, no passive creature type (0 to 2)"),
                          ({word_index("ranged_mobs.type_id", 17): 8},
                           "ranged_mobs.type_id[17] holds 8, no ranged creature type (0 to 7)"),
                          ({word_index("player_projectile_directions", 5): 2},
                           "player_projectile_directions[5] holds 2, not -1, 0 or 1"),
                          ({word_index("armour_enchantments", 2): 3},
                           "armour_enchantments[2] holds 3, no enchantment (0 to 2)"),
                          ({word_index("potion_mapping", 1): 6}, "potion_mapping[1] holds 6"),
                          ({word_index("player_mana"): 2 ** 30 + 1},
                           "player_mana[0] holds 1073741825, beyond 2**30 in size"),
                          ({word_index("light_level"): 0x7FC00000}, "light_level[0] holds nan")):
        bad = changed(words, changes)
        assert c_reads(bad).startswith(said), c_reads(bad)
        with pytest.raises(ValueError) as refused:
            craftax.to_arrays(wrapped(bad))
        assert str(refused.value).startswith("a saved state whose " + said), str(refused.value)
    mapping = word_index("potion_mapping")
    twice = changed(words, {mapping + 1: int(np.frombuffer(words, "<u4")[mapping])})
    said = "potion_mapping holds a potion twice: it is no permutation of 0 to 5"
    assert c_reads(twice) == said
    with pytest.raises(ValueError, match=said):
        craftax.to_arrays(wrapped(twice))
    arrays = craftax.to_arrays(wrapped(words))
    arrays["map"] = arrays["map"].copy()
    arrays["map"][8, 47, 47] = 40
    with pytest.raises(ValueError, match=r"a state whose map\[20735\] holds 40, no block type"):
        craftax.from_arrays(arrays)
    arrays = craftax.to_arrays(wrapped(words))
    with pytest.raises(ValueError, match=r"map has shape \(48, 48\), Craftax's has \(9, 48, 48\)"):
        craftax.from_arrays(dict(arrays, map=arrays["map"][0]))
    with pytest.raises(ValueError, match="not the fields of Craftax's EnvState: missing "
                                         "player_mana"):
        craftax.from_arrays({k: v for k, v in arrays.items() if k != "player_mana"})
    with pytest.raises(ValueError, match="a state of game number 3, not of craftax-classic"):
        craftax.to_arrays(wrapped(words)[:12] + b"\3" + wrapped(words)[13:])


@needs_program
def test_from_jax_tells_the_games_apart():
    """A dataclass laid out as Craftax's EnvState (Inventory and Mobs
    nested, fractal_noise_angles None) gives the bytes of its fields under
    game 2; a Craftax state with a field too many is named a Craftax
    EnvState that has it; none of it imports jax."""
    from crafter_toolkit import craftax
    saved = wrapped(c_words(9, [1, 2, 3, 4]), 9, 1, (7, 8))
    arrays = craftax.to_arrays(saved)

    def layout(name, names):
        return dataclasses.make_dataclass(name, [(n, object) for n in names])

    top = []
    for name in craftax.CRAFTAX_NAMES:
        if name.split(".")[0] not in top:
            top.append(name.split(".")[0])
    Inventory = layout("Inventory", [n for n, _ in craftax.CRAFTAX_INVENTORY])
    parts = ["position", "health", "mask", "attack_cooldown", "type_id"]
    Mobs = layout("Mobs", parts)
    EnvState = layout("EnvState", top + ["fractal_noise_angles"])
    values = {}
    for name in top:
        if name == "inventory":
            values[name] = Inventory(*[arrays["inventory." + n]
                                       for n, _ in craftax.CRAFTAX_INVENTORY])
        elif name in [kind for kind, _, _ in craftax.CRAFTAX_MOBS]:
            values[name] = Mobs(*[arrays[name + "." + p] for p in parts])
        else:
            values[name] = arrays[name]
    fake = EnvState(**values, fractal_noise_angles=(None,) * 4)
    assert craftax.from_jax(fake, [7, 8], 9, 1) == saved
    Bigger = dataclasses.make_dataclass("EnvState", [("zombies", object)], bases=(EnvState,))
    with pytest.raises(ValueError, match="not a Craftax EnvState.*it has zombies"):
        craftax.from_jax(Bigger(**vars(fake), zombies=np.zeros(3, np.int32)))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import crafter_toolkit.craftax; "
            "assert 'jax' not in sys.modules and 'craftax' not in sys.modules; print('ok')")
    run = subprocess.run([sys.executable, "-c", code, os.path.join(TOP, "python")],
                         capture_output=True, text=True)
    assert run.stdout.strip() == "ok", run.stderr


@needs_program
def test_jax_states_to_words_and_back():
    """JAX's states of Craftax-Symbolic-v1 (jitted reset and steps): to
    words and back equal leaf for leaf (dtypes and weak types as JAX's),
    the words' CRC-32 the C's, the jitted step taking to_jax's state
    without compiling again (tests/reference/craftax_full_state.py)."""
    import importlib.util
    if not (importlib.util.find_spec("jax") and importlib.util.find_spec("craftax")):
        pytest.skip("jax and craftax are not installed in this Python: JAX's Craftax states "
                    "were NOT compared (tests/cx-state.t compares them in the reference's)")
    sys.path.insert(0, os.path.join(TOP, "tests", "reference"))
    import craftax_full_state
    assert craftax_full_state.check_seed(PROGRAM, 11, 60) == 4
