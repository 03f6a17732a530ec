"""The learner: the policy-value network in torch, trained on replayed self-play positions.

:class:`PolicyValueModel` is the network of :mod:`zoo_games.alphazero.network` (its
convolutions, hidden layers and heads), layer for layer, so that :func:`to_numpy` and
:func:`from_numpy` carry its weights to and from the numpy network that self-play, the player
and the saved files use. :class:`Learner` takes gradient steps on batches of the replay
buffer; its loss is AlphaZero's:

* the cross-entropy between the search's improved policy and the network's policy over the
  legal actions (illegal logits are masked out before the softmax, so the network is never
  taught about actions it cannot play);
* the squared error between the value and its target for the player to move: the return
  self-play recorded (the game's outcome, or the λ-return of the searches that followed:
  :mod:`zoo_games.alphazero.returns`), or a blend of it with the search's value of the
  position (``search_value_weight``). The outcome is what the game said, but it says it about
  a whole game at once, and a move early in a long Togyz Kumalak game had little to do with
  it; the search's value is a guess, but one about this position;
* weight decay, AdamW's, which keeps the weights from fitting the last few games too closely.

Needs torch (the ``rllib`` extra).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import torch
from torch import nn

from zoo_games.alphazero.network import KERNEL, PolicyValueNetwork
from zoo_games.alphazero.replay import Positions

#: What an illegal action's logit becomes before the softmax: far below any real logit, yet
#: finite, so that ``0 * log_softmax`` stays 0 on illegal actions (``-inf`` would make NaN).
MASKED_LOGIT = -1e9


class PolicyValueModel(nn.Module):
    """The network of :mod:`zoo_games.alphazero.network` in torch.

    Convolutions and hidden layers with ReLU, then a policy head (logits) and a value head
    (``tanh``).
    """

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        hidden: list[int],
        num_actions: int,
        convolutions: list[int] | None = None,
    ) -> None:
        super().__init__()
        self.observation_shape = tuple(observation_shape)
        channels = [self.observation_shape[-1], *(convolutions or [])]
        self.convolutions = nn.ModuleList(
            nn.Conv2d(a, b, KERNEL, padding=KERNEL // 2) for a, b in pairwise(channels)
        )
        inputs = int(np.prod(self.observation_shape))
        if convolutions:
            inputs = inputs // channels[0] * channels[-1]
        sizes = [inputs, *hidden]
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], num_actions)
        self.value = nn.Linear(sizes[-1], 1)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits, values)`` of a batch of observations.

        Any shape after the first axis; rows x columns x channels when there are convolutions.
        """
        x = observations.float()
        if len(self.convolutions):
            x = x.permute(0, 3, 1, 2)  # torch convolves channels-first
            for convolution in self.convolutions:
                x = torch.relu(convolution(x))
            x = x.permute(0, 2, 3, 1)  # flattened rows, columns, channels, as numpy does
        x = x.reshape(len(x), -1)
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.policy(x), torch.tanh(self.value(x))[:, 0]


def to_numpy(
    model: PolicyValueModel,
    variant: str,
    observation_shape: tuple[int, ...],
    trained: dict[str, Any] | None = None,
) -> PolicyValueNetwork:
    """The numpy network with ``model``'s weights (copies), for ``variant``'s observations."""

    def arrays(layer: nn.Linear | nn.Conv2d) -> tuple[np.ndarray, np.ndarray]:
        assert layer.bias is not None  # every layer here has one
        return layer.weight.detach().numpy().copy(), layer.bias.detach().numpy().copy()

    return PolicyValueNetwork(
        variant=variant,
        observation_shape=tuple(observation_shape),
        num_actions=model.policy.out_features,
        hidden=[arrays(layer) for layer in model.hidden],  # type: ignore[arg-type]
        policy=arrays(model.policy),
        value=arrays(model.value),
        convolutions=[arrays(layer) for layer in model.convolutions],  # type: ignore[arg-type]
        trained=dict(trained or {}),
    )


def from_numpy(network: PolicyValueNetwork) -> PolicyValueModel:
    """A torch model holding ``network``'s weights (to train it further)."""
    model = PolicyValueModel(
        network.observation_shape,
        network.hidden_sizes,
        network.num_actions,
        network.convolution_channels,
    )
    layers = [*model.convolutions, *model.hidden, model.policy, model.value]
    pairs = [*network.convolutions, *network.hidden, network.policy, network.value]
    with torch.no_grad():
        for layer, (weight, bias) in zip(layers, pairs, strict=True):
            layer.weight.copy_(torch.from_numpy(np.asarray(weight, dtype=np.float32)))
            layer.bias.copy_(torch.from_numpy(np.asarray(bias, dtype=np.float32)))
    return model


class TorchEvaluator:
    """A model as the batched search's leaf evaluator, run by torch in inference mode.

    Self-play in the training process evaluates its leaves with this rather than the numpy
    copy. It was chosen when only torch kept to the process's one thread
    (:mod:`zoo_games.training.threads`, which now holds numpy's BLAS to one thread too): numpy's
    BLAS started threads of its own, which use a free core but wait for each other when it is
    busy, and self-play with numpy was more than ten times slower then, and at most 1.3 times
    faster with the core free (docs/training.md, "Speed of the parts").
    """

    def __init__(self, model: PolicyValueModel) -> None:
        self.model = model

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, values)`` of a batch, ``float32``; ``masks`` are not applied."""
        del masks
        with torch.inference_mode():
            logits, values = self.model(torch.from_numpy(np.ascontiguousarray(observations)))
        return logits.numpy(), values.numpy()


@dataclass(frozen=True)
class Losses:
    """The two parts of one step's loss (weight decay is applied by the optimizer)."""

    policy: float
    value: float


def losses(
    model: PolicyValueModel, batch: Positions, search_value_weight: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor]:
    """The policy cross-entropy (legal actions only) and value squared error of ``batch``.

    The value target is ``(1 - w) * return + w * search value``, ``w = search_value_weight``.
    """
    logits, values = model(torch.from_numpy(batch.observations))
    legal = torch.from_numpy(batch.masks).bool()
    log_policy = torch.log_softmax(logits.masked_fill(~legal, MASKED_LOGIT), dim=-1)
    targets = torch.from_numpy(batch.policies)
    policy_loss = -(targets * log_policy).sum(dim=-1).mean()
    weight = search_value_weight
    value_targets = (1 - weight) * batch.returns + weight * batch.search_values
    value_loss = ((values - torch.from_numpy(value_targets.astype(np.float32))) ** 2).mean()
    return policy_loss, value_loss


class Learner:
    """AdamW on :func:`losses` (their sum) for one :class:`PolicyValueModel`."""

    def __init__(
        self,
        model: PolicyValueModel,
        lr: float,
        weight_decay: float,
        search_value_weight: float = 0.0,
    ) -> None:
        self.model = model
        self.search_value_weight = search_value_weight
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)

    def set_lr(self, lr: float) -> None:
        """Take the next steps with learning rate ``lr``."""
        for group in self.optimizer.param_groups:
            group["lr"] = lr

    def step(self, batch: Positions) -> Losses:
        """One gradient step on ``batch``; the losses before it."""
        policy_loss, value_loss = losses(self.model, batch, self.search_value_weight)
        self.optimizer.zero_grad()
        (policy_loss + value_loss).backward()
        self.optimizer.step()
        return Losses(policy_loss.item(), value_loss.item())

    def state_dict(self) -> dict[str, Any]:
        """The model's and the optimizer's state, for a checkpoint."""
        return {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Continue from a checkpoint's :meth:`state_dict`."""
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
