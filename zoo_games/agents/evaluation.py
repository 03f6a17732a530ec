"""Each game's static evaluation, found by the game's name, and the search for wins in one.

Every game keeps its knowledge for agents beside its rules, in ``zoo_games/<game>/evaluation.py``:
a function ``evaluate(state, player) -> float`` in [-1, 1] from ``player``'s point of view
(the return at a terminal state), and optionally ``winning_actions(state)``, a fast list of
the mover's immediately winning actions. This module is the one lookup that the agents and
the reward shaping of training (:mod:`zoo_games.rllib.shaping`) use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType

from zoo_games.core.game import GameState

#: ``evaluate(state, player)``: how good ``state`` is for ``player``, in [-1, 1].
Evaluation = Callable[[GameState, int], float]


@cache
def _knowledge(game_name: str) -> ModuleType:
    try:
        return importlib.import_module(f"zoo_games.{game_name}.evaluation")
    except ModuleNotFoundError:
        raise ValueError(
            f"game {game_name!r} has no evaluation (zoo_games.{game_name}.evaluation)"
        ) from None


def evaluation_for(game_name: str) -> Evaluation:
    """The evaluation of the game called ``game_name`` (``state.game.name``)."""
    evaluate: Evaluation = _knowledge(game_name).evaluate
    return evaluate


def winning_actions(state: GameState) -> list[int]:
    """The mover's legal actions after which the mover has won, at a decision node.

    Uses the game's own ``winning_actions`` if it has one (Santorini: the climbs onto level
    3, found on masks; Togyz Kumalak: tries the moves only when counting cannot rule a win
    out), else tries every legal action on a clone. A game's own finder may name just one
    action for each winning move (Santorini's winning climbs are legal with any build).
    """
    return winning_actions_finder(state.game.name)(state)


@cache
def winning_actions_finder(game_name: str) -> Callable[[GameState], list[int]]:
    """The function :func:`winning_actions` uses for the game called ``game_name``."""
    return fast_winning_actions(game_name) or _winning_actions_by_trying


def fast_winning_actions(game_name: str) -> Callable[[GameState], list[int]] | None:
    """The game's own finder of immediately winning actions, or ``None`` if it has none.

    Such a finder is cheap enough to call at every move of a rollout.
    """
    finder: Callable[[GameState], list[int]] | None = getattr(
        _knowledge(game_name), "winning_actions", None
    )
    return finder


def _winning_actions_by_trying(state: GameState) -> list[int]:
    """The winning actions found by playing each legal action on a clone."""
    mover = state.current_player()
    wins = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() and child.returns()[mover] > 0:
            wins.append(action)
    return wins


def opponent_wins_next(state: GameState, mover: int) -> bool:
    """Whether in ``state``, just after ``mover``'s move, the opponent acts and can win at once.

    Only a decision node of the opponent counts: after a chance node (Senet's throw) the
    opponent's win depends on the throw, and that is for search to weigh.
    """
    return state.current_player() == 1 - mover and bool(winning_actions(state))
