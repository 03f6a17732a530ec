"""The value targets of a finished self-play game: its outcome, or the λ-return of its searches.

AlphaZero teaches the value of each position the game's outcome. In a long game ruled by
throws (Senet under Kendall's rules runs well over a hundred moves) the outcome says almost
nothing about one early position: most of what decided it came later, by chance. The λ-return
(TD(λ), as in TD-Gammon) lowers that noise by leaning on the searches of the positions that
followed:

    G_t = (1 - λ) * v_{t+1} + λ * G_{t+1},   and G of the last position is its outcome,

every term from the side of the player to move at ``t`` (a value of the opponent's position
changes sign; after an extra turn it does not). ``λ = 1`` gives the outcome itself (AlphaZero),
``λ = 0`` the search's value of the next position alone; between, each later position counts
``λ`` times less than the one before it, so the outcome reaches back about ``1 / (1 - λ)``
moves before the searches take over.
"""

from __future__ import annotations

import numpy as np


def lambda_returns(
    outcomes: np.ndarray, search_values: np.ndarray, movers: np.ndarray, value_lambda: float
) -> np.ndarray:
    """The λ-return of each position of one game, from the side of the player to move there.

    ``outcomes``, ``search_values`` and ``movers``: one entry per position, in the order they
    were played: the game's result for the player to move (+1, 0, -1), the search's value of the
    position for that player, and who that player was. Two players, zero-sum.
    """
    returns = np.empty(len(outcomes), dtype=np.float32)
    if len(returns) == 0:
        return returns
    if value_lambda == 1.0:
        returns[:] = outcomes
        return returns
    following = float(outcomes[-1])
    returns[-1] = following
    for t in range(len(returns) - 2, -1, -1):
        side = 1.0 if movers[t + 1] == movers[t] else -1.0
        next_value = float(search_values[t + 1])
        following = side * ((1.0 - value_lambda) * next_value + value_lambda * following)
        returns[t] = following
    return returns
