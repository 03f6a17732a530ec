"""Senet in the browser: the 30 houses in their S-shaped order, the sticks, the pass.

Drawn as the environment's picture (:mod:`zoo_games.senet.render`): houses 1-10 left to
right, 11-20 right to left, 21-30 left to right, the special houses darker with their
letters, spools as light discs and cons as dark cones. A move is two clicks, the dancer's
house and the house it reaches (``off``, right of house 30, to bear off); a pass is a click
on ``pass`` beside the sticks.
"""

from __future__ import annotations

from zoo_games.senet.houses import OFF, PIECE_OF
from zoo_games.senet.moves import move_names
from zoo_games.senet.position import SIDE_LETTERS, SIDE_NAMES
from zoo_games.senet.render import BOARD_ROWS, HOUSE_MARKS, status_line
from zoo_games.senet.rules import PASS, SenetState
from zoo_games.web.boards import svg

CELL = 64
MARGIN = 16
TOP = 30
#: The width of the ``off`` box right of house 30 (and of the arrows above it).
OFF_WIDTH = 76
WIDTH = 2 * MARGIN + 10 * CELL + 8 + OFF_WIDTH
BOARD_BOTTOM = TOP + 3 * CELL
HEIGHT = BOARD_BOTTOM + 200
PASS_TARGET = "pass"
OFF_TARGET = "off"


def house_target(house: int) -> str:
    """The target name of a house: ``"h14"``; ``"off"`` for a dancer borne off."""
    return OFF_TARGET if house == OFF else f"h{house}"


def clicks(state: SenetState, action: int) -> tuple[str, ...]:
    """The dancer's house then the house reached; ``("pass",)`` for the pass."""
    if action == PASS:
        return (PASS_TARGET,)
    source, destination = state.legal_moves()[action]
    return (house_target(source), house_target(destination))


def record_name(state: SenetState, action: int) -> str:
    """The move's name, as typed at the terminal: ``14-17``, ``26-off``, ``pass``."""
    return move_names(state, action)[0]


def picture(state: SenetState) -> str:
    """The board, the houses' legend, the sticks of the throw, both sides and whose turn."""
    game = state.game
    parts = [
        svg.text(WIDTH / 2, 20, f"Senet ({game.rules} rules, {game.num_pieces} dancers each)", 14)
    ]
    for row_index, row in enumerate(BOARD_ROWS):
        for column, house in enumerate(row):
            parts.append(_house(state, house, MARGIN + column * CELL, TOP + row_index * CELL))
    right = MARGIN + 10 * CELL + 8
    for row_index, arrow in enumerate(("→", "←")):  # the path's way along the first two rows
        y = TOP + row_index * CELL + CELL / 2
        parts.append(svg.text(right + OFF_WIDTH / 2, y, arrow, 22))
        parts.append(svg.text(right + OFF_WIDTH / 2, y + 18, "then down", 11))
    off_y = TOP + 2 * CELL
    parts.append(
        svg.target(
            OFF_TARGET,
            right,
            off_y,
            OFF_WIDTH,
            CELL,
            svg.rect(right, off_y, OFF_WIDTH, CELL, svg.BACKGROUND, stroke_dasharray="4 3"),
            svg.text(right + OFF_WIDTH / 2, off_y + CELL / 2 - 2, "→ off", 14),
            svg.text(right + OFF_WIDTH / 2, off_y + CELL / 2 + 16, "bear off", 11),
        )
    )
    parts += _sticks(state, MARGIN, BOARD_BOTTOM + 14)
    parts += _sides(state, MARGIN, BOARD_BOTTOM + 76)
    houses = [f"{mark}: {house} {name}" for house, (mark, name) in HOUSE_MARKS.items()]
    for line, names in enumerate((houses[:3], houses[3:])):
        y = BOARD_BOTTOM + 142 + 18 * line
        parts.append(svg.text(MARGIN, y, "   ".join(names), 13, anchor="start"))
    parts.append(svg.text(MARGIN, HEIGHT - 10, status_line(state), 14, anchor="start"))
    return svg.picture(WIDTH, HEIGHT, f"Senet board: {state.position()}", *parts)


def _house(state: SenetState, house: int, x: float, y: float) -> str:
    special = house in HOUSE_MARKS
    inner = [
        svg.rect(x, y, CELL, CELL, svg.BOARD_DARK if special else svg.BOARD),
        svg.text(x + 5, y + 15, str(house), 12, anchor="start"),
    ]
    if special:
        inner.append(svg.text(x + CELL - 5, y + 16, HOUSE_MARKS[house][0], 14, anchor="end"))
    inner.append(_dancer(state.board[house], x + CELL / 2, y + CELL / 2 + 5))
    return svg.target(house_target(house), x, y, CELL, CELL, *inner)


def _dancer(piece: int, x: float, y: float, scale: float = 1.0) -> str:
    """A spool (a light disc with a waist line) or a con (a dark cone); nothing if empty."""
    if piece == PIECE_OF[0]:
        radius = 18 * scale
        return svg.circle(x, y, radius, svg.drawing.PLAYER_COLORS[0]) + (
            f'<line x1="{x - radius:g}" y1="{y:g}" x2="{x + radius:g}" y2="{y:g}"'
            f' stroke="{svg.rgb(svg.INK)}" stroke-width="2"/>'
        )
    if piece == PIECE_OF[1]:
        points = (
            (x, y - 20 * scale),
            (x - 16 * scale, y + 16 * scale),
            (x + 16 * scale, y + 16 * scale),
        )
        return svg.polygon(points, svg.drawing.PLAYER_COLORS[1], stroke=svg.rgb(svg.WHITE))
    return ""


def _sticks(state: SenetState, x: float, y: float) -> list[str]:
    """The four sticks of the throw (coloured sides up count; all dark is 5), and the pass."""
    coloured = 0 if state.throw in (0, 5) else state.throw
    parts = [
        svg.rect(x + 14 * stick, y, 8, 34, svg.HIGHLIGHT if stick < coloured else svg.INK)
        for stick in range(4)
    ]
    throw = f"throw {state.throw}" if state.throw else "game over"
    parts.append(svg.text(x + 66, y + 22, throw, 16, anchor="start"))
    pass_x = x + 170
    parts.append(
        svg.target(
            PASS_TARGET,
            pass_x,
            y,
            70,
            34,
            svg.rect(pass_x, y, 70, 34, svg.BOARD, rx=6),
            svg.text(pass_x + 35, y + 22, "pass", 15),
        )
    )
    return parts


def _sides(state: SenetState, x: float, y: float) -> list[str]:
    """One line per side: its dancer as drawn on the board, its name, its dancers borne off."""
    parts = []
    for player in (0, 1):
        row_y = y + 26 * player
        parts.append(_dancer(PIECE_OF[player], x + 10, row_y, 0.5))
        turn = "  ◀ to move" if state.winner < 0 and state.mover == player else ""
        name = f"player_{player}: {SIDE_NAMES[player]} ({SIDE_LETTERS[player]}){turn}"
        parts.append(svg.text(x + 26, row_y + 5, name, 14, anchor="start"))
        off = state.borne_off[player]
        label = f"borne off {off}/{state.game.num_pieces}:"
        parts.append(svg.text(x + 290, row_y + 5, label, 14, anchor="start"))
        parts += [_dancer(PIECE_OF[player], x + 420 + 24 * d, row_y, 0.5) for d in range(off)]
    return parts
