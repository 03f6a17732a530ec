"""The compiled rollouts that score ``batched-mcts``'s leaves, as templates over a game's kernels.

A rollout plays random moves from a leaf: a few then the game's evaluation (``"heuristic"``),
or to the end (``"random"``), optionally counting a mover that can win at once as the winner
(``find_win``). They are the leaf evaluator of the UCT search (:mod:`zoo_games.batched.search.uct`);
the AlphaZero search takes a Python evaluator instead (:mod:`zoo_games.batched.search.evaluators`).

Besides the bindings of :mod:`zoo_games.batched.search.templates`, the templates here call
``find_win(row, config, mask, rngs)``: an action after which ``play`` reports the mover's win,
or -1. It is bound by :func:`win_finder` to the game module's ``winning_action`` (same
arguments) if it has one, cheap enough for every move of a rollout (Santorini's climbs onto
level 3; Togyz Kumalak's counting rules most positions out before trying the moves), else to
:func:`win_by_trying`, which plays every legal action on a copy of the row (Senet).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

from zoo_games.batched.batch import MOVER, compile_for_game, winner_returns
from zoo_games.batched.rng import Integer, below
from zoo_games.batched.search.templates import (
    find_legal,
    game_kernels,
    play_move,
    resolve_chance,
    search_namespace,
)
from zoo_games.core.game import NO_WINNER


def find_win(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """Template: bound to :func:`game_win` or to :func:`win_by_trying` (:func:`win_finder`)."""
    raise NotImplementedError


def game_win(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """The game module's own ``winning_action`` (``mask``: the mover's legal actions)."""
    return int(game_kernels.winning_action(row, config, mask, rngs))


def win_by_trying(row: np.ndarray, config: np.ndarray, mask: np.ndarray, rngs: np.ndarray) -> int:
    """A legal action after which ``play`` reports the mover's win, tried on a copy; or -1."""
    mover = row[MOVER]
    copy = np.empty_like(row)
    for action in range(mask.shape[0]):
        if mask[action]:
            copy[:] = row
            if play_move(copy, action, config, rngs, 0) == mover:
                return action
    return -1


def win_finder(module: types.ModuleType) -> Any:
    """The template ``find_win`` is bound to for the game ``module``."""
    return game_win if hasattr(module, "winning_action") else win_by_trying


def random_legal(row: np.ndarray, mask: np.ndarray, count: Integer, rngs: np.ndarray) -> int:
    """A uniformly random legal action: the game's ``kth_legal`` of ``count``, k uniform."""
    return int(game_kernels.kth_legal(row, mask, below(rngs, 0, count)))


def evaluate_position(row: np.ndarray, config: np.ndarray) -> float:
    """The game's ``evaluate`` for ``player_0``: the rules core's evaluation, compiled once."""
    return float(game_kernels.evaluate(row, config, 0))


def rollout(
    row: np.ndarray,
    config: np.ndarray,
    mask: np.ndarray,
    rngs: np.ndarray,
    take_wins: bool,
    depth: Integer,
) -> float:
    """The result for ``player_0`` of random play from ``row`` (changed).

    After ``depth`` random moves (chance outcomes do not count) the position is scored by
    the game's evaluation; a ``depth`` of -1 plays to the end. A mover without a legal
    action ends the game as the game's ``outcome_without_moves`` says; with ``take_wins`` a
    mover that can win at once (as ``find_win`` sees it) is counted as the winner
    without playing the move. As :meth:`zoo_games.agents.mcts.MCTSAgent._rollout`, in that
    order.
    """
    moves = 0
    while True:
        resolve_chance(row, config, rngs, 0)
        if moves == depth:
            return evaluate_position(row, config)
        count = find_legal(row, config, mask)
        mover = row[MOVER]
        if count == 0:
            outcome = game_kernels.outcome_without_moves(row, config)
            if outcome != NO_WINNER:
                return winner_returns(outcome)[0]
        if take_wins and find_win(row, config, mask, rngs) >= 0:
            return winner_returns(mover)[0]
        outcome = play_move(row, random_legal(row, mask, count, rngs), config, rngs, 0)
        if outcome != NO_WINNER:
            return winner_returns(outcome)[0]
        moves += 1


#: The templates of this module, in the order they are compiled (callees first).
ROLLOUT_TEMPLATES = (win_by_trying, game_win, random_legal, evaluate_position, rollout)


def template_compiler(
    module: types.ModuleType, search_globals: dict[str, Any]
) -> Callable[[Any], Any]:
    """``compile(template)``: a template of a search compiled for the game ``module``.

    The templates compile over the search's globals (``search_globals``) with the game's
    bindings (:func:`~zoo_games.batched.search.templates.search_namespace`), in which this
    module's templates are compiled first and ``find_win`` is bound (:func:`win_finder`):
    every search that plays rollouts or looks for wins in one starts the same way.
    """
    namespace = search_namespace(module, globals(), search_globals)

    def compile_template(function: Any) -> Any:
        return compile_for_game(function, module, namespace)

    for template in ROLLOUT_TEMPLATES:
        compile_template(template)
    namespace["find_win"] = namespace[win_finder(module).__name__]
    return compile_template
