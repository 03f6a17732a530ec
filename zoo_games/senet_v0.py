"""Senet: the ancient Egyptian race game, with Kendall's or Skyruk's rules.

| Import             | `zoo_games.senet_v0` or `pettingzoo.make("aec", "zoo_games/Senet-v0")` |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete                                                               |
| Parallel API       | No                                                                     |
| Manual Control     | No                                                                     |
| Agents             | `agents= ['player_0', 'player_1']`                                     |
| Agents             | 2                                                                      |
| Action Shape       | (1,)                                                                   |
| Action Values      | Discrete(10 * num_pieces + 1): 51 or 71                                |
| Observation Shape  | (67 + 36 * num_pieces,): (247,) or (319,); `"board"`: (217,) or (277,) |
| Observation Values | [0, 1], borne-off counts [0, num_pieces], move values see below        |

Two players race their dancers (``player_0`` the spools, ``player_1`` the cons) along the
S-shaped path of 30 houses and bear them off. Four sticks give throws 1 to 5 (chance, drawn
with the environment's seeded generator); a throw of 1, 4 or 5 gives the same player another
throw, so the same agent is often selected several times in a row. Under Skyruk's rules a dancer
that reaches the House of Happiness moves on at once with a new throw: again the same agent
is selected, and its mask offers only that dancer's move. The rules as implemented, and every
reading we chose where the rules are unclear, are in ``docs/senet.md``.

### Arguments

``senet_v0.env(rules="kendall", num_pieces=5, render_mode=None, action_mask="observation",
observation="moves")``

* ``rules``: ``"kendall"`` or ``"skyruk"``.
* ``num_pieces``: dancers per side, ``5`` or ``7``.
* ``render_mode``: ``None``, ``"human"`` (prints the board), ``"ansi"`` or ``"rgb_array"``.
* ``action_mask``: ``"observation"`` gives ``{"observation", "action_mask"}`` dicts;
  ``"info"`` gives the bare observation array and puts the mask in
  ``infos[agent]["action_mask"]`` (the form SuperSuit's observation wrappers accept).
* ``observation``: ``"moves"`` (the board, then what each of the mover's dancers would do with
  its throw) or ``"board"`` (the board alone).

### Observation space

A flat ``int8`` vector from the observing agent's side: 30 values for its dancers on houses 1
to 30, 30 for the opponent's, the one-hot throw (5 values, all zero unless the observer is the
one to act), the observer's and the opponent's dancers borne off, then for each of the
observer's dancers ``i`` (counted from the rear, as the actions count them) its house, one-hot
over 30 values. ``observation="board"`` ends here.

The default ``observation="moves"`` goes on with 6 values per dancer ``i``: whether it has a
legal move, the houses it would gain (31 for borne off; negative backward or into the Water),
whether it would beat a dancer, whether it would be borne off, whether it would then be safe
from being beaten, and otherwise how many opponent dancers would stand 1 to 5 houses behind
it; all zero unless the observer is the one to act (``zoo_games.senet.observation.MovesObserver``).
Networks learn far better from it than from the board alone (``docs/training_results.md``).

### Legal action mask

``action_mask`` (``int8``, length ``10 * num_pieces + 1``) marks exactly the legal actions of the
agent to act, and is all zeros for the other agent.

### Action space

``0`` is the pass (legal only when no dancer can move). Dancer ``i`` is the mover's ``i``-th
dancer counted from the start of the path (0 = rearmost). Moving it forward by the throw ``s`` is
``10 * i + s``; backward (allowed only when no forward move exists) is ``10 * i + 11 - s``.

### Rewards

+1 to the side that bears off all its dancers first, -1 to the other; 0 before the end.
Through ``env()``, an illegal action ends the game with -1 for the offender and 0 for the other.

### Positions

``env.unwrapped.position()`` gives ``"<board> <mover> <throw>"``, for example
``"CSCSCSCSCS.................... S 3"``; ``env.reset(options={"position": ...})`` loads one
(the throw may be left out: the environment then throws).

### Version History

* v0: Initial release (0.1.0)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from zoo_games.core.adapter import BoardGameEnv, GameParts
from zoo_games.core.errors import check_option
from zoo_games.core.standard_wrappers import standard_wrappers
from zoo_games.senet.observation import (
    DEFAULT_ENCODING,
    ENCODINGS,
    MovesObserver,
    SenetObserver,
)
from zoo_games.senet.render import SenetRenderer
from zoo_games.senet.rules import SenetGame

VARIANTS: dict[str, dict[str, Any]] = {
    **{
        f"senet-{rules}-{pieces}": {"rules": rules, "num_pieces": pieces}
        for rules in ("kendall", "skyruk")
        for pieces in (5, 7)
    },
    **{
        f"senet-{rules}-5-{encoding}": {"rules": rules, "num_pieces": 5, "observation": encoding}
        for encoding in ("moves", "board")
        for rules in ("kendall", "skyruk")
    },
}


def parts(
    rules: str = "kendall", num_pieces: int = 5, observation: str = DEFAULT_ENCODING
) -> GameParts:
    """The rules, observer and renderer of the variant with these options."""
    check_option("observation", observation, ENCODINGS)
    game = SenetGame(rules=rules, num_pieces=num_pieces)
    observer = MovesObserver(game) if observation == "moves" else SenetObserver(game)
    return GameParts(game, observer, SenetRenderer())


class raw_env(BoardGameEnv):  # PettingZoo names the unwrapped class raw_env
    """Senet without PettingZoo's wrappers (illegal actions raise ``ValueError``).

    Takes the options of :func:`env`.
    """

    metadata = {**BoardGameEnv.metadata, "name": "senet_v0"}

    def __init__(
        self,
        rules: str = "kendall",
        num_pieces: int = 5,
        render_mode: str | None = None,
        action_mask: str = "observation",
        observation: str = DEFAULT_ENCODING,
    ) -> None:
        super().__init__(
            *parts(rules=rules, num_pieces=num_pieces, observation=observation),
            render_mode=render_mode,
            action_mask=action_mask,
        )


def env(
    rules: str = "kendall",
    num_pieces: int = 5,
    render_mode: str | None = None,
    action_mask: str = "observation",
    observation: str = DEFAULT_ENCODING,
) -> AECEnv:
    """Senet with PettingZoo's standard wrappers (illegal move loses, bounds check, call order).

    Args:
        rules: ``"kendall"`` or ``"skyruk"``.
        num_pieces: dancers per side, ``5`` or ``7``.
        render_mode: ``None``, ``"human"`` (prints the board), ``"ansi"`` or ``"rgb_array"``.
        action_mask: ``"observation"`` for ``{"observation", "action_mask"}`` dicts, or
            ``"info"`` for bare arrays with the mask in ``infos[agent]["action_mask"]``.
        observation: ``"moves"`` (the board, throw and dancers, then what each of the mover's
            dancers would do with its throw) or ``"board"`` (without the moves).
    """
    return standard_wrappers(
        raw_env(
            rules=rules,
            num_pieces=num_pieces,
            render_mode=render_mode,
            action_mask=action_mask,
            observation=observation,
        )
    )
