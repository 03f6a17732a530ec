"""The torch learner: the same network as the numpy one, and a loss that its steps lower."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import torch

from zoo_games.alphazero import network as saved_network
from zoo_games.alphazero.learner import (
    Learner,
    PolicyValueModel,
    TorchEvaluator,
    from_numpy,
    losses,
    to_numpy,
)
from zoo_games.alphazero.replay import Positions


def model(seed: int = 0) -> PolicyValueModel:
    torch.manual_seed(seed)
    return PolicyValueModel((3, 4), [16, 8], 5)


def observations(count: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 6, size=(count, 3, 4)).astype(np.uint8)


@pytest.mark.parametrize(
    ("shape", "hidden", "convolutions"),
    [((3, 4), [16, 8], []), ((5, 5, 6), [16], [4, 3])],
    ids=["hidden layers", "convolutions then hidden layers"],
)
def test_torch_numpy_and_the_evaluator_give_the_same_logits_and_values(
    tmp_path: Path, shape: tuple[int, ...], hidden: list[int], convolutions: list[int]
) -> None:
    torch.manual_seed(3)
    trained = PolicyValueModel(shape, hidden, 5, convolutions)
    numpy_network = to_numpy(trained, "toy", shape, {"seconds": 1.0})
    assert numpy_network.hidden_sizes == hidden and numpy_network.num_actions == 5
    assert numpy_network.convolution_channels == convolutions
    batch = np.random.default_rng(4).integers(0, 6, size=(32, *shape)).astype(np.uint8)
    with torch.no_grad():
        logits, values = trained(torch.from_numpy(batch))
    masks = np.ones((32, 5), np.int8)
    numpy_network.save(tmp_path)  # and through its files
    for network in (numpy_network, saved_network.load(tmp_path)):
        got_logits, got_values = network(batch, masks)
        np.testing.assert_allclose(got_logits, logits.numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got_values, values.numpy(), rtol=1e-5, atol=1e-5)
    back = from_numpy(numpy_network)
    for name, tensor in trained.state_dict().items():
        torch.testing.assert_close(back.state_dict()[name], tensor)
    # Self-play's evaluator: the same numbers, as float32 numpy arrays.
    got_logits, got_values = TorchEvaluator(trained)(batch, masks)
    assert got_logits.dtype == np.float32 and got_values.shape == (32,)
    np.testing.assert_allclose(got_logits, logits.numpy(), rtol=1e-6)
    np.testing.assert_allclose(got_values, values.numpy(), rtol=1e-6)


def fixed_batch() -> Positions:
    """Eight positions, each with a one-hot target among its legal actions and an outcome."""
    rng = np.random.default_rng(2)
    masks = (rng.random((8, 5)) < 0.6).astype(np.int8)
    masks[:, 0] = 1
    policies = np.zeros((8, 5), np.float32)
    for row, mask in enumerate(masks):
        policies[row, rng.choice(np.flatnonzero(mask))] = 1.0
    returns = rng.choice([-1.0, 1.0], size=8).astype(np.float32)
    search_values = rng.uniform(-1, 1, size=8).astype(np.float32)
    return Positions(observations(8), masks, policies, returns, search_values)


def test_learning_lowers_both_losses_on_a_fixed_batch() -> None:
    batch = fixed_batch()
    learner = Learner(model(), lr=1e-2, weight_decay=1e-4)
    first = learner.step(batch)
    for _ in range(200):
        last = learner.step(batch)
    assert last.policy < first.policy / 4 and last.value < first.value / 4


def test_illegal_actions_take_no_part_in_the_policy_loss() -> None:
    batch = fixed_batch()
    trained = model()
    before, _ = losses(trained, batch)
    with torch.no_grad():  # raise every illegal action's logit: the loss must not move
        trained.policy.bias.add_(torch.tensor([0.0, 5.0, 5.0, 5.0, 5.0]))
        masked_only = Positions(
            batch.observations,
            np.tile([1, 0, 0, 0, 0], (8, 1)).astype(np.int8),
            np.tile([1.0, 0, 0, 0, 0], (8, 1)).astype(np.float32),
            batch.returns,
            batch.search_values,
        )
    after, _ = losses(trained, masked_only)
    assert torch.isfinite(before) and after.item() == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("weight", [0.0, 0.25, 1.0])
def test_the_value_target_blends_the_return_and_the_search_value(weight: float) -> None:
    batch = fixed_batch()
    trained = model()
    _, value_loss = losses(trained, batch, search_value_weight=weight)
    with torch.no_grad():
        _, values = trained(torch.from_numpy(batch.observations))
    target = (1 - weight) * batch.returns + weight * batch.search_values
    assert value_loss.item() == pytest.approx(float(((values.numpy() - target) ** 2).mean()))
