"""Togyz Kumalak: the Kazakh mancala game of nine holes, with tuzduks.

| Import             | `zoo_games.togyz_kumalak_v0`                                    |
|--------------------|-----------------------------------------------------------------|
| Registry id        | `zoo_games/TogyzKumalak-v0`                                     |
| Actions            | Discrete                                                        |
| Parallel API       | No                                                              |
| Manual Control     | No                                                              |
| Agents             | `agents= ['player_0', 'player_1']` (White, Black)               |
| Agents             | 2                                                               |
| Action Shape       | (1,)                                                            |
| Action Values      | Discrete(9): sow from the mover's hole `a + 1`                  |
| Observation Shape  | (93,) `observation="captures"`, (39,) `"board"`, (128,) `"tesauro"` |
| Observation Values | board, captures: uint8 [0, 162]; tesauro: float32 [0, 1], `n / 9` [0, 18] |

Each player has nine holes of nine balls and a kazan. A move sows all the balls of one of the
mover's holes counterclockwise, the first ball back into the hole it came from; a last ball
that makes an opponent's hole even captures it, one that makes it three may turn it into the
mover's *tuzduk*, which then collects every ball sown into it. 82 balls win; 81-81 is a draw.
The rules as implemented, and the readings we chose, are in ``docs/togyz_kumalak.md``.

### Arguments

``togyz_kumalak_v0.env(stop_at_majority=True, observation="captures", render_mode=None,
action_mask="observation")``

* ``stop_at_majority``: end the game as soon as a kazan holds 82 (as in practical play);
  ``False`` plays every game out until a player cannot move.
* ``observation``: ``"captures"`` (the board and what each sowing would take now),
  ``"board"`` or ``"tesauro"`` (128 hand-made features), below.
* ``render_mode``: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
* ``action_mask``: ``"observation"`` (dict observations) or ``"info"`` (bare arrays, mask in
  ``infos[agent]["action_mask"]``, for SuperSuit's wrappers).

### Observation space

``"captures"`` (the default): 93 ``uint8`` values: the 39 of ``"board"``, then for each hole of
the observer and then of the opponent, as if its owner were to move, the balls sowing it would
put in each kazan and whether it would make a tuzduk (listed in full in
``docs/togyz_kumalak.md``). A network reads captures and threats off it instead of learning to
count sowings: PPO and AlphaZero both learn far more from it than from the board alone.

``"board"``: 39 ``uint8`` values from the observer's side: its holes 1-9, the opponent's holes
1-9, its kazan, the opponent's kazan, its tuzduk (one-hot over the opponent's holes), the
opponent's tuzduk (one-hot over its holes), and 1 if it is to move.

``"tesauro"``: 128 ``float32`` features, the same for both players, in the style of Tesauro's
backgammon encoding: for each hole thresholds, parities and scaled counts, whether it is a
tuzduk, then the kazans and the side to move (listed in full in ``docs/togyz_kumalak.md``).

### Legal action mask

``action_mask`` (``int8``, length 9) marks the mover's holes that hold balls.

### Action space

``Discrete(9)``: action ``a`` sows from the mover's hole ``a + 1``. Holes are numbered 1 to 9
from each player's own left, so the same action means the same hole for White and Black.

### Rewards

+1 to the winner, -1 to the loser, 0 to both for 81-81; 0 before the end.

### Tournament notation

``env.unwrapped.action_to_string(a)`` names a move (``"76"``, ``"36x"``), ``record()`` returns the
game so far, and ``zoo_games.togyz_kumalak.notation.replay(moves)`` plays a record.

### Version History

* v0: Initial release (0.1.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from zoo_games.core.adapter import BoardGameEnv, GameParts
from zoo_games.core.errors import check_option
from zoo_games.core.standard_wrappers import standard_wrappers
from zoo_games.togyz_kumalak.observation import (
    DEFAULT_ENCODING,
    ENCODINGS,
    BoardObserver,
    CapturesObserver,
    TesauroObserver,
)
from zoo_games.togyz_kumalak.render import TogyzKumalakRenderer
from zoo_games.togyz_kumalak.rules import TogyzKumalakGame, TogyzKumalakState

VARIANTS: dict[str, dict[str, Any]] = {
    "togyz-kumalak": {},
    "togyz-kumalak-board": {"observation": "board"},
    "togyz-kumalak-tesauro": {"observation": "tesauro"},
    "togyz-kumalak-captures": {"observation": "captures"},
    "togyz-kumalak-full": {"stop_at_majority": False},
}


def parts(stop_at_majority: bool = True, observation: str = DEFAULT_ENCODING) -> GameParts:
    """The rules, observer and renderer of the variant with these options."""
    check_option("observation", observation, ENCODINGS)
    observer: BoardObserver | TesauroObserver | CapturesObserver
    if observation == "tesauro":
        observer = TesauroObserver()
    elif observation == "board":
        observer = BoardObserver()
    else:
        observer = CapturesObserver()
    game = TogyzKumalakGame(stop_at_majority=stop_at_majority)
    return GameParts(game, observer, TogyzKumalakRenderer())


class raw_env(BoardGameEnv):  # PettingZoo names the unwrapped class raw_env
    """Togyz Kumalak without PettingZoo's wrappers (illegal actions raise ``ValueError``).

    Takes the options of :func:`env`.
    """

    metadata = {**BoardGameEnv.metadata, "name": "togyz_kumalak_v0"}

    def __init__(
        self,
        stop_at_majority: bool = True,
        observation: str = DEFAULT_ENCODING,
        render_mode: str | None = None,
        action_mask: str = "observation",
    ) -> None:
        super().__init__(
            *parts(stop_at_majority=stop_at_majority, observation=observation),
            render_mode=render_mode,
            action_mask=action_mask,
        )

    def record(self) -> list[str]:
        """The moves played since ``reset`` (from the start or the loaded position)."""
        return list(self._state().moves)

    def _state(self) -> TogyzKumalakState:
        state = self.game_state
        if state is None:
            raise ValueError("call reset() first")
        assert isinstance(state, TogyzKumalakState)
        return state


def env(
    stop_at_majority: bool = True,
    observation: str = DEFAULT_ENCODING,
    render_mode: str | None = None,
    action_mask: str = "observation",
) -> AECEnv:
    """Togyz Kumalak with PettingZoo's standard wrappers (illegal move loses, bounds, order).

    Args:
        stop_at_majority: end the game as soon as a kazan holds 82 balls; ``False`` plays
            every game out until a player cannot move.
        observation: ``"captures"`` (93 ``uint8`` values: the board and what sowing each
            hole would take now), ``"board"`` (39 ``uint8`` counts from the observer's side)
            or ``"tesauro"`` (128 ``float32`` values).
        render_mode: ``None``, ``"human"`` (prints the board), ``"ansi"`` or ``"rgb_array"``.
        action_mask: ``"observation"`` for ``{"observation", "action_mask"}`` dicts, or
            ``"info"`` for bare arrays with the mask in ``infos[agent]["action_mask"]``.
    """
    return standard_wrappers(
        raw_env(
            stop_at_majority=stop_at_majority,
            observation=observation,
            render_mode=render_mode,
            action_mask=action_mask,
        )
    )
