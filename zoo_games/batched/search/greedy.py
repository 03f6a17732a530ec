"""The ``greedy`` agent's choice, compiled over state rows: a fixed opponent at the engine's pace.

Training against a fixed opponent (:mod:`zoo_games.rllib.batched_games`'s sparring games)
asks for its moves in every step of many games, where the Python agent
(:class:`zoo_games.agents.greedy.GreedyAgent`) clones a rules-core state per legal move.
:func:`compile_greedy` compiles the same rules over a game's kernels, in the same order:

1. a move that wins at once (the game's win finder, as the rollouts use it) is played;
2. a move after which the opponent, to act next at a decision node, can win at once is worth
   -1 (so it is played only when every move allows it);
3. any other move is worth the game's evaluation (the kernels' ``evaluate``, the rules core's
   float) of the row after it, for the mover.

Moves whose values are within :data:`TIE` of the best are drawn uniformly with the game's
generator. The agent's first rule picks among all winning moves and this one takes the
finder's; every other choice is one the agent could make.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Any

import numpy as np

from zoo_games.batched.batch import MOVER, winner_returns
from zoo_games.batched.rng import Integer, below
from zoo_games.batched.search import rollouts
from zoo_games.batched.search.rollouts import find_win
from zoo_games.batched.search.templates import (
    chance_outcome,
    find_legal,
    game_kernels,
    play_move,
)
from zoo_games.core.game import NO_WINNER

#: Values closer than this count as equal, as for the ``greedy`` agent (whose package sits
#: above this one: the test of this module checks that the two agree).
TIE = 1e-9


def move_value(
    row: np.ndarray,
    action: Integer,
    config: np.ndarray,
    child: np.ndarray,
    replies: np.ndarray,
    rngs: np.ndarray,
    game: Integer,
) -> float:
    """The greedy value of ``action`` in ``row`` for its mover (rules 2 and 3 above)."""
    mover = row[MOVER]
    child[:] = row
    outcome = play_move(child, action, config, rngs, game)
    if outcome != NO_WINNER:
        return float(winner_returns(outcome)[mover])
    opponent_decides = chance_outcome(child) != 0 and child[MOVER] != mover
    if (
        opponent_decides
        and find_legal(child, config, replies) > 0
        and find_win(child, config, replies, rngs) >= 0
    ):
        return -1.0
    return float(game_kernels.evaluate(child, config, mover))


def greedy_move(
    row: np.ndarray, config: np.ndarray, num_actions: Integer, rngs: np.ndarray, game: Integer
) -> int:
    """The greedy choice in ``row``, a decision node with a legal move (``game``'s generator)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    find_legal(row, config, mask)
    win = find_win(row, config, mask, rngs)
    if win >= 0:
        return win
    child = np.empty_like(row)
    replies = np.zeros(num_actions, dtype=np.int8)
    values = np.full(num_actions, -np.inf)
    for action in range(num_actions):
        if mask[action]:
            values[action] = move_value(row, action, config, child, replies, rngs, game)
    best = values.max()
    ties = np.flatnonzero(values >= best - TIE)
    return int(ties[below(rngs, game, ties.shape[0])])


def greedy_moves(
    rows: np.ndarray,
    config: np.ndarray,
    num_actions: Integer,
    games: np.ndarray,
    rngs: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i]``: the greedy choice in ``rows[i]``, drawn with generator ``games[i]`` of ``rngs``.

    ``rows`` are copies the caller gives up: a game's legal-move finder may use a row's
    scratch columns (Senet lists its dancers there).
    """
    for index in range(rows.shape[0]):
        out[index] = greedy_move(rows[index], config, num_actions, rngs, games[index])


@cache
def compile_greedy(module: types.ModuleType) -> Any:
    """:func:`greedy_moves` compiled for the game ``module`` (its kernels inlined)."""
    copy = rollouts.template_compiler(module, globals())
    for helper in (move_value, greedy_move):
        copy(helper)
    return copy(greedy_moves)
