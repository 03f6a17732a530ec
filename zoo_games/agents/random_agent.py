"""The uniformly random agent: the baseline every other agent is measured against."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.core.game import GameState


class RandomAgent(Agent):
    """Plays a uniformly random legal action.

    It draws with numpy's generator seeded by ``seed`` as ``legal[rng.integers(len(legal))]``,
    so a game played by it is the same game whoever drives it (the command line's demo, the
    golden playthroughs, training's evaluation).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> int:
        """A uniformly random action of ``state.legal_actions()``."""
        check_decision_node(state)
        return self.pick(state.legal_actions())

    def pick(self, legal: Sequence[int]) -> int:
        """A uniformly random element of ``legal`` (e.g. the indices of an action mask)."""
        if len(legal) == 0:
            raise ValueError("no legal action to pick from")
        return int(legal[int(self._rng.integers(len(legal)))])
