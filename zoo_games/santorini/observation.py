"""What a Santorini player sees: a 5 x 5 x 15 stack of planes, from the observer's side."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from zoo_games.santorini.rules import INITIAL_PARTS, NUM_CELLS, SIZE, UNPLACED, SantoriniState

assert UNPLACED == -1  # the worker planes are indexed by cell + 1

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
        # The planes are assembled channel by channel as bytes (a height plane is one
        # bytes.translate of the heights), then turned into rows x columns x channels.
        self._level_tables = [
            bytes(int(height == level) for height in range(256)) for level in range(5)
        ]
        self._worker_planes = [bytes(NUM_CELLS)] + [
            bytes(int(c == cell) for c in range(NUM_CELLS)) for cell in range(NUM_CELLS)
        ]
        self._constant_planes = [bytes([value]) * NUM_CELLS for value in range(256)]

    def observe(self, state: SantoriniState, player: int) -> np.ndarray:
        """The planes described in the class docstring."""
        heights = bytes(state.heights)
        workers = state.workers
        mine, theirs = 2 * player, 2 * (1 - player)
        constant = self._constant_planes
        worker_plane = self._worker_planes
        channels = b"".join(
            [
                *[heights.translate(table) for table in self._level_tables],
                *[
                    worker_plane[workers[slot] + 1]  # UNPLACED (-1) -> the empty plane
                    for slot in (mine, mine + 1, theirs, theirs + 1)
                ],
                *[constant[count] for count in state.parts],
                constant[state.in_placement()],
                constant[state.mover == player and state.winner < 0],
            ]
        )
        planes = np.frombuffer(channels, dtype=np.uint8).reshape(CHANNELS, NUM_CELLS)
        # The transpose copies into a fresh, writable, C-ordered array.
        return np.ascontiguousarray(planes.T).reshape(SIZE, SIZE, CHANNELS)
