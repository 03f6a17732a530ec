"""A trained RLModule as an :class:`~zoo_games.agents.Agent`, so the arena can play it.

:func:`masked_greedy_action` is the one place where a module turns an observation into an
action (the legal action with the highest logit); :class:`ModuleAgent` applies it to a
rules-core state through the variant's observer, which gives exactly the observation the
environment would give the player to act.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns

from zoo_games.agents.base import Agent, check_decision_node
from zoo_games.catalog import find_variant
from zoo_games.core.adapter import AGENTS
from zoo_games.core.game import GameState


def masked_greedy_action(module: Any, observation: np.ndarray, action_mask: np.ndarray) -> int:
    """The legal action (``action_mask`` 1) with the highest logit of ``module``.

    ``module`` is an RLModule taking ``{"observation", "action_mask"}`` observations, as
    :class:`~zoo_games.rllib.module.MaskedActorCritic` does.
    """
    batch = {
        Columns.OBS: {
            "observation": torch.as_tensor(np.asarray(observation)[None]),
            "action_mask": torch.as_tensor(np.asarray(action_mask)[None]),
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    logits = logits.masked_fill(~torch.as_tensor(action_mask).bool(), -np.inf)
    return int(torch.argmax(logits))


class ModuleAgent(Agent):
    """Plays the greedy action of an in-memory RLModule on variant ``variant_label``.

    ``module`` is one module for both seats (a shared self-play policy), or a mapping from
    seat (``"player_0"``, ``"player_1"``) to the module trained for it. The agent is
    deterministic: ``seed`` is accepted for the arena and otherwise unused.
    """

    name = "module"

    def __init__(
        self, module: Any | Mapping[str, Any], variant_label: str, seed: int | None = None
    ) -> None:
        super().__init__(seed)
        self._modules = (
            [module[seat] for seat in AGENTS]
            if isinstance(module, Mapping)
            else [module] * len(AGENTS)
        )
        self._observer = find_variant(variant_label).raw_env().observer

    def act(self, state: GameState) -> int:
        """The legal action with the highest logit of the module playing this seat."""
        check_decision_node(state)
        player = state.current_player()
        mask = np.frombuffer(state.legal_actions_mask(), dtype=np.int8).copy()
        observation = self._observer.observe(state, player)
        return masked_greedy_action(self._modules[player], observation, mask)
