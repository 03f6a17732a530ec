"""The search's folded evaluator: the symmetric mean, computed with the turns in the weights.

It must give what turning each leaf and averaging the network's readings gives (up to the
rounding of sums taken in another order), for any values in the observation, and the search
it serves must choose the moves it chose with the gathers.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.alphazero.test_augment import VARIANT, random_positions
from tests.alphazero.test_symmetric import SYMMETRIES
from zoo_games import agents
from zoo_games.alphazero.folded import FoldedEvaluator, can_fold
from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.alphazero.symmetric import SymmetricEvaluator
from zoo_games.catalog import find_variant
from zoo_games.core.symmetry import Symmetry


def deep_network(seed: int, hidden: tuple[int, ...] = (24, 16)) -> PolicyValueNetwork:
    """A Santorini network with random weights and ``hidden`` layers (two: one stays unfolded)."""
    rng = np.random.default_rng(seed)
    inputs, actions = int(np.prod(VARIANT.observation_shape)), VARIANT.game.num_actions

    def layer(outputs: int, width: int) -> tuple[np.ndarray, np.ndarray]:
        weights = rng.normal(0, 0.2, (outputs, width)).astype(np.float32)
        return weights, rng.normal(0, 0.1, outputs).astype(np.float32)

    widths = [inputs, *hidden]
    return PolicyValueNetwork(
        VARIANT.label,
        VARIANT.observation_shape,
        actions,
        [layer(out, width) for width, out in itertools.pairwise(widths)],
        layer(actions, widths[-1]),
        layer(1, widths[-1]),
    )


def assert_same_means(got, expected) -> None:
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[1], expected[1], rtol=1e-4, atol=1e-6)
    assert got[0].dtype == got[1].dtype == np.float32


@pytest.mark.parametrize("hidden", [(24,), (24, 16), (8, 8, 8)])
def test_it_gives_the_symmetric_mean_of_positions_met_in_games(hidden):
    network = deep_network(1, hidden)
    _, batch = random_positions(40, seed=2)
    folded = FoldedEvaluator(network, SYMMETRIES)
    expected = SymmetricEvaluator(network, SYMMETRIES)(batch.observations, batch.masks)
    assert_same_means(folded(batch.observations, batch.masks), expected)


def test_any_values_are_read_and_a_blank_observation_gives_the_biases_alone():
    network = deep_network(3)
    rng = np.random.default_rng(4)
    shape = (5, *VARIANT.observation_shape)
    dense = rng.normal(0, 1, shape).astype(np.float32)  # negative, fractional, no zeros
    masks = np.ones((5, VARIANT.game.num_actions), dtype=np.int8)
    symmetric = SymmetricEvaluator(network, SYMMETRIES)
    folded = FoldedEvaluator(network, SYMMETRIES)
    assert_same_means(folded(dense, masks), symmetric(dense, masks))
    blank = np.zeros(shape, dtype=np.uint8)
    assert_same_means(folded(blank, masks), symmetric(blank, masks))


def test_the_identity_alone_is_the_network_and_a_repeated_value_is_summed():
    network = deep_network(5)
    _, batch = random_positions(6, seed=6)
    inputs, actions = batch.observations.shape[1], batch.masks.shape[1]
    identity = Symmetry(np.arange(inputs), np.arange(actions))
    alone = FoldedEvaluator(network, [identity])(batch.observations, batch.masks)
    assert_same_means(alone, network(batch.observations, batch.masks))
    # A gather need not be a permutation: value 0 read twice must meet both columns.
    doubled = Symmetry(np.concatenate([[0], np.arange(inputs - 1)]), np.arange(actions))
    assert_same_means(
        FoldedEvaluator(network, [identity, doubled])(batch.observations, batch.masks),
        SymmetricEvaluator(network, [identity, doubled])(batch.observations, batch.masks),
    )


def test_what_cannot_be_folded_is_refused_and_the_player_keeps_the_gathers_for_it():
    network = deep_network(7, hidden=())
    assert not can_fold(network)
    with pytest.raises(ValueError, match="at least one hidden layer"):
        FoldedEvaluator(network, SYMMETRIES)
    with pytest.raises(ValueError, match="at least one"):
        FoldedEvaluator(deep_network(7), [])
    from zoo_games.alphazero.player import NetworkPlayer

    assert isinstance(NetworkPlayer(network, 4, symmetries=True).evaluator, SymmetricEvaluator)


def test_the_agents_search_scores_its_leaves_folded_and_chooses_as_with_the_gathers():
    game = find_variant("santorini-fixed").game
    folded = agents.make("alphazero", simulations=48, waves=True).player_for(game)
    assert isinstance(folded.evaluator, FoldedEvaluator)
    gathered = agents.make("alphazero", simulations=48, waves=True).player_for(game)
    gathered.evaluator = SymmetricEvaluator(gathered.network, SYMMETRIES)
    states, _ = random_positions(12, seed=8)
    assert [folded.act(state) for state in states] == [gathered.act(state) for state in states]
    # the network alone, one position a move, keeps the numpy-only evaluator
    alone = agents.make("alphazero", simulations=0).player_for(game)
    assert isinstance(alone.evaluator, SymmetricEvaluator)
