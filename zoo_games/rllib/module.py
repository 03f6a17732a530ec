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

#: The logit given to illegal actions: its softmax weight underflows to exactly zero.
ILLEGAL_LOGIT = torch.finfo(torch.float32).min


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Masked policy and value heads over a shared MLP trunk."""

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
        config = self.model_config if isinstance(self.model_config, dict) else {}
        hidden = list(config.get("hidden", [256, 256]))
        layers: list[nn.Module] = []
        width = 2 * int(scale.size)
        for size in hidden:
            layers += [nn.Linear(width, size), nn.Tanh()]
            width = size
        self._trunk = nn.Sequential(*layers)
        assert isinstance(self.action_space, gym.spaces.Discrete)
        self._policy_head = nn.Linear(width, int(self.action_space.n))
        self._value_head = nn.Linear(width, 1)

    def _features(self, batch: dict[str, Any]) -> torch.Tensor:
        observation = batch[Columns.OBS]["observation"]
        flat = observation.reshape(observation.shape[0], -1).to(torch.float32)
        scaled = torch.cat(
            [flat / self._scale, torch.log1p(flat.clamp(min=0)) / self._log_scale], dim=1
        )
        return self._trunk(scaled)

    def _masked_logits(self, batch: dict[str, Any], features: torch.Tensor) -> torch.Tensor:
        logits = self._policy_head(features)
        legal = batch[Columns.OBS]["action_mask"].to(torch.bool)
        return logits.masked_fill(~legal, ILLEGAL_LOGIT)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        features = self._features(batch)
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch, features)}

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
