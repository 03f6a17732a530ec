"""The eight symmetries of the Santorini board, and what each does to cells, moves and states.

The rules do not care how the board is turned: a rotation by a quarter turn, or a reflection,
of a position gives a position exactly as good for the same player, whose legal actions are
the old ones with their directions turned the same way. (Workers keep their identity: worker 0
stays worker 0.) A network learns faster when it is shown each training position in a random
one of these eight guises, since otherwise it must learn every pattern in every orientation
(:mod:`zoo_games.alphazero.augment`).

Every map here is a *gather*: ``new[i] = old[gather[i]]``, so that numpy's fancy indexing
applies it to an array of cells, directions or actions at once. Symmetry 0 is the identity.
"""

from __future__ import annotations

import numpy as np

from zoo_games.santorini.cells import NUM_CELLS, SIZE
from zoo_games.santorini.rules import DIRECTIONS, PLACEMENT_OFFSET, PLAY_ACTIONS, SantoriniState

#: The symmetries as 2 x 2 integer matrices acting on a (row, column) offset from the centre
#: cell (or on a direction): the four rotations, then the four reflections.
MATRICES = (
    ((1, 0), (0, 1)),
    ((0, -1), (1, 0)),
    ((-1, 0), (0, -1)),
    ((0, 1), (-1, 0)),
    ((1, 0), (0, -1)),
    ((-1, 0), (0, 1)),
    ((0, 1), (1, 0)),
    ((0, -1), (-1, 0)),
)
COUNT = len(MATRICES)
CENTRE = SIZE // 2


def turn(symmetry: int, offset: tuple[int, int]) -> tuple[int, int]:
    """Where ``symmetry`` takes a (row, column) offset from the centre, or a direction."""
    (a, b), (c, d) = MATRICES[symmetry]
    row, column = offset
    return a * row + b * column, c * row + d * column


def cell_image(symmetry: int, cell: int) -> int:
    """The cell that ``symmetry`` takes ``cell`` to."""
    row, column = turn(symmetry, (cell // SIZE - CENTRE, cell % SIZE - CENTRE))
    return (row + CENTRE) * SIZE + column + CENTRE


def direction_image(symmetry: int, direction: int) -> int:
    """The direction (an index of ``DIRECTIONS``) that ``symmetry`` turns ``direction`` into."""
    return DIRECTIONS.index(turn(symmetry, DIRECTIONS[direction]))


def gather(images: list[int]) -> np.ndarray:
    """The gather of a map given by the image of each index: ``new[images[i]] = old[i]``."""
    result = np.empty(len(images), dtype=np.intp)
    result[images] = np.arange(len(images))
    return result


def cell_gather(symmetry: int) -> np.ndarray:
    """``new_cells = cells[cell_gather(s)]`` turns a per-cell array of 25 by ``s``."""
    return gather([cell_image(symmetry, cell) for cell in range(NUM_CELLS)])


def direction_gather(symmetry: int) -> np.ndarray:
    """``new = per_direction[direction_gather(s)]`` turns a per-direction array of 8."""
    return gather([direction_image(symmetry, d) for d in range(len(DIRECTIONS))])


def action_image(symmetry: int, action: int) -> int:
    """The action that plays, in the turned position, what ``action`` plays in the original."""
    if action >= PLACEMENT_OFFSET:
        return PLACEMENT_OFFSET + cell_image(symmetry, action - PLACEMENT_OFFSET)
    worker, move, build = action // 64, action // 8 % 8, action % 8
    move, build = direction_image(symmetry, move), direction_image(symmetry, build)
    return 64 * worker + 8 * move + build


def action_gather(symmetry: int, num_actions: int = PLAY_ACTIONS) -> np.ndarray:
    """``new = per_action[action_gather(s, n)]`` turns a mask or policy over ``n`` actions."""
    return gather([action_image(symmetry, action) for action in range(num_actions)])


def turned(state: SantoriniState, symmetry: int) -> SantoriniState:
    """A new state: ``state`` with its board turned by ``symmetry``, the same player to move."""
    cells = cell_gather(symmetry)
    workers = [cell_image(symmetry, cell) if cell >= 0 else cell for cell in state.workers]
    return SantoriniState(
        state.game,
        bytes(state.heights[int(cell)] for cell in cells),
        workers,
        state.mover,
        list(state.parts),
        state.winner,
    )
