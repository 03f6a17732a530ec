"""The learning rate over a run: a cosine from the first rate down to a share of it.

Both trainers use it. With a constant rate a network moves as fast in the last minutes of a
run as in the first: its play swings from one evaluation to the next, and the player a run ends
with is one draw of that swing. Letting the rate fall settles the last minutes. The share of
the rate left depends only on the share of the budget spent
(:meth:`~zoo_games.training.budget.Budget.share_spent`), so a resumed run continues the same
schedule.
"""

from __future__ import annotations

import math


def decayed(done: float, final_fraction: float) -> float:
    """The share of the learning rate left when ``done`` of the budget is spent.

    It falls along a cosine from 1 at the start to ``final_fraction`` at the end, and stays
    there if a run overruns its budget; a ``final_fraction`` of 1 keeps the rate constant.
    """
    done = min(max(done, 0.0), 1.0)
    return final_fraction + (1 - final_fraction) * 0.5 * (1 + math.cos(math.pi * done))


def check_final_fraction(value: float) -> None:
    """``ValueError`` unless ``value`` is more than 0 and at most 1 (1: a constant rate)."""
    if not (math.isfinite(value) and 0 < value <= 1):
        raise ValueError(f"final_lr_fraction must be more than 0 and at most 1, got {value}")
