"""A policy-value network as numpy arrays: its file format and its forward pass.

The network reads the variant's observation (the one the environment gives the player to
move, read as ``float32``). For a board of planes (an observation of shape rows x columns x
channels, Santorini's), it may first pass through convolutions: 3 x 3, zero-padded so the
board keeps its size, each followed by ReLU. A pattern that decides a game there (a worker on
level 2 beside a free level-3 cell) looks the same on every cell, and a convolution learns it
once where a dense layer must learn it cell by cell. Then, flattened, hidden layers with ReLU
(a multilayer perceptron), then two heads, the policy's logits over every action and the
value, ``tanh`` of one number, for the player to move. Illegal actions are masked out of
the logits by whoever reads them (the search, the agent), never by the network.

The learner trains it in torch and saves it here; everything that only plays (the
``alphazero`` agent, the shipped baselines, a search in a self-play worker) runs this numpy
forward pass, so playing needs neither torch nor a GPU. A saved network is two files in one
folder: ``network.npz`` (the arrays) and ``network.json`` (what they were made for: the
variant, the shapes, and how they were trained), checked on load against the variant it is
asked to play.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: Bumped when the meaning of the saved arrays changes; files of a format not in
#: :data:`READABLE` are refused by name. Format 2 added the convolutions; a format-1 file is
#: a network without them and reads as one.
FORMAT = 2
READABLE = (1, 2)
#: The side of a convolution's square kernel.
KERNEL = 3
ARRAYS = "network.npz"
DESCRIPTION = "network.json"


@dataclass
class PolicyValueNetwork:
    """The weights of one network, in torch's layouts.

    ``convolutions`` holds the ``(weight, bias)`` pairs of the convolutions, first to last, in
    ``Conv2d``'s layout (``weight`` is ``out x in x 3 x 3``), empty for none; ``hidden`` those
    of the hidden layers, and ``policy`` and ``value`` those of the two heads, in ``Linear``'s
    (``weight`` is ``out x in``); the last convolution's output is flattened rows, then
    columns, then channels, as the observation is. ``variant`` is the label of the variant
    whose observations it reads; ``trained`` says how it was trained (free-form, saved as is).
    """

    variant: str
    observation_shape: tuple[int, ...]
    num_actions: int
    hidden: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    convolutions: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    trained: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        inputs = int(np.prod(self.observation_shape))
        if self.convolutions:
            inputs = self._check_convolutions()
        for index, (weight, bias) in enumerate([*self.hidden, self.policy, self.value]):
            if weight.ndim != 2 or bias.shape != (weight.shape[0],):
                raise ValueError(f"layer {index}: weight {weight.shape} and bias {bias.shape}")
            if weight.shape[1] != inputs:
                raise ValueError(
                    f"layer {index} reads {weight.shape[1]} inputs, the layer before gives {inputs}"
                )
            if index < len(self.hidden):
                inputs = weight.shape[0]
        if self.policy[0].shape[0] != self.num_actions or self.value[0].shape[0] != 1:
            raise ValueError(
                f"the heads give {self.policy[0].shape[0]} logits and {self.value[0].shape[0]} "
                f"values; {self.num_actions} logits and 1 value are needed"
            )
        if self.hidden[:1] and self.policy[0].shape[1] != self.value[0].shape[1]:
            raise ValueError("the policy and value heads must read the same last hidden layer")

    def _check_convolutions(self) -> int:
        """The inputs the convolutions give the first hidden layer.

        ``ValueError`` unless they read a board of planes and each other's channels.
        """
        check_board_of_planes(self.observation_shape, "the")
        rows, columns, channels = self.observation_shape
        for index, (weight, bias) in enumerate(self.convolutions):
            if weight.shape[1:] != (channels, KERNEL, KERNEL) or bias.shape != weight.shape[:1]:
                raise ValueError(
                    f"convolution {index}: weight {weight.shape} and bias {bias.shape}, "
                    f"expected (out, {channels}, {KERNEL}, {KERNEL}) and (out,)"
                )
            channels = weight.shape[0]
        return rows * columns * channels

    @property
    def hidden_sizes(self) -> list[int]:
        """The width of each hidden layer."""
        return [weight.shape[0] for weight, _ in self.hidden]

    @property
    def convolution_channels(self) -> list[int]:
        """The channels each convolution gives (empty: none)."""
        return [weight.shape[0] for weight, _ in self.convolutions]

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, values)`` of a batch: ``(n, num_actions)`` and ``(n,)``, ``float32``.

        ``observations`` are ``(n, *observation_shape)``; ``masks`` are taken so that a network
        is a leaf evaluator of the batched search, and are not applied here.
        """
        del masks
        x = np.asarray(observations, dtype=np.float32)
        for weight, bias in self.convolutions:
            x = np.maximum(convolve(x, weight) + bias, 0.0)
        x = x.reshape(len(x), -1)
        for weight, bias in self.hidden:
            x = np.maximum(x @ weight.T + bias, 0.0)
        logits = x @ self.policy[0].T + self.policy[1]
        values = np.tanh(x @ self.value[0].T + self.value[1])[:, 0]
        return logits.astype(np.float32), values.astype(np.float32)

    # ------------------------------------------------------------------ files
    def save(self, folder: str | Path) -> Path:
        """Write ``network.npz`` and ``network.json`` into ``folder`` (made if missing)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for index, (weight, bias) in enumerate(self.convolutions):
            arrays[f"conv{index}_weight"], arrays[f"conv{index}_bias"] = weight, bias
        for index, (weight, bias) in enumerate(self.hidden):
            arrays[f"hidden{index}_weight"], arrays[f"hidden{index}_bias"] = weight, bias
        arrays["policy_weight"], arrays["policy_bias"] = self.policy
        arrays["value_weight"], arrays["value_bias"] = self.value
        as_float: dict[str, Any] = {name: a.astype(np.float32) for name, a in arrays.items()}
        np.savez(folder / ARRAYS, **as_float)
        description = {
            "format": FORMAT,
            "variant": self.variant,
            "observation_shape": list(self.observation_shape),
            "num_actions": self.num_actions,
            "convolutions": self.convolution_channels,
            "hidden": self.hidden_sizes,
            "trained": self.trained,
        }
        (folder / DESCRIPTION).write_text(json.dumps(description, indent=2) + "\n")
        return folder


def load(folder: str | Path) -> PolicyValueNetwork:
    """The network saved in ``folder``; ``ValueError`` saying what is missing or wrong."""
    folder = Path(folder)
    if not (folder / DESCRIPTION).is_file() or not (folder / ARRAYS).is_file():
        raise ValueError(
            f"{folder} holds no saved network (it needs {DESCRIPTION} and {ARRAYS}, as an "
            f"alphazero training run writes them)"
        )
    try:
        description = json.loads((folder / DESCRIPTION).read_text())
        if description.get("format") not in READABLE:
            raise ValueError(
                f"format {description.get('format')!r}, this version reads formats "
                f"{' and '.join(map(str, READABLE))}"
            )
        with np.load(folder / ARRAYS) as saved:
            arrays = {name: saved[name] for name in saved.files}
        layers = len(description["hidden"])
        convolutions = len(description.get("convolutions", []))
        return PolicyValueNetwork(
            variant=str(description["variant"]),
            observation_shape=tuple(int(n) for n in description["observation_shape"]),
            num_actions=int(description["num_actions"]),
            hidden=[
                (arrays[f"hidden{i}_weight"], arrays[f"hidden{i}_bias"]) for i in range(layers)
            ],
            policy=(arrays["policy_weight"], arrays["policy_bias"]),
            value=(arrays["value_weight"], arrays["value_bias"]),
            convolutions=[
                (arrays[f"conv{i}_weight"], arrays[f"conv{i}_bias"]) for i in range(convolutions)
            ],
            trained=dict(description.get("trained", {})),
        )
    except (AttributeError, KeyError, TypeError, ValueError, OSError, zipfile.BadZipFile) as error:
        # AttributeError: a description that is not a JSON object; BadZipFile: cut arrays.
        raise ValueError(f"{folder}: not a network this version can read ({error})") from None


def check_board_of_planes(observation_shape: tuple[int, ...], whose: str) -> None:
    """``ValueError`` unless ``observation_shape`` is rows x columns x channels.

    Convolutions read only such a board; ``whose`` names the observation in the message.
    """
    if len(observation_shape) != 3:
        raise ValueError(
            f"convolutions read a board of planes (rows, columns, channels); {whose} "
            f"observation has shape {observation_shape}"
        )


def convolve(boards: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``boards`` convolved with ``weight``, zero-padded to keep the board's size.

    ``boards`` are n x rows x columns x channels, ``weight`` is ``Conv2d``'s ``out x in x 3 x
    3``; the result is n x rows x columns x out. Each cell's 3 x 3 neighbourhood is read as
    one row of ``in x 3 x 3`` values, in the weight's order, so that the convolution is one
    matrix product.
    """
    pad = KERNEL // 2
    padded = np.pad(boards, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (KERNEL, KERNEL), axis=(1, 2))
    n, rows, columns = boards.shape[:3]
    neighbourhoods = windows.reshape(n * rows * columns, -1)  # in x 3 x 3 per cell
    flat_weight = weight.reshape(len(weight), -1).astype(np.float32)
    return (neighbourhoods @ flat_weight.T).reshape(n, rows, columns, len(weight))


def check_plays(
    network: PolicyValueNetwork, variant: str, observation_shape: tuple[int, ...], num_actions: int
) -> None:
    """``ValueError`` unless ``network`` reads ``variant``'s observations and actions."""
    if network.variant != variant:
        raise ValueError(
            f"this network was trained on {network.variant!r}, it cannot play {variant!r}"
        )
    if network.observation_shape != tuple(observation_shape) or network.num_actions != num_actions:
        raise ValueError(
            f"this network reads observations {network.observation_shape} and "
            f"{network.num_actions} actions; {variant!r} has {tuple(observation_shape)} and "
            f"{num_actions}"
        )
