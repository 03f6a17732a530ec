"""Santorini's rules stated plainly: the one statement of the rules.

Read it next to ``docs/santorini.md`` ("The rules as implemented", "Readings we chose"): this
module is the oracle that the fast paths are tested against, the rules core
(:mod:`zoo_games.santorini.rules`, which generates moves with 25-bit cell masks and lookup
tables) and the batched kernels (:mod:`zoo_games.batched.santorini`). It is slow on purpose:
every one of the 128 (worker, move, build) actions is tried against the rule text.

A position is a :class:`SantoriniPosition`: the height of each cell, the cells of the four
workers (``None`` while not placed), the player to act, the parts left, and the variant's
set-up. Cells are numbered ``5 * row + column`` from the top-left, as the actions number them.
:func:`from_position` reads a position string, :func:`from_state` converts a rules-core state,
:func:`position_string` writes one back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from zoo_games.core.game import TERMINAL

if TYPE_CHECKING:
    from zoo_games.santorini.rules import SantoriniState

SIZE = 5
CELLS = range(SIZE * SIZE)
DOME = 4
#: Building parts at the start: level-1, level-2, level-3 pieces and domes.
INITIAL_PARTS = (22, 18, 14, 18)
#: The eight directions in the order the actions use: NW, N, NE, W, E, SW, S, SE.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: ``setup="fixed"``: player_0's workers 0 and 1, then player_1's.
FIXED_WORKERS = (2, 22, 10, 14)
#: Actions ``128 + cell`` place the next worker on ``cell`` (``setup="placement"``).
PLACEMENT = 128


@dataclass(frozen=True)
class SantoriniPosition:
    """A Santorini position.

    ``heights[cell]`` is 0-3 (levels) or 4 (a dome); ``workers[2 * player + w]`` is the cell
    of ``player``'s worker ``w`` or ``None`` before it is placed; ``parts`` are the level-1,
    level-2, level-3 pieces and domes left.
    """

    heights: tuple[int, ...]
    workers: tuple[int | None, ...]
    mover: int
    parts: tuple[int, int, int, int]
    setup: str = "fixed"


# ---------------------------------------------------------------------- the position


def initial_position(setup: str = "fixed") -> SantoriniPosition:
    """An empty board; workers on cells 2, 22 (player_0) and 10, 14, or none yet to place."""
    workers: tuple[int | None, ...] = FIXED_WORKERS if setup == "fixed" else (None,) * 4
    return SantoriniPosition((0,) * len(CELLS), workers, 0, INITIAL_PARTS, setup)


def from_position(text: str, setup: str = "fixed") -> SantoriniPosition:
    """Read ``"<heights> <workers> <mover> <parts>"`` (checked by the rules core's parser)."""
    heights, workers, mover, parts = text.split()
    cells = workers.replace(";", ",").split(",")
    l1, l2, l3, domes = (int(count) for count in parts.split(","))
    return SantoriniPosition(
        tuple(int(height) for height in heights.replace("/", "")),
        tuple(None if cell == "-" else int(cell) for cell in cells),
        int(mover),
        (l1, l2, l3, domes),
        setup,
    )


def from_state(state: SantoriniState) -> SantoriniPosition:
    """The position of a rules-core state."""
    return from_position(state.position(), state.game.setup)


def position_string(position: SantoriniPosition) -> str:
    """The position string, as the rules core writes it."""
    heights = "/".join(
        "".join(str(height) for height in position.heights[row * SIZE : (row + 1) * SIZE])
        for row in range(SIZE)
    )
    cells = ["-" if cell is None else str(cell) for cell in position.workers]
    parts = ",".join(str(count) for count in position.parts)
    return f"{heights} {cells[0]},{cells[1]};{cells[2]},{cells[3]} {position.mover} {parts}"


# ---------------------------------------------------------------------- the board


def neighbour(cell: int, direction: int) -> int | None:
    """The cell one step from ``cell`` in ``direction``, or ``None`` off the board."""
    row, column = divmod(cell, SIZE)
    d_row, d_column = DIRECTIONS[direction]
    row, column = row + d_row, column + d_column
    if 0 <= row < SIZE and 0 <= column < SIZE:
        return SIZE * row + column
    return None


def in_placement(position: SantoriniPosition) -> bool:
    """Whether workers are still to be placed (``setup="placement"``)."""
    return None in position.workers


def has_worker(position: SantoriniPosition, cell: int) -> bool:
    """Whether a worker (of either player) stands on ``cell``."""
    return cell in position.workers


def part_for(height: int) -> int:
    """Which of ``parts`` a build on a cell of ``height`` uses: its index is the height.

    A level-0 cell takes a level-1 piece (``parts[0]``), level 1 a level-2 piece, level 2 a
    level-3 piece, and level 3 a dome (``parts[3]``; reading 3: domes go only on level 3).
    """
    return height


# ---------------------------------------------------------------------- the legal actions


def may_place(position: SantoriniPosition, cell: int) -> bool:
    """A worker is placed on any cell without a worker (or a dome)."""
    return not has_worker(position, cell) and position.heights[cell] != DOME


def may_move(position: SantoriniPosition, source: int, target: int | None) -> bool:
    """A worker moves to a neighbouring cell with no worker and no dome, at most one level up.

    It may go down any number of levels.
    """
    if target is None or has_worker(position, target):
        return False
    height = position.heights[target]
    return height != DOME and height <= position.heights[source] + 1


def wins_by_moving(position: SantoriniPosition, source: int, target: int) -> bool:
    """A worker that moves up onto level 3 wins at once (reading 1: only moving up wins)."""
    return position.heights[target] == 3 and position.heights[source] < 3


def may_build(position: SantoriniPosition, slot: int, cell: int | None) -> bool:
    """Whether the worker in ``slot``, having just moved, may build on ``cell``.

    On a cell next to its new one that has no worker and no dome (the cell the worker just left
    counts as free, so only the other three workers are in the way): one level up, or a dome
    on level 3, if a part of that kind is left.
    """
    if cell is None:
        return False
    other_workers = [c for other, c in enumerate(position.workers) if other != slot]
    if cell in other_workers or position.heights[cell] == DOME:
        return False
    return position.parts[part_for(position.heights[cell])] > 0


def is_legal_turn(position: SantoriniPosition, worker: int, move: int, build: int) -> bool:
    """Whether the mover's ``worker`` may move in direction ``move``, then build in ``build``.

    A winning move (up onto level 3) is legal with every build direction: no build follows, so
    the build is moot (reading 2). Otherwise the build must be legal: a move after which no
    build is possible is not a legal move.
    """
    slot = 2 * position.mover + worker
    source = position.workers[slot]
    assert source is not None
    target = neighbour(source, move)
    if target is None or not may_move(position, source, target):
        return False
    if wins_by_moving(position, source, target):
        return True
    return may_build(position, slot, neighbour(target, build))


def turn_action(worker: int, move: int, build: int) -> int:
    """The action of a turn: ``64 * worker + 8 * move + build``."""
    return 64 * worker + 8 * move + build


def legal_actions(position: SantoriniPosition) -> list[int]:
    """The legal actions of the player to act, ascending; none once the game is over.

    During placement: ``128 + cell`` for every cell a worker may be placed on. Then every
    (worker, move, build) turn that the rules allow.
    """
    if in_placement(position):
        return [PLACEMENT + cell for cell in CELLS if may_place(position, cell)]
    if position_has_climber(position):
        return []  # the climber has won
    return [
        turn_action(worker, move, build)
        for worker in (0, 1)
        for move in range(8)
        for build in range(8)
        if is_legal_turn(position, worker, move, build)
    ]


# ---------------------------------------------------------------------- playing an action


def after_placement(position: SantoriniPosition, cell: int) -> SantoriniPosition:
    """The next worker goes on ``cell``: player_0 places its workers 0 and 1, then player_1.

    After the last placement player_0 moves first.
    """
    workers = list(position.workers)
    workers[workers.index(None)] = cell
    mover = workers.index(None) // 2 if None in workers else 0
    return SantoriniPosition(
        position.heights, tuple(workers), mover, position.parts, position.setup
    )


def after_turn(position: SantoriniPosition, action: int) -> SantoriniPosition:
    """The position after the mover's legal turn ``action``.

    The worker moves; a worker that moved up onto level 3 has won and nothing is built (the
    winner stays the mover of the finished game). Otherwise it builds one level up (a dome on
    level 3), using a part of that kind, and the turn passes.
    """
    worker, rest = divmod(action, 64)
    move, build = divmod(rest, 8)
    slot = 2 * position.mover + worker
    source = position.workers[slot]
    assert source is not None
    target = neighbour(source, move)
    assert target is not None
    workers = list(position.workers)
    workers[slot] = target
    if wins_by_moving(position, source, target):
        return SantoriniPosition(
            position.heights, tuple(workers), position.mover, position.parts, position.setup
        )
    built = neighbour(target, build)
    assert built is not None
    heights = list(position.heights)
    parts = list(position.parts)
    parts[part_for(heights[built])] -= 1
    heights[built] += 1
    return SantoriniPosition(
        tuple(heights),
        tuple(workers),
        1 - position.mover,
        (parts[0], parts[1], parts[2], parts[3]),
        position.setup,
    )


def after_action(position: SantoriniPosition, action: int) -> SantoriniPosition:
    """The position after the legal ``action``: a placement or a turn."""
    assert action in legal_actions(position), f"illegal action {action}"
    if action >= PLACEMENT:
        return after_placement(position, action - PLACEMENT)
    return after_turn(position, action)


# ---------------------------------------------------------------------- the end


def position_has_climber(position: SantoriniPosition) -> bool:
    """Whether a worker stands on level 3: it climbed there, and its player has won."""
    return any(cell is not None and position.heights[cell] == 3 for cell in position.workers)


def winner(position: SantoriniPosition) -> int | None:
    """The winner, or ``None`` while the game goes on.

    A worker on level 3 has climbed there and won (reading 1). Otherwise a player who has no
    legal action on its turn loses (reading 6: every game ends, as every turn uses a part).
    """
    for slot, cell in enumerate(position.workers):
        if cell is not None and position.heights[cell] == 3:
            return slot // 2
    if not in_placement(position) and not any_legal_turn(position):
        return 1 - position.mover
    return None


def any_legal_turn(position: SantoriniPosition) -> bool:
    """Whether the mover has at least one legal (worker, move, build) turn."""
    return any(
        is_legal_turn(position, worker, move, build)
        for worker in (0, 1)
        for move in range(8)
        for build in range(8)
    )


def current_player(position: SantoriniPosition) -> int:
    """The player to act (player_0 first, then the players alternate), or :data:`TERMINAL`.

    During placement the player to act is the owner of the next worker to place.
    """
    return TERMINAL if is_over(position) else position.mover


def is_over(position: SantoriniPosition) -> bool:
    """Whether someone has won."""
    return winner(position) is not None


def returns(position: SantoriniPosition) -> tuple[float, float]:
    """+1 to the winner, -1 to the loser (reading 5); 0 to both before the end."""
    side = winner(position)
    if side is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if side == 0 else (-1.0, 1.0)
