"""What scores the leaves of a batched search: the protocol a network implements.

The search (:class:`zoo_games.batched.search.alphazero.BatchedSearch`) stops between its compiled
steps and hands every leaf waiting for evaluation, across all its games, to one call of a
:class:`LeafEvaluator`, so that a network sees one large batch per simulation instead of one
position at a time.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class LeafEvaluator(Protocol):
    """Scores the positions at the leaves of a search, for the player to move there."""

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Prior logits and values of ``n`` leaves.

        ``observations``: ``(n, *observation_shape)``, what the environment shows the mover at
        each leaf (the variant's observation dtype); ``masks``: ``(n, num_actions)`` ``int8``,
        the mover's legal actions. Returns ``logits`` ``(n, num_actions)`` (read on legal
        actions only) and ``values`` ``(n,)`` in [-1, 1], both for the mover at the leaf.
        """
        ...


def uniform_evaluator(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal priors over the legal actions and a value of 0: a search guided by results alone."""
    count = masks.shape[0]
    return np.zeros(masks.shape, dtype=np.float32), np.zeros(count, dtype=np.float32)
