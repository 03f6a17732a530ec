"""Potential-based reward shaping for training, which leaves every game's return unchanged.

A game whose only reward is +1/-1 at the end gives PPO little to learn from in a long game.
With a potential ``phi(state, player)`` (Togyz Kumalak: the kazan difference; Santorini:
how much higher one's workers stand than the opponent's), each of
an agent's steps is rewarded ``phi(now) - phi(at its previous step)`` and the last step also
``-phi(last)``: the shaping terms telescope to zero over a game, so an agent's return is still
exactly the game's +1/-1/0 (Ng, Harada and Russell, 1999: such shaping does not change which
policies are optimal). The environments themselves never shape: only the RLlib wrapper does,
and only when asked.
"""

from __future__ import annotations

from collections.abc import Callable

from zoo_games.core.game import GameState

Potential = Callable[[GameState, int], float]


def _kazan_difference(state: GameState, player: int) -> float:
    kazans = state.kazans  # type: ignore[attr-defined]
    return (kazans[player] - kazans[1 - player]) / 82.0


def _height_difference(state: GameState, player: int) -> float:
    heights = state.heights  # type: ignore[attr-defined]
    workers = state.workers  # type: ignore[attr-defined]

    def standing(slot: int) -> int:
        return heights[workers[slot]] if workers[slot] >= 0 else 0

    mine = standing(2 * player) + standing(2 * player + 1)
    theirs = standing(2 * (1 - player)) + standing(2 * (1 - player) + 1)
    return (mine - theirs) / 6.0


#: Game name -> potential; games not listed are trained on their plain rewards.
POTENTIALS: dict[str, Potential] = {
    "togyz_kumalak": _kazan_difference,
    "santorini": _height_difference,
}


def potential_for(game_name: str) -> Potential | None:
    """The shaping potential of a game, or ``None`` if it has none."""
    return POTENTIALS.get(game_name)
