"""Togyz Kumalak moves in the players' own words, for terminal play: hole ``7`` or ``76``.

A move is the mover's hole number 1-9, as in tournament notation; the full notation
(``76``, ``36x``: the hole the last ball reached, ``x`` for a new tuzduk) names it too.
The list of moves is numbered by hole, so a move's number and its hole are the same.
"""

from __future__ import annotations

import re

from zoo_games.togyz_kumalak.position import SIDE_NAMES
from zoo_games.togyz_kumalak.rules import TogyzKumalakState

HELP = (
    "type the number 1-9 of one of your holes that holds balls, e.g. '7', "
    "or the move in tournament notation, e.g. '76' ('36x' when it makes a tuzduk)"
)

#: A hole number, or a notation such as ``76`` or ``36x``, legal or not.
_MOVE_SYNTAX = re.compile(r"[1-9]([1-9]x?)?")


def move_names(state: TogyzKumalakState, action: int) -> tuple[str, ...]:
    """``("7", "76")``: the hole number, then the notation of the move now."""
    return (str(action + 1), state.notation(action))


def describe(state: TogyzKumalakState, action: int) -> str:
    """What sowing the hole does: ``"sow hole 7 (76), kazan +10"``."""
    after = state.clone()
    after.apply_action(action)
    captured = after.kazans[state.mover] - state.kazans[state.mover]
    text = f"sow hole {action + 1} ({after.moves[-1]})"
    if after.tuzduk != state.tuzduk:
        text += ", makes a tuzduk"
    return text + (f", kazan +{captured}" if captured else "")


def is_move_syntax(entry: str) -> bool:
    """Whether a normalised entry is a hole number or a notation, legal or not."""
    return _MOVE_SYNTAX.fullmatch(entry) is not None


def turn_note(state: TogyzKumalakState) -> str:
    """What the player does now: the board shows the rest."""
    return "to move"


def announce(before: TogyzKumalakState, action: int, after: TogyzKumalakState) -> str | None:
    """Togyz Kumalak has no extra turns."""
    return None


def score(state: TogyzKumalakState) -> str:
    """Both kazans."""
    return f"kazans: {SIDE_NAMES[0]} {state.kazans[0]}, {SIDE_NAMES[1]} {state.kazans[1]}"
