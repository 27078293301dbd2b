"""crafter_toolkit.constants: crafter.constants of crafter 1.8.3, the same
names, types, contents and orders, read from the engine's own data."""

import os
import types

import pytest

import crafter_toolkit
from crafter_toolkit import constants
from conftest import TOP

NAMES = ("root", "actions", "materials", "walkable", "items", "collect", "place", "make",
         "achievements")
# What crafter/constants.py leaves behind besides its constants: the
# modules it imports, its YAML loader, and its loop's last key and value.
LOADER = {"pathlib", "ruamel", "yaml", "key", "value"}


def test_as_crafter_uses_them():
    """`import crafter_toolkit as crafter; crafter.constants.achievements`
    as DreamerV3 writes it: lists and dicts of crafter's kinds, agreeing
    with the package's own tuples of names."""
    assert crafter_toolkit.constants is constants
    assert constants.actions == list(crafter_toolkit.ACTIONS)
    assert constants.achievements == list(crafter_toolkit.ACHIEVEMENTS)
    assert list(constants.items) == list(crafter_toolkit.ITEMS)
    assert constants.achievements == sorted(constants.achievements)
    assert len(constants.materials) == 12 and "none" not in constants.materials
    assert constants.items["health"] == {"max": 9, "initial": 9}
    assert constants.collect["grass"]["probability"] == 0.1
    assert isinstance(constants.root, os.PathLike)


def test_same_as_crafter():
    """Every constant of crafter.constants: the same type and contents, dicts
    in the same order (their repr), as crafter's module holds them."""
    crafter = pytest.importorskip("crafter", reason="the reference crafter is not installed")
    theirs = {name for name, value in vars(crafter.constants).items()
              if not name.startswith("__") and not isinstance(value, types.ModuleType)}
    assert theirs - LOADER == set(NAMES)
    for name in NAMES:
        a, b = getattr(crafter.constants, name), getattr(constants, name)
        assert type(a) is type(b), name
        assert a == b and repr(a) == repr(b), name


def test_reads_the_yaml_as_yaml_does():
    """The reader of data/crafter.yaml gives what a YAML library gives for
    the whole file (ruamel.yaml, crafter's, where installed)."""
    ruamel = pytest.importorskip("ruamel.yaml", reason="ruamel.yaml is not installed")
    with open(os.path.join(TOP, "data", "crafter.yaml")) as stream:
        text = stream.read()
    theirs = ruamel.YAML(typ="safe", pure=True).load(text)
    assert repr(constants._yaml(text)) == repr(theirs)


def test_reader_refuses_what_it_cannot_read():
    for text in ("a: [1, 2", "a:\n  - 1\n", "a: {b 1}", "a: 1\n    b: 2\n"):
        with pytest.raises((ValueError, IndexError)):
            constants._yaml(text)
