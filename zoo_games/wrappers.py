"""Observation wrappers that keep the action mask, built on SuperSuit.

SuperSuit's observation wrappers (``flatten_v0``, ``dtype_v0``, ``normalize_obs_v0``, ...) read
``space.low``/``space.high`` and therefore accept only ``Box`` observation spaces: they fail on
the ``{"observation", "action_mask"}`` dicts that masked environments use. There are two ways
through, both supported and tested:

1. make the environment with ``action_mask="info"``: observations are then bare arrays (the
   mask moves to ``infos[agent]["action_mask"]``, where PettingZoo's illegal-move wrapper and
   ``api_test`` look for it) and every SuperSuit observation wrapper applies as it is;
2. keep the dict and transform only its ``"observation"`` entry with :func:`flatten_observation`,
   itself a ``supersuit.observation_lambda_v0``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import supersuit
from gymnasium import spaces
from pettingzoo import AECEnv


def flatten_observation(env: AECEnv, dtype: Any = None) -> AECEnv:
    """Flatten ``obs["observation"]`` to one dimension (optionally casting it), keeping the mask.

    ``dtype=np.float32`` gives the float vectors most neural networks want; bounds and the
    observation space follow the cast exactly.
    """

    def inner_space(space: spaces.Dict) -> spaces.Box:
        box = space["observation"]
        assert isinstance(box, spaces.Box), "the observation entry must be a Box"
        target: Any = np.dtype(dtype) if dtype is not None else box.dtype
        return spaces.Box(
            low=box.low.reshape(-1).astype(target),
            high=box.high.reshape(-1).astype(target),
            dtype=target,
        )

    def change_space(space: spaces.Dict, agent: str | None = None) -> spaces.Dict:
        if not isinstance(space, spaces.Dict) or "action_mask" not in space.spaces:
            raise ValueError(
                "flatten_observation expects {'observation', 'action_mask'} dict observations; "
                "for environments made with action_mask='info' use supersuit.flatten_v0 directly"
            )
        return spaces.Dict({"observation": inner_space(space), "action_mask": space["action_mask"]})

    def change_observation(
        observation: dict[str, np.ndarray], space: spaces.Dict, agent: str | None = None
    ) -> dict[str, np.ndarray]:
        target = np.dtype(dtype) if dtype is not None else observation["observation"].dtype
        return {
            "observation": observation["observation"].reshape(-1).astype(target, copy=False),
            "action_mask": observation["action_mask"],
        }

    return supersuit.observation_lambda_v0(env, change_observation, change_space)
