"""Shared picture-drawing helpers for the ``rgb_array`` renderers, built on Pillow.

Pillow draws anti-aliased shapes and text into an in-memory image with no display, no
window and no SDL, which is what a headless training machine has. Every game draws on a
:class:`Canvas` with the same fonts and palette, so the pictures look like one family.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Color = tuple[int, int, int]

#: Colours shared by the games: board wood, ink, and one colour for each player.
BACKGROUND: Color = (245, 240, 228)
BOARD: Color = (222, 184, 135)
BOARD_DARK: Color = (160, 120, 80)
INK: Color = (40, 30, 20)
HIGHLIGHT: Color = (200, 40, 40)
PLAYER_COLORS: tuple[Color, Color] = ((250, 250, 250), (30, 30, 30))
PLAYER_OUTLINES: tuple[Color, Color] = ((30, 30, 30), (250, 250, 250))


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels (no system fonts needed)."""
    return ImageFont.load_default(size=size)


class Canvas:
    """An RGB picture being drawn; :meth:`to_array` gives the ``H x W x 3`` uint8 result."""

    def __init__(self, width: int, height: int, background: Color = BACKGROUND) -> None:
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 14,
        fill: Color = INK,
        anchor: str = "mm",
    ) -> None:
        """Write ``text`` at ``xy``; ``anchor="mm"`` centres it there."""
        self.draw.text(xy, text, fill=fill, font=font(size), anchor=anchor)

    def disc(
        self,
        center: tuple[float, float],
        radius: float,
        fill: Color,
        outline: Color = INK,
        width: int = 2,
    ) -> None:
        """A filled circle (a piece, a ball, a worker)."""
        x, y = center
        self.draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=fill,
            outline=outline,
            width=width,
        )

    def box(
        self,
        corner: tuple[float, float],
        size: tuple[float, float],
        fill: Color | None,
        outline: Color = INK,
        width: int = 2,
    ) -> None:
        """A rectangle given by its top-left corner and its size."""
        x, y = corner
        w, h = size
        self.draw.rectangle((x, y, x + w, y + h), fill=fill, outline=outline, width=width)

    def to_array(self) -> np.ndarray:
        """The picture as a fresh ``H x W x 3`` ``uint8`` array."""
        return np.asarray(self.image, dtype=np.uint8).copy()


def save_gif(
    path: str | Path,
    frames: list[np.ndarray],
    seconds_per_frame: float = 0.6,
    last_frame_seconds: float | None = None,
) -> None:
    """Write ``rgb_array`` pictures as an animated GIF that loops.

    Every frame is drawn on one palette taken from pictures spread over the whole game, so
    colours that appear only later (Togyz Kumalak's red tuzduks, Santorini's domes) keep
    their colour. ``last_frame_seconds`` holds the final position longer.
    """
    if not frames:
        raise ValueError("no pictures to write")
    spread = [*frames[:: max(1, len(frames) // 10)], frames[-1]]
    palette = Image.fromarray(np.concatenate(spread)).quantize(
        colors=64, method=Image.Quantize.MEDIANCUT
    )
    images = [
        Image.fromarray(frame).quantize(palette=palette, dither=Image.Dither.NONE)
        for frame in frames
    ]
    last = seconds_per_frame if last_frame_seconds is None else last_frame_seconds
    durations = [int(seconds_per_frame * 1000)] * (len(images) - 1) + [int(last * 1000)]
    images[0].save(
        path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True
    )
