"""What a Santorini player sees: a 5 x 5 x 15 stack of planes, from the observer's side."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from zoo_games.santorini.rules import INITIAL_PARTS, SIZE, UNPLACED, SantoriniState

CHANNELS = 15
#: Channel of the first parts-left plane and of the placement and to-move planes.
PARTS_CHANNEL = 9
PLACEMENT_CHANNEL = 13
TO_MOVE_CHANNEL = 14

#: A cell's code: 5 * height + who stands there (0 nobody, 1 and 2 the observer's worker 0
#: and 1, 3 and 4 the opponent's); the heights times 5 are one ``bytes.translate``.
_TIMES_FIVE = bytes(5 * height % 256 for height in range(256))
#: ``_CELL_CHANNELS[code]``: a cell's first 9 channels (height one-hot, worker one-hot).
_CELL_CHANNELS = [
    bytes(int(h == height) for h in range(5)) + bytes(int(w == who) for w in range(1, 5))
    for height in range(5)
    for who in range(5)
]


class SantoriniObserver:
    """Encodes a state as ``uint8`` planes of shape ``(5, 5, 15)`` (rows, columns, channels).

    ========= ==================================================================
    channel   meaning
    ========= ==================================================================
    0-4       one-hot height of each cell: level 0, 1, 2, 3, dome
    5, 6      the observer's worker 0, worker 1
    7, 8      the opponent's worker 0, worker 1
    9-12      constant planes: level-1, level-2, level-3 and dome parts left
    13        constant plane: 1 while workers are being placed
    14        constant plane: 1 if the observer is to act
    ========= ==================================================================

    Rows, columns and channels follow PettingZoo's classic board games (height, width,
    channels). The parts planes hold counts (up to 22), hence ``uint8``.
    """

    def __init__(self) -> None:
        high = np.ones((SIZE, SIZE, CHANNELS), dtype=np.uint8)
        high[:, :, PARTS_CHANNEL : PARTS_CHANNEL + 4] = INITIAL_PARTS
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.uint8)

    def observe(self, state: SantoriniState, player: int) -> np.ndarray:
        """The planes described in the class docstring, built a cell at a time as bytes.

        Every cell's 15 channels are its 9 own channels followed by the same 6 constants,
        so the array is the constants joined between the cells' bytes, already in rows x
        columns x channels order.
        """
        codes = state.heights.translate(_TIMES_FIVE)
        workers = state.workers
        mine, theirs = 2 * player, 2 * (1 - player)
        for slot, who in ((mine, 1), (mine + 1, 2), (theirs, 3), (theirs + 1, 4)):
            cell = workers[slot]
            if cell != UNPLACED:
                codes[cell] += who
        constants = bytes(
            (*state.parts, state.in_placement(), state.mover == player and state.winner < 0)
        )
        planes = bytearray(constants).join(map(_CELL_CHANNELS.__getitem__, codes))
        planes += constants
        # np.ndarray over the bytearray: no copy, and cheaper than np.frombuffer + reshape.
        return np.ndarray((SIZE, SIZE, CHANNELS), np.uint8, planes)
