"""The Senet board: its 30 houses, the special ones, and how a house records a dancer.

The numbers every other module of the game reads (the rules, the position strings, the
observations, the kernels), kept apart from the rules so that the position strings can read
them without the rules core, which reads and writes its positions through them.
"""

from __future__ import annotations

NUM_HOUSES = 30
REBIRTH = 15
HAPPINESS = 26
WATER = 27
THREE_TRUTHS = 28
RE_ATUM = 29
RE_HORAKHTY = 30
#: Pseudo-house of a dancer that has been borne off.
OFF = 31

EMPTY = 0
#: Board codes: ``board[house]`` is EMPTY or ``player + 1``.
PIECE_OF = (1, 2)
