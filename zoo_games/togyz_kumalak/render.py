"""Togyz Kumalak for people: both rows of holes, the kazans and the tuzduks.

The board is drawn from White's seat: White's holes 1-9 left to right at the bottom, Black's
holes 1-9 right to left at the top, so sowing runs counterclockwise as at a real board.
"""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.core.game import DRAW
from zoo_games.togyz_kumalak.position import SIDE_NAMES
from zoo_games.togyz_kumalak.rules import HOLES_PER_SIDE, TogyzKumalakState


def status_line(state: TogyzKumalakState) -> str:
    """Kazans and who is to move (or who won)."""
    kazans = f"kazans: White {state.kazans[0]}, Black {state.kazans[1]}"
    if state.winner == DRAW:
        return f"draw 81-81 | {kazans}"
    if state.winner >= 0:
        return f"{SIDE_NAMES[state.winner]} wins | {kazans}"
    last = f" | last move {state.moves[-1]}" if state.moves else ""
    return f"{SIDE_NAMES[state.mover]} to move | {kazans}{last}"


def _cell(state: TogyzKumalakState, hole: int) -> str:
    return "  X" if hole in state.tuzduk else f"{state.holes[hole]:>3}"


class TogyzKumalakRenderer:
    """Draws Togyz Kumalak states as ANSI text and as RGB pictures."""

    def ansi(self, state: TogyzKumalakState) -> str:
        """Black's row on top (hole 9 on the left), White's row below; X marks a tuzduk."""
        black = [HOLES_PER_SIDE + n for n in reversed(range(HOLES_PER_SIDE))]
        white = list(range(HOLES_PER_SIDE))
        numbers_black = "".join(f"{n + 1:>4}" for n in reversed(range(HOLES_PER_SIDE)))
        numbers_white = "".join(f"{n + 1:>4}" for n in range(HOLES_PER_SIDE))
        return "\n".join(
            [
                "Togyz Kumalak (X: tuzduk, its balls go to the other player's kazan)",
                f"Black {numbers_black}",
                "      " + "".join(f" {_cell(state, h)}" for h in black),
                f"      Black's kazan {state.kazans[1]:>3} | White's kazan {state.kazans[0]:>3}",
                "      " + "".join(f" {_cell(state, h)}" for h in white),
                f"White {numbers_white}",
                status_line(state),
            ]
        )

    def rgb(self, state: TogyzKumalakState) -> np.ndarray:
        """Holes as rounded pits with their ball counts, kazans between the rows."""
        pit, gap, margin = 60, 8, 20
        width = 2 * margin + HOLES_PER_SIDE * (pit + gap)
        height = 2 * margin + 2 * pit + 130
        canvas = drawing.Canvas(width, height)
        canvas.box(
            (margin - 6, margin - 6), (width - 2 * margin + 12, 2 * pit + 92), fill=drawing.BOARD
        )
        rows = (
            (margin + 10, [HOLES_PER_SIDE + n for n in reversed(range(HOLES_PER_SIDE))]),
            (margin + pit + 70, list(range(HOLES_PER_SIDE))),
        )
        for top, holes in rows:
            for column, hole in enumerate(holes):
                x = margin + column * (pit + gap)
                tuzduk = hole in state.tuzduk
                canvas.draw.rounded_rectangle(
                    (x, top, x + pit, top + pit),
                    radius=14,
                    fill=drawing.HIGHLIGHT if tuzduk else drawing.BOARD_DARK,
                    outline=drawing.INK,
                    width=2,
                )
                label = "X" if tuzduk else str(state.holes[hole])
                canvas.text((x + pit / 2, top + pit / 2), label, 20, fill=(255, 255, 255))
                canvas.text((x + pit / 2, top + pit + 8), str(hole % HOLES_PER_SIDE + 1), 11)
        middle = margin + pit + 40
        canvas.text(
            (width / 2, middle),
            f"Black's kazan {state.kazans[1]}   |   White's kazan {state.kazans[0]}",
            15,
        )
        canvas.text((margin, height - 22), status_line(state), 13, anchor="lm")
        return canvas.to_array()
