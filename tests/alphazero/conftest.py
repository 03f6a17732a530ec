"""A scripted stand-in for the batched search, so that self-play and training are tested alone.

:class:`ScriptedSearch` keeps the search's interface (``run(rows, evaluator, explore)``) but
searches nothing: it reads each row through the rules core, asks the evaluator for the
positions' logits (so the network does steer the games, as in a real search), and plays the
legal action with the highest logit plus Gumbel noise from its seeded generator; its policy
target is the masked softmax of the logits. It records every call's rows and actions, so a
test can replay the games in the rules core. The subprocess of the kill test loads it with
``runpy`` from this file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from zoo_games.alphazero.searching import Evaluator
from zoo_games.catalog import find_variant


@dataclass
class ScriptedResult:
    """What the search protocol gives back."""

    actions: np.ndarray
    policy: np.ndarray
    root_values: np.ndarray


class ScriptedSearch:
    """Gumbel-noised network choices, recorded (see the module docstring)."""

    def __init__(self, variant: str, games: int, simulations: int, seed: int) -> None:
        from zoo_games.batched import kernels_of  # numba: tests without it skip before this

        chosen = find_variant(variant)
        self.game = chosen.game
        self.observer = chosen.observer
        self.kernels = kernels_of(chosen.game)
        self.games = games
        self.rng = np.random.default_rng(seed)
        #: Each call's ``(rows, actions)``, copied.
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def run(
        self,
        rows: np.ndarray,
        evaluator: Evaluator,
        explore: bool = True,
        *,
        root_masks: np.ndarray | None = None,
    ) -> ScriptedResult:
        states = [self.kernels.state_from_row(self.game, row) for row in rows]
        masks = np.stack([np.frombuffer(s.legal_actions_mask(), dtype=np.int8) for s in states])
        if root_masks is not None:
            masks = masks * (root_masks != 0)
        observations = np.stack([self.observer.observe(s, s.current_player()) for s in states])
        logits, values = evaluator(observations, masks)
        masked = np.where(masks > 0, logits, -np.inf)
        noise = self.rng.gumbel(size=masked.shape) if explore else 0.0
        actions = np.argmax(masked + noise, axis=1).astype(np.int64)
        policy = np.exp(masked - masked.max(axis=1, keepdims=True))
        policy /= policy.sum(axis=1, keepdims=True)
        self.calls.append((np.array(rows, copy=True), actions.copy()))
        return ScriptedResult(actions, policy.astype(np.float32), values)


def scripted_search(variant: str, games: int, simulations: int, seed: int) -> ScriptedSearch:
    """Made as ``zoo_games.alphazero.searching.make_search`` makes the real one."""
    return ScriptedSearch(variant, games, simulations, seed)


@pytest.fixture
def make_scripted_search() -> Callable[[str, int, int, int], ScriptedSearch]:
    """How training makes its search, scripted."""
    return scripted_search
