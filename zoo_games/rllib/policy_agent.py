"""A trained RLModule as an :class:`~zoo_games.agents.Agent`, so the arena can play it.

:func:`masked_logits` is the one place where a module turns an observation into action
logits (illegal actions at ``-inf``); :class:`ModuleAgent` applies it to a
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
from zoo_games.catalog import Variant, find_variant, variants_of
from zoo_games.core.adapter import AGENTS
from zoo_games.core.game import GameState


def masked_logits(module: Any, observation: np.ndarray, action_mask: np.ndarray) -> torch.Tensor:
    """The logits of ``module`` for one observation, ``-inf`` for the illegal actions.

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
    return logits.masked_fill(~torch.as_tensor(action_mask).bool(), -np.inf)


class ModuleAgent(Agent):
    """Plays an in-memory RLModule on variant ``variant_label``.

    ``module`` is one module for both seats (a shared self-play policy), or a mapping from
    seat (``"player_0"``, ``"player_1"``) to the module trained for it. By default the agent
    plays the legal action with the highest logit (and ``seed`` is unused); ``sample=True``
    draws an action with the masked policy's probabilities, from a generator seeded by
    ``seed``.
    """

    name = "module"

    def __init__(
        self,
        module: Any | Mapping[str, Any],
        variant_label: str,
        sample: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self._modules = (
            [module[seat] for seat in AGENTS]
            if isinstance(module, Mapping)
            else [module] * len(AGENTS)
        )
        self.variant = variant_label
        self.sample = sample
        variant = find_variant(variant_label)
        self._game = variant.game
        self._observer = observer_reading(variant, self._modules).observer
        self._rng = np.random.default_rng(seed)

    def act(self, state: GameState) -> int:
        """The module's action for the player to act in ``state``."""
        check_decision_node(state)
        if state.game.name != self._game.name or state.game.options() != self._game.options():
            raise ValueError(f"this agent was trained on {self.variant!r}, not on {state.game!r}")
        player = state.current_player()
        mask = np.frombuffer(state.legal_actions_mask(), dtype=np.int8).copy()
        logits = masked_logits(self._modules[player], self._observer.observe(state, player), mask)
        if not self.sample:
            return int(torch.argmax(logits))
        probabilities = torch.softmax(logits, dim=-1).double().numpy()
        return int(self._rng.choice(len(probabilities), p=probabilities / probabilities.sum()))


def observer_reading(variant: Variant, modules: list[Any]) -> Variant:
    """The variant with ``variant``'s rules whose observation ``modules`` read.

    That is ``variant`` itself unless its default observation changed after the modules were
    trained (Senet's ``senet-kendall-5`` read the board before it read the moves): then the
    variant that still observes what they read, ``senet-kendall-5-board``, shows them the game.
    ``ValueError`` if no variant of these rules observes that shape.
    """
    read = {tuple(module.observation_space["observation"].shape) for module in modules}
    if {variant.observation_shape} == read:
        return variant
    # Only then the other variants of these rules: making every variant's parts costs about
    # 15 ms, and the arena makes an agent per game.
    for candidate in variants_of(variant.game):
        if {candidate.observation_shape} == read:
            return candidate
    shapes = ", ".join(str(shape) for shape in sorted(read))
    raise ValueError(
        f"this policy reads observations of shape {shapes}, but {variant.label!r} observes "
        f"{variant.observation_shape} and no variant of its rules observes that: it was "
        "trained on another observation of the game"
    )
