"""The search's leaf evaluator for a board with symmetries: the turns folded into the network.

:class:`~zoo_games.alphazero.symmetric.SymmetricEvaluator` scores a leaf by turning its
observation into each of the board's guises and sending all of them through the network: for
Santorini's eight, eight copies of the observation gathered and eight products with the first
layer, then every guise's logits gathered back. About half of each call's time went to those
gathers, and most of the rest to the first layer. Both layers at the ends are linear, so the
turns can move into the weights instead, once, when the evaluator is made:

- The first layer of a guise reads the observation's values in another order, which is the
  first layer with its columns in the inverse order reading the observation itself. The eight
  reordered copies side by side make one layer that gives every guise's first hidden layer
  from the untouched observation.
- That observation is mostly zeros (about 114 of the 806 values of Santorini's ``workers``
  encoding), so the product is taken over its nonzero values only, compiled (numba): each adds
  one row of the folded weights to its leaf's hidden values. This is what makes the fold pay:
  as a dense product it reads eight times the weights, and was slower than the gathers.
- The mean over the guises of the policy head's logits, each turned back to the leaf's own
  actions, is one linear map of the guises' last hidden layers laid side by side: the head's
  rows reordered per guise and divided by their number.

The hidden layers between, and the value's ``tanh`` before its mean, stay as they were, in one
product for all the guises of all the leaves. What comes out equals the symmetric evaluator's
up to the rounding of ``float32`` sums taken in another order (a few millionths), and it takes
about half the time. A network with convolutions, or with no hidden layer, is not folded
(:func:`can_fold`); the player keeps the gathers for it. Only the search uses this evaluator
(it needs numba, as the search does); the network alone, one position per move, keeps the
numpy-only :class:`~zoo_games.alphazero.symmetric.SymmetricEvaluator`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from zoo_games.alphazero.network import PolicyValueNetwork
from zoo_games.core.symmetry import Symmetry


def can_fold(network: PolicyValueNetwork) -> bool:
    """Whether :class:`FoldedEvaluator` can read ``network``: dense layers, at least one hidden."""
    return not network.convolutions and bool(network.hidden)


class FoldedEvaluator:
    """``network`` averaged over ``symmetries``, with the turns folded into its weights.

    Gives what ``SymmetricEvaluator(network, symmetries)`` gives, up to ``float32`` rounding
    (module docstring). ``ValueError`` for a network :func:`can_fold` refuses or for no
    symmetries.
    """

    def __init__(self, network: PolicyValueNetwork, symmetries: Sequence[Symmetry]) -> None:
        if not symmetries:
            raise ValueError("averaging over symmetries needs at least one (the identity)")
        if not can_fold(network):
            raise ValueError(
                "only a network of dense layers with at least one hidden layer can be folded; "
                f"this one has convolutions {network.convolution_channels} and hidden layers "
                f"{network.hidden_sizes}"
            )
        self.guises = len(symmetries)
        first_weight, first_bias = network.hidden[0]
        width, inputs = first_weight.shape
        # Guise g's observation is ``observation[g.observation]``: its input i is the
        # observation's value g.observation[i], so that value meets the first layer's column i.
        # ``added`` (not assigned) so that a gather naming a value twice stays exact.
        self._first_rows = np.zeros((inputs, self.guises * width), dtype=np.float32)
        for guise, symmetry in enumerate(symmetries):
            columns = self._first_rows[:, guise * width : (guise + 1) * width]
            np.add.at(columns, symmetry.observation, first_weight.T.astype(np.float32))
        self._first_bias = np.tile(first_bias.astype(np.float32), self.guises)
        self._hidden = [
            (weight.T.astype(np.float32), bias.astype(np.float32))
            for weight, bias in network.hidden[1:]
        ]
        # The leaf's logit of action a is guise g's logit of the action a turns into, whose
        # head row is ``policy_weight[argsort(g.actions)[a]]``.
        policy_weight, policy_bias = network.policy
        back = [np.argsort(symmetry.actions) for symmetry in symmetries]
        self._policy_rows = (
            np.concatenate([policy_weight[rows].T for rows in back]).astype(np.float32)
            / self.guises
        )
        self._policy_bias = np.mean([policy_bias[rows] for rows in back], axis=0).astype(np.float32)
        value_weight, value_bias = network.value
        self._value = (value_weight.T.astype(np.float32), value_bias.astype(np.float32))

    def __call__(
        self, observations: np.ndarray, masks: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits, values)`` of a batch: the means over the symmetries, ``float32``.

        ``masks`` are not read (the search masks the logits), as for the network itself.
        """
        del masks
        count = len(observations)
        hidden = np.empty((count, self._first_rows.shape[1]), dtype=np.float32)
        first_layer_of_sparse_rows(
            np.ascontiguousarray(observations.reshape(count, -1)),
            self._first_rows,
            self._first_bias,
            hidden,
        )
        # One row per guise of each leaf: row ``leaf * guises + guise``.
        hidden = hidden.reshape(count * self.guises, -1)
        for weight, bias in self._hidden:
            hidden = np.maximum(hidden @ weight + bias, np.float32(0.0))
        logits = hidden.reshape(count, -1) @ self._policy_rows + self._policy_bias
        value_weight, value_bias = self._value
        values = np.tanh(hidden @ value_weight + value_bias).reshape(count, self.guises)
        return logits.astype(np.float32), values.mean(axis=1, dtype=np.float32)


@njit(cache=True)
def first_layer_of_sparse_rows(
    observations: np.ndarray, weight_rows: np.ndarray, bias: np.ndarray, out: np.ndarray
) -> None:
    """``out = relu(observations @ weight_rows + bias)``, reading only nonzero observations.

    ``observations`` ``(n, inputs)`` of any number type, ``weight_rows`` ``(inputs, width)``,
    ``bias`` ``(width,)`` and ``out`` ``(n, width)`` ``float32``.
    """
    width = weight_rows.shape[1]
    for row in range(observations.shape[0]):
        out[row, :] = bias
        for index in range(observations.shape[1]):
            value = observations[row, index]
            if value != 0:
                scale = np.float32(value)
                for unit in range(width):
                    out[row, unit] += scale * weight_rows[index, unit]
        for unit in range(width):
            if out[row, unit] < 0:
                out[row, unit] = 0
