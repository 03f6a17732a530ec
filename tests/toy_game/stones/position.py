"""Stones position strings: ``"<stones left> <mover 0 or 1>"``, e.g. ``"7 1"``."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from zoo_games.core.errors import PositionError, position_fields

SIDE_NAMES = ("first", "second")


class Pile(Protocol):
    """The variant a position is read for, and a state written as one: both have stones."""

    stones: int


class Position(Pile, Protocol):
    """A state, as its position string shows it."""

    mover: int


class PositionFields(NamedTuple):
    """What ``StonesState`` is made of, in order."""

    stones: int
    mover: int


def format_position(state: Position) -> str:
    """The position string of ``state``."""
    return f"{state.stones} {state.mover}"


def parse_position(game: Pile, text: str) -> PositionFields:
    """The position ``text`` describes; ``PositionError`` saying what is wrong otherwise."""
    stones, mover = position_fields(text, "<stones> <mover>", (2,))
    if not stones.isdecimal() or int(stones) > game.stones:
        raise PositionError(f"stones must be a number from 0 to {game.stones}, got {stones!r}")
    if mover not in ("0", "1"):
        raise PositionError(f"the mover must be 0 or 1, got {mover!r}")
    return PositionFields(int(stones), int(mover))
