"""Santorini for people: heights, domes and both players' workers, as text and picture."""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.santorini.cells import DOME, SIZE, UNPLACED
from zoo_games.santorini.rules import SantoriniState

#: Worker letters: player_0's workers A and B, player_1's workers Y and Z.
WORKER_LETTERS = ("A", "B", "Y", "Z")
LEVEL_SHADES = ((232, 232, 226), (196, 196, 186), (156, 156, 146), (112, 112, 104))
DOME_BLUE = (40, 90, 200)
WORKER_COLORS = ((240, 200, 60), (200, 60, 60))
GROUND = (120, 170, 100)
#: The tag of each height in pictures: levels 1-3 and the dome.
LEVEL_TAGS = {1: "L1", 2: "L2", 3: "L3", DOME: "dome"}
#: Each player by the colour of its workers' discs, for people.
PLAYER_COLOUR_NAMES = ("yellow", "red")


def status_line(state: SantoriniState) -> str:
    """Who acts (or won) and the parts left."""
    parts = "parts left: L1 {} L2 {} L3 {} dome {}".format(*state.parts)
    if state.winner >= 0:
        return f"player_{state.winner} wins | {parts}"
    doing = "places a worker" if state.in_placement() else "to move and build"
    return f"player_{state.mover} {doing} | {parts}"


class SantoriniRenderer:
    """Draws Santorini states as ANSI text and as RGB pictures."""

    def ansi(self, state: SantoriniState) -> str:
        """A 5 x 5 grid: each cell shows its height (``^`` for a dome) and any worker."""
        occupant = {cell: WORKER_LETTERS[slot] for slot, cell in enumerate(state.workers)}
        lines = ["Santorini (A, B: player_0's workers 0, 1; Y, Z: player_1's; ^ dome)"]
        lines.append("    " + "".join(f"  c{column} " for column in range(SIZE)))
        for row in range(SIZE):
            cells = []
            for column in range(SIZE):
                cell = row * SIZE + column
                height = state.heights[cell]
                mark = "^" if height == DOME else str(height)
                cells.append(f" {mark}{occupant.get(cell, '.')}  ")
            lines.append(f"r{row}  " + "".join(cells))
        lines.append(status_line(state))
        return "\n".join(lines)

    def rgb(self, state: SantoriniState) -> np.ndarray:
        """The 5 x 5 board with row and column labels, a legend and the status line.

        Levels are nested squares getting darker, each cell with a tag naming its height
        (``L1``-``L3``, ``dome``); a dome is a blue cupola on a white drum, unlike the round
        lettered workers. Rows ``r0``-``r4`` run top to bottom and columns ``c0``-``c4`` left to
        right, as in the action names (``r1c3``).
        """
        cell_px, margin = 80, 30
        board = SIZE * cell_px
        width = board + 2 * margin
        height = margin + board + 96
        canvas = drawing.Canvas(width, height)
        for index in range(SIZE):
            middle = margin + index * cell_px + cell_px / 2
            canvas.text((middle, margin / 2), f"c{index}", 14)
            canvas.text((margin / 2, middle), f"r{index}", 14)
        occupant = {cell: slot for slot, cell in enumerate(state.workers) if cell != UNPLACED}
        for cell, level in enumerate(state.heights):
            row, column = divmod(cell, SIZE)
            x, y = margin + column * cell_px, margin + row * cell_px
            canvas.box((x, y), (cell_px, cell_px), fill=GROUND)
            for step in range(min(level, 3)):
                inset = 6 + 8 * step
                canvas.box(
                    (x + inset, y + inset),
                    (cell_px - 2 * inset, cell_px - 2 * inset),
                    fill=LEVEL_SHADES[step + 1],
                )
            center = (x + cell_px / 2, y + cell_px / 2)
            if level == DOME:
                self._draw_dome(canvas, center, 22)
            if level:
                self._draw_tag(canvas, (x + cell_px - 4, y + cell_px - 4), LEVEL_TAGS[level])
            if cell in occupant:
                slot = occupant[cell]
                canvas.disc(center, 16, WORKER_COLORS[slot // 2], width=3)
                canvas.text(center, WORKER_LETTERS[slot], 16, fill=drawing.INK)
        legend_y = margin + board + 20
        for player in (0, 1):
            x = margin + 200 * player
            for index in range(2):
                center = (x + 12 + 30 * index, legend_y)
                canvas.disc(center, 12, WORKER_COLORS[player], width=2)
                canvas.text(center, WORKER_LETTERS[2 * player + index], 13, fill=drawing.INK)
            canvas.text((x + 62, legend_y), f"player_{player}'s workers", 13, anchor="lm")
        self._draw_dome(canvas, (margin + 12, legend_y + 34), 12)
        canvas.text(
            (margin + 32, legend_y + 34), "dome      L1-L3: levels of a cell", 13, anchor="lm"
        )
        canvas.text((margin, height - 16), status_line(state), 13, anchor="lm")
        return canvas.to_array()

    @staticmethod
    def _draw_dome(canvas: drawing.Canvas, center: tuple[float, float], radius: float) -> None:
        """A blue cupola on a white drum: a half disc on a bar, never round like a worker."""
        x, y = center
        top = y - radius / 2
        canvas.draw.pieslice(
            (x - radius, top - radius, x + radius, top + radius),
            180,
            360,
            fill=DOME_BLUE,
            outline=drawing.INK,
            width=2,
        )
        canvas.box((x - radius - 3, top), (2 * radius + 6, radius * 0.7), fill=(250, 250, 250))

    @staticmethod
    def _draw_tag(canvas: drawing.Canvas, corner: tuple[float, float], text: str) -> None:
        """``text`` on a white tag whose bottom-right corner is ``corner``."""
        right, bottom = corner
        tag_width = 9 * len(text) + 8
        canvas.box((right - tag_width, bottom - 18), (tag_width, 18), fill=(255, 255, 255), width=1)
        canvas.text((right - tag_width / 2, bottom - 9), text, 13, fill=drawing.INK)
