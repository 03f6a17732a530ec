"""The learning curve of a training run as a PNG, drawn with Pillow (no plotting library needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from zoo_games.core import drawing

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 40, 50


def plot_learning_curve(rows: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """Win rate against random play (y, 0-100%) over training minutes (x)."""
    points = [
        (float(row["minutes"]), float(row[column]))
        for row in rows
        for column in ("win_rate_vs_random", "final_win_rate_vs_random")
        if str(row.get(column, "")) != ""
    ]
    canvas = drawing.Canvas(WIDTH, HEIGHT, background=(255, 255, 255))
    canvas.text((WIDTH / 2, TOP / 2), f"{title}: win rate against random play", 14)
    x_max = max([p[0] for p in points] + [float(rows[-1]["minutes"]) if rows else 1.0, 1e-6])
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
    if len(points) > 1:
        canvas.draw.line([to_pixel(*p) for p in points], fill=drawing.HIGHLIGHT, width=2)
    for point in points:
        canvas.disc(to_pixel(*point), 3, drawing.HIGHLIGHT, outline=drawing.HIGHLIGHT, width=1)
    Image.fromarray(canvas.to_array()).save(path)
