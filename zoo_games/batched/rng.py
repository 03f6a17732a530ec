"""One small random generator per game, so that a batch is reproducible however it is run.

Each game of a batch owns a 64-bit SplitMix64 state (Steele, Lea and Flood, 2014) in a
``uint64`` array. A game's draws (its random legal actions, Senet's throws) come only from its
own state, so the numbers a game sees depend on the seed and on that game's history, never on
how many threads ran the batch or in which order the games were visited.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit

#: An integer as the kernels receive it: a Python ``int`` or a numpy integer (numba passes
#: both alike; the annotation is for readers and type checkers).
Integer: TypeAlias = int | np.integer

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_SHIFT_11 = np.uint64(11)
_SHIFT_27 = np.uint64(27)
_SHIFT_30 = np.uint64(30)
_SHIFT_31 = np.uint64(31)
#: 2 ** -53: a 53-bit integer times this is a float64 uniform in [0, 1).
_UNIT = 1.0 / 9007199254740992.0


def seed_states(seed: int | None, batch_size: int) -> np.ndarray:
    """``batch_size`` independent generator states made from ``seed`` by numpy's SeedSequence."""
    return np.random.SeedSequence(seed).generate_state(batch_size, np.uint64)


@njit(cache=True, inline="always")
def next_uint64(states: np.ndarray, game: Integer) -> np.uint64:
    """The next 64 random bits of ``game``'s generator (SplitMix64), advancing it."""
    z = states[game] + _GOLDEN_GAMMA
    states[game] = z
    z = (z ^ (z >> _SHIFT_30)) * _MIX_1
    z = (z ^ (z >> _SHIFT_27)) * _MIX_2
    return z ^ (z >> _SHIFT_31)


@njit(cache=True, inline="always")
def uniform(states: np.ndarray, game: Integer) -> float:
    """A float64 uniform in [0, 1) from ``game``'s generator (its top 53 bits)."""
    return float(next_uint64(states, game) >> _SHIFT_11) * _UNIT


@njit(cache=True, inline="always")
def below(states: np.ndarray, game: Integer, n: Integer) -> int:
    """A uniform integer in ``[0, n)`` from ``game``'s generator."""
    return min(int(uniform(states, game) * n), n - 1)
