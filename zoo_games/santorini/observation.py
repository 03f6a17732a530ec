"""What a Santorini player sees: a 5 x 5 x 15 stack of planes, from the observer's side."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from zoo_games.santorini.rules import INITIAL_PARTS, NUM_CELLS, SIZE, UNPLACED, SantoriniState

CHANNELS = 15
#: Channel of the first parts-left plane and of the placement and to-move planes.
PARTS_CHANNEL = 9
PLACEMENT_CHANNEL = 13
TO_MOVE_CHANNEL = 14


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
        self._cells = np.arange(NUM_CELLS)

    def observe(self, state: SantoriniState, player: int) -> np.ndarray:
        """The planes described in the class docstring."""
        planes = np.zeros((NUM_CELLS, CHANNELS), dtype=np.uint8)
        planes[self._cells, state.heights] = 1
        mine = 2 * player
        theirs = 2 * (1 - player)
        for channel, slot in ((5, mine), (6, mine + 1), (7, theirs), (8, theirs + 1)):
            cell = state.workers[slot]
            if cell != UNPLACED:
                planes[cell, channel] = 1
        planes[:, PARTS_CHANNEL : PARTS_CHANNEL + 4] = state.parts
        planes[:, PLACEMENT_CHANNEL] = state.in_placement()
        planes[:, TO_MOVE_CHANNEL] = state.mover == player and state.winner < 0
        return planes.reshape(SIZE, SIZE, CHANNELS)
