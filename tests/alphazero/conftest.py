"""Tiny random networks saved in temporary folders, for the agent's tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.catalog import find_variant


def random_network(label: str, seed: int = 0, hidden: int = 8) -> PolicyValueNetwork:
    """A network of one hidden layer, with random weights, that reads ``label``'s observations."""
    variant = find_variant(label)
    shape = tuple(variant.observer.space.shape)
    actions = variant.game.num_actions
    rng = np.random.default_rng(seed)

    def layer(outputs: int, inputs: int) -> tuple[np.ndarray, np.ndarray]:
        return rng.normal(0.0, 0.3, (outputs, inputs)), rng.normal(0.0, 0.3, outputs)

    return PolicyValueNetwork(
        variant=label,
        observation_shape=shape,
        num_actions=actions,
        hidden=[layer(hidden, int(np.prod(shape)))],
        policy=layer(actions, hidden),
        value=layer(1, hidden),
    )


@pytest.fixture
def saved_network(tmp_path: Path) -> Callable[..., Path]:
    """``saved_network(label, seed=0, folder="label")``: the folder of a saved random network."""

    def save(label: str, seed: int = 0, folder: str | None = None) -> Path:
        return random_network(label, seed).save(tmp_path / (folder or label))

    return save
