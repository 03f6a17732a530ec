"""PPO's train batch built from whole episode chunks: values, and GAE over arrays.

RLlib's default learner pipeline for PPO works item by item: it appends an artificial step
to every chunk (``AddOneTsToEpisodesAndTruncate``), adds each chunk's observations, actions
and model outputs to the batch one column and one chunk at a time, maps agents to modules,
stacks, and then runs GAE (``GeneralAdvantageEstimation``) chunk by chunk. With the batched
engine a training batch of 8,000 steps arrives as a few hundred chunks, and that pipeline took
about as long as all of sampling (docs/training.md, "PPO's train batch, built whole").

:class:`PPOBatch` replaces the whole pipeline (RLlib's extension point:
``config.learners(learner_connector=..., add_default_connectors_to_learner_pipeline=False)``)
and computes the same targets, chunk arrays at a time. It reads RLlib's episodes (the
environment path's, or a batched runner's ``sample()``) and the batched runner's
:class:`~zoo_games.rllib.chunks.ChunkBatch` alike, each module's chunks laid end to end as
:class:`~zoo_games.rllib.chunks.ModuleChunks`:

* every chunk's observations, its final one included (``len + 1`` of them), have a value:
  the one the batched runner kept as it sampled (its sampling pass computes the trunk for the
  policy, and the value head costs one column more), or else one value pass per module over
  them here; the value of the final observation is the bootstrap of a chunk cut by the
  rollout, and 0 for a chunk that ends its game. A runner's values come from the weights it
  sampled with, as in PPO's original implementations, which take the values of the rollout;
  an overlapped runner's are one update old, as its policy is;
* GAE's backward recursion runs on a ``(chunks, longest chunk)`` array, one column per step,
  all chunks at once;
* value targets are the advantages plus the values, as RLlib's; advantages are standardized
  over the batch's steps. RLlib standardizes over its artificial steps too, whose advantages
  are masked out of the loss; here there are none, so the batch needs no loss mask.

The batch keeps every step, forced ones included: a step whose mask allowed one action (a
Senet throw that moves one piece, or none, with its one "pass"; about a quarter of Kendall's
decisions in random play) has no policy, entropy or KL gradient, but its value-loss term
trains the value that GAE reads at that position, in the trunk the policy shares. Batches
that left such steps out trained Kendall players clearly weaker against greedy in the same 20
minutes, though they made a quarter more iterations (docs/training.md, "Forced moves stay in
the batch").

The batch holds what PPO's loss reads: observations, actions, their log-probabilities and
distribution inputs at sampling time, advantages and value targets.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
import torch
import tree
from ray.rllib.connectors.connector_v2 import ConnectorV2
from ray.rllib.core.columns import Columns
from ray.rllib.env.single_agent_episode import SingleAgentEpisode
from ray.rllib.evaluation.postprocessing import Postprocessing

from zoo_games.rllib.chunks import MODEL_OUTPUTS, ChunkBatch, ModuleChunks


def advantages(
    values: np.ndarray,
    rewards: np.ndarray,
    bootstraps: np.ndarray,
    lengths: np.ndarray,
    gamma: float,
    lambda_: float,
) -> np.ndarray:
    """GAE advantages of chunks laid end to end.

    ``values`` and ``rewards`` hold one entry per step, the chunks' steps one after another;
    ``lengths[i]`` is chunk ``i``'s number of steps and ``bootstraps[i]`` the value after its
    last step (0 when the game ended there). Each chunk's recursion
    ``A[t] = delta[t] + gamma * lambda * A[t + 1]`` starts from 0 after its last step.
    """
    chunks, longest = lengths.shape[0], int(lengths.max(initial=0))
    starts = np.cumsum(lengths) - lengths
    rows = np.repeat(np.arange(chunks), lengths)
    columns = np.arange(values.shape[0]) - np.repeat(starts, lengths)
    following = np.empty_like(values)  # V(s[t + 1]) of each step
    following[:-1] = values[1:]
    last = starts + lengths - 1
    following[last[lengths > 0]] = bootstraps[lengths > 0]
    # A chunk shorter than the longest is padded with zeros after its last step, so its
    # recursion reaches that step from 0.
    residuals = np.zeros((chunks, longest), dtype=np.float64)
    residuals[rows, columns] = rewards + gamma * following - values
    running = np.zeros(chunks, dtype=np.float64)
    for step in range(longest - 1, -1, -1):
        running = residuals[:, step] + gamma * lambda_ * running
        residuals[:, step] = running
    return residuals[rows, columns]


class PPOBatch(ConnectorV2):
    """The whole learner pipeline of PPO: episodes in, a train batch with GAE targets out."""

    def __init__(
        self,
        input_observation_space: Any = None,
        input_action_space: Any = None,
        *,
        gamma: float,
        lambda_: float,
        **kwargs: Any,
    ) -> None:
        super().__init__(input_observation_space, input_action_space, **kwargs)
        self.gamma = gamma
        self.lambda_ = lambda_

    def __call__(
        self,
        *,
        rl_module: Any,
        batch: dict[str, Any],
        episodes: list[Any],
        explore: bool | None = None,
        shared_data: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        """``batch`` with every module's columns, from the chunks of ``episodes`` it plays.

        ``episodes`` holds RLlib's episodes, or the batched runner's
        :class:`~zoo_games.rllib.chunks.ChunkBatch` samples, or both.
        """
        parts: dict[str, list[ModuleChunks]] = defaultdict(list)
        singles: dict[str, list[SingleAgentEpisode]] = defaultdict(list)
        for sample in episodes:
            if isinstance(sample, ChunkBatch):
                for name, arrays in sample.modules.items():
                    if len(arrays) and name in rl_module:
                        parts[name].append(arrays)
                continue
            for chunk in self.single_agent_episode_iterator(
                [sample], agents_that_stepped_only=False
            ):
                module_id = chunk.module_id
                if len(chunk) and module_id is not None and module_id in rl_module:
                    singles[module_id].append(chunk)
        for name, seat_chunks in singles.items():
            parts[name].append(ModuleChunks.of_episodes(seat_chunks))
        for module_id, module_parts in parts.items():
            batch[module_id] = self._module_batch(
                rl_module[module_id], ModuleChunks.joined(module_parts)
            )
        return batch

    def _module_batch(self, module: Any, chunks: ModuleChunks) -> dict[str, Any]:
        """One module's batch from its chunks (each with at least one step)."""
        lengths, observations = chunks.lengths, chunks.observations
        device = next(module.parameters()).device
        if chunks.values is not None:  # kept by the runner as it sampled
            values_seen = chunks.values.astype(np.float64)
        else:
            with torch.no_grad():
                values_seen = (
                    module.compute_values({Columns.OBS: _tensors(observations, device)})
                    .cpu()
                    .numpy()
                    .astype(np.float64)
                )
        # Each chunk has one observation more than steps: its final one, the bootstrap's.
        finals = np.cumsum(lengths + 1) - 1
        is_step = np.ones(values_seen.shape[0], dtype=bool)
        is_step[finals] = False
        bootstraps = np.where(chunks.terminated, 0.0, values_seen[finals])
        values = values_seen[is_step]
        advantage = advantages(
            values, chunks.rewards, bootstraps, lengths, self.gamma, self.lambda_
        )
        targets = (advantage + values).astype(np.float32)
        advantage = (advantage - advantage.mean()) / max(1e-4, float(advantage.std()))
        columns: dict[str, Any] = {
            Columns.OBS: {key: seen[is_step] for key, seen in observations.items()},
            Columns.ACTIONS: chunks.actions,
            Postprocessing.ADVANTAGES: advantage.astype(np.float32),
            Postprocessing.VALUE_TARGETS: targets,
        }
        for name in MODEL_OUTPUTS:  # at sampling time
            columns[name] = chunks.outputs[name]
        return _tensors(columns, device)


def _tensors(arrays: Any, device: torch.device) -> Any:
    """``arrays`` as tensors on ``device``, sharing memory with each array that allows writing.

    The actions and sampling outputs arrive from a remote runner through Ray's object store,
    read-only, and torch warns about tensors over read-only memory: those are copied (a small
    part of the batch; the observations were already gathered into new arrays).
    """
    return tree.map_structure(
        lambda array: torch.from_numpy(np.require(array, requirements="W")).to(device), arrays
    )
