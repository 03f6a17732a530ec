"""What every agent is: an object that looks at a rules-core state and picks a legal action.

Agents work on the rules core (:class:`~zoo_games.core.game.GameState`), not on PettingZoo
observations, as OpenSpiel's bots do: a search needs the state itself (to clone it and try
moves), and a state is what the arena, terminal play and users' scripts all have at hand
(``env.unwrapped.game_state``). An agent never changes the state it is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from zoo_games.core.game import GameState


class Agent(ABC):
    """Picks an action for the player to act in a state; reproducible with its ``seed``.

    Subclasses set :attr:`name` (what :func:`zoo_games.agents.make` calls them) and implement
    :meth:`act`. Their keyword options are their constructor's parameters, each with a
    default and a type annotation (the command line reads ``mcts:simulations=400`` by them).
    """

    #: The name :func:`zoo_games.agents.make` knows the agent by.
    name: ClassVar[str]

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    @abstractmethod
    def act(self, state: GameState) -> int:
        """One of ``state.legal_actions()`` for the player to act; ``state`` is left unchanged.

        ``state`` must be a decision node (a player to act), not a chance node or the end.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def check_decision_node(state: GameState) -> None:
    """Raise ``ValueError`` unless a player is to act in ``state``."""
    if state.is_terminal():
        raise ValueError("the game is over: there is no action to choose")
    if state.is_chance_node():
        raise ValueError("a chance node: the outcome is drawn, not chosen by an agent")
