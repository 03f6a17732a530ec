"""The ``alphabeta`` agent's search: depth-first negamax with alpha-beta pruning, compiled.

A classical search for the games without chance (Togyz Kumalak, Santorini): every line is
followed to a fixed depth, the positions at the end scored by the game's evaluation (the
kernels' ``evaluate``, the rules core's float, as the ``greedy`` agent uses it), and the values
backed up by minimax, each node's in the view of its mover (negamax). Alpha-beta leaves out
the moves that cannot change the root's value. Senet's throws would need an expectimax
search, so a game with chance is refused (:func:`check_without_chance`).

Values, for the mover of the node they belong to:

* a position at the search's depth: the game's evaluation, in (-1, 1) while the game goes on;
* a game finished ``ply`` plies below the root: +-(:data:`WIN` - ``ply`` x :data:`PLY_COST`)
  for a win or a loss, 0 for a draw, so that of two wins the quicker one, and of two losses
  the later one, is worth more; a mover without a legal move ends the game as the game's
  ``outcome_without_moves`` says (Santorini: that mover loses).

The sign of a child's value flips only when the mover changes (Santorini's placement: a
player places both its workers in a row).

:class:`AlphaBetaSearch` deepens iteratively, from depth 1 to its ``depth``: each iteration
searches the previous one's best root move first, which makes the cut-offs come early, and
deepening stops once a win or a loss is proven. Elsewhere, where two or more plies remain, a
node's moves are searched best first by the game's evaluation of the position after each
(with one ply left, scoring the moves to order them would cost what searching them does: the
leaves are scored the same way).

The functions below are templates over a game's kernels, compiled per game module by
:func:`compile_alphabeta` (:mod:`zoo_games.batched.search.templates`). numba's compiled
copies cannot call themselves, so the recursion is an explicit stack: one :data:`FRAME` per
ply, beside the rows, legal masks and ordered moves of every ply, all allocated once per
:class:`AlphaBetaSearch` and reused move after move.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from zoo_games.batched.batch import MOVER, GameKernels, winner_returns
from zoo_games.batched.rng import Integer, seed_states
from zoo_games.batched.search import rollouts
from zoo_games.batched.search.greedy import TIE
from zoo_games.batched.search.templates import find_legal, game_kernels, play_move
from zoo_games.catalog import variants
from zoo_games.core.game import NO_WINNER, Game

#: The value of a win at the root (a loss: its opposite), less :data:`PLY_COST` per ply.
WIN = 10.0
#: What a win loses per ply it takes: small enough that a win at the deepest ply
#: (:data:`MOST_DEPTH`) still stands far above any evaluation.
PLY_COST = 0.01
#: The deepest search, in plies.
MOST_DEPTH = 30
#: Above every value: the window of the root and the start of every node's best value.
INFINITY = np.inf
#: A value beyond this, either way, is a game's end found by the search: evaluations of a
#: position lie in [-1, 1] (Santorini's is -1 for a mover already boxed in).
PROVEN = 1.0
#: How far below the best value so far the root's alpha stays: a root move whose value comes
#: back at or below alpha (an upper bound, not its exact value) is then more than
#: :data:`TIE` below the best, never a tie with it, and every move that may tie the best is
#: searched with a window that holds its exact value.
ROOT_MARGIN = 2 * TIE
#: One ply of the stack: the node's window (``alpha``, ``beta``) and ``best`` value so far,
#: for its mover, and which of its ``count`` ordered moves is searched ``next``.
FRAME = np.dtype(
    {"names": ["alpha", "beta", "best", "next", "count"], "formats": ["f8", "f8", "f8", "i8", "i8"]}
)


def terminal_value(outcome: int, mover: Integer, ply: Integer) -> float:
    """The value for ``mover`` of a game that ended with ``outcome``, ``ply`` plies deep."""
    return float(winner_returns(outcome)[mover]) * (WIN - PLY_COST * ply)


def order_moves(
    row: np.ndarray,
    config: np.ndarray,
    mask: np.ndarray,
    first: Integer,
    order: np.ndarray,
    scores: np.ndarray,
    child: np.ndarray,
    rngs: np.ndarray,
) -> None:
    """Write the legal moves of ``mask`` into ``order``, best first for the mover of ``row``.

    A move is scored by the position it leads to (``child`` holds it): a finished game by
    :func:`terminal_value`, else the game's evaluation; ``first`` (the previous iteration's
    best root move, or -1) goes ahead of all. Insertion into ``order`` as the moves are scored
    keeps equal scores in the order of the actions and allocates nothing.
    """
    mover = row[MOVER]
    count = 0
    for action in range(mask.shape[0]):
        if not mask[action]:
            continue
        score = INFINITY
        if action != first:
            child[:] = row
            outcome = play_move(child, action, config, rngs, 0)
            if outcome != NO_WINNER:
                score = terminal_value(outcome, mover, 1)
            else:
                score = float(game_kernels.evaluate(child, config, mover))
        place = count
        while place > 0 and scores[place - 1] < score:
            scores[place] = scores[place - 1]
            order[place] = order[place - 1]
            place -= 1
        scores[place] = score
        order[place] = action
        count += 1


def search_to_depth(
    root: np.ndarray,
    depth: Integer,
    first: Integer,
    config: np.ndarray,
    rows: np.ndarray,
    masks: np.ndarray,
    orders: np.ndarray,
    scores: np.ndarray,
    frames: np.ndarray,
    child: np.ndarray,
    rngs: np.ndarray,
    root_values: np.ndarray,
) -> int:
    """Search ``root`` ``depth`` plies deep; return the number of positions reached by a move.

    ``root_values[action]``: each legal root move's value for the root's mover (exact where
    it may tie the best: :data:`ROOT_MARGIN`), -inf for the others. ``first`` is searched
    first at the root (-1: none). ``rows`` holds ``depth + 1`` rows, ``masks``, ``orders``,
    ``scores`` and ``frames`` one entry per ply above the leaves; ``child`` is a spare row.

    Negamax with alpha-beta, fail-soft: a node's ``best`` is exact inside its window, a
    bound outside it. Each pass of the loop first readies a node just entered (its window
    set by its parent): its legal moves listed, by the game's evaluation (:func:`order_moves`)
    where two or more plies remain, in the order of the actions where only the leaves do; a
    node without a legal move has none to search, its ``best`` being the game's end. Then it
    either plays the next move of the node at ``ply`` (scoring a finished game or a position
    at the depth at once, else entering it with the window turned to the child's mover) or,
    once the node's moves are done or cut off, returns its value to its parent.
    """
    root_values[:] = -INFINITY
    rows[0, :] = root
    frames[0].alpha = -INFINITY
    frames[0].beta = INFINITY
    reached = 0
    ply = 0
    entered = True
    while True:
        if entered:
            entered = False
            row = rows[ply]
            count = find_legal(row, config, masks[ply])
            frames[ply].next = 0
            frames[ply].count = count
            frames[ply].best = -INFINITY
            if count == 0:
                outcome = game_kernels.outcome_without_moves(row, config)
                frames[ply].best = terminal_value(outcome, row[MOVER], ply)
            elif depth - ply >= 2:
                root_first = first if ply == 0 else -1
                order_moves(
                    row, config, masks[ply], root_first, orders[ply], scores[ply], child, rngs
                )
            else:
                listed = 0
                for action in range(masks.shape[1]):
                    if masks[ply, action]:
                        orders[ply, listed] = action
                        listed += 1
        frame = frames[ply]
        if frame.next < frame.count and frame.alpha < frame.beta:
            action = orders[ply, frame.next]
            frames[ply].next += 1
            mover = rows[ply, MOVER]
            rows[ply + 1, :] = rows[ply]
            reached += 1
            outcome = play_move(rows[ply + 1], action, config, rngs, 0)
            if outcome != NO_WINNER:
                value = terminal_value(outcome, mover, ply + 1)
            elif ply + 1 == depth:
                value = float(game_kernels.evaluate(rows[ply + 1], config, mover))
            else:
                alpha, beta = frame.alpha, frame.beta
                ply += 1
                if rows[ply, MOVER] != mover:
                    alpha, beta = -beta, -alpha
                frames[ply].alpha = alpha
                frames[ply].beta = beta
                entered = True
                continue
        else:
            if ply == 0:
                return reached
            value = frames[ply].best
            if rows[ply, MOVER] != rows[ply - 1, MOVER]:
                value = -value
            ply -= 1
            action = orders[ply, frames[ply].next - 1]
        if ply == 0:
            root_values[action] = value
        if value > frames[ply].best:
            frames[ply].best = value
            alpha = value - ROOT_MARGIN if ply == 0 else value
            if alpha > frames[ply].alpha:
                frames[ply].alpha = alpha


@cache
def compile_alphabeta(module: types.ModuleType) -> Any:
    """:func:`search_to_depth` compiled for the game ``module`` (its kernels inlined)."""
    copy = rollouts.template_compiler(module, globals())
    copy(terminal_value)
    copy(order_moves)
    return copy(search_to_depth)


def check_depth(depth: int) -> None:
    """``ValueError`` (one line) unless ``depth`` is from 1 to :data:`MOST_DEPTH`.

    The compiled search does not check its indices: its buffers must hold every ply.
    """
    if not 1 <= depth <= MOST_DEPTH:
        raise ValueError(f"alphabeta depth must be from 1 to {MOST_DEPTH}, not {depth}")


def check_without_chance(game: Game) -> None:
    """``ValueError`` (one line) for a game with chance nodes: they would need expectimax."""
    if game.has_chance:
        searchable = dict.fromkeys(
            variant.game.name for variant in variants() if not variant.game.has_chance
        )
        raise ValueError(
            f"alphabeta searches games without chance ({', '.join(searchable)});"
            f" {game.name}'s chance nodes would need an expectimax search"
        )


@dataclass(frozen=True)
class RootValues:
    """What :meth:`AlphaBetaSearch.search` found at the root, in its deepest iteration.

    ``values``: each legal root action's value for the mover, exact for the best and for
    every action within :data:`TIE` of it, an upper bound below those for the others.
    ``depth``: the plies of that iteration; ``nodes``: the positions every iteration reached.
    """

    values: dict[int, float]
    depth: int
    nodes: int

    @property
    def value(self) -> float:
        """The root's value for its mover."""
        return max(self.values.values())

    def best_actions(self) -> list[int]:
        """The actions whose value is within :data:`TIE` of the best, ascending."""
        best = self.value
        return [action for action, value in self.values.items() if value >= best - TIE]


class AlphaBetaSearch:
    """The search of one game without chance, ``depth`` plies deep, its buffers reused."""

    def __init__(self, game: Game, kernels: GameKernels, depth: int) -> None:
        check_without_chance(game)
        check_depth(depth)
        self.kernels = kernels
        self.depth = depth
        self._search = compile_alphabeta(kernels.module)
        self._config = np.array(kernels.config(game, {}), dtype=np.int64)
        actions = game.num_actions
        self._rows = np.zeros((depth + 1, kernels.row_length), dtype=np.uint8)
        self._child = np.zeros(kernels.row_length, dtype=np.uint8)
        self._masks = np.zeros((depth, actions), dtype=np.int8)
        self._orders = np.zeros((depth, actions), dtype=np.int64)
        self._scores = np.zeros((depth, actions))
        self._frames = np.zeros(depth, dtype=FRAME)
        self._values = np.zeros(actions)
        self._rngs = seed_states(0, 1)  # the kernels' signature; nothing random happens here

    def search(self, row: np.ndarray) -> RootValues:
        """The values of the root moves of ``row``, a decision node with a legal move.

        Iterative deepening from depth 1 to :attr:`depth`, each iteration's best move (the
        first of the best) searched first by the next; it stops once a win or a loss is
        proven.
        """
        nodes = 0
        first = -1
        for depth in range(1, self.depth + 1):
            nodes += self._search(
                row,
                depth,
                first,
                self._config,
                self._rows,
                self._masks,
                self._orders,
                self._scores,
                self._frames,
                self._child,
                self._rngs,
                self._values,
            )
            first = int(np.argmax(self._values))
            if abs(self._values[first]) > PROVEN:
                break
        legal = np.flatnonzero(self._values > -INFINITY)
        values = dict(zip(legal.tolist(), self._values[legal].tolist(), strict=True))
        return RootValues(values, depth, nodes)
