"""The observation kinds of crafter-step's binary protocol, in one table.

A kind is a row: its name (crafter-step --obs), the observation kind and
type a stream's header gives for it (crafter-protocol(5)), the three
dimensions the header gives for one agent's observation, the numpy shape
of that observation, and its Gymnasium space.  The rest of the package
looks kinds up here; adding a kind is a row (text, which has no fixed
size, is not in the binary protocol and so not here).
"""

from typing import Callable, NamedTuple

import numpy as np


def symbolic_size(players=1):
    """Floats of a symbolic observation: Craftax-Classic's 1345, and with
    several players 63 more, the 7x9 window marking the other players."""
    return 1345 + (63 if players > 1 else 0)


class Kind(NamedTuple):
    name: str
    id: int  # the header's observation kind
    dtype: int  # the header's observation type: 0 none, 1 uint8, 2 float32
    dims: Callable  # (size, area, players) -> the header's three dimensions
    shape: Callable  # the header's three dimensions -> one observation's numpy shape
    space: Callable  # (size, area, players) -> (low, high, shape, dtype) of a Box


KINDS = (
    Kind("none", 0, 0, lambda size, area, players: (0, 0, 0), lambda dims: (0,),
         lambda size, area, players: (0, 0, (0,), np.uint8)),
    # Rows of the height, the width, 3 channels.
    Kind("pixels", 1, 1, lambda size, area, players: (size[1], size[0], 3),
         lambda dims: (dims[0], dims[1], 3),
         lambda size, area, players: (0, 255, (size[1], size[0], 3), np.uint8)),
    # The area, material ids and objects as 13 + kind; with several
    # players the others are 19.
    Kind("semantic", 2, 1, lambda size, area, players: (area[0], area[1], 1),
         lambda dims: (dims[0], dims[1]),
         lambda size, area, players: (0, 18 if players == 1 else 19, tuple(area), np.uint8)),
    # One-hot cells and facing, counts / 10 (at most 0.9 by Crafter's
    # rules), daylight and sleep in [0, 1]; with several players the
    # window of the others after them.
    Kind("symbolic", 3, 2, lambda size, area, players: (symbolic_size(players), 1, 1),
         lambda dims: (dims[0],),
         lambda size, area, players: (0.0, 1.0, (symbolic_size(players),), np.float32)),
)
NAMES = tuple(kind.name for kind in KINDS)
BY_NAME = {kind.name: kind for kind in KINDS}
BY_ID = {kind.id: kind for kind in KINDS}
