"""Stones: take 1, 2 or 3 stones; whoever takes the last one wins (a toy game for the tests).

| Import             | `zoo_games.stones_v0`                  |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action Shape       | (1,)                                   |
| Action Values      | Discrete(3)                            |
| Observation Shape  | (2,)                                   |
| Observation Values | [0, stones], [0, 1]                    |

### Arguments

``stones_v0.env(stones=10, render_mode=None, action_mask="observation")``

### Observation space

The stones left, and 1 if the observer is to take.

### Legal action mask

``action_mask`` marks the legal actions of the player to take; all zeros for the other.

### Action space

Action ``a`` takes ``a + 1`` stones.

### Rewards

+1 to the player who takes the last stone, -1 to the other.

### Version History

* v0: the toy of tests/test_adding_a_game.py
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from zoo_games.core.adapter import BoardGameEnv, GameParts
from zoo_games.core.errors import check_option
from zoo_games.core.standard_wrappers import standard_wrappers
from zoo_games.stones.observation import StonesObserver
from zoo_games.stones.render import StonesRenderer
from zoo_games.stones.rules import StonesGame

VARIANTS: dict[str, dict[str, Any]] = {"stones-10": {"stones": 10}, "stones-21": {"stones": 21}}


def parts(stones: int = 10) -> GameParts:
    """The rules, observer and renderer of a pile of ``stones``."""
    game = StonesGame(stones=check_option("stones", stones, (10, 21)))
    return GameParts(game, StonesObserver(game), StonesRenderer())


class raw_env(BoardGameEnv):  # PettingZoo names the unwrapped class raw_env
    """Stones without PettingZoo's wrappers (illegal actions raise ``ValueError``)."""

    metadata = {**BoardGameEnv.metadata, "name": "stones_v0"}

    def __init__(
        self, stones: int = 10, render_mode: str | None = None, action_mask: str = "observation"
    ) -> None:
        super().__init__(*parts(stones), render_mode, action_mask)


def env(**kwargs: Any) -> AECEnv:
    """Stones with PettingZoo's standard wrappers."""
    return standard_wrappers(raw_env(**kwargs))
