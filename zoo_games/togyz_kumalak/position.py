"""Togyz Kumalak position strings, read and written.

``"<white holes>/<black holes> <white kazan> <black kazan> <mover>"``: each row lists holes 1
to 9, a ball count or ``X`` for a tuzduk (a hole of that row owned by the other player).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import NamedTuple, Protocol

from zoo_games.core.errors import PositionError, position_fields
from zoo_games.togyz_kumalak.holes import (
    HOLES_PER_SIDE,
    NO_TUZDUK,
    TOTAL_BALLS,
    WINNING_KAZAN,
    hole_number,
)

SIDE_LETTERS = ("W", "B")
SIDE_NAMES = ("White", "Black")


class TogyzKumalakOptions(Protocol):
    """What a position is checked against: whether 82 balls end the game."""

    @property
    def stop_at_majority(self) -> bool:
        """Whether a kazan of 82 balls wins at once."""


class Position(Protocol):
    """What a position string shows of a state."""

    @property
    def holes(self) -> Sequence[int]:
        """The balls of the 18 holes, White's row first."""

    @property
    def kazans(self) -> Sequence[int]:
        """The balls of White's and Black's kazans."""

    @property
    def tuzduk(self) -> Container[int]:
        """The board hole of each player's tuzduk, or ``NO_TUZDUK``."""

    @property
    def mover(self) -> int:
        """The player to move."""


class PositionFields(NamedTuple):
    """A position read from its string: the rules core makes its state of these, in order."""

    holes: list[int]
    kazans: list[int]
    tuzduk: list[int]
    mover: int


def format_position(state: Position) -> str:
    """The position string of ``state``."""
    rows = []
    for side in (0, 1):
        first = HOLES_PER_SIDE * side
        rows.append(
            ",".join(
                "X" if hole in state.tuzduk else str(state.holes[hole])
                for hole in range(first, first + HOLES_PER_SIDE)
            )
        )
    kazans = state.kazans
    return f"{rows[0]}/{rows[1]} {kazans[0]} {kazans[1]} {SIDE_LETTERS[state.mover]}"


def parse_position(game: TogyzKumalakOptions, text: str) -> PositionFields:
    """The position ``text`` describes, or a :class:`PositionError` saying what is wrong.

    Whether the mover has a move is the rules core's to say (its ``state_from_position``).
    """
    fields = position_fields(
        text, "<white holes>/<black holes> <white kazan> <black kazan> <mover>", (4,)
    )
    rows_text, white_kazan, black_kazan, mover_text = fields
    rows = rows_text.split("/")
    if len(rows) != 2:
        raise PositionError(f"the holes must be two rows separated by '/', got {rows_text!r}")
    holes: list[int] = []
    tuzduk = [NO_TUZDUK, NO_TUZDUK]
    for side, row in enumerate(rows):
        entries = row.split(",")
        if len(entries) != HOLES_PER_SIDE:
            raise PositionError(
                f"{SIDE_NAMES[side]}'s row must list 9 holes, got {len(entries)} in {row!r}"
            )
        for number, entry in enumerate(entries, start=1):
            board_hole = HOLES_PER_SIDE * side + number - 1
            if entry == "X":
                owner = 1 - side
                if tuzduk[owner] != NO_TUZDUK:
                    raise PositionError(
                        f"{SIDE_NAMES[owner]} has two tuzduks in {SIDE_NAMES[side]}'s row; "
                        "a player makes at most one"
                    )
                if number == HOLES_PER_SIDE:
                    raise PositionError(
                        f"a tuzduk on {SIDE_NAMES[side]}'s hole 9: the ninth hole can never "
                        "become a tuzduk"
                    )
                tuzduk[owner] = board_hole
                holes.append(0)
            else:
                holes.append(_count(entry, f"{SIDE_NAMES[side]}'s hole {number}"))
    if NO_TUZDUK not in tuzduk and hole_number(tuzduk[0]) == hole_number(tuzduk[1]):
        raise PositionError(
            f"both tuzduks are on hole {hole_number(tuzduk[0])}: a player may not make a "
            "tuzduk facing the opponent's"
        )
    kazans = [_count(white_kazan, "White's kazan"), _count(black_kazan, "Black's kazan")]
    total = sum(holes) + sum(kazans)
    if total != TOTAL_BALLS:
        raise PositionError(
            f"the position holds {total} balls (holes and kazans); a game has {TOTAL_BALLS}"
        )
    if mover_text not in SIDE_LETTERS:
        raise PositionError(f"the mover must be 'W' or 'B', got {mover_text!r}")
    mover = SIDE_LETTERS.index(mover_text)
    if game.stop_at_majority and max(kazans) >= WINNING_KAZAN:
        raise PositionError(
            f"a kazan already holds {max(kazans)} balls (82 win): the game is already over"
        )
    return PositionFields(holes, kazans, tuzduk, mover)


def _count(entry: str, what: str) -> int:
    if not entry.isdigit():
        raise PositionError(f"{what} must be a number of balls (or X for a tuzduk), got {entry!r}")
    return int(entry)
