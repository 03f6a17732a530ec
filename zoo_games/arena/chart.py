"""The picture of a tournament: the score matrix and, with three or more agents, the Elo table.

Drawn with Pillow through :mod:`zoo_games.core.drawing`, like the learning curves: no
plotting library is needed.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from zoo_games.arena.results import ArenaResult
from zoo_games.core import drawing

CELL = 64
LABEL = 170
MARGIN = 24
TITLE = 40
HEADER = 44
ELO_WIDTH = 380
MIN_WIDTH = 520
GRID: drawing.Color = (200, 200, 200)
LOSS: drawing.Color = (214, 96, 77)
EVEN: drawing.Color = (247, 247, 247)
WIN: drawing.Color = (67, 147, 195)


def score_color(value: float) -> drawing.Color:
    """Red for 0% through white at 50% to blue for 100%."""
    low, high, t = (LOSS, EVEN, 2 * value) if value < 0.5 else (EVEN, WIN, 2 * value - 1)
    return (
        round(low[0] + (high[0] - low[0]) * t),
        round(low[1] + (high[1] - low[1]) * t),
        round(low[2] + (high[2] - low[2]) * t),
    )


def _short(name: str, limit: int = 24) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def draw_arena(result: ArenaResult, path: Path) -> None:
    """Write the PNG: row agent's score against column agent, and Elo with 95% error bars."""
    size = len(result.agents)
    matrix_width = LABEL + size * CELL
    width = max(
        MIN_WIDTH, MARGIN + matrix_width + (ELO_WIDTH + MARGIN if result.elo else 0) + MARGIN
    )
    height = TITLE + HEADER + size * CELL + 2 * MARGIN + 20
    canvas = drawing.Canvas(width, height, background=(255, 255, 255))
    canvas.text(
        (width / 2, TITLE / 2),
        f"{result.variant}: {result.games_per_pairing} games per pairing, seed {result.seed}",
        15,
    )
    left, top = MARGIN + LABEL, TITLE + HEADER
    canvas.text(
        (left + size * CELL / 2, top - 34), "score of the row agent against the column agent", 12
    )
    scores = result.score_matrix()
    for i, name in enumerate(result.agents):
        canvas.text((left - 8, top + (i + 0.5) * CELL), f"{i + 1}. {_short(name)}", 12, anchor="rm")
        canvas.text((left + (i + 0.5) * CELL, top - 10), f"{i + 1}.", 12)
        for j in range(size):
            corner = (left + j * CELL, top + i * CELL)
            value = scores[i, j]
            if math.isnan(value):
                canvas.box(corner, (CELL, CELL), fill=(235, 235, 235), outline=GRID, width=1)
                continue
            canvas.box(corner, (CELL, CELL), fill=score_color(value), outline=GRID, width=1)
            canvas.text((corner[0] + CELL / 2, corner[1] + CELL / 2), f"{value:.1%}", 13)
    canvas.text(
        (left + size * CELL / 2, top + size * CELL + 16),
        "columns: the agents numbered as the rows; a draw counts half",
        11,
        fill=(90, 90, 90),
    )
    if result.elo:
        _draw_elo(canvas, result, MARGIN + matrix_width + MARGIN, top)
    Image.fromarray(canvas.to_array()).save(path)


def _draw_elo(canvas: drawing.Canvas, result: ArenaResult, left: float, top: float) -> None:
    """One row per agent, best first: the rating as a dot, its 95% interval as a bar."""
    assert result.elo is not None
    ratings = sorted(result.elo, key=lambda r: -r.elo)
    label_width = LABEL
    plot_left, plot_right = left + label_width, left + ELO_WIDTH - 10
    low = min(r.low for r in ratings)
    high = max(r.high for r in ratings)
    if high - low < 1:
        low, high = low - 50, high + 50
    pad = 0.05 * (high - low)
    low, high = low - pad, high + pad
    row = CELL * len(result.agents) / len(ratings)

    def x_of(elo: float) -> float:
        return plot_left + (plot_right - plot_left) * (elo - low) / (high - low)

    canvas.text(
        ((left + plot_right) / 2, top - 34),
        f"Elo, {result.elo_anchor} = 0 (95% intervals)",
        12,
    )
    bottom = top + row * len(ratings)
    canvas.draw.line((x_of(0), top, x_of(0), bottom), fill=GRID, width=1)
    for k, rating in enumerate(ratings):
        y = top + (k + 0.5) * row
        canvas.text((plot_left - 8, y), _short(rating.agent), 12, anchor="rm")
        canvas.draw.line((x_of(rating.low), y, x_of(rating.high), y), fill=drawing.INK, width=2)
        for end in (rating.low, rating.high):
            canvas.draw.line((x_of(end), y - 6, x_of(end), y + 6), fill=drawing.INK, width=2)
        canvas.disc((x_of(rating.elo), y), 5, drawing.HIGHLIGHT, outline=drawing.HIGHLIGHT, width=1)
        canvas.text((x_of(rating.elo), y - 14), f"{round(rating.elo) + 0}", 11)
    canvas.draw.line((plot_left, bottom, plot_right, bottom), fill=drawing.INK, width=1)
    for tick in _ticks(low, high):
        canvas.draw.line((x_of(tick), bottom, x_of(tick), bottom + 4), fill=drawing.INK, width=1)
        canvas.text((x_of(tick), bottom + 14), f"{tick:g}", 11)


def _ticks(low: float, high: float) -> list[float]:
    """Round numbers between ``low`` and ``high``, about five of them."""
    step = 10 ** math.floor(math.log10((high - low) / 5))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 6:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) // step) + 1)]
