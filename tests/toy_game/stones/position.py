"""Stones position strings: ``"<stones left> <mover 0 or 1>"``, e.g. ``"7 1"``."""

from __future__ import annotations

from zoo_games.core.errors import PositionError, position_fields
from zoo_games.stones.rules import StonesGame, StonesState

SIDE_NAMES = ("first", "second")


def format_position(state: StonesState) -> str:
    """The position string of ``state``."""
    return f"{state.stones} {state.mover}"


def parse_position(game: StonesGame, text: str) -> StonesState:
    """The state ``text`` describes; ``PositionError`` saying what is wrong otherwise."""
    stones, mover = position_fields(text, "<stones> <mover>", (2,))
    if not stones.isdecimal() or int(stones) > game.stones:
        raise PositionError(f"stones must be a number from 0 to {game.stones}, got {stones!r}")
    if mover not in ("0", "1"):
        raise PositionError(f"the mover must be 0 or 1, got {mover!r}")
    return StonesState(game, int(stones), int(mover))
