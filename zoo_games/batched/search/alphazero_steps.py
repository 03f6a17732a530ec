"""The compiled steps of the AlphaZero search, over the trees of every game of a batch.

A step of :class:`zoo_games.batched.search.alphazero.BatchedSearch` runs simulations in lanes, one
or more per game: :func:`plan_root_children` (Gumbel's root), :func:`descend`, then one call of
the Python leaf evaluator for all the leaves waiting, then :func:`expand_and_backup`;
:func:`summarize_roots` reads the result off the roots at the end. The trees are the rows of a
2-D array of :data:`~zoo_games.batched.search.tree.NODE` records (row ``g``: game ``g``'s tree),
with each node's prior logit (``priors``, normalised over its parent's legal actions) and each
evaluated node's value (``raw_values``, ``player_0``'s) beside them, and each tree's
``sizes[g]`` (a 1-element row).

:func:`descend` is a template over the game's kernels, compiled per game module by
:func:`compile_descent` (:mod:`zoo_games.batched.search.templates`); the other steps know no game.
"""

from __future__ import annotations

import math
import types
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import MOVER, compile_for_game, winner_returns
from zoo_games.batched.rng import Integer, uniform
from zoo_games.batched.search.selection import (
    GUMBEL,
    gumbel_root_children,
    improved_policy,
    select_child,
    sigma_of_completed_q,
)
from zoo_games.batched.search.templates import (
    OUTCOME_PROBABILITY,
    chance_outcome,
    find_legal,
    game_kernels,
    play_move,
    search_namespace,
    set_chance_outcome,
)
from zoo_games.batched.search.tree import (
    OPEN,
    add_children,
    backup,
    new_child,
    sign_of,
    stratified_outcome_child,
)
from zoo_games.core.game import CHANCE, NO_WINNER


@njit(cache=True)
def reset_roots(games: np.ndarray, nodes: np.ndarray, sizes: np.ndarray) -> None:
    """Empty the trees of ``games``: each is one root, neither evaluated nor visited."""
    for g in games:
        new_child(nodes[g], 0, 0)
        sizes[g, 0] = 1


def descend(
    root_rows: np.ndarray,
    origins: np.ndarray,
    games: np.ndarray,
    config: np.ndarray,
    rngs: np.ndarray,
    selection: Integer,
    root_children: np.ndarray,
    exploration: float,
    nodes: np.ndarray,
    priors: np.ndarray,
    raw_values: np.ndarray,
    sizes: np.ndarray,
    paths: np.ndarray,
    depths: np.ndarray,
    leaf_rows: np.ndarray,
    leaf_masks: np.ndarray,
    leaf_observations: np.ndarray,
    leaf_values: np.ndarray,
    needs_evaluation: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Descend each lane ``k`` (tree ``games[k]``, root ``root_rows[origins[k]]``) to a leaf.

    A lane is one simulation; several lanes may share a tree when their root children
    (``root_children[k]``, or ``-1`` to let ``selection`` choose) differ, as those of one round
    of Sequential Halving do: their paths then lie in disjoint subtrees.

    The moves are played on a copy of the root's row with the game's kernels, ``legal_mask``
    before every ``play`` as the engine's contract requires. At a chance node (the sticks
    still to be thrown) the outcome followed is the one most short of its probability's share
    of the node's visits (:func:`~zoo_games.batched.search.tree.stratified_outcome_child`),
    written into the row by the game's ``set_chance_outcome``, so a leaf is a decision node
    never evaluated or a finished game.

    Writes ``paths[k, :depths[k]]`` (the nodes from the root to the leaf), ``leaf_rows[k]``,
    and either ``needs_evaluation[k]`` with ``leaf_masks[k]`` and ``leaf_observations[k]``
    (the bytes the environment shows the mover) or ``leaf_values[k]`` (a finished game's
    result for ``player_0``). A mover without a legal action finishes the game as the game's
    ``outcome_without_moves`` says.
    """
    for k in range(games.shape[0]):
        g = games[k]
        tree = nodes[g]
        row = leaf_rows[k]
        row[:] = root_rows[origins[k]]
        node = 0
        paths[k, 0] = 0
        depth = 1
        while True:
            if tree[node].solved != OPEN:
                needs_evaluation[k] = False
                leaf_values[k] = tree[node].solved
                break
            if tree[node].player == CHANCE:
                child = stratified_outcome_child(tree, sizes[g], node, OUTCOME_PROBABILITY)
                set_chance_outcome(row, tree[child].action)
            elif tree[node].first < 0:
                if find_legal(row, config, leaf_masks[k]) == 0:
                    outcome = game_kernels.outcome_without_moves(row, config)
                    tree[node].solved = winner_returns(outcome)[0]
                    continue
                tree[node].player = row[MOVER]
                game_kernels.observe(row, config, leaf_observations[k])
                needs_evaluation[k] = True
                break
            else:
                find_legal(row, config, leaf_masks[k])
                if node == 0 and root_children[k] >= 0:
                    child = root_children[k]
                else:
                    child = select_child(
                        tree, node, selection, exploration, priors[g], raw_values[g], scratch
                    )
                outcome = play_move(row, tree[child].action, config, rngs, g)
                if tree[child].visits == 0:
                    if outcome != NO_WINNER:
                        tree[child].solved = winner_returns(outcome)[0]
                    elif chance_outcome(row) == 0:
                        tree[child].player = CHANCE
            node = child
            paths[k, depth] = node
            depth += 1
        depths[k] = depth


@njit(cache=True)
def plan_root_children(
    games: np.ndarray,
    targets: np.ndarray,
    widths: np.ndarray,
    starts: np.ndarray,
    gumbel: np.ndarray,
    nodes: np.ndarray,
    priors: np.ndarray,
    raw_values: np.ndarray,
    scratch: np.ndarray,
    root_children: np.ndarray,
) -> None:
    """Pick the root children of the next simulations of each game, by Sequential Halving.

    Game ``k`` (tree ``games[k]``) runs ``widths[k]`` simulations now, the lanes from
    ``starts[k]`` on, through the best ``widths[k]`` root children visited ``targets[k]``
    times (:func:`~zoo_games.batched.search.selection.gumbel_root_children`).
    """
    for k in range(games.shape[0]):
        if widths[k] > 0:
            g = games[k]
            lanes = root_children[starts[k] : starts[k] + widths[k]]
            gumbel_root_children(
                nodes[g], targets[k], widths[k], gumbel[g], priors[g], raw_values[g], scratch,
                lanes,
            )  # fmt: skip


@cache
def compile_descent(module: types.ModuleType) -> Any:
    """:func:`descend` compiled for the game ``module``.

    ``TypeError`` for a game module with chance outcomes (``chance_outcome``) but no
    ``set_chance_outcome``: the descent chooses each outcome and must write it into the row.
    """
    if hasattr(module, "chance_outcome") and not hasattr(module, "set_chance_outcome"):
        raise TypeError(
            f"{module.__name__} has chance outcomes (chance_outcome) but no set_chance_outcome, "
            "which the AlphaZero search needs to follow the outcome it chooses"
        )
    return compile_for_game(descend, module, search_namespace(module, globals()))


@njit(cache=True)
def expand_and_backup(
    games: np.ndarray,
    paths: np.ndarray,
    depths: np.ndarray,
    needs_evaluation: np.ndarray,
    leaf_masks: np.ndarray,
    leaf_values: np.ndarray,
    evaluated_logits: np.ndarray,
    evaluated_values: np.ndarray,
    nodes: np.ndarray,
    priors: np.ndarray,
    raw_values: np.ndarray,
    sizes: np.ndarray,
) -> None:
    """Expand each evaluated leaf with its priors, then back its value up its path.

    For the ``k``-th searched game (tree ``games[k]``): a leaf that was evaluated gets one
    child per legal action (``leaf_masks[k]``), each with the evaluator's logit normalised over
    the legal actions into a log-probability, and its value (the mover's, made ``player_0``'s);
    a finished game's leaf brings its exact value (``leaf_values[k]``). Every node of the path,
    leaf and root included, then counts one more visit and adds the value.
    """
    for k in range(games.shape[0]):
        g = games[k]
        tree = nodes[g]
        leaf = paths[k, depths[k] - 1]
        if needs_evaluation[k]:
            value = sign_of(tree[leaf].player) * evaluated_values[k]
            raw_values[g, leaf] = value
            add_children(tree, sizes[g], leaf, leaf_masks[k])
            first, count = tree[leaf].first, tree[leaf].count
            top = -math.inf
            for child in range(first, first + count):
                top = max(top, evaluated_logits[k, tree[child].action])
            total = 0.0
            for child in range(first, first + count):
                total += math.exp(evaluated_logits[k, tree[child].action] - top)
            shift = top + math.log(total)
            for child in range(first, first + count):
                priors[g, child] = evaluated_logits[k, tree[child].action] - shift
        else:
            value = leaf_values[k]
        backup(tree, paths[k], depths[k], value)


@njit(cache=True)
def summarize_roots(
    games: np.ndarray,
    selection: Integer,
    sample: bool,
    gumbel: np.ndarray,
    rngs: np.ndarray,
    nodes: np.ndarray,
    priors: np.ndarray,
    raw_values: np.ndarray,
    actions: np.ndarray,
    policy: np.ndarray,
    root_values: np.ndarray,
    root_visits: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """What the search of each game ``k`` (tree ``games[k]``) found at its root.

    ``root_visits[k]``: each action's visits; ``root_values[k]``: the root's mean value for
    its mover. Gumbel: ``policy[k]`` is the improved policy ``softmax(logits + sigma(completed
    Q))``, and the action is, among the most visited actions (the survivors of Sequential
    Halving), the best by ``gumbel + logits + sigma``. PUCT: ``policy[k]`` is the visit
    distribution (the prior when nothing was visited), and the action is drawn from it when
    ``sample``, else the most visited one (ties to the higher prior).
    """
    for k in range(games.shape[0]):
        g = games[k]
        tree = nodes[g]
        first, count = tree[0].first, tree[0].count
        most = 0
        total = 0
        for child in range(first, first + count):
            root_visits[k, tree[child].action] = tree[child].visits
            most = max(most, tree[child].visits)
            total += tree[child].visits
        root_values[k] = sign_of(tree[0].player) * tree[0].total / max(tree[0].visits, 1)
        best = first
        best_score = -math.inf
        if selection == GUMBEL:
            improved_policy(tree, 0, priors[g], raw_values[g], scratch)
            for i in range(count):
                policy[k, tree[first + i].action] = scratch[i]
            sigma_of_completed_q(tree, 0, priors[g], raw_values[g], scratch)
            for i in range(count):
                child = first + i
                score = gumbel[g, tree[child].action] + priors[g, child] + scratch[i]
                if tree[child].visits == most and score > best_score:
                    best, best_score = child, score
        else:
            for child in range(first, first + count):
                share = tree[child].visits / total if total else math.exp(priors[g, child])
                policy[k, tree[child].action] = share
            if sample:
                draw = uniform(rngs, g)
                for child in range(first, first + count):
                    share = policy[k, tree[child].action]
                    if share > 0.0:
                        best = child
                        draw -= share
                        if draw < 0.0:
                            break
            else:
                for child in range(first, first + count):
                    score = tree[child].visits + 0.5 * math.exp(priors[g, child])
                    if score > best_score:
                        best, best_score = child, score
        actions[k] = tree[best].action
