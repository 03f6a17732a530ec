"""What a Stones player sees: the stones left and whether it is the one to take."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from zoo_games.stones.rules import StonesGame, StonesState


class StonesObserver:
    """``[stones left, 1 if the observer is to take else 0]``, ``int8``."""

    def __init__(self, game: StonesGame) -> None:
        self.space = spaces.Box(0, np.array([game.stones, 1]), shape=(2,), dtype=np.int8)

    def observe(self, state: StonesState, player: int) -> np.ndarray:
        return np.array([state.stones, state.mover == player], dtype=np.int8)
