"""Stones for people: the pile as text and as a picture."""

from __future__ import annotations

import numpy as np

from zoo_games.core import drawing
from zoo_games.stones.position import SIDE_NAMES
from zoo_games.stones.rules import StonesState


class StonesRenderer:
    """One ``o`` (one disc) per stone left, and who is to take."""

    def ansi(self, state: StonesState) -> str:
        return f"{'o' * state.stones} ({state.stones} left, {SIDE_NAMES[state.mover]} to take)"

    def rgb(self, state: StonesState) -> np.ndarray:
        canvas = drawing.Canvas(24 * state.game.stones + 24, 64)
        for stone in range(state.stones):
            canvas.disc((24 + 24 * stone, 20), 9, drawing.PLAYER_COLORS[1])
        canvas.text((12, 48), f"{SIDE_NAMES[state.mover]} player to take", anchor="lm")
        return canvas.to_array()
