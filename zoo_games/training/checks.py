"""Checks of the settings both trainers share: the network's layers, rates and coefficients.

PPO's :class:`~zoo_games.rllib.train.TrainSettings` and AlphaZero's
:class:`~zoo_games.alphazero.settings.AlphaZeroSettings` refuse the same mistakes with the same
words, before any work starts. The shares of PPO's sparring games are checked here too, so that
the settings and the games they make (:class:`~zoo_games.rllib.batched_games.SelfPlayGames`,
which needs numba) refuse them with the same words.
"""

from __future__ import annotations

import math


def are_sizes(values: list[int]) -> bool:
    """Whether every value is an integer of 1 or more (a layer's width, a channel count)."""
    return all(
        not isinstance(size, bool) and isinstance(size, int) and size >= 1 for size in values
    )


def check_hidden(hidden: list[int]) -> None:
    """``ValueError`` unless ``hidden`` is one or more layer widths of 1 or more."""
    if not hidden or not are_sizes(hidden):
        raise ValueError(f"hidden must be one or more layer sizes of 1 or more, got {hidden}")


def check_positive(name: str, value: float) -> None:
    """``ValueError`` unless ``value`` is a finite number above 0 (a learning rate, a ratio)."""
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be more than 0, got {value}")


def check_non_negative(name: str, value: float) -> None:
    """``ValueError`` unless ``value`` is a finite number of 0 or more (a loss coefficient)."""
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be 0 or more, got {value}")


def check_share(name: str, value: float) -> None:
    """``ValueError`` unless ``value`` is a number from 0 to 1 (a share of games)."""
    if not (math.isfinite(value) and 0 <= value <= 1):
        raise ValueError(f"{name} must be from 0 to 1, got {value}")


def check_sparring_shares(greedy_share: float, random_share: float, greedy_note: str = "") -> None:
    """``ValueError`` unless the shares of games against greedy and random play fit in all.

    Both are shares of the same games; ``greedy_note`` follows the greedy share in the message
    (say, that the user left it at its default).
    """
    if greedy_share + random_share > 1:
        raise ValueError(
            f"greedy_share {greedy_share}{greedy_note} and random_share {random_share} add up to "
            "more than 1: they are shares of the same games"
        )
