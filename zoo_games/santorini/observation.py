"""What a Santorini player sees, from the observer's side, in three encodings.

``"planes"`` (default): a 5 x 5 x 15 stack of planes. ``"tactics"``: the same planes,
flattened, then where each player could climb to win at once and which of the observer's
moves would let the opponent do so. ``"workers"``: the board as each worker sees it, a 5 x 5
window centred on it, then the parts left.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence

import numpy as np
from gymnasium import spaces

from zoo_games.core.symmetry import Symmetry
from zoo_games.santorini import symmetry
from zoo_games.santorini.cells import INITIAL_PARTS, NUM_CELLS, SIZE, UNPLACED
from zoo_games.santorini.rules import NEIGHBOUR, PLAY_ACTIONS, SantoriniState

ENCODINGS = ("planes", "tactics", "workers")

CHANNELS = 15
PLANES_LENGTH = SIZE * SIZE * CHANNELS  # 375
#: Per player, per worker and direction: a climb onto level 3 (16 values each).
CLIMBS_LENGTH = 2 * 8
#: The climbs of both players, then one value per action of the observer.
TACTICS_LENGTH = 2 * CLIMBS_LENGTH + PLAY_ACTIONS  # 160
#: Channel of the first parts-left plane and of the placement and to-move planes.
PARTS_CHANNEL = 9
PLACEMENT_CHANNEL = 13
TO_MOVE_CHANNEL = 14
#: The workers encoding: a window of 5 x 5 cells centred on each worker (every cell its move
#: and build can reach), 8 values per cell, then the parts-left counts and two flags.
WINDOW_RADIUS = 2
WINDOW_SIDE = 2 * WINDOW_RADIUS + 1
WINDOW_CHANNELS = 8
#: Channels of a window's cell after the five one-hot heights.
OFF_BOARD_CHANNEL, OWN_WORKER_CHANNEL, RIVAL_WORKER_CHANNEL = 5, 6, 7
WINDOW_LENGTH = WINDOW_SIDE * WINDOW_SIDE * WINDOW_CHANNELS  # 200
WORKERS_LENGTH = 4 * WINDOW_LENGTH + 6  # 806

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

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        """The board's eight symmetries (:mod:`zoo_games.santorini.symmetry`) on these planes."""
        return board_symmetries(planes_gather, num_actions)


class TacticsObserver:
    """The planes of :class:`SantoriniObserver`, flattened, then 160 tactical values: 535.

    A win comes from a worker on level 2 stepping onto a free level-3 cell, and most losses
    from a move that leaves the opponent such a climb (a build that raises a cell next to it
    to level 3, a step that frees one). A network reading the planes must find those patterns
    for each of its 128 actions; a one-move lookahead reads them off the rules. This encoding
    gives them (:func:`write_tactics`):

    ========= ==================================================================
    index     meaning
    ========= ==================================================================
    0-374     the planes, rows x columns x channels, flattened
    375-390   ``8 * w + m``: 1 if the observer's worker ``w`` stepping in direction ``m``
              climbs onto level 3 (a win)
    391-406   the same for the opponent's workers, as if it were to move (its threats)
    407-534   action ``a = 64 * w + 8 * m + b``: 1 if after the observer's worker ``w``
              steps in direction ``m`` and builds in direction ``b``, an opponent worker on
              level 2 stands next to a free level-3 cell (it could climb and win)
    ========= ==================================================================

    Values of actions that are not legal mean nothing (read them with the action mask);
    they are 0 while workers are being placed.
    """

    def __init__(self) -> None:
        self._planes = SantoriniObserver()
        high = np.concatenate(
            [self._planes.space.high.reshape(-1), np.ones(TACTICS_LENGTH, dtype=np.uint8)]
        )
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.uint8)

    def observe(self, state: SantoriniState, player: int) -> np.ndarray:
        """The 535 values described in the class docstring."""
        values = np.zeros(PLANES_LENGTH + TACTICS_LENGTH, dtype=np.uint8)
        values[:PLANES_LENGTH] = self._planes.observe(state, player).reshape(-1)
        write_tactics(values, PLANES_LENGTH, state.heights, state.workers, player)
        return values

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        """The board's eight symmetries (:mod:`zoo_games.santorini.symmetry`) on these values."""
        return board_symmetries(tactics_gather, num_actions)


class WorkersObserver:
    """The board around each worker: 806 ``uint8`` values, flat.

    The planes give a network the board by absolute cell, so a pattern around a worker (a
    level-3 cell next to it, a dome blocking its way) must be learned again for every cell it
    can stand on, and for each of its 128 actions. The actions are directions from a worker:
    seen from the worker, the pattern is one and the same. This encoding shows the board from
    each worker (:func:`write_windows`):

    ========= ==================================================================
    index     meaning
    ========= ==================================================================
    0-799     four windows of 200 values, for the observer's worker 0 and 1, then the
              opponent's worker 0 and 1: the 5 x 5 cells centred on the worker (rows,
              then columns: all its move and build can reach), 8 values each: one-hot
              height (level 0-3, dome), off the board, an observer's worker there, an
              opponent's worker there. A window is all 0 while its worker is unplaced.
    800-803   level-1, level-2, level-3 and dome parts left
    804       1 while workers are being placed
    805       1 if the observer is to act
    ========= ==================================================================
    """

    def __init__(self) -> None:
        high = np.ones(WORKERS_LENGTH, dtype=np.uint8)
        high[4 * WINDOW_LENGTH : 4 * WINDOW_LENGTH + 4] = INITIAL_PARTS
        self.space = spaces.Box(low=np.zeros_like(high), high=high, dtype=np.uint8)

    def observe(self, state: SantoriniState, player: int) -> np.ndarray:
        """The 806 values described in the class docstring."""
        values = np.zeros(WORKERS_LENGTH, dtype=np.uint8)
        to_move = state.mover == player and state.winner < 0
        write_windows(values, state.heights, state.workers, player)
        write_counts(values, state.parts, state.in_placement(), to_move)
        return values

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        """The board's eight symmetries (:mod:`zoo_games.santorini.symmetry`) on these windows."""
        return board_symmetries(workers_gather, num_actions)


def board_symmetries(
    observation_gather: Callable[[int], np.ndarray], num_actions: int
) -> list[Symmetry]:
    """Each symmetry of the board as the gathers of an encoding's values and of the actions."""
    return [
        Symmetry(observation_gather(turn), symmetry.action_gather(turn, num_actions))
        for turn in range(symmetry.COUNT)
    ]


def planes_gather(turn: int) -> np.ndarray:
    """The gather of the flattened planes: each cell's channels go with the cell."""
    cells = symmetry.cell_gather(turn)
    return (cells[:, None] * CHANNELS + np.arange(CHANNELS)).reshape(-1)


def tactics_gather(turn: int) -> np.ndarray:
    """The gather of the tactics encoding: planes, climbs by direction, then actions."""
    directions = symmetry.direction_gather(turn)
    climbs = [PLANES_LENGTH + 8 * slot + directions for slot in range(4)]
    actions = PLANES_LENGTH + 2 * CLIMBS_LENGTH + symmetry.action_gather(turn, PLAY_ACTIONS)
    return np.concatenate([planes_gather(turn), *climbs, actions])


def workers_gather(turn: int) -> np.ndarray:
    """The gather of the workers encoding: each window turns, the counts stay.

    A window turns around its worker as the board turns around its centre: both are 5 x 5.
    """
    cells = symmetry.cell_gather(turn)
    windows = np.arange(4)[:, None, None] * WINDOW_SIDE * WINDOW_SIDE + cells[None, :, None]
    values = windows * WINDOW_CHANNELS + np.arange(WINDOW_CHANNELS)
    return np.concatenate([values.reshape(-1), np.arange(4 * WINDOW_LENGTH, WORKERS_LENGTH)])


def write_windows(
    out: MutableSequence[int] | np.ndarray,
    heights: Sequence[int],
    workers: Sequence[int],
    player: int,
) -> None:
    """Write the four windows of :class:`WorkersObserver` for ``player`` into ``out[:800]``.

    ``out`` holds zeros there. ``workers`` are the four workers' cells (``2 * player + w``;
    any value off the board, such as -1, is unplaced). Plain Python over a list or an array:
    the batched kernels compile this very function.
    """
    for window in range(4):
        owner = player if window < 2 else 1 - player
        centre = workers[2 * owner + window % 2]
        if not 0 <= centre < NUM_CELLS:
            continue
        for row in range(WINDOW_SIDE):
            for column in range(WINDOW_SIDE):
                cell_of_window = WINDOW_SIDE * row + column
                at = (window * WINDOW_SIDE * WINDOW_SIDE + cell_of_window) * WINDOW_CHANNELS
                board_row = centre // SIZE + row - WINDOW_RADIUS
                board_column = centre % SIZE + column - WINDOW_RADIUS
                if not (0 <= board_row < SIZE and 0 <= board_column < SIZE):
                    out[at + OFF_BOARD_CHANNEL] = 1
                    continue
                cell = SIZE * board_row + board_column
                out[at + heights[cell]] = 1
                for slot in range(4):
                    if workers[slot] == cell:
                        mine = slot // 2 == player
                        out[at + (OWN_WORKER_CHANNEL if mine else RIVAL_WORKER_CHANNEL)] = 1


def write_counts(
    out: MutableSequence[int] | np.ndarray, parts: Sequence[int], placing: bool, to_move: bool
) -> None:
    """Write the parts left and the two flags of :class:`WorkersObserver` after its windows.

    Plain Python: the batched kernels compile this very function.
    """
    for kind in range(4):
        out[4 * WINDOW_LENGTH + kind] = parts[kind]
    out[4 * WINDOW_LENGTH + 4] = placing
    out[4 * WINDOW_LENGTH + 5] = to_move


def is_free(workers: Sequence[int], cell: int, left: int) -> bool:
    """Whether no worker stands on ``cell``, the one on ``left`` having left it (-1: none).

    Plain Python over ints, compiled with :func:`write_tactics` (compared one by one: numba
    has no ``in`` for a tuple of a state row's bytes and other integers).
    """
    if cell == left:
        return True
    return workers[0] != cell and workers[1] != cell and workers[2] != cell and workers[3] != cell


def write_tactics(
    out: MutableSequence[int] | np.ndarray,
    index: int,
    heights: Sequence[int],
    workers: Sequence[int],
    player: int,
) -> None:
    """Write ``player``'s 160 tactical values (:class:`TacticsObserver`) from ``out[index]``.

    ``workers`` are the four workers' cells (``2 * player + w``); all values are 0 until every
    worker is on the board. A threat after a move counts the cell the worker left as free and
    the cell it steps onto as taken, and the build as raising its cell one level (a level-3
    cell domed is no threat). Plain Python over a list or an array: the batched kernels
    compile this very function.
    """
    for value in range(TACTICS_LENGTH):
        out[index + value] = 0
    for slot in range(4):
        if not 0 <= workers[slot] < NUM_CELLS:
            return
    for side in range(2):
        owner = player if side == 0 else 1 - player
        for worker in range(2):
            source = workers[2 * owner + worker]
            if heights[source] != 2:
                continue
            for direction in range(8):
                target = NEIGHBOUR[source][direction]
                if target >= 0 and heights[target] == 3 and is_free(workers, target, -1):
                    out[index + CLIMBS_LENGTH * side + 8 * worker + direction] = 1
    opponent = 1 - player
    for worker in range(2):
        source = workers[2 * player + worker]
        for move in range(8):
            target = NEIGHBOUR[source][move]
            if target < 0 or (heights[source] == 2 and heights[target] == 3):
                continue  # off the board, or a win: the build is never made
            for build in range(8):
                cell = NEIGHBOUR[target][build]
                if cell < 0:
                    continue
                threat = False
                for rival in range(2):
                    stand = workers[2 * opponent + rival]
                    if heights[stand] != 2 or stand == cell:
                        continue
                    for direction in range(8):
                        step = NEIGHBOUR[stand][direction]
                        if step < 0 or step == target or not is_free(workers, step, source):
                            continue
                        if heights[step] + (step == cell) == 3:
                            threat = True
                out[index + 2 * CLIMBS_LENGTH + 64 * worker + 8 * move + build] = threat
