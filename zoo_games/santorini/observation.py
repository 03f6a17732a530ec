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

#: ``bytes.translate`` tables of the height planes: byte 1 where a cell has that height.
_HEIGHT_TABLES = [bytes(int(h == level) for h in range(256)) for level in range(5)]
#: A worker's plane by its cell + 1 (an unplaced worker, -1, has the empty plane).
assert UNPLACED == -1
_WORKER_PLANES = [bytes(NUM_CELLS)] + [
    bytes(int(c == cell) for c in range(NUM_CELLS)) for cell in range(NUM_CELLS)
]
#: A constant plane by its value.
_CONSTANT_PLANES = [bytes([value]) * NUM_CELLS for value in range(256)]
#: The planes are assembled channel after channel; these strides read them as rows x
#: columns x channels, and one copy makes that a C-ordered array.
_CHANNELS_LAST_STRIDES = (SIZE, 1, NUM_CELLS)


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
        """The planes described in the class docstring."""
        heights = state.heights
        workers = state.workers
        mine, theirs = 2 * player, 2 * (1 - player)
        constant = _CONSTANT_PLANES
        parts = state.parts
        channels = b"".join(
            [
                *[heights.translate(table) for table in _HEIGHT_TABLES],
                _WORKER_PLANES[workers[mine] + 1],
                _WORKER_PLANES[workers[mine + 1] + 1],
                _WORKER_PLANES[workers[theirs] + 1],
                _WORKER_PLANES[workers[theirs + 1] + 1],
                constant[parts[0]],
                constant[parts[1]],
                constant[parts[2]],
                constant[parts[3]],
                constant[state.in_placement()],
                constant[state.mover == player and state.winner < 0],
            ]
        )
        shape = (SIZE, SIZE, CHANNELS)
        return np.ndarray(shape, np.uint8, channels, 0, _CHANNELS_LAST_STRIDES).copy()
