"""A network's evaluation averaged over the board's symmetries.

The mean over all eight turns must say exactly the same of a position and of each of its
turned copies (logits moved with the actions), whatever the network; and it must be the mean
of the network's own readings.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.alphazero.test_augment import VARIANT, random_positions
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.player import NetworkPlayer
from zoo_games.alphazero.symmetric import SymmetricEvaluator
from zoo_games.catalog import find_variant
from zoo_games.core.symmetry import Symmetry, symmetries_of
from zoo_games.santorini import symmetry

SYMMETRIES = symmetries_of(VARIANT.observer, VARIANT.game.num_actions)


def random_network(seed: int, label: str = VARIANT.label) -> PolicyValueNetwork:
    """A network of ``label`` with random weights: for Santorini, no symmetry of its own."""
    rng = np.random.default_rng(seed)
    variant = find_variant(label)
    inputs, actions = int(np.prod(variant.observation_shape)), variant.game.num_actions

    def layer(outputs: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        weights = rng.normal(0, 0.3, (outputs, width)).astype(np.float32)
        return weights, rng.normal(0, 0.1, outputs).astype(np.float32)

    return PolicyValueNetwork(
        label,
        variant.observation_shape,
        actions,
        [layer(16, inputs)],
        layer(actions, 16),
        layer(1, 16),
    )


def test_a_position_and_its_turns_are_scored_alike():
    network = random_network(0)
    averaged = SymmetricEvaluator(network, SYMMETRIES)
    states, batch = random_positions(30, seed=1)
    logits, values = averaged(batch.observations, batch.masks)
    _, plain_values = network(batch.observations, batch.masks)
    assert not np.allclose(values, plain_values)  # the average is not the network alone
    for turn in range(symmetry.COUNT):
        turned = [symmetry.turned(state, turn) for state in states]
        observations = np.array([VARIANT.observer.observe(s, s.current_player()) for s in turned])
        masks = np.array([np.frombuffer(s.legal_actions_mask(), np.int8) for s in turned])
        turned_logits, turned_values = averaged(observations, masks)
        np.testing.assert_allclose(turned_values, values, rtol=1e-5, atol=1e-6)
        gather = symmetry.action_gather(turn, VARIANT.game.num_actions)
        np.testing.assert_allclose(turned_logits, logits[:, gather], rtol=1e-5, atol=1e-5)


def test_the_mean_is_of_the_networks_own_readings():
    network = random_network(2)
    _, batch = random_positions(10, seed=3)
    logits, values = SymmetricEvaluator(network, SYMMETRIES)(batch.observations, batch.masks)
    readings = [
        network(batch.observations[:, s.observation], batch.masks[:, s.actions]) for s in SYMMETRIES
    ]
    expected_values = np.mean([reading[1] for reading in readings], axis=0)
    np.testing.assert_allclose(values, expected_values, rtol=1e-5, atol=1e-6)
    # action a's logit in guise s sits at the turned action: gather it back and average
    back = [np.empty_like(reading[0]) for reading in readings]
    for returned, reading, turned in zip(back, readings, SYMMETRIES, strict=True):
        returned[:, turned.actions] = reading[0]
    np.testing.assert_allclose(logits, np.mean(back, axis=0), rtol=1e-5, atol=1e-5)


def test_the_identity_alone_is_the_network_and_none_is_refused():
    network = random_network(4)
    _, batch = random_positions(5, seed=5)
    identity = Symmetry(np.arange(batch.observations.shape[1]), np.arange(batch.masks.shape[1]))
    logits, values = SymmetricEvaluator(network, [identity])(batch.observations, batch.masks)
    plain_logits, plain_values = network(batch.observations, batch.masks)
    np.testing.assert_allclose(logits, plain_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, plain_values, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="at least one"):
        SymmetricEvaluator(network, [])


def test_a_board_without_symmetries_is_refused_in_one_line():
    with pytest.raises(ValueError, match="togyz-kumalak's board has none"):
        NetworkPlayer(random_network(0, "togyz-kumalak"), symmetries=True)


@pytest.mark.parametrize("simulations", [0, 4])
def test_the_agent_averages_over_symmetries_in_the_arena(simulations):
    pytest.importorskip("numba")
    from zoo_games.arena import run_arena

    spec = f"alphazero:symmetries=true,simulations={simulations}"
    result = run_arena("santorini-fixed", [spec, "random"], games=2, seed=0)
    assert result.pairing(spec, "random").games == 2
