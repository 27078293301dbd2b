"""Craftax-Classic from Python (crafter-games(7)): the client reads
crafter-step's streams of protocol version 3 (the game extension) and
refuses what does not add up; the Gymnasium ids under Craftax's names,
CraftaxVectorEnv and SB3's CraftaxVecEnv play JAX's worlds (the first
observations of seeds against the CRCs JAX recorded in
tests/data/craftax) and the C engine's game (binary frames against
crafter-step's JSON lines, step for step across episode ends)."""

import gzip
import json
import os
import struct
import subprocess
import warnings
import zlib

import numpy as np
import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from conftest import TOP
from test_stream import fake_child, quick, real_stream, start  # noqa: F401 (quick: a fixture)

try:
    import gymnasium
except ImportError:
    gymnasium = None
needs_gymnasium = pytest.mark.skipif(gymnasium is None, reason="gymnasium is not installed")

GAME = "craftax-classic"
ID = "crafter_toolkit/Craftax-Classic-Symbolic-v1"
PIXELS_ID = "crafter_toolkit/Craftax-Classic-Pixels-v1"
CRCS = os.path.join(TOP, "tests", "data", "craftax", "symbolic-obs.txt.gz")
# Seeds whose first observation is held to JAX's: scattered over 0..9999.
SEEDS = (0, 1, 2, 7, 42, 123, 999, 1000, 4096, 5555, 8191, 9999)


# -- the stream: protocol version 3 ----------------------------------------

def test_a_stream_of_version_3():
    """crafter-step --game craftax-classic --binary: version 3, flag 128,
    the game's name after the header, Crafter's sections; the game is
    there to read, and a Crafter stream says "crafter"."""
    data = real_stream("--game", GAME, "--obs", "symbolic")
    version, header_bytes = struct.unpack_from("<II", data, 8)
    flags = struct.unpack_from("<I", data, 68)[0]
    assert (version, header_bytes, flags) == (3, 160, _stream.FLAG_AUTORESET | _stream.FLAG_GAME)
    assert data[128:160] == GAME.encode().ljust(32, b"\0")
    stream = _stream.Stream(game=GAME, envs=3, seed=5, threads=2)
    assert stream.game == GAME and stream.obs_kind == "symbolic" and stream.transport == "pipe"
    assert stream.frame["obs"].shape == (3, 1345) and stream.frame["obs"].dtype == np.float32
    assert stream.frame["reset"].tolist() == [1, 1, 1]
    frame = stream.step(np.array([0, _stream.RESET, 5], np.uint8))
    assert frame["reset"].tolist() == [0, 1, 0] and frame["step"].tolist() == [1, 0, 1]
    stream.close()
    crafter = _stream.Stream(obs="none")
    assert crafter.game == "crafter"
    crafter.close()


def craftax_data(**changes):
    """A real Craftax-Classic stream's header and first frame, with the
    version or the game's name changed."""
    data = real_stream("--game", GAME, "--obs", "symbolic")
    if "version" in changes:
        struct.pack_into("<I", data, 8, changes["version"])
    if "name" in changes:
        data[128:160] = changes["name"].ljust(32, b"\0")
    return data


@pytest.mark.parametrize("case", ["version 2 with the flag", "version 3 without the flag",
                                  "an unknown game", "no game named", "bytes after the name",
                                  "crafter for craftax", "craftax for crafter"])
def test_version_3_streams_that_do_not_add_up(tmp_path, quick, case):  # noqa: F811
    """Each refused with CrafterStepError saying what is wrong, never read
    as something else."""
    game, expected = GAME, None
    if case == "version 2 with the flag":
        data, expected = craftax_data(version=2), "version 2 with the game extension (flag 128)"
    elif case == "version 3 without the flag":
        data, game = real_stream("--obs", "none"), "crafter"
        struct.pack_into("<I", data, 8, 3)
        expected = "version 3 without the game extension (flag 128)"
    elif case == "an unknown game":
        data = craftax_data(name=b"craftax-full")
        expected = ("a stream of the game 'craftax-full', which this client does not play "
                    "(it plays crafter, craftax-classic)")
    elif case == "no game named":
        data, expected = craftax_data(name=b""), "a game extension that is not a name"
    elif case == "bytes after the name":
        data = craftax_data(name=GAME.encode() + b"\0x")
        expected = "a game extension that is not a name padded with NUL bytes"
    elif case == "crafter for craftax":
        data = real_stream("--obs", "symbolic")
        expected = "a stream of Crafter (protocol version 2), not of craftax-classic"
    else:
        data, game = craftax_data(), "crafter"
        expected = "a stream of craftax-classic, not of the crafter asked for"
    message, seconds = start(fake_child(tmp_path, data), game=game, obs="symbolic"
                             if game == GAME or case == "craftax for crafter" else "none")
    assert expected in message, message
    assert seconds < 30


def test_crafters_options_are_refused():
    """Options of Crafter's world, rules and requests: refused by name
    before anything starts, or (render, save, copies) before a request
    would end the stream."""
    for options, named in ((dict(length=500), "length is Crafter's"),
                           (dict(area=(32, 32), textures="builtin"), "area and textures are"),
                           (dict(transport="shm"), "transport='shm' is"),
                           (dict(players=2), "players is"),
                           (dict(obs="pixels"), "obs must be one of symbolic, none")):
        with pytest.raises(ValueError, match=named):
            _stream.Stream(game=GAME, **options)
    with pytest.raises(ValueError, match="game must be one of crafter, craftax-classic"):
        _stream.Stream(game="craftax")
    stream = _stream.Stream(game=GAME, obs="none")
    for request in (lambda: stream.render(0, 64, 64), lambda: stream.save_state(0),
                    lambda: stream.load_state(0, b"")):
        with pytest.raises(NotImplementedError, match="does not answer .* for craftax-classic"):
            request()
    import copy
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.deepcopy(stream)
    assert stream.step(b"\0")["step"][0] == 1  # the stream goes on
    stream.close()
