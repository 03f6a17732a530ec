"""An action-masking actor-critic RLModule (torch) for RLlib's new API stack.

It reads our observations exactly as the environments give them,
``{"observation": <any shape, any dtype>, "action_mask": int8}``: RLlib's default encoders
accept neither dict observations, nor 2-D boxes, nor int8 values, so this module flattens the
observation itself and feeds each value twice, scaled into [-1, 1] by the observation space's
(true) bound ``b = max(high, -low)``, ``x / b``, and on a log scale ``log(1 + x) / log(1 + b)``
(0 for negative values). The log scale matters for counts whose true bound is far above their
usual values (a Togyz Kumalak hole usually holds about 10 balls but may hold 162). Illegal
actions get the lowest float as their logit. The probability of an illegal action is then
exactly zero, in exploration, inference and training alike.

Policy and value function share one MLP trunk (``model_config={"hidden": [256, 256]}``), as is
usual for small board games; the value head reads the trunk's output (the "embeddings" that
PPO passes back to :meth:`compute_values`).

Most of our values are 0/1 (235 of Senet's 247, 275 of Santorini's 375), and for those both
scalings give the same input (``x / 1 == log(1 + x) / log 2``). Every pass therefore multiplies
half as wide inputs: the first layer's weight is folded (``_folded_first_weight``), the two
columns of each 0/1 value added into one and the scales moved from the inputs into the
weights (Senet's first layer reads 259 inputs instead of 494). The fold is a function of the
parameter, not a second parameter: the module computes the same function as unfolded, its
gradients reach the same weights, and its state dict is the unfolded layers', so checkpoints
written before the fold load and play as they did (up to float rounding). With
``zoo-games train``'s trunk of two layers of 128, a Senet position costs 35% fewer
multiply-adds in training, in the SGD steps and in PPO's value pass over every batch (for its
advantages).

Sampling (:meth:`MaskedActorCritic.sampling_logits`, which the exploration pass runs and the
batched runner calls every step) computes the same function with less work still:

* it runs in numpy on the folded weights, made once per weight update: over 64 rows, torch's
  cost per operation (a few microseconds, against about one for numpy) and its tanh (22 µs
  over 64 rows of 128 on our 2-core machine, numpy's 4 µs) cost more than the matrix
  products, which are the same BLAS work either way, on one thread
  (:mod:`zoo_games.training.threads`);
* RLlib's public ``forward_exploration`` switches the module to eval mode and back on every
  call, a walk over its layers that cost 50 of about 250 µs per call; the module has no layer
  that behaves differently in training, so the batched runner calls ``sampling_logits``.

The sampled logits differ from the training pass's by float rounding (below 1e-5), which PPO's
probability ratios do not notice.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn
from torch.nn import functional as F

#: The logit given to illegal actions: its softmax weight underflows to exactly zero.
ILLEGAL_LOGIT = torch.finfo(torch.float32).min


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Masked policy and value heads over a shared MLP trunk."""

    # Buffers (setup): the values' bounds and logged bounds, which values are 0/1, which logged.
    _scale: torch.Tensor
    _log_scale: torch.Tensor
    _binary: torch.Tensor
    _logged_index: torch.Tensor
    _trunk: nn.Sequential

    def setup(self) -> None:
        """Build the trunk and heads for the observation and action spaces."""
        space = self.observation_space
        if not isinstance(space, gym.spaces.Dict) or "action_mask" not in space.spaces:
            raise ValueError(
                "MaskedActorCritic needs {'observation', 'action_mask'} dict observations, "
                f"got {space}"
            )
        observation_space = space["observation"]
        assert isinstance(observation_space, gym.spaces.Box)
        high = np.asarray(observation_space.high, dtype=np.float32).reshape(-1)
        low = np.asarray(observation_space.low, dtype=np.float32).reshape(-1)
        # Signed values (Senet's "moves" advance) are scaled by their larger magnitude.
        bound = np.maximum(high, -low)
        scale = np.where(np.isfinite(bound) & (bound > 0), bound, 1.0)
        self.register_buffer("_scale", torch.as_tensor(scale, dtype=torch.float32))
        self.register_buffer("_log_scale", torch.log1p(torch.as_tensor(scale)))
        # Integer values in [0, 1] give the same input on both scales; the others are logged.
        integral = np.issubdtype(observation_space.dtype, np.integer)
        binary = integral & (low >= 0) & (high <= 1)
        self._logged_columns = np.flatnonzero(~binary)
        # Buffers, but not in the state dict: checkpoints hold the layers and scales alone.
        self.register_buffer(
            "_binary", torch.as_tensor(binary, dtype=torch.float32), persistent=False
        )
        self.register_buffer(
            "_logged_index", torch.as_tensor(self._logged_columns), persistent=False
        )
        config = self.model_config if isinstance(self.model_config, dict) else {}
        hidden = list(config.get("hidden", [256, 256]))
        if not hidden:
            raise ValueError(
                "MaskedActorCritic needs one or more hidden layers (model_config "
                f"{{'hidden': [256, 256]}}, say), got {config.get('hidden')!r}"
            )
        layers: list[nn.Module] = []
        width = 2 * int(scale.size)
        for size in hidden:
            layers += [nn.Linear(width, size), nn.Tanh()]
            width = size
        self._trunk = nn.Sequential(*layers)
        assert isinstance(self.action_space, gym.spaces.Discrete)
        self._policy_head = nn.Linear(width, int(self.action_space.n))
        self._value_head = nn.Linear(width, 1)
        #: The layers folded for sampling, and the weights' versions they were folded from.
        self._folded: list[tuple[np.ndarray, np.ndarray]] | None = None
        self._folded_from: tuple[tuple[int, int, int], ...] = ()

    def _features(self, batch: dict[str, Any]) -> torch.Tensor:
        observation = batch[Columns.OBS]["observation"]
        flat = observation.reshape(observation.shape[0], -1).to(torch.float32)
        logged = torch.log1p(flat[:, self._logged_index].clamp(min=0))
        first, *rest = self._trunk
        assert isinstance(first, nn.Linear)
        inputs = F.linear(torch.cat([flat, logged], dim=1), self._folded_first_weight(), first.bias)
        for layer in rest:
            inputs = layer(inputs)
        return inputs

    def _folded_first_weight(self) -> torch.Tensor:
        """The first layer's weight over ``[x, log(1 + x[logged])]``, from its two halves.

        The layer's parameter reads ``[x / b, log(1 + x) / log(1 + b)]`` (the module's
        docstring); its folded form has a column per value, with the scales moved in and, for a
        0/1 value, its log-scale column added (``log(1 + x) / log 2 == x``), and a column per
        logged value. The fold is differentiable: the training pass multiplies the half as
        wide inputs and its gradients reach the parameter as they would unfolded.
        """
        first = self._trunk[0]
        assert isinstance(first, nn.Linear)
        weight = first.weight
        size = self._scale.numel()
        direct, log_scaled = weight[:, :size], weight[:, size:]
        logged = self._logged_index
        return torch.cat(
            [
                direct / self._scale + log_scaled * self._binary,
                log_scaled[:, logged] / self._log_scale[logged],
            ],
            dim=1,
        )

    def sampling_logits(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The masked logits of a batch, as the training pass gives them, in numpy.

        ``observation`` is ``(B, *shape)`` in the observation space's dtype, ``action_mask``
        ``(B, actions)``; the result is ``(B, actions)`` float32, :data:`ILLEGAL_LOGIT` for
        the illegal actions.
        """
        layers = self._sampling_layers()
        return self._sampling_policy(
            self._sampling_features(observation, layers), action_mask, layers
        )

    def sampling_logits_and_values(
        self, observation: np.ndarray, action_mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`sampling_logits`, and the values (``(B,)`` float32) from the same trunk.

        The value head costs one product of the trunk's output with a column, so the batched
        runner keeps each position's value as it samples, and PPO's learner needs no value
        pass of its own over the batch (:mod:`zoo_games.rllib.ppo_batch`).
        """
        layers = self._sampling_layers()
        features = self._sampling_features(observation, layers)
        weight, bias = layers[-1]
        values = (features @ weight)[:, 0] + bias[0]
        return self._sampling_policy(features, action_mask, layers), values

    def _sampling_features(
        self, observation: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]]
    ) -> np.ndarray:
        """The trunk's output for a batch, in numpy on the folded ``layers``."""
        inputs = observation.reshape(observation.shape[0], -1).astype(np.float32)
        logged = self._logged_columns
        if logged.size:
            inputs = np.concatenate([inputs, np.log1p(np.maximum(inputs[:, logged], 0))], 1)
        *hidden, _, _ = layers
        for hidden_weight, hidden_bias in hidden:
            inputs = inputs @ hidden_weight
            inputs += hidden_bias
            np.tanh(inputs, out=inputs)
        return inputs

    def _sampling_policy(
        self,
        features: np.ndarray,
        action_mask: np.ndarray,
        layers: list[tuple[np.ndarray, np.ndarray]],
    ) -> np.ndarray:
        *_, (weight, bias), _ = layers
        logits = features @ weight
        logits += bias
        np.copyto(logits, np.float32(ILLEGAL_LOGIT), where=action_mask == 0)
        return logits

    def _sampling_layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(weight.T, bias)`` of the trunk's layers (the first folded) and the two heads.

        Made again whenever the weights change: an SGD step and RLlib's weight
        synchronisation both write them in place, which moves their version counters.
        """
        layers = [layer for layer in self._trunk if isinstance(layer, nn.Linear)]
        layers += [self._policy_head, self._value_head]
        version = tuple(
            (layer.weight._version, layer.weight.data_ptr(), layer.bias._version)
            for layer in layers
        )
        if self._folded is None or version != self._folded_from:
            with torch.no_grad():
                weights = [self._folded_first_weight()] + [layer.weight for layer in layers[1:]]
                self._folded = [
                    (weight.numpy().T.copy(), layer.bias.numpy().copy())
                    for weight, layer in zip(weights, layers, strict=True)
                ]
            self._folded_from = version
        return self._folded

    def _masked_logits(self, batch: dict[str, Any], features: torch.Tensor) -> torch.Tensor:
        logits = self._policy_head(features)
        legal = batch[Columns.OBS]["action_mask"].to(torch.bool)
        return logits.masked_fill(~legal, ILLEGAL_LOGIT)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        features = self._features(batch)
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch, features)}

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        observation = batch[Columns.OBS]
        logits = self.sampling_logits(
            np.asarray(observation["observation"]), np.asarray(observation["action_mask"])
        )
        return {Columns.ACTION_DIST_INPUTS: torch.from_numpy(logits)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        features = self._features(batch)
        return {
            Columns.ACTION_DIST_INPUTS: self._masked_logits(batch, features),
            Columns.EMBEDDINGS: features,
        }

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """State values for PPO's advantage estimates."""
        if embeddings is None:
            embeddings = self._features(batch)
        return self._value_head(embeddings).squeeze(-1)
