"""The replay buffer: the latest self-play positions, each with its search target and return.

A ring of numpy arrays of fixed size: the newest positions overwrite the oldest, so the
learner always trains on the latest positions (a million by default), played by networks close
to the one it is training. Each position is what the network reads and what it should have
said: the observation of the player to move, the legal actions, the search's improved policy,
the return of the game from that position for that player (its outcome, or the λ-return of
:mod:`zoo_games.alphazero.returns`) and the search's value of the position for that player.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Positions:
    """A batch of training positions, one row each."""

    observations: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    #: What the rest of the game said of the position, for the player to move: the game's
    #: outcome, or its λ-return (:func:`~zoo_games.alphazero.returns.lambda_returns`).
    returns: np.ndarray
    #: The search's value of the root for the player to move (the learner can blend it with
    #: the return: :class:`~zoo_games.alphazero.learner.Learner`).
    search_values: np.ndarray

    def __len__(self) -> int:
        return len(self.returns)


class ReplayBuffer:
    """At most ``capacity`` positions of one variant; the oldest go first when it is full."""

    def __init__(
        self,
        capacity: int,
        observation_shape: tuple[int, ...],
        observation_dtype: np.dtype,
        num_actions: int,
    ) -> None:
        if capacity < 1:
            raise ValueError(f"the replay capacity must be 1 or more, got {capacity}")
        self.capacity = capacity
        self._observations = np.zeros((capacity, *observation_shape), dtype=observation_dtype)
        self._masks = np.zeros((capacity, num_actions), dtype=np.int8)
        self._policies = np.zeros((capacity, num_actions), dtype=np.float32)
        self._returns = np.zeros(capacity, dtype=np.float32)
        self._search_values = np.zeros(capacity, dtype=np.float32)
        #: Positions ever added (the next one goes to ``added % capacity``).
        self.added = 0

    def __len__(self) -> int:
        return min(self.added, self.capacity)

    def add(self, positions: Positions) -> None:
        """Append ``positions`` (if more than the capacity, only the last ones are kept)."""
        count = len(positions)
        first = max(0, count - self.capacity)
        slots = (self.added + np.arange(first, count)) % self.capacity
        self._observations[slots] = positions.observations[first:]
        self._masks[slots] = positions.masks[first:]
        self._policies[slots] = positions.policies[first:]
        self._returns[slots] = positions.returns[first:]
        self._search_values[slots] = positions.search_values[first:]
        self.added += count

    def sample(self, count: int, rng: np.random.Generator) -> Positions:
        """``count`` positions drawn uniformly, with replacement, with ``rng``."""
        if len(self) == 0:
            raise ValueError("the replay buffer is empty: play some games first")
        return self._rows(rng.integers(0, len(self), size=count))

    def latest(self, count: int) -> Positions:
        """The last ``count`` positions added (at most those held), oldest first."""
        count = min(count, len(self))
        return self._rows((self.added - count + np.arange(count)) % self.capacity)

    def _rows(self, slots: np.ndarray) -> Positions:
        return Positions(
            self._observations[slots],
            self._masks[slots],
            self._policies[slots],
            self._returns[slots],
            self._search_values[slots],
        )

    # ------------------------------------------------------------------ files
    def save(self, path: Path) -> None:
        """Write the held positions and the count to ``path`` (an ``.npz``)."""
        held = len(self)
        np.savez(
            path,
            observations=self._observations[:held],
            masks=self._masks[:held],
            policies=self._policies[:held],
            returns=self._returns[:held],
            search_values=self._search_values[:held],
            added=np.int64(self.added),
        )

    def load(self, path: Path) -> None:
        """Replace what this buffer holds by what :meth:`save` wrote to ``path``."""
        with np.load(path) as saved:
            # A buffer saved before λ-returns held the outcomes, under that name.
            returns = saved["returns"] if "returns" in saved else saved["outcomes"]
            held = len(returns)
            if held > self.capacity:
                raise ValueError(
                    f"{path} holds {held} positions, more than this buffer's {self.capacity}"
                )
            self._observations[:held] = saved["observations"]
            self._masks[:held] = saved["masks"]
            self._policies[:held] = saved["policies"]
            self._returns[:held] = returns
            # A buffer saved before search values were kept: its returns stand in for them.
            self._search_values[:held] = saved.get("search_values", returns)
            self.added = int(saved["added"])
