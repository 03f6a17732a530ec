"""A run's budget: how much of it is spent, the one test both training loops and resumes use.

A run is given a number of iterations or, without one, minutes of training (minutes counted
across resumes). What share of that is spent decides when a loop stops, whether a resume has
anything left to train, and (for AlphaZero) where the learning-rate schedule stands; all three
ask :func:`share_spent`, so they can never disagree about when a run is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from zoo_games.training.checks import check_positive


@dataclass(frozen=True)
class Budget:
    """``iterations`` when given, else ``minutes``: what a run may train."""

    iterations: int | None
    minutes: float

    def check(self) -> None:
        """``ValueError`` unless the budget trains something: 1 iteration or more, or minutes."""
        if self.iterations is None:
            check_positive("minutes", self.minutes)
        elif self.iterations < 1:
            raise ValueError(f"iterations must be 1 or more, got {self.iterations}")

    def share_spent(self, iterations: int, minutes: float) -> float:
        """The share of the budget ``iterations`` done in ``minutes`` spent; 1 or more: over."""
        if self.iterations is not None:
            return iterations / self.iterations
        return minutes / self.minutes

    def spent_text(self, iterations: int, minutes: float) -> str:
        """What was spent, in the budget's unit: ``"12 iterations"``, ``"20.0 minutes"``."""
        if self.iterations is not None:
            return f"{iterations} iterations"
        return f"{minutes:.1f} minutes"
