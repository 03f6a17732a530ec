"""The masked module computes the function its layers define, folded or not.

Every pass of ``MaskedActorCritic`` folds the input scaling and the duplicated 0/1 inputs into
the first layer's weight, and ``sampling_logits`` runs in numpy as well; these tests hold the
training pass (logits, values, gradients) and the sampling pass to the plain, unfolded layers
computed here from the module's docstring, on every kind of observation the suite has (0/1
planes, counts, signed values, floats), and after the weights change the ways training changes
them.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")

import gymnasium as gym
import torch
from ray.rllib.core.columns import Columns

from zoo_games.batched import make
from zoo_games.catalog import find_variant
from zoo_games.rllib.module import ILLEGAL_LOGIT, MaskedActorCritic

#: Senet's moves (int8, signed advances), Togyz Kumalak's counts (int8), its Tesauro units
#: (float32), Santorini's planes (uint8).
LABELS = ("senet-kendall-5", "togyz-kumalak", "togyz-kumalak-tesauro", "santorini-fixed")


def module_for(label: str, hidden: list[int]) -> MaskedActorCritic:
    env = find_variant(label).raw_env()
    return MaskedActorCritic(
        observation_space=env.observation_space("player_0"),
        action_space=env.action_space("player_0"),
        model_config={"hidden": hidden},
    )


def positions(label: str, games: int = 32, steps: int = 25) -> dict[str, torch.Tensor]:
    """Observations and masks of ``games`` games some random moves in."""
    engine = make(label, batch_size=games, seed=1)
    for _ in range(steps):
        engine.step(engine.sample_legal_actions())
    return {
        "observation": torch.from_numpy(engine.observation.copy()),
        "action_mask": torch.from_numpy(engine.action_mask.copy()),
    }


def unfolded(
    module: MaskedActorCritic, observation: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Masked logits and values as the unfolded layers define them: each value fed twice."""
    flat = observation["observation"].reshape(len(observation["observation"]), -1).float()
    space = module.observation_space["observation"]
    bound = np.maximum(space.high, -space.low).reshape(-1).astype(np.float32)
    scale = torch.from_numpy(np.where(np.isfinite(bound) & (bound > 0), bound, 1.0))
    inputs = torch.cat([flat / scale, torch.log1p(flat.clamp(min=0)) / torch.log1p(scale)], 1)
    features = module._trunk(inputs.float())
    logits = module._policy_head(features)
    logits = logits.masked_fill(~observation["action_mask"].bool(), ILLEGAL_LOGIT)
    return logits, module._value_head(features).squeeze(-1)


def plain_logits(module: MaskedActorCritic, observation: dict[str, torch.Tensor]) -> torch.Tensor:
    with torch.no_grad():
        return unfolded(module, observation)[0]


def sampled_logits(module: MaskedActorCritic, observation: dict[str, torch.Tensor]) -> torch.Tensor:
    arrays = {name: value.numpy() for name, value in observation.items()}
    return torch.from_numpy(module.sampling_logits(arrays["observation"], arrays["action_mask"]))


def assert_same_logits(module: MaskedActorCritic, observation: dict[str, torch.Tensor]) -> None:
    expected = plain_logits(module, observation)
    sampled = sampled_logits(module, observation)
    assert sampled.dtype == torch.float32
    legal = observation["action_mask"].bool()
    assert bool((sampled[~legal] == ILLEGAL_LOGIT).all())
    torch.testing.assert_close(sampled[legal], expected[legal], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("hidden", [[16, 8], [24]], ids=["two layers", "one"])
@pytest.mark.parametrize("label", LABELS)
def test_the_sampling_pass_gives_the_unfolded_logits(label, hidden):
    torch.manual_seed(0)
    module = module_for(label, hidden)
    observation = positions(label)
    assert_same_logits(module, observation)
    exploration = module.forward_exploration({Columns.OBS: observation})
    assert torch.equal(exploration[Columns.ACTION_DIST_INPUTS], sampled_logits(module, observation))
    # The runner's pass gives the same logits, and the values of the unfolded layers.
    logits, values = module.sampling_logits_and_values(
        observation["observation"].numpy(), observation["action_mask"].numpy()
    )
    np.testing.assert_array_equal(logits, sampled_logits(module, observation).numpy())
    with torch.no_grad():
        expected = unfolded(module, observation)[1].numpy()
    assert values.dtype == np.float32
    np.testing.assert_allclose(values, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("label", LABELS)
def test_the_training_pass_gives_the_unfolded_logits_values_and_gradients(label):
    torch.manual_seed(2)
    module = module_for(label, [16, 8])
    observation = positions(label)
    legal = observation["action_mask"].bool()
    batch = {Columns.OBS: observation}
    trained = module.forward_train(batch)
    logits, values = trained[Columns.ACTION_DIST_INPUTS], module.compute_values(batch)
    expected_logits, expected_values = unfolded(module, observation)
    torch.testing.assert_close(logits[legal], expected_logits[legal], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(values, expected_values, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(
        module.compute_values(batch, trained[Columns.EMBEDDINGS]), values, rtol=0, atol=0
    )

    def gradients(logits: torch.Tensor, values: torch.Tensor) -> dict[str, torch.Tensor]:
        # A loss of both heads: a softmax cross-entropy on the legal actions and a squared value.
        module.zero_grad()
        target = torch.softmax(expected_logits.detach(), dim=1)
        cross_entropy = -(target * torch.log_softmax(logits, dim=1)).nan_to_num().sum()
        loss = cross_entropy + values.square().sum()
        loss.backward()
        return {name: p.grad.clone() for name, p in module.named_parameters()}

    folded = gradients(logits, values)
    plain = gradients(*unfolded(module, observation))
    assert sorted(folded) == sorted(plain) and len(folded) == 8  # two layers, two heads
    for name, gradient in plain.items():
        torch.testing.assert_close(folded[name], gradient, rtol=1e-4, atol=1e-5, msg=name)


def test_a_module_without_hidden_layers_is_refused():
    with pytest.raises(ValueError, match="one or more hidden layers"):
        module_for("senet-kendall-5", [])


def test_only_values_beyond_zero_and_one_or_signed_or_fractional_read_the_log_scale():
    space = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(
                low=np.array([0, 0, -3, 0]), high=np.array([1, 5, 3, 0]), dtype=np.int8
            ),
            "action_mask": gym.spaces.Box(0, 1, shape=(3,), dtype=np.int8),
        }
    )
    module = MaskedActorCritic(
        observation_space=space, action_space=gym.spaces.Discrete(3), model_config={"hidden": [4]}
    )
    # A 0/1 value and the constant one fold into a single input; the count and the signed value
    # keep their log-scaled inputs.
    assert module._logged_columns.tolist() == [1, 2]
    floats = gym.spaces.Dict(
        {
            "observation": gym.spaces.Box(0.0, 1.0, shape=(3,), dtype=np.float32),
            "action_mask": gym.spaces.Box(0, 1, shape=(3,), dtype=np.int8),
        }
    )
    module = MaskedActorCritic(
        observation_space=floats, action_space=gym.spaces.Discrete(3), model_config={"hidden": [4]}
    )
    # Fractional values: 0.5 gives different inputs on the two scales.
    assert module._logged_columns.tolist() == [0, 1, 2]


def test_the_folded_layers_follow_sgd_steps_and_loaded_weights():
    label = "senet-kendall-5"
    torch.manual_seed(1)
    module = module_for(label, [16, 16])
    observation = positions(label)
    assert_same_logits(module, observation)  # folds the first weights
    optimizer = torch.optim.SGD(module.parameters(), lr=0.5)
    loss = module.forward_train({Columns.OBS: observation})[Columns.EMBEDDINGS].square().sum()
    loss.backward()
    optimizer.step()
    assert_same_logits(module, observation)
    other = module_for(label, [16, 16])  # fresh weights, loaded as weight synchronisation does
    module.load_state_dict(other.state_dict())
    assert_same_logits(module, observation)
    torch.testing.assert_close(
        sampled_logits(module, observation), sampled_logits(other, observation)
    )


def test_the_state_dict_has_the_layers_alone():
    # Checkpoints written before the sampling pass existed load into today's module.
    module = module_for("santorini-fixed", [8])
    assert sorted(module.state_dict()) == [
        "_log_scale",
        "_policy_head.bias",
        "_policy_head.weight",
        "_scale",
        "_trunk.0.bias",
        "_trunk.0.weight",
        "_value_head.bias",
        "_value_head.weight",
    ]
