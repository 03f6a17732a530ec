"""Santorini for people: heights, domes and both players' workers, as text and picture."""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.santorini.rules import DOME, SIZE, UNPLACED, SantoriniState

#: Worker letters: player_0's workers A and B, player_1's workers Y and Z.
WORKER_LETTERS = ("A", "B", "Y", "Z")
LEVEL_SHADES = ((232, 232, 226), (196, 196, 186), (156, 156, 146), (112, 112, 104))
DOME_BLUE = (40, 90, 200)
WORKER_COLORS = ((240, 200, 60), (200, 60, 60))
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
        """Levels as nested squares getting darker, domes blue, workers as coloured discs."""
        cell_px, margin = 80, 24
        width = SIZE * cell_px + 2 * margin
        height = width + 40
        canvas = drawing.Canvas(width, height)
        occupant = {cell: slot for slot, cell in enumerate(state.workers) if cell != UNPLACED}
        for cell, level in enumerate(state.heights):
            row, column = divmod(cell, SIZE)
            x, y = margin + column * cell_px, margin + row * cell_px
            canvas.box((x, y), (cell_px, cell_px), fill=(120, 170, 100))
            for step in range(min(level, 3)):
                inset = 6 + 8 * step
                canvas.box(
                    (x + inset, y + inset),
                    (cell_px - 2 * inset, cell_px - 2 * inset),
                    fill=LEVEL_SHADES[step + 1],
                )
            if level == DOME:
                canvas.disc((x + cell_px / 2, y + cell_px / 2), 20, DOME_BLUE)
            if level:
                canvas.text((x + 10, y + 10), "D" if level == DOME else str(level), 11)
            if cell in occupant:
                slot = occupant[cell]
                center = (x + cell_px / 2, y + cell_px / 2)
                canvas.disc(center, 16, WORKER_COLORS[slot // 2], width=3)
                canvas.text(center, WORKER_LETTERS[slot], 16, fill=drawing.INK)
        canvas.text((margin, height - 22), status_line(state), 13, anchor="lm")
        return canvas.to_array()
