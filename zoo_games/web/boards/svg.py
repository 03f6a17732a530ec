"""A few SVG pieces shared by the boards, written as text with every value escaped.

The boards are drawn on the server, so the page only places the picture and reacts to clicks
on the elements that carry a ``data-target``: it needs to know nothing about any game.
Colours are the ones of the environments' pictures (:mod:`zoo_games.core.drawing`), so a
board looks the same in the browser as in a rendered frame.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from zoo_games.core import drawing

Color = tuple[int, int, int]

BACKGROUND = drawing.BACKGROUND
BOARD = drawing.BOARD
BOARD_DARK = drawing.BOARD_DARK
INK = drawing.INK
HIGHLIGHT = drawing.HIGHLIGHT
WHITE: Color = (255, 255, 255)


def rgb(color: Color) -> str:
    """``(40, 30, 20)`` -> ``"rgb(40,30,20)"``."""
    return "rgb({},{},{})".format(*color)


def attributes(values: dict[str, object]) -> str:
    """`` name="value"`` pairs, escaped; ``None`` values are left out; ``_`` becomes ``-``."""
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{escape(str(value), quote=True)}"'
        for name, value in values.items()
        if value is not None
    )


def rect(x: float, y: float, width: float, height: float, fill: Color, **more: object) -> str:
    """A rectangle with an ink outline (``stroke``/``rx``... may be given in ``more``)."""
    values: dict[str, object] = {"stroke": rgb(INK), "stroke_width": 2}
    values.update(more)
    return f"<rect{attributes({'x': x, 'y': y, 'width': width, 'height': height})}" + (
        f' fill="{rgb(fill)}"{attributes(values)}/>'
    )


def circle(x: float, y: float, radius: float, fill: Color, **more: object) -> str:
    """A disc with an ink outline."""
    values: dict[str, object] = {"stroke": rgb(INK), "stroke_width": 2}
    values.update(more)
    return f'<circle{attributes({"cx": x, "cy": y, "r": radius})} fill="{rgb(fill)}"' + (
        f"{attributes(values)}/>"
    )


def polygon(points: Iterable[tuple[float, float]], fill: Color, **more: object) -> str:
    """A filled polygon with an ink outline."""
    values: dict[str, object] = {"stroke": rgb(INK), "stroke_width": 2}
    values.update(more)
    joined = " ".join(f"{x:g},{y:g}" for x, y in points)
    return f'<polygon points="{joined}" fill="{rgb(fill)}"{attributes(values)}/>'


def text(
    x: float, y: float, words: str, size: int = 14, fill: Color = INK, anchor: str = "middle"
) -> str:
    """``words`` with its baseline's ``anchor`` (start, middle, end) at ``(x, y)``."""
    values = {"x": x, "y": y, "font_size": size, "text_anchor": anchor, "fill": rgb(fill)}
    return f"<text{attributes(values)}>{escape(words)}</text>"


def target(name: str, x: float, y: float, width: float, height: float, *inner: str) -> str:
    """A clickable group: ``inner`` drawn, then a hit rectangle on top that the page styles.

    The page gives the group the classes ``choosable``, ``selected`` or ``last``; the hit
    rectangle (transparent until then) shows them and catches the clicks.
    """
    hit = (
        f'<rect class="hit"{attributes({"x": x, "y": y, "width": width, "height": height})}'
        ' rx="6" fill="transparent" pointer-events="all"/>'
    )
    return f'<g class="target"{attributes({"data_target": name})}>{"".join(inner)}{hit}</g>'


def picture(width: float, height: float, title: str, *parts: str) -> str:
    """The whole ``<svg>``, scaled to the page's width, with a title read by screen readers."""
    box = f"0 0 {width:g} {height:g}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img"'
        f' font-family="sans-serif"><title>{escape(title)}</title>'
        + rect(0, 0, width, height, BACKGROUND, stroke="none")
        + "".join(parts)
        + "</svg>"
    )
