"""Santorini kernels (fixed or placement set-up) over one game's state row.

Each function reads like the rule it implements, quoted in its docstring; they are tested
move for move against the rules core ``zoo_games/santorini/rules.py`` and against the plain
statement of the rules, ``zoo_games/santorini/reference.py``.

State row (``uint8``): ``[mover, the cells of player_0's workers 0 and 1 and of player_1's
(:data:`UNPLACED`, 255, while not yet placed), level-1, level-2, level-3 and dome parts left,
the heights of cells 0 .. 24]`` (0-3 levels, 4 a dome; cell ``5 * row + column``). Options:
``[placement set-up, encoding]`` (:data:`ENCODINGS`' index: planes, tactics, workers).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import MOVER, GameKernels, compile_rule, kth_legal_in_mask, no_chance
from zoo_games.batched.rng import Integer
from zoo_games.batched.words import count_bits
from zoo_games.core.game import NO_WINNER
from zoo_games.santorini import evaluation, observation
from zoo_games.santorini.cells import DOME, NUM_CELLS
from zoo_games.santorini.cells import UNPLACED as CORE_UNPLACED
from zoo_games.santorini.observation import (
    CHANNELS,
    ENCODINGS,
    PARTS_CHANNEL,
    PLACEMENT_CHANNEL,
    PLANES_LENGTH,
    TO_MOVE_CHANNEL,
)
from zoo_games.santorini.rules import (
    NEIGHBOUR,
    NEIGHBOUR_MASK,
    PLACEMENT_OFFSET,
    PLAY_ACTIONS,
    SantoriniGame,
    SantoriniState,
)

WORKERS = 1
PARTS = 5
HEIGHTS = 9
ROW_LENGTH = HEIGHTS + NUM_CELLS
#: A worker not placed yet (the rules core's ``UNPLACED``, as a byte).
UNPLACED = 255
#: ``NEIGHBOURS[cell, direction]``: the cell one step away (NW, N, NE, W, E, SW, S, SE), or -1.
NEIGHBOURS = np.array(NEIGHBOUR, dtype=np.int64)
#: ``BUILD_CELL[cell, direction]``: the same, with 25 (a bit no cell mask has) off the board.
BUILD_CELL = np.where(NEIGHBOURS < 0, NUM_CELLS, NEIGHBOURS)
#: Channel of the observer's worker 0 (then worker 1, the opponent's worker 0 and 1).
WORKER_CHANNEL = 5
#: Options.
PLACEMENT, ENCODING = 0, 1
TACTICS, WORKERS_ENCODING = ENCODINGS.index("tactics"), ENCODINGS.index("workers")
#: The observers' tactical values (``TacticsObserver``) and windows (``WorkersObserver``),
#: compiled.
is_free = compile_rule(observation.is_free)
write_tactics = compile_rule(observation.write_tactics, NEIGHBOUR=NEIGHBOURS, is_free=is_free)
write_windows = compile_rule(observation.write_windows)
write_counts = compile_rule(observation.write_counts)


@njit(cache=True, inline="always")
def in_placement(row: np.ndarray) -> bool:
    """Whether workers are still to be placed (``setup="placement"`` only)."""
    for slot in range(4):  # noqa: SIM110 - numba compiles loops, not generators
        if row[WORKERS + slot] == UNPLACED:
            return True
    return False


@njit(cache=True, inline="always")
def has_worker(row: np.ndarray, cell: Integer) -> bool:
    """Whether a worker (of either player) stands on ``cell``."""
    for slot in range(4):  # noqa: SIM110 - numba compiles loops, not generators
        if row[WORKERS + slot] == cell:
            return True
    return False


@njit(cache=True, inline="always")
def placement_mask(row: np.ndarray, mask: np.ndarray) -> int:
    """Rule: "Each player in turn places a worker on any free cell" (no worker, no dome)."""
    count = 0
    for cell in range(NUM_CELLS):
        if not has_worker(row, cell) and row[HEIGHTS + cell] != DOME:
            mask[PLACEMENT_OFFSET + cell] = 1
            count += 1
    return count


@njit(cache=True, inline="always")
def play_mask(row: np.ndarray, mask: np.ndarray) -> int:
    """Every legal move-and-build of the mover, as actions ``64 w + 8 m + b``.

    Rule: "Move a worker to a neighbouring cell with no worker and no dome, at most one level
    up. Moving up onto level 3 wins at once (the build is never made: every build direction is
    legal). Otherwise build on a cell next to the new one with no worker and no dome (the
    cell just left counts as free): the next level, or a dome on level 3, while parts last."
    """
    heights = row[HEIGHTS:]
    occupied = 0  # bit c: a worker stands on cell c
    for slot in range(4):
        occupied |= 1 << row[WORKERS + slot]
    buildable = 0  # bit c: a part is left for cell c (its next level, or a dome on level 3)
    for cell in range(NUM_CELLS):
        level = heights[cell]
        if level != DOME and row[PARTS + level] > 0:
            buildable |= 1 << cell
    count = 0
    for worker in range(2):
        source = row[WORKERS + 2 * row[MOVER] + worker]
        free = buildable & ~(occupied ^ (1 << source))  # the cell left counts as free
        for move in range(8):
            target = NEIGHBOURS[source, move]
            if target < 0 or occupied >> target & 1 or heights[target] == DOME:
                continue
            if heights[target] > heights[source] + 1:
                continue
            first = 64 * worker + 8 * move
            climbs_to_level_3 = heights[source] == 2 and heights[target] == 3
            for build in range(8):
                # Off the board is cell 25, never free: no branch per build.
                legal = climbs_to_level_3 or free >> BUILD_CELL[target, build] & 1
                mask[first + build] = legal
                count += legal
    return count


#: No chance in this game: the mover decides at once.
begin_turn = no_chance
kth_legal = kth_legal_in_mask


@njit(cache=True, inline="always")
def legal_mask(row: np.ndarray, config: np.ndarray, mask: np.ndarray) -> int:
    """Placements while workers are unplaced, else every legal move-and-build."""
    mask[:] = 0
    if in_placement(row):
        return placement_mask(row, mask)
    return play_mask(row, mask)


@njit(cache=True, inline="always")
def play(
    row: np.ndarray, action: Integer, config: np.ndarray, rngs: np.ndarray, game: Integer
) -> int:
    """Place a worker, or move and build; then hand over the turn (or win).

    Rule: "player_0 places both its workers, then player_1, and player_0 moves first. A worker
    moving up onto level 3 wins. Building raises a cell one level (a dome on level 3) and uses
    a part of that kind." A player left without a legal move-and-build loses: see
    :func:`outcome_without_moves`.
    """
    mover = row[MOVER]
    if action >= PLACEMENT_OFFSET:
        slot = 0
        while row[WORKERS + slot] != UNPLACED:
            slot += 1
        row[WORKERS + slot] = action - PLACEMENT_OFFSET
        row[MOVER] = (slot + 1) // 2 if slot < 3 else 0
        return NO_WINNER
    heights = row[HEIGHTS:]
    worker, rest = divmod(action, 64)
    move, build = divmod(rest, 8)
    slot = WORKERS + 2 * mover + worker
    source = row[slot]
    target = NEIGHBOURS[source, move]
    row[slot] = target
    if heights[target] == 3 and heights[source] < 3:
        return mover
    built = NEIGHBOURS[target, build]
    level = heights[built]
    row[PARTS + level] -= 1
    heights[built] = level + 1
    row[MOVER] = 1 - mover
    return NO_WINNER


@njit(cache=True, inline="always")
def outcome_without_moves(row: np.ndarray, config: np.ndarray) -> int:
    """Rule: "A player who cannot move and build on its turn loses": the opponent wins."""
    return 1 - row[MOVER]


@njit(cache=True, inline="always")
def observe(row: np.ndarray, config: np.ndarray, out: np.ndarray) -> None:
    """The mover's planes (``SantoriniObserver``), rows x columns x channels, flattened.

    Channels: one-hot height (0-3, dome), the observer's workers 0 and 1, the opponent's, the
    four parts-left counts and the placement and to-move flags as constant planes. With the
    tactics encoding (``TacticsObserver``) its tactical values follow. The workers encoding
    (``WorkersObserver``) is the windows around the workers and the counts instead.
    """
    player = row[MOVER]
    out[:] = 0
    placing = in_placement(row)
    if config[ENCODING] == WORKERS_ENCODING:
        write_windows(out, row[HEIGHTS:], row[WORKERS : WORKERS + 4], player)
        write_counts(out, row[PARTS : PARTS + 4], placing, True)
        return
    for cell in range(NUM_CELLS):
        base = CHANNELS * cell
        out[base + row[HEIGHTS + cell]] = 1
        for kind in range(4):
            out[base + PARTS_CHANNEL + kind] = row[PARTS + kind]
        out[base + PLACEMENT_CHANNEL] = placing
        out[base + TO_MOVE_CHANNEL] = 1
    for index in range(4):
        slot = 2 * (player if index < 2 else 1 - player) + index % 2
        cell = row[WORKERS + slot]
        if cell != UNPLACED:
            out[CHANNELS * cell + WORKER_CHANNEL + index] = 1
    if config[ENCODING] == TACTICS:
        write_tactics(out, PLANES_LENGTH, row[HEIGHTS:], row[WORKERS : WORKERS + 4], player)


def config(game: Any, options: dict[str, Any]) -> list[int]:
    """``[placement, encoding]`` of a :class:`SantoriniGame` and its encoding's index."""
    assert isinstance(game, SantoriniGame)
    return [int(game.setup == "placement"), ENCODINGS.index(options.get("observation", "planes"))]


def row_from_state(state: Any) -> np.ndarray:
    """The state row of a rules-core :class:`SantoriniState`."""
    assert isinstance(state, SantoriniState)
    row = np.zeros(ROW_LENGTH, dtype=np.uint8)
    row[MOVER] = state.mover
    row[WORKERS : WORKERS + 4] = [UNPLACED if w == CORE_UNPLACED else w for w in state.workers]
    row[PARTS : PARTS + 4] = state.parts
    row[HEIGHTS:] = np.frombuffer(bytes(state.heights), dtype=np.uint8)
    return row


def state_from_row(game: Any, row: np.ndarray) -> SantoriniState:
    """The rules-core :class:`SantoriniState` of a state row."""
    workers = [CORE_UNPLACED if w == UNPLACED else int(w) for w in row[WORKERS : WORKERS + 4]]
    parts = [int(p) for p in row[PARTS : PARTS + 4]]
    return SantoriniState(game, bytes(row[HEIGHTS:]), workers, int(row[MOVER]), parts)


KERNELS = GameKernels(
    module=sys.modules[__name__],
    row_length=ROW_LENGTH,
    config=config,
    row_from_state=row_from_state,
    state_from_row=state_from_row,
)


# ---------------------------------------------------------------------- for tree search
@njit(cache=True, inline="always")
def winning_action(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """A climb onto level 3 by one of the mover's workers (build direction 0), or -1.

    Rule: "Moving up onto level 3 wins at once". Cheap enough for tree search to ask at every
    move of a rollout; boxing the opponent in, the other win, is not looked for.
    """
    if in_placement(row):
        return -1
    heights = row[HEIGHTS:]
    for worker in range(2):
        source = row[WORKERS + 2 * row[MOVER] + worker]
        if heights[source] != 2:
            continue
        for move in range(8):
            target = NEIGHBOURS[source, move]
            if target >= 0 and heights[target] == 3 and not has_worker(row, target):
                return 64 * worker + 8 * move
    return -1


#: ``NEIGHBOUR_BITS[cell]``: the 25-bit mask of the cell's neighbours (the rules core's).
NEIGHBOUR_BITS = np.array(NEIGHBOUR_MASK, dtype=np.int64)
#: The evaluation's own functions, compiled: the cells a worker may step onto, by level; one
#: worker's weighted terms; the score of a game in progress.
reachable_levels = compile_rule(evaluation.walkable_levels)
worker_terms = compile_rule(evaluation.worker_terms)
score = compile_rule(evaluation.score)


@njit(cache=True, inline="always")
def is_stuck(row: np.ndarray, occupied: Integer, levels: np.ndarray) -> bool:
    """Whether the mover, with every worker placed, has no legal move-and-build (and loses).

    A worker with a free cell to step onto can always build on the cell it leaves, while a
    part of that level is left; only when that does not settle it is the mask made.
    """
    heights = row[HEIGHTS:]
    for worker in range(2):
        source = row[WORKERS + 2 * row[MOVER] + worker]
        height = heights[source]
        walkable = reachable_levels(levels, height)
        if walkable & NEIGHBOUR_BITS[source] & ~occupied and row[PARTS + height] > 0:
            return False
    mask = np.zeros(PLAY_ACTIONS, dtype=np.int8)
    return play_mask(row, mask) == 0


@njit(cache=True, inline="always")
def standing(row: np.ndarray, player: Integer, occupied: Integer, levels: np.ndarray) -> float:
    """The weighted terms of the evaluation for ``player``'s two workers, as the rules core's."""
    heights = row[HEIGHTS:]
    total = 0.0
    for worker in range(2):
        cell = row[WORKERS + 2 * player + worker]
        height = heights[cell]
        around = NEIGHBOUR_BITS[cell] & ~occupied
        climbs = count_bits(np.uint64(levels[height + 1] & around))
        steps = count_bits(np.uint64(reachable_levels(levels, height) & around))
        total = worker_terms(total, height, climbs, steps)
    return total


@njit(cache=True, inline="always")
def evaluate(row: np.ndarray, config: np.ndarray, player: Integer) -> float:
    """``zoo_games.santorini.evaluation.evaluate`` of the row's position, for ``player``.

    The return once the game is over (a worker on level 3 climbed there and won; a mover
    without a legal move has lost), 0 while workers are being placed, else the heights,
    threats, climbs and free cells around each worker (:func:`standing`), own against the
    opponent's, scored by the rules core's own functions, compiled (so the same float).
    """
    if in_placement(row):
        return 0.0
    heights = row[HEIGHTS:]
    occupied = 0
    for slot in range(4):
        cell = row[WORKERS + slot]
        occupied |= 1 << cell
        if heights[cell] == 3:
            return 1.0 if slot // 2 == player else -1.0
    levels = np.zeros(DOME + 1, dtype=np.int64)
    for cell in range(NUM_CELLS):
        levels[heights[cell]] |= 1 << cell
    if is_stuck(row, occupied, levels):
        return -1.0 if row[MOVER] == player else 1.0
    return score(
        standing(row, player, occupied, levels), standing(row, 1 - player, occupied, levels)
    )
