"""The search tree in a numpy array: node layout, allocation, chance nodes, backup and solving.

Both searches over the batched kernels keep their trees here: ``batched-mcts``'s UCT search
(:mod:`zoo_games.batched.search.uct`, one large tree reused move after move) and the AlphaZero
search (:mod:`zoo_games.batched.search.alphazero`, one small tree per game of a batch, a row of
a 2-D array of nodes). A tree is a preallocated array of :data:`NODE` records; node 0 is the
root. The children of a node are a contiguous range of nodes (``first``, ``count``), one per legal
action of a decision node or per chance outcome of a chance node (Senet's throws, with their
probabilities), allocated the first time a simulation passes through the node; the child of a
chance node is found by its outcome. Values are ``player_0``'s, so that a node's value reads
the same whoever moved into it (the mover may stay the same across a move: Senet's extra
turns); a rule that needs the mover's view multiplies by :func:`sign_of`.

The functions take one tree (a 1-D array of nodes) and its ``size`` (a 1-element array: the
number of nodes in use), and nothing of a game: the searches call the game's kernels
themselves and pass chance's ``probabilities`` (the game module's ``OUTCOME_PROBABILITY``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from zoo_games.batched.rng import Integer
from zoo_games.core.game import CHANCE

#: ``solved`` of a node whose exact value is not known (values lie in [-1, 1]).
OPEN = 2.0
#: One node of the tree. ``total`` sums the simulations' results through the node and
#: ``solved`` is its exact value, both for ``player_0``; ``action`` is the action (or chance
#: outcome) that leads to it from its parent; ``first`` is its first child (-1 before its
#: children are allocated), ``count`` their number, ``tried`` how many have been visited (UCT
#: visits its untried children in random order: see
#: :func:`zoo_games.batched.search.selection.take_untried`);
#: ``player`` is the mover, or ``CHANCE`` at a chance node.
NODE = np.dtype(
    [
        ("total", np.float64),
        ("solved", np.float64),
        ("visits", np.int32),
        ("first", np.int32),
        ("count", np.int16),
        ("tried", np.int16),
        ("action", np.int16),
        ("player", np.int8),
    ],
    align=True,
)


@njit(cache=True, inline="always")
def sign_of(player: Integer) -> float:
    """+1 for ``player_0``, -1 for ``player_1``: turns a ``player_0`` value into the player's."""
    return 1.0 if player == 0 else -1.0


@njit(cache=True, inline="always")
def new_child(nodes: np.ndarray, child: Integer, action: Integer) -> None:
    """Make node ``child`` an unvisited, unsolved child reached by ``action``."""
    nodes[child].total = 0.0
    nodes[child].solved = OPEN
    nodes[child].visits = 0
    nodes[child].first = -1
    nodes[child].count = 0
    nodes[child].tried = 0
    nodes[child].action = action
    nodes[child].player = 0


@njit(cache=True, inline="always")
def add_children(nodes: np.ndarray, size: np.ndarray, node: Integer, mask: np.ndarray) -> None:
    """Allocate one child per legal action (``mask``) of a decision node, after the last node."""
    first = size[0]
    count = 0
    for action in range(mask.shape[0]):
        if mask[action]:
            new_child(nodes, first + count, action)
            count += 1
    nodes[node].first = first
    nodes[node].count = count
    size[0] = first + count


@njit(cache=True, inline="always")
def add_outcomes(
    nodes: np.ndarray, size: np.ndarray, node: Integer, probabilities: np.ndarray
) -> None:
    """Allocate one child per chance outcome of positive probability of a chance node."""
    first = size[0]
    count = 0
    for outcome in range(probabilities.shape[0]):
        if probabilities[outcome] > 0:
            new_child(nodes, first + count, outcome)
            count += 1
    nodes[node].first = first
    nodes[node].count = count
    size[0] = first + count


@njit(cache=True, inline="always")
def outcome_child(
    nodes: np.ndarray, size: np.ndarray, node: Integer, outcome: Integer, probabilities: np.ndarray
) -> int:
    """The child of chance node ``node`` reached by ``outcome`` (its outcomes made if new)."""
    if nodes[node].first < 0:
        add_outcomes(nodes, size, node, probabilities)
    first = nodes[node].first
    for child in range(first, first + nodes[node].count):
        if nodes[child].action == outcome:
            return child
    return -1


@njit(cache=True, inline="always")
def stratified_outcome_child(
    nodes: np.ndarray, size: np.ndarray, node: Integer, probabilities: np.ndarray
) -> int:
    """The child of chance node ``node`` whose probability most exceeds its share of the visits.

    (Its outcomes are made if new.) The share of a child is its visits over ``1 +`` the chance
    node's: the first visit takes the likeliest outcome, and after ``n`` visits each outcome's
    visits lie within one of ``n`` times its probability, so the node's mean weighs its
    outcomes as the game does. Drawing the outcomes instead weighs them by the luck of a few
    draws: eight draws leave out a Senet throw of 1/16 six times in ten, and draw it twice or
    more (a quarter of the visits) one time in twelve.
    """
    if nodes[node].first < 0:
        add_outcomes(nodes, size, node, probabilities)
    first = nodes[node].first
    share = 1.0 / (1.0 + nodes[node].visits)
    best = first
    best_excess = -math.inf
    for child in range(first, first + nodes[node].count):
        excess = probabilities[nodes[child].action] - nodes[child].visits * share
        if excess > best_excess:
            best, best_excess = child, excess
    return best


@njit(cache=True, inline="always")
def backup(nodes: np.ndarray, path: np.ndarray, depth: Integer, value: float) -> None:
    """Count one more visit of each of the ``depth`` nodes of ``path``, adding ``value``."""
    for index in range(depth):
        nodes[path[index]].visits += 1
        nodes[path[index]].total += value


@njit(cache=True)
def solve(nodes: np.ndarray, node: Integer, probabilities: np.ndarray) -> bool:
    """Mark ``node`` solved if its children decide it (MCTS-Solver); whether it now is.

    A decision node is won when one child is won for its mover, and decided when all its
    children are; a chance node when all its outcomes are, to their weighted value.
    """
    if nodes[node].solved != OPEN:
        return True
    first = nodes[node].first
    if first < 0:
        return False
    if nodes[node].player == CHANCE:
        value = 0.0
        for child in range(first, first + nodes[node].count):
            if nodes[child].visits == 0 or nodes[child].solved == OPEN:
                return False
            value += probabilities[nodes[child].action] * nodes[child].solved
        nodes[node].solved = value
        return True
    sign = sign_of(nodes[node].player)
    best = -math.inf
    open_child = nodes[node].tried < nodes[node].count
    for child in range(first, first + nodes[node].tried):
        solved = nodes[child].solved
        if solved == OPEN:
            open_child = True
        elif sign * solved >= 1.0:
            nodes[node].solved = solved
            return True
        else:
            best = max(best, sign * solved)
    if open_child:
        return False
    nodes[node].solved = sign * best
    return True
