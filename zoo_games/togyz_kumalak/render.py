"""Togyz Kumalak for people: both rows of holes, the kazans and the tuzduks.

The board is drawn from White's seat: White's holes 1-9 left to right at the bottom, Black's
holes 1-9 right to left at the top, so sowing runs counterclockwise as at a real board.
"""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.core.game import DRAW
from zoo_games.togyz_kumalak.holes import HOLES_PER_SIDE
from zoo_games.togyz_kumalak.position import SIDE_NAMES
from zoo_games.togyz_kumalak.rules import TogyzKumalakState


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
        """Both rows of pits, labelled with their side and hole numbers, the kazans between.

        Black's row is on top (hole 9 on the left), White's below (hole 1 on the left), as in
        the text render. A tuzduk is a red pit marked X that names its owner; the kazans are
        drawn as stores with their counts, so the picture reads without the text beside it.
        """
        pit, gap, margin, label_width = 60, 8, 20, 96
        left = margin + label_width
        width = left + HOLES_PER_SIDE * (pit + gap) + margin
        black_top, store_top, white_top = margin + 22, margin + pit + 36, margin + pit + 116
        height = white_top + pit + 90
        canvas = drawing.Canvas(width, height)
        canvas.box(
            (margin - 6, margin - 6),
            (width - 2 * margin + 12, white_top + pit + 34 - margin),
            fill=drawing.BOARD,
        )
        rows = (
            (black_top, 1, [HOLES_PER_SIDE + n for n in reversed(range(HOLES_PER_SIDE))], -1),
            (white_top, 0, list(range(HOLES_PER_SIDE)), 1),
        )
        for top, player, holes, number_side in rows:
            canvas.text((margin + 4, top + pit / 2 - 9), SIDE_NAMES[player], 16, anchor="lm")
            canvas.text((margin + 4, top + pit / 2 + 11), f"(player_{player})", 13, anchor="lm")
            for column, hole in enumerate(holes):
                x = left + column * (pit + gap)
                self._draw_pit(canvas, state, hole, x, top, pit)
                number_y = top - 11 if number_side < 0 else top + pit + 11
                canvas.text((x + pit / 2, number_y), str(hole % HOLES_PER_SIDE + 1), 13)
        store_width = (HOLES_PER_SIDE * (pit + gap) - gap - 20) / 2
        for index, player in enumerate((1, 0)):
            store_x = left + index * (store_width + 20)
            canvas.draw.rounded_rectangle(
                (store_x, store_top, store_x + store_width, store_top + 50),
                radius=24,
                fill=drawing.BOARD_DARK,
                outline=drawing.INK,
                width=2,
            )
            canvas.text(
                (store_x + store_width / 2, store_top + 25),
                f"{SIDE_NAMES[player]}'s kazan: {state.kazans[player]}",
                17,
                fill=(255, 255, 255),
            )
        canvas.text(
            (margin, height - 44),
            "X: a tuzduk, marked with its owner; every ball sown into it goes to the owner's kazan",
            13,
            anchor="lm",
        )
        canvas.text((margin, height - 20), status_line(state), 13, anchor="lm")
        return canvas.to_array()

    @staticmethod
    def _draw_pit(
        canvas: drawing.Canvas, state: TogyzKumalakState, hole: int, x: float, top: float, pit: int
    ) -> None:
        """A hole with its ball count, or a tuzduk: red, X, and whose it is."""
        tuzduk = hole in state.tuzduk
        canvas.draw.rounded_rectangle(
            (x, top, x + pit, top + pit),
            radius=14,
            fill=drawing.HIGHLIGHT if tuzduk else drawing.BOARD_DARK,
            outline=drawing.INK,
            width=2,
        )
        white = (255, 255, 255)
        if tuzduk:
            owner = SIDE_NAMES[state.tuzduk.index(hole)]
            canvas.text((x + pit / 2, top + pit / 2 - 9), "X", 20, fill=white)
            canvas.text((x + pit / 2, top + pit / 2 + 15), f"{owner}'s", 12, fill=white)
        else:
            canvas.text((x + pit / 2, top + pit / 2), str(state.holes[hole]), 20, fill=white)
