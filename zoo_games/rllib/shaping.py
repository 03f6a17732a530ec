"""Potential-based reward shaping for training, which leaves every game's return unchanged.

A game whose only reward is +1/-1 at the end gives PPO little to learn from in a long game.
With a potential ``phi(state, player)``, the game's static evaluation
(:func:`zoo_games.agents.evaluation.evaluation_for`: Togyz Kumalak's kazan difference and
tuzduks, Santorini's heights and climbs, the same numbers the search agents use), each of
an agent's steps is rewarded ``phi(now) - phi(at its previous step)`` and the last step also
``-phi(last)``: the shaping terms telescope to zero over a game, so an agent's return is still
exactly the game's +1/-1/0 (Ng, Harada and Russell, 1999: such shaping does not change which
policies are optimal). The environments themselves never shape: only the RLlib wrapper does,
and only when asked.
"""

from __future__ import annotations

from collections.abc import Callable

from zoo_games.agents.evaluation import evaluation_for
from zoo_games.core.game import GameState

Potential = Callable[[GameState, int], float]

#: Games whose evaluation (:mod:`zoo_games.agents.evaluation`) is their shaping potential;
#: the others are trained on their plain rewards. Senet is left out so that its documented
#: training results, made without shaping, stay what ``shaping=True`` (the default) gives;
#: its evaluation would serve as a potential in the same way.
SHAPED_GAMES = ("togyz_kumalak", "santorini")


def potential_for(game_name: str) -> Potential | None:
    """The shaping potential of a game (its evaluation), or ``None`` if it is not shaped."""
    return evaluation_for(game_name) if game_name in SHAPED_GAMES else None


def is_shaped(game_name: str, shaping: bool) -> bool:
    """Whether training that asks for ``shaping`` shapes the rewards of game ``game_name``."""
    return shaping and game_name in SHAPED_GAMES
