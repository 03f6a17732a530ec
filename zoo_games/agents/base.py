"""What every agent is: an object that looks at a rules-core state and picks a legal action.

Agents work on the rules core (:class:`~zoo_games.core.game.GameState`), not on PettingZoo
observations, as OpenSpiel's bots do: a search needs the state itself (to clone it and try
moves), and a state is what the arena, terminal play and users' scripts all have at hand
(``env.unwrapped.game_state``). An agent never changes the state it is given.
"""

from __future__ import annotations

import functools
import inspect
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from zoo_games.agents.options import check_options, option_types
from zoo_games.core.game import Game, GameState


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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check every subclass's options (and that a seed is 0 or more) before its ``__init__``.

        Done here, once for all agents (:mod:`zoo_games.agents.options`), so that no agent can
        forget a check, and made or constructed directly, a bad value fails at once.
        """
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _checking(cls.__init__)  # type: ignore[method-assign]

    @abstractmethod
    def act(self, state: GameState) -> int:
        """One of ``state.legal_actions()`` for the player to act; ``state`` is left unchanged.

        ``state`` must be a decision node (a player to act), not a chance node or the end.
        """

    def check_game(self, game: Game) -> None:  # noqa: B027 - a hook whose default is to pass
        """``ValueError`` (one line, saying why) if this agent cannot play ``game``.

        The arena, ``zoo-games play`` and the web app call it before the first move, so that
        an agent that plays only some games (a trained network plays the variant it was
        trained on) is refused before any game starts, not in the middle of one. Every game
        is playable unless a subclass says otherwise.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def check_decision_node(state: GameState) -> None:
    """Raise ``ValueError`` unless a player is to act in ``state``."""
    if state.is_terminal():
        raise ValueError("the game is over: there is no action to choose")
    if state.is_chance_node():
        raise ValueError("a chance node: the outcome is drawn, not chosen by an agent")


def _checking(init: Any) -> Any:
    """``init``, checking its arguments against its annotations first."""
    signature = inspect.signature(init)

    @functools.wraps(init)
    def checked_init(self: Agent, *args: Any, **kwargs: Any) -> None:
        given = signature.bind(self, *args, **kwargs).arguments
        del given["self"]
        name = getattr(self, "name", type(self).__name__)
        check_options(name, option_types(init), given)
        seed = given.get("seed")
        if isinstance(seed, int) and seed < 0:  # numpy's generators take none: none for all
            raise ValueError(f"{name} option seed={seed!r} is not allowed: expected 0 or more")
        init(self, *args, **kwargs)

    return checked_init


# The base's own constructor too, for agents that add no option of their own.
Agent.__init__ = _checking(Agent.__init__)  # type: ignore[method-assign]
