"""Senet for people: the 3 x 10 board in its S-shaped order, as text and as a picture.

Houses 1-10 run left to right on the top row, 11-20 right to left on the middle row and
21-30 left to right on the bottom row, as on the ancient boards.
"""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.senet.houses import (
    EMPTY,
    HAPPINESS,
    PIECE_OF,
    RE_ATUM,
    RE_HORAKHTY,
    REBIRTH,
    THREE_TRUTHS,
    WATER,
)
from zoo_games.senet.position import SIDE_LETTERS, SIDE_NAMES
from zoo_games.senet.rules import EXTRA_TURN_THROWS, SenetState

#: One-letter marks of the special houses, and their names for the legend.
HOUSE_MARKS = {
    REBIRTH: ("R", "Rebirth"),
    HAPPINESS: ("H", "Happiness"),
    WATER: ("W", "Water"),
    THREE_TRUTHS: ("T", "Three Truths"),
    RE_ATUM: ("A", "Re-Atum"),
    RE_HORAKHTY: ("O", "Re-Horakhty"),
}
#: The houses of each board row as drawn, left to right.
BOARD_ROWS = (tuple(range(1, 11)), tuple(range(20, 10, -1)), tuple(range(21, 31)))
_PIECE_LETTER = {EMPTY: ".", PIECE_OF[0]: SIDE_LETTERS[0], PIECE_OF[1]: SIDE_LETTERS[1]}


def status_line(state: SenetState) -> str:
    """Who has won, or who acts and with which throw."""
    off = ", ".join(
        f"{SIDE_NAMES[p]} ({SIDE_LETTERS[p]}) {state.borne_off[p]}/{state.game.num_pieces} off"
        for p in (0, 1)
    )
    if state.winner >= 0:
        return f"{SIDE_NAMES[state.winner]} win | {off}"
    side = f"{SIDE_NAMES[state.mover]} ({SIDE_LETTERS[state.mover]})"
    if not state.throw:
        return f"{side} to throw | {off}"
    again = "extra turn" if state.throw in EXTRA_TURN_THROWS else "turn passes"
    return f"{side} to move, throw {state.throw} ({again}) | {off}"


class SenetRenderer:
    """Draws Senet states as ANSI text and as RGB pictures."""

    cell = 64

    def ansi(self, state: SenetState) -> str:
        """Three rows of ten houses; arrows show the direction of the path."""
        border = "+" + "----+" * 10
        lines = [f"Senet ({state.game.rules}, {state.game.num_pieces} dancers)", border]
        arrows = ("-->", "<--", "-->")
        for row, arrow in zip(BOARD_ROWS, arrows, strict=True):
            cells = "|".join(
                f"{house:>2}{HOUSE_MARKS.get(house, (' ', ''))[0]}"
                f"{_PIECE_LETTER[state.board[house]]}"
                for house in row
            )
            lines += [f"|{cells}| {arrow}", border]
        legend = ", ".join(f"{mark} {name}" for mark, name in HOUSE_MARKS.values())
        lines += [legend, status_line(state)]
        return "\n".join(lines)

    def rgb(self, state: SenetState) -> np.ndarray:
        """The board, the sticks, a legend of the pieces and houses, and the status line.

        The legend says whose pieces are whose (drawn as on the board, with each side's
        dancers borne off drawn beside it) and what the letters of the special houses mean,
        so that the picture reads without the text render beside it.
        """
        cell = self.cell
        margin = 16
        width = 10 * cell + 2 * margin
        board_bottom = margin + 3 * cell
        height = board_bottom + 190
        canvas = drawing.Canvas(width, height)
        title = f"Senet ({state.game.rules} rules, {state.game.num_pieces} dancers each)"
        canvas.text((width / 2, margin / 2 + 1), title, 12)
        for row_index, row in enumerate(BOARD_ROWS):
            for column, house in enumerate(row):
                x = margin + column * cell
                y = margin + row_index * cell
                special = house in HOUSE_MARKS
                canvas.box(
                    (x, y), (cell, cell), fill=drawing.BOARD_DARK if special else drawing.BOARD
                )
                canvas.text((x + 4, y + 3), str(house), 12, anchor="la")
                if special:
                    canvas.text((x + cell - 4, y + 3), HOUSE_MARKS[house][0], 14, anchor="ra")
                self._draw_dancer(canvas, state.board[house], x + cell / 2, y + cell / 2 + 5)
        self._draw_sticks(canvas, state, margin, board_bottom + 12)
        self._draw_sides(canvas, state, margin, board_bottom + 66)
        houses = [f"{mark}: {house} {name}" for house, (mark, name) in HOUSE_MARKS.items()]
        for line, names in enumerate((houses[:3], houses[3:])):
            canvas.text(
                (margin, board_bottom + 128 + 18 * line), "   ".join(names), 13, anchor="lm"
            )
        canvas.text((margin, height - 16), status_line(state), 13, anchor="lm")
        return canvas.to_array()

    def _draw_sides(self, canvas: drawing.Canvas, state: SenetState, x: float, y: float) -> None:
        """One line per side: its piece as on the board, its name, its dancers borne off."""
        for player in (0, 1):
            row_y = y + 26 * player
            self._draw_dancer(canvas, PIECE_OF[player], x + 10, row_y, scale=0.5)
            name = f"player_{player}: {SIDE_NAMES[player]} ({SIDE_LETTERS[player]})"
            canvas.text((x + 26, row_y), name, 13, anchor="lm")
            off = state.borne_off[player]
            canvas.text(
                (x + 200, row_y), f"borne off {off}/{state.game.num_pieces}:", 13, anchor="lm"
            )
            for dancer in range(off):
                self._draw_dancer(canvas, PIECE_OF[player], x + 330 + 24 * dancer, row_y, 0.5)

    @staticmethod
    def _draw_dancer(
        canvas: drawing.Canvas, piece: int, x: float, y: float, scale: float = 1.0
    ) -> None:
        if piece == PIECE_OF[0]:  # a spool: a light disc with a waist line
            radius = 18 * scale
            canvas.disc((x, y), radius, drawing.PLAYER_COLORS[0])
            canvas.draw.line((x - radius, y, x + radius, y), fill=drawing.INK, width=2)
        elif piece == PIECE_OF[1]:  # a con: a dark cone
            canvas.draw.polygon(
                [
                    (x, y - 20 * scale),
                    (x - 16 * scale, y + 16 * scale),
                    (x + 16 * scale, y + 16 * scale),
                ],
                fill=drawing.PLAYER_COLORS[1],
                outline=drawing.PLAYER_OUTLINES[1],
            )

    @staticmethod
    def _draw_sticks(canvas: drawing.Canvas, state: SenetState, x: float, y: float) -> None:
        """The four sticks of the current throw: coloured sides up count, all dark means 5."""
        coloured = 0 if state.throw in (0, 5) else state.throw
        for stick in range(4):
            fill = drawing.HIGHLIGHT if stick < coloured else drawing.INK
            if not state.throw:
                fill = drawing.BOARD
            canvas.box((x + stick * 14, y), (8, 30), fill=fill)
        label = f"throw {state.throw}" if state.throw else "sticks not thrown yet"
        canvas.text((x + 64, y + 15), label, 13, anchor="lm")
