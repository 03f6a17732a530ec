"""The compiled descent of a batched search: from every game's root down to a leaf to evaluate.

One call walks the tree of each searched game (:mod:`zoo_games.batched.tree`) from its root,
playing the chosen moves on a copy of the root's state row with the game's kernels
(``legal_mask`` before every ``play``, as the engine's contract requires), until it reaches a
node never evaluated or a finished game. At a chance node (Senet: the sticks are still to be
thrown) the game's ``begin_turn`` draws the outcome from that game's own generator and the
child of that outcome is followed (made if new), so leaves are always decision nodes or
finished games, and the outcomes are visited as often as chance gives them. For each game it
writes the leaf's state row, legal mask and observation (the game module's ``observe``: the
bytes the environment gives the mover), and the path of nodes from the root.

The template :func:`descend` is written against the global name ``game_kernels`` and compiled
per game module by :func:`compile_descent`, as the batch loops are
(:func:`zoo_games.batched.batch.compile_for_game`).
"""

from __future__ import annotations

import types
from functools import cache
from typing import Any

import numpy as np
from numba import njit

from zoo_games.batched.batch import MOVER, compile_for_game, winner_returns
from zoo_games.batched.rng import Integer
from zoo_games.batched.tree import (
    CHANCE_NODE,
    FINISHED,
    UNEXPANDED,
    add_child,
    select_action,
)
from zoo_games.core.game import NO_WINNER

#: Bound per game module by :func:`compile_descent` (the template itself is never compiled).
game_kernels: Any = None


@njit(cache=True, inline="always")
def no_chance_outcome(row: np.ndarray) -> int:
    """``chance_outcome`` of a game without chance: never 0, so no node is a chance node."""
    return -1


def chance_outcome(row: np.ndarray) -> int:
    """Template: the game's ``chance_outcome`` (0 while chance is pending), or the above."""
    raise NotImplementedError


def descend(
    root_rows: np.ndarray,
    games: np.ndarray,
    config: np.ndarray,
    rngs: np.ndarray,
    selection: Integer,
    root_targets: np.ndarray,
    exploration: float,
    gumbel: np.ndarray,
    kind: np.ndarray,
    player: np.ndarray,
    visits: np.ndarray,
    value_sum: np.ndarray,
    raw_value: np.ndarray,
    logits: np.ndarray,
    children: np.ndarray,
    size: np.ndarray,
    paths: np.ndarray,
    depths: np.ndarray,
    leaf_rows: np.ndarray,
    leaf_masks: np.ndarray,
    leaf_observations: np.ndarray,
    leaf_values: np.ndarray,
    needs_evaluation: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Descend the tree of each game ``k`` (tree ``games[k]``, root ``root_rows[k]``) to a leaf.

    ``root_targets[k]``: the visit count Sequential Halving asks of this simulation's root
    action in game ``k`` (Gumbel selection). Writes ``paths[k, :depths[k]]`` (the nodes from
    the root to the leaf), ``leaf_rows[k]``, and either ``needs_evaluation[k]`` with
    ``leaf_masks[k]`` and ``leaf_observations[k]`` (a decision node never evaluated: the
    evaluator's to score) or ``leaf_values[k]`` (a finished game's result for ``player_0``).
    A decision node whose mover has no legal action is finished as the game's
    ``outcome_without_moves`` says.
    """
    for k in range(games.shape[0]):
        g = games[k]
        row = leaf_rows[k]
        row[:] = root_rows[k]
        node = 0
        paths[k, 0] = 0
        depth = 1
        while True:
            node_kind = kind[g, node]
            if node_kind == FINISHED:
                needs_evaluation[k] = False
                leaf_values[k] = raw_value[g, node]
                break
            if node_kind == UNEXPANDED:
                if game_kernels.legal_mask(row, config, leaf_masks[k]) == 0:
                    outcome = game_kernels.outcome_without_moves(row, config)
                    kind[g, node] = FINISHED
                    raw_value[g, node] = winner_returns(outcome)[0]
                    needs_evaluation[k] = False
                    leaf_values[k] = raw_value[g, node]
                    break
                player[g, node] = row[MOVER]
                game_kernels.observe(row, config, leaf_observations[k])
                needs_evaluation[k] = True
                break
            if node_kind == CHANCE_NODE:
                game_kernels.begin_turn(row, config, rngs, g)
                key = chance_outcome(row)
                child = children[g, node, key]
                if child < 0:
                    child = add_child(g, node, key, kind, visits, value_sum, size, children)
            else:
                game_kernels.legal_mask(row, config, leaf_masks[k])
                key = select_action(
                    g, node, selection, root_targets[k], exploration, gumbel, player, visits,
                    value_sum, raw_value, logits, children, scratch,
                )  # fmt: skip
                outcome = game_kernels.play(row, key, config, rngs, g)
                child = children[g, node, key]
                if child < 0:
                    child = add_child(g, node, key, kind, visits, value_sum, size, children)
                    if outcome != NO_WINNER:
                        kind[g, child] = FINISHED
                        raw_value[g, child] = winner_returns(outcome)[0]
                    elif chance_outcome(row) == 0:
                        kind[g, child] = CHANCE_NODE
            node = child
            paths[k, depth] = node
            depth += 1
        depths[k] = depth


@cache
def compile_descent(module: types.ModuleType) -> Any:
    """:func:`descend` compiled against the game ``module``'s kernels."""
    namespace = dict(globals(), game_kernels=module)
    namespace["chance_outcome"] = getattr(module, "chance_outcome", no_chance_outcome)
    return compile_for_game(descend, module, namespace)
