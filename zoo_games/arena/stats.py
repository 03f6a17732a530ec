"""The statistics of a tournament, as pure functions of outcome counts.

* :func:`wilson_interval`: a 95% interval for a score (wins plus half the draws, over games).
  Wilson's score interval stays inside [0, 1] and keeps a sensible width at 0 or 100%, where
  the usual ``p +- 1.96 sqrt(p(1-p)/n)`` collapses to a point.
* :func:`bradley_terry_elo`: Elo ratings from the maximum-likelihood Bradley-Terry fit of every
  pairing's scores at once, with 95% intervals from the observed Fisher information.

The Bradley-Terry model says agent ``i`` scores against ``j`` with probability
``1 / (1 + 10 ** ((elo_j - elo_i) / 400))``; a draw counts as half a win for each side. Only
differences of ratings are defined, so one agent, the anchor, is fixed at 0 and every other
rating (and its interval) is relative to it.

An agent that never loses (or never wins) has an infinite maximum-likelihood rating. A weak
prior keeps every rating finite: ``prior_draws`` virtual drawn games (default one) between
the anchor and every other agent. With hundreds of real games per pairing it moves the
ratings by a few Elo at most; with no perfect record it can be switched off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054
#: Elo points per natural-log unit of the Bradley-Terry strength.
ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)


def score(wins: int, draws: int, losses: int) -> float:
    """Wins plus half the draws, over the games played (0.5 when no game was played)."""
    games = wins + draws + losses
    return (wins + 0.5 * draws) / games if games else 0.5


def wilson_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a success rate of ``points`` out of ``games``.

    ``points`` may be fractional (a draw is half a point). With ``p = points / games``::

        centre    = (p + z^2 / 2n) / (1 + z^2 / n)
        half-width = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)

    ``(0.0, 1.0)`` when no game was played.
    """
    if games <= 0:
        return (0.0, 1.0)
    if not 0 <= points <= games:
        raise ValueError(f"points must lie between 0 and games={games}, got {points}")
    p = points / games
    denominator = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class EloRating:
    """One agent's fitted rating, relative to the anchor, with its 95% interval."""

    agent: str
    elo: float
    low: float
    high: float


def bradley_terry_elo(
    agents: Sequence[str],
    points: np.ndarray,
    games: np.ndarray,
    anchor: int = 0,
    prior_draws: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 200,
) -> list[EloRating]:
    """Elo ratings of ``agents`` by maximum likelihood, ``agents[anchor]`` fixed at 0.

    ``points[i, j]`` is what agent ``i`` scored against ``j`` (wins + draws / 2) and
    ``games[i, j] == games[j, i]`` the games they played. ``prior_draws`` virtual draws
    between the anchor and every other agent keep the fit finite when a record is perfect
    (see the module docstring). The fit is Newton's method on the concave log-likelihood of
    the strengths ``theta`` (``elo = 400 theta / ln 10``); the 95% intervals are
    ``elo +- 1.96`` standard errors from the inverse of the observed Fisher information
    (the negative Hessian at the optimum), conditional on the anchor.
    """
    size = len(agents)
    points = np.array(points, dtype=float)
    games = np.array(games, dtype=float)
    if points.shape != (size, size) or games.shape != (size, size):
        raise ValueError(f"points and games must be {size}x{size} matrices")
    if not np.allclose(games, games.T) or not np.allclose(points + points.T, games):
        raise ValueError("games must be symmetric and points[i, j] + points[j, i] == games[i, j]")
    if not 0 <= anchor < size:
        raise ValueError(f"anchor must be an index of agents (0 to {size - 1}), got {anchor}")
    if prior_draws < 0:
        raise ValueError(f"prior_draws must be >= 0, got {prior_draws}")
    others = [i for i in range(size) if i != anchor]
    for i in others:
        for a, b in ((i, anchor), (anchor, i)):
            points[a, b] += prior_draws / 2
            games[a, b] += prior_draws

    theta = np.zeros(size)
    for _ in range(max_iterations):
        gradient, information = _gradient_and_information(theta, points, games)
        reduced = np.ix_(others, others)
        try:
            step = np.linalg.solve(information[reduced], gradient[others])
        except np.linalg.LinAlgError as singular:
            raise ValueError(
                "the ratings are not identifiable: some agents are not compared, "
                "directly or through others, with the anchor"
            ) from singular
        # Newton's step on a concave function; halve it until the likelihood does not drop.
        current = _log_likelihood(theta, points, games)
        scale = 1.0
        while True:
            candidate = theta.copy()
            candidate[others] += scale * step
            if _log_likelihood(candidate, points, games) >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta = candidate
        if np.max(np.abs(scale * step), initial=0.0) < tolerance:
            break
    if not np.all(np.isfinite(theta)) or np.max(np.abs(theta)) > 50:
        raise ValueError(
            "a rating diverges (an agent never loses or never wins): fit with prior_draws > 0"
        )
    _, information = _gradient_and_information(theta, points, games)
    covariance = np.zeros((size, size))
    covariance[np.ix_(others, others)] = np.linalg.inv(information[np.ix_(others, others)])
    errors = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return [
        EloRating(
            agent,
            float(ELO_PER_NATURAL_UNIT * theta[i]),
            float(ELO_PER_NATURAL_UNIT * (theta[i] - Z95 * errors[i])),
            float(ELO_PER_NATURAL_UNIT * (theta[i] + Z95 * errors[i])),
        )
        for i, agent in enumerate(agents)
    ]


def expected_score(elo_difference: float) -> float:
    """The Bradley-Terry score of a side rated ``elo_difference`` above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo_difference / 400.0))


def _probabilities(theta: np.ndarray) -> np.ndarray:
    """``p[i, j]``: the model's probability that ``i`` scores against ``j``."""
    return 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))


def _log_likelihood(theta: np.ndarray, points: np.ndarray, games: np.ndarray) -> float:
    """Sum over ordered pairs of ``points[i, j] * log p[i, j]`` (draws as half points)."""
    difference = theta[:, None] - theta[None, :]
    # log p = -log(1 + exp(-(theta_i - theta_j))), computed without overflow.
    return float(-np.sum(points * np.logaddexp(0.0, -difference)))


def _gradient_and_information(
    theta: np.ndarray, points: np.ndarray, games: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The log-likelihood's gradient and its negative Hessian (the Fisher information)."""
    p = _probabilities(theta)
    gradient = np.sum(points - games * p, axis=1)
    weights = games * p * p.T
    np.fill_diagonal(weights, 0.0)
    information = np.diag(weights.sum(axis=1)) - weights
    return gradient, information
