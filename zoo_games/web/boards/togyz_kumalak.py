"""Togyz Kumalak in the browser: 18 holes with their counts, both kazans, the tuzduks.

Drawn as the environment's picture (:mod:`zoo_games.togyz_kumalak.render`), from White's
seat: Black's holes 9-1 on top, White's 1-9 below, the kazans between them; a tuzduk is a
red hole marked X with its owner's name. A move is one click, on the hole to sow.
"""

from __future__ import annotations

from zoo_games.togyz_kumalak.holes import HOLES_PER_SIDE
from zoo_games.togyz_kumalak.position import SIDE_NAMES
from zoo_games.togyz_kumalak.render import status_line
from zoo_games.togyz_kumalak.rules import TogyzKumalakState
from zoo_games.web.boards import svg

PIT = 60
GAP = 8
MARGIN = 20
LABEL_WIDTH = 100
LEFT = MARGIN + LABEL_WIDTH
WIDTH = LEFT + HOLES_PER_SIDE * (PIT + GAP) + MARGIN
BLACK_TOP = MARGIN + 26
STORE_TOP = BLACK_TOP + PIT + 18
WHITE_TOP = STORE_TOP + 50 + 18
HEIGHT = WHITE_TOP + PIT + 88


def hole_target(hole: int) -> str:
    """The target name of a board hole 0-17 (White's 0-8, Black's 9-17): ``"hole12"``."""
    return f"hole{hole}"


def clicks(state: TogyzKumalakState, action: int) -> tuple[str, ...]:
    """The mover's hole to sow."""
    return (hole_target(HOLES_PER_SIDE * state.mover + action),)


def record_name(state: TogyzKumalakState, action: int) -> str:
    """The move in tournament notation: ``76``, ``36x`` when it makes a tuzduk."""
    return state.notation(action)


def picture(state: TogyzKumalakState) -> str:
    """Both rows of holes with their side and hole numbers, the kazans, a legend, the status."""
    parts = [
        svg.rect(
            MARGIN - 6,
            MARGIN - 6,
            WIDTH - 2 * MARGIN + 12,
            WHITE_TOP + PIT + 40 - MARGIN,
            svg.BOARD,
        )
    ]
    rows = (
        (BLACK_TOP, 1, [HOLES_PER_SIDE + n for n in reversed(range(HOLES_PER_SIDE))], -1),
        (WHITE_TOP, 0, list(range(HOLES_PER_SIDE)), 1),
    )
    for top, player, holes, number_side in rows:
        parts.append(
            svg.text(MARGIN + 4, top + PIT / 2 - 6, SIDE_NAMES[player], 17, anchor="start")
        )
        parts.append(
            svg.text(MARGIN + 4, top + PIT / 2 + 12, f"(player_{player})", 12, anchor="start")
        )
        if state.winner < 0 and state.mover == player:
            parts.append(
                svg.text(MARGIN + 4, top + PIT / 2 + 28, "▶ to move", 12, svg.HIGHLIGHT, "start")
            )
        for column, hole in enumerate(holes):
            x = LEFT + column * (PIT + GAP)
            number_y = top - 6 if number_side < 0 else top + PIT + 16
            parts.append(svg.text(x + PIT / 2, number_y, str(hole % HOLES_PER_SIDE + 1), 13))
            parts.append(_hole(state, hole, x, top))
    store_width = (HOLES_PER_SIDE * (PIT + GAP) - GAP - 20) / 2
    for index, player in enumerate((1, 0)):
        store_x = LEFT + index * (store_width + 20)
        parts.append(svg.rect(store_x, STORE_TOP, store_width, 50, svg.BOARD_DARK, rx=24))
        label = f"{SIDE_NAMES[player]}'s kazan: {state.kazans[player]}"
        parts.append(svg.text(store_x + store_width / 2, STORE_TOP + 31, label, 18, svg.WHITE))
    legend = "X: a tuzduk, marked with its owner; every ball sown into it goes to the owner's kazan"
    parts.append(svg.text(MARGIN, HEIGHT - 36, legend, 13, anchor="start"))
    parts.append(svg.text(MARGIN, HEIGHT - 12, status_line(state), 14, anchor="start"))
    return svg.picture(WIDTH, HEIGHT, f"Togyz Kumalak board: {state.position()}", *parts)


def _hole(state: TogyzKumalakState, hole: int, x: float, top: float) -> str:
    """A hole with its ball count, or a tuzduk: red, X, and whose it is."""
    if hole in state.tuzduk:
        owner = SIDE_NAMES[state.tuzduk.index(hole)]
        inner = [
            svg.rect(x, top, PIT, PIT, svg.HIGHLIGHT, rx=14),
            svg.text(x + PIT / 2, top + PIT / 2 + 1, "X", 22, svg.WHITE),
            svg.text(x + PIT / 2, top + PIT / 2 + 20, f"{owner}'s", 12, svg.WHITE),
        ]
    else:
        inner = [
            svg.rect(x, top, PIT, PIT, svg.BOARD_DARK, rx=14),
            svg.text(x + PIT / 2, top + PIT / 2 + 7, str(state.holes[hole]), 21, svg.WHITE),
        ]
    return svg.target(hole_target(hole), x, top, PIT, PIT, *inner)
