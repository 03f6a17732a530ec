"""Checks of the settings both trainers share: the network's layers, rates and coefficients.

PPO's :class:`~zoo_games.rllib.train.TrainSettings` and AlphaZero's
:class:`~zoo_games.alphazero.settings.AlphaZeroSettings` refuse the same mistakes with the same
words, before any work starts. The shares of PPO's sparring games are checked here too, so that
the settings and the games they make (:class:`~zoo_games.rllib.batched_games.SelfPlayGames`,
which needs numba) refuse them with the same words.
"""

from __future__ import annotations

import math
import os

#: The largest seed a run takes: RLlib seeds numpy's global generator, which takes 0 to
#: 2**32 - 1 (and torch, which takes less than 2**64).
MAX_SEED = 2**32 - 1


def are_sizes(values: list[int]) -> bool:
    """Whether every value is an integer of 1 or more (a layer's width, a channel count)."""
    return all(
        not isinstance(size, bool) and isinstance(size, int) and size >= 1 for size in values
    )


def check_hidden(hidden: list[int]) -> None:
    """``ValueError`` unless ``hidden`` is one or more layer widths of 1 or more."""
    if not hidden or not are_sizes(hidden):
        raise ValueError(f"hidden must be one or more layer sizes of 1 or more, got {hidden}")


def check_seed(seed: int) -> None:
    """``ValueError`` unless ``seed`` is a whole number every library of a run can take."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")


def usable_cores() -> int:
    """The cores this process may run on (what a Ray of the run's own is given)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # pragma: no cover - platforms without affinity (macOS)


def check_local_actors(name: str, count: int, address: str | None) -> None:
    """``ValueError`` if ``count`` one-core Ray actors cannot all start on this machine.

    Without a cluster ``address`` the run starts a Ray of its own, which has one slot per
    core: an actor beyond them would wait for a free core for ever, and the run with it.
    """
    cores = usable_cores()
    if address is None and count > cores:
        raise ValueError(
            f"{name} {count} is more than this machine's {cores} cores: each runs on a core of "
            f"its own, so the rest would wait for ever; ask for at most {cores}, or give the "
            "address of a Ray cluster that has more"
        )


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
