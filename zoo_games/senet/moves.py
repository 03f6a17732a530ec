"""Senet moves in the players' own words, for terminal play: ``14-17``, ``26-off``, ``pass``.

A move is named by the house its dancer leaves and the house it reaches (``off`` once borne
off); a dancer waiting in the House of Water (Skyruk, a throw of 5) "reaches" its own house,
``27-27``. Houses are unique per dancer, so the name says which dancer moves.
"""

from __future__ import annotations

import re

from zoo_games.senet.houses import HAPPINESS, OFF
from zoo_games.senet.position import SIDE_NAMES
from zoo_games.senet.rules import PASS, SenetState

HELP = (
    "type the house a dancer leaves and the house it reaches, as listed: '14-17', "
    "'26-off' to bear off, 'pass' when no dancer can move; or the move's number"
)

#: A typed entry (lower case, separators as single spaces) shaped like a Senet move.
_MOVE_SYNTAX = re.compile(r"pass|\d{1,2} (\d{1,2}|off)")


def move_names(state: SenetState, action: int) -> tuple[str, ...]:
    """``("14-17",)``, ``("26-off",)`` or ``("pass",)`` for a legal ``action``."""
    if action == PASS:
        return ("pass",)
    source, destination = state.legal_moves()[action]
    return (f"{source}-{'off' if destination == OFF else destination}",)


def describe(state: SenetState, action: int) -> str:
    """The rules core's own words: ``"dancer 1: 14->17 (beats the dancer there)"``."""
    if action == PASS:
        return "no dancer can move with this throw"
    return state.action_to_string(action)


def is_move_syntax(entry: str) -> bool:
    """Whether a normalised entry (``"14 17"``) is shaped like a move, legal or not."""
    return _MOVE_SYNTAX.fullmatch(entry) is not None


def turn_note(state: SenetState) -> str:
    """What the player does now, with the throw it moves by."""
    return f"to move, throw {state.throw}"


def announce(before: SenetState, action: int, after: SenetState) -> str | None:
    """An extra turn (throws 1, 4, 5) or Skyruk's re-throw from the House of Happiness."""
    if after.is_terminal() or after.mover != before.mover:
        return None
    side = SIDE_NAMES[before.mover]
    if action != PASS and before.game.skyruk and before.legal_moves()[action][1] == HAPPINESS:
        return f"re-throw from the House of Happiness: the {side} throw {after.throw}"
    return f"extra turn: the {side} threw {before.throw} and throw again: {after.throw}"


def score(state: SenetState) -> str:
    """Dancers borne off by each side."""
    return "dancers borne off: " + ", ".join(
        f"{SIDE_NAMES[p]} {state.borne_off[p]} of {state.game.num_pieces}" for p in (0, 1)
    )
