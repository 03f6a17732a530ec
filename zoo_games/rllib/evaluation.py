"""Playing a trained RLModule against the uniformly random agent, seats alternated.

The evaluation plays whole games with the plain environment (no RLlib in the loop): the
module picks the legal action with the highest logit, the random agent a uniformly random
legal action, and the module takes ``player_0``'s seat in even games and ``player_1``'s in odd
ones. The result counts the game's outcome, so a loss in a game the module never got to
act in (possible with Senet's extra turns) still counts as a loss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns

from zoo_games.catalog import find_variant

#: A policy: observation dict -> action.
Policy = Callable[[dict[str, np.ndarray]], int]


@dataclass(frozen=True)
class Evaluation:
    """Outcome counts of an evaluation, from the trained side's point of view."""

    games: int
    wins: int
    losses: int
    draws: int

    @property
    def win_rate(self) -> float:
        """Wins over games played."""
        return self.wins / self.games if self.games else 0.0


def masked_logits(module: Any, observation: dict[str, np.ndarray]) -> torch.Tensor:
    """The logits of ``module`` (an RLModule with masking) for one observation, illegal -inf."""
    batch = {
        Columns.OBS: {
            key: torch.as_tensor(np.asarray(value)[None]) for key, value in observation.items()
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    return logits.masked_fill(~torch.as_tensor(observation["action_mask"]).bool(), -np.inf)


def greedy_policy(module: Any) -> Policy:
    """The legal action with the highest logit of ``module`` (an RLModule with masking)."""

    def act(observation: dict[str, np.ndarray]) -> int:
        return int(torch.argmax(masked_logits(module, observation)))

    return act


def evaluate_against_random(
    policies: Mapping[str, Policy] | Policy, label: str, games: int = 200, seed: int = 0
) -> Evaluation:
    """Play ``games`` games of variant ``label``, the trained side alternating seats.

    ``policies`` is one policy for both seats (self-play), or a mapping from seat
    (``"player_0"``/``"player_1"``) to the policy trained for that seat.
    """
    env = find_variant(label).raw_env()  # an illegal action raises: no masking bug hides
    rng = np.random.default_rng(seed)
    wins = losses = draws = 0
    for game in range(games):
        trained_seat = env.possible_agents[game % 2]
        policy = policies if callable(policies) else policies[trained_seat]
        env.reset(seed=seed * 1_000_003 + game)
        result = 0.0
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                if agent == trained_seat:
                    result = reward
                env.step(None)
            elif agent == trained_seat:
                env.step(policy(observation))
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        wins += result > 0
        losses += result < 0
        draws += result == 0
    return Evaluation(games, wins, losses, draws)
