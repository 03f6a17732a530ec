"""Santorini position strings, read and written.

``"<heights> <workers> <mover> <parts>"``: five rows of five digits (0-3 levels, 4 a dome),
top row first, separated by ``/``; the cells of player_0's workers 0 and 1 and player_1's,
``a,b;c,d``, ``-`` for a worker not placed yet; the mover ``0`` or ``1``; the parts left,
``l1,l2,l3,dome``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from zoo_games.core.errors import PositionError, position_fields
from zoo_games.santorini.cells import DOME, INITIAL_PARTS, NUM_CELLS, SIZE, UNPLACED, cell_name

PART_NAMES = ("level-1", "level-2", "level-3", "dome")


class SantoriniOptions(Protocol):
    """What a position is checked against: how the workers are set up."""

    @property
    def setup(self) -> str:
        """``"fixed"`` or ``"placement"``."""


class Position(Protocol):
    """What a position string shows of a state."""

    @property
    def heights(self) -> Sequence[int]:
        """The height of each cell."""

    @property
    def workers(self) -> Sequence[int]:
        """The cells of player_0's workers 0 and 1, then player_1's (``UNPLACED``: none)."""

    @property
    def mover(self) -> int:
        """The player to move."""

    @property
    def parts(self) -> Sequence[int]:
        """The parts left: level 1, level 2, level 3, dome."""


class PositionFields(NamedTuple):
    """A position read from its string: the rules core makes its state of these, in order."""

    heights: list[int]
    workers: list[int]
    mover: int
    parts: list[int]


def format_position(state: Position) -> str:
    """The position string of ``state``."""
    rows = "/".join(
        "".join(str(h) for h in state.heights[row * SIZE : (row + 1) * SIZE]) for row in range(SIZE)
    )
    cells = ["-" if cell == UNPLACED else str(cell) for cell in state.workers]
    workers = f"{cells[0]},{cells[1]};{cells[2]},{cells[3]}"
    parts = ",".join(str(p) for p in state.parts)
    return f"{rows} {workers} {state.mover} {parts}"


def parts_used(heights: list[int]) -> list[int]:
    """Pieces of each kind standing on the board.

    A cell at height h holds one piece of each level up to h; a dome stands on a level-3 tower.
    """
    return [
        sum(h >= 1 for h in heights),
        sum(h >= 2 for h in heights),
        sum(h >= 3 for h in heights),
        sum(h == DOME for h in heights),
    ]


def parse_position(game: SantoriniOptions, text: str) -> PositionFields:
    """The position ``text`` describes, or a :class:`PositionError` saying what is wrong.

    Whether the mover has a move is the rules core's to say (its ``state_from_position``).
    """
    fields = position_fields(text, "<heights> <workers> <mover> <parts>", (4,))
    heights_text, workers_text, mover_text, parts_text = fields
    rows = heights_text.split("/")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise PositionError(
            f"the heights must be 5 rows of 5 digits separated by '/', got {heights_text!r}"
        )
    if any(ch not in "01234" for row in rows for ch in row):
        raise PositionError(f"heights are digits 0-3 (levels) or 4 (a dome), got {heights_text!r}")
    heights = [int(ch) for row in rows for ch in row]
    workers = _workers(workers_text, heights, game)
    if mover_text not in ("0", "1"):
        raise PositionError(f"the mover must be 0 or 1, got {mover_text!r}")
    mover = int(mover_text)
    parts = _parts(parts_text, heights)
    if UNPLACED in workers and mover != workers.index(UNPLACED) // 2:
        raise PositionError(
            f"player_{workers.index(UNPLACED) // 2} places the next worker, so the mover must be "
            f"{workers.index(UNPLACED) // 2}"
        )
    return PositionFields(heights, workers, mover, parts)


def _workers(text: str, heights: list[int], game: SantoriniOptions) -> list[int]:
    sides = text.split(";")
    if len(sides) != 2 or any(len(side.split(",")) != 2 for side in sides):
        raise PositionError(f"the workers must be written 'a,b;c,d', got {text!r}")
    workers: list[int] = []
    for entry in (e for side in sides for e in side.split(",")):
        if entry == "-":
            workers.append(UNPLACED)
        elif entry.isdigit() and int(entry) < NUM_CELLS:
            workers.append(int(entry))
        else:
            raise PositionError(f"a worker's cell is 0-24 or '-', got {entry!r} in {text!r}")
    placed = [cell for cell in workers if cell != UNPLACED]
    if len(set(placed)) != len(placed):
        raise PositionError(f"two workers on one cell in {text!r}")
    if UNPLACED in workers:
        if game.setup != "placement":
            raise PositionError("unplaced workers ('-') need setup='placement'")
        first = workers.index(UNPLACED)
        if any(cell != UNPLACED for cell in workers[first:]):
            raise PositionError(
                f"workers are placed in order (player_0's 0 and 1, then player_1's): {text!r}"
            )
        if any(heights):
            raise PositionError(
                "workers are placed before anything is built, so a position with unplaced "
                f"workers ('-') has an empty board, got {text!r} on a board with buildings"
            )
    for cell in placed:
        if heights[cell] == DOME:
            raise PositionError(f"a worker on the dome of {cell_name(cell)} ({cell})")
        if heights[cell] == 3:
            raise PositionError(
                f"a worker on level 3 ({cell_name(cell)}): it climbed there and won, so the "
                "game is already over"
            )
    return workers


def _parts(text: str, heights: list[int]) -> list[int]:
    entries = text.split(",")
    if len(entries) != 4 or not all(e.isdigit() for e in entries):
        raise PositionError(f"the parts left must be four numbers 'l1,l2,l3,dome', got {text!r}")
    parts = [int(e) for e in entries]
    for kind, (left, used, initial) in enumerate(
        zip(parts, parts_used(heights), INITIAL_PARTS, strict=True)
    ):
        if left + used != initial:
            raise PositionError(
                f"{left} {PART_NAMES[kind]} pieces left and {used} on the board make "
                f"{left + used}, but the game has {initial}"
            )
    return parts
