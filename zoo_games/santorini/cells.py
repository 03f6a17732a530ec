"""The Santorini board: 25 cells, their heights, and the building parts a game has.

The numbers every other module of the game reads (the rules, the position strings, the
observations, the kernels), kept apart from the rules so that the position strings can read
them without the rules core, which reads and writes its positions through them.
"""

from __future__ import annotations

SIZE = 5
NUM_CELLS = SIZE * SIZE
#: The height of a domed cell (0 to 3 are building levels).
DOME = 4
#: Parts at the start: level 1, level 2, level 3, dome.
INITIAL_PARTS = (22, 18, 14, 18)
#: The cell of a worker not placed yet (the placement setup).
UNPLACED = -1


def cell_name(cell: int) -> str:
    """A cell as ``"r2c4"`` (row, column from the top-left), for readable logs."""
    row, column = divmod(cell, SIZE)
    return f"r{row}c{column}"
