"""How good a Stones position is for one player: the mover loses when the pile is a multiple of 4.

Whatever the mover takes, the opponent can take the rest of four, down to the last stone.
"""

from __future__ import annotations

from zoo_games.stones.rules import StonesState


def evaluate(state: StonesState, player: int) -> float:
    """The return once over; else +-0.5 by who wins with perfect play."""
    if state.is_terminal():
        return state.returns()[player]
    mover_wins = state.stones % 4 != 0
    return 0.5 if mover_wins == (state.mover == player) else -0.5
