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
from zoo_games.rllib.module import MaskedActorCritic


def masked_logits(module: Any, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """The logits of ``module`` for one observation, ``-inf`` for the illegal actions.

    ``module`` is an RLModule taking ``{"observation", "action_mask"}`` observations, as
    :class:`~zoo_games.rllib.module.MaskedActorCritic` does. That one is asked through its
    sampling pass, the same function in numpy on its folded weights: one observation at a
    time, RLlib's ``forward_inference`` (which switches the module to eval mode and back on
    every call) and torch's cost per operation made most of the time of the evaluations that
    training runs (docs/training.md, "The folded training pass, and faster evaluations").
    Another module is asked through ``forward_inference``.
    """
    observation, action_mask = np.asarray(observation)[None], np.asarray(action_mask)[None]
    if isinstance(module, MaskedActorCritic):
        logits = module.sampling_logits(observation, action_mask)[0]
    else:
        batch = {
            Columns.OBS: {
                "observation": torch.as_tensor(observation),
                "action_mask": torch.as_tensor(action_mask),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
    return np.where(action_mask[0] != 0, logits, np.float32(-np.inf))


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
            return int(np.argmax(logits))
        weights = np.exp(logits.astype(np.float64) - logits.max())
        return int(self._rng.choice(len(weights), p=weights / weights.sum()))


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
