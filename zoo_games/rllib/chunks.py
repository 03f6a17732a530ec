"""Episode chunks as arrays: what PPO's learner reads of a sample, in a few arrays per module.

RLlib hands samples from its runners to its learners as ``MultiAgentEpisode`` objects: per
game chunk and seat a ``SingleAgentEpisode`` of buffers, dictionaries and spaces. Between
processes every one of those objects is pickled on the runner and rebuilt on the learner's
side, and a batch of 8,000 Senet steps is about a hundred game chunks, two hundred seat chunks
and thousands of small objects: building and pickling them took a third of the runner's time
in a profile of a Kendall run, and the learner's process unpickles them all again
(docs/training.md, "Samples as arrays").

:class:`ChunkBatch` carries the same chunks as a few arrays per module (:class:`ModuleChunks`):
each seat chunk's observations with its final one, its actions, rewards and model outputs,
laid end to end, and per chunk its length and whether its game ended there; and, from the
batched runner, the value of each observation, which its sampling pass computed. The batched
runner builds it straight from its rollout arrays, and :class:`~zoo_games.rllib.ppo_batch.PPOBatch`
reads it as it reads RLlib's episodes (which it turns into :class:`ModuleChunks` with
:meth:`ModuleChunks.of_episodes`), so both paths go through the same learner code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from ray.rllib.core.columns import Columns
from ray.rllib.env.single_agent_episode import SingleAgentEpisode

#: The model outputs each decision keeps, as RLlib's runner keeps them for PPO.
MODEL_OUTPUTS = (Columns.ACTION_LOGP, Columns.ACTION_DIST_INPUTS)


@dataclass
class ModuleChunks:
    """One module's seat chunks, laid end to end (``n`` chunks, ``S`` steps in all).

    ``observations`` holds each chunk's observations and then its final one (the bootstrap's,
    or the game's last): ``S + n`` rows per part. ``actions``, ``rewards`` (the reward each
    action earned, delivered with the seat's next observation) and ``outputs`` (the model's
    :data:`MODEL_OUTPUTS` at sampling time) hold ``S`` rows; ``lengths`` and ``terminated``
    one entry per chunk.
    """

    observations: dict[str, np.ndarray]
    actions: np.ndarray
    rewards: np.ndarray
    outputs: dict[str, np.ndarray]
    lengths: np.ndarray
    terminated: np.ndarray
    #: The value of each observation (``S + n``) at sampling, if the runner kept them; else
    #: the learner makes them with its own value pass.
    values: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.lengths.sum())

    @classmethod
    def joined(cls, parts: Sequence[ModuleChunks]) -> ModuleChunks:
        """The chunks of ``parts``, one after another."""
        if len(parts) == 1:
            return parts[0]
        return cls(
            {
                key: np.concatenate([part.observations[key] for part in parts])
                for key in parts[0].observations
            },
            np.concatenate([part.actions for part in parts]),
            np.concatenate([part.rewards for part in parts]),
            {
                name: np.concatenate([part.outputs[name] for part in parts])
                for name in MODEL_OUTPUTS
            },
            np.concatenate([part.lengths for part in parts]),
            np.concatenate([part.terminated for part in parts]),
            None
            if any(part.values is None for part in parts)
            else np.concatenate([part.values for part in parts]),  # type: ignore[misc]
        )

    @classmethod
    def of_episodes(cls, chunks: Sequence[SingleAgentEpisode]) -> ModuleChunks:
        """RLlib's seat chunks (each with at least one step) as arrays."""
        observed = [chunk.get_observations(slice(0, len(chunk) + 1)) for chunk in chunks]
        steps = [slice(0, len(chunk)) for chunk in chunks]
        return cls(
            {key: np.concatenate([seen[key] for seen in observed]) for key in observed[0]},
            np.concatenate(
                [np.asarray(c.get_actions(s)) for c, s in zip(chunks, steps, strict=True)]
            ),
            np.concatenate(
                [
                    np.asarray(c.get_rewards(s), np.float64)
                    for c, s in zip(chunks, steps, strict=True)
                ]
            ),
            {
                name: np.concatenate(
                    [
                        np.asarray(c.get_extra_model_outputs(name, s))
                        for c, s in zip(chunks, steps, strict=True)
                    ]
                )
                for name in MODEL_OUTPUTS
            },
            np.array([len(chunk) for chunk in chunks], dtype=np.int64),
            np.array([chunk.is_terminated for chunk in chunks], dtype=bool),
        )


@dataclass
class ChunkBatch:
    """A runner's sample: every module's chunks, and the environment steps it took.

    It stands where RLlib's list of episodes stands in a learner's update: the learner counts
    its environment steps with ``len()``.
    """

    modules: dict[str, ModuleChunks]
    steps: int

    def __len__(self) -> int:
        return self.steps

    def env_steps(self) -> int:
        """The environment steps sampled (the sparring partner's moves included)."""
        return self.steps
