"""The rules-core protocol that every game in zoo-games implements.

A game is split in two, as in OpenSpiel:

* a :class:`Game` holds the options of one variant (rule set, number of pieces, ...) and
  makes states;
* a :class:`GameState` is one position of that game: whose turn it is, the legal actions,
  applying an action, the terminal test and the returns.

Chance is explicit. When the next thing to happen is a throw of the sticks rather than a
player's decision, :meth:`GameState.current_player` returns :data:`CHANCE`,
:meth:`GameState.chance_outcomes` lists the outcomes with their probabilities and
:meth:`GameState.apply_action` applies the outcome chosen by whoever drives the game (the
PettingZoo adapter samples it with its seeded generator; a search algorithm may enumerate
every outcome instead). An extra turn is nothing special: the same player is simply to act
again.

Nothing in this module, or in any game's rules, position and notation modules, imports
PettingZoo or numpy: a state is plain Python, quick to clone and to pickle, for search code,
tests and tools. (Importing them still runs the package's ``__init__``, which registers the
environments with PettingZoo.) The constants and :func:`winner_returns` are also what the
numba kernels of :mod:`zoo_games.batched` use, compiled from this module.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Self

#: :meth:`GameState.current_player` at a chance node (the sticks are about to be thrown).
CHANCE = -1
#: :meth:`GameState.current_player` once the game is over.
TERMINAL = -2

#: The two players, in the order of PettingZoo's ``possible_agents``.
PLAYERS = (0, 1)
#: A state's ``winner`` while the game goes on.
NO_WINNER = -1
#: A state's ``winner`` after a drawn game (Togyz Kumalak's 81-81).
DRAW = 2


def winner_returns(winner: int) -> tuple[float, float]:
    """Zero-sum returns: +1/-1 when player 0 or 1 won, 0/0 for a draw or before the end."""
    if winner == 0:
        return (1.0, -1.0)
    if winner == 1:
        return (-1.0, 1.0)
    return (0.0, 0.0)


class GameState(ABC):
    """One position of a game, mutable in place and cheap to :meth:`clone`.

    States are plain Python objects (no numpy, no PettingZoo) so that they pickle and
    clone quickly. :meth:`apply_action` trusts its caller: it is the hot path of every
    environment step and of every search, and the caller (the adapter, a search) already
    knows the legal actions; the environments check what users send.
    """

    #: The variant this state belongs to.
    game: Game

    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0 or 1), :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next action is a chance outcome rather than a player's decision."""
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """The ``(outcome, probability)`` pairs at a chance node.

        Games without chance never reach a chance node and keep this default.
        """
        raise ValueError(f"{type(self).__name__} has no chance node here")

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal actions of the player to act, ascending (the outcomes at a chance node).

        Empty at a terminal state.
        """

    def legal_actions_mask(self) -> bytes:
        """One byte per action of the game, 1 for the legal actions and 0 for the others.

        Built from :meth:`legal_actions` here; a game whose move generator can produce it
        directly (Santorini's, with up to 128 legal actions) overrides this.
        """
        mask = bytearray(self.game.num_actions)
        for action in self.legal_actions():
            mask[action] = 1
        return bytes(mask)

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action`` (a legal action or chance outcome) and advance the state in place."""

    @abstractmethod
    def returns(self) -> tuple[float, float]:
        """The players' payoffs: +1/-1 to the winner/loser, 0/0 for a draw or before the end."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy: changing one never changes the other."""

    @abstractmethod
    def position(self) -> str:
        """The one-line position string, which :meth:`Game.state_from_position` reads back."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A readable name of ``action`` in this state (for logs, renders and playthroughs)."""

    def __str__(self) -> str:
        return self.position()


class Game(ABC):
    """One variant of a game: its options, its action count, and a factory of states.

    The class attributes after ``num_actions`` are the facts about a game that search and RL
    code plan with, as OpenSpiel's ``GameType`` and ``max_game_length()`` declare them.
    """

    #: Short machine name of the game, e.g. ``"senet"``.
    name: str
    #: Size of the players' action space (``Discrete(num_actions)``).
    num_actions: int
    #: Whether the game has chance nodes (Senet's throws).
    has_chance: bool = False
    #: Whether the two returns always add up to zero.
    zero_sum: bool = True
    #: The lowest and the highest return a player can get.
    min_utility: float = -1.0
    max_utility: float = 1.0
    #: An upper bound on the decisions of one game (chance outcomes not counted), or ``None``
    #: when the rules put no bound on it.
    max_game_length: int | None = None

    @abstractmethod
    def new_initial_state(self) -> GameState:
        """The state at the start of a game."""

    @abstractmethod
    def state_from_position(self, position: str) -> GameState:
        """The state described by a position string (each game's docs page gives its format).

        Raises :class:`~zoo_games.core.errors.PositionError` (a ``ValueError``) saying
        what is wrong when the string is malformed or describes an impossible position.
        """

    def options(self) -> dict[str, object]:
        """The keyword options that made this variant (for reprs, records and tests)."""
        return {}

    def __repr__(self) -> str:
        args = ", ".join(f"{key}={value!r}" for key, value in self.options().items())
        return f"{type(self).__name__}({args})"
