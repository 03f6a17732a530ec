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
        # All the guises' gathers side by side, so that a batch is turned in one indexing: the
        # observation's values, the mask's actions, and (undoing each guise's ``actions``) where
        # each of the leaf's own actions lies in its guises' logits laid side by side.
        self._observation_gather = np.concatenate([s.observation for s in self.symmetries])
        self._action_gather = np.concatenate([s.actions for s in self.symmetries])
        num_actions = len(self.symmetries[0].actions)
        self._logits_back = np.concatenate(
            [guise * num_actions + np.argsort(s.actions) for guise, s in enumerate(self.symmetries)]
        )

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, values)`` of a batch: the means over the symmetries, ``float32``."""
        count, guises = len(observations), len(self.symmetries)
        turned = observations.reshape(count, -1)[:, self._observation_gather]
        turned_masks = masks[:, self._action_gather]
        # Guise by guise, ``guises * count`` rows: row ``guise * count + leaf``.
        logits, values = self.evaluator(
            guise_major(turned, guises).reshape(guises * count, *observations.shape[1:]),
            guise_major(turned_masks, guises),
        )
        by_guise = np.asarray(logits, dtype=np.float32).reshape(guises, count, -1)
        by_leaf = by_guise.transpose(1, 0, 2).reshape(count, -1)[:, self._logits_back]
        mean_logits = by_leaf.reshape(count, guises, -1).mean(axis=1, dtype=np.float32)
        mean_values = np.asarray(values, dtype=np.float32).reshape(guises, count).mean(axis=0)
        return mean_logits, mean_values


def guise_major(rows: np.ndarray, guises: int) -> np.ndarray:
    """Rows ``(count, guises * width)``, each leaf's guises side by side, as guise after guise.

    ``(guises * count, width)``: row ``guise * count + leaf``.
    """
    count = len(rows)
    return rows.reshape(count, guises, -1).transpose(1, 0, 2).reshape(guises * count, -1)
