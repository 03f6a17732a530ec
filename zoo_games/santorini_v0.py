"""Santorini: the base game of building and climbing, for two players with two workers each.

| Import             | `zoo_games.santorini_v0`                                          |
|--------------------|-------------------------------------------------------------------|
| Registry id        | `zoo_games/Santorini-v0`                                          |
| Actions            | Discrete                                                          |
| Parallel API       | No                                                                |
| Manual Control     | No                                                                |
| Agents             | `agents= ['player_0', 'player_1']`                                |
| Agents             | 2                                                                 |
| Action Shape       | (1,)                                                              |
| Action Values      | Discrete(128), or Discrete(153) with `setup="placement"`          |
| Observation Shape  | (5, 5, 15); (535,) or (806,) with `observation="tactics"/"workers"` |
| Observation Values | uint8: [0, 1], parts-left counts [0, 22]                           |

On a 5x5 board each turn moves one of the player's workers to a neighbouring cell (at most
one level up, never onto a dome or another worker) and then builds with it next to its new
cell: one level up, or a dome on level 3, while parts last. Moving up onto level 3 wins at
once; a player who cannot move and build on its turn loses. The rules as implemented, and the
readings we chose, are in ``docs/santorini.md``.

### Arguments

``santorini_v0.env(setup="fixed", render_mode=None, action_mask="observation",
observation="planes")``

* ``setup``: ``"fixed"`` (player_0's workers start on cells 2 and 22, player_1's on 10 and 14,
  cells numbered ``5 * row + column``) or
  ``"placement"`` (player_0 places both its workers on empty cells, then player_1).
* ``render_mode``: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
* ``action_mask``: ``"observation"`` (dict observations) or ``"info"`` (bare arrays, mask in
  ``infos[agent]["action_mask"]``, for SuperSuit's wrappers).
* ``observation``: ``"planes"``, ``"tactics"`` or ``"workers"`` (below).

### Observation space

``uint8`` planes ``(5, 5, 15)``: one-hot heights (level 0-3, dome), the observer's workers 0
and 1, the opponent's workers 0 and 1, the four parts-left counts and the placement and
to-move flags as constant planes.

``observation="tactics"``: 535 ``uint8`` values: the planes flattened (375), then 16 values
for the climbs onto level 3 (a win) each of the observer's workers could make in each
direction, 16 for the opponent's, and one per action (128): whether after that move and
build an opponent worker on level 2 stands next to a free level-3 cell (listed in full in
``docs/santorini.md``). A network reads wins and the moves that give one away off it.

``observation="workers"``: 806 ``uint8`` values: for the observer's workers 0 and 1, then the
opponent's, the 5 x 5 cells centred on the worker (8 values each: one-hot height, off the
board, an observer's worker, an opponent's worker), then the four parts-left counts and the
placement and to-move flags. The board as each worker sees it: the actions are directions
from a worker, so a pattern around a worker means the same wherever it stands.

### Legal action mask

``action_mask`` (``int8``, length 128, or 153 with ``setup="placement"``) marks exactly the
legal actions of the agent to act, and is all zeros for the other agent. For a winning move
(up onto level 3) all eight build directions are legal: no build follows a win.

### Action space

``64 * w + 8 * m + b``: worker ``w``, move direction ``m``, build direction ``b`` (from the
new cell), directions NW, N, NE, W, E, SW, S, SE. With ``setup="placement"``, ``128 + cell``
places the next worker.

### Rewards

+1 to the winner, -1 to the loser; 0 before the end.

### Version History

* v0: Initial release (0.1.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv

from zoo_games.core.adapter import BoardGameEnv, GameParts, Observer
from zoo_games.core.errors import check_option
from zoo_games.core.standard_wrappers import standard_wrappers
from zoo_games.santorini.observation import (
    ENCODINGS,
    SantoriniObserver,
    TacticsObserver,
    WorkersObserver,
)
from zoo_games.santorini.render import SantoriniRenderer
from zoo_games.santorini.rules import SantoriniGame

VARIANTS: dict[str, dict[str, Any]] = {
    "santorini-fixed": {"setup": "fixed"},
    "santorini-placement": {"setup": "placement"},
    "santorini-fixed-tactics": {"setup": "fixed", "observation": "tactics"},
    "santorini-fixed-workers": {"setup": "fixed", "observation": "workers"},
}
#: The observer of each encoding.
OBSERVERS: dict[str, Callable[[], Observer[Any]]] = {
    "planes": SantoriniObserver,
    "tactics": TacticsObserver,
    "workers": WorkersObserver,
}


def parts(setup: str = "fixed", observation: str = "planes") -> GameParts:
    """The rules, observer and renderer of the variant with these options."""
    check_option("observation", observation, ENCODINGS)
    game = SantoriniGame(setup=setup)
    return GameParts(game, OBSERVERS[observation](), SantoriniRenderer())


class raw_env(BoardGameEnv):  # PettingZoo names the unwrapped class raw_env
    """Santorini without PettingZoo's wrappers (illegal actions raise ``ValueError``).

    Takes the options of :func:`env`.
    """

    metadata = {**BoardGameEnv.metadata, "name": "santorini_v0"}

    def __init__(
        self,
        setup: str = "fixed",
        render_mode: str | None = None,
        action_mask: str = "observation",
        observation: str = "planes",
    ) -> None:
        super().__init__(
            *parts(setup=setup, observation=observation),
            render_mode=render_mode,
            action_mask=action_mask,
        )


def env(
    setup: str = "fixed",
    render_mode: str | None = None,
    action_mask: str = "observation",
    observation: str = "planes",
) -> AECEnv:
    """Santorini with PettingZoo's standard wrappers (illegal move loses, bounds, order).

    Args:
        setup: ``"fixed"`` (workers start on cells 2, 22 and 10, 14) or ``"placement"``
            (the players place their workers first).
        render_mode: ``None``, ``"human"`` (prints the board), ``"ansi"`` or ``"rgb_array"``.
        action_mask: ``"observation"`` for ``{"observation", "action_mask"}`` dicts, or
            ``"info"`` for bare arrays with the mask in ``infos[agent]["action_mask"]``.
        observation: ``"planes"`` (``(5, 5, 15)`` ``uint8``), ``"tactics"`` (535 ``uint8``:
            the planes flattened, then the climbs that win and the moves that let the
            opponent climb) or ``"workers"`` (806 ``uint8``: the 5 x 5 cells around each
            worker, then the parts left).
    """
    return standard_wrappers(
        raw_env(
            setup=setup, render_mode=render_mode, action_mask=action_mask, observation=observation
        )
    )
