"""Training positions shown in a random symmetry of their board (data augmentation).

Santorini's board can be turned or reflected eight ways without changing what a position is
worth (:mod:`zoo_games.santorini.symmetry`). AlphaGo Zero trained on each position in a random
one of Go's eight: the network then sees every pattern in every orientation, from positions
self-play has already paid for. :class:`Augmenter` does that to a batch drawn from the replay
buffer, each row in a symmetry of its own, through the gathers of
:class:`~zoo_games.core.symmetry.Symmetry`: no state is rebuilt, so it costs a few array
copies per batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zoo_games.alphazero.replay import Positions
from zoo_games.core.symmetry import Symmetry


class Augmenter:
    """Shows each row of a batch in a symmetry drawn uniformly among ``symmetries``."""

    def __init__(self, symmetries: Sequence[Symmetry]) -> None:
        if not symmetries:
            raise ValueError("augmentation needs at least one symmetry (the identity)")
        self.count = len(symmetries)
        self._observations = np.stack([symmetry.observation for symmetry in symmetries])
        self._actions = np.stack([symmetry.actions for symmetry in symmetries])

    def augmented(self, batch: Positions, rng: np.random.Generator) -> Positions:
        """``batch`` with every row turned by a symmetry drawn with ``rng``; values unchanged."""
        turns = rng.integers(0, self.count, size=len(batch))
        flat = batch.observations.reshape(len(batch), -1)
        observations = np.take_along_axis(flat, self._observations[turns], axis=1)
        actions = self._actions[turns]
        return Positions(
            observations.reshape(batch.observations.shape),
            np.take_along_axis(batch.masks, actions, axis=1),
            np.take_along_axis(batch.policies, actions, axis=1),
            batch.returns,
            batch.search_values,
        )
