"""Stones moves in the players' words, for terminal play: ``take 2`` (or ``2``, its number)."""

from __future__ import annotations

import re

from zoo_games.stones.position import SIDE_NAMES
from zoo_games.stones.rules import StonesState

HELP = "type 'take 1', 'take 2' or 'take 3' (no more than are left), or the move's number"

_MOVE_SYNTAX = re.compile(r"take \d+")


def move_names(state: StonesState, action: int) -> tuple[str, ...]:
    """``("take 2",)``."""
    return (f"take {action + 1}",)


def describe(state: StonesState, action: int) -> str:
    """How many stones are left after the move."""
    return f"leaves {state.stones - action - 1}"


def is_move_syntax(entry: str) -> bool:
    """Whether a normalised entry is shaped like ``take N``."""
    return _MOVE_SYNTAX.fullmatch(entry) is not None


def turn_note(state: StonesState) -> str:
    """What the player does now."""
    return "to take"


def announce(before: StonesState, action: int, after: StonesState) -> str | None:
    """Stones has no extra turns."""
    return None


def score(state: StonesState) -> str:
    """Who took the last stone."""
    return f"the {SIDE_NAMES[state.winner()]} player took the last stone"
