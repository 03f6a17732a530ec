"""The Togyz Kumalak board: 18 holes in two rows of nine, the balls, and the kazans' target.

The numbers and hole arithmetic every other module of the game reads (the rules, the position
strings, the observations, the kernels), kept apart from the rules so that the position
strings can read them without the rules core, which reads and writes its positions through
them.
"""

from __future__ import annotations

HOLES_PER_SIDE = 9
NUM_HOLES = 2 * HOLES_PER_SIDE
BALLS_PER_HOLE = 9
TOTAL_BALLS = NUM_HOLES * BALLS_PER_HOLE  # 162
#: A kazan holding this many balls has won: more than half of the 162.
WINNING_KAZAN = TOTAL_BALLS // 2 + 1  # 82
NO_TUZDUK = -1


def side_of(hole: int) -> int:
    """The player whose row holds board hole ``hole`` (0 White, 1 Black)."""
    return hole // HOLES_PER_SIDE


def hole_number(hole: int) -> int:
    """The number (1-9) of board hole ``hole`` in its own row."""
    return hole % HOLES_PER_SIDE + 1
