"""A network's evaluation averaged over the symmetries of the board it reads.

A network trained on a board with symmetries (Santorini's eight turns and reflections,
:mod:`zoo_games.santorini.symmetry`) still says slightly different things about a position
and its turned copies: nothing in its dense layers makes it agree with itself. Its errors
that depend on the orientation are noise to a search, and averaging the eight readings cancels
part of them, as an ensemble of eight networks would, at the price of one larger batch:
:class:`SymmetricEvaluator` sends every leaf to the network in each guise at once, turns each
guise's logits back to the leaf's own actions, and returns the means of the logits and of the
values. The player uses it with ``symmetries=True`` (docs/agents.md, "alphazero").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zoo_games.alphazero.searching import Evaluator
from zoo_games.core.symmetry import Symmetry


class SymmetricEvaluator:
    """``evaluator`` read through each of ``symmetries`` and averaged (module docstring)."""

    def __init__(self, evaluator: Evaluator, symmetries: Sequence[Symmetry]) -> None:
        if not symmetries:
            raise ValueError("averaging over symmetries needs at least one (the identity)")
        self.evaluator = evaluator
        self.symmetries = tuple(symmetries)

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, values)`` of a batch: the means over the symmetries, ``float32``."""
        count, guises = len(observations), len(self.symmetries)
        flat = observations.reshape(count, -1)
        turned = np.concatenate([flat[:, symmetry.observation] for symmetry in self.symmetries])
        turned_masks = np.concatenate([masks[:, symmetry.actions] for symmetry in self.symmetries])
        logits, values = self.evaluator(
            turned.reshape(guises * count, *observations.shape[1:]), turned_masks
        )
        by_guise = np.asarray(logits, dtype=np.float32).reshape(guises, count, -1)
        logits_back = np.empty_like(by_guise)
        for guise, symmetry in enumerate(self.symmetries):
            logits_back[guise][:, symmetry.actions] = by_guise[guise]
        mean_values = np.asarray(values, dtype=np.float32).reshape(guises, count).mean(axis=0)
        return logits_back.mean(axis=0), mean_values
