"""Symmetries of a game's board as maps of observations and actions, for data augmentation.

A symmetry of the board (Santorini's quarter turns and reflections) takes every position to
one exactly as good for the same player. Seen through an observer, it is a permutation of the
observation's values and of the actions: :class:`Symmetry` holds both as gathers
(``new = old[gather]``), so that a training position can be shown in another guise without
the state it came from. An observer whose game has such symmetries offers them with a
``symmetries(num_actions)`` method; :func:`symmetries_of` asks for them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Symmetry(NamedTuple):
    """One symmetry seen through an observer, as two gathers.

    ``observe(turned) == observe(state).reshape(-1)[observation]`` and ``mask(turned) ==
    mask(state)[actions]`` (likewise any per-action array, such as a policy).
    """

    observation: np.ndarray
    actions: np.ndarray


def symmetries_of(observer: Any, num_actions: int) -> tuple[Symmetry, ...]:
    """The symmetries ``observer`` offers for ``num_actions`` actions; empty if none.

    The identity comes first.
    """
    offered = getattr(observer, "symmetries", None)
    return () if offered is None else tuple(offered(num_actions))
