"""The learning curve of a training run as a PNG, drawn with Pillow (no plotting library needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from zoo_games.core import drawing

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 40, 50
#: One colour per opponent, in the order of ``eval_opponents``.
LINE_COLORS: tuple[drawing.Color, ...] = (
    drawing.HIGHLIGHT,
    (40, 90, 200),
    (30, 150, 70),
    (150, 60, 170),
    (220, 140, 20),
)


def plot_learning_curve(
    rows: Sequence[dict[str, Any]],
    path: Path,
    title: str,
    opponents: Mapping[str, str] | None = None,
) -> None:
    """Win rates (y, 0-100%) over training minutes (x), one line per opponent.

    ``opponents`` maps each opponent's name (the legend) to its column in ``rows``; by
    default the one column ``win_rate_vs_random``. A line joins every evaluation of its
    opponent, the final one (column ``final_<column>``) included.
    """
    columns = dict(opponents) if opponents is not None else {"random": "win_rate_vs_random"}
    curves = {
        name: [
            (float(row["minutes"]), float(row[key]))
            for row in rows
            for key in (column, f"final_{column}")
            if str(row.get(key, "")) != ""
        ]
        for name, column in columns.items()
    }
    canvas = drawing.Canvas(WIDTH, HEIGHT, background=(255, 255, 255))
    canvas.text((WIDTH / 2, TOP / 2), f"{title}: win rate against baseline agents", 14)
    all_minutes = [minutes for points in curves.values() for minutes, _ in points]
    x_max = max([*all_minutes, float(rows[-1]["minutes"]) if rows else 1.0, 1e-6])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def to_pixel(minutes: float, rate: float) -> tuple[float, float]:
        return LEFT + plot_w * minutes / x_max, TOP + plot_h * (1.0 - rate)

    canvas.box((LEFT, TOP), (plot_w, plot_h), fill=None, outline=drawing.INK, width=1)
    for tick in range(0, 101, 20):
        _, y = to_pixel(0, tick / 100)
        canvas.draw.line((LEFT - 4, y, LEFT + plot_w, y), fill=(220, 220, 220), width=1)
        canvas.text((LEFT - 8, y), f"{tick}%", 11, anchor="rm")
    for step in range(6):
        minutes = x_max * step / 5
        x, _ = to_pixel(minutes, 0)
        canvas.text((x, TOP + plot_h + 12), f"{minutes:.1f}", 11)
    canvas.text((LEFT + plot_w / 2, HEIGHT - 14), "training time (minutes)", 12)
    colors = [LINE_COLORS[number % len(LINE_COLORS)] for number in range(len(curves))]
    for color, points in zip(colors, curves.values(), strict=True):
        if len(points) > 1:
            canvas.draw.line([to_pixel(*p) for p in points], fill=color, width=2)
        for point in points:
            canvas.disc(to_pixel(*point), 3, color, outline=color, width=1)
    # The legend, top left inside the plot, over the lines: a short line and the name.
    legend_width = 60 + 7 * max((len(name) for name in curves), default=0)
    canvas.box(
        (LEFT + 4, TOP + 4),
        (legend_width, 18 * len(curves) + 4),
        fill=(255, 255, 255),
        outline=(200, 200, 200),
        width=1,
    )
    for number, (color, name) in enumerate(zip(colors, curves, strict=True)):
        y = TOP + 14 + 18 * number
        canvas.draw.line((LEFT + 10, y, LEFT + 34, y), fill=color, width=3)
        canvas.text((LEFT + 42, y), f"vs {name}", 12, anchor="lm")
    Image.fromarray(canvas.to_array()).save(path)
