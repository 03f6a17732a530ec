"""Santorini moves in the players' own words, for terminal play: ``w0-N-S``, ``r2c3``.

A turn is the worker (0 or 1), the direction it moves and the direction it builds from its
new cell, directions being NW, N, NE, W, E, SW, S, SE (north is row 0): ``w0-N-S``, or
``0 N S``, or with the worker's letter on the board, ``A N S``. A move up onto level 3 wins
before any build, so it is named without one (``w0-N``); the build directions are accepted
and ignored. With the placement set-up a
worker is placed by naming its cell, ``r2c3`` (row 2, column 3).
"""

from __future__ import annotations

import re

from zoo_games.santorini.cells import cell_name
from zoo_games.santorini.render import PLAYER_COLOUR_NAMES, WORKER_LETTERS
from zoo_games.santorini.rules import DIRECTION_NAMES, NEIGHBOUR, PLACEMENT_OFFSET, SantoriniState

#: Each player by the colour of its workers in the pictures.
SIDE_NAMES = PLAYER_COLOUR_NAMES

HELP = (
    "type your worker (w0 or 0, w1 or 1; or its letter on the board: A, B for player_0, Y, Z "
    "for player_1), the direction it moves and the direction it builds from its new cell, "
    "e.g. 'w0-N-S', '0 N S' or 'A N S' (directions NW N NE W E SW S SE, N is up); a winning "
    "climb needs no build: 'w1-SE'; to place a worker type its cell, e.g. 'r2c3'"
)

_DIRECTION = "(nw|n|ne|w|e|sw|s|se)"
#: A turn (``w0 n s``, ``0 n``, ``a n s``) or a cell (``r2c3``), legal or not.
_MOVE_SYNTAX = re.compile(rf"(w?\d|[abyz]) {_DIRECTION}( {_DIRECTION})?|r\d+c\d+")


def move_names(state: SantoriniState, action: int) -> tuple[str, ...]:
    """``("w0-N-S", "0 N S", "A N S")``; for a winning climb the same without the build first.

    A worker is named ``w0``, ``0`` or by its letter on the board (``A``; ``Y`` for
    player_1's worker 0).
    """
    if action >= PLACEMENT_OFFSET:
        return (cell_name(action - PLACEMENT_OFFSET),)
    worker, rest = divmod(action, 64)
    move, build = divmod(rest, 8)
    letter = WORKER_LETTERS[2 * state.mover + worker]
    directions = (DIRECTION_NAMES[move], DIRECTION_NAMES[build])
    full = (
        f"w{worker}-{'-'.join(directions)}",
        f"{worker} {' '.join(directions)}",
        f"{letter} {' '.join(directions)}",
    )
    if _climbs_to_win(state, worker, move):
        return (
            f"w{worker}-{directions[0]}",
            f"{worker} {directions[0]}",
            f"{letter} {directions[0]}",
            *full,
        )
    return full


def describe(state: SantoriniState, action: int) -> str:
    """The rules core's own words: ``"worker 0 N to r1c2, build level 1 S on r2c2"``."""
    return state.action_to_string(action)


def is_move_syntax(entry: str) -> bool:
    """Whether a normalised entry (``"w0 n s"``, ``"r2c3"``) is shaped like a move."""
    return _MOVE_SYNTAX.fullmatch(entry) is not None


def turn_note(state: SantoriniState) -> str:
    """Whether the player places a worker or moves and builds."""
    return "to place a worker" if state.in_placement() else "to move and build"


def announce(before: SantoriniState, action: int, after: SantoriniState) -> str | None:
    """Santorini has no extra turns; placing both workers is simply two decisions."""
    return None


def score(state: SantoriniState) -> str:
    """Who climbed to level 3, or who was stuck."""
    winner = state.winner
    if any(state.heights[cell] == 3 for cell in state.workers[2 * winner : 2 * winner + 2]):
        return f"{SIDE_NAMES[winner]} climbed to level 3"
    return f"{SIDE_NAMES[1 - winner]} was stuck: no worker could move and then build"


def _climbs_to_win(state: SantoriniState, worker: int, move: int) -> bool:
    source = state.workers[2 * state.mover + worker]
    target = NEIGHBOUR[source][move]
    return state.heights[target] == 3 and state.heights[source] < 3
