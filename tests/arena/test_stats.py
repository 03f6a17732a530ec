"""The arena's statistics on cases worked by hand or constructed with known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zoo_games.arena.stats import (
    ELO_PER_NATURAL_UNIT,
    Z95,
    bradley_terry_elo,
    expected_score,
    score,
    wilson_interval,
)


def test_score_counts_a_draw_as_half_a_win():
    assert score(6, 2, 2) == pytest.approx(0.7)
    assert score(0, 0, 0) == 0.5


def test_wilson_interval_of_8_out_of_10_by_hand():
    # p = 0.8, n = 10, z^2 = 3.8415: centre 0.99207 / 1.38415 = 0.71674,
    # half-width 1.95996 / 1.38415 * sqrt(0.016 + 0.0096036) = 0.22658.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.49016, abs=1e-4)
    assert high == pytest.approx(0.94331, abs=1e-4)


def test_wilson_interval_at_the_edges_keeps_a_width():
    # 0 of n: the upper end is z^2 / (n + z^2); n of n mirrors it.
    assert wilson_interval(0, 10) == pytest.approx((0.0, Z95**2 / (10 + Z95**2)))
    assert wilson_interval(10, 10) == pytest.approx((1 - Z95**2 / (10 + Z95**2), 1.0))
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_accepts_half_points_and_is_symmetric():
    low, high = wilson_interval(3.5, 10)
    mirrored = wilson_interval(6.5, 10)
    assert (low, high) == pytest.approx((1 - mirrored[1], 1 - mirrored[0]))
    with pytest.raises(ValueError, match="between 0 and games"):
        wilson_interval(11, 10)


def test_expected_score_of_elo_differences():
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert expected_score(100) == pytest.approx(0.640065, abs=1e-6)
    assert expected_score(-200) == pytest.approx(1 - expected_score(200))


def _exact_results(elos: list[float], games: int) -> tuple[np.ndarray, np.ndarray]:
    """Scores exactly as the model expects them for the true ``elos``."""
    size = len(elos)
    points = np.zeros((size, size))
    counts = np.full((size, size), float(games))
    np.fill_diagonal(counts, 0.0)
    for i in range(size):
        for j in range(size):
            if i != j:
                points[i, j] = games * expected_score(elos[i] - elos[j])
    return points, counts


def test_bradley_terry_recovers_known_ratings():
    points, games = _exact_results([0.0, 100.0, 200.0], 1000)
    ratings = bradley_terry_elo(["a", "b", "c"], points, games, anchor=0, prior_draws=0)
    assert [r.elo for r in ratings] == pytest.approx([0.0, 100.0, 200.0], abs=1e-6)
    # The anchor carries no uncertainty; the others' intervals surround them.
    assert (ratings[0].low, ratings[0].high) == (0.0, 0.0)
    assert all(r.low < r.elo < r.high for r in ratings[1:])


def test_bradley_terry_anchor_sets_the_zero():
    points, games = _exact_results([0.0, 100.0, 200.0], 1000)
    ratings = bradley_terry_elo(["a", "b", "c"], points, games, anchor=1, prior_draws=0)
    assert [r.elo for r in ratings] == pytest.approx([-100.0, 0.0, 100.0], abs=1e-6)


def test_bradley_terry_interval_of_two_agents_matches_the_binomial_formula():
    # With two agents the information is n p (1 - p): standard error 1 / sqrt(n p (1 - p)).
    points = np.array([[0.0, 36.0], [64.0, 0.0]])
    games = np.array([[0.0, 100.0], [100.0, 0.0]])
    _, rating = bradley_terry_elo(["a", "b"], points, games, prior_draws=0)
    assert rating.elo == pytest.approx(400 * math.log10(0.64 / 0.36))
    half_width = Z95 * ELO_PER_NATURAL_UNIT / math.sqrt(100 * 0.64 * 0.36)
    assert rating.high - rating.elo == pytest.approx(half_width)
    assert rating.elo - rating.low == pytest.approx(half_width)


def test_the_weak_prior_moves_ratings_only_a_little():
    points, games = _exact_results([0.0, 100.0, 200.0], 1000)
    ratings = bradley_terry_elo(["a", "b", "c"], points, games, prior_draws=1)
    assert [r.elo for r in ratings] == pytest.approx([0.0, 100.0, 200.0], abs=1.0)


def test_perfect_records_stay_finite_with_the_prior_and_diverge_without():
    # a beats b and c every time, b beats c every time.
    games = np.full((3, 3), 10.0)
    np.fill_diagonal(games, 0.0)
    points = np.array([[0.0, 10.0, 10.0], [0.0, 0.0, 10.0], [0.0, 0.0, 0.0]])
    ratings = bradley_terry_elo(["a", "b", "c"], points, games, anchor=2)
    elos = [r.elo for r in ratings]
    assert all(math.isfinite(e) for e in elos + [r.low for r in ratings])
    assert elos[0] > elos[1] > elos[2] == 0.0
    with pytest.raises(ValueError, match="prior_draws"):
        bradley_terry_elo(["a", "b", "c"], points, games, anchor=2, prior_draws=0)


def test_bradley_terry_rejects_inconsistent_counts():
    with pytest.raises(ValueError, match="symmetric"):
        bradley_terry_elo(["a", "b"], np.array([[0, 3], [3, 0]]), np.array([[0, 5], [5, 0]]))
    with pytest.raises(ValueError, match="anchor"):
        bradley_terry_elo(["a", "b"], np.array([[0, 2], [3, 0]]), np.array([[0, 5], [5, 0]]), 2)
