"""What a player settles before it searches: a win in one, and the moves that lose at once.

A search of a few dozen simulations that considers the network's favourite moves can miss a
win in one the network ranks low, or a reply that wins at once; a few reads of the board
cannot. So before searching, the ``alphazero`` player does what ``batched-mcts`` does
(:func:`~zoo_games.batched.search.uct.analyse_position`): a win in one is played at once, and
the moves after which the opponent can win at once are left out while others remain.
Self-play can do the same (``AlphaZeroSettings.guard``), so that its games, and the targets
learned from them, are the games the player plays rather than ones decided by blunders a
one-move read would have avoided. Needs the batched engine (numba).
"""

from __future__ import annotations

import numpy as np

from zoo_games.batched import kernels_of
from zoo_games.batched.search.uct import analyse_position
from zoo_games.catalog import find_variant


class RootGuard:
    """The root actions a player of variant ``label`` considers, position by position."""

    def __init__(self, label: str) -> None:
        variant = find_variant(label)
        self._kernels = kernels_of(variant.game)
        self._config = np.array(self._kernels.config(variant.game, variant.kwargs), np.int64)
        self.num_actions = variant.game.num_actions

    def allowed(self, row: np.ndarray) -> tuple[int, np.ndarray]:
        """``(winning action or -1, the actions left to search)`` in state ``row``.

        With a win in one, the win alone; else the legal actions after which the opponent
        cannot win at once, or every legal action when each of them lets it.
        """
        win, legal, safe = analyse_position(self._kernels, self._config, row, self.num_actions)
        if win >= 0:
            only = np.zeros(self.num_actions, dtype=np.int8)
            only[win] = 1
            return win, only
        return win, safe if safe.any() else legal

    def masks(self, rows: np.ndarray) -> np.ndarray:
        """The actions left to search in each state row: ``(n, num_actions)`` ``int8``."""
        return np.stack([self.allowed(row)[1] for row in rows])
