"""Santorini in the browser: the 5 x 5 island, its levels and domes, the yellow and red workers.

Drawn as the environment's picture (:mod:`zoo_games.santorini.render`): levels as nested
squares getting darker, each tagged L1-L3, a dome as a blue cupola, the workers as lettered
discs (A, B yellow for player_0; Y, Z red for player_1). A turn is three clicks, the worker,
the cell it moves to, the cell it builds on; a climb onto level 3 wins at once and takes two.
Placing a worker (the placement set-up) is one click on its cell.
"""

from __future__ import annotations

from zoo_games.santorini.cells import DOME, SIZE, UNPLACED, cell_name
from zoo_games.santorini.moves import SIDE_NAMES, move_names
from zoo_games.santorini.render import (
    DOME_BLUE,
    GROUND,
    LEVEL_SHADES,
    LEVEL_TAGS,
    WORKER_COLORS,
    WORKER_LETTERS,
    status_line,
)
from zoo_games.santorini.rules import NEIGHBOUR, PLACEMENT_OFFSET, SantoriniState
from zoo_games.web.boards import svg

CELL = 80
MARGIN = 30
WIDTH = SIZE * CELL + 2 * MARGIN
HEIGHT = MARGIN + SIZE * CELL + 104


def clicks(state: SantoriniState, action: int) -> tuple[str, ...]:
    """The worker's cell, the cell it moves to, the cell built on (cells named ``r2c3``).

    A winning climb stops at the move; a placement is the cell alone.
    """
    if action >= PLACEMENT_OFFSET:
        return (cell_name(action - PLACEMENT_OFFSET),)
    worker, rest = divmod(action, 64)
    move, build = divmod(rest, 8)
    source = state.workers[2 * state.mover + worker]
    target = NEIGHBOUR[source][move]
    if state.heights[target] == 3 and state.heights[source] < 3:
        return (cell_name(source), cell_name(target))
    return (cell_name(source), cell_name(target), cell_name(NEIGHBOUR[target][build]))


def record_name(state: SantoriniState, action: int) -> str:
    """The turn's name, as typed at the terminal: ``w0-N-S``, ``w1-SE`` (a win), ``r2c3``."""
    return move_names(state, action)[0]


def picture(state: SantoriniState) -> str:
    """The board with row and column labels, a legend of workers and domes, the status."""
    parts = []
    for index in range(SIZE):
        middle = MARGIN + index * CELL + CELL / 2
        parts.append(svg.text(middle, MARGIN / 2 + 5, f"c{index}", 14))
        parts.append(svg.text(MARGIN / 2, middle + 5, f"r{index}", 14))
    occupant = {cell: slot for slot, cell in enumerate(state.workers) if cell != UNPLACED}
    for cell in range(SIZE * SIZE):
        parts.append(_cell(state, cell, occupant.get(cell)))
    legend_y = MARGIN + SIZE * CELL + 22
    for player in (0, 1):
        x = MARGIN + 200 * player
        for index in range(2):
            center_x = x + 12 + 30 * index
            parts.append(svg.circle(center_x, legend_y, 12, WORKER_COLORS[player]))
            parts.append(svg.text(center_x, legend_y + 5, WORKER_LETTERS[2 * player + index], 13))
        turn = " ◀" if state.winner < 0 and state.mover == player else ""
        label = f"player_{player}: {SIDE_NAMES[player]}{turn}"
        parts.append(svg.text(x + 62, legend_y + 5, label, 14, anchor="start"))
    parts.append(_dome(MARGIN + 12, legend_y + 36, 12))
    parts.append(
        svg.text(MARGIN + 32, legend_y + 40, "dome     L1-L3: levels of a cell", 13, anchor="start")
    )
    parts.append(svg.text(MARGIN, HEIGHT - 12, status_line(state), 14, anchor="start"))
    return svg.picture(WIDTH, HEIGHT, f"Santorini board: {state.position()}", *parts)


def _cell(state: SantoriniState, cell: int, slot: int | None) -> str:
    """A cell: ground, its levels, a dome, its tag, its worker."""
    row, column = divmod(cell, SIZE)
    x, y = MARGIN + column * CELL, MARGIN + row * CELL
    level = state.heights[cell]
    inner = [svg.rect(x, y, CELL, CELL, GROUND)]
    for step in range(min(level, 3)):
        inset = 6 + 8 * step
        inner.append(
            svg.rect(
                x + inset, y + inset, CELL - 2 * inset, CELL - 2 * inset, LEVEL_SHADES[step + 1]
            )
        )
    center_x, center_y = x + CELL / 2, y + CELL / 2
    if level == DOME:
        inner.append(_dome(center_x, center_y, 22))
    if level:
        tag = LEVEL_TAGS[level]
        tag_width = 9 * len(tag) + 8
        inner.append(
            svg.rect(
                x + CELL - 4 - tag_width, y + CELL - 22, tag_width, 18, svg.WHITE, stroke_width=1
            )
        )
        inner.append(svg.text(x + CELL - 4 - tag_width / 2, y + CELL - 8, tag, 13))
    if slot is not None:
        inner.append(svg.circle(center_x, center_y, 17, WORKER_COLORS[slot // 2], stroke_width=3))
        inner.append(svg.text(center_x, center_y + 6, WORKER_LETTERS[slot], 17))
    return svg.target(cell_name(cell), x, y, CELL, CELL, *inner)


def _dome(x: float, y: float, radius: float) -> str:
    """A blue cupola on a white drum: a half disc on a bar, never round like a worker."""
    top = y - radius / 2
    cupola = (
        f'<path d="M {x - radius:g} {top:g} A {radius:g} {radius:g} 0 0 1 {x + radius:g} {top:g} Z"'
        f' fill="{svg.rgb(DOME_BLUE)}" stroke="{svg.rgb(svg.INK)}" stroke-width="2"/>'
    )
    return cupola + svg.rect(x - radius - 3, top, 2 * radius + 6, radius * 0.7, svg.WHITE)
